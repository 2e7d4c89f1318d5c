//! `cargo xtask conformance` and `cargo xtask sweep`: draw cases (or whole corpora) on the GPU and
//! on the CPU reference, compare, report.
//!
//! Each command ends with one line `NAME: N passed, M failed, K skipped` (skips are listed with
//! their reason above it; a skip is not a pass) and exits non-zero when anything failed. On a
//! terminal a progress bar shows the run; elsewhere (CI) each case gets a plain log line.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use gpu_harness::case::{case_files, Case};
use gpu_harness::device::{gpu_required, Gpu};
use gpu_harness::interpreted::Interpreter;
use gpu_harness::runner::{Backend, CaseResult, FloatRules, Runner, Verdict};
use gpu_harness::sweep;
use gpu_harness::translated::{Counting, Delivering, Translator};

/// `cargo xtask conformance`.
#[derive(Args)]
#[command(
    long_about = "Draws every case (*.toml) on the GPU and on the CPU reference, checks its probes on both \
                  and compares the two images. Defaults: the project's cases in shaders/cases/, plus \
                  ../shared/conformance, ../shared/conformance-ffp and ../shared/conformance-vkd3d when present; \
                  shader names resolve against the corpus folders (default ../shared/corpus and \
                  ../shared/corpus-vkd3d when present) and the project's shaders/.",
    after_help = crate::examples!(
        "cargo xtask conformance"
        "cargo xtask conformance --backend cpu --filter fog"
        "cargo xtask conformance --cases shaders/cases --report target/report"
    )
)]
pub struct ConformanceArgs {
    /// A folder of cases (repeatable).
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    #[command(flatten)]
    common: Common,
    /// Which side to draw.
    #[arg(long, value_enum, default_value_t = BackendArg::Both)]
    backend: BackendArg,
    /// How the render-state modes reach the translated shaders: baked, override (pipeline
    /// constants) or uniform (the render-state block).
    #[arg(long, value_name = "MODE", default_value = "baked", value_parser = delivery)]
    deliver: d3d9_shader::Delivery,
    /// Also report how many translations a layer needs for all the draws: distinct (shader,
    /// minimal key) pairs under the delivery, against distinct shaders.
    #[arg(long)]
    count_translations: bool,
    /// How fixed-function halves are generated: keyed (one module per state), uniform (one
    /// module per interface, the state read from its state block), or both: keyed, then each
    /// case with a fixed-function half drawn again uniform-driven, the images required identical
    /// (docs/layers.md#fixed-function).
    #[arg(long, value_enum, default_value_t = FfpModeArg::Both)]
    ffp_mode: FfpModeArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum FfpModeArg {
    /// Specialised per key.
    Keyed,
    /// Uniform-driven.
    Uniform,
    /// Keyed, and uniform-driven compared with it.
    Both,
}

impl FfpModeArg {
    fn mode(self) -> gpu_harness::ffp_modes::FfpModes {
        use gpu_harness::ffp_modes::FfpModes;
        match self {
            FfpModeArg::Keyed => FfpModes::Keyed,
            FfpModeArg::Uniform => FfpModes::Uniform,
            FfpModeArg::Both => FfpModes::Both,
        }
    }
}

/// A `--deliver` value, by the delivery's spelling table.
fn delivery(text: &str) -> Result<d3d9_shader::Delivery, d3d9_shader::key::UnknownName> {
    text.parse()
}

/// `cargo xtask sweep`.
#[derive(Args)]
#[command(
    long_about = "Draws every shader of each corpus folder with generated inputs (deterministic \
                  pseudo-random constants and attributes, a pass-through partner stage, textures with \
                  distinct texels) into float targets on the GPU and on the CPU, and compares the images. \
                  Default: shaders/ plus ../shared/corpus, ../shared/bench-corpus, ../shared/real-corpus and \
                  ../shared/real-corpus-xray (a shipped game's renderer) when present.",
    after_help = crate::examples!(
        "cargo xtask sweep"
        "cargo xtask sweep --corpus shaders --filter ps_3_0"
        "cargo xtask sweep --inputs 4 --float-rules ieee --report target/sweep"
    )
)]
pub struct SweepArgs {
    #[command(flatten)]
    common: Common,
    /// Input sets drawn per shader: even sets plain, odd sets with edge values (0, ±1, large,
    /// tiny, negative); a shader passes when every set does.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    inputs: u32,
    /// A fixed sample: every K-th shader of the sorted list (after --filter), starting with the first.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    sample: u32,
    /// Draw every shader with the input sets generated for SHADER (a .hex or a listing)
    /// instead of its own: to find where a disagreement starts, cut the shader short at each
    /// instruction (writing the register it reached to oC0) and draw the cuts with its inputs.
    #[arg(long, value_name = "SHADER")]
    inputs_of: Option<PathBuf>,
}

