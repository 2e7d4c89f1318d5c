//! The draw-and-probe case format (docs/case-format.md, all of it), as a serde model that rejects
//! unknown fields, plus the checks serde cannot make (sizes that must agree, probes inside the
//! target, …).
//!
//! Names follow the file format: render states and texture-stage states keep their `D3DRS_*` /
//! `D3DTSS_*` spelling in the files and become lower-case fields here.

use std::path::{Path, PathBuf};

pub use d3d9_shader::bytecode::TextureDimension;
use d3d9_shader::key::vertex_formats::DeclType;
use serde::Deserialize;
use thiserror::Error;

/// A case file that could not be used.
#[derive(Debug, Error)]
pub enum CaseError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not TOML, or a field is unknown, missing or of the wrong type (the message names the line).
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The TOML parser's message, with line and column.
        message: String,
    },
    /// The fields parse but do not agree with each other.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What disagrees.
        message: String,
    },
}

/// One case file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The file's own name (without `.toml`).
    pub name: String,
    /// Where the case comes from (`wine path:function`, or the project's own derivation).
    #[serde(default)]
    pub source: Option<String>,
    /// Line of the source function.
    #[serde(default)]
    pub source_line: Option<u32>,
    /// Wine version the case was transcribed from.
    #[serde(default)]
    pub wine_version: Option<String>,
    /// `d3d9` (default) or `d3d8`: d3d8 vertex shaders have no `dcl` (docs/d3d9-rules.md#d3d8-inputs).
    #[serde(default)]
    pub api: Api,
    /// What the case checks.
    pub description: String,
    /// Setup details.
    #[serde(default)]
    pub notes: Option<String>,
    /// Extension: a grouping (instruction group, modifier, register type, …).
    #[serde(default)]
    pub category: Option<String>,
    /// Extension: the D3D9 rule the case proves.
    #[serde(default)]
    pub rule: Option<String>,
    /// Extension: how sure the expectation is.
    #[serde(default)]
    pub confidence: Option<Confidence>,
    /// Extension: the hand derivation of every expected value.
    #[serde(default)]
    pub derivation: Option<String>,
    /// The render target(s) and depth buffer.
    pub render_target: RenderTarget,
    /// Render states in force from the first draw.
    #[serde(default)]
    pub render_states: RenderStates,
    /// Textures, bound for all draws.
    #[serde(default, rename = "texture")]
    pub textures: Vec<Texture>,
    /// Texture stage states (ps_1_x bump and transform states, the fixed-function cascade).
    #[serde(default, rename = "texture_stage")]
    pub texture_stages: Vec<TextureStage>,
    /// Fixed function: SetTransform calls before the first draw.
    #[serde(default)]
    pub transforms: Transforms,
    /// Fixed function: SetMaterial (absent: all zero).
    #[serde(default)]
    pub material: Option<Material>,
    /// Fixed function: SetLight plus LightEnable.
    #[serde(default, rename = "light")]
    pub lights: Vec<Light>,
    /// The draws, in order.
    #[serde(rename = "draw")]
    pub draws: Vec<Draw>,
    /// The pixels to check.
    #[serde(default, rename = "probe")]
    pub probes: Vec<Probe>,
}

/// The API the test used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Api {
    #[default]
    D3d9,
    D3d8,
}

/// Extension field `confidence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(missing_docs)]
pub enum Confidence {
    #[serde(rename = "certain")]
    Certain,
    #[serde(rename = "likely")]
    Likely,
    #[serde(rename = "peers disagree")]
    PeersDisagree,
}

/// Colour formats of render targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum TargetFormat {
    /// 8 bits per channel (wgpu `Rgba8Unorm`).
    #[default]
    A8R8G8B8,
    /// 32-bit float per channel (wgpu `Rgba32Float`).
    A32B32G32R32F,
}

fn default_width() -> u32 {
    640
}
fn default_height() -> u32 {
    480
}
fn default_clear_depth() -> f32 {
    1.0
}

