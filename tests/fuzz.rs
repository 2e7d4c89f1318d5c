//! Byte-level fuzzing of every entry point that takes untrusted bytes or text: one case at a time,
//! deterministic from a seed, each run under `catch_unwind` and timed.
//!
//! A case is a damaged input (a mutant of a seed shader made by [`d3d9_shader::fuzz`], or random
//! or damaged assembly text) pushed through one [`Target`]. The case fails when the entry point
//! panics, takes longer than [`SLOW`], or reports an error that does not say where (a decode error
//! names its token, an assembler error its line, an interpreter error its instruction).
//! `cargo xtask fuzz` drives it over millions of cases; the test suite runs a short batch.

use d3d9_shader::bytecode::TextureDimension;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use d3d9_shader::asm::{assemble, disassemble, DisasmOptions};
use d3d9_shader::bytecode::{decode, encode, Program, ShaderKind, TextureType};
use d3d9_shader::fuzz::{mutate, mutate_text, random_text, Layout, Rng};
use d3d9_shader::interp::{self, Constants, PixelInput, SampleRequest, TextureSampler, VertexInput};
use d3d9_shader::key::{CompareFunc, FloatRules, FogMode, FogSource};
use d3d9_shader::validate::{validate, ValidationOptions};
use d3d9_shader::ShaderKey;

/// An operation slower than this is reported (a hang in the making: every entry point is bounded
/// far below it on any real input).
pub const SLOW: Duration = Duration::from_secs(1);

/// An entry point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// `bytecode::decode` on token mutants, and `input::load` on damaged bytes of every format.
    Decode,
    /// `validate` in strict and lenient mode, Direct3D 9 and 8, on mutants that decode.
    Validate,
    /// `asm::assemble` on random and damaged text.
    Asm,
    /// `asm::disassemble` (with and without comment blocks) on mutants that decode, and the
    /// listing assembled back.
    Disasm,
    /// `translate` under a random key, then WGSL emission, on mutants that decode.
    Translate,
    /// The interpreter: a vertex or a pixel quad with random inputs and the step limit.
    Interp,
    /// `effect::Effect::parse` on damaged effects, and the run-time's passes (preshaders
    /// evaluated) on those that parse.
    Effect,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 7] = [
        Target::Decode,
        Target::Validate,
        Target::Asm,
        Target::Disasm,
        Target::Translate,
        Target::Interp,
        Target::Effect,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Decode => "decode",
            Target::Validate => "validate",
            Target::Asm => "asm",
            Target::Disasm => "disasm",
            Target::Translate => "translate",
            Target::Interp => "interp",
            Target::Effect => "effect",
        }
    }

    /// The target of a command-line name.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The inputs mutants are made from.
pub struct Seeds {
    /// Token streams (with their layouts for the length lies).
    pub shaders: Vec<(Vec<u32>, Layout)>,
    /// Listings of the shaders that decode, for text damage.
    pub listings: Vec<String>,
    /// Where the shaders came from, for the log.
    pub origin: String,
    /// Effect blobs: `../shared/effects` when present, and the built-in sample.
    pub effects: Vec<Vec<u8>>,
}

impl Seeds {
    /// Seed shaders: `../shared/corpus` and `../shared/bench-corpus` when present, else the
    /// project's `shaders/asm` listings assembled; plus generated programs of every version.
    pub fn load() -> Seeds {
        let mut streams = Vec::new();
        let mut origin = Vec::new();
        if let Some(shared) = crate::shared_dir() {
            for folder in ["corpus", "bench-corpus"] {
                let files = crate::hex_files(&shared.join(folder));
                let before = streams.len();
                for path in files {
                    if let Ok(t) =
                        std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|s| crate::parse_hex(&s))
                    {
                        streams.push(t);
                    }
                }
                if streams.len() > before {
                    origin.push(format!("{} from ../shared/{folder}", streams.len() - before));
                }
            }
        }
        if streams.is_empty() {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repository root").join("shaders/asm");
            let before = streams.len();
            for path in crate::files_with_extension(&root, "asm") {
                if let Ok(p) = std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|s| assemble(&s).map_err(|e| e.to_string()))
                {
                    streams.push(encode(&p));
                }
            }
            origin.push(format!("{} from shaders/asm", streams.len() - before));
        }
        let before = streams.len();
        for v in crate::generate::versions() {
            for seed in 0..4 {
                if let Some(g) = crate::generate::generate(v, seed) {
                    streams.push(encode(&g.program));
                }
            }
        }
        origin.push(format!("{} generated", streams.len() - before));
        let listings =
            streams.iter().filter_map(|t| decode(t).ok()).map(|p| disassemble(&p, &DisasmOptions::default())).collect();
        let shaders = streams.into_iter().map(|t| {
            let layout = Layout::of(&t);
            (t, layout)
        });
        let mut effects = vec![d3d9_shader::fuzz::sample_effect()];
        if let Some(dir) = crate::shared_dir().map(|s| s.join("effects")) {
            for path in crate::files_with_extension(&dir, "hex") {
                if let Ok(t) =
                    std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|s| crate::parse_hex(&s))
                {
                    effects.push(t.iter().flat_map(|w| w.to_le_bytes()).collect());
                }
            }
        }
        origin.push(format!("{} effects", effects.len()));
        Seeds { shaders: shaders.collect(), listings, origin: origin.join(", "), effects }
    }
}

