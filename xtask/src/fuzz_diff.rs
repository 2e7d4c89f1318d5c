//! `cargo xtask fuzz-diff [--count N | --minutes M] [--seed S] [--version V]... [--out DIR]`:
//! random valid programs drawn on the GPU and on the CPU reference, compared (`d3d9_tests::diff`).
//!
//! Program k of the run is `generate(version, seed + k / V)` for the k-th of the V versions in
//! turn (all the versions the generator covers, or those given). `--minutes` runs programs until
//! the time is spent instead of N of them, from a start seed it prints (the clock's when `--seed`
//! is not given, [`crate::fuzz_budget`]), and ends with the count and the last seed. A mismatch is shrunk to a small program that
//! still mismatches and passes the strict validator; its case file (the harness's TOML format),
//! the shaders' `.hex` and `.asm` listings and the runner's messages go to DIR/NAME.*
//! (default `target/fuzz-diff`). Each program's WGSL also goes through Tint, Chromium's WGSL
//! compiler (`d3d9_tests::tint`): a refusal of a module or of the pair's pipeline is a failure,
//! shrunk and saved the same way. Ends with `fuzz-diff: N passed, M failed, K skipped`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use d3d9_shader::bytecode::Version;
use d3d9_tests::diff::{case_for, run, shrink, tint_check, write_case, DiffOutcome};
use d3d9_tests::generate::{generate, versions, Generated};
use d3d9_tests::tint::Tint;
use d3d9_tests::tint_check::Checker;

use crate::fuzz_budget::{start_seed, Budget};

/// `cargo xtask fuzz-diff`.
#[derive(Args)]
#[command(
    long_about = "Generates N random valid programs across the versions, draws each on the GPU and on the \
                  CPU interpreter into float targets, and compares. Mismatches are shrunk and saved under \
                  DIR as case files with their shaders. Each program's pair also goes through Tint \
                  (Chromium's WGSL compiler): a refusal is a failure, shrunk and saved the same way.\n\n\
                  --ffp draws N random fixed-function states instead (the library's generator on the \
                  GPU, the harness's independent reference on the CPU); a mismatch is shrunk to a \
                  smaller state and saved as a case file.",
    after_help = crate::examples!(
        "cargo xtask fuzz-diff"
        "cargo xtask fuzz-diff --count 1000 --seed 7 --version ps_3_0 --version vs_3_0"
        "cargo xtask fuzz-diff --minutes 10"
        "cargo xtask fuzz-diff --ffp --count 2000"
    )
)]
pub struct FuzzDiffArgs {
    /// Programs to generate.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 200)]
    count: u64,
    /// Generate until M minutes are spent instead of N programs (M may be fractional).
    #[arg(long, value_name = "M", conflicts_with = "count", value_parser = crate::fuzz_budget::minutes)]
    minutes: Option<f64>,
    /// The first generator seed [default: 0; with --minutes, the clock's seconds since 1970].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// A version to generate (repeatable) [default: every version the generator covers].
    #[arg(long = "version", value_name = "V", value_parser = generated_version)]
    versions: Vec<Version>,
    /// Where mismatches go [default: target/fuzz-diff].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The adapter whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    adapter: Option<String>,
    /// Random fixed-function states instead of programs (`--version` does not apply).
    #[arg(long, conflicts_with = "versions")]
    ffp: bool,
}

fn generated_version(name: &str) -> Result<Version, String> {
    versions().into_iter().find(|v| v.to_string() == name).ok_or_else(|| {
        let all: Vec<String> = versions().iter().map(|v| v.to_string()).collect();
        format!("not a version the generator covers ({})", all.join(", "))
    })
}

/// What a run draws and where its failures go.
pub struct Settings {
    /// How many programs (or how long).
    pub budget: Budget,
    /// The first seed.
    pub seed: u64,
    /// The versions, in turn.
    pub versions: Vec<Version>,
    /// Where the shrunk failures go.
    pub out: PathBuf,
    /// The adapter whose name contains this.
    pub adapter: Option<String>,
}

fn settings(args: &FuzzDiffArgs, root: &Path) -> Settings {
    let budget = Budget::new(args.count, args.minutes);
    Settings {
        budget,
        seed: start_seed(args.seed, &budget),
        versions: if args.versions.is_empty() { versions() } else { args.versions.clone() },
        out: args.out.clone().unwrap_or_else(|| root.join("target/fuzz-diff")),
        adapter: args.adapter.clone(),
    }
}

