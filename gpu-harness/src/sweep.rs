//! The sweep: every shader of a corpus folder drawn with generated inputs, GPU against CPU, for
//! shaders that have no written expectations.
//!
//! Each shader becomes a synthetic [`Case`] with no probes, so the runner's image comparison is
//! the whole check:
//! - a 16×16 `A32B32G32R32F` target (four of them for the pixel shader's `oC1–oC3`, and for the
//!   vertex-shader partner below), cleared to a value no shader writes by accident;
//! - constants from a deterministic generator seeded by the shader's tokens and the input set's
//!   number (never its name, so that a verdict does not depend on where the file lies): floats
//!   in [−2, 2], loop integers (start 0–3, step 1–2; the count several, zero or one by input set,
//!   [`LoopCounts`], so every loop body and every break in it is drawn), random booleans; the odd input
//!   sets ([`Inputs::Edges`]) take half of their floats from the edges of arithmetic (0, −0, ±1,
//!   ±2²⁰, ±2⁻²⁰, −0.5), and `--inputs N` draws N sets per shader, so that one lucky draw does not
//!   hide a disagreement;
//! - textures for every sampler the shader uses, of its declared type (2D when undeclared), 4×4
//!   (×4 slices for volumes) with distinct texel values, point-sampled with wrap addressing;
//! - a pass-through partner: pixel shaders get the fixed-function vertex stage with a full-target
//!   quad whose colours and texture coordinates are equal at all four vertices (so interpolation
//!   is exact on both sides); vertex shaders get a generated ps_3_0 that writes TEXCOORD0, COLOR0,
//!   COLOR1 and TEXCOORD1 to the four targets, and a quad whose declared inputs are random
//!   (blend indices small whole numbers 0–3 and blend weights in [0, 1], as applications bind
//!   them, so that skinning shaders index the constants they would).
//!
//! An input set whose generated position is not finite (inf or NaN from edge values), or the
//! clip-space origin, has no defined coverage and proves nothing: it is noted, and a shader is skipped only when every set
//! is such.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::{decode, Program, RegisterType, TextureType, Usage};
use d3d9_shader::key::vertex_formats::DeclType;
use d3d9_shader::validate::{validate, ValidationOptions};

use crate::case::*;
use crate::device::Gpu;
use crate::runner::{Backend, CaseResult, FloatRules, Runner, ShaderCpu, ShaderGpu, Verdict};
use crate::vertex::{input_map, D3D8_REGISTERS};

/// A small deterministic generator (xorshift64*), seeded from a shader's tokens.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeds from a shader's token words and the index of the input set (FNV-1a over their
    /// bytes): a shader's inputs, and so its verdict, do not depend on its file or folder name.
    pub fn from_tokens(tokens: &[u32], set: u32) -> Rng {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for w in tokens.iter().copied().chain([set]) {
            for b in w.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        Rng(h | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A float in [lo, hi), on a 1/1024 grid (exactly representable, no rounding surprises).
    pub fn float(&mut self, lo: f32, hi: f32) -> f32 {
        let steps = ((hi - lo) * 1024.0) as u64;
        lo + (self.next_u64() % steps.max(1)) as f32 / 1024.0
    }

    /// An integer in [lo, hi].
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// A value for one input of `kind`: on [`Inputs::Edges`] sets, one of `edges` half of the
    /// time, else a float in [lo, hi).
    pub fn value(&mut self, kind: Inputs, edges: &[f32], lo: f32, hi: f32) -> f32 {
        if kind == Inputs::Edges && !edges.is_empty() && self.next_u64() & 1 == 0 {
            return edges[self.int(0, edges.len() as i64 - 1) as usize];
        }
        self.float(lo, hi)
    }
}

/// What one input set's values are drawn from. Set 0 (and every even set) is [`Inputs::Plain`],
/// the odd sets [`Inputs::Edges`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Floats on a 1/1024 grid in the input's range.
    Plain,
    /// Half of the values from the edges of arithmetic: zero of both signs, ±1, large (±2²⁰),
    /// tiny (±2⁻²⁰) and a negative value.
    Edges,
}

impl Inputs {
    /// The kind of input set number `set`.
    pub fn of_set(set: u32) -> Inputs {
        if set.is_multiple_of(2) {
            Inputs::Plain
        } else {
            Inputs::Edges
        }
    }
}

/// How many times the loops on integer constants (`rep i#`, `loop aL, i#`) run in one input set:
/// compiled shaders loop over light counts and filter taps with a `break` inside, so each set
/// takes the body a different number of times and, over three sets, every path (the body
/// skipped, taken once, taken several times) is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopCounts {
    /// Two to four iterations (the start 0–3 and the step 1–2 drawn as well).
    Several,
    /// No iteration: the body is skipped.
    Zero,
    /// One iteration.
    One,
}