/// The input of one case, in a form that can be saved as a reproducer.
#[derive(Clone, Debug)]
pub enum Input {
    /// A token stream.
    Tokens(Vec<u32>),
    /// Raw bytes for the format-sniffing loader.
    Bytes(Vec<u8>),
    /// Assembly text.
    Text(String),
}

impl Input {
    /// The reproducer file's extension and contents: `.hex` words, `.bin` bytes or `.asm` text.
    pub fn file(&self) -> (&'static str, Vec<u8>) {
        match self {
            Input::Tokens(t) => {
                let words: Vec<String> = t.iter().map(|w| format!("{w:08x}")).collect();
                ("hex", (words.join("\n") + "\n").into_bytes())
            }
            Input::Bytes(b) => ("bin", b.clone()),
            Input::Text(s) => ("asm", s.clone().into_bytes()),
        }
    }
}

/// Why a case failed.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The entry point panicked (the message).
    Panic(String),
    /// The entry point took this long.
    Slow(Duration),
    /// An error that does not say where the input went wrong.
    Unplaced(String),
    /// The translator built IR that naga or a back end refuses, for a program it accepted.
    Invalid(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panic(m) => write!(f, "panic: {m}"),
            Failure::Slow(d) => write!(f, "slow: {:.2} s", d.as_secs_f64()),
            Failure::Unplaced(m) => write!(f, "error without a place: {m}"),
            Failure::Invalid(m) => write!(f, "invalid output: {m}"),
        }
    }
}

/// One case's result.
pub struct Outcome {
    /// The input.
    pub input: Input,
    /// What else the case used (key, options), for the reproducer.
    pub setting: String,
    /// The failure, if any.
    pub failure: Option<Failure>,
    /// Time spent in the entry points.
    pub elapsed: Duration,
    /// Whether the input got through: decoded (decode, validate, disasm), assembled, translated,
    /// or ran to the end (interp).
    pub reached: bool,
}

thread_local! {
    static PANIC_MESSAGE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Replaces the panic hook by one that records the message (for [`Outcome`]) instead of printing
/// it: a fuzz run reports panics itself, with their reproducers. Call once per process.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string payload)".into());
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(format!("{payload}{place}")));
    }));
}

/// Runs `f` under `catch_unwind`, timing it.
fn guarded(f: impl FnOnce() -> Result<bool, Failure>) -> (Option<Failure>, Duration, bool) {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    let elapsed = start.elapsed();
    let mut reached = false;
    let failure = match result {
        Ok(Ok(r)) => {
            reached = r;
            None
        }
        Ok(Err(f)) => Some(f),
        Err(payload) => {
            let message = PANIC_MESSAGE.with(|m| m.borrow_mut().take()).unwrap_or_else(|| {
                payload.downcast_ref::<&str>().map(|s| s.to_string()).unwrap_or_else(|| "panic".into())
            });
            Some(Failure::Panic(message))
        }
    };
    let failure = failure.or((elapsed > SLOW).then_some(Failure::Slow(elapsed)));
    (failure, elapsed, reached)
}

/// A token mutant of a random seed shader: half the time damaged anywhere (most such mutants no
/// longer decode), half the time with operand fields changed in place (register types and
/// numbers, swizzles, masks, modifiers, shifts, control bits), which keeps the stream decodable
/// more often and so reaches the validator, translator and interpreter with programs no
/// compiler would write.
fn mutant(seeds: &Seeds, rng: &mut Rng) -> Vec<u32> {
    let (tokens, layout) = &seeds.shaders[rng.below(seeds.shaders.len())];
    if rng.one_in(2) || layout.instructions.is_empty() {
        return mutate(tokens, layout, rng);
    }
    let mut out = tokens.clone();
    for _ in 0..1 + rng.below(3) {
        operand_mutation(&mut out, layout, rng);
    }
    out
}