/// `[render_target]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderTarget {
    /// Width in pixels (640 unless smaller).
    #[serde(default = "default_width")]
    pub width: u32,
    /// Height in pixels (480 unless smaller).
    #[serde(default = "default_height")]
    pub height: u32,
    /// Target 0's format.
    #[serde(default)]
    pub format: TargetFormat,
    /// `D24S8` (the only depth format used).
    #[serde(default)]
    pub depth_format: Option<DepthFormat>,
    /// 0xAARRGGBB clear colour of target 0.
    pub clear_color: u32,
    /// Depth clear value.
    #[serde(default = "default_clear_depth")]
    pub clear_depth: f32,
    /// Targets 1..3 (MRT extension).
    #[serde(default)]
    pub render_targets: Vec<ExtraTarget>,
}

/// Depth-stencil formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(missing_docs)]
pub enum DepthFormat {
    D24S8,
}

/// An extra render target (index 1..3).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraTarget {
    /// Target index, 1..=3.
    pub index: u32,
    /// Its format.
    #[serde(default)]
    pub format: TargetFormat,
    /// 0xAARRGGBB clear colour.
    pub clear_color: u32,
}

mod check;
mod ffp;
mod render_state;

pub use ffp::{
    Arg, ArgSource, Fill, FillChannel, Light, LightType, Material, ResultArg, TexCoordIndex, TexGen, TextureOp,
    TransformFlagsValue, TransformName, Transforms,
};
pub use render_state::{
    Blend, CompareFunc, CompareTest, CullMode, FogMode, MaterialSource, RenderState, RenderStates, ShadeMode,
    VertexBlend,
};

/// Texture formats: `A8R8G8B8`, the signed formats of docs/d3d9-rules.md#signed-formats, and `D24X8`, a depth
/// texture sampled with comparison (a shadow map: each texel is a 24-bit depth, `texel / (2^24 − 1)`;
/// the sampler compares the coordinate's z (2D) or w (cube) with it and returns 1 where
/// `reference <= depth`, else 0, in all four channels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(missing_docs)]
pub enum TextureFormat {
    A8R8G8B8,
    V8U8,
    V16U16,
    Q8W8V8U8,
    X8L8V8U8,
    L6V5U5,
    D24X8,
    /// 0xXXRRGGBB; alpha reads 1.
    X8R8G8B8,
    /// Luminance 0–255: (L, L, L, 1).
    L8,
    /// 16-bit unsigned normalised channels; only through `fill`.
    A16B16G16R16,
}

/// MIN/MAG filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Filter {
    #[default]
    Point,
    Linear,
}

/// D3DSAMP_MIPFILTER.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum MipFilter {
    /// Only level 0 is used.
    #[default]
    None,
    Point,
    Linear,
}

/// D3DSAMP_ADDRESSU/V/W (all three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Address {
    #[default]
    Wrap,
    Clamp,
    Border,
    Mirror,
}

fn one() -> u32 {
    1
}

/// `D3DVERTEXTEXTURESAMPLER0`: the `stage` of vertex sampler `s0`. The format numbers samplers
/// as D3D9's `SetTexture`/`SetSamplerState` do: 0–15 are the pixel samplers (and ps_1_x stages),
/// 257–260 the vs_3_0 samplers `s0`–`s3`.
pub const VERTEX_SAMPLER0: u32 = 257;

/// How many vertex samplers there are (`D3DVERTEXTEXTURESAMPLER0`–`3`).
pub const VERTEX_SAMPLERS: u32 = 4;

/// How many pixel samplers there are (`s0`–`s15`).
pub const PIXEL_SAMPLERS: u32 = 16;

/// The texture `stage` a shader's sampler `s n` reads: `n` in a pixel shader, 257 + `n` in a
/// vertex shader.
pub const fn sampler_stage(vertex: bool, n: u32) -> u32 {
    if vertex {
        VERTEX_SAMPLER0 + n
    } else {
        n
    }
}

