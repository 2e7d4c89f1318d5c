//! The fixed-function pixel stage: the texture stage cascade (docs/case-format.md#fixed-function,
//! docs/d3d9-rules.md#ffp-stages) with the op formulas of the D3D9 documentation, then the specular add. Fog and the
//! alpha test are the output merger's ([`crate::cpu`]), as for shaders.

use d3d9_shader::bytecode::Usage;
use d3d9_shader::interp::{Lod, ReferenceTexture};

use crate::case::{Arg, ArgSource, ResultArg, TextureDimension, TextureOp};
use crate::cpu::{PixelIn, PixelOut, PixelStage};
use crate::ffp_state::{FfpState, StageState, VertexFormat};
use crate::textures::DecodedTexture;

use super::maths::{argb, saturate};

/// The fixed-function pixel stage of one draw.
pub struct ReferencePixel {
    stages: [StageState; 8],
    textures: [Option<(TextureDimension, ReferenceTexture)>; 8],
    /// Per stage, the coordinate component a projected lookup divides by.
    divide_by: [Option<usize>; 8],
    texture_factor: [f32; 4],
    specular_add: bool,
}

impl ReferencePixel {
    /// The stage for `ffp`'s stages with `textures` bound; `vertex` is the FF vertex format, or
    /// `None` behind a vertex shader (docs/d3d9-rules.md#ffp-texcoords: a projected lookup then divides by the 4th component).
    pub fn new(
        ffp: &FfpState,
        textures: &[DecodedTexture],
        vertex: Option<&VertexFormat>,
        texture_factor: u32,
        specular_add: bool,
    ) -> Result<ReferencePixel, String> {
        let mut bound: [Option<(TextureDimension, ReferenceTexture)>; 8] = Default::default();
        for t in textures.iter().filter(|t| t.stage < 8) {
            let r = crate::interpreted::reference_texture(t)
                .ok_or_else(|| format!("texture on stage {} cannot be sampled on the CPU", t.stage))?;
            bound[t.stage as usize] = Some((t.kind, r));
        }
        let divide_by = std::array::from_fn(|s| {
            let st = &ffp.stages[s];
            let t = st.transform;
            match (t.projected, t.count, vertex) {
                (false, _, _) => None,
                (true, n @ 1..=4, Some(_)) => Some(n as usize - 1),
                (true, _, None) => Some(3),
                (true, _, Some(f)) => Some((f.texcoord_sizes[st.texcoord.index as usize].max(1) - 1) as usize),
            }
        });
        Ok(ReferencePixel {
            stages: ffp.stages,
            textures: bound,
            divide_by,
            texture_factor: argb(texture_factor),
            specular_add,
        })
    }
}

/// Whether an op reads argument `k` (0, 1, 2).
fn reads(op: TextureOp, k: usize) -> bool {
    match k {
        0 => matches!(op, TextureOp::MultiplyAdd | TextureOp::Lerp),
        1 => op != TextureOp::SelectArg2,
        _ => op != TextureOp::SelectArg1,
    }
}

struct Regs {
    diffuse: [f32; 4],
    specular: [f32; 4],
    current: [f32; 4],
    temp: [f32; 4],
    texture: [f32; 4],
    tfactor: [f32; 4],
    constant: [f32; 4],
}

impl Regs {
    fn arg(&self, a: Arg) -> [f32; 4] {
        let mut v = match a.source {
            ArgSource::Diffuse => self.diffuse,
            ArgSource::Current => self.current,
            ArgSource::Texture => self.texture,
            ArgSource::TFactor => self.tfactor,
            ArgSource::Specular => self.specular,
            ArgSource::Temp => self.temp,
            ArgSource::Constant => self.constant,
        };
        if a.alpha_replicate {
            v = [v[3]; 4];
        }
        if a.complement {
            v = v.map(|x| 1.0 - x);
        }
        v
    }
}

