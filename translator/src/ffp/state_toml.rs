//! Fixed-function state written as TOML with the case format's names (docs/case-format.md,
//! "Fixed-function state"): the render states, vertex elements, lights, texture stages and
//! texture types that change the generated code, read into the two keys. Numeric values the
//! constants carry (matrices, colours, light values) may be present and are not read; an unknown
//! name is an error naming its line.

use crate::bytecode::TextureDimension;
use std::collections::BTreeMap;

use serde::Deserialize;

use super::key_pixel::{self as kp, PixelKey};
use super::key_vertex::{self as kv, Varyings, VertexKey};
use crate::key::CompareFunc;

/// Why a state file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StateError(String);

#[derive(Deserialize, Default)]
#[serde(rename_all = "UPPERCASE")]
struct States {
    lighting: Option<bool>,
    specularenable: Option<bool>,
    localviewer: Option<bool>,
    normalizenormals: Option<bool>,
    colorvertex: Option<bool>,
    diffusematerialsource: Option<String>,
    specularmaterialsource: Option<String>,
    ambientmaterialsource: Option<String>,
    emissivematerialsource: Option<String>,
    fogenable: Option<bool>,
    fogtablemode: Option<String>,
    fogvertexmode: Option<String>,
    rangefogenable: Option<bool>,
    alphatestenable: Option<bool>,
    alphafunc: Option<String>,
    shademode: Option<String>,
    vertexblend: Option<String>,
    indexedvertexblendenable: Option<bool>,
    #[serde(flatten)]
    values: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Element {
    #[serde(default)]
    stream: u32,
    #[serde(default)]
    offset: u32,
    #[serde(rename = "type")]
    ty: String,
    usage: String,
    #[serde(default)]
    usage_index: u8,
}

#[derive(Deserialize)]
struct Light {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default = "yes")]
    enabled: bool,
    #[serde(flatten)]
    _values: BTreeMap<String, toml::Value>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct Texture {
    stage: u32,
    #[serde(rename = "type", default = "tex2d")]
    kind: String,
    #[serde(flatten)]
    _values: BTreeMap<String, toml::Value>,
}

fn tex2d() -> String {
    TextureDimension::Tex2D.name().into()
}

#[derive(Deserialize)]
#[serde(rename_all = "UPPERCASE")]
struct Stage {
    #[serde(rename = "stage")]
    stage: usize,
    colorop: Option<String>,
    colorarg0: Option<String>,
    colorarg1: Option<String>,
    colorarg2: Option<String>,
    alphaop: Option<String>,
    alphaarg0: Option<String>,
    alphaarg1: Option<String>,
    alphaarg2: Option<String>,
    resultarg: Option<String>,
    texcoordindex: Option<toml::Value>,
    texturetransformflags: Option<toml::Value>,
    #[serde(flatten)]
    _values: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    render_states: States,
    #[serde(default)]
    elements: Vec<Element>,
    #[serde(default)]
    fvf: Option<String>,
    #[serde(default, rename = "light")]
    lights: Vec<Light>,
    #[serde(default, rename = "texture")]
    textures: Vec<Texture>,
    #[serde(default, rename = "texture_stage")]
    stages: Vec<Stage>,
    #[serde(default)]
    transforms: BTreeMap<String, toml::Value>,
    #[serde(default)]
    material: Option<toml::Value>,
}

/// Render states the constants or the pipeline carry (not the generated code).
const VALUE_STATES: [&str; 26] = [
    "AMBIENT",
    "TEXTUREFACTOR",
    "FOGCOLOR",
    "FOGSTART",
    "FOGEND",
    "FOGDENSITY",
    "ALPHAREF",
    "ZENABLE",
    "ZFUNC",
    "ZWRITEENABLE",
    "CULLMODE",
    "CLIPPING",
    "STENCILENABLE",
    "ALPHABLENDENABLE",
    "SRCBLEND",
    "DESTBLEND",
    "COLORWRITEENABLE",
    "POINTSIZE",
    "POINTSIZE_MIN",
    "POINTSIZE_MAX",
    "POINTSPRITEENABLE",
    "POINTSCALEENABLE",
    "POINTSCALE_A",
    "POINTSCALE_B",
    "POINTSCALE_C",
    "TWEENFACTOR",
];