/// The vertex sampler (0–3) of texture `stage`, if it names one.
pub fn vertex_sampler(stage: u32) -> Option<u32> {
    stage.checked_sub(VERTEX_SAMPLER0).filter(|&n| n < VERTEX_SAMPLERS)
}

/// `[[texture]]`: one bound texture and its sampler states.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texture {
    /// Sampler / ps_1_x stage in D3D9's numbering: 0–15 pixel samplers, 257–260 vertex samplers
    /// ([`VERTEX_SAMPLER0`]).
    pub stage: u32,
    /// Dimension.
    #[serde(rename = "type")]
    pub kind: TextureDimension,
    /// Level-0 width.
    pub width: u32,
    /// Level-0 height.
    pub height: u32,
    /// Level-0 depth (volumes; 1 otherwise).
    #[serde(default = "one")]
    pub depth: u32,
    /// Texel format.
    pub format: TextureFormat,
    /// Number of mip levels given in `texels`.
    #[serde(default = "one")]
    pub mip_levels: u32,
    /// MIN and MAG filter.
    #[serde(default)]
    pub filter: Filter,
    /// Mip filter.
    #[serde(default)]
    pub mip_filter: MipFilter,
    /// Addressing of U, V and W.
    #[serde(default)]
    pub address: Address,
    /// Raw texels: faces, then levels, then slices, rows top to bottom, texels left to right.
    #[serde(default)]
    pub texels: Vec<u32>,
    /// Instead of `texels` (one level): each channel a constant or a ramp.
    #[serde(default)]
    pub fill: Option<Fill>,
    /// D3DSAMP_MIPMAPLODBIAS = `GET4`: AMD's Fetch4 mode (docs/d3d9-rules.md#fetch4).
    #[serde(default)]
    pub fetch4: bool,
}

impl Texture {
    /// The vertex sampler (0–3) this texture is bound to, if it is bound to one.
    pub fn vertex_sampler(&self) -> Option<u32> {
        vertex_sampler(self.stage)
    }

    /// Faces: 6 for a cube, else 1.
    pub fn faces(&self) -> u32 {
        if self.kind == TextureDimension::Cube {
            6
        } else {
            1
        }
    }

    /// Size of mip level `level` (each dimension halves, never below 1).
    pub fn level_size(&self, level: u32) -> (u32, u32, u32) {
        let d = if self.kind == TextureDimension::Volume { self.depth } else { 1 };
        ((self.width >> level).max(1), (self.height >> level).max(1), (d >> level).max(1))
    }

    /// Number of texels `texels` must hold.
    pub fn expected_texels(&self) -> u64 {
        let per_face: u64 = (0..self.mip_levels)
            .map(|l| {
                let (w, h, d) = self.level_size(l);
                w as u64 * h as u64 * d as u64
            })
            .sum();
        per_face * self.faces() as u64
    }
}

/// `[[texture_stage]]`: ps_1_x bump-mapping and transform states of one stage.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub struct TextureStage {
    #[serde(rename = "stage")]
    pub stage: u32,
    pub bumpenvmat00: Option<f32>,
    pub bumpenvmat01: Option<f32>,
    pub bumpenvmat10: Option<f32>,
    pub bumpenvmat11: Option<f32>,
    pub bumpenvlscale: Option<f32>,
    pub bumpenvloffset: Option<f32>,
    /// `"DISABLE"`, `"COUNT2"`, `"COUNT4|PROJECTED"`, … (a raw integer is kept as `"0x…"`).
    #[serde(default, deserialize_with = "ffp::transform_flags_text")]
    pub texturetransformflags: Option<String>,
    pub colorop: Option<TextureOp>,
    pub colorarg0: Option<Arg>,
    pub colorarg1: Option<Arg>,
    pub colorarg2: Option<Arg>,
    pub alphaop: Option<TextureOp>,
    pub alphaarg0: Option<Arg>,
    pub alphaarg1: Option<Arg>,
    pub alphaarg2: Option<Arg>,
    pub resultarg: Option<ResultArg>,
    pub texcoordindex: Option<TexCoordIndex>,
    /// D3DTSS_CONSTANT, 0xAARRGGBB.
    pub constant: Option<u32>,
}

