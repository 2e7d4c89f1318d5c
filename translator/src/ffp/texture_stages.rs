//! The texture stage cascade: CURRENT starts as the diffuse colour and TEMP as 0; each stage
//! evaluates its colour and alpha ops on its arguments (D3DTA_* with COMPLEMENT and
//! ALPHAREPLICATE), saturates, and writes CURRENT or TEMP. The op formulas are the D3D9
//! documentation's; DOTPRODUCT3 = 4 x sum((a1 - 0.5)(a2 - 0.5)) saturated into every channel.
//! A BUMPENVMAP(LUMINANCE) stage writes no colour: its texel (du, dv, L) moves the next stage's
//! coordinate by the bump matrix (u + M00 du + M10 dv, v + M01 du + M11 dv) and, for LUMINANCE,
//! scales that stage's texture colour by clamp(L x LSCALE + LOFFSET, 0, 1). A PREMODULATE stage's
//! result is ARG1; the next stage, when it has a texture, first multiplies CURRENT by its texel
//! (colour for COLOROP PREMODULATE, alpha for ALPHAOP). A stage that samples nothing reads its
//! texture as 0.
//!
//! Uniform-driven, every stage reads its ops, arguments and lookup from `ffp_state.stages[n]`
//! ([`super::state`]); the ops and arguments are then the functions `ffp_op` and `ffp_arg`, whose
//! cases are the keyed expressions.

use super::key_pixel::{AlphaKey, Arg, ArgSource, OpKey, StageKey, TextureOp};
use super::known::{Count, Gen, StateValue};
use crate::bytecode::TextureDimension;

const ZERO: &str = "vec4<f32>(0.0)";

/// A register's value for stage `stage` (a WGSL `u32` or literal) whose texel is `tex`.
fn source(s: ArgSource, stage: &str, tex: &str) -> String {
    match s {
        ArgSource::Diffuse => "diffuse".to_string(),
        ArgSource::Current => "current".to_string(),
        ArgSource::Texture => tex.to_string(),
        ArgSource::TFactor => "ffp.texture_factor".to_string(),
        ArgSource::Specular => "specular".to_string(),
        ArgSource::Temp => "temp".to_string(),
        ArgSource::Constant => format!("ffp.constant[{stage}]"),
    }
}

fn replicate(v: &str) -> String {
    format!("{v}.aaaa")
}

fn complement(v: &str) -> String {
    format!("(vec4<f32>(1.0) - {v})")
}

fn arg(a: Arg, stage: u8) -> String {
    let v = source(a.source, &stage.to_string(), &format!("tex{stage}"));
    let v = if a.alpha_replicate { replicate(&v) } else { v };
    if a.complement {
        complement(&v)
    } else {
        v
    }
}

/// An argument's code in the state block: the source, 8 for ALPHAREPLICATE, 16 for COMPLEMENT;
/// 7 for an argument the op does not read (it reads as 0).
pub(super) fn arg_code(a: Option<Arg>) -> u32 {
    a.map_or(7, |a| a.source.code() | ((a.alpha_replicate as u32) << 3) | ((a.complement as u32) << 4))
}

/// The op's value as a `vec4` expression of its arguments and the stage's texel `tex` (`.rgb` or
/// `.a` of it is used).
fn op_expr(op: TextureOp, [a0, a1, a2]: &[String; 3], tex: &str) -> String {
    let blend = |f: String| format!("mix({a2}, {a1}, {f})");
    match op {
        // PREMODULATE's own result is ARG1; the next stage does the modulating ([`premodulation`]).
        TextureOp::Disable | TextureOp::SelectArg1 | TextureOp::Premodulate => a1.clone(),
        TextureOp::SelectArg2 => a2.clone(),
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
        TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance => a1.clone(),
    }
}

/// The uniform-driven half's `ffp_arg` and `ffp_op`: a switch over every source and op, each
/// case the keyed expression.
pub(super) fn functions() -> String {
    let g = Gen { uniform: true };
    let sources = g.pick("code & 7u", ArgSource::Diffuse, |s| format!("        v = {};\n", source(s, "stage", "tex")));
    let names = ["a0", "a1", "a2"].map(String::from);
    let ops = g.pick("op", TextureOp::Disable, |op| format!("        r = {};\n", op_expr(op, &names, "tex")));
    format!(
        "fn ffp_arg(code: u32, stage: u32, tex: vec4<f32>, diffuse: vec4<f32>, current: vec4<f32>, specular: vec4<f32>, temp: vec4<f32>) -> vec4<f32> {{
    var v = {ZERO};
{sources}    if (code & 8u) != 0u {{
        v = {};
    }}
    if (code & 16u) != 0u {{
        v = {};
    }}
    return v;
}}

