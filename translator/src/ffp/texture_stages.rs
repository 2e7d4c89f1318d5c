//! The texture stage cascade: CURRENT starts as the diffuse colour and TEMP as 0; each stage
//! evaluates its colour and alpha ops on its arguments (D3DTA_* with COMPLEMENT and
//! ALPHAREPLICATE), saturates, and writes CURRENT or TEMP. The op formulas are the D3D9
//! documentation's; DOTPRODUCT3 = 4 x sum((a1 - 0.5)(a2 - 0.5)) saturated into every channel.
//! A BUMPENVMAP(LUMINANCE) stage writes no colour: its texel (du, dv, L) moves the next stage's
//! coordinate by the bump matrix (u + M00 du + M10 dv, v + M01 du + M11 dv) and, for LUMINANCE,
//! scales that stage's texture colour by clamp(L x LSCALE + LOFFSET, 0, 1).

use super::key_pixel::{AlphaKey, Arg, ArgSource, OpKey, Sampling, StageKey, TextureOp, TextureType};

fn arg(a: Arg, stage: u8) -> String {
    let v = match a.source {
        ArgSource::Diffuse => "diffuse".to_string(),
        ArgSource::Current => "current".to_string(),
        ArgSource::Texture => format!("tex{stage}"),
        ArgSource::TFactor => "ffp.texture_factor".to_string(),
        ArgSource::Specular => "specular".to_string(),
        ArgSource::Temp => "temp".to_string(),
        ArgSource::Constant => format!("ffp.constant[{stage}]"),
    };
    let v = if a.alpha_replicate { format!("{v}.aaaa") } else { v };
    if a.complement {
        format!("(vec4<f32>(1.0) - {v})")
    } else {
        v
    }
}

/// The op's value as a `vec4` expression (`.rgb` or `.a` of it is used).
fn op(k: &OpKey, stage: u8) -> String {
    let a = |i: usize| k.args[i].map_or("vec4<f32>(0.0)".to_string(), |x| arg(x, stage));
    let (a0, a1, a2) = (a(0), a(1), a(2));
    let blend = |f: String| format!("mix({a2}, {a1}, {f})");
    let tex = format!("tex{stage}");
    match k.op {
        TextureOp::Disable | TextureOp::SelectArg1 | TextureOp::Premodulate => a1,
        TextureOp::SelectArg2 => a2,
        TextureOp::Modulate => format!("({a1} * {a2})"),
        TextureOp::Modulate2x => format!("(2.0 * {a1} * {a2})"),
        TextureOp::Modulate4x => format!("(4.0 * {a1} * {a2})"),
        TextureOp::Add => format!("({a1} + {a2})"),
        TextureOp::AddSigned => format!("({a1} + {a2} - vec4<f32>(0.5))"),
        TextureOp::AddSigned2x => format!("(2.0 * ({a1} + {a2} - vec4<f32>(0.5)))"),
        TextureOp::Subtract => format!("({a1} - {a2})"),
        TextureOp::AddSmooth => format!("({a1} + {a2} - {a1} * {a2})"),
        TextureOp::BlendDiffuseAlpha => blend("diffuse.a".into()),
        TextureOp::BlendTextureAlpha => blend(format!("{tex}.a")),
        TextureOp::BlendFactorAlpha => blend("ffp.texture_factor.a".into()),
        TextureOp::BlendCurrentAlpha => blend("current.a".into()),
        TextureOp::BlendTextureAlphaPm => format!("({a1} + {a2} * (1.0 - {tex}.a))"),
        TextureOp::ModulateAlphaAddColor => format!("({a1} + {a1}.a * {a2})"),
        TextureOp::ModulateColorAddAlpha => format!("({a1} * {a2} + vec4<f32>({a1}.a))"),
        TextureOp::ModulateInvAlphaAddColor => format!("((1.0 - {a1}.a) * {a2} + {a1})"),
        TextureOp::ModulateInvColorAddAlpha => format!("((vec4<f32>(1.0) - {a1}) * {a2} + vec4<f32>({a1}.a))"),
        TextureOp::MultiplyAdd => format!("({a0} + {a1} * {a2})"),
        TextureOp::Lerp => format!("({a0} * {a1} + (vec4<f32>(1.0) - {a0}) * {a2})"),
        TextureOp::DotProduct3 => {
            format!("vec4<f32>(4.0 * dot({a1}.rgb - vec3<f32>(0.5), {a2}.rgb - vec3<f32>(0.5)))")
        }
        TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance => a1,
    }
}