impl TextureStage {
    /// The states `later` sets replace this stage's (SetTextureStageState calls).
    pub fn apply(&mut self, later: &TextureStage) {
        macro_rules! take {
            ($($f:ident),*) => { $( if later.$f.is_some() { self.$f = later.$f.clone(); } )* };
        }
        take!(
            bumpenvmat00,
            bumpenvmat01,
            bumpenvmat10,
            bumpenvmat11,
            bumpenvlscale,
            bumpenvloffset,
            texturetransformflags,
            colorop,
            colorarg0,
            colorarg1,
            colorarg2,
            alphaop,
            alphaarg0,
            alphaarg1,
            alphaarg2,
            resultarg,
            texcoordindex,
            constant
        );
    }
}

/// D3DTSS_TEXTURETRANSFORMFLAGS, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransformFlags {
    /// `D3DTTFF_COUNTn` (0 = DISABLE).
    pub count: u8,
    /// `D3DTTFF_PROJECTED`.
    pub projected: bool,
}

impl TransformFlags {
    /// Parses `"COUNT4|PROJECTED"` and the like; `"0x…"` is a raw D3DTTFF value, whose count
    /// outside 0–4 reads as DISABLE (0xffffffff: PROJECTED alone, docs/case-format.md#fixed-function).
    pub fn parse(text: &str) -> Result<TransformFlags, String> {
        if let Some(hex) = text.strip_prefix("0x") {
            let v = u32::from_str_radix(hex, 16).map_err(|e| format!("TEXTURETRANSFORMFLAGS {text}: {e}"))?;
            let count = if v & 0xff <= 4 { (v & 0xff) as u8 } else { 0 };
            return Ok(TransformFlags { count, projected: v & 0x100 != 0 });
        }
        let mut out = TransformFlags::default();
        for part in text.split('|').map(str::trim) {
            match part {
                "DISABLE" => {}
                "PROJECTED" => out.projected = true,
                "COUNT1" => out.count = 1,
                "COUNT2" => out.count = 2,
                "COUNT3" => out.count = 3,
                "COUNT4" => out.count = 4,
                other => return Err(format!("unknown TEXTURETRANSFORMFLAGS part `{other}`")),
            }
        }
        Ok(out)
    }

    /// The coordinate component (0-based) a ps_1_1–ps_1_3 projected lookup divides by; `None`
    /// when the stage does not project (docs/d3d9-rules.md#ffp-texcoords). `supplied` is the
    /// component count of the coordinate the fixed-function vertex stage passes through, `None`
    /// behind a vertex shader. COUNTn divides by component n; PROJECTED without a valid count
    /// (alone, or a low byte outside 1–4 as in 0xffffffff) by the last supplied component, or
    /// by w behind a vertex shader.
    pub fn divisor(self, supplied: Option<u8>) -> Option<u8> {
        match (self.projected, self.count, supplied) {
            (false, ..) => None,
            (true, n @ 1..=4, _) => Some(n - 1),
            (true, _, Some(size)) => Some(size.clamp(1, 4) - 1),
            (true, _, None) => Some(3),
        }
    }
}

/// Primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Primitive {
    TriangleStrip,
    TriangleList,
    PointList,
}

/// A number in `vertices` or constant `values`: TOML integers (hex D3DCOLORs, ints) or floats.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Number {
    /// A TOML integer.
    Int(i64),
    /// A TOML float.
    Float(f64),
    /// A TOML boolean (bool constants).
    Bool(bool),
}

impl Number {
    /// As a float (integers convert exactly where they can).
    pub fn as_f32(self) -> Option<f32> {
        match self {
            Number::Int(i) => Some(i as f32),
            Number::Float(f) => Some(f as f32),
            Number::Bool(_) => None,
        }
    }
}

