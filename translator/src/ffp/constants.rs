//! The binding layout of the generated halves and the typed structs that write their numeric
//! state.
//!
//! - Vertex half: group 0, binding 0, a uniform buffer [`VertexConstants`] (WGSL struct
//!   `FfpVertex`, [`VERTEX_WGSL`]).
//! - Pixel half: group 1, binding 0, a uniform buffer [`PixelConstants`] (`FfpPixel`,
//!   [`PIXEL_WGSL`]); stage n's texture at group 1, binding 16 + 2n and its sampler at 17 + 2n, as
//!   for translated pixel shaders (docs/architecture.md).
//!
//! Matrices are D3DMATRIX memory order (row-major, row vectors: `v' = v * M`); WGSL reads those 16
//! floats as a column-major `mat4x4`, which is the transpose, so `M_wgsl * v` is D3D's `v * M`.

/// Blend matrices the vertex constants hold: WORLDMATRIX(0) … WORLDMATRIX(7) (the generator
/// supports indexed blending through index 7).
pub const WORLD_MATRICES: usize = 8;

/// The vertex half's uniform group and binding.
pub const VERTEX_BINDING: (u32, u32) = (0, 0);
/// The pixel half's uniform group and binding.
pub const PIXEL_BINDING: (u32, u32) = (1, 0);
/// The texture binding of stage `n` in group 1 (the sampler is the next binding).
pub const fn texture_binding(n: u32) -> u32 {
    16 + 2 * n
}

/// WGSL declarations of the vertex constants (the layout [`VertexConstants::to_bytes`] writes).
pub const VERTEX_WGSL: &str = "struct FfpLight {
    diffuse: vec4<f32>,
    specular: vec4<f32>,
    ambient: vec4<f32>,
    position: vec4<f32>,
    direction: vec4<f32>,
    attenuation: vec4<f32>,
    spot: vec4<f32>,
}

struct FfpVertex {
    world: array<mat4x4<f32>, 8>,
    normal: array<mat4x4<f32>, 8>,
    view: mat4x4<f32>,
    projection: mat4x4<f32>,
    texture: array<mat4x4<f32>, 8>,
    material: array<vec4<f32>, 4>,
    factors: vec4<f32>,
    ambient: vec4<f32>,
    fog: vec4<f32>,
    viewport: vec4<f32>,
    lights: array<FfpLight, 8>,
    point: vec4<f32>,
    point_scale: vec4<f32>,
}

@group(0) @binding(0) var<uniform> ffp: FfpVertex;
";

/// WGSL declarations of the pixel constants.
pub const PIXEL_WGSL: &str = "struct FfpPixel {
    texture_factor: vec4<f32>,
    fog_color: vec4<f32>,
    fog: vec4<f32>,
    constant: array<vec4<f32>, 8>,
    bump_matrix: array<vec4<f32>, 8>,
    bump_luminance: array<vec4<f32>, 8>,
}

@group(1) @binding(0) var<uniform> ffp: FfpPixel;
";

/// One light's values (D3DLIGHT9), in world space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct LightValues {
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub ambient: [f32; 4],
    pub position: [f32; 3],
    pub direction: [f32; 3],
    pub range: f32,
    pub falloff: f32,
    pub attenuation: [f32; 3],
    /// Radians.
    pub theta: f32,
    /// Radians.
    pub phi: f32,
}

/// The vertex half's numeric state.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct VertexConstants {
    /// WORLDMATRIX(0) … (7).
    pub world: [[f32; 16]; WORLD_MATRICES],
    pub view: [f32; 16],
    pub projection: [f32; 16],
    /// TEXTURE0 … 7.
    pub texture: [[f32; 16]; 8],
    /// Material diffuse, ambient, specular, emissive.
    pub material: [[f32; 4]; 4],
    pub power: f32,
    /// D3DRS_TWEENFACTOR.
    pub tween_factor: f32,
    /// D3DRS_AMBIENT as floats.
    pub ambient: [f32; 4],
    /// FOGSTART, FOGEND, FOGDENSITY.
    pub fog: [f32; 3],
    /// Render-target width and height (pre-transformed vertices).
    pub viewport: [f32; 2],
    /// The enabled lights, in the key's order.
    pub lights: Vec<LightValues>,
    /// POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX (the smaller of it and the caps' MaxPointSize).
    pub point: [f32; 3],
    /// POINTSCALE_A, B, C.
    pub point_scale: [f32; 3],
}

const IDENTITY: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

impl Default for VertexConstants {
    fn default() -> Self {
        VertexConstants {
            world: [IDENTITY; WORLD_MATRICES],
            view: IDENTITY,
            projection: IDENTITY,
            texture: [IDENTITY; 8],
            material: [[0.0; 4]; 4],
            power: 0.0,
            tween_factor: 0.0,
            ambient: [0.0; 4],
            fog: [0.0, 1.0, 1.0],
            viewport: [640.0, 480.0],
            lights: Vec::new(),
            point: [1.0, 1.0, 64.0],
            point_scale: [1.0, 0.0, 0.0],
        }
    }
}

fn product(a: &[f32; 16], b: &[f32; 16]) -> [f64; 16] {
    std::array::from_fn(|i| (0..4).map(|k| a[i / 4 * 4 + k] as f64 * b[k * 4 + i % 4] as f64).sum())
}

