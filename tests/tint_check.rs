//! Checking translations with Tint ([`crate::tint`]): the requests built from a translation and
//! its documented binding layout, and a [`Checker`] that keeps many requests in flight, gathers
//! Tint's verdicts (errors fail, warnings are counted by kind) and prints them.
//!
//! A pipeline request describes the bind group layouts from [`BindingLayout`] — the contract
//! `d3d9_shader::lower` documents — never from the WGSL, so that Dawn's pipeline validation checks
//! the module against the documentation: uniform buffers no smaller than the documented sizes,
//! textures of the documented dimension (depth textures and comparison samplers for shadow
//! samplers), vertex inputs as `float32x4` attributes, the pixel outputs as colour targets.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use d3d9_shader::bytecode::{TextureType, Version};
use d3d9_shader::lower::{self, BindingLayout};
use d3d9_shader::Translation;
use gpu_harness::case::{Case, TargetFormat};
use gpu_harness::runner::{Runner, Verdict};

use crate::tint::{LayoutEntry, Pipeline, Reply, Request, Stage, Target, Tint, TintError};

/// The WebGPU format name of a case's render-target format (as `gpu_harness::targets` maps it).
pub fn target_format(f: TargetFormat) -> &'static str {
    match f {
        TargetFormat::A8R8G8B8 => "rgba8unorm",
        TargetFormat::A32B32G32R32F => "rgba32float",
    }
}

/// The depth format standing in for D24S8 (`gpu_harness::targets::DEPTH_FORMAT`).
pub const DEPTH_FORMAT: &str = "depth32float";

fn dimension(t: TextureType) -> &'static str {
    match t {
        TextureType::Cube => "cube",
        TextureType::Volume => "3d",
        // Undeclared and 1D samplers are 2D textures (`ShaderKey::sampler_type`).
        TextureType::Unknown | TextureType::Tex1D | TextureType::Tex2D => "2d",
    }
}

/// The bind-group layout entries `layout` documents for a shader of `version`, with the buffer
/// sizes of the binding table of `d3d9_shader::lower`.
pub fn layout_entries(layout: &BindingLayout, version: Version) -> Vec<LayoutEntry> {
    let visibility = if layout.group == lower::PIXEL_GROUP { "fragment" } else { "vertex" };
    let uniform =
        |binding, registers: u32| LayoutEntry::Uniform { binding, visibility, min_size: 16 * registers as u64 };
    let int_bool = if version.is_sw() { lower::SW_INT_BOOL_CONSTANTS } else { lower::INT_BOOL_CONSTANTS };
    let mut out = Vec::new();
    if let Some(fc) = layout.float_constants {
        out.push(uniform(fc.binding, fc.count.min(lower::FLOAT_CONSTANTS_PAGE)));
        if let Some(high) = fc.high_binding {
            out.push(uniform(high, fc.count - lower::FLOAT_CONSTANTS_PAGE));
        }
    }
    if let Some(b) = layout.int_constants {
        out.push(uniform(b, int_bool));
    }
    if let Some(b) = layout.bool_constants {
        // b n is component n % 4 of element n / 4.
        out.push(uniform(b, int_bool.div_ceil(4)));
    }
    if let Some(b) = layout.render_state {
        out.push(LayoutEntry::Uniform { binding: b, visibility, min_size: lower::RENDER_STATE_SIZE as u64 });
    }
    for t in &layout.textures {
        out.push(LayoutEntry::Texture {
            binding: t.texture_binding,
            visibility,
            dimension: dimension(t.texture_type),
            depth: t.shadow,
        });
        out.push(LayoutEntry::Sampler { binding: t.sampler_binding, visibility, comparison: t.shadow });
    }
    out
}

fn stage(t: &Translation) -> Result<Stage, String> {
    let entry = t.module.entry_points.first().ok_or("the translation has no entry point")?.name.clone();
    Ok(Stage { code: t.to_wgsl().map_err(|e| format!("WGSL: {e}"))?, entry })
}