/// How many entries of a `vertices` row an element of type `ty` takes (the element's `type`
/// is a D3DDECLTYPE name of the key's table, [`DeclType::NAMES`], in any case): one 0xAARRGGBB
/// integer for D3DCOLOR; one number per component for FLOAT1–4, UBYTE4, SHORT2, SHORT4 (integers),
/// UBYTE4N (integers 0..=255, read as byte / 255) and USHORT4N (integers 0..=65535, read as
/// value / 65535). `None`: a type the runner does not read.
pub fn row_values(ty: DeclType) -> Option<usize> {
    use DeclType as D;
    match ty {
        D::D3dColor => Some(1),
        D::Float1
        | D::Float2
        | D::Float3
        | D::Float4
        | D::UByte4
        | D::Short2
        | D::Short4
        | D::UByte4N
        | D::UShort4N => Some(ty.components().into()),
        _ => None,
    }
}

/// D3DDECLUSAGE names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[allow(missing_docs)]
pub enum DeclUsage {
    POSITION,
    BLENDWEIGHT,
    BLENDINDICES,
    NORMAL,
    PSIZE,
    TEXCOORD,
    TANGENT,
    BINORMAL,
    TESSFACTOR,
    POSITIONT,
    COLOR,
    FOG,
    DEPTH,
    SAMPLE,
}

/// One vertex element.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    /// Stream number.
    pub stream: u32,
    /// Byte offset in the stream.
    pub offset: u32,
    /// Data type.
    #[serde(rename = "type")]
    pub ty: DeclType,
    /// Usage.
    pub usage: DeclUsage,
    /// Usage index.
    pub usage_index: u32,
}

/// Which constant file a `[[draw.constants]]` entry loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ConstantKind {
    VsFloat,
    PsFloat,
    VsInt,
    PsInt,
    VsBool,
    PsBool,
}

/// `[[draw.constants]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstantBlock {
    /// The file.
    pub kind: ConstantKind,
    /// First register.
    pub start_register: u32,
    /// 4 numbers per float/int register, one boolean per bool register.
    pub values: Vec<Number>,
    /// Where the values came from when not from Set*ShaderConstant*.
    #[serde(default)]
    pub via: Option<String>,
}

/// `[[draw]] clear`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clear {
    /// 0xAARRGGBB for every bound target.
    #[serde(default)]
    pub color: Option<u32>,
    /// Depth value.
    #[serde(default)]
    pub depth: Option<f32>,
}

/// `[[draw]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// Shader name or `"none"`.
    pub vertex_shader: String,
    /// Shader name or `"none"`.
    pub pixel_shader: String,
    /// Primitive type.
    pub primitive: Primitive,
    /// Number of triangles.
    pub primitive_count: u32,
    /// The FVF, when the test used one.
    #[serde(default)]
    pub fvf: Option<String>,
    /// Input layout.
    pub elements: Vec<Element>,
    /// One row per vertex, values in element order.
    pub vertices: Vec<Vec<Number>>,
    /// Shader constants.
    #[serde(default)]
    pub constants: Vec<ConstantBlock>,
    /// A Clear done just before the draw.
    #[serde(default)]
    pub clear: Option<Clear>,
    /// SetRenderState calls done just before the draw (they persist).
    #[serde(default)]
    pub render_states: Option<RenderStates>,
    /// 16-bit indices: primitive k is assembled from `vertices[indices[…]]`.
    #[serde(default)]
    pub indices: Option<Vec<u32>>,
    /// SetTransform calls just before the draw (they persist).
    #[serde(default)]
    pub transforms: Transforms,
    /// SetTextureStageState calls just before the draw (they persist).
    #[serde(default)]
    pub texture_stages: Vec<TextureStage>,
}