/// The Tint checker, `Ok(None)` (said loudly) when node or its package is missing, and `Err`
/// then under `REQUIRE_TOOLS=1`.
pub fn tint_checker() -> Result<Option<Checker>, ()> {
    match Tint::start() {
        Ok(t) => Ok(Some(Checker::new(vec![t]).sending_duplicates())),
        Err(e) if std::env::var_os("REQUIRE_TOOLS").is_some_and(|v| v == "1") => {
            eprintln!("xtask fuzz-diff: REQUIRE_TOOLS=1 but {e}");
            Err(())
        }
        Err(e) => {
            eprintln!("xtask fuzz-diff: WARNING: {e}; the WGSL is not checked by Tint");
            Ok(None)
        }
    }
}

/// Tint's refusal of `g`'s case (the pair's modules and pipeline), if it refuses it.
fn tint_refusal(g: &Generated, name: &str, checker: &mut Checker) -> Option<Vec<String>> {
    let result = tint_check(g, name, checker).and_then(|_| checker.drain());
    match result {
        Ok(failures) if failures.is_empty() => None,
        Ok(failures) => Some(failures),
        Err(e) => Some(vec![format!("the Tint checker: {e}")]),
    }
}

/// What a shrunk program must still fail with: a mismatch on the same target (the message's
/// "target N"), a Tint refusal with the same message.
fn failure_kind(messages: &[String]) -> Option<String> {
    let first = messages.first()?;
    let tint = [": error: ", "createRenderPipeline: "].iter().find_map(|m| first.find(m).map(|i| i + m.len()));
    match tint {
        Some(i) => first[i..].lines().next().map(str::to_string),
        None => first.split("target ").nth(1)?.split(' ').next().map(|t| format!("target {t}")),
    }
}

/// Shrinks `g` while `fails` says it fails the same way, saves the case, its shaders and the
/// messages under `out`, and returns the line to print and the case file saved.
fn shrink_and_save(
    g: &Generated,
    name: &str,
    messages: Vec<String>,
    fails: &mut dyn FnMut(&Generated) -> Option<Vec<String>>,
    out: &Path,
) -> (String, Option<PathBuf>) {
    let before = g.program.instructions.len();
    let kind = failure_kind(&messages);
    let small = shrink(g, |candidate| fails(candidate).is_some_and(|m| failure_kind(&m) == kind), 400);
    let final_messages = fails(&small).unwrap_or(messages);
    let saved =
        case_for(&small, name).map_err(std::io::Error::other).and_then(|c| write_case(out, name, &c)).and_then(|p| {
            std::fs::write(p.with_extension("txt"), final_messages.join("\n") + "\n")?;
            Ok(p)
        });
    match saved {
        Ok(p) => (
            format!(
                "           shrunk from {before} to {} instructions: {}",
                small.program.instructions.len(),
                p.display()
            ),
            Some(p),
        ),
        Err(e) => (format!("           (not saved: {e})"), None),
    }
}

/// A program that failed: its name (`VERSION_SEED`), what went wrong and its shrunk case file.
pub struct Failure {
    /// `ps_3_0_17`.
    pub name: String,
    /// The generator's version and seed, which make the program again.
    pub version: Version,
    /// The seed.
    pub seed: u64,
    /// "MISMATCH: …" or "REFUSED BY TINT: …" (the first message).
    pub message: String,
    /// The shrunk case file, when it could be saved.
    pub saved: Option<PathBuf>,
}

/// What a program came to.
enum Verdict {
    Passed,
    Skipped,
    Failed(String, Option<PathBuf>),
}

/// What a batch of programs came to.
#[derive(Default)]
pub struct Tally {
    /// Programs generated (including those the generator declined).
    pub programs: u64,
    /// Passed, failed and skipped programs.
    pub passed: u64,
    /// Failed.
    pub failed: u64,
    /// Skipped.
    pub skipped: u64,
    /// Each failure.
    pub failures: Vec<Failure>,
    /// Whether the deadline ended the batch before its budget did.
    pub stopped_early: bool,
}