/// What both commands take.
#[derive(Args)]
struct Common {
    /// A corpus folder (repeatable).
    #[arg(long = "corpus", value_name = "DIR")]
    corpus: Vec<PathBuf>,
    /// Write DIR/index.html listing every case, with images of each failure.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// The adapter whose name contains NAME (default: D3D9_ADAPTER, else the first).
    #[arg(long, value_name = "NAME")]
    adapter: Option<String>,
    /// Only the cases (or shaders) whose path contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// The float rules of both sides (the translation key's modes, docs/d3d9-rules.md#float-rules).
    #[arg(long, value_enum, default_value_t = FloatRules::Strict)]
    float_rules: FloatRules,
}

#[derive(Clone, Copy, ValueEnum)]
enum BackendArg {
    /// The GPU side only.
    Gpu,
    /// The CPU reference only.
    Cpu,
    /// Both, compared.
    Both,
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// `../shared` (or `D3D9_SHARED`) when present; under `REQUIRE_SHARED=1` (CI) its absence ends
/// the run, since the shared cases and corpora would otherwise be skipped silently.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("D3D9_SHARED") {
        Some(p) => PathBuf::from(p),
        None => repo_root().parent()?.join("shared"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("REQUIRE_SHARED").is_some_and(|v| v == "1") {
        eprintln!("xtask: REQUIRE_SHARED=1 but the shared data folder {} is absent", dir.display());
        std::process::exit(1);
    }
    None
}

/// Progress: a bar on a terminal, a log line per item elsewhere.
pub struct Progress {
    bar: indicatif::ProgressBar,
    total: usize,
    done: usize,
}

impl Progress {
    /// Starts a progress display for `total` items.
    pub fn new(total: usize) -> Progress {
        Progress { bar: crate::progress::bar(total as u64), total, done: 0 }
    }