fn bad(what: &str, v: &str) -> StateError {
    StateError(format!("unknown {what} `{v}`"))
}

fn op(name: &str) -> Result<kp::TextureOp, StateError> {
    use kp::TextureOp as T;
    const OPS: [(&str, T); 26] = [
        ("DISABLE", T::Disable),
        ("SELECTARG1", T::SelectArg1),
        ("SELECTARG2", T::SelectArg2),
        ("MODULATE", T::Modulate),
        ("MODULATE2X", T::Modulate2x),
        ("MODULATE4X", T::Modulate4x),
        ("ADD", T::Add),
        ("ADDSIGNED", T::AddSigned),
        ("ADDSIGNED2X", T::AddSigned2x),
        ("SUBTRACT", T::Subtract),
        ("ADDSMOOTH", T::AddSmooth),
        ("BLENDDIFFUSEALPHA", T::BlendDiffuseAlpha),
        ("BLENDTEXTUREALPHA", T::BlendTextureAlpha),
        ("BLENDFACTORALPHA", T::BlendFactorAlpha),
        ("BLENDTEXTUREALPHAPM", T::BlendTextureAlphaPm),
        ("BLENDCURRENTALPHA", T::BlendCurrentAlpha),
        ("PREMODULATE", T::Premodulate),
        ("MODULATEALPHA_ADDCOLOR", T::ModulateAlphaAddColor),
        ("MODULATECOLOR_ADDALPHA", T::ModulateColorAddAlpha),
        ("MODULATEINVALPHA_ADDCOLOR", T::ModulateInvAlphaAddColor),
        ("MODULATEINVCOLOR_ADDALPHA", T::ModulateInvColorAddAlpha),
        ("BUMPENVMAP", T::BumpEnvMap),
        ("BUMPENVMAPLUMINANCE", T::BumpEnvMapLuminance),
        ("DOTPRODUCT3", T::DotProduct3),
        ("MULTIPLYADD", T::MultiplyAdd),
        ("LERP", T::Lerp),
    ];
    OPS.iter().find(|(n, _)| *n == name).map(|(_, o)| *o).ok_or_else(|| bad("texture op", name))
}

fn arg(text: &str) -> Result<kp::Arg, StateError> {
    use kp::ArgSource as S;
    let mut parts = text.split('|').map(str::trim);
    let source = match parts.next().unwrap_or("") {
        "DIFFUSE" => S::Diffuse,
        "CURRENT" => S::Current,
        "TEXTURE" => S::Texture,
        "TFACTOR" => S::TFactor,
        "SPECULAR" => S::Specular,
        "TEMP" => S::Temp,
        "CONSTANT" => S::Constant,
        other => return Err(bad("texture argument", other)),
    };
    let mut a = kp::Arg::plain(source);
    for m in parts {
        match m {
            "COMPLEMENT" => a.complement = true,
            "ALPHAREPLICATE" => a.alpha_replicate = true,
            other => return Err(bad("argument modifier", other)),
        }
    }
    Ok(a)
}

fn fog(name: &Option<String>) -> Result<Option<kp::FogFormula>, StateError> {
    match name.as_deref() {
        None | Some("NONE") => Ok(None),
        Some("LINEAR") => Ok(Some(kp::FogFormula::Linear)),
        Some("EXP") => Ok(Some(kp::FogFormula::Exp)),
        Some("EXP2") => Ok(Some(kp::FogFormula::Exp2)),
        Some(other) => Err(bad("fog mode", other)),
    }
}

fn source(name: &Option<String>, default: kv::MaterialSource) -> Result<kv::MaterialSource, StateError> {
    match name.as_deref() {
        None => Ok(default),
        Some("MATERIAL") => Ok(kv::MaterialSource::Material),
        Some("COLOR1") => Ok(kv::MaterialSource::Color1),
        Some("COLOR2") => Ok(kv::MaterialSource::Color2),
        Some(other) => Err(bad("material source", other)),
    }
}

