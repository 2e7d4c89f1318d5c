//! The pixel half's key: the texture stage cascade, specular add, fog and alpha test, normalised so
//! that states which do not change the code compare equal (arguments an op does not read, stages
//! after the first COLOROP DISABLE, a TEMP result nothing reads, an ALWAYS alpha test).

use crate::bytecode::TextureDimension;
use arrayvec::ArrayVec;

pub use super::shared::FogFormula;
use super::shared::Varyings;
use crate::key::CompareFunc;

/// D3DTEXTUREOP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TextureOp {
    Disable,
    SelectArg1,
    SelectArg2,
    Modulate,
    Modulate2x,
    Modulate4x,
    Add,
    AddSigned,
    AddSigned2x,
    Subtract,
    AddSmooth,
    BlendDiffuseAlpha,
    BlendTextureAlpha,
    BlendFactorAlpha,
    BlendTextureAlphaPm,
    BlendCurrentAlpha,
    Premodulate,
    ModulateAlphaAddColor,
    ModulateColorAddAlpha,
    ModulateInvAlphaAddColor,
    ModulateInvColorAddAlpha,
    BumpEnvMap,
    BumpEnvMapLuminance,
    DotProduct3,
    MultiplyAdd,
    Lerp,
}

impl TextureOp {
    /// Whether the op reads argument `k` (ARG0 only for MULTIPLYADD and LERP).
    pub fn reads(self, k: usize) -> bool {
        match k {
            0 => matches!(self, TextureOp::MultiplyAdd | TextureOp::Lerp),
            1 => self != TextureOp::SelectArg2,
            _ => self != TextureOp::SelectArg1,
        }
    }

    /// BUMPENVMAP or BUMPENVMAPLUMINANCE.
    pub fn is_bump(self) -> bool {
        matches!(self, TextureOp::BumpEnvMap | TextureOp::BumpEnvMapLuminance)
    }

    /// Whether the op reads the stage's texture alpha without an argument naming it.
    fn reads_texture_alpha(self) -> bool {
        matches!(self, TextureOp::BlendTextureAlpha | TextureOp::BlendTextureAlphaPm)
    }
}

/// D3DTA_* registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ArgSource {
    Diffuse,
    Current,
    Texture,
    TFactor,
    Specular,
    Temp,
    Constant,
}

/// A stage argument with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arg {
    /// The register.
    pub source: ArgSource,
    /// D3DTA_COMPLEMENT: 1 - x.
    pub complement: bool,
    /// D3DTA_ALPHAREPLICATE: the alpha in every channel.
    pub alpha_replicate: bool,
}

impl Arg {
    /// An argument without modifiers.
    pub const fn plain(source: ArgSource) -> Arg {
        Arg { source, complement: false, alpha_replicate: false }
    }
}

/// Where the pixel half's fog factor comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PixelFog {
    /// No fog.
    #[default]
    Off,
    /// The FOG varying (vertex fog, or the specular alpha).
    Varying,
    /// Table fog from the pixel's depth.
    Table(FogFormula),
}

/// One stage as the application set it (D3DTSS_*), before normalisation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct StageState {
    pub color_op: TextureOp,
    pub color_args: [Arg; 3],
    pub alpha_op: TextureOp,
    pub alpha_args: [Arg; 3],
    /// D3DTSS_RESULTARG TEMP.
    pub result_temp: bool,
    /// The bound texture's dimension, if one is bound.
    pub texture: Option<TextureDimension>,
    /// The coordinate component a projected lookup divides by (from D3DTTFF_PROJECTED and COUNTn).
    pub divide_by: Option<u8>,
}

/// A normalised op: arguments it does not read are `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpKey {
    /// The op.
    pub op: TextureOp,
    /// ARG0, ARG1, ARG2.
    pub args: [Option<Arg>; 3],
}

/// A stage's alpha result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlphaKey {
    /// ALPHAOP DISABLE: CURRENT's alpha.
    Keep,
    /// An alpha op.
    Op(OpKey),
    /// COLOROP DOTPRODUCT3 replaces the alpha too.
    FromColor,
}

/// How a stage samples its texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampling {
    /// The dimension.
    pub ty: TextureDimension,
    /// Projected lookup: the component divided by.
    pub divide_by: Option<u8>,
}