fn ffp_op(op: u32, a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, tex: vec4<f32>, diffuse: vec4<f32>, current: vec4<f32>) -> vec4<f32> {{
    var r = {ZERO};
{ops}    return r;
}}

",
        replicate("v"),
        complement("v")
    )
}

/// Stage `i`'s state-block field.
fn field(i: u8, name: &str) -> String {
    format!("ffp_state.stages[{i}].{name}")
}

/// An op's value: the expression itself (keyed) or `ffp_op` of the stage's fields.
fn op_value(g: Gen, i: u8, k: &OpKey, which: &str) -> String {
    if !g.uniform {
        let args = k.args.map(|a| a.map_or(ZERO.to_string(), |a| arg(a, i)));
        return op_expr(k.op, &args, &format!("tex{i}"));
    }
    let args = ["x", "y", "z"].map(|c| {
        format!("ffp_arg({}.{c}, {i}u, tex{i}, diffuse, current, specular, temp)", field(i, &format!("{which}_args")))
    });
    format!(
        "ffp_op({}, {}, {}, {}, tex{i}, diffuse, current)",
        field(i, &format!("{which}_op")),
        args[0],
        args[1],
        args[2]
    )
}

/// The state flags of a stage ([`stage_states`]).
const TO_TEMP: u32 = 1;
const SAMPLES: u32 = 2;
const PERTURBED: u32 = 4;
const LUMINANCE: u32 = 8;
const PREMODULATE_COLOR: u32 = 16;
const PREMODULATE_ALPHA: u32 = 32;

/// How a stage samples: its dimension, the projected divide (0: none, 1 + component) and the
/// bump stage before it (`Some(luminance)`), when it can have one.
struct Lookup {
    ty: TextureDimension,
    divide: Count,
    perturbed: Option<bool>,
    /// Whether the stage before can perturb this one at all (it has a texture).
    perturbable: bool,
}

fn lookup(g: Gen, i: u8, l: &Lookup) -> String {
    let flag = |bit: u32| format!("({} & {bit}u)", field(i, "flags"));
    let mut out = format!("    var tc{i} = t{i};\n");
    out += &g.pick_of(&field(i, "divide_by"), l.divide, &Count::ALL[..5], |d| match d.0 {
        0 => String::new(),
        c => format!("    tc{i} = tc{i} / tc{i}.{};\n", ["x", "y", "z", "w"][c as usize - 1]),
    });
    let b = i.wrapping_sub(1);
    if l.perturbable {
        out += &g.when(&flag(PERTURBED), l.perturbed.is_some(), |on| match on {
            false => String::new(),
            true => format!(
                "    let bm{i} = ffp.bump_matrix[{b}];\n    tc{i} = vec4<f32>(tc{i}.x + bm{i}.x * tex{b}.x + bm{i}.z * tex{b}.y, tc{i}.y + bm{i}.y * tex{b}.x + bm{i}.w * tex{b}.y, tc{i}.zw);\n"
            ),
        });
    }
    let coords = match l.ty {
        TextureDimension::Tex2D => format!("tc{i}.xy"),
        TextureDimension::Cube | TextureDimension::Volume => format!("tc{i}.xyz"),
    };
    out += &format!("    tex{i} = textureSampleLevel(tex_{i}, samp_{i}, {coords}, 0.0);\n");
    if l.perturbable {
        out += &g.when(&flag(LUMINANCE), l.perturbed == Some(true), |on| match on {
            false => String::new(),
            true => format!(
                "    let lum{i} = clamp(tex{b}.z * ffp.bump_luminance[{b}].x + ffp.bump_luminance[{b}].y, 0.0, 1.0);\n    tex{i} = vec4<f32>(tex{i}.rgb * lum{i}, tex{i}.a);\n"
            ),
        });
    }
    out
}

/// What the stage does (its state block `kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StageKind {
    Off,
    Blend,
    Bump,
    BumpLuminance,
}

impl StateValue for StageKind {
    const ALL: &'static [Self] = &[StageKind::Off, StageKind::Blend, StageKind::Bump, StageKind::BumpLuminance];
    fn code(self) -> u32 {
        self as u32
    }
}

/// The alpha result's code (its state block `alpha`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AlphaKind {
    Keep,
    Op,
    FromColor,
}

impl StateValue for AlphaKind {
    const ALL: &'static [Self] = &[AlphaKind::Keep, AlphaKind::Op, AlphaKind::FromColor];
    fn code(self) -> u32 {
        self as u32
    }
}