/// The pipeline of a linked pair drawn into `targets`: the vertex shader's inputs as `float32x4`
/// attributes of one buffer, every colour target (written ones with a full write mask, as the
/// harness draws), a depth target when the pixel shader writes depth.
pub fn pipeline_for(
    vs: (&Translation, Version),
    ps: (&Translation, Version),
    targets: &[TargetFormat],
) -> Result<Pipeline, String> {
    let mut groups = vec![Vec::new(); 2];
    for (t, version) in [vs, ps] {
        let g = t.layout.group as usize;
        if g >= groups.len() {
            return Err(format!("bind group {g} is neither VERTEX_GROUP nor PIXEL_GROUP"));
        }
        groups[g] = layout_entries(&t.layout, version);
    }
    let mut vertex_locations: Vec<u32> = vs.0.interface.inputs.iter().filter_map(|s| s.location).collect();
    vertex_locations.sort_unstable();
    vertex_locations.dedup();
    let outputs = &ps.0.interface.outputs;
    let written: Vec<u32> = outputs.iter().filter_map(|s| s.location).collect();
    let targets = targets
        .iter()
        .enumerate()
        .map(|(i, &f)| Target { format: target_format(f), write: written.contains(&(i as u32)) })
        .collect();
    let depth =
        outputs.iter().any(|s| s.builtin == Some(d3d9_shader::lower::Builtin::FragDepth)).then_some(DEPTH_FORMAT);
    Ok(Pipeline { vertex: stage(vs.0)?, fragment: stage(ps.0)?, groups, vertex_locations, targets, depth })
}

/// What a request was about, kept until its reply.
struct Pending {
    label: String,
    /// (stage name, WGSL) of each module, to show the offending lines.
    codes: Vec<(&'static str, String)>,
}

/// One kind of message: how often, and the first occurrence.
#[derive(Clone, Debug)]
pub struct Kind {
    /// Occurrences.
    pub count: usize,
    /// The first: label and the rendered message.
    pub example: String,
}

/// Sends translations to Tint and keeps the verdicts.
pub struct Checker {
    /// The node processes, each compiling one request at a time.
    workers: Vec<Tint>,
    pending: HashMap<(usize, u64), Pending>,
    /// Hashes of the requests sent: a request identical to one sent is not sent again (`None`:
    /// every request is sent).
    seen: Option<HashSet<u64>>,
    /// Requests identical to one already sent (the verdict is that one's).
    pub duplicates: usize,
    /// Requests Tint accepted (no error, pipeline created).
    pub passed: usize,
    /// Each refusal: label, and Tint's messages with the offending lines.
    pub failures: Vec<String>,
    /// Warnings by message (numbers replaced by `N`).
    pub warnings: BTreeMap<String, Kind>,
    /// Refusals by their first message (numbers replaced by `N`).
    pub errors: BTreeMap<String, Kind>,
}

/// A message with its numbers replaced by `N`, so that messages of one kind group together.
fn kind_of(message: &str) -> String {
    let mut s = String::new();
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !s.ends_with('N') {
                s.push('N');
            }
        } else {
            s.push(c);
        }
    }
    s
}

impl Checker {
    /// A checker on `workers` (at least one).
    pub fn new(workers: Vec<Tint>) -> Checker {
        assert!(!workers.is_empty(), "a checker needs a Tint process");
        Checker {
            workers,
            pending: HashMap::new(),
            seen: Some(HashSet::new()),
            duplicates: 0,
            passed: 0,
            failures: Vec::new(),
            warnings: BTreeMap::new(),
            errors: BTreeMap::new(),
        }
    }

    /// The checker sending every request, identical ones too: for a caller that needs the
    /// verdict of each ([`Checker::drain`]), as fuzz-diff's shrinker does.
    pub fn sending_duplicates(mut self) -> Checker {
        self.seen = None;
        self
    }