/// The matrix normals are multiplied by: the transposed inverse of `world * view`, or the product
/// itself where it has no inverse.
fn normal_matrix(world: &[f32; 16], view: &[f32; 16]) -> [f32; 16] {
    let m = product(world, view);
    let det3 = |r: [usize; 3], c: [usize; 3]| {
        let e = |i: usize, j: usize| m[r[i] * 4 + c[j]];
        e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
            + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
    };
    let others = |x: usize| -> [usize; 3] {
        let mut o = [0; 3];
        for (k, i) in (0..4).filter(|&i| i != x).enumerate() {
            o[k] = i;
        }
        o
    };
    // cofactor(r, c) = (-1)^(r+c) det(minor); inverse = adjugate / det = cofactor^T / det, so the
    // transposed inverse is cofactor / det.
    let cof: [f64; 16] = std::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        let s = if (r + c) % 2 == 0 { 1.0 } else { -1.0 };
        s * det3(others(r), others(c))
    });
    let det: f64 = (0..4).map(|c| m[c] * cof[c]).sum();
    if det == 0.0 {
        return m.map(|x| x as f32);
    }
    cof.map(|x| (x / det) as f32)
}

fn push(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl VertexConstants {
    /// The bytes of `FfpVertex` (std140-compatible: every member is a multiple of 16 bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        for w in &self.world {
            push(&mut out, w);
        }
        for w in &self.world {
            push(&mut out, &normal_matrix(w, &self.view));
        }
        push(&mut out, &self.view);
        push(&mut out, &self.projection);
        for t in &self.texture {
            push(&mut out, t);
        }
        for m in &self.material {
            push(&mut out, m);
        }
        push(&mut out, &[self.power, self.tween_factor, 0.0, 0.0]);
        push(&mut out, &self.ambient);
        push(&mut out, &[self.fog[0], self.fog[1], self.fog[2], 0.0]);
        push(&mut out, &[self.viewport[0], self.viewport[1], 0.0, 0.0]);
        for i in 0..8 {
            let l = self.lights.get(i).copied().unwrap_or_default();
            push(&mut out, &l.diffuse);
            push(&mut out, &l.specular);
            push(&mut out, &l.ambient);
            push(&mut out, &[l.position[0], l.position[1], l.position[2], l.range]);
            push(&mut out, &[l.direction[0], l.direction[1], l.direction[2], l.falloff]);
            push(&mut out, &[l.attenuation[0], l.attenuation[1], l.attenuation[2], 0.0]);
            push(&mut out, &[(l.theta / 2.0).cos(), (l.phi / 2.0).cos(), 0.0, 0.0]);
        }
        push(&mut out, &[self.point[0], self.point[1], self.point[2], 0.0]);
        push(&mut out, &[self.point_scale[0], self.point_scale[1], self.point_scale[2], 0.0]);
        out
    }
}

/// The pixel half's numeric state.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct PixelConstants {
    /// TEXTUREFACTOR as floats (r, g, b, a).
    pub texture_factor: [f32; 4],
    /// FOGCOLOR.
    pub fog_color: [f32; 3],
    /// FOGSTART, FOGEND, FOGDENSITY (table fog).
    pub fog: [f32; 3],
    /// ALPHAREF's low byte.
    pub alpha_ref: u8,
    /// D3DTSS_CONSTANT per stage.
    pub constant: [[f32; 4]; 8],
    /// BUMPENVMAT00, 01, 10, 11 per stage.
    pub bump_matrix: [[f32; 4]; 8],
    /// BUMPENVLSCALE, BUMPENVLOFFSET per stage.
    pub bump_luminance: [[f32; 2]; 8],
}

impl PixelConstants {
    /// The bytes of `FfpPixel`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(448);
        push(&mut out, &self.texture_factor);
        push(&mut out, &[self.fog_color[0], self.fog_color[1], self.fog_color[2], 0.0]);
        push(&mut out, &[self.fog[0], self.fog[1], self.fog[2], self.alpha_ref as f32]);
        for c in &self.constant {
            push(&mut out, c);
        }
        for m in &self.bump_matrix {
            push(&mut out, m);
        }
        for l in &self.bump_luminance {
            push(&mut out, &[l[0], l[1], 0.0, 0.0]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_matrix_of_a_scale_is_its_inverse() {
        let s = [2.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 5.0, 0.0, 0.0, 1.0];
        let n = normal_matrix(&s, &IDENTITY);
        // (S^-1)^T of a diagonal scale with a translation: 1/2, 1/4, 1 on the diagonal.
        assert_eq!((n[0], n[5], n[10]), (0.5, 0.25, 1.0));
        // Singular: the matrix itself.
        assert_eq!(normal_matrix(&[0.0; 16], &IDENTITY), [0.0; 16]);
    }

    #[test]
    fn byte_sizes_match_the_wgsl_structs() {
        // FfpVertex: 8 + 8 + 2 + 8 matrices, 8 vec4, 8 lights of 7 vec4, 2 point vec4.
        assert_eq!(VertexConstants::default().to_bytes().len(), 26 * 64 + 8 * 16 + 8 * 7 * 16 + 2 * 16);
        assert_eq!(PixelConstants::default().to_bytes().len(), 3 * 16 + 24 * 16);
    }
}
