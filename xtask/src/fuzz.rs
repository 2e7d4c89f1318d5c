//! `cargo xtask fuzz [--iterations N] [--seed S] [--target T]... [--jobs J] [--out DIR]`: byte-level
//! fuzzing of every entry point (the cases are `d3d9_tests::fuzz`'s).
//!
//! Runs N cases per target (decode, validate, asm, disasm, translate, interp; `all` by default)
//! in the `fuzz` profile (release optimisation with overflow checks and debug assertions: an
//! overflow is a bug the fuzzer must see, and so is a debug build's cross-check failing, such as
//! the validator's shortcuts disagreeing with its full rules), spread over J threads. A panic, an operation over one second or an error
//! that does not say where is a failure, saved as a reproducer under DIR (default
//! `target/fuzz-failures`). A watchdog ends the run, saving the case, if one operation runs past
//! 30 s (a hang). Ends with `fuzz: N passed, M failed` and exits non-zero on any failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::builder::PossibleValuesParser;
use clap::Args;
use d3d9_shader::fuzz::Rng;
use d3d9_tests::fuzz::{quiet_panics, run_case, save_reproducer, Seeds, Target};
use indicatif::ProgressBar;

/// `cargo xtask fuzz`.
#[derive(Args)]
#[command(
    long_about = "Mutates corpus shaders and assembly text and feeds them to every entry point: no panic, \
                  no operation over 1 s, every error names its token or line. N cases per target; a \
                  failure is saved as a reproducer under DIR. --case K runs case K of each target alone \
                  (what a failure report names).",
    after_help = crate::examples!(
        "cargo xtask fuzz"
        "cargo xtask fuzz --iterations 10000 --target translate --target interp"
        "cargo xtask fuzz --target asm --seed 0xf022 --case 4711"
    )
)]
pub struct FuzzArgs {
    /// Cases per target.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 100_000)]
    iterations: u64,
    /// The run's seed (decimal or 0x hex).
    #[arg(long, value_name = "S", value_parser = parse_int, default_value = "0xf022")]
    seed: u64,
    /// An entry point to fuzz (repeatable) [default: all].
    #[arg(long = "target", value_name = "T", value_parser = target_names())]
    targets: Vec<String>,
    /// Worker threads [default: every core].
    #[arg(short, long, value_name = "J")]
    jobs: Option<usize>,
    /// Where reproducers go [default: target/fuzz-failures].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Run case K of each target alone.
    #[arg(long, value_name = "K")]
    case: Option<u64>,
    /// Set when the command runs itself again in the `fuzz` profile.
    #[arg(long, hide = true)]
    in_profile: bool,
}

/// The `--target` values: each target's name, and `all`.
fn target_names() -> PossibleValuesParser {
    PossibleValuesParser::new(Target::ALL.iter().map(|t| t.name()).chain(["all"]))
}

/// A case longer than this is a hang: the run stops and saves it.
const HANG: Duration = Duration::from_secs(30);

struct Settings {
    iterations: u64,
    seed: u64,
    targets: Vec<Target>,
    jobs: usize,
    out: PathBuf,
    /// Run this case number only.
    case: Option<u64>,
}

fn settings(args: &FuzzArgs, root: &Path) -> Settings {
    let mut targets = Vec::new();
    for name in &args.targets {
        match Target::from_name(name) {
            Some(t) => targets.push(t),
            None => targets.extend(Target::ALL),
        }
    }
    if targets.is_empty() {
        targets.extend(Target::ALL);
    }
    Settings {
        iterations: args.iterations,
        seed: args.seed,
        targets,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1),
        out: args.out.clone().unwrap_or_else(|| root.join("target/fuzz-failures")),
        case: args.case,
    }
}

fn parse_int(v: &str) -> Result<u64, String> {
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => v.parse(),
    }
    .map_err(|e| e.to_string())
}

pub fn main(args: &FuzzArgs) -> i32 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    if cfg!(debug_assertions) && !args.in_profile {
        // Millions of cases need an optimised build; the `fuzz` profile keeps overflow checks.
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(&root)
            .args(["run", "--quiet", "--profile", "fuzz", "--package", "xtask", "--", "fuzz", "--in-profile"])
            .args(crate::command_args())
            .status();
        return match status {
            Ok(s) => s.code().unwrap_or(1),
            Err(e) => {
                eprintln!("xtask: cannot run cargo: {e}");
                1
            }
        };
    }
    run(&settings(args, &root))
}

/// What the watchdog sees of the case in flight on each thread.
#[derive(Default)]
struct InFlight {
    /// Milliseconds since the run's start when the case began; 0 when idle.
    since_ms: AtomicU64,
    /// The case number in flight.
    case: AtomicU64,
}

