//! The fixed-function halves' numeric state (binding 0 of each group, in both modes): matrices,
//! material, lights, fog range, texture factor, … as C structs, and their uniform bytes.

use d3d9_shader::ffp::constants::{LightValues, PixelConstants, VertexConstants, WORLD_MATRICES};

use crate::error::{guard, sized, write, D3d9sStatus, Failure};
use crate::D3d9sBuffer;

/// One light's values (D3DLIGHT9) in world space; angles in radians.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3d9sFfpLight {
    /// Diffuse colour.
    pub diffuse: [f32; 4],
    /// Specular colour.
    pub specular: [f32; 4],
    /// Ambient colour.
    pub ambient: [f32; 4],
    /// Position.
    pub position: [f32; 3],
    /// Direction.
    pub direction: [f32; 3],
    /// Range.
    pub range: f32,
    /// Falloff.
    pub falloff: f32,
    /// Attenuation0, 1, 2.
    pub attenuation: [f32; 3],
    /// Theta (radians).
    pub theta: f32,
    /// Phi (radians).
    pub phi: f32,
}

/// The vertex half's numeric state (`FfpVertex`, group 0 binding 0). Fill it with
/// [`d3d9s_ffp_vertex_constants_default`]. Matrices are D3DMATRIX's 16 floats, row-major.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sFfpVertexConstants {
    /// `sizeof(D3d9sFfpVertexConstants)`.
    pub size: u32,
    /// WORLDMATRIX(0) … (7).
    pub world: [[f32; 16]; 8],
    /// D3DTS_VIEW.
    pub view: [f32; 16],
    /// D3DTS_PROJECTION.
    pub projection: [f32; 16],
    /// D3DTS_TEXTURE0 … 7.
    pub texture: [[f32; 16]; 8],
    /// Material diffuse, ambient, specular, emissive.
    pub material: [[f32; 4]; 4],
    /// Material power.
    pub power: f32,
    /// D3DRS_TWEENFACTOR.
    pub tween_factor: f32,
    /// D3DRS_AMBIENT as floats.
    pub ambient: [f32; 4],
    /// FOGSTART, FOGEND, FOGDENSITY.
    pub fog: [f32; 3],
    /// Render-target width and height (pre-transformed vertices).
    pub viewport: [f32; 2],
    /// The enabled lights (0–8), in the order of the state's enabled lights.
    pub light_count: u32,
    /// Their values.
    pub lights: [D3d9sFfpLight; 8],
    /// POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX.
    pub point: [f32; 3],
    /// POINTSCALE_A, B, C.
    pub point_scale: [f32; 3],
}

/// The pixel half's numeric state (`FfpPixel`, group 1 binding 0). Fill it with
/// [`d3d9s_ffp_pixel_constants_default`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sFfpPixelConstants {
    /// `sizeof(D3d9sFfpPixelConstants)`.
    pub size: u32,
    /// TEXTUREFACTOR as floats (r, g, b, a).
    pub texture_factor: [f32; 4],
    /// FOGCOLOR.
    pub fog_color: [f32; 3],
    /// FOGSTART, FOGEND, FOGDENSITY (table fog).
    pub fog: [f32; 3],
    /// ALPHAREF (its low byte is compared).
    pub alpha_ref: u32,
    /// D3DTSS_CONSTANT per stage.
    pub constant: [[f32; 4]; 8],
    /// BUMPENVMAT00, 01, 10, 11 per stage.
    pub bump_matrix: [[f32; 4]; 8],
    /// BUMPENVLSCALE, BUMPENVLOFFSET per stage.
    pub bump_luminance: [[f32; 2]; 8],
}

fn light_to_c(l: &LightValues) -> D3d9sFfpLight {
    D3d9sFfpLight {
        diffuse: l.diffuse,
        specular: l.specular,
        ambient: l.ambient,
        position: l.position,
        direction: l.direction,
        range: l.range,
        falloff: l.falloff,
        attenuation: l.attenuation,
        theta: l.theta,
        phi: l.phi,
    }
}