impl LoopCounts {
    /// The loop counts of input set number `set`: several, none, one, then round again.
    pub fn of_set(set: u32) -> LoopCounts {
        [LoopCounts::Several, LoopCounts::Zero, LoopCounts::One][set as usize % 3]
    }

    /// One loop count drawn from `rng`.
    fn draw(self, rng: &mut Rng) -> i64 {
        match self {
            LoopCounts::Several => rng.int(2, 4),
            LoopCounts::Zero => 0,
            LoopCounts::One => 1,
        }
    }
}

/// What one input set draws: its values' kind and its loop counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputSet {
    /// Where the float values come from.
    pub values: Inputs,
    /// How often the loops on integer constants run.
    pub loops: LoopCounts,
}

impl InputSet {
    /// Input set number `set` of a sweep.
    pub fn of_set(set: u32) -> InputSet {
        InputSet { values: Inputs::of_set(set), loops: LoopCounts::of_set(set) }
    }
}

const LARGE: f32 = 1_048_576.0;
const TINY: f32 = 1.0 / 1_048_576.0;
/// Edge values of constants and vertex attributes.
const EDGES: [f32; 9] = [0.0, -0.0, 1.0, -1.0, LARGE, -LARGE, TINY, -TINY, -0.5];
/// Edge values of colours, in their [0, 1] range.
const COLOUR_EDGES: [f32; 3] = [0.0, 1.0, TINY];
/// Edge values of a pixel shader's texture coordinates: values that land on a texel boundary
/// exactly (an integer times a power of two), none within rounding of one.
const COORD_EDGES: [f32; 6] = [0.0, -0.0, 1.0, -1.0, LARGE, -0.5];

/// How the sweep draws: input sets per shader and float rules.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Input sets drawn per shader (at least 1).
    pub inputs: u32,
    /// The float rules of both sides.
    pub float_rules: FloatRules,
    /// Tokens to seed the input sets from instead of each shader's own: a shader cut short
    /// (to find the instruction where a disagreement starts) then draws with its whole
    /// program's inputs, as long as it declares the same inputs.
    pub inputs_of: Option<Vec<u32>>,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions { inputs: 1, float_rules: FloatRules::Strict, inputs_of: None }
    }
}

/// Every shader under `dir` (recursively; `invalid/` folders excluded), sorted: `.hex` token files,
/// and `.asm` sources that have no `.hex` beside them (corpus listings beside their tokens are
/// documentation, the tokens are the shader).
pub fn shader_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "invalid") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "hex")
                || (p.extension().is_some_and(|x| x == "asm") && !p.with_extension("hex").exists())
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// What the CPU rasterizer says of a vertex position that is not finite, or at the clip-space
/// origin ([`crate::raster::RasterError`]).
const NOT_FINITE: &str = "no defined coverage";

const PARTNER_PS: &str = "<generated ps_3_0 partner>";

/// ps_3_0: `dcl_texcoord0 v0; dcl_color0 v1; dcl_color1 v2; dcl_texcoord1 v3; mov oC0..3, v0..3`.
pub fn partner_pixel_shader() -> Program {
    let mut t = vec![0xffff_0300];
    let semantics = [(Usage::TexCoord, 0u32), (Usage::Color, 0), (Usage::Color, 1), (Usage::TexCoord, 1)];
    for (n, (usage, index)) in semantics.iter().enumerate() {
        // dcl: opcode 31 with 2 operand tokens; usage token; dst v# with a full mask.
        t.extend([0x0200_001f, 0x8000_0000 | *usage as u32 | index << 16, 0x900f_0000 | n as u32]);
    }
    for n in 0..4u32 {
        // mov oC#, v#: oC is register type 8 (bits 11-12 hold 8 >> 3).
        t.extend([0x0200_0001, 0x800f_0800 | n, 0x90e4_0000 | n]);
    }
    t.push(0x0000_ffff);
    decode(&t).expect("the partner shader's tokens are well formed")
}