fn inputs(f: &File) -> Result<kv::VertexInputs, StateError> {
    let mut i = kv::VertexInputs::default();
    for e in &f.elements {
        let _ = (e.stream, e.offset);
        let size = match e.ty.as_str() {
            "FLOAT1" => 1,
            "FLOAT2" | "SHORT2" => 2,
            "FLOAT3" => 3,
            _ => 4,
        };
        match (e.usage.as_str(), e.usage_index) {
            ("POSITION", 0) | ("PSIZE", 0) => {}
            ("POSITION", 1) => i.position1 = true,
            ("NORMAL", 1) => i.normal1 = true,
            ("POSITIONT", _) => i.pretransformed = true,
            ("NORMAL", 0) => i.normal = true,
            ("COLOR", 0) => i.diffuse = true,
            ("COLOR", 1) => i.specular = true,
            ("BLENDWEIGHT", 0) => i.blend_weights = size,
            ("BLENDINDICES", 0) => i.blend_indices = true,
            ("TEXCOORD", n @ 0..=7) => i.texcoord_sizes[n as usize] = size,
            (u, n) => return Err(StateError(format!("element {u}{n} is not a fixed-function input"))),
        }
    }
    if let Some(fvf) = &f.fvf {
        for part in fvf.split('|').map(str::trim) {
            match part {
                "D3DFVF_XYZ" => {}
                "D3DFVF_XYZRHW" => i.pretransformed = true,
                "D3DFVF_XYZB3" => i.blend_weights = 3,
                "D3DFVF_NORMAL" => i.normal = true,
                "D3DFVF_PSIZE" => {}
                "D3DFVF_DIFFUSE" => i.diffuse = true,
                "D3DFVF_SPECULAR" => i.specular = true,
                t if t.starts_with("D3DFVF_TEX") => {
                    let n: usize = t[10..].parse().map_err(|_| bad("FVF part", t))?;
                    for s in i.texcoord_sizes.iter_mut().take(n.min(8)) {
                        *s = 2;
                    }
                }
                other => return Err(bad("FVF part", other)),
            }
        }
    }
    Ok(i)
}

