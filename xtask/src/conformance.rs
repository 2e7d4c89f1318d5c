//! `cargo xtask conformance` and `cargo xtask sweep`: draw cases (or whole corpora) on the GPU and
//! on the CPU reference, compare, report.
//!
//! Each command ends with one line `NAME: N passed, M failed, K skipped` (skips are listed with
//! their reason above it; a skip is not a pass) and exits non-zero when anything failed. On a
//! terminal a progress bar shows the run; elsewhere (CI) each case gets a plain log line.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use gpu_harness::case::{case_files, Case};
use gpu_harness::device::{gpu_required, Gpu};
use gpu_harness::interpreted::Interpreter;
use gpu_harness::runner::{Backend, CaseResult, Runner, Verdict};
use gpu_harness::sweep;
use gpu_harness::translated::Translator;

const USAGE: &str = "\
usage: cargo xtask conformance [--cases DIR]... [--corpus DIR]... [--backend gpu|cpu|both] [--report DIR] [--adapter NAME]

Draws every case (*.toml) on the GPU and on the CPU reference, checks its probes on both and
compares the two images. Defaults: the project's cases in shaders/cases/, plus ../shared/conformance
when present; shader names resolve against the corpus folders (default ../shared/corpus when
present) and the project's shaders/.";

const SWEEP_USAGE: &str = "\
usage: cargo xtask sweep [--corpus DIR]... [--report DIR] [--adapter NAME] [--filter TEXT]

Draws every shader of each corpus folder with generated inputs (deterministic pseudo-random
constants and attributes, a pass-through partner stage, textures with distinct texels) into float
targets on the GPU and on the CPU, and compares the images. Default: shaders/ plus ../shared/corpus
and ../shared/bench-corpus when present.";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// `../shared` (or `D3D9_SHARED`) when present; under `REQUIRE_SHARED=1` (CI) its absence ends
/// the run, since the shared cases and corpora would otherwise be skipped silently.
fn shared_dir() -> Option<PathBuf> {
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

struct Args {
    cases: Vec<PathBuf>,
    corpus: Vec<PathBuf>,
    backend: Backend,
    report: Option<PathBuf>,
    adapter: Option<String>,
    filter: Option<String>,
}

fn parse_args(args: &[String], usage: &str) -> Result<Args, String> {
    let mut a =
        Args { cases: vec![], corpus: vec![], backend: Backend::Both, report: None, adapter: None, filter: None };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{arg} needs a value\n\n{usage}"));
        match arg.as_str() {
            "--cases" => a.cases.push(value()?.into()),
            "--corpus" => a.corpus.push(value()?.into()),
            "--report" => a.report = Some(value()?.into()),
            "--adapter" => a.adapter = Some(value()?),
            "--filter" => a.filter = Some(value()?),
            "--backend" => {
                a.backend = match value()?.as_str() {
                    "gpu" => Backend::Gpu,
                    "cpu" => Backend::Cpu,
                    "both" => Backend::Both,
                    other => return Err(format!("--backend {other}: expected gpu, cpu or both")),
                }
            }
            "-h" | "--help" => return Err(usage.to_string()),
            other => return Err(format!("unknown argument `{other}`\n\n{usage}")),
        }
    }
    Ok(a)
}

/// Progress: a bar on a terminal, a line per item elsewhere.
pub struct Progress {
    total: usize,
    done: usize,
    tty: bool,
}

impl Progress {
    /// Starts a progress display for `total` items.
    pub fn new(total: usize) -> Progress {
        Progress { total, done: 0, tty: std::io::stderr().is_terminal() }
    }

    /// One item finished.
    pub fn step(&mut self, name: &str, verdict: &Verdict) {
        self.done += 1;
        let word = match verdict {
            Verdict::Pass => "pass",
            Verdict::Fail(_) => "FAIL",
            Verdict::Skip(_) => "skip",
        };
        let mut err = std::io::stderr();
        if self.tty {
            let width = 30;
            let filled = width * self.done / self.total.max(1);
            let _ = write!(
                err,
                "\r[{}{}] {}/{} {:<50.50}",
                "#".repeat(filled),
                " ".repeat(width - filled),
                self.done,
                self.total,
                name
            );
            if self.done == self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(err, "[{}/{}] {word} {name}", self.done, self.total);
        }
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

/// `cargo xtask conformance`.
pub fn main(args: &[String]) -> i32 {
    let args = match parse_args(args, USAGE) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let root = repo_root();
    let shared = shared_dir();
    let mut case_dirs = args.cases.clone();
    if case_dirs.is_empty() {
        case_dirs.push(root.join("shaders/cases"));
        match &shared {
            Some(s) if s.join("conformance").is_dir() => case_dirs.push(s.join("conformance")),
            _ => eprintln!("../shared/conformance is absent: running the project's own cases only"),
        }
    }
    let mut roots = args.corpus.clone();
    if roots.is_empty() {
        if let Some(s) = shared.as_ref().filter(|s| s.join("corpus").is_dir()) {
            roots.push(s.join("corpus"));
        }
    }
    roots.push(root.join("shaders"));

    let gpu = match open_gpu(args.backend, args.adapter.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            println!("conformance: 0 passed, 1 failed, 0 skipped");
            return 1;
        }
    };
    let runner = Runner {
        gpu: gpu.as_ref(),
        cpu_shaders: Some(&Interpreter),
        gpu_shaders: Some(&Translator),
        roots,
        backend: args.backend,
        preloaded: Default::default(),
        channel_masks: vec![],
    };

    let mut files = Vec::new();
    let mut results = Vec::new();
    for dir in &case_dirs {
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
    if let Some(f) = &args.filter {
        files.retain(|p| p.to_string_lossy().contains(f.as_str()));
    }
    let mut progress = Progress::new(files.len());
    for f in &files {
        let result = match Case::load(f) {
            Ok(case) => runner.run_case(&case, f),
            Err(e) => CaseResult {
                name: f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
                path: f.clone(),
                verdict: Verdict::Fail(vec![e.to_string()]),
                notes: vec![],
                images: vec![],
            },
        };
        progress.step(&result.name, &result.verdict);
        results.push(result);
    }
    finish("conformance", &results, args.report.as_deref())
}

/// `cargo xtask sweep`.
pub fn sweep_main(args: &[String]) -> i32 {
    let args = match parse_args(args, SWEEP_USAGE) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let root = repo_root();
    let mut dirs = args.corpus.clone();
    if dirs.is_empty() {
        dirs.push(root.join("shaders"));
        if let Some(s) = shared_dir() {
            for sub in ["corpus", "bench-corpus"] {
                if s.join(sub).is_dir() {
                    dirs.push(s.join(sub));
                }
            }
        }
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
    let mut progress = Progress::new(shaders.len());
    let mut results = Vec::new();
    for s in &shaders {
        let r = sweep::run_shader(s, gpu.as_ref(), &Interpreter, &Translator);
        progress.step(&r.name, &r.verdict);
        results.push(r);
    }
    finish("sweep", &results, args.report.as_deref())
}