fn light_to_rust(l: &D3d9sFfpLight) -> LightValues {
    LightValues {
        diffuse: l.diffuse,
        specular: l.specular,
        ambient: l.ambient,
        position: l.position,
        direction: l.direction,
        range: l.range,
        falloff: l.falloff,
        attenuation: l.attenuation,
        theta: l.theta,
        phi: l.phi,
    }
}

/// Fills `*out` with the defaults (identity matrices, no lights, fog range 0–1, a 640 × 480
/// viewport, point size 1 in [1, 64]).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_vertex_constants_default(out: *mut D3d9sFfpVertexConstants) -> D3d9sStatus {
    guard(|| {
        let c = VertexConstants::default();
        let mut lights = [D3d9sFfpLight::default(); 8];
        for (slot, l) in lights.iter_mut().zip(&c.lights) {
            *slot = light_to_c(l);
        }
        let value = D3d9sFfpVertexConstants {
            size: size_of::<D3d9sFfpVertexConstants>() as u32,
            world: c.world,
            view: c.view,
            projection: c.projection,
            texture: c.texture,
            material: c.material,
            power: c.power,
            tween_factor: c.tween_factor,
            ambient: c.ambient,
            fog: c.fog,
            viewport: c.viewport,
            light_count: c.lights.len() as u32,
            lights,
            point: c.point,
            point_scale: c.point_scale,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The vertex half's constant buffer bytes (std140) into `*out`, a new buffer.
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `constants` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_vertex_constants_bytes(
    constants: *const D3d9sFfpVertexConstants,
    out: *mut D3d9sBuffer,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or readable for its size (this function's contract).
        let c = unsafe { sized(constants, "constants") }?;
        let lights = c.lights.get(..c.light_count as usize).ok_or_else(|| Failure::invalid("light_count is 0–8"))?;
        const _: () = assert!(WORLD_MATRICES == 8);
        let r = VertexConstants {
            world: c.world,
            view: c.view,
            projection: c.projection,
            texture: c.texture,
            material: c.material,
            power: c.power,
            tween_factor: c.tween_factor,
            ambient: c.ambient,
            fog: c.fog,
            viewport: c.viewport,
            lights: lights.iter().map(light_to_rust).collect(),
            point: c.point,
            point_scale: c.point_scale,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", D3d9sBuffer::from_vec(r.to_bytes())) }
    })
}

/// Fills `*out` with the defaults (all zero).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_pixel_constants_default(out: *mut D3d9sFfpPixelConstants) -> D3d9sStatus {
    guard(|| {
        let c = PixelConstants::default();
        let value = D3d9sFfpPixelConstants {
            size: size_of::<D3d9sFfpPixelConstants>() as u32,
            texture_factor: c.texture_factor,
            fog_color: c.fog_color,
            fog: c.fog,
            alpha_ref: u32::from(c.alpha_ref),
            constant: c.constant,
            bump_matrix: c.bump_matrix,
            bump_luminance: c.bump_luminance,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The pixel half's constant buffer bytes into `*out`, a new buffer.
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `constants` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_pixel_constants_bytes(
    constants: *const D3d9sFfpPixelConstants,
    out: *mut D3d9sBuffer,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or readable for its size (this function's contract).
        let c = unsafe { sized(constants, "constants") }?;
        let r = PixelConstants {
            texture_factor: c.texture_factor,
            fog_color: c.fog_color,
            fog: c.fog,
            // D3DRS_ALPHAREF: the low byte is what the test compares.
            alpha_ref: (c.alpha_ref & 0xff) as u8,
            constant: c.constant,
            bump_matrix: c.bump_matrix,
            bump_luminance: c.bump_luminance,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", D3d9sBuffer::from_vec(r.to_bytes())) }
    })
}