/// Changes one field of one token of one instruction, keeping its length.
pub fn operand_mutation(tokens: &mut [u32], layout: &Layout, rng: &mut Rng) {
    let k = rng.below(layout.instructions.len());
    let start = layout.instructions[k];
    let end = layout
        .instructions
        .iter()
        .chain(&layout.comments)
        .copied()
        .filter(|&o| o > start)
        .min()
        .unwrap_or(tokens.len().saturating_sub(1));
    if start >= tokens.len() {
        return;
    }
    if end <= start + 1 || rng.one_in(6) {
        // The instruction token: control bits (comparison, texld variant), co-issue, predication.
        let t = &mut tokens[start];
        match rng.below(3) {
            0 => *t = (*t & !0x00FF_0000) | (rng.below(8) as u32) << 16,
            1 => *t ^= 1 << 30,
            _ => *t ^= 1 << 28,
        }
        return;
    }
    let i = start + 1 + rng.below(end - start - 1);
    let Some(t) = tokens.get_mut(i) else { return };
    let field = |t: u32, shift: u32, bits: u32, value: u32| {
        (t & !(((1 << bits) - 1) << shift)) | (value & ((1 << bits) - 1)) << shift
    };
    *t = match rng.below(6) {
        // Register number, small or at the edges of the files.
        0 => {
            let any = rng.below(2048) as u32;
            field(*t, 0, 11, *rng.pick(&[0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 255, 256, 2047, any]))
        }
        // Register type (bits 28–30 and 11–12).
        1 => {
            let ty = rng.below(20) as u32;
            field(field(*t, 28, 3, ty & 7), 11, 2, ty >> 3)
        }
        // Swizzle or write mask plus result modifiers.
        2 => field(*t, 16, 8, rng.next_u32()),
        // Source modifier or result shift.
        3 => field(*t, 24, 4, rng.below(16) as u32),
        // Relative addressing on or off.
        4 => *t ^ 1 << 13,
        _ => *t ^ 1 << rng.below(32),
    };
}

/// Runs one case of `target` drawn from `rng`.
pub fn run_case(target: Target, seeds: &Seeds, rng: &mut Rng) -> Outcome {
    match target {
        Target::Decode => decode_case(seeds, rng),
        Target::Validate => validate_case(seeds, rng),
        Target::Asm => asm_case(seeds, rng),
        Target::Disasm => disasm_case(seeds, rng),
        Target::Translate => translate_case(seeds, rng),
        Target::Interp => interp_case(seeds, rng),
        Target::Effect => effect_case(seeds, rng),
    }
}

/// A mutant through the decoder, then through the validator under every setting.
fn validate_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let tokens = mutant(seeds, rng);
    let (failure, elapsed, reached) = guarded(|| {
        let Ok(p) = decode(&tokens) else { return Ok(false) };
        for options in validation_settings() {
            std::hint::black_box(validate(&p, &options));
        }
        Ok(true)
    });
    Outcome { input: Input::Tokens(tokens), setting: String::new(), failure, elapsed, reached }
}

/// Random or mutated assembly text through the assembler; an error must say its line, a program must encode.
fn asm_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let text = if rng.one_in(2) || seeds.listings.is_empty() {
        let pieces = 1 + rng.below(80);
        random_text(rng, pieces)
    } else {
        mutate_text(&seeds.listings[rng.below(seeds.listings.len())], rng)
    };
    let (failure, elapsed, reached) = guarded(|| match assemble(&text) {
        Ok(p) => {
            std::hint::black_box(encode(&p));
            Ok(true)
        }
        Err(e) => placed(&e.to_string(), "line ").map(|()| false),
    });
    Outcome { input: Input::Text(text), setting: String::new(), failure, elapsed, reached }
}

/// A decodable mutant disassembled, with and without comments: the listing must assemble.
fn disasm_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let tokens = mutant(seeds, rng);
    let (failure, elapsed, reached) = guarded(|| {
        let Ok(p) = decode(&tokens) else { return Ok(false) };
        for keep_comments in [false, true] {
            let text = disassemble(&p, &DisasmOptions { keep_comments });
            // What the disassembler prints, the assembler reads back.
            if let Err(e) = assemble(&text) {
                return Err(Failure::Panic(format!("the listing does not assemble: {e}\n{text}")));
            }
        }
        Ok(true)
    });
    Outcome { input: Input::Tokens(tokens), setting: String::new(), failure, elapsed, reached }
}

