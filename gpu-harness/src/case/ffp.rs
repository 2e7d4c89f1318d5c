//! The fixed-function additions of the case format (docs/case-format.md#fixed-function):
//! transforms, material, lights, the texture stage states of the stage cascade and texture fills.
//! Names are the file's: D3D9 names without their prefixes.

use std::collections::BTreeMap;

use serde::Deserialize;

/// `[transforms]` / `[[draw]] transforms`: SetTransform calls by name (`WORLD`, `WORLDMATRIXn`,
/// `VIEW`, `PROJECTION`, `TEXTUREn`), each 16 floats in D3DMATRIX memory order (row-major, row
/// vectors: `v' = v * M`).
pub type Transforms = BTreeMap<String, [f32; 16]>;

/// Which matrix a transform name sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TransformName {
    /// `WORLD` (= `WORLDMATRIX0`) … `WORLDMATRIX255`.
    World(u8),
    /// `VIEW`.
    View,
    /// `PROJECTION`.
    Projection,
    /// `TEXTURE0` … `TEXTURE7`.
    Texture(u8),
}

impl TransformName {
    /// Parses a transform name of the format.
    pub fn parse(name: &str) -> Option<TransformName> {
        match name {
            "WORLD" => Some(TransformName::World(0)),
            "VIEW" => Some(TransformName::View),
            "PROJECTION" => Some(TransformName::Projection),
            _ => {
                if let Some(n) = name.strip_prefix("WORLDMATRIX") {
                    return n.parse::<u8>().ok().filter(|_| !n.starts_with('0') || n == "0").map(TransformName::World);
                }
                let n = name.strip_prefix("TEXTURE")?.parse::<u8>().ok()?;
                (n < 8 && name.len() == 8).then_some(TransformName::Texture(n))
            }
        }
    }
}

/// `[material]` (SetMaterial).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Material {
    pub diffuse: [f32; 4],
    pub ambient: [f32; 4],
    pub specular: [f32; 4],
    pub emissive: [f32; 4],
    pub power: f32,
}

/// D3DLIGHTTYPE names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum LightType {
    Point,
    Spot,
    Directional,
}

/// `[[light]]` (SetLight plus LightEnable); every field required.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Light {
    pub index: u32,
    pub enabled: bool,
    #[serde(rename = "type")]
    pub kind: LightType,
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub ambient: [f32; 4],
    pub position: [f32; 3],
    pub direction: [f32; 3],
    pub range: f32,
    pub falloff: f32,
    pub attenuation0: f32,
    pub attenuation1: f32,
    pub attenuation2: f32,
    pub theta: f32,
    pub phi: f32,
}

/// D3DTEXTUREOP names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
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
    #[serde(rename = "MODULATEALPHA_ADDCOLOR")]
    ModulateAlphaAddColor,
    #[serde(rename = "MODULATECOLOR_ADDALPHA")]
    ModulateColorAddAlpha,
    #[serde(rename = "MODULATEINVALPHA_ADDCOLOR")]
    ModulateInvAlphaAddColor,
    #[serde(rename = "MODULATEINVCOLOR_ADDALPHA")]
    ModulateInvColorAddAlpha,
    BumpEnvMap,
    BumpEnvMapLuminance,
    DotProduct3,
    MultiplyAdd,
    Lerp,
}

/// D3DTA_* register of a stage argument.
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

/// A stage argument: source plus D3DTA_COMPLEMENT / D3DTA_ALPHAREPLICATE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arg {
    /// The register.
    pub source: ArgSource,
    /// `|COMPLEMENT`: 1 - x.
    pub complement: bool,
    /// `|ALPHAREPLICATE`: the alpha in every channel.
    pub alpha_replicate: bool,
}

impl Arg {
    /// An argument without modifiers.
    pub const fn plain(source: ArgSource) -> Arg {
        Arg { source, complement: false, alpha_replicate: false }
    }

    /// Parses `"DIFFUSE|ALPHAREPLICATE"` and the like.
    pub fn parse(text: &str) -> Result<Arg, String> {
        let mut parts = text.split('|').map(str::trim);
        let source = match parts.next().unwrap_or("") {
            "DIFFUSE" => ArgSource::Diffuse,
            "CURRENT" => ArgSource::Current,
            "TEXTURE" => ArgSource::Texture,
            "TFACTOR" => ArgSource::TFactor,
            "SPECULAR" => ArgSource::Specular,
            "TEMP" => ArgSource::Temp,
            "CONSTANT" => ArgSource::Constant,
            other => return Err(format!("unknown texture argument `{other}`")),
        };
        let mut arg = Arg::plain(source);
        for m in parts {
            match m {
                "COMPLEMENT" => arg.complement = true,
                "ALPHAREPLICATE" => arg.alpha_replicate = true,
                other => return Err(format!("unknown texture argument modifier `{other}`")),
            }
        }
        Ok(arg)
    }
}