fn kinds(st: &StageKey) -> (StageKind, AlphaKind) {
    match *st {
        StageKey::Bump { luminance: false, .. } => (StageKind::Bump, AlphaKind::Keep),
        StageKey::Bump { luminance: true, .. } => (StageKind::BumpLuminance, AlphaKind::Keep),
        StageKey::Blend { alpha, .. } => (
            StageKind::Blend,
            match alpha {
                AlphaKey::Keep => AlphaKind::Keep,
                AlphaKey::Op(_) => AlphaKind::Op,
                AlphaKey::FromColor => AlphaKind::FromColor,
            },
        ),
    }
}

/// One stage of the cascade. Keyed, `st` is the key's stage; uniform-driven, a stand-in whose
/// values the state block replaces.
fn stage(g: Gen, st: &StageKey, texture: Option<TextureDimension>, l: &Lookup) -> String {
    let (kind, alpha_kind) = kinds(st);
    let (i, to_temp, sampling) = match *st {
        StageKey::Blend { index, to_temp, texture, .. } => (index, to_temp, texture),
        StageKey::Bump { index, texture, .. } => (index, false, texture),
    };
    let samples = |_: bool| match texture {
        Some(_) => g.when(&format!("({} & {SAMPLES}u)", field(i, "flags")), sampling.is_some(), |on| {
            if on {
                lookup(g, i, l)
            } else {
                String::new()
            }
        }),
        None => String::new(),
    };
    g.pick(&field(i, "kind"), kind, |k| match k {
        StageKind::Off => String::new(),
        StageKind::Bump | StageKind::BumpLuminance => samples(true),
        StageKind::Blend => {
            let (color, alpha, premodulate) = match st {
                StageKey::Blend { color, alpha, premodulate, .. } => (*color, *alpha, *premodulate),
                StageKey::Bump { .. } => {
                    (OpKey { op: TextureOp::SelectArg1, args: [None; 3] }, AlphaKey::Keep, [false; 2])
                }
            };
            let mut s = samples(true);
            s += &premodulation(g, i, premodulate);
            s += &format!("    let c{i} = {};\n    var a{i} = 0.0;\n", op_value(g, i, &color, "color"));
            s += &g.pick(&field(i, "alpha"), alpha_kind, |a| match a {
                AlphaKind::Keep => format!("    a{i} = current.a;\n"),
                AlphaKind::Op => {
                    let k = match alpha {
                        AlphaKey::Op(k) => k,
                        _ => color,
                    };
                    format!("    a{i} = {}.a;\n", op_value(g, i, &k, "alpha"))
                }
                AlphaKind::FromColor => format!("    a{i} = c{i}.r;\n"),
            });
            s + &g.when(&format!("({} & {TO_TEMP}u)", field(i, "flags")), to_temp, |t| {
                let dest = if t { "temp" } else { "current" };
                format!("    {dest} = clamp(vec4<f32>(c{i}.rgb, a{i}), vec4<f32>(0.0), vec4<f32>(1.0));\n")
            })
        }
    })
}

/// PREMODULATE on the stage before: CURRENT's colour and/or alpha times this stage's texel, before
/// the stage reads its arguments (docs/d3d9-rules.md#ffp-premodulate).
fn premodulation(g: Gen, i: u8, [color, alpha]: [bool; 2]) -> String {
    let flag = |bit: u32| format!("({} & {bit}u)", field(i, "flags"));
    let mut s = g.when(&flag(PREMODULATE_COLOR), color, |on| match on {
        false => String::new(),
        true => format!("    current = vec4<f32>(current.rgb * tex{i}.rgb, current.a);\n"),
    });
    s += &g.when(&flag(PREMODULATE_ALPHA), alpha, |on| match on {
        false => String::new(),
        true => format!("    current = vec4<f32>(current.rgb, current.a * tex{i}.a);\n"),
    });
    s
}

/// The stage before `k` in `stages` when it is a bump stage with a texture at the index just
/// before (it perturbs stage `k`'s lookup): `Some(luminance)`.
fn perturbing(stages: &[StageKey], k: usize) -> Option<bool> {
    let index = match stages[k] {
        StageKey::Blend { index, .. } | StageKey::Bump { index, .. } => index,
    };
    match *stages.get(k.checked_sub(1)?)? {
        StageKey::Bump { index: b, luminance, texture: Some(_) } if b + 1 == index => Some(luminance),
        _ => None,
    }
}

fn sampling(st: &StageKey) -> Option<super::key_pixel::Sampling> {
    match *st {
        StageKey::Blend { texture, .. } | StageKey::Bump { texture, .. } => texture,
    }
}

fn divide(st: &StageKey) -> Count {
    Count(sampling(st).and_then(|s| s.divide_by).map_or(0, |c| c + 1))
}

