//! The fixed-function vertex stage: transform (with vertex blending), lighting, texture coordinates
//! and vertex fog, from the case's state (docs/d3d9-rules.md#ffp-transform, #ffp-lighting, #ffp-texcoords,
//! #ffp-fog).
//!
//! Input registers follow the D3D8 numbering of docs/d3d9-rules.md#d3d8-inputs: position v0,
//! blend weights v1, blend indices v2, normal v3, PSIZE v4, COLOR0 v5, COLOR1 v6, TEXCOORDn v7+n.

use d3d9_shader::bytecode::Usage;

use crate::case::{FogMode, RenderState, TexGen, VertexBlend};
use crate::cpu::{StageVertex, VertexStage};
use crate::ffp_state::{FfpState, VertexFormat};

use super::lighting::{light, LitVertex};
use super::maths::{dot3, inverse, mat_mul, mul, normalize, xyz};

/// The fixed-function vertex stage of one draw.
#[derive(Clone, Debug)]
pub struct ReferenceVertex {
    /// The transforms, material, lights and stages in force.
    pub ffp: FfpState,
    /// The render state in force.
    pub state: RenderState,
    /// What the vertices carry.
    pub format: VertexFormat,
    /// Render-target size (for XYZRHW).
    pub target_size: (u32, u32),
}

/// The upper 3x3 of the inverse transpose of `m` applied to a normal; `m` itself where it has no
/// inverse (docs/d3d9-rules.md#ffp-transform).
fn transform_normal(n: [f32; 3], m: &[f32; 16]) -> [f32; 3] {
    match inverse(m) {
        // n * (M^-1)^T: component c is the dot of n with row c of M^-1.
        Some(inv) => std::array::from_fn(|c| n[0] * inv[c * 4] + n[1] * inv[c * 4 + 1] + n[2] * inv[c * 4 + 2]),
        None => xyz(mul([n[0], n[1], n[2], 0.0], m)),
    }
}

/// A coordinate of `size` components extended for the texture matrix: (u, 1, 0, 0), (u, v, 1, 0),
/// (u, v, w, 1) (docs/d3d9-rules.md#ffp-texcoords).
fn extend(c: [f32; 4], size: u8) -> [f32; 4] {
    match size {
        1 => [c[0], 1.0, 0.0, 0.0],
        2 => [c[0], c[1], 1.0, 0.0],
        3 => [c[0], c[1], c[2], 1.0],
        _ => c,
    }
}

impl ReferenceVertex {
    /// (world-space position, view-space normal) after vertex blending (docs/d3d9-rules.md#ffp-transform).
    fn blend(&self, v: &[[f32; 4]; 16]) -> ([f32; 4], [f32; 3]) {
        let mut p = [v[0][0], v[0][1], v[0][2], 1.0];
        let mut n = xyz(v[3]);
        if self.state.vertexblend == VertexBlend::Tweening {
            // POSITION = POSITION1 (1 - TWEENFACTOR) + POSITION2 TWEENFACTOR, normals alike; the
            // second position is v15, the second normal v1 (docs/d3d9-rules.md#ffp-transform).
            let t = self.state.tweenfactor;
            let tween = |a: f32, b: f32| a * (1.0 - t) + b * t;
            if self.format.position1 {
                for c in 0..3 {
                    p[c] = tween(p[c], v[15][c]);
                }
            }
            if self.format.normal1 {
                n = std::array::from_fn(|c| tween(n[c], v[1][c]));
            }
            let world = self.ffp.world(0);
            return (mul(p, &world), transform_normal(n, &mat_mul(&world, &self.ffp.view)));
        }
        let weights = match self.state.vertexblend {
            VertexBlend::Weights1 => 1,
            VertexBlend::Weights2 => 2,
            VertexBlend::Weights3 => 3,
            _ => 0,
        };
        let mut w = [0.0f32; 4];
        w[..weights].copy_from_slice(&v[1][..weights]);
        w[weights] = 1.0 - w[..weights].iter().sum::<f32>();
        let mut pos = [0.0f32; 4];
        let mut normal = [0.0f32; 3];
        for (i, &wi) in w.iter().enumerate().take(weights + 1) {
            let index = if self.state.indexedvertexblendenable {
                // BLENDINDICES as UBYTE4: the raw byte values.
                v[2][i].round().clamp(0.0, 255.0) as u8
            } else {
                i as u8
            };
            let world = self.ffp.world(index);
            let wp = mul(p, &world);
            let wn = transform_normal(n, &mat_mul(&world, &self.ffp.view));
            for c in 0..4 {
                pos[c] += wi * wp[c];
            }
            for c in 0..3 {
                normal[c] += wi * wn[c];
            }
        }
        (pos, normal)
    }

    fn pretransformed(&self, v: &[[f32; 4]; 16]) -> [f32; 4] {
        let p = v[0];
        let (w, h) = (self.target_size.0 as f32, self.target_size.1 as f32);
        // rhw 0 still draws: a very large w.
        let cw = if p[3] == 0.0 { f32::MAX.sqrt() } else { 1.0 / p[3] };
        // CLIPPING FALSE draws a z outside [0, 1]: the rasterizer gets it clamped, table fog the
        // raw value (through FOG.y, see `run`).
        let z = if self.state.clipping { p[2] } else { p[2].clamp(0.0, 1.0) };
        [(p[0] / (w / 2.0) - 1.0) * cw, (1.0 - p[1] / (h / 2.0)) * cw, z * cw, cw]
    }