/// A decodable mutant translated under a random key: a validated module must emit, and a
/// refused lowering is a failure only for a program the lenient validation accepts.
fn translate_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let tokens = mutant(seeds, rng);
    let key = random_key(rng);
    let setting = format!("{key:?}");
    let (failure, elapsed, reached) = guarded(|| {
        let Ok(p) = decode(&tokens) else { return Ok(false) };
        match d3d9_shader::translate(&p, &key) {
            // The module passed naga's validator: every back end must take it.
            // (WGSL has no point size or point coordinate: those keys are for SPIR-V.)
            Ok(t) => {
                let emitted =
                    if key.point_size || key.point_sprite { t.to_spirv().map(|_| ()) } else { t.to_wgsl().map(|_| ()) };
                match emitted {
                    Ok(()) => Ok(true),
                    Err(e) => Err(Failure::Invalid(format!("emission of a validated module: {e}"))),
                }
            }
            // The lowering may refuse a program; what it builds must be valid IR when
            // the program itself passed the (lenient) validation the translator assumes.
            Err(d3d9_shader::TranslateError::Emit(e)) if validate(&p, &ValidationOptions::lenient()).is_ok() => {
                Err(Failure::Invalid(format!("naga refuses the lowering of a valid program: {e}")))
            }
            Err(_) => Ok(false),
        }
    });
    Outcome { input: Input::Tokens(tokens), setting, failure, elapsed, reached }
}

/// A damaged effect through the reader; one that parses goes through every pass of every
/// technique of the run-time (states, array selectors, shader constants, preshaders, the
/// device calls), created into a pool beside a second copy that sets every parameter before
/// each commit.
/// A D3DXCreateEffectEx skip list for `effect`: names of its parameters and shader constants,
/// element and member suffixes, and random bytes, joined by any character (the list is read as
/// identifiers; docs/effects.md#skip-constants).
fn skip_list(effect: &d3d9_shader::effect::Effect, rng: &mut Rng) -> String {
    let mut names: Vec<String> = effect.parameters.iter().map(|p| p.name.clone()).collect();
    let constants = effect.shaders().flat_map(|(_, s)| s.constants.iter().flat_map(|t| &t.constants));
    names.extend(constants.map(|c| c.name.clone()));
    const SEPARATORS: &[&str] = &[";", " ", "[1]", ".x", "#", "\t", "9", "\u{e9}", ""];
    let mut list = String::new();
    for _ in 0..rng.below(5) {
        match rng.below(4) {
            0 if !names.is_empty() => list.push_str(&names[rng.below(names.len())]),
            1 => list.extend((0..rng.below(6)).map(|_| char::from(b' ' + rng.below(95) as u8))),
            _ => list.push_str(SEPARATORS[rng.below(SEPARATORS.len())]),
        }
        list.push_str(SEPARATORS[rng.below(SEPARATORS.len())]);
    }
    list
}

fn effect_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    use d3d9_shader::effect::{EffectPool, EffectRuntime};
    let seed = &seeds.effects[rng.below(seeds.effects.len())];
    let bytes = d3d9_shader::fuzz::mutate_effect(seed, rng);
    let mut setting = "effect".to_string();
    let (failure, elapsed, reached) = guarded(|| match d3d9_shader::effect::Effect::parse(&bytes) {
        Ok(effect) => {
            let pool = EffectPool::new();
            // Half the cases create the effect with a skip list (D3DXCreateEffectEx).
            let skipping = rng.one_in(2).then(|| skip_list(&effect, rng));
            let mut rt = match &skipping {
                Some(list) => {
                    setting = format!("effect, skip list {list:?}");
                    EffectRuntime::with_skip_constants(&effect, list).unwrap_or_else(|_| EffectRuntime::new(&effect))
                }
                None => EffectRuntime::in_pool(&effect, &pool),
            };
            let mut partner = EffectRuntime::in_pool(&effect, &pool);
            for t in 0..effect.techniques.len() {
                std::hint::black_box(effect.used_parameters_skipping(t, rt.skipped()));
                let _ = rt.set_technique(t);
                let passes = rt.begin().unwrap_or(0);
                for p in 0..passes {
                    std::hint::black_box(rt.begin_pass(p).map(|s| s.device_calls()).ok());
                    for h in partner.store.top_level.clone() {
                        let v = partner.store.value(h).to_vec();
                        let _ = partner.set_value(h, &v);
                    }
                    // A parameter block of raw sets, applied before the commit.
                    let _ = rt.begin_parameter_block();
                    for h in rt.store.top_level.clone() {
                        let _ = rt.set_raw_value(h, rng.below(8), &[0x3f, 0x80]);
                    }
                    if let Ok(block) = rt.end_parameter_block() {
                        let _ = rt.apply_parameter_block(&block);
                    }
                    std::hint::black_box(rt.commit().map(|s| s.device_calls()).ok());
                    let _ = rt.end_pass();
                }
                rt.end();
            }
            Ok(true)
        }
        Err(e) => placed(&e.to_string(), "byte ").map(|()| false),
    });
    Outcome { input: Input::Bytes(bytes), setting, failure, elapsed, reached }
}