/// One stage of the cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageKey {
    /// A colour/alpha stage.
    Blend {
        /// Stage index (0–7): texture, coordinate and constant slots.
        index: u8,
        /// The colour op.
        color: OpKey,
        /// The alpha result.
        alpha: AlphaKey,
        /// RESULTARG TEMP.
        to_temp: bool,
        /// The texture lookup, when an argument reads it (or the stage is premodulated).
        texture: Option<Sampling>,
        /// The stage before was COLOROP / ALPHAOP PREMODULATE: CURRENT's colour / alpha is
        /// multiplied by this stage's texel before the stage runs (docs/d3d9-rules.md#ffp-premodulate).
        /// Only set when this stage has a texture.
        premodulate: [bool; 2],
    },
    /// BUMPENVMAP(LUMINANCE): perturbs the next stage's lookup, no colour.
    Bump {
        /// Stage index.
        index: u8,
        /// BUMPENVMAPLUMINANCE.
        luminance: bool,
        /// The bump texture's lookup (`None`: no texture bound, no perturbation).
        texture: Option<Sampling>,
    },
}

/// The pixel half's key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PixelKey {
    /// The stages up to the first COLOROP DISABLE, dead TEMP stages left out.
    pub stages: ArrayVec<StageKey, 8>,
    /// SPECULARENABLE: specular RGB added after the last stage.
    pub specular_add: bool,
    /// Fog.
    pub fog: PixelFog,
    /// Alpha test (`None`: off or ALWAYS).
    pub alpha_test: Option<CompareFunc>,
    /// SHADEMODE FLAT: COLOR varyings are not interpolated.
    pub flat: bool,
    /// Table fog reads the FOG varying's y (the raw z of pre-transformed vertices drawn with
    /// CLIPPING FALSE, [`super::VertexKey::unclipped_z`]) instead of the clamped depth.
    pub table_depth_from_fog: bool,
    /// Where the varyings are.
    pub varyings: Varyings,
}

/// A stage whose op reads TEXTURE with no texture bound acts as SELECTARG1(CURRENT).
fn op_key(op: TextureOp, args: [Arg; 3], bound: bool) -> OpKey {
    let reads_texture = (0..3).any(|k| op.reads(k) && args[k].source == ArgSource::Texture);
    let (op, args) = if !bound && reads_texture {
        (TextureOp::SelectArg1, [args[0], Arg::plain(ArgSource::Current), args[2]])
    } else {
        (op, args)
    };
    OpKey { op, args: std::array::from_fn(|k| op.reads(k).then_some(args[k])) }
}

fn reads_source(op: &OpKey, source: ArgSource) -> bool {
    op.args.iter().flatten().any(|a| a.source == source)
}

fn stage_reads(stage: &StageKey, source: ArgSource) -> bool {
    match stage {
        StageKey::Blend { color, alpha, .. } => {
            reads_source(color, source) || matches!(alpha, AlphaKey::Op(a) if reads_source(a, source))
        }
        StageKey::Bump { .. } => false,
    }
}