    /// One item finished.
    pub fn step(&mut self, name: &str, verdict: &Verdict) {
        self.done += 1;
        if !self.bar.is_hidden() {
            self.bar.set_message(name.to_string());
            self.bar.inc(1);
            if self.done == self.total {
                self.bar.finish_and_clear();
            }
            return;
        }
        let word = match verdict {
            Verdict::Pass => "pass",
            Verdict::Fail(_) => "FAIL",
            Verdict::Skip(_) => "skip",
        };
        eprintln!("[{}/{}] {word} {name}", self.done, self.total);
    }
}

fn open_gpu(backend: Backend, adapter: Option<&str>) -> Result<Option<Gpu>, String> {
    if backend == Backend::Cpu {
        return Ok(None);
    }
    match Gpu::new(adapter) {
        Ok(gpu) => {
            eprintln!("GPU: {}", gpu.describe());
            Ok(Some(gpu))
        }
        Err(e) if gpu_required() => Err(format!("REQUIRE_GPU=1 but no GPU: {e}")),
        Err(e) => {
            eprintln!("*** no GPU ({e}): the GPU side of every case is skipped ***");
            Ok(None)
        }
    }
}

/// Prints failures and skips, the summary line, writes the report; returns the exit status.
pub fn finish(name: &str, results: &[CaseResult], report: Option<&Path>) -> i32 {
    let (mut pass, mut fail, mut skip) = (0, 0, 0);
    for r in results {
        match &r.verdict {
            Verdict::Pass => pass += 1,
            Verdict::Fail(msgs) => {
                fail += 1;
                println!("FAIL {} ({})", r.name, r.path.display());
                for m in msgs.iter().take(8) {
                    println!("    {m}");
                }
                if msgs.len() > 8 {
                    println!("    … {} more", msgs.len() - 8);
                }
            }
            Verdict::Skip(why) => {
                skip += 1;
                println!("SKIP {}: {why}", r.name);
            }
        }
    }
    let summary = format!("{name}: {pass} passed, {fail} failed, {skip} skipped");
    if let Some(dir) = report {
        match gpu_harness::report::write(dir, name, &summary, results) {
            Ok(()) => println!("report: {}", dir.join("index.html").display()),
            Err(e) => {
                eprintln!("{name}: writing the report to {}: {e}", dir.display());
                println!("{summary}");
                return 1;
            }
        }
    }
    println!("{summary}");
    if fail > 0 {
        1
    } else {
        0
    }
}

/// The case folders `conformance` draws by default: the project's cases, then the shared
/// conformance, fixed-function and vkd3d cases where present.
pub fn default_case_dirs(root: &Path, shared: Option<&Path>) -> Vec<PathBuf> {
    let mut case_dirs = vec![root.join("shaders/cases")];
    match shared {
        Some(s) if s.join("conformance").is_dir() => case_dirs.push(s.join("conformance")),
        _ => eprintln!("../shared/conformance is absent: running the project's own cases only"),
    }
    // The Windows-measured fixed-function cases (docs/case-format.md#fixed-function), then
    // vkd3d's HLSL tests as its Direct3D 9 runner draws them.
    for sub in ["conformance-ffp", "conformance-vkd3d"] {
        if let Some(d) = shared.map(|s| s.join(sub)).filter(|d| d.is_dir()) {
            case_dirs.push(d);
        }
    }
    case_dirs
}

/// The folders case files' shader names resolve against by default: the shared corpora (with
/// vkd3d's, for its cases) where present, and the project's shaders/.
pub fn default_corpus_roots(root: &Path, shared: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for sub in ["corpus", "corpus-vkd3d"] {
        if let Some(d) = shared.map(|s| s.join(sub)).filter(|d| d.is_dir()) {
            roots.push(d);
        }
    }
    roots.push(root.join("shaders"));
    roots
}

/// The case files of `case_dirs` in order, and a failed result for each folder that cannot be read.
pub fn case_list(case_dirs: &[PathBuf]) -> (Vec<PathBuf>, Vec<CaseResult>) {
    let mut files = Vec::new();
    let mut results = Vec::new();
    for dir in case_dirs {
        match case_files(dir) {
            Ok(f) => files.extend(f),
            Err(e) => results.push(CaseResult {
                name: dir.display().to_string(),
                path: dir.clone(),
                verdict: Verdict::Fail(vec![format!("cannot read the case folder: {e}")]),
                notes: vec![],
                images: vec![],
            }),
        }
    }
    (files, results)
}

/// Loads and draws one case file; a file that does not load is a failure.
pub fn run_case_file(runner: &Runner, f: &Path) -> CaseResult {
    match Case::load(f) {
        Ok(case) => runner.run_case(&case, f),
        Err(e) => CaseResult {
            name: f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            path: f.to_path_buf(),
            verdict: Verdict::Fail(vec![e.to_string()]),
            notes: vec![],
            images: vec![],
        },
    }
}

/// `cargo xtask conformance`.
pub fn main(args: &ConformanceArgs) -> i32 {
    let backend = match args.backend {
        BackendArg::Gpu => Backend::Gpu,
        BackendArg::Cpu => Backend::Cpu,
        BackendArg::Both => Backend::Both,
    };
    let root = repo_root();
    let shared = shared_dir();
    let case_dirs =
        if args.cases.is_empty() { default_case_dirs(&root, shared.as_deref()) } else { args.cases.clone() };
    let mut roots = args.common.corpus.clone();
    if roots.is_empty() {
        roots = default_corpus_roots(&root, shared.as_deref());
    } else {
        roots.push(root.join("shaders"));
    }

    let gpu = match open_gpu(backend, args.common.adapter.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            println!("conformance: 0 passed, 1 failed, 0 skipped");
            return 1;
        }
    };
    let delivering = Delivering(args.deliver);
    let counting = Counting { delivery: args.deliver, ..Counting::default() };
    let gpu_shaders: &dyn gpu_harness::runner::ShaderGpu =
        if args.count_translations { &counting } else { &delivering };
    let runner = Runner {
        float_rules: args.common.float_rules,
        ffp_mode: args.ffp_mode.mode(),
        ..Runner::new(gpu.as_ref(), &Interpreter, gpu_shaders, roots, backend)
    };