fn decode_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let tokens = mutant(seeds, rng);
    if rng.one_in(4) {
        // The loader sniffs the format from the bytes: a damaged blob, hex text or listing.
        let bytes: Vec<u8> = match rng.below(3) {
            0 => tokens.iter().flat_map(|t| t.to_le_bytes()).collect(),
            1 => tokens.iter().map(|t| format!("{t:08x} ")).collect::<String>().into_bytes(),
            _ => match decode(&tokens) {
                Ok(p) => mutate_text(&disassemble(&p, &DisasmOptions::default()), rng).into_bytes(),
                Err(_) => tokens.iter().flat_map(|t| t.to_le_bytes()).take(rng.below(tokens.len() * 4 + 1)).collect(),
            },
        };
        let (failure, elapsed, reached) = guarded(|| Ok(d3d9_shader::input::load(&bytes, "").is_ok()));
        return Outcome { input: Input::Bytes(bytes), setting: "input::load".into(), failure, elapsed, reached };
    }
    let (failure, elapsed, reached) = guarded(|| match decode(&tokens) {
        Ok(p) => {
            std::hint::black_box(p);
            Ok(true)
        }
        Err(e) => placed(&e.to_string(), "token ").map(|()| false),
    });
    Outcome { input: Input::Tokens(tokens), setting: String::new(), failure, elapsed, reached }
}

/// An error message must say where: `token N` for the decoder, `line N` for the assembler.
fn placed(message: &str, word: &str) -> Result<(), Failure> {
    let at = message.find(word).map(|i| &message[i + word.len()..]);
    if at.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())) {
        Ok(())
    } else {
        Err(Failure::Unplaced(message.to_string()))
    }
}

fn validation_settings() -> Vec<ValidationOptions> {
    use d3d9_shader::validate::Api;
    vec![
        ValidationOptions::strict(),
        ValidationOptions::lenient(),
        ValidationOptions::strict().with_api(Api::D3d8),
        ValidationOptions { swvp: true, relaxed_constant_limit: true, ..ValidationOptions::lenient() },
    ]
}

/// A key with every field drawn at random: float rules, alpha test, fog, clip planes, point
/// state, shading, shadow and unbound samplers, Shader Model 1 sampler types, software vertex
/// processing.
pub fn random_key(rng: &mut Rng) -> ShaderKey {
    let types = [None, Some(TextureType::Tex2D), Some(TextureType::Cube), Some(TextureType::Volume)];
    let mut key = ShaderKey {
        float_rules: *rng.pick(&[FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee]),
        alpha_func: *rng.pick(&[
            CompareFunc::Never,
            CompareFunc::Less,
            CompareFunc::Equal,
            CompareFunc::LessEqual,
            CompareFunc::Greater,
            CompareFunc::NotEqual,
            CompareFunc::GreaterEqual,
            CompareFunc::Always,
            CompareFunc::Always,
        ]),
        fog: *rng.pick(&[FogMode::None, FogMode::None, FogMode::Vertex, FogMode::Linear, FogMode::Exp, FogMode::Exp2]),
        fog_source: *rng.pick(&[FogSource::Z, FogSource::W]),
        clip_planes: if rng.one_in(3) { rng.next_u32() as u8 } else { 0 },
        point_size: rng.one_in(4),
        point_sprite: rng.one_in(4),
        flat_shading: rng.one_in(4),
        shadow_samplers: if rng.one_in(4) { rng.next_u32() as u16 } else { 0 },
        unbound_samplers: if rng.one_in(4) { rng.next_u32() as u16 } else { 0 },
        swvp: rng.one_in(5),
        ..ShaderKey::default()
    };
    if rng.one_in(4) {
        // Each stage: not projected, or divided by component 0–3 (COUNT1–4).
        key.projected = std::array::from_fn(|_| rng.below(5) as u8);
    }
    if rng.one_in(2) {
        for slot in key.sampler_types.iter_mut() {
            *slot = *rng.pick(&types);
        }
    }
    key
}

