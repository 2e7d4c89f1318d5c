//! What a layer binds beside a translation: the render-state block's bytes (fog colour and
//! range, alpha reference, clip planes, …; the layout is the library's) and the vertex format of
//! each D3DDECLTYPE.

use std::ffi::{c_char, CStr};

use d3d9_shader::key::state_block::{Modes, SIZE};
use d3d9_shader::key::vertex_formats::{vertex_format, Conversion, DeclType, ShaderScalar};
use d3d9_shader::RenderState;

use crate::error::{guard, sized, write, D3d9sStatus, Failure};
use crate::key::{key_arg, key_modes, D3d9sKey};
use crate::D3d9sBuffer;

/// The size in bytes of the render-state block ([`d3d9s_render_state_bytes`]).
pub const D3D9S_RENDER_STATE_SIZE: u32 = 496;
// A literal for the header (cbindgen writes the expression as it stands); the library's size.
const _: () = assert!(D3D9S_RENDER_STATE_SIZE == SIZE);

/// The render-state *values* a translation reads at draw time from the render-state block
/// (its binding: `D3d9sBindingLayout::render_state`). Fill it with
/// [`d3d9s_render_state_default`], then set what the application set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sRenderState {
    /// `sizeof(D3d9sRenderState)`.
    pub size: u32,
    /// D3DRS_FOGCOLOR as RGBA floats in [0, 1].
    pub fog_color: [f32; 4],
    /// D3DRS_FOGSTART.
    pub fog_start: f32,
    /// D3DRS_FOGEND.
    pub fog_end: f32,
    /// D3DRS_FOGDENSITY.
    pub fog_density: f32,
    /// D3DRS_ALPHAREF (its low byte is compared).
    pub alpha_ref: u32,
    /// D3DRS_POINTSIZE.
    pub point_size: f32,
    /// D3DRS_POINTSIZE_MIN.
    pub point_size_min: f32,
    /// D3DRS_POINTSIZE_MAX.
    pub point_size_max: f32,
    /// User clip planes 0–7 in clip space.
    pub clip_planes: [[f32; 4]; 8],
    /// Per texture stage: D3DTSS_BUMPENVMAT00, 01, 10, 11.
    pub bump_env: [[f32; 4]; 8],
    /// Per texture stage: D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET.
    pub bump_luminance: [[f32; 2]; 8],
    /// The viewport's width and height in pixels (read by vertex shaders that expand points).
    pub viewport: [f32; 2],
}

/// Fills `*out` with a new device's values (fog colour 0, fog range 0–1, density 1, alpha
/// reference 0, point size 1 in [1, 64], no planes, zero bump matrices, a 1 × 1 viewport).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_render_state_default(out: *mut D3d9sRenderState) -> D3d9sStatus {
    guard(|| {
        let r = RenderState::default();
        let value = D3d9sRenderState {
            size: size_of::<D3d9sRenderState>() as u32,
            fog_color: r.fog_color,
            fog_start: r.fog_start,
            fog_end: r.fog_end,
            fog_density: r.fog_density,
            alpha_ref: r.alpha_ref,
            point_size: r.point_size,
            point_size_min: r.point_size_min,
            point_size_max: r.point_size_max,
            clip_planes: r.clip_planes,
            bump_env: r.bump_env,
            bump_luminance: r.bump_luminance,
            viewport: r.viewport,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The render-state block's bytes ([`D3D9S_RENDER_STATE_SIZE`] of them, little-endian, as the
/// translation's uniform struct lays them out) into `*out`, a new buffer: the values of `state`
/// and, for uniform delivery, the modes of `modes` (a baked key, as
/// `d3d9s_shader_key_from_state` gives; NULL for the device defaults).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `state` is NULL or readable; `modes` is NULL or a valid key; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_render_state_bytes(
    state: *const D3d9sRenderState,
    modes: *const D3d9sKey,
    out: *mut D3d9sBuffer,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or readable for its size (this function's contract).
        let s = unsafe { sized(state, "state") }?;
        let modes = match modes.is_null() {
            true => Modes::default(),
            // SAFETY: non-null, a valid key (this function's contract).
            false => key_modes(&unsafe { key_arg(modes) }?.0),
        };
        let r = RenderState {
            fog_color: s.fog_color,
            fog_start: s.fog_start,
            fog_end: s.fog_end,
            fog_density: s.fog_density,
            alpha_ref: s.alpha_ref,
            point_size: s.point_size,
            point_size_min: s.point_size_min,
            point_size_max: s.point_size_max,
            clip_planes: s.clip_planes,
            bump_env: s.bump_env,
            bump_luminance: s.bump_luminance,
            modes,
            viewport: s.viewport,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", D3d9sBuffer::from_vec(r.to_bytes())) }
    })
}

/// The in-shader scalar type of a vertex format ([`D3d9sVertexFormat::scalar`]): f32.
pub const D3D9S_SCALAR_FLOAT: u32 = 0;
/// i32.
pub const D3D9S_SCALAR_SINT: u32 = 1;
/// u32.
pub const D3D9S_SCALAR_UINT: u32 = 2;

/// How the vertex attribute of a D3DDECLTYPE is declared ([`d3d9s_vertex_format`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sVertexFormat {
    /// The WebGPU `GPUVertexFormat` name (`"unorm8x4"`, `"sint16x2"`, …; static).
    pub format: *const c_char,
    /// Components of the shader input (1–4).
    pub components: u32,
    /// `D3D9S_SCALAR_*`.
    pub scalar: u32,
    /// Bytes per element.
    pub size: u32,
    /// The conversion the shader applies: 0 fill (0, 0, 0, 1), 1 D3DCOLOR's red/blue swap,
    /// 2 integers to floats, 3 UDEC3 unpacking, 4 DEC3N unpacking.
    pub conversion: u32,
}

/// The static C string of a WebGPU vertex format name.
fn format_name(name: &str) -> &'static CStr {
    const NAMES: [&CStr; 15] = [
        c"float32",
        c"float32x2",
        c"float32x3",
        c"float32x4",
        c"unorm8x4",
        c"uint8x4",
        c"sint16x2",
        c"sint16x4",
        c"snorm16x2",
        c"snorm16x4",
        c"unorm16x2",
        c"unorm16x4",
        c"uint32",
        c"float16x2",
        c"float16x4",
    ];
    NAMES.iter().find(|c| c.to_bytes() == name.as_bytes()).copied().unwrap_or(c"")
}

/// The vertex format of D3DDECLTYPE `decl_type` (0 FLOAT1 … 16 FLOAT16_4) into `*out`: declare
/// the attribute feeding `v n` with it when `D3d9sKey::vertex_inputs[n]` is that type.
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_vertex_format(decl_type: u32, out: *mut D3d9sVertexFormat) -> D3d9sStatus {
    guard(|| {
        let t =
            DeclType::from_raw(decl_type).ok_or_else(|| Failure::invalid(format!("D3DDECLTYPE {decl_type}: 0–16")))?;
        let f = vertex_format(t);
        let value = D3d9sVertexFormat {
            format: format_name(f.format).as_ptr(),
            components: u32::from(f.components),
            scalar: match f.scalar {
                ShaderScalar::Float => D3D9S_SCALAR_FLOAT,
                ShaderScalar::Sint => D3D9S_SCALAR_SINT,
                ShaderScalar::Uint => D3D9S_SCALAR_UINT,
            },
            size: u32::from(f.size),
            conversion: match f.conversion {
                Conversion::Fill => 0,
                Conversion::Bgra => 1,
                Conversion::ToFloat => 2,
                Conversion::UDec3 => 3,
                Conversion::Dec3N => 4,
            },
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}