fn texture_for(stage: u32, kind: TextureDimension, rng: &mut Rng) -> Texture {
    let (w, h, d) = if kind == TextureDimension::Volume { (4, 4, 4) } else { (4, 4, 1) };
    let faces = if kind == TextureDimension::Cube { 6 } else { 1 };
    // Distinct texels: a running index in red, random green/blue/alpha.
    let texels = (0..w * h * d * faces)
        .map(|i| {
            let r = (i * 251 / (w * h * d * faces)) & 0xff;
            let g = rng.int(0, 255) as u32;
            let b = rng.int(0, 255) as u32;
            let a = rng.int(0, 255) as u32;
            a << 24 | r << 16 | g << 8 | b
        })
        .collect();
    Texture {
        stage,
        kind,
        width: w,
        height: h,
        depth: d,
        format: TextureFormat::A8R8G8B8,
        mip_levels: 1,
        filter: Filter::Point,
        mip_filter: MipFilter::None,
        address: Address::Wrap,
        texels,
        fill: None,
        fetch4: false,
    }
}

/// The API constants: every float register the version has (8192 under software vertex
/// processing, 256 for other vertex shaders, 224 for pixel shaders), 16 integer and 16 boolean.
fn constants(rng: &mut Rng, set: InputSet, vertex: bool, software: bool) -> Vec<ConstantBlock> {
    let (f, i, b) = if vertex {
        (ConstantKind::VsFloat, ConstantKind::VsInt, ConstantKind::VsBool)
    } else {
        (ConstantKind::PsFloat, ConstantKind::PsInt, ConstantKind::PsBool)
    };
    let count = match (vertex, software) {
        (true, true) => 8192,
        (true, false) => 256,
        _ => 224,
    };
    let floats = (0..count * 4).map(|_| Number::Float(rng.value(set.values, &EDGES, -2.0, 2.0) as f64)).collect();
    let ints = (0..16).flat_map(|_| [set.loops.draw(rng), rng.int(0, 3), rng.int(1, 2), 0]).map(Number::Int).collect();
    let bools = (0..16).map(|_| Number::Bool(rng.next_u64() & 1 == 1)).collect();
    vec![
        ConstantBlock { kind: f, start_register: 0, values: floats, via: None },
        ConstantBlock { kind: i, start_register: 0, values: ints, via: None },
        ConstantBlock { kind: b, start_register: 0, values: bools, via: None },
    ]
}

fn element(usage: DeclUsage, index: u32, offset: u32) -> Element {
    Element { stream: 0, offset, ty: DeclType::Float4, usage, usage_index: index }
}

fn decl_usage(u: Usage) -> DeclUsage {
    const ALL: [DeclUsage; 14] = [
        DeclUsage::POSITION,
        DeclUsage::BLENDWEIGHT,
        DeclUsage::BLENDINDICES,
        DeclUsage::NORMAL,
        DeclUsage::PSIZE,
        DeclUsage::TEXCOORD,
        DeclUsage::TANGENT,
        DeclUsage::BINORMAL,
        DeclUsage::TESSFACTOR,
        DeclUsage::POSITIONT,
        DeclUsage::COLOR,
        DeclUsage::FOG,
        DeclUsage::DEPTH,
        DeclUsage::SAMPLE,
    ];
    ALL[u as usize]
}

/// The synthetic case of one shader, its values drawn from `rng` as `set` says.
pub fn case_for(name: &str, program: &Program, rng: &mut Rng, set: InputSet) -> Case {
    let vertex = program.version.is_vertex();
    let sig = analyse(program);
    let (elements, vertices, vs, ps) = if vertex {
        let (elements, vertices) = vertex_shader_inputs(program, rng, set.values);
        (elements, vertices, name.to_string(), PARTNER_PS.to_string())
    } else {
        let (elements, vertices) = pixel_shader_inputs(rng, set.values);
        (elements, vertices, "none".to_string(), name.to_string())
    };
    let textures = sig
        .samplers
        .iter()
        .map(|s| {
            let texture_kind = s.texture_type.and_then(TextureType::dimension).unwrap_or_default();
            texture_for(s.index as u32, texture_kind, rng)
        })
        .collect();
    let draw = Draw {
        vertex_shader: vs,
        pixel_shader: ps,
        primitive: Primitive::TriangleStrip,
        primitive_count: 2,
        fvf: None,
        elements,
        vertices,
        constants: constants(rng, set, vertex, program.version.is_sw()),
        clear: None,
        render_states: None,
        indices: None,
        transforms: Default::default(),
        texture_stages: vec![],
    };
    sweep_case(name, textures, draw)
}