/// The (vertex, pixel) keys of a state file, with the generator's own varying layout.
pub fn keys_from_toml(text: &str) -> Result<(VertexKey, PixelKey), StateError> {
    let f: File = toml::from_str(text).map_err(|e| StateError(e.to_string()))?;
    let _ = (&f.transforms, &f.material);
    let rs = &f.render_states;
    if let Some(name) = rs.values.keys().find(|k| !VALUE_STATES.contains(&k.as_str())) {
        return Err(bad("render state", name));
    }
    let inputs = inputs(&f)?;
    let stages = stage_states(&f)?;
    let lighting = rs.lighting.unwrap_or(true).then(|| -> Result<kv::LightingKey, StateError> {
        let mut lights = arrayvec::ArrayVec::new();
        for l in f.lights.iter().filter(|l| l.enabled).take(8) {
            lights.push(match l.kind.as_str() {
                "POINT" => kv::LightType::Point,
                "SPOT" => kv::LightType::Spot,
                "DIRECTIONAL" => kv::LightType::Directional,
                other => return Err(bad("light type", other)),
            });
        }
        use kv::MaterialSource as M;
        let sources = [
            source(&rs.diffusematerialsource, M::Color1)?,
            source(&rs.specularmaterialsource, M::Color2)?,
            source(&rs.ambientmaterialsource, M::Material)?,
            source(&rs.emissivematerialsource, M::Material)?,
        ];
        Ok(kv::LightingKey {
            lights,
            specular: rs.specularenable.unwrap_or(false),
            sources: VertexKey::color_sources(&inputs, rs.colorvertex.unwrap_or(true), sources),
        })
    });
    let fog_on = rs.fogenable.unwrap_or(false);
    let table = fog(&rs.fogtablemode)?;
    let vertex_fog = match (fog_on, table, fog(&rs.fogvertexmode)?) {
        (false, _, _) | (true, Some(_), _) => kv::VertexFog::None,
        (true, None, Some(f)) => kv::VertexFog::Formula(f, rs.rangefogenable.unwrap_or(false)),
        (true, None, None) => kv::VertexFog::SpecularAlpha,
    };
    let blend_weights = match rs.vertexblend.as_deref() {
        None | Some("DISABLE") | Some("0WEIGHTS") | Some("TWEENING") => 0,
        Some("1WEIGHTS") => 1,
        Some("2WEIGHTS") => 2,
        Some("3WEIGHTS") => 3,
        Some(other) => return Err(bad("VERTEXBLEND", other)),
    };
    let flat = rs.shademode.as_deref() == Some("FLAT");
    let vertex = VertexKey {
        inputs,
        lighting: lighting.transpose()?,
        blend_weights,
        indexed_blend: rs.indexedvertexblendenable.unwrap_or(false),
        tween: rs.vertexblend.as_deref() == Some("TWEENING"),
        texcoords: std::array::from_fn(|s| Some(stages[s].1)),
        fog: vertex_fog,
        unclipped_z: false,
        local_viewer: rs.localviewer.unwrap_or(true),
        normalize_normals: rs.normalizenormals.unwrap_or(false),
        flat,
        varyings: Varyings::default(),
        points: None,
    };
    let pixel_fog = match (fog_on, table) {
        (false, _) => kp::PixelFog::Off,
        (true, Some(f)) => kp::PixelFog::Table(f),
        (true, None) => kp::PixelFog::Varying,
    };
    let alpha = if rs.alphatestenable.unwrap_or(false) {
        Some(compare(rs.alphafunc.as_deref().unwrap_or("ALWAYS"))?)
    } else {
        None
    };
    let pixel_stages: Vec<kp::StageState> = stages.iter().map(|s| s.0).collect();
    let pixel =
        PixelKey::new(&pixel_stages, rs.specularenable.unwrap_or(false), pixel_fog, alpha, flat, Varyings::default());
    Ok((vertex.normalised(), pixel))
}

fn compare(name: &str) -> Result<CompareFunc, StateError> {
    CompareFunc::from_name(name).ok_or_else(|| bad("ALPHAFUNC", name))
}

fn texcoord(v: &Option<toml::Value>, stage: usize) -> Result<(u8, kv::TexGen), StateError> {
    let Some(v) = v else { return Ok((stage as u8, kv::TexGen::PassThru)) };
    if let Some(n) = v.as_integer() {
        return u8::try_from(n)
            .ok()
            .filter(|&n| n < 8)
            .map(|n| (n, kv::TexGen::PassThru))
            .ok_or_else(|| bad("TEXCOORDINDEX", &n.to_string()));
    }
    let text = v.as_str().unwrap_or("");
    let (mode, n) = text.split_once('|').ok_or_else(|| bad("TEXCOORDINDEX", text))?;
    let gen = match mode {
        "PASSTHRU" => kv::TexGen::PassThru,
        "CAMERASPACENORMAL" => kv::TexGen::CameraSpaceNormal,
        "CAMERASPACEPOSITION" => kv::TexGen::CameraSpacePosition,
        "CAMERASPACEREFLECTIONVECTOR" => kv::TexGen::CameraSpaceReflectionVector,
        "SPHEREMAP" => kv::TexGen::SphereMap,
        other => return Err(bad("TCI mode", other)),
    };
    let n: u8 = n.trim().parse().ok().filter(|&n| n < 8).ok_or_else(|| bad("TEXCOORDINDEX", text))?;
    Ok((n, gen))
}