    /// A checker for test `test` with one Tint process per core (`D3D9_TINT_JOBS` overrides),
    /// or `None` when Tint is unavailable ([`Tint::for_test`]: loud, a failure under
    /// `REQUIRE_TOOLS=1`).
    pub fn for_test(test: &str) -> Option<Checker> {
        let first = Tint::for_test(test)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = std::env::var("D3D9_TINT_JOBS").ok().and_then(|v| v.parse().ok()).unwrap_or(cores.min(4)).max(1);
        let mut workers = vec![first];
        for _ in 1..jobs {
            workers.push(Tint::start().unwrap_or_else(|e| panic!("{test}: a second Tint process: {e}")));
        }
        Some(Checker::new(workers))
    }

    fn submit(&mut self, request: Request, pending: Pending) -> Result<(), TintError> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match &request {
            Request::Module(code) => ("module", code).hash(&mut h),
            Request::Pipeline(p) => ("pipeline", serde_json::to_string(p).unwrap_or_default()).hash(&mut h),
        }
        if self.seen.as_mut().is_some_and(|seen| !seen.insert(h.finish())) {
            self.duplicates += 1;
            return Ok(());
        }
        let (w, tint) = self.workers.iter_mut().enumerate().min_by_key(|(_, t)| t.in_flight()).expect("one worker");
        let id = tint.submit(&request)?;
        self.pending.insert((w, id), pending);
        for w in 0..self.workers.len() {
            for (id, reply) in self.workers[w].poll()? {
                self.absorb((w, id), reply);
            }
        }
        Ok(())
    }

    fn wait_all(&mut self) -> Result<(), TintError> {
        for w in 0..self.workers.len() {
            for (id, reply) in self.workers[w].wait()? {
                self.absorb((w, id), reply);
            }
        }
        Ok(())
    }

    /// Compiles `code` (a `stage` module: `vertex` or `pixel`), labelled `label` in the report.
    pub fn module(&mut self, label: String, stage: &'static str, code: String) -> Result<(), TintError> {
        self.submit(Request::Module(code.clone()), Pending { label, codes: vec![(stage, code)] })
    }

    /// Creates `pipeline`, labelled `label` in the report.
    pub fn pipeline(&mut self, label: String, pipeline: Pipeline) -> Result<(), TintError> {
        let codes = vec![("vertex", pipeline.vertex.code.clone()), ("pixel", pipeline.fragment.code.clone())];
        self.submit(Request::Pipeline(Box::new(pipeline)), Pending { label, codes })
    }

    /// Records a failure that happened before Tint (a translation error).
    pub fn fail(&mut self, label: String, why: String) {
        self.refused(&why, format!("{label}: {why}"));
    }

    /// Records a failure of kind `kind` (its first message) reported as `text`.
    fn refused(&mut self, kind: &str, text: String) {
        let first = kind.lines().next().unwrap_or_default();
        let k = self.errors.entry(kind_of(first)).or_insert_with(|| Kind { count: 0, example: text.clone() });
        k.count += 1;
        self.failures.push(text);
    }

    fn absorb(&mut self, id: (usize, u64), reply: Reply) {
        let Some(p) = self.pending.remove(&id) else { return };
        let (per_stage, pipeline_error) = match reply {
            Reply::Module(m) => (vec![m], None),
            Reply::Pipeline { vertex, fragment, error } => (vec![vertex, fragment], error),
            Reply::Fatal(f) => {
                self.refused(&f, format!("{}: the checker failed: {f}", p.label));
                return;
            }
        };
        let mut errors = Vec::new();
        let mut first_error = None;
        for (messages, (stage, code)) in per_stage.iter().zip(&p.codes) {
            for m in messages {
                let rendered = format!("{stage}: {}", m.render(code));
                if m.is_error() {
                    first_error.get_or_insert_with(|| m.message.clone());
                    errors.push(rendered);
                } else if m.kind == "warning" {
                    let w = self
                        .warnings
                        .entry(kind_of(&m.message))
                        .or_insert_with(|| Kind { count: 0, example: format!("{}: {rendered}", p.label) });
                    w.count += 1;
                }
            }
        }
        // A module that does not compile also fails the pipeline: its own errors say why.
        match (first_error, pipeline_error) {
            (Some(first), _) => self.refused(&first, format!("{}:\n  {}", p.label, errors.join("\n  "))),
            (None, Some(e)) => self.refused(&e, format!("{}: createRenderPipeline: {}", p.label, e.trim_end())),
            (None, None) => self.passed += 1,
        }
    }

    /// Checks every draw of `case` as the runner's GPU path translates it: a linked pair creates
    /// a pipeline, a shader drawn with a fixed-function partner is compiled alone. Returns the
    /// reason when the runner skips the case (a translation that fails is a failure).
    pub fn case(&mut self, runner: &Runner<'_>, case: &Case, label: &str) -> Result<Option<String>, TintError> {
        let draws = match runner.translations(case) {
            Ok(d) => d,
            Err(Verdict::Skip(why)) => return Ok(Some(why)),
            Err(Verdict::Fail(why)) => {
                self.fail(label.to_string(), why.join("; "));
                return Ok(None);
            }
            Err(Verdict::Pass) => return Ok(None),
        };
        for d in draws {
            let names = [&d.vs, &d.ps].map(|s| s.as_ref().map_or("fixed function", |s| s.name.as_str()));
            let label = format!("{label} draw {} ({} + {})", d.draw, names[0], names[1]);
            match (&d.vs, &d.ps) {
                (Some(v), Some(p)) => {
                    match pipeline_for((&v.translation, v.version), (&p.translation, p.version), &d.targets) {
                        Ok(pipeline) => self.pipeline(label, pipeline)?,
                        Err(e) => self.fail(label, e),
                    }
                }
                (Some(s), None) | (None, Some(s)) => {
                    let stage = if s.version.is_pixel() { "pixel" } else { "vertex" };
                    match s.translation.to_wgsl() {
                        Ok(code) => self.module(label, stage, code)?,
                        Err(e) => self.fail(label, format!("WGSL: {e}")),
                    }
                }
                (None, None) => {}
            }
        }
        Ok(None)
    }

    /// Waits for every outstanding reply and takes the failures recorded so far (for a caller
    /// that needs the verdict of each request, such as fuzz-diff's shrinker).
    pub fn drain(&mut self) -> Result<Vec<String>, TintError> {
        self.wait_all()?;
        Ok(std::mem::take(&mut self.failures))
    }

    /// Waits for every reply, prints the warnings and the closing line `tint: N passed, M failed`
    /// (labelled with `what`), and returns the failures.
    pub fn finish(mut self, what: &str) -> Result<Vec<String>, TintError> {
        let waiting = std::time::Instant::now();
        self.wait_all()?;
        // How far Tint lagged behind the translations (near 0: the translations are the cost).
        eprintln!("tint ({what}): {:.1} s waiting for Tint after the last request", waiting.elapsed().as_secs_f64());
        for (id, p) in std::mem::take(&mut self.pending) {
            self.failures.push(format!("{}: no reply from the checker (request {id:?})", p.label));
        }
        if !self.warnings.is_empty() {
            eprintln!("tint warnings ({what}), by kind:");
            for (kind, w) in &self.warnings {
                eprintln!("  {} × {kind}\n    first: {}", w.count, w.example.replace('\n', "\n    "));
            }
        }
        for f in self.failures.iter().take(20) {
            eprintln!("tint FAILED {f}\n");
        }
        if self.failures.len() > 20 {
            eprintln!("tint: … and {} more failures", self.failures.len() - 20);
        }
        if !self.errors.is_empty() {
            eprintln!("tint refusals ({what}), by kind:");
            for (kind, k) in &self.errors {
                eprintln!("  {} × {kind}\n    first: {}", k.count, k.example.replace('\n', "\n    "));
            }
        }
        eprintln!(
            "tint ({what}): {} passed, {} failed ({} requests identical to one checked, not sent again)",
            self.passed,
            self.failures.len(),
            self.duplicates
        );
        println!("tint: {} passed, {} failed", self.passed, self.failures.len());
        Ok(self.failures)
    }
}