/// WGSL statements of the keyed cascade; `current` ends as the result.
pub(super) fn cascade(stages: &[StageKey]) -> String {
    let g = Gen { uniform: false };
    let textures = sampled(stages);
    let mut s = String::from("    var current = diffuse;\n    var temp = vec4<f32>(0.0);\n");
    s += &texel_declarations(&textures);
    for (k, st) in stages.iter().enumerate() {
        let ty = sampling(st).map(|t| t.ty);
        let perturbed = perturbing(stages, k);
        let l = Lookup { ty: ty.unwrap_or(TextureDimension::Tex2D), divide: divide(st), perturbed, perturbable: true };
        s += &stage(g, st, ty, &l);
    }
    s
}

/// WGSL statements of the uniform-driven cascade over the bound `textures`.
pub(super) fn cascade_uniform(textures: &[Option<TextureDimension>; 8]) -> String {
    let g = Gen { uniform: true };
    let mut s = String::from("    var current = diffuse;\n    var temp = vec4<f32>(0.0);\n");
    s += &texel_declarations(textures);
    let stand_in = |index: u8| StageKey::Blend {
        index,
        color: OpKey { op: TextureOp::SelectArg1, args: [None; 3] },
        alpha: AlphaKey::Keep,
        to_temp: false,
        texture: None,
        premodulate: [false; 2],
    };
    for i in 0..8u8 {
        let l = Lookup {
            ty: textures[i as usize].unwrap_or(TextureDimension::Tex2D),
            divide: Count(0),
            perturbed: None,
            perturbable: i > 0 && textures[i as usize - 1].is_some(),
        };
        s += &stage(g, &stand_in(i), textures[i as usize], &l);
    }
    s
}

/// `tex0` … `tex7`: a `var` for a stage with a texture, 0 for the others.
fn texel_declarations(textures: &[Option<TextureDimension>; 8]) -> String {
    (0..8)
        .map(|i| match textures[i] {
            Some(_) => format!("    var tex{i} = {ZERO};\n"),
            None => format!("    let tex{i} = {ZERO};\n"),
        })
        .collect()
}

/// The dimension each stage of `stages` samples.
pub(super) fn sampled(stages: &[StageKey]) -> [Option<TextureDimension>; 8] {
    let mut t = [None; 8];
    for st in stages {
        let (StageKey::Blend { index, .. } | StageKey::Bump { index, .. }) = *st;
        t[index as usize] = sampling(st).map(|s| s.ty);
    }
    t
}

/// The state block words of each stage (`FfpStageState`, [`super::state`]).
pub(super) fn stage_states(stages: &[StageKey]) -> [[u32; 16]; 8] {
    let mut out = [[0u32; 16]; 8];
    for (k, st) in stages.iter().enumerate() {
        let (kind, alpha_kind) = kinds(st);
        let (StageKey::Blend { index, .. } | StageKey::Bump { index, .. }) = *st;
        let w = &mut out[index as usize];
        let perturbed = perturbing(stages, k);
        w[0] = kind.code();
        let flag = |on: bool, bit: u32| if on { bit } else { 0 };
        w[1] = flag(matches!(st, StageKey::Blend { to_temp: true, .. }), TO_TEMP)
            | flag(sampling(st).is_some(), SAMPLES)
            | flag(perturbed.is_some(), PERTURBED)
            | flag(perturbed == Some(true), LUMINANCE);
        if let StageKey::Blend { premodulate: [color, alpha], .. } = *st {
            w[1] |= flag(color, PREMODULATE_COLOR) | flag(alpha, PREMODULATE_ALPHA);
        }
        w[2] = divide(st).code();
        if let StageKey::Blend { color, alpha, .. } = st {
            w[3] = color.op.code();
            w[4] = alpha_kind.code();
            if let AlphaKey::Op(a) = alpha {
                w[5] = a.op.code();
                for j in 0..3 {
                    w[12 + j] = arg_code(a.args[j]);
                }
            } else {
                w[12..15].fill(arg_code(None));
            }
            for j in 0..3 {
                w[8 + j] = arg_code(color.args[j]);
            }
        }
    }
    out
}

/// The stages' texture and sampler declarations (group 1, bindings 16 + 2n and 17 + 2n).
pub(super) fn bindings(textures: &[Option<TextureDimension>; 8]) -> String {
    let mut s = String::new();
    for (index, t) in textures.iter().enumerate() {
        let Some(t) = t else { continue };
        let ty = match t {
            TextureDimension::Tex2D => "texture_2d<f32>",
            TextureDimension::Cube => "texture_cube<f32>",
            TextureDimension::Volume => "texture_3d<f32>",
        };
        let b = super::constants::texture_binding(index as u32);
        s += &format!(
            "@group(1) @binding({b}) var tex_{index}: {ty};\n@group(1) @binding({}) var samp_{index}: sampler;\n",
            b + 1
        );
    }
    s
}