/// (count, projected) of D3DTSS_TEXTURETRANSFORMFLAGS.
fn flags(v: &Option<toml::Value>) -> Result<(u8, bool), StateError> {
    let Some(v) = v else { return Ok((0, false)) };
    if let Some(n) = v.as_integer() {
        let n = n as u32;
        return Ok((if n & 0xff <= 4 { (n & 0xff) as u8 } else { 0 }, n & 0x100 != 0));
    }
    let mut out = (0, false);
    for p in v.as_str().unwrap_or("").split('|').map(str::trim) {
        match p {
            "DISABLE" => {}
            "PROJECTED" => out.1 = true,
            "COUNT1" => out.0 = 1,
            "COUNT2" => out.0 = 2,
            "COUNT3" => out.0 = 3,
            "COUNT4" => out.0 = 4,
            other => return Err(bad("TEXTURETRANSFORMFLAGS part", other)),
        }
    }
    Ok(out)
}

fn stage_states(f: &File) -> Result<Vec<(kp::StageState, kv::TexCoordKey)>, StateError> {
    let inputs = inputs(f)?;
    let mut out = Vec::with_capacity(8);
    for n in 0..8 {
        let (cop, aop) = if n == 0 { ("MODULATE", "SELECTARG1") } else { ("DISABLE", "DISABLE") };
        let set = f.stages.iter().find(|s| s.stage == n);
        let get = |x: Option<&Option<String>>, d: &str| x.and_then(|o| o.clone()).unwrap_or_else(|| d.to_string());
        let texture = match f.textures.iter().find(|t| t.stage as usize == n).map(|t| t.kind.as_str()) {
            None => None,
            Some(name) => Some(TextureDimension::from_name(name).ok_or_else(|| bad("texture type", name))?),
        };
        let (index, gen) = texcoord(&set.and_then(|s| s.texcoordindex.clone()), n)?;
        let (count, projected) = flags(&set.and_then(|s| s.texturetransformflags.clone()))?;
        let divide_by = match (projected, count) {
            (false, _) => None,
            (true, c @ 1..=4) => Some(c - 1),
            (true, _) => Some(inputs.texcoord_sizes[index as usize].max(1) - 1),
        };
        let st = kp::StageState {
            color_op: op(&get(set.map(|s| &s.colorop), cop))?,
            color_args: [
                arg(&get(set.map(|s| &s.colorarg0), "CURRENT"))?,
                arg(&get(set.map(|s| &s.colorarg1), "TEXTURE"))?,
                arg(&get(set.map(|s| &s.colorarg2), "CURRENT"))?,
            ],
            alpha_op: op(&get(set.map(|s| &s.alphaop), aop))?,
            alpha_args: [
                arg(&get(set.map(|s| &s.alphaarg0), "CURRENT"))?,
                arg(&get(set.map(|s| &s.alphaarg1), "TEXTURE"))?,
                arg(&get(set.map(|s| &s.alphaarg2), "CURRENT"))?,
            ],
            result_temp: get(set.map(|s| &s.resultarg), "CURRENT") == "TEMP",
            texture,
            divide_by,
        };
        out.push((st, kv::TexCoordKey { set: index, gen, count }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_file_gives_both_keys() {
        let (v, p) = keys_from_toml(
            r#"
fvf = "D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1"
[render_states]
LIGHTING = true
TEXTUREFACTOR = 0xff00ff00
[[light]]
type = "SPOT"
range = 10.0
[[texture]]
stage = 0
type = "2d"
[[texture_stage]]
stage = 0
COLOROP = "MODULATE2X"
COLORARG2 = "TFACTOR"
"#,
        )
        .unwrap();
        assert_eq!(v.lighting.unwrap().lights.as_slice(), [kv::LightType::Spot]);
        assert!(v.inputs.normal && v.inputs.texcoord_sizes[0] == 2);
        let kp::StageKey::Blend { color, .. } = p.stages[0] else { panic!() };
        assert_eq!(color.op, kp::TextureOp::Modulate2x);
        assert!(keys_from_toml("[render_states]\nNOT_A_STATE = 1").is_err());
        assert!(keys_from_toml("[render_states]\nLIGHTING = 3").is_err());
        assert!(keys_from_toml("bogus = 1").is_err());
    }
}
