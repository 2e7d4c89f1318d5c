//! `cargo xtask bench [--corpus DIR] [--reps N]`: times each pipeline stage per shader in a
//! release build and prints the per-stage medians over the corpus on one line.
//!
//! Each stage of each shader runs `reps` times (after one warm-up); the shader's time for the
//! stage is the median of those runs, and the line gives the median over shaders. `validate` is
//! the lenient D3D9 validator; `lower` includes the analysis. `total-spirv` is the median over
//! shaders of decode + validate + lower + naga-validate + spirv (bytecode to validated module to
//! SPIR-V), and shaders/s is its inverse.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clap::Args;

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::{decode, decode_bytes};
use d3d9_shader::validate::{validate, ValidationOptions};
use d3d9_shader::{emit, lower, ShaderKey};

/// `cargo xtask bench`.
#[derive(Args)]
#[command(
    long_about = "Times decode, validate, lower, naga validation, WGSL and SPIR-V emission for every \
                  shader of DIR (default ../shared/bench-corpus when present, else shaders/) in a release \
                  build. Shaders the lenient validator refuses are listed and not timed.\n\n--folder \
                  times `d3d9-shader translate DIR --to wgsl -o OUT` with one thread and with N (default: \
                  every core), ROUNDS times each, writing under --out (default target/), and prints the \
                  speed-up.",
    after_help = crate::examples!(
        "cargo xtask bench"
        "cargo xtask bench --corpus shaders --reps 50 --key float_rules=ieee"
        "cargo xtask bench --folder --out /dev/shm"
    )
)]
pub struct BenchArgs {
    /// The shaders to time.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Runs of each stage of each shader (the median is taken).
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(15).unwrap())]
    reps: NonZeroUsize,
    /// Key fields for the translation (repeatable; as `d3d9-shader translate --key`).
    #[arg(long = "key", value_name = "FIELD=VALUE", value_parser = key_field)]
    key: Vec<String>,
    /// Time folder conversion instead: one thread against --jobs.
    #[arg(long)]
    folder: bool,
    /// --folder: the rounds of each.
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(15).unwrap())]
    rounds: NonZeroUsize,
    /// --folder: the threads to compare with one [default: every core].
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    /// --folder: where the outputs go.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Set when the command runs itself again as a release build.
    #[arg(long, hide = true)]
    in_release: bool,
}

fn key_field(text: &str) -> Result<String, String> {
    ShaderKey::default().set(text)?;
    Ok(text.to_string())
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Median time of `f` over `reps` runs, in microseconds.
fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> f64 {
    std::hint::black_box(f());
    let mut runs: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(&mut runs)
}

pub fn main(args: &BenchArgs) -> i32 {
    let mut key = ShaderKey::default();
    for field in &args.key {
        if let Err(e) = key.set(field) {
            eprintln!("xtask bench: --key {e}");
            return 2;
        }
    }
    let (reps, rounds) = (args.reps.get(), args.rounds.get());
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()), |n| n.get());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    if cfg!(debug_assertions) && !args.in_release {
        // Timings of a debug build mean nothing: run again as a release build.
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(&root)
            .args(["run", "--quiet", "--release", "--package", "xtask", "--", "bench", "--in-release"])
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
    let dir = args.corpus.clone().unwrap_or_else(|| {
        let shared = root.parent().map(|p| p.join("shared/bench-corpus"));
        match shared {
            Some(s) if s.is_dir() => s,
            _ => root.join("shaders"),
        }
    });
    if args.folder {
        return crate::bench_folder::run(&root, &dir, rounds, jobs, args.out.as_deref());
    }
    let mut stages: [Vec<f64>; 6] = Default::default();
    let mut totals = Vec::new();
    let mut skipped = Vec::new();
    // The bench times valid shaders: the corpora's invalid/ examples are left out.
    let files: Vec<PathBuf> = d3d9_tests::hex_files(&dir).into_iter().filter(|p| !d3d9_tests::is_invalid(p)).collect();
    let bar = crate::progress::bar(files.len() as u64);
    for path in files {
        // The bar moves between shaders, outside every timed closure.
        bar.inc(1);
        let Some(tokens) = std::fs::read_to_string(&path).ok().and_then(|t| d3d9_shader::input::parse_hex(&t).ok())
        else {
            skipped.push(format!("{}: unreadable", path.display()));
            continue;
        };
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        let program = match decode_bytes(&bytes) {
            Ok(p) => p,
            Err(e) => {
                skipped.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let sig = analyse(&program);
        let lowered = match lower::lower(&program, &sig, &key) {
            Ok(l) => l,
            Err(e) => {
                skipped.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let info = match emit::validate(&lowered.module) {
            Ok(i) => i,
            Err(e) => {
                skipped.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let options = ValidationOptions::lenient();
        let validation = validate(&program, &options);
        if !validation.is_ok() {
            skipped.push(format!("{}: lenient validator: {}", path.display(), validation.errors[0]));
            continue;
        }
        let t_decode = time(reps, || decode(&tokens));
        let t_validate = time(reps, || validate(&program, &options));
        let t_lower = time(reps, || {
            let sig = analyse(&program);
            lower::lower(&program, &sig, &key)
        });
        let t_valid = time(reps, || emit::validate(&lowered.module));
        let t_wgsl = time(reps, || emit::wgsl(&lowered.module, &info));
        let t_spirv = time(reps, || emit::spirv(&lowered.module, &info));
        stages[0].push(t_decode);
        stages[1].push(t_validate);
        stages[2].push(t_lower);
        stages[3].push(t_valid);
        stages[4].push(t_wgsl);
        stages[5].push(t_spirv);
        totals.push(t_decode + t_validate + t_lower + t_valid + t_spirv);
    }
    bar.finish_and_clear();
    let n = totals.len();
    let m: Vec<f64> = stages.iter_mut().map(|s| median(s)).collect();
    let total = median(&mut totals);
    println!(
        "bench: {n} shaders, decode {:.1} µs, validate {:.1} µs, lower {:.1} µs, naga-validate {:.1} µs, wgsl {:.1} µs, spirv {:.1} µs, total-spirv {:.1} µs, {:.0} shaders/s",
        m[0], m[1], m[2], m[3], m[4], m[5], total, 1e6 / total
    );
    // Targets (issue 5): bytecode → validated module → SPIR-V within 55 µs, and the lowering no
    // slower than naga's validation + SPIR-V emission of the module it builds.
    if total > 55.0 {
        println!(
            "bench: note: total-spirv misses the 55 µs target by {:.1} µs; naga's own validation + SPIR-V emission take {:.1} µs of it",
            total - 55.0,
            m[3] + m[5]
        );
    }
    if m[2] > m[3] + m[5] {
        println!("bench: note: lowering ({:.1} µs) is slower than naga-validate + spirv ({:.1} µs)", m[2], m[3] + m[5]);
    }
    if !skipped.is_empty() {
        println!("bench: {} shaders of {} not timed (not translatable yet):", skipped.len(), dir.display());
        for s in &skipped {
            println!("  {s}");
        }
    }
    0
}