impl PixelKey {
    /// The key of `stages` (stage 0 first) with the other pixel states.
    pub fn new(
        stages: &[StageState],
        specular_add: bool,
        fog: PixelFog,
        alpha_test: Option<CompareFunc>,
        flat: bool,
        varyings: Varyings,
    ) -> PixelKey {
        let mut out: ArrayVec<StageKey, 8> = ArrayVec::new();
        // What the stage before asked of this one with PREMODULATE ([colour, alpha]).
        let mut premodulate_next = [false; 2];
        for (i, s) in stages.iter().enumerate().take(8) {
            if s.color_op == TextureOp::Disable {
                break;
            }
            let sampling = s.texture.map(|ty| Sampling { ty, divide_by: s.divide_by });
            let asked = std::mem::take(&mut premodulate_next);
            if s.color_op.is_bump() {
                out.push(StageKey::Bump {
                    index: i as u8,
                    luminance: s.color_op == TextureOp::BumpEnvMapLuminance,
                    texture: sampling,
                });
                continue;
            }
            let bound = s.texture.is_some();
            let color = op_key(s.color_op, s.color_args, bound);
            let alpha = match (s.color_op, s.alpha_op) {
                (TextureOp::DotProduct3, _) => AlphaKey::FromColor,
                (_, TextureOp::Disable) => AlphaKey::Keep,
                (_, op) => AlphaKey::Op(op_key(op, s.alpha_args, bound)),
            };
            let premodulate = if bound { asked } else { [false; 2] };
            let key =
                StageKey::Blend { index: i as u8, color, alpha, to_temp: s.result_temp, texture: None, premodulate };
            let uses_texture = stage_reads(&key, ArgSource::Texture)
                || color.op.reads_texture_alpha()
                || matches!(alpha, AlphaKey::Op(a) if a.op.reads_texture_alpha());
            let after_bump = matches!(out.last(), Some(StageKey::Bump { index, .. }) if *index as usize + 1 == i);
            let premodulated = premodulate.contains(&true);
            let texture = (uses_texture || after_bump || premodulated).then_some(sampling).flatten();
            // The op after the no-texture rule decides: PREMODULATE(TEXTURE) without a texture is
            // SELECTARG1(CURRENT) and asks nothing of the next stage.
            premodulate_next = [
                color.op == TextureOp::Premodulate,
                matches!(alpha, AlphaKey::Op(a) if a.op == TextureOp::Premodulate),
            ];
            out.push(StageKey::Blend { index: i as u8, color, alpha, to_temp: s.result_temp, texture, premodulate });
        }
        // A TEMP result no later stage reads changes nothing (unless the stage also premodulates
        // CURRENT).
        let mut k = out.len();
        while k > 0 {
            k -= 1;
            if let StageKey::Blend { to_temp: true, premodulate: [false, false], .. } = out[k] {
                if !out[k + 1..].iter().any(|s| stage_reads(s, ArgSource::Temp)) {
                    out.remove(k);
                }
            }
        }
        let alpha_test = alpha_test.filter(|&f| f != CompareFunc::Always);
        PixelKey { stages: out, specular_add, fog, alpha_test, flat, table_depth_from_fog: false, varyings }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(op: TextureOp, a1: ArgSource, a2: ArgSource) -> StageState {
        StageState {
            color_op: op,
            color_args: [Arg::plain(ArgSource::Current), Arg::plain(a1), Arg::plain(a2)],
            alpha_op: TextureOp::Disable,
            alpha_args: [Arg::plain(ArgSource::Current); 3],
            result_temp: false,
            texture: None,
            divide_by: None,
        }
    }

    #[test]
    fn unread_arguments_and_later_stages_do_not_change_the_key() {
        let a = stage(TextureOp::SelectArg1, ArgSource::Diffuse, ArgSource::Specular);
        let b = stage(TextureOp::SelectArg1, ArgSource::Diffuse, ArgSource::TFactor);
        let off = stage(TextureOp::Disable, ArgSource::Diffuse, ArgSource::Diffuse);
        let on = stage(TextureOp::Add, ArgSource::Diffuse, ArgSource::Diffuse);
        let key = |s: &[StageState]| PixelKey::new(s, false, PixelFog::Off, None, false, Varyings::default());
        assert_eq!(key(&[a, off, on]), key(&[b, off]));
        assert_ne!(key(&[a, on]), key(&[a, off]));
        let always = PixelKey::new(&[a], false, PixelFog::Off, Some(CompareFunc::Always), false, Varyings::default());
        assert_eq!(always, key(&[a]));
    }

    #[test]
    fn a_texture_read_without_a_texture_selects_current() {
        let k = PixelKey::new(
            &[stage(TextureOp::Modulate, ArgSource::Texture, ArgSource::Diffuse)],
            false,
            PixelFog::Off,
            None,
            false,
            Varyings::default(),
        );
        let StageKey::Blend { color, texture, .. } = k.stages[0] else { panic!() };
        assert_eq!(color.op, TextureOp::SelectArg1);
        assert_eq!(color.args[1], Some(Arg::plain(ArgSource::Current)));
        assert_eq!(texture, None);
    }

    #[test]
    fn unread_temp_results_are_dropped() {
        let mut t = stage(TextureOp::SelectArg1, ArgSource::TFactor, ArgSource::Diffuse);
        t.result_temp = true;
        let plain = stage(TextureOp::SelectArg1, ArgSource::Diffuse, ArgSource::Diffuse);
        let reads = stage(TextureOp::Add, ArgSource::Temp, ArgSource::Diffuse);
        let key =
            |s: &[StageState]| PixelKey::new(s, false, PixelFog::Off, None, false, Varyings::default()).stages.len();
        assert_eq!(key(&[plain, t]), 1);
        assert_eq!(key(&[t, reads]), 2);
    }

    #[test]
    fn premodulate_makes_the_next_stage_sample_and_keeps_it() {
        let pre = stage(TextureOp::Premodulate, ArgSource::Diffuse, ArgSource::Diffuse);
        let mut next = stage(TextureOp::SelectArg1, ArgSource::Diffuse, ArgSource::Diffuse);
        next.texture = Some(TextureDimension::Tex2D);
        next.result_temp = true;
        let key = |s: &[StageState]| PixelKey::new(s, false, PixelFog::Off, None, false, Varyings::default());
        // The next stage reads no TEXTURE and writes a TEMP nobody reads, yet it multiplies CURRENT.
        let k = key(&[pre, next]);
        assert_eq!(k.stages.len(), 2);
        let StageKey::Blend { texture, premodulate, .. } = k.stages[1] else { panic!() };
        assert!(texture.is_some());
        assert_eq!(premodulate, [true, false]);
        // Without a texture there is nothing to multiply by.
        next.texture = None;
        next.result_temp = false;
        let StageKey::Blend { texture, premodulate, .. } = key(&[pre, next]).stages[1] else { panic!() };
        assert_eq!((texture, premodulate), (None, [false, false]));
    }
}