fn lookup(index: u8, s: &Sampling, bump: Option<(u8, bool)>) -> String {
    let mut out = format!("    var tc{index} = t{index};\n");
    if let Some(k) = s.divide_by {
        let c = ["x", "y", "z", "w"][k as usize];
        out += &format!("    tc{index} = tc{index} / tc{index}.{c};\n");
    }
    if let Some((b, _)) = bump {
        out += &format!(
            "    let bm{index} = ffp.bump_matrix[{b}];\n    tc{index} = vec4<f32>(tc{index}.x + bm{index}.x * bump{b}.x + bm{index}.z * bump{b}.y, tc{index}.y + bm{index}.y * bump{b}.x + bm{index}.w * bump{b}.y, tc{index}.zw);\n"
        );
    }
    let coords = match s.ty {
        TextureType::Tex2D => format!("tc{index}.xy"),
        TextureType::Cube | TextureType::Volume => format!("tc{index}.xyz"),
    };
    out += &format!("    var tex{index} = textureSampleLevel(tex_{index}, samp_{index}, {coords}, 0.0);\n");
    if let Some((b, true)) = bump {
        out += &format!(
            "    let lum{index} = clamp(bump{b}.z * ffp.bump_luminance[{b}].x + ffp.bump_luminance[{b}].y, 0.0, 1.0);\n    tex{index} = vec4<f32>(tex{index}.rgb * lum{index}, tex{index}.a);\n"
        );
    }
    out
}

/// WGSL statements of the cascade; `current` ends as the result.
pub(super) fn cascade(stages: &[StageKey]) -> String {
    let mut s = String::from("    var current = diffuse;\n    var temp = vec4<f32>(0.0);\n");
    let mut bump: Option<(u8, bool)> = None;
    for st in stages {
        match *st {
            StageKey::Bump { index, luminance, texture } => {
                if let Some(t) = texture {
                    s += &lookup(index, &t, bump.take());
                    s += &format!("    let bump{index} = tex{index};\n");
                    bump = Some((index, luminance));
                } else {
                    bump = None;
                }
            }
            StageKey::Blend { index, color, alpha, to_temp, texture } => {
                let follows = bump.take().filter(|(b, _)| b + 1 == index);
                if let Some(t) = texture {
                    s += &lookup(index, &t, follows);
                }
                let c = op(&color, index);
                let a = match alpha {
                    AlphaKey::Keep => "current.a".to_string(),
                    AlphaKey::Op(k) => format!("{}.a", op(&k, index)),
                    AlphaKey::FromColor => format!("{c}.r"),
                };
                let dest = if to_temp { "temp" } else { "current" };
                s += &format!("    {dest} = clamp(vec4<f32>({c}.rgb, {a}), vec4<f32>(0.0), vec4<f32>(1.0));\n");
            }
        }
    }
    s
}

/// The stages' texture and sampler declarations (group 1, bindings 16 + 2n and 17 + 2n).
pub(super) fn bindings(stages: &[StageKey]) -> String {
    let mut s = String::new();
    for st in stages {
        let (StageKey::Bump { index, texture: Some(t), .. } | StageKey::Blend { index, texture: Some(t), .. }) = *st
        else {
            continue;
        };
        let ty = match t.ty {
            TextureType::Tex2D => "texture_2d<f32>",
            TextureType::Cube => "texture_cube<f32>",
            TextureType::Volume => "texture_3d<f32>",
        };
        let b = super::constants::texture_binding(index as u32);
        s += &format!(
            "@group(1) @binding({b}) var tex_{index}: {ty};\n@group(1) @binding({}) var samp_{index}: sampler;\n",
            b + 1
        );
    }
    s
}