fn run(s: &Settings) -> i32 {
    quiet_panics();
    let seeds = Arc::new(Seeds::load());
    println!(
        "fuzz: {} seed shaders ({}); {} case(s) per target, seed {:#x}, {} thread(s); reproducers go to {}",
        seeds.shaders.len(),
        seeds.origin,
        s.iterations,
        s.seed,
        s.jobs,
        s.out.display()
    );
    let start = Instant::now();
    let mut passed_total = 0u64;
    let mut failed_total = 0u64;
    for &target in &s.targets {
        let run = TargetRun {
            target,
            start,
            t0: Instant::now(),
            tally: Arc::new(Tally::default()),
            flights: (0..s.jobs).map(|_| Arc::new(InFlight::default())).collect(),
            bar: crate::progress::bar(if s.case.is_some() { 1 } else { s.iterations }),
        };
        run.bar.set_message(target.name());
        let workers: Vec<_> = (0..s.jobs).map(|job| run.spawn(s, job, &seeds)).collect();
        run.watch(s, &workers, (passed_total, failed_total));
        for w in workers {
            let _ = w.join();
        }
        run.bar.finish_and_clear();
        let tally = &run.tally;
        let (p, f) = (tally.passed.load(Ordering::Relaxed), tally.failed.load(Ordering::Relaxed));
        println!(
            "fuzz: {:9} {p} passed, {f} failed in {:.1} s (slowest case {:.1} ms; {} got through: {})",
            target.name(),
            run.t0.elapsed().as_secs_f64(),
            tally.slowest.lock().unwrap().as_secs_f64() * 1e3,
            tally.reached.load(Ordering::Relaxed),
            match target {
                Target::Decode => "decoded or loaded",
                Target::Validate | Target::Disasm => "decoded",
                Target::Asm => "assembled",
                Target::Translate => "translated",
                Target::Interp => "ran to the end",
                Target::Effect => "parsed",
            }
        );
        passed_total += p;
        failed_total += f;
    }
    println!("fuzz: total time {:.1} s", start.elapsed().as_secs_f64());
    println!("fuzz: {passed_total} passed, {failed_total} failed");
    (failed_total > 0) as i32
}

/// One target's counts, shared by its workers.
#[derive(Default)]
struct Tally {
    passed: AtomicU64,
    failed: AtomicU64,
    /// Cases that got through the target's first stage (decoded, assembled, translated…).
    reached: AtomicU64,
    done: AtomicU64,
    slowest: Mutex<Duration>,
}

/// The run of one target: its workers' counts and cases in flight, and its progress bar.
struct TargetRun {
    target: Target,
    /// When the whole run started (the in-flight times count from it).
    start: Instant,
    /// When this target started.
    t0: Instant,
    tally: Arc<Tally>,
    flights: Vec<Arc<InFlight>>,
    bar: ProgressBar,
}

impl TargetRun {
    /// Worker `job`: cases `job`, `job + jobs`, … (or the one case asked for).
    fn spawn(&self, s: &Settings, job: usize, seeds: &Arc<Seeds>) -> std::thread::JoinHandle<()> {
        let (seeds, tally, flight) = (seeds.clone(), self.tally.clone(), self.flights[job].clone());
        let (out, bar, target, start) = (s.out.clone(), self.bar.clone(), self.target, self.start);
        let (iterations, jobs, seed, only) = (s.iterations, s.jobs as u64, s.seed, s.case);
        std::thread::spawn(move || {
            // Case k of the run is case k wherever it runs: its generator is seeded by
            // (seed, target, k), so a reported case number reproduces alone.
            let (mut case, end) = match only {
                Some(k) => (k + job as u64, k + 1),
                None => (job as u64, iterations),
            };
            while case < end {
                let mut rng = Rng::new(seed ^ (target as u64) << 56 ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                flight.case.store(case, Ordering::SeqCst);
                flight.since_ms.store(start.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
                let outcome = run_case(target, &seeds, &mut rng);
                flight.since_ms.store(0, Ordering::SeqCst);
                tally.reached.fetch_add(outcome.reached as u64, Ordering::Relaxed);
                {
                    let mut m = tally.slowest.lock().unwrap();
                    *m = (*m).max(outcome.elapsed);
                }
                if let Some(f) = &outcome.failure {
                    tally.failed.fetch_add(1, Ordering::Relaxed);
                    let saved = save_reproducer(&out, target, case, &outcome)
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|e| format!("(not saved: {e})"));
                    let line = format!(
                        "fuzz: {} case {case}: {}\n      reproducer: {saved}",
                        target.name(),
                        first_line(&f.to_string())
                    );
                    crate::progress::println(&bar, &line);
                } else {
                    tally.passed.fetch_add(1, Ordering::Relaxed);
                }
                tally.done.fetch_add(1, Ordering::Relaxed);
                case += jobs;
            }
        })
    }

    /// Progress and the watchdog until the workers finish: a case that runs longer than
    /// [`HANG`] stops the process. `totals`: the earlier targets' passed and failed counts.
    fn watch(&self, s: &Settings, workers: &[std::thread::JoinHandle<()>], (passed_total, failed_total): (u64, u64)) {
        let (target, tally, bar) = (self.target, &self.tally, &self.bar);
        let mut last_report = Instant::now();
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(200));
            bar.set_position(tally.done.load(Ordering::Relaxed));
            let now = self.start.elapsed().as_millis() as u64;
            for f in &self.flights {
                let since = f.since_ms.load(Ordering::SeqCst);
                if since != 0 && now.saturating_sub(since) > HANG.as_millis() as u64 {
                    let case = f.case.load(Ordering::SeqCst);
                    bar.finish_and_clear();
                    println!(
                        "fuzz: {} case {case} hangs (it has run {} s); stopping. Reproduce with \
                         `cargo xtask fuzz --target {} --seed {:#x} --case {case}`",
                        target.name(),
                        (now - since) / 1000,
                        target.name(),
                        s.seed
                    );
                    println!(
                        "fuzz: {passed_total} passed, {} failed",
                        failed_total + tally.failed.load(Ordering::Relaxed) + 1
                    );
                    std::process::exit(1);
                }
            }
            // Without a bar (not a terminal: a log), a line every 10 s.
            if bar.is_hidden() && last_report.elapsed() > Duration::from_secs(10) {
                last_report = Instant::now();
                let n = tally.done.load(Ordering::Relaxed);
                println!(
                    "fuzz: {} {n}/{} ({:.0} cases/s), {} failed",
                    target.name(),
                    s.iterations,
                    n as f64 / self.t0.elapsed().as_secs_f64(),
                    tally.failed.load(Ordering::Relaxed)
                );
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