/// One op on one component: `x` are the three arguments' values of that component, `xa` their
/// alphas (the colour ops that mix in an alpha read it there).
fn op_value(op: TextureOp, x: [f32; 3], xa: [f32; 3], r: &Regs) -> f32 {
    let [a0, a1, a2] = x;
    let blend = |f: f32| a1 * f + a2 * (1.0 - f);
    match op {
        // PREMODULATE's own result is ARG1; the next stage multiplies by its texel (`lane`).
        TextureOp::Disable | TextureOp::SelectArg1 | TextureOp::Premodulate => a1,
        TextureOp::SelectArg2 => a2,
        TextureOp::Modulate => a1 * a2,
        TextureOp::Modulate2x => 2.0 * a1 * a2,
        TextureOp::Modulate4x => 4.0 * a1 * a2,
        TextureOp::Add => a1 + a2,
        TextureOp::AddSigned => a1 + a2 - 0.5,
        TextureOp::AddSigned2x => 2.0 * (a1 + a2 - 0.5),
        TextureOp::Subtract => a1 - a2,
        TextureOp::AddSmooth => a1 + a2 - a1 * a2,
        TextureOp::BlendDiffuseAlpha => blend(r.diffuse[3]),
        TextureOp::BlendTextureAlpha => blend(r.texture[3]),
        TextureOp::BlendFactorAlpha => blend(r.tfactor[3]),
        TextureOp::BlendCurrentAlpha => blend(r.current[3]),
        TextureOp::BlendTextureAlphaPm => a1 + a2 * (1.0 - r.texture[3]),
        TextureOp::ModulateAlphaAddColor => a1 + xa[1] * a2,
        TextureOp::ModulateColorAddAlpha => a1 * a2 + xa[1],
        TextureOp::ModulateInvAlphaAddColor => (1.0 - xa[1]) * a2 + a1,
        TextureOp::ModulateInvColorAddAlpha => (1.0 - a1) * a2 + xa[1],
        TextureOp::MultiplyAdd => a0 + a1 * a2,
        TextureOp::Lerp => a0 * a1 + (1.0 - a0) * a2,
        // Handled by the caller.
        TextureOp::DotProduct3 | TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance => a1,
    }
}

/// The colour (rgb) of an op.
fn color_op(op: TextureOp, args: [Arg; 3], r: &Regs) -> [f32; 3] {
    let v = args.map(|a| r.arg(a));
    if op == TextureOp::DotProduct3 {
        let d: f32 = (0..3).map(|c| (v[1][c] - 0.5) * (v[2][c] - 0.5)).sum();
        return [saturate(4.0 * d); 3];
    }
    let alphas = [v[0][3], v[1][3], v[2][3]];
    std::array::from_fn(|c| op_value(op, [v[0][c], v[1][c], v[2][c]], alphas, r))
}

fn alpha_op(op: TextureOp, args: [Arg; 3], r: &Regs) -> f32 {
    let v = args.map(|a| r.arg(a)[3]);
    if op == TextureOp::DotProduct3 {
        let full = args.map(|a| r.arg(a));
        let d: f32 = (0..3).map(|c| (full[1][c] - 0.5) * (full[2][c] - 0.5)).sum();
        return saturate(4.0 * d);
    }
    op_value(op, v, v, r)
}

/// A stage whose op reads TEXTURE with no texture bound acts as SELECTARG1(CURRENT).
fn effective(op: TextureOp, args: [Arg; 3], bound: bool) -> (TextureOp, [Arg; 3]) {
    let reads_texture = (0..3).any(|k| reads(op, k) && args[k].source == ArgSource::Texture);
    if !bound && reads_texture {
        (TextureOp::SelectArg1, [args[0], Arg::plain(ArgSource::Current), args[2]])
    } else {
        (op, args)
    }
}