    fn texcoords(&self, v: &[[f32; 4]; 16], view_pos: [f32; 3], normal: [f32; 3]) -> Vec<((Usage, u8), [f32; 4])> {
        let mut out = Vec::new();
        for (s, stage) in self.ffp.stages.iter().enumerate() {
            let set = stage.texcoord.index as usize;
            let size = self.format.texcoord_sizes[set];
            let eye = if self.state.localviewer { normalize(view_pos) } else { [0.0, 0.0, 1.0] };
            let reflect = || {
                let d = 2.0 * dot3(normal, eye);
                [eye[0] - d * normal[0], eye[1] - d * normal[1], eye[2] - d * normal[2]]
            };
            let (c, size) = match stage.texcoord.gen {
                TexGen::PassThru if size == 0 => continue,
                TexGen::PassThru => (v[7 + set], size),
                TexGen::CameraSpaceNormal => ([normal[0], normal[1], normal[2], 1.0], 3),
                TexGen::CameraSpacePosition => ([view_pos[0], view_pos[1], view_pos[2], 1.0], 3),
                TexGen::CameraSpaceReflectionVector => {
                    let r = reflect();
                    ([r[0], r[1], r[2], 1.0], 3)
                }
                TexGen::SphereMap => {
                    let r = reflect();
                    let m = 2.0 * (r[0] * r[0] + r[1] * r[1] + (r[2] - 1.0) * (r[2] - 1.0)).sqrt();
                    ([r[0] / m + 0.5, r[1] / m + 0.5, 0.0, 1.0], 2)
                }
            };
            let c = if self.format.pretransformed || stage.transform.count == 0 {
                c
            } else {
                mul(extend(c, size), &self.ffp.texture[s])
            };
            out.push(((Usage::TexCoord, s as u8), c));
        }
        out
    }

    /// The unclamped screen size of a point (docs/d3d9-rules.md#point-sprites): PSIZE or
    /// POINTSIZE, scaled by the eye distance with POINTSCALEENABLE on untransformed vertices.
    fn point_size(&self, v: &[[f32; 4]; 16], view_pos: [f32; 3]) -> f32 {
        let s = &self.state;
        let size = if self.format.psize { v[4][0] } else { s.pointsize };
        let scale = (s.pointscaleenable && !self.format.pretransformed).then(|| {
            let d = dot3(view_pos, view_pos).sqrt();
            ([s.pointscale_a, s.pointscale_b, s.pointscale_c], d, self.target_size.1 as f32)
        });
        crate::point_raster::fixed_point_size(size, scale, f32::NEG_INFINITY, f32::INFINITY)
    }

    fn vertex_fog(&self, view_pos: [f32; 3]) -> Option<f32> {
        let s = &self.state;
        if !s.fogenable
            || s.fogtablemode != FogMode::None
            || s.fogvertexmode == FogMode::None
            || self.format.pretransformed
        {
            return None;
        }
        let d = if s.rangefogenable { dot3(view_pos, view_pos).sqrt() } else { view_pos[2].abs() };
        let f = match s.fogvertexmode {
            // FOGSTART == FOGEND fogs everything (docs/d3d9-rules.md#ffp-fog).
            FogMode::Linear if s.fogend == s.fogstart => 0.0,
            FogMode::Linear => (s.fogend - d) / (s.fogend - s.fogstart),
            FogMode::Exp => (-s.fogdensity * d).exp(),
            FogMode::Exp2 => (-(s.fogdensity * d) * (s.fogdensity * d)).exp(),
            FogMode::None => 1.0,
        };
        Some(f.clamp(0.0, 1.0))
    }
}

impl VertexStage for ReferenceVertex {
    fn run(&self, v: &[[f32; 4]; 16]) -> Result<StageVertex, String> {
        let f = &self.format;
        let color1 = f.diffuse.then_some(v[5]);
        let color2 = f.specular.then_some(v[6]);
        let (position, view_pos, normal) = if f.pretransformed {
            (self.pretransformed(v), [0.0; 3], [0.0; 3])
        } else {
            let (world_pos, normal) = self.blend(v);
            let view = mul(world_pos, &self.ffp.view);
            let normal = if self.state.normalizenormals { normalize(normal) } else { normal };
            (mul(view, &self.ffp.projection), xyz(view), normal)
        };
        let (diffuse, specular) = if self.state.lighting && !f.pretransformed {
            let lit = LitVertex { position: view_pos, normal, color1, color2 };
            let (d, s) = light(&self.state, &self.ffp.material, &self.ffp.lights, &self.ffp.view, &lit);
            // Without SPECULARENABLE the vertex's own specular passes unlit.
            (d, if self.state.specularenable { s } else { color2.unwrap_or([0.0; 4]) })
        } else {
            (color1.unwrap_or([1.0; 4]), color2.unwrap_or([0.0; 4]))
        };
        let mut outputs = vec![((Usage::Color, 0), diffuse), ((Usage::Color, 1), specular)];
        outputs.extend(self.texcoords(v, view_pos, normal));
        let unclipped = f.pretransformed && !self.state.clipping;
        if (self.state.fogenable && self.state.fogtablemode == FogMode::None) || unclipped {
            // No vertex fog: the factor is the specular alpha.
            let fog = self.vertex_fog(view_pos).unwrap_or(specular[3]);
            outputs.push(((Usage::Fog, 0), [fog, if unclipped { v[0][2] } else { 0.0 }, 0.0, 0.0]));
        }
        Ok(StageVertex { position, outputs, tie: false, point_size: Some(self.point_size(v, view_pos)) })
    }
}