/// A sampler whose texels depend on the request, so that coordinate paths are exercised.
struct CoordinateSampler;

impl TextureSampler for CoordinateSampler {
    fn sample(&self, r: &SampleRequest) -> [f32; 4] {
        let [u, v, w, q] = r.coords;
        [u.fract(), v.fract(), w.fract(), (q + r.sampler as f32).fract()]
    }
}

fn interp_case(seeds: &Seeds, rng: &mut Rng) -> Outcome {
    let tokens = mutant(seeds, rng);
    let mut pool = Rng::new(rng.next_u64());
    let mut value = move || -> f32 {
        const EDGES: [f32; 10] = [0.0, -0.0, 1.0, -1.0, 0.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e30, -1e-30];
        if pool.one_in(3) {
            EDGES[pool.below(EDGES.len())]
        } else {
            (pool.below(4001) as f32 - 2000.0) / 256.0
        }
    };
    let mut vec4 = move || [value(), value(), value(), value()];
    let mut constants = Constants { float: (0..256).map(|_| vec4()).collect(), ..Constants::default() };
    for i in constants.int.iter_mut() {
        *i = [rng.below(300) as i32 - 20, rng.below(300) as i32 - 20, rng.below(10) as i32 - 5, 0];
    }
    for b in constants.bool.iter_mut() {
        *b = rng.one_in(2);
    }
    let float_rules = *rng.pick(FloatRules::ALL);
    let mut options = interp::Options { float_rules, ..interp::Options::default() };
    for stage in options.stages.iter_mut() {
        stage.texture_type = *rng.pick(&[TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume]);
        let [a, b, c, d] = vec4();
        stage.bump_matrix = [[a, b], [c, d]];
        stage.transform.count = rng.below(5) as u8;
        stage.transform.projected = rng.one_in(3);
    }
    let vertex = VertexInput { v: std::array::from_fn(|_| vec4()) };
    let pixels: [PixelInput; 4] = std::array::from_fn(|i| PixelInput {
        v: std::array::from_fn(|_| vec4()),
        t: std::array::from_fn(|_| vec4()),
        vpos: [(i % 2) as f32, (i / 2) as f32],
        vface: if rng.one_in(2) { 1.0 } else { -1.0 },
    });
    let unbound = rng.one_in(2);
    let setting = format!("{options:?}\n{constants:?}");
    let (failure, elapsed, reached) = guarded(|| {
        let Ok(p) = decode(&tokens) else { return Ok(false) };
        let sampler: &dyn TextureSampler = if unbound { &interp::UnboundSampler } else { &CoordinateSampler };
        let result = match p.version.kind {
            ShaderKind::Vertex => interp::run_vertex(&p, &vertex, &constants, &options, sampler).map(|_| ()),
            ShaderKind::Pixel => interp::run_pixel_quad(&p, &pixels, &constants, &options, sampler).map(|_| ()),
        };
        // An execution error names its instruction; make sure it is one of the program's.
        if let Err(e) = result {
            if e.instruction > p.instructions.len() {
                return Err(Failure::Unplaced(format!("{e} (the program has {} instructions)", p.instructions.len())));
            }
            return Ok(false);
        }
        Ok(true)
    });
    Outcome { input: Input::Tokens(tokens), setting, failure, elapsed, reached }
}

/// Saves a failed case as `DIR/TARGET-CASE.{hex,bin,asm}` plus a `.txt` with the failure and the
/// setting; returns the input file's path.
pub fn save_reproducer(dir: &Path, target: Target, case: u64, outcome: &Outcome) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let (ext, bytes) = outcome.input.file();
    let path = dir.join(format!("{}-{case}.{ext}", target.name()));
    std::fs::write(&path, bytes)?;
    let failure = outcome.failure.as_ref().map(|f| f.to_string()).unwrap_or_default();
    std::fs::write(path.with_extension("txt"), format!("{failure}\n\n{}\n", outcome.setting))?;
    Ok(path)
}

/// Decodes a program from a saved `.hex` reproducer (for regression tests).
pub fn load_reproducer(text: &str) -> Result<Program, String> {
    let tokens = crate::parse_hex(text)?;
    decode(&tokens).map_err(|e| e.to_string())
}