impl<'de> Deserialize<'de> for Arg {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Arg, D::Error> {
        let text = String::deserialize(d)?;
        Arg::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// D3DTSS_RESULTARG.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum ResultArg {
    #[default]
    Current,
    Temp,
}

/// D3DTSS_TCI_* generation modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TexGen {
    #[default]
    PassThru,
    CameraSpaceNormal,
    CameraSpacePosition,
    CameraSpaceReflectionVector,
    SphereMap,
}

/// D3DTSS_TEXCOORDINDEX: the set a stage reads and the generation mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexCoordIndex {
    /// The vertex texture coordinate set (0–7).
    pub index: u8,
    /// The generation mode.
    pub gen: TexGen,
}

impl<'de> Deserialize<'de> for TexCoordIndex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TexCoordIndex, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u32),
            Text(String),
        }
        let index = |n: u32| u8::try_from(n).ok().filter(|&n| n < 8).ok_or_else(|| D::Error::custom("index above 7"));
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(TexCoordIndex { index: index(n)?, gen: TexGen::PassThru }),
            Raw::Text(t) => {
                let (mode, n) = t.split_once('|').ok_or_else(|| D::Error::custom("expected `MODE|n`"))?;
                let gen = match mode.trim() {
                    "PASSTHRU" => TexGen::PassThru,
                    "CAMERASPACENORMAL" => TexGen::CameraSpaceNormal,
                    "CAMERASPACEPOSITION" => TexGen::CameraSpacePosition,
                    "CAMERASPACEREFLECTIONVECTOR" => TexGen::CameraSpaceReflectionVector,
                    "SPHEREMAP" => TexGen::SphereMap,
                    other => return Err(D::Error::custom(format!("unknown TCI mode `{other}`"))),
                };
                let n = n.trim().parse::<u32>().map_err(|e| D::Error::custom(format!("TCI index: {e}")))?;
                Ok(TexCoordIndex { index: index(n)?, gen })
            }
        }
    }
}

/// D3DTSS_TEXTURETRANSFORMFLAGS as written: a `"COUNT2|PROJECTED"` string or a raw integer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum TransformFlagsValue {
    /// Flag names.
    Names(String),
    /// A raw value (0xffffffff: no valid combination).
    Raw(u32),
}

/// `fill` of a large texture: per channel a constant or a ramp.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Fill {
    pub r: FillChannel,
    pub g: FillChannel,
    pub b: FillChannel,
    pub a: FillChannel,
}

/// One channel of a [`Fill`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum FillChannel {
    /// Every texel's value, in the format's units.
    Constant(u32),
    /// `trunc(float32(coord / divisor) * scale)` along `axis`.
    Ramp {
        /// `"x"`, `"y"` or `"z"`.
        axis: String,
        /// The divisor.
        divisor: f64,
        /// The scale.
        scale: f64,
    },
}

impl FillChannel {
    /// The channel's value at texel (x, y, z), clamped to `max`.
    pub fn at(&self, x: u32, y: u32, z: u32, max: u32) -> Result<u32, String> {
        match self {
            FillChannel::Constant(v) => Ok((*v).min(max)),
            FillChannel::Ramp { axis, divisor, scale } => {
                let coord = match axis.as_str() {
                    "x" => x,
                    "y" => y,
                    "z" => z,
                    other => return Err(format!("fill axis `{other}`")),
                };
                let q = (coord as f64 / divisor) as f32;
                let v = (q as f64 * scale).trunc();
                Ok(v.clamp(0.0, max as f64) as u32)
            }
        }
    }
}

pub(super) fn transform_flags_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<TransformFlagsValue>::deserialize(d)?.map(|v| match v {
        TransformFlagsValue::Names(s) => s,
        TransformFlagsValue::Raw(n) => format!("0x{n:x}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_names() {
        assert_eq!(TransformName::parse("WORLD"), Some(TransformName::World(0)));
        assert_eq!(TransformName::parse("WORLDMATRIX3"), Some(TransformName::World(3)));
        assert_eq!(TransformName::parse("TEXTURE7"), Some(TransformName::Texture(7)));
        for bad in ["TEXTURE8", "WORLDMATRIX256", "WORLDMATRIX03", "TEXTURE", "world"] {
            assert_eq!(TransformName::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn args_and_modifiers() {
        let a = Arg::parse("CONSTANT|COMPLEMENT").unwrap();
        assert_eq!(a, Arg { source: ArgSource::Constant, complement: true, alpha_replicate: false });
        assert!(Arg::parse("DIFFUSE|INVERT").is_err());
        assert!(Arg::parse("ALPHA").is_err());
    }

    #[test]
    fn ramp_truncates_after_a_float32_quotient() {
        // red = 64 y for divisor 1024, scale 65536 (docs/case-format.md#fixed-function).
        let r = FillChannel::Ramp { axis: "y".into(), divisor: 1024.0, scale: 65536.0 };
        assert_eq!(r.at(0, 3, 0, 65535), Ok(192));
        assert_eq!(r.at(0, 1023, 0, 65535), Ok(65472));
        assert_eq!(FillChannel::Constant(300).at(0, 0, 0, 255), Ok(255));
    }
}