impl Draw {
    /// Whether the vertex stage is fixed-function.
    pub fn vs_is_none(&self) -> bool {
        self.vertex_shader == "none"
    }
    /// Whether the pixel stage is fixed-function.
    pub fn ps_is_none(&self) -> bool {
        self.pixel_shader == "none"
    }
    /// Number of vertices the primitive count needs.
    pub fn vertices_needed(&self) -> u64 {
        match self.primitive {
            Primitive::TriangleStrip => self.primitive_count as u64 + 2,
            Primitive::TriangleList => self.primitive_count as u64 * 3,
            Primitive::PointList => self.primitive_count as u64,
        }
    }
}

/// How a probe compares colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compare {
    /// 8-bit RGB; alpha ignored.
    #[default]
    Rgb,
    /// 8-bit ARGB.
    Argb,
    /// Float RGBA (`expected_float`).
    Rgba,
}

/// `[[probe]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// Column.
    #[serde(default)]
    pub x: u32,
    /// Row (top-down).
    #[serde(default)]
    pub y: u32,
    /// Instead of `x`, `y`: every pixel with x0 <= x < x1 and y0 <= y < y1.
    #[serde(default)]
    pub rect: Option<[u32; 4]>,
    /// Render target index.
    #[serde(default)]
    pub target: u32,
    /// 0x00RRGGBB (or 0xAARRGGBB with `compare = "argb"`).
    #[serde(default)]
    pub expected: Option<u32>,
    /// Float target expectation.
    #[serde(default)]
    pub expected_float: Option<[f32; 4]>,
    /// Largest difference per 8-bit channel.
    #[serde(default)]
    pub tolerance: u32,
    /// Largest absolute difference per float channel.
    #[serde(default)]
    pub tolerance_float: Option<f32>,
    /// Comparison mode.
    #[serde(default)]
    pub compare: Compare,
    /// Other accepted results.
    #[serde(default)]
    pub accept_also: Vec<u32>,
    /// Any colour within this of `expected` is accepted as broken().
    #[serde(default)]
    pub broken_tolerance: Option<u32>,
    /// Where `accept_also` comes from.
    #[serde(default)]
    pub note: Option<String>,
    /// The test's failure message.
    #[serde(default)]
    pub message: Option<String>,
    /// Read after draw N instead of after the last draw.
    #[serde(default)]
    pub after_draw: Option<usize>,
}

impl Case {
    /// Reads, parses and checks a case file.
    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let text = std::fs::read_to_string(path).map_err(|source| CaseError::Io { path: path.into(), source })?;
        Case::parse(&text, path)
    }

    /// Parses and checks case text (`path` names it in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Case, CaseError> {
        let case: Case =
            toml::from_str(text).map_err(|e| CaseError::Parse { path: path.into(), message: e.to_string() })?;
        case.check().map_err(|message| CaseError::Invalid { path: path.into(), message })?;
        Ok(case)
    }

    /// The format of render target `index`, if the case has it.
    pub fn target_format(&self, index: u32) -> Option<TargetFormat> {
        if index == 0 {
            return Some(self.render_target.format);
        }
        self.render_target.render_targets.iter().find(|t| t.index == index).map(|t| t.format)
    }

    /// Render targets 0..=N in index order: (index, format, clear colour).
    pub fn targets(&self) -> Vec<(u32, TargetFormat, u32)> {
        let rt = &self.render_target;
        let mut out = vec![(0, rt.format, rt.clear_color)];
        let mut extra: Vec<_> = rt.render_targets.iter().map(|t| (t.index, t.format, t.clear_color)).collect();
        extra.sort_by_key(|t| t.0);
        out.extend(extra);
        out
    }

    /// The state of `stage` (`[[texture_stage]]`), if the case sets any.
    pub fn stage(&self, stage: u32) -> Option<&TextureStage> {
        self.texture_stages.iter().find(|s| s.stage == stage)
    }
}

/// Every `*.toml` file under `dir` (subfolders included), sorted.
pub fn case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    // Subfolders group cases by area (shaders/cases/<area>/<name>.toml).
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests;