/// The corners of the full-target quad, drawn as a strip.
const QUAD: [[f64; 2]; 4] = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]];

/// The vertex elements and vertices a vertex shader reads: its input semantics (or Direct3D 8's
/// registers) with POSITION0 at the quad's corners and the other values from `rng`.
fn vertex_shader_inputs(program: &Program, rng: &mut Rng, kind: Inputs) -> (Vec<Element>, Vec<Vec<Number>>) {
    let mut map = input_map(program, Api::D3d9);
    if map.is_empty() {
        map = D3D8_REGISTERS.iter().copied().filter(|(r, _)| *r < 16).collect();
    }
    let mut sems: Vec<_> = map.iter().map(|(_, s)| *s).collect();
    sems.sort();
    sems.dedup();
    let elements: Vec<Element> =
        sems.iter().enumerate().map(|(i, (u, n))| element(decl_usage(*u), *n as u32, 16 * i as u32)).collect();
    let vertices = QUAD
        .iter()
        .map(|xy| {
            sems.iter()
                .flat_map(|s| {
                    match s.0 {
                        _ if *s == (Usage::Position, 0) => vec![xy[0], xy[1], 0.5, 1.0],
                        // Palette indices, as the UBYTE4 blend indices applications bind:
                        // small whole numbers, so that skinning reads the constants it would.
                        Usage::BlendIndices => (0..4).map(|_| rng.int(0, 3) as f64).collect(),
                        Usage::BlendWeight => (0..4).map(|_| rng.float(0.0, 1.0) as f64).collect(),
                        _ => (0..4).map(|_| rng.value(kind, &EDGES, -1.0, 1.0) as f64).collect(),
                    }
                })
                .map(Number::Float)
                .collect()
        })
        .collect();
    (elements, vertices)
}

/// The vertex elements and vertices behind a pixel shader (drawn with the partner vertex
/// shader none: pre-transformed positions, two colours and eight coordinate sets).
fn pixel_shader_inputs(rng: &mut Rng, kind: Inputs) -> (Vec<Element>, Vec<Vec<Number>>) {
    let mut elements =
        vec![element(DeclUsage::POSITION, 0, 0), element(DeclUsage::COLOR, 0, 16), element(DeclUsage::COLOR, 1, 32)];
    elements.extend((0..8).map(|n| element(DeclUsage::TEXCOORD, n, 48 + 16 * n)));
    // The same colours and coordinates at every vertex: interpolation is exact on both sides.
    let attrs: Vec<f64> =
        (0..40)
            .map(|i| {
                if i < 8 {
                    rng.value(kind, &COLOUR_EDGES, 0.0, 1.0)
                } else {
                    rng.value(kind, &COORD_EDGES, -1.0, 2.0)
                }
            })
            .map(f64::from)
            .collect();
    let vertices = QUAD
        .iter()
        .map(|xy| [xy[0], xy[1], 0.5, 1.0].into_iter().chain(attrs.iter().copied()).map(Number::Float).collect())
        .collect();
    (elements, vertices)
}

/// The sweep's case around one draw: a 16×16 float target and three more, no culling or
/// lighting.
fn sweep_case(name: &str, textures: Vec<Texture>, draw: Draw) -> Case {
    let float = TargetFormat::A32B32G32R32F;
    let clear = 0x4020_1008;
    Case {
        name: name.to_string(),
        source: Some("generated by the sweep".into()),
        source_line: None,
        wine_version: None,
        api: Api::D3d9,
        description: format!("sweep of {name}"),
        notes: None,
        category: None,
        rule: None,
        confidence: None,
        derivation: None,
        render_target: RenderTarget {
            width: 16,
            height: 16,
            format: float,
            depth_format: Some(DepthFormat::D24S8),
            clear_color: clear,
            clear_depth: 1.0,
            render_targets: (1..4).map(|index| ExtraTarget { index, format: float, clear_color: clear }).collect(),
        },
        render_states: RenderStates { cullmode: Some(CullMode::None), lighting: Some(false), ..Default::default() },
        textures,
        texture_stages: vec![],
        transforms: Default::default(),
        material: None,
        lights: vec![],
        draws: vec![draw],
        probes: vec![],
    }
}