/// Draws `g` on both sides and through Tint; prints and saves (shrunk) what fails.
fn check(
    g: &Generated,
    name: &str,
    gpu: &gpu_harness::device::Gpu,
    tint: &mut Option<Checker>,
    s: &Settings,
    bar: &indicatif::ProgressBar,
) -> Verdict {
    let work = s.out.join("work");
    let outcome = match (run(g, name, Some(gpu), &work), tint.as_mut()) {
        (DiffOutcome::Pass, Some(checker)) => match tint_refusal(g, name, checker) {
            Some(messages) => Err(("REFUSED BY TINT", messages)),
            None => Ok(None),
        },
        (DiffOutcome::Pass, None) => Ok(None),
        (DiffOutcome::Skip(why), _) => Ok(Some(why)),
        (DiffOutcome::Mismatch(messages), _) => Err(("MISMATCH", messages)),
    };
    let (what, messages) = match outcome {
        Ok(None) => return Verdict::Passed,
        Ok(Some(why)) => {
            crate::progress::println(bar, &format!("fuzz-diff: {name} skipped: {why}"));
            return Verdict::Skipped;
        }
        Err(failure) => failure,
    };
    let first = messages.first().map(String::as_str).unwrap_or("").to_string();
    crate::progress::println(bar, &format!("fuzz-diff: {name} {what}: {first}"));
    let (line, saved) = if what == "MISMATCH" {
        let mut fails = |c: &Generated| match run(c, &format!("{name}_shrink"), Some(gpu), &work) {
            DiffOutcome::Mismatch(m) => Some(m),
            _ => None,
        };
        shrink_and_save(g, name, messages, &mut fails, &s.out)
    } else {
        let checker = tint.as_mut().expect("a Tint refusal comes from the checker");
        let mut fails = |c: &Generated| tint_refusal(c, &format!("{name}_shrink"), checker);
        shrink_and_save(g, name, messages, &mut fails, &s.out)
    };
    crate::progress::println(bar, &line);
    Verdict::Failed(format!("{what}: {first}"), saved)
}

/// Draws the programs `s.budget` allows on `gpu`, none after `deadline`; prints and saves the
/// failures as it goes.
pub fn batch(
    gpu: &gpu_harness::device::Gpu,
    tint: &mut Option<Checker>,
    s: &Settings,
    deadline: Option<Instant>,
) -> Tally {
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut last = Instant::now();
    let bar = s.budget.bar();
    let versions = s.versions.len() as u64;
    let mut k = 0;
    while s.budget.allows(k, start) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            tally.stopped_early = true;
            break;
        }
        s.budget.show(&bar, k, start);
        let v = s.versions[(k % versions) as usize];
        let seed = s.seed + k / versions;
        k += 1;
        let Some(g) = generate(v, seed) else { continue };
        let name = format!("{}_{seed}", v.to_string().replace('.', "_"));
        match check(&g, &name, gpu, tint, s, &bar) {
            Verdict::Passed => tally.passed += 1,
            Verdict::Skipped => tally.skipped += 1,
            Verdict::Failed(message, saved) => {
                tally.failed += 1;
                tally.failures.push(Failure { name, version: v, seed, message, saved });
            }
        }
        // Without a bar (not a terminal: a log), a line every 10 s.
        if bar.is_hidden() && last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            let rate = k as f64 / start.elapsed().as_secs_f64();
            println!("fuzz-diff: {k} ({rate:.1} programs/s), {} failed", tally.failed);
        }
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(s.out.join("work"));
    tally.programs = k;
    tally
}

pub fn main(args: &FuzzDiffArgs) -> i32 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    let s = settings(args, &root);
    if args.ffp {
        return crate::fuzz_diff_ffp::main(s.budget, s.seed, &s.out, s.adapter.as_deref());
    }
    let gpu = match gpu_harness::device::Gpu::new(s.adapter.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("xtask fuzz-diff: no GPU device: {e}");
            println!("fuzz-diff: 0 passed, 0 failed, {} skipped", s.budget.planned());
            return 1;
        }
    };
    println!("fuzz-diff: {} from seed {} on {}", s.budget.describe("program"), s.seed, gpu.describe());
    let Ok(mut tint) = tint_checker() else { return 1 };
    let start = Instant::now();
    let tally = batch(&gpu, &mut tint, &s, None);
    let k = tally.programs;
    println!("fuzz-diff: {:.1} s", start.elapsed().as_secs_f64());
    if k > 0 {
        let versions = s.versions.len() as u64;
        println!("fuzz-diff: {k} program(s), seeds {} to {}", s.seed, s.seed + (k - 1) / versions);
    }
    println!("fuzz-diff: {} passed, {} failed, {} skipped", tally.passed, tally.failed, tally.skipped);
    (tally.failed > 0) as i32
}