    let (mut files, mut results) = case_list(&case_dirs);
    if let Some(f) = &args.common.filter {
        files.retain(|p| p.to_string_lossy().contains(f.as_str()));
    }
    let mut progress = Progress::new(files.len());
    for f in &files {
        let result = run_case_file(&runner, f);
        progress.step(&result.name, &result.verdict);
        results.push(result);
    }
    if args.count_translations {
        let (shaders, translations) = counting.counts();
        println!(
            "translations: {translations} distinct (shader, key) pairs for {shaders} distinct shaders ({} delivery)",
            args.deliver
        );
    }
    finish("conformance", &results, args.common.report.as_deref())
}

/// The corpus folders `sweep` draws by default: shaders/, then the shared corpora where present.
pub fn default_sweep_dirs(root: &Path, shared: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("shaders")];
    for sub in ["corpus", "bench-corpus", "real-corpus", "real-corpus-xray"] {
        if let Some(d) = shared.map(|s| s.join(sub)).filter(|d| d.is_dir()) {
            dirs.push(d);
        }
    }
    dirs
}

/// `cargo xtask sweep`.
pub fn sweep_main(sweep_args: &SweepArgs) -> i32 {
    let args = &sweep_args.common;
    let inputs_of = match sweep_args.inputs_of.as_deref().map(gpu_harness::shaders::tokens).transpose() {
        Ok(tokens) => tokens,
        Err(e) => {
            eprintln!("sweep: --inputs-of: {e}");
            return 2;
        }
    };
    let options = sweep::SweepOptions { inputs: sweep_args.inputs, float_rules: args.float_rules, inputs_of };
    let root = repo_root();
    let mut dirs = args.corpus.clone();
    if dirs.is_empty() {
        dirs = default_sweep_dirs(&root, shared_dir().as_deref());
    }
    let gpu = match open_gpu(Backend::Both, args.adapter.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            println!("sweep: 0 passed, 1 failed, 0 skipped");
            return 1;
        }
    };
    let mut shaders = Vec::new();
    for d in &dirs {
        shaders.extend(sweep::shader_files(d));
    }
    if let Some(f) = &args.filter {
        shaders.retain(|p| p.to_string_lossy().contains(f.as_str()));
    }
    let shaders: Vec<PathBuf> = shaders.into_iter().step_by(sweep_args.sample as usize).collect();
    let mut progress = Progress::new(shaders.len());
    let mut results = Vec::new();
    for s in &shaders {
        let r = sweep::run_shader(s, gpu.as_ref(), &Interpreter, &Translator, &options);
        progress.step(&r.name, &r.verdict);
        results.push(r);
    }
    finish("sweep", &results, args.report.as_deref())
}