impl ReferencePixel {
    fn sample(&self, s: usize, lane: &PixelIn, bump: Option<([f32; 4], f32)>) -> Option<[f32; 4]> {
        let (kind, tex) = self.textures[s].as_ref()?;
        let mut c = lane.get((Usage::TexCoord, s as u8)).unwrap_or([0.0, 0.0, 0.0, 1.0]);
        if let Some(k) = self.divide_by[s] {
            let q = c[k];
            c = c.map(|x| x / q);
        }
        if let Some((m, _)) = bump {
            // (du, dv) of the bump stage before: u + M00 du + M10 dv, v + M01 du + M11 dv.
            let (du, dv, mat) = (m[0], m[1], self.bump_of(s));
            c[0] += mat[0] * du + mat[2] * dv;
            c[1] += mat[1] * du + mat[3] * dv;
        }
        if *kind == TextureDimension::Tex2D {
            c[2] = 0.0;
        }
        let mut t = tex.sample(c, Lod::Level(0.0));
        if let Some((_, lum)) = bump {
            for ch in &mut t[..3] {
                *ch *= lum;
            }
        }
        Some(t)
    }

    fn bump_of(&self, s: usize) -> [f32; 4] {
        self.stages[s - 1].bump_matrix
    }

    fn lane(&self, lane: &PixelIn) -> [f32; 4] {
        let sat = |v: [f32; 4]| v.map(saturate);
        let diffuse = sat(lane.get((Usage::Color, 0)).unwrap_or([1.0; 4]));
        let specular = sat(lane.get((Usage::Color, 1)).unwrap_or([0.0; 4]));
        let mut r = Regs {
            diffuse,
            specular,
            current: diffuse,
            temp: [0.0; 4],
            texture: [0.0; 4],
            tfactor: self.texture_factor,
            constant: [0.0; 4],
        };
        // (texel, luminance factor) of a bump stage, applied to the next stage's lookup.
        let mut bump: Option<([f32; 4], f32)> = None;
        // PREMODULATE of the stage before on (colour, alpha).
        let mut premodulate = (false, false);
        for (s, st) in self.stages.iter().enumerate() {
            if st.color_op == TextureOp::Disable {
                break;
            }
            let texel = self.sample(s, lane, bump.take());
            r.texture = texel.unwrap_or([0.0; 4]);
            r.constant = argb(st.constant);
            let (pre_color, pre_alpha) = std::mem::take(&mut premodulate);
            if matches!(st.color_op, TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance) {
                let t = r.texture;
                let lum = if st.color_op == TextureOp::BumpEnvMapLuminance {
                    saturate(t[2] * st.bump_lscale + st.bump_loffset)
                } else {
                    1.0
                };
                bump = Some((t, lum));
                continue;
            }
            // "Modulate this texture stage with the next texture stage": the stage after a
            // PREMODULATE one (a colour stage with a texture) multiplies CURRENT by its texel
            // before anything reads it (docs/d3d9-rules.md#ffp-premodulate).
            if let Some(t) = texel {
                if pre_color {
                    for (cur, tex) in r.current.iter_mut().zip(t).take(3) {
                        *cur *= tex;
                    }
                }
                if pre_alpha {
                    r.current[3] *= t[3];
                }
            }
            let (cop, cargs) = effective(st.color_op, st.color_args, texel.is_some());
            let rgb = color_op(cop, cargs, &r);
            let a = if st.color_op == TextureOp::DotProduct3 {
                rgb[0]
            } else if st.alpha_op == TextureOp::Disable {
                r.current[3]
            } else {
                let (aop, aargs) = effective(st.alpha_op, st.alpha_args, texel.is_some());
                premodulate.1 = aop == TextureOp::Premodulate;
                alpha_op(aop, aargs, &r)
            };
            premodulate.0 = cop == TextureOp::Premodulate;
            let out = [saturate(rgb[0]), saturate(rgb[1]), saturate(rgb[2]), saturate(a)];
            match st.result {
                ResultArg::Current => r.current = out,
                ResultArg::Temp => r.temp = out,
            }
        }
        let mut c = r.current;
        if self.specular_add {
            for ch in 0..3 {
                c[ch] = saturate(c[ch] + specular[ch]);
            }
        }
        c
    }
}

impl PixelStage for ReferencePixel {
    fn run_quad(&self, lanes: &[PixelIn; 4]) -> Result<[PixelOut; 4], String> {
        Ok(std::array::from_fn(|i| PixelOut {
            color: [Some(self.lane(&lanes[i])), None, None, None],
            ..PixelOut::default()
        }))
    }
}