/// The channels of the partner's four targets that hold defined values: a vs_3_0 shader's
/// unwritten output components are not reliable in D3D9 (docs/d3d9-rules.md#unwritten-outputs), so only the components
/// it writes of TEXCOORD0, COLOR0, COLOR1 and TEXCOORD1 are compared. Earlier vertex shaders have
/// defined defaults for every component.
fn partner_masks(program: &Program) -> Vec<u8> {
    if !(program.version.is_vertex() && program.version.major >= 3) {
        return vec![];
    }
    let outputs = analyse(program).outputs;
    [(Usage::TexCoord, 0u8), (Usage::Color, 0), (Usage::Color, 1), (Usage::TexCoord, 1)]
        .iter()
        .map(|&(u, i)| {
            outputs
                .iter()
                .filter(|o| o.usage_code.and_then(Usage::from_raw) == Some(u) && o.usage_index == i)
                .fold(0, |m, o| m | o.used_mask)
        })
        .collect()
}

/// Why the sweep's images of `program` would hold values D3D9 leaves undefined, if they would.
fn undefined_result(program: &Program) -> Option<&'static str> {
    let writes_oc0 = program.version.major < 2
        || program
            .instructions
            .iter()
            .any(|i| i.dst.is_some_and(|d| d.reg.ty == RegisterType::ColorOut && d.reg.num == 0));
    if program.version.is_pixel() && !writes_oc0 {
        return Some("the pixel shader does not write oC0 (the result is undefined in D3D9)");
    }
    if program.version.is_vertex() {
        let writes_position = analyse(program).outputs.iter().any(|o| {
            o.used_mask != 0
                && ((o.file == RegisterType::RastOut && o.index == 0)
                    || (o.usage_code.and_then(Usage::from_raw) == Some(Usage::Position) && o.usage_index == 0))
        });
        if !writes_position {
            return Some("the vertex shader does not write its position (oPos, or a POSITION0 output): the result is undefined in D3D9");
        }
    }
    None
}

/// The tokens and program of a shader file that the sweep can draw, or why it cannot.
fn drawable(path: &Path) -> Result<(Vec<u32>, Program), String> {
    let decoded = crate::shaders::tokens(path)
        .map_err(|e| e.to_string())
        .and_then(|t| decode(&t).map(|p| (t, p)).map_err(|e| e.to_string()));
    let (tokens, program) = decoded.map_err(|e| format!("does not decode: {e}"))?;
    if let Some(why) = undefined_result(&program) {
        return Err(why.into());
    }
    // What lenient validation refuses has no meaning to draw (the facade refuses it before
    // translating): e.g. vs_3_0 `v20`, an attribute slot past the 16 D3D9 has.
    let checked = validate(
        &program,
        &ValidationOptions {
            relaxed_constant_limit: true,
            swvp: program.version.is_sw(),
            ..ValidationOptions::lenient()
        },
    );
    if let Some(e) = checked.errors.first() {
        return Err(format!("lenient validation refuses it: {e}"));
    }
    Ok((tokens, program))
}

/// Sweeps one shader file: GPU against CPU, on `options.inputs` input sets.
pub fn run_shader(
    path: &Path,
    gpu: Option<&Gpu>,
    cpu: &dyn ShaderCpu,
    translator: &dyn ShaderGpu,
    options: &SweepOptions,
) -> CaseResult {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let folder =
        path.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let label = format!("{folder}/{name}");
    let mut result =
        CaseResult { name: label.clone(), path: path.into(), verdict: Verdict::Pass, notes: vec![], images: vec![] };
    let (tokens, program) = match drawable(path) {
        Ok(p) => p,
        Err(why) => {
            result.verdict = Verdict::Skip(why);
            return result;
        }
    };
    let mut preloaded = BTreeMap::new();
    preloaded.insert(label.clone(), program.clone());
    preloaded.insert(PARTNER_PS.to_string(), partner_pixel_shader());
    let runner = Runner {
        preloaded,
        channel_masks: partner_masks(&program),
        float_rules: options.float_rules,
        ..Runner::new(gpu, cpu, translator, vec![], Backend::Both)
    };
    let mut undefined = Vec::new();
    for set in 0..options.inputs.max(1) {
        let seed = options.inputs_of.as_deref().unwrap_or(&tokens);
        let case = case_for(&label, &program, &mut Rng::from_tokens(seed, set), InputSet::of_set(set));
        let r = runner.run_case(&case, path);
        match r.verdict {
            Verdict::Pass => result.notes.extend(r.notes),
            Verdict::Fail(msgs) => {
                // A vertex whose position is not finite, or the clip-space origin, has no defined
                // coverage (Vulkan leaves the rasterisation of such a primitive to the
                // implementation; D3D9 too): that set proves nothing.
                if msgs.iter().all(|m| m.contains(NOT_FINITE)) {
                    undefined.push(set);
                    continue;
                }
                // A translator that refuses the shader is listed with its cause.
                if let Some(m) = msgs.iter().find(|m| m.contains("translating the")) {
                    result.verdict = Verdict::Skip(format!("the translator does not accept it: {m}"));
                    return result;
                }
                let msgs =
                    msgs.into_iter().map(|m| format!("input set {set} ({:?}): {m}", InputSet::of_set(set))).collect();
                result.verdict = Verdict::Fail(msgs);
                result.notes.extend(r.notes);
                result.images = r.images;
                return result;
            }
            Verdict::Skip(why) => {
                result.verdict = Verdict::Skip(format!("input set {set}: {why}"));
                return result;
            }
        }
    }
    if !undefined.is_empty() {
        let note = format!(
            "input sets {undefined:?}: a generated vertex position is not finite or the clip-space origin (no defined coverage)"
        );
        if undefined.len() as u32 == options.inputs.max(1) {
            result.verdict = Verdict::Skip(note);
        } else {
            result.notes.push(note);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::from_tokens(&[1, 2], 0), Rng::from_tokens(&[1, 2], 0));
        for _ in 0..100 {
            let v = a.float(-2.0, 2.0);
            assert_eq!(v, b.float(-2.0, 2.0));
            assert!((-2.0..2.0).contains(&v));
        }
        assert_ne!(Rng::from_tokens(&[1, 2], 0).next_u64(), Rng::from_tokens(&[1, 3], 0).next_u64());
        assert_ne!(Rng::from_tokens(&[1, 2], 0).next_u64(), Rng::from_tokens(&[1, 2], 1).next_u64());
    }

    #[test]
    fn lenient_cnd_shaders_draw_alike_on_the_gpu_and_the_cpu() {
        // The lowering and the interpreter read one fact for cnd's condition (the version
        // profile's CndCondition): the ps_1_x cnd shaders, lenient conditions among them (any
        // register, swizzle and version, docs/d3d9-rules.md#cnd), draw the same images.
        let Some(gpu) = crate::device::gpu_for_test("lenient_cnd_shaders_draw_alike_on_the_gpu_and_the_cpu") else {
            return;
        };
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm");
        let files: Vec<PathBuf> =
            shader_files(&dir).into_iter().filter(|p| p.to_string_lossy().contains("cnd_")).collect();
        assert!(files.len() >= 6, "{files:?}");
        let options = SweepOptions { inputs: 2, ..SweepOptions::default() };
        let (cpu, translator) = (crate::interpreted::Interpreter, crate::translated::Translator);
        for f in files {
            let r = run_shader(&f, Some(&gpu), &cpu, &translator, &options);
            assert!(matches!(r.verdict, Verdict::Pass), "{}: {:?}", r.name, r.verdict);
        }
    }

    #[test]
    fn three_input_sets_skip_take_once_and_repeat_every_loop() {
        // The integer constants' x is the loop count (docs/opcodes.md#flow-control).
        let counts = |set: u32| -> Vec<i64> {
            let blocks = constants(&mut Rng::from_tokens(&[7], set), InputSet::of_set(set), false, false);
            let ints = &blocks[1].values;
            ints.chunks(4).map(|c| if let Number::Int(n) = c[0] { n } else { panic!("{c:?}") }).collect()
        };
        assert!(counts(0).iter().all(|n| (2..=4).contains(n)), "{:?}", counts(0));
        assert_eq!(counts(1), [0; 16]);
        assert_eq!(counts(2), [1; 16]);
        assert!(counts(3).iter().all(|n| (2..=4).contains(n)));
        assert_eq!((InputSet::of_set(1).values, InputSet::of_set(2).values), (Inputs::Edges, Inputs::Plain));
    }

    #[test]
    fn partner_shader_decodes_with_four_outputs() {
        let p = partner_pixel_shader();
        assert_eq!(p.version.major, 3);
        let sig = analyse(&p);
        assert_eq!(sig.outputs.len(), 4);
        assert_eq!(sig.inputs.len(), 4);
    }
}
