//! `cargo xtask bench [--corpus DIR] [--list FILE] [--reps N] [--key FIELD=VALUE]...`: what a
//! user of the library waits for, per shader, in a release build.
//!
//! The whole pipeline is timed through the public API a runtime calls:
//! `Shader::parse(bytes, &ParseOptions::lenient())` (decode, lenient D3D9 validation, analysis)
//! → `.translate(&key)` (lowering, the writers' facts) → `.to_spirv()` or `.to_wgsl()`. Each stage
//! is also timed alone, in a run of the stages one after another where each takes the output
//! the stage before it has just made: `decode` (bytes → program), `validate` (the lenient
//! validator's checks that can refuse a program, `validate::errors`, as `Shader::parse` runs
//! them), `lower` (analysis + lowering), `facts` (`emit::Analysis::new`: the writers' facts; naga's
//! validation too in a debug or `full-validation` build), `spirv`, `wgsl`. The stages leave
//! out the reflection `Shader::parse` builds and the freeing of each stage's output, which the
//! totals include.
//!
//! The timing is round-robin: a round visits every shader once, in order, timing the SPIR-V
//! path of each, then the WGSL path of each, then the stages of each; one warm-up round is
//! dropped and `--reps` rounds are kept. Repeating one shader back to back would keep its code
//! and data in the caches and read low; a runtime translates one shader after another. A
//! shader's time is the median over rounds; the report gives the median and the mean over
//! shaders. `total-spirv` and `total-wgsl` are those medians for the whole pipeline.
//!
//! Allocations are counted by the xtask binary's global allocator ([`crate::alloc_count`]) on
//! one further, untimed run of each path per shader: calls (`alloc`, `alloc_zeroed`, `realloc`)
//! and bytes asked for, and the calls of each stage alone (decode, validate, analyse, lower,
//! facts, spirv, wgsl). The output sizes are the SPIR-V and WGSL bytes summed over the
//! corpus.
//!
//! The counted run also follows the heap's high-water mark: the peak heap one translation
//! needs (`peak-heap-spirv`, `peak-heap-wgsl`, median over shaders). The first translation in
//! a fresh process, which the warm-up round leaves out, is timed too ([`crate::bench_first`]).
//!
//! With the peers' timing programs (`--peers`, default `../shared/peers` when present), the
//! bench then times us side by side with MojoShader and vkd3d-shader on the same shaders and
//! reports the ratios ([`crate::bench_peers`]): on the bench's shaders, and on a real game's
//! (`--real-corpus`, default `../shared/real-corpus-xray` when present) against MojoShader.
//! Those ratios, not the µs, are the figures to compare between runs and machines.
//!
//! The report ends with one line that starts with `bench:` and holds every figure, the load
//! average last; see [`crate::bench_corpus`] for which file of a shader is read and how
//! `--list` matches names.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::decode_bytes;
use d3d9_shader::key::FloatRules;
use d3d9_shader::validate::{errors, ValidationOptions};
use d3d9_shader::{emit, lower, ParseOptions, Shader, ShaderKey};

use crate::alloc_count::{self, Allocs};
use crate::bench_corpus::{self, Entry};
use crate::bench_peers::{self, Blob, Corpus, Plan, PEERS};
use crate::stats::{mean, median};

/// `cargo xtask bench`.
#[derive(Args)]
#[command(
    long_about = "Times bytecode → SPIR-V and bytecode → WGSL through the public API (Shader::parse, \
                  translate, to_spirv / to_wgsl), and each stage alone, for one file per shader of DIR \
                  (default ../shared/bench-corpus when present, else shaders/; the .bin of a shader, else \
                  its .hex, else its .asm) in a release build, round-robin over the corpus. Prints the \
                  median and mean over shaders, allocations per shader and output sizes, and ends with one \
                  `bench:` line. Shaders that do not translate are listed and not timed. Also times the first \
                  translation in a fresh process and the peak heap of one translation, and, with the peers' \
                  timing programs (--peers DIR, default ../shared/peers when present), MojoShader and \
                  vkd3d-shader side by side with us, interleaved, on the shaders both accept, and on \
                  --real-corpus (default ../shared/real-corpus-xray when present) MojoShader: the ratios \
                  (ours / the peer's, under 1 = faster) are the figures to compare.\n\n--folder \
                  times `d3d9-shader translate FILES... --to wgsl -o OUT` (the same one file per shader) \
                  with one thread and with N (default: every core), ROUNDS times each, writing under --out \
                  (default target/), and prints the speed-up.\n\n--gpu draws the HEAVY (default 5) \
                  ps_3_0 and vertex shaders with the most instructions on the adapter under the strict \
                  (or with --rules fast, the fast) and the IEEE float rules, interleaved, ROUNDS times, \
                  and prints pipeline-creation and draw times, their ratios to IEEE and geometric means, \
                  then the same ratio of the instruction counts of every vertex and every pixel shader \
                  after `spirv-opt -O` (skipped, with a message, without spirv-opt).\n\n--gpu --ffp draws every fixed-function triangle \
                  draw of the fixed-function cases (--cases DIR, default ../shared/conformance-ffp and \
                  shaders/cases/ffp) with keyed and with uniform-driven halves, interleaved, ROUNDS times, \
                  and prints the uniform / keyed ratios of creation and draw times and the modules each \
                  mode compiles.",
    after_help = crate::examples!(
        "cargo xtask bench --list ../shared/bench-corpus/common.list"
        "cargo xtask bench --list ../shared/bench-corpus/common.list --reps 5 --iterations 3 --real-corpus ../shared/real-corpus-xray"
        "cargo xtask bench --no-peers"
        "cargo xtask bench --corpus shaders --reps 50 --key float_rules=ieee"
        "cargo xtask bench --folder --out /dev/shm"
        "cargo xtask bench --gpu --list ../shared/bench-corpus/common.list --rounds 5"
        "cargo xtask bench --gpu --list ../shared/bench-corpus/common.list --rules fast"
        "cargo xtask bench --gpu --ffp --rounds 5"
    )
)]
pub struct BenchArgs {
    /// The shaders to time.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Only the shaders this file names (one name a line: the file name without its extension).
    #[arg(long, value_name = "FILE")]
    list: Option<PathBuf>,
    /// Timed rounds over the corpus, after one warm-up round (a shader's time is their median).
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(15).unwrap())]
    reps: NonZeroUsize,
    /// Key fields for the translation (repeatable; as `d3d9-shader translate --key`).
    #[arg(long = "key", value_name = "FIELD=VALUE", value_parser = key_field)]
    key: Vec<String>,
    /// Time folder conversion instead: one thread against --jobs.
    #[arg(long)]
    folder: bool,
    /// --folder and --gpu: the rounds of each.
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(15).unwrap())]
    rounds: NonZeroUsize,
    /// --folder: the threads to compare with one [default: every core].
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    /// --folder: where the outputs go.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Time the generated code on the adapter instead: strict against IEEE float rules.
    #[arg(long, conflicts_with = "folder")]
    gpu: bool,
    /// --gpu: time the fixed-function halves instead, keyed against uniform-driven.
    #[arg(long, requires = "gpu")]
    ffp: bool,
    /// --gpu --ffp: a folder of fixed-function cases (repeatable) [default: ../shared/conformance-ffp
    /// and shaders/cases/ffp].
    #[arg(long = "cases", value_name = "DIR", requires = "ffp")]
    cases: Vec<PathBuf>,
    /// --gpu: how many of the heaviest ps_3_0 and of the heaviest vertex shaders to draw.
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(5).unwrap())]
    heavy: NonZeroUsize,
    /// --gpu: the float rules timed against IEEE.
    #[arg(long, value_name = "RULES", default_value = "strict", value_parser = ["strict", "fast"], requires = "gpu")]
    rules: String,
    /// The peers' timing programs (mojodrv, vkd3ddrv), timed side by side with us; with --gpu,
    /// vkd3d-shader's translation drawn and counted beside ours [default: ../shared/peers when
    /// present].
    #[arg(long, value_name = "DIR", conflicts_with = "folder")]
    peers: Option<PathBuf>,
    /// Leave the peers out.
    #[arg(long, conflicts_with = "peers")]
    no_peers: bool,
    /// With the peers: a real game's shaders, compared with MojoShader too [default:
    /// ../shared/real-corpus-xray when present].
    #[arg(long, value_name = "DIR")]
    real_corpus: Option<PathBuf>,
    /// With the peers: iterations of (peer, ours), each of --reps rounds after a warm-up; the
    /// ratios are medians over them.
    #[arg(long, value_name = "N", default_value_t = NonZeroUsize::new(5).unwrap())]
    iterations: NonZeroUsize,
    /// Set when the command runs itself again as a release build.
    #[arg(long, hide = true)]
    in_release: bool,
    /// Set when the bench runs itself to time a first translation: the raw blob.
    #[arg(long, hide = true, value_name = "FILE")]
    first_of: Option<PathBuf>,
    /// With --first-of: the output.
    #[arg(long, hide = true, default_value = "spirv", value_parser = ["spirv", "wgsl"])]
    first_output: String,
}

fn key_field(text: &str) -> Result<String, String> {
    ShaderKey::default().set(text).map_err(|e| e.to_string())?;
    Ok(text.to_string())
}

/// The series timed per shader, in the report's order.
const SERIES: [&str; 8] = ["total-spirv", "total-wgsl", "decode", "validate", "lower", "facts", "spirv", "wgsl"];

/// One shader, ready to time: its bytes, and what the untimed counting run found.
struct Case {
    bytes: Vec<u8>,
    allocs: [Allocs; 2],
    /// Allocation calls of each stage alone, in [`ALLOC_STAGES`] order.
    stage_allocs: [u64; 7],
    sizes: [usize; 2],
}

/// The stages whose allocations are counted one by one.
const ALLOC_STAGES: [&str; 7] = ["decode", "validate", "analyse", "lower", "facts", "spirv", "wgsl"];

/// Allocation calls of each stage of [`ALLOC_STAGES`], run alone on the output of the one before.
fn stage_allocs(bytes: &[u8], key: &ShaderKey) -> Result<[u64; 7], String> {
    let options = ParseOptions::lenient().validation;
    let mut n = [0; 7];
    let mut counted = |i: usize, a: Allocs| n[i] = a.calls;
    let (program, a) = alloc_count::count(|| decode_bytes(bytes));
    counted(0, a);
    let program = program.map_err(|e| e.to_string())?;
    counted(1, alloc_count::count(|| errors(&program, &options)).1);
    let (sig, a) = alloc_count::count(|| analyse(&program));
    counted(2, a);
    let (lowered, a) = alloc_count::count(|| lower::lower(&program, &sig, key));
    counted(3, a);
    let lowered = lowered.map_err(|e| e.to_string())?;
    let (analysis, a) = alloc_count::count(|| emit::Analysis::new(&lowered.module));
    counted(4, a);
    let analysis = analysis.map_err(|e| e.to_string())?;
    counted(5, alloc_count::count(|| emit::spirv(&lowered.module, &analysis)).1);
    counted(6, alloc_count::count(|| emit::wgsl(&lowered.module, &analysis)).1);
    Ok(n)
}

pub fn main(args: &BenchArgs) -> i32 {
    let mut key = ShaderKey::default();
    for field in &args.key {
        if let Err(e) = key.set(field) {
            eprintln!("xtask bench: --key {e}");
            return 2;
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    if cfg!(debug_assertions) && !args.in_release {
        // Timings of a debug build mean nothing.
        return crate::run_in_release("bench");
    }
    if let Some(file) = &args.first_of {
        return crate::bench_first::child(file, crate::bench_first::output_named(&args.first_output), &key);
    }
    if args.ffp {
        let dirs = if args.cases.is_empty() { crate::bench_ffp::default_dirs(&root) } else { args.cases.clone() };
        return crate::bench_ffp::run(&dirs, args.rounds.get());
    }
    let dir = args.corpus.clone().or_else(|| shared("bench-corpus")).unwrap_or_else(|| root.join("shaders"));
    let entries = match chosen(&dir, args.list.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("xtask bench: {e}");
            return 1;
        }
    };
    if args.gpu {
        let measured = if args.rules == "fast" { FloatRules::Fast } else { FloatRules::Strict };
        let peers = args.peers.clone().or_else(|| shared("peers")).filter(|_| !args.no_peers);
        return crate::bench_gpu::run(
            &entries,
            args.heavy.get(),
            args.rounds.get(),
            crate::bench_gpu::rule_pair(measured),
            peers.as_deref(),
        );
    }
    if args.folder {
        let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()), |n| n.get());
        let files = translatable(entries, &key);
        return crate::bench_folder::run(&root, &dir, &files, args.rounds.get(), jobs, args.out.as_deref());
    }
    bench(&dir, &entries, &key, args)
}

/// One file per shader of `dir`, only those `list` names when given.
fn chosen(dir: &Path, list: Option<&Path>) -> Result<Vec<Entry>, String> {
    let entries = bench_corpus::shaders(dir);
    if entries.is_empty() {
        return Err(format!("no .bin, .hex or .asm shaders under {}", dir.display()));
    }
    match list {
        Some(list) => bench_corpus::restrict(entries, &bench_corpus::read_list(list)?),
        None => Ok(entries),
    }
}

/// The files of `entries` that translate to WGSL under `key`; the others are listed.
fn translatable(entries: Vec<Entry>, key: &ShaderKey) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in entries {
        match prepare(&e.path, key) {
            Ok(_) => files.push(e.path),
            Err(why) => println!("not timed (does not translate): {}: {why}", e.path.display()),
        }
    }
    files
}

/// The user's path to SPIR-V: bytes → `Shader` → `Translation` → words. Never inlined, so
/// that a profiler can collect inside it alone (`valgrind --tool=callgrind
/// --toggle-collect='xtask::bench::to_spirv'`).
#[inline(never)]
pub(crate) fn to_spirv(bytes: &[u8], key: &ShaderKey) -> Result<Vec<u32>, String> {
    let shader = Shader::parse(bytes, &ParseOptions::lenient()).map_err(|e| e.to_string())?;
    shader.translate(key).map_err(|e| e.to_string())?.to_spirv().map_err(|e| e.to_string())
}

/// The user's path to WGSL (never inlined, as [`to_spirv`]).
#[inline(never)]
pub(crate) fn to_wgsl(bytes: &[u8], key: &ShaderKey) -> Result<String, String> {
    let shader = Shader::parse(bytes, &ParseOptions::lenient()).map_err(|e| e.to_string())?;
    shader.translate(key).map_err(|e| e.to_string())?.to_wgsl().map_err(|e| e.to_string())
}

/// The token stream of a shader's file (`.bin`, `.hex` or `.asm`) as little-endian bytes, what a
/// runtime is handed.
pub(crate) fn blob(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::read(path).map_err(|e| e.to_string())?;
    let loaded = d3d9_shader::input::load(&file, &path.to_string_lossy()).map_err(|e| e.to_string())?;
    let tokens = &loaded.first().ok_or("no shader in the file")?.tokens;
    Ok(tokens.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// Reads a shader and prepares each stage's input; why it cannot be timed otherwise.
fn prepare(path: &Path, key: &ShaderKey) -> Result<Case, String> {
    let bytes = blob(path)?;
    // A first run of each path (lazy one-time set-up stays out of the counts), then a counted one.
    to_spirv(&bytes, key)?;
    to_wgsl(&bytes, key)?;
    let (spirv, spirv_allocs) = alloc_count::count(|| to_spirv(&bytes, key));
    let (wgsl, wgsl_allocs) = alloc_count::count(|| to_wgsl(&bytes, key));
    let sizes = [spirv?.len() * 4, wgsl?.len()];
    let stage_allocs = stage_allocs(&bytes, key)?;
    Ok(Case { bytes, allocs: [spirv_allocs, wgsl_allocs], stage_allocs, sizes })
}

/// Microseconds `f` takes.
fn elapsed<T>(f: impl FnOnce() -> T) -> f64 {
    let start = Instant::now();
    std::hint::black_box(f());
    start.elapsed().as_secs_f64() * 1e6
}

/// Runs `f`, writing the microseconds it took to `slot`.
fn timed<T>(slot: &mut f64, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = std::hint::black_box(f());
    *slot = start.elapsed().as_secs_f64() * 1e6;
    out
}

/// The pipeline stage by stage, each stage timed alone on the output the one before it has
/// just made (warm, as in the user's path); `t[2..8]` get the stages' times.
fn stages(bytes: &[u8], key: &ShaderKey, options: &ValidationOptions, t: &mut [f64; 8]) -> Option<()> {
    let program = timed(&mut t[2], || decode_bytes(std::hint::black_box(bytes))).ok()?;
    timed(&mut t[3], || errors(&program, options));
    let lowered = timed(&mut t[4], || lower::lower(&program, &analyse(&program), key)).ok()?;
    let analysis = timed(&mut t[5], || emit::Analysis::new(&lowered.module)).ok()?;
    timed(&mut t[6], || emit::spirv(&lowered.module, &analysis)).ok()?;
    timed(&mut t[7], || emit::wgsl(&lowered.module, &analysis)).ok()?;
    Some(())
}

/// One round over every case: each series of [`SERIES`] per case.
fn round(cases: &[Case], key: &ShaderKey, options: &ValidationOptions) -> Vec<[f64; 8]> {
    let mut out = vec![[0.0; 8]; cases.len()];
    for (c, t) in cases.iter().zip(&mut out) {
        t[0] = elapsed(|| to_spirv(std::hint::black_box(&c.bytes), key));
    }
    for (c, t) in cases.iter().zip(&mut out) {
        t[1] = elapsed(|| to_wgsl(std::hint::black_box(&c.bytes), key));
    }
    for (c, t) in cases.iter().zip(&mut out) {
        stages(&c.bytes, key, options, t);
    }
    out
}

/// Times every case round-robin: per series, each shader's median over the rounds.
fn time_cases(cases: &[Case], key: &ShaderKey, rounds: usize) -> [Vec<f64>; 8] {
    let options = ParseOptions::lenient().validation;
    let bar = crate::progress::bar(rounds as u64 + 1);
    // The bar moves between rounds, outside every timed closure.
    bar.inc(1);
    round(cases, key, &options);
    let mut runs: Vec<[Vec<f64>; 8]> = (0..cases.len()).map(|_| Default::default()).collect();
    for _ in 0..rounds {
        bar.inc(1);
        for (shader, times) in runs.iter_mut().zip(round(cases, key, &options)) {
            for (series, t) in shader.iter_mut().zip(times) {
                series.push(t);
            }
        }
    }
    bar.finish_and_clear();
    std::array::from_fn(|s| runs.iter_mut().map(|shader| median(&mut shader[s])).collect())
}

fn bench(dir: &Path, entries: &[Entry], key: &ShaderKey, args: &BenchArgs) -> i32 {
    let mut cases = Vec::new();
    let mut names = Vec::new();
    let mut skipped = Vec::new();
    for e in entries {
        match prepare(&e.path, key) {
            Ok(c) => {
                cases.push(c);
                names.push(e.name.clone());
            }
            Err(why) => skipped.push(format!("{}: {why}", e.path.display())),
        }
    }
    if cases.is_empty() {
        eprintln!("xtask bench: no shader of {} translates", dir.display());
        return 1;
    }
    let mut per_shader = time_cases(&cases, key, args.reps.get());
    if !skipped.is_empty() {
        println!("{} shaders of {} not timed (they do not translate):", skipped.len(), dir.display());
        for s in &skipped {
            println!("  {s}");
        }
    }
    let key_text = if args.key.is_empty() { "default key".to_string() } else { args.key.join(" ") };
    // Whether a translation runs naga's validator depends on the build (emit::FULL_VALIDATION):
    // say which.
    let checks = if emit::FULL_VALIDATION { "every naga check" } else { "no naga validation (writer facts)" };
    println!(
        "{} shaders of {}, {key_text}, {checks}, {} rounds round-robin after a warm-up, on {}; µs per shader over shaders:",
        cases.len(),
        dir.display(),
        args.reps,
        machine()
    );
    let means: Vec<f64> = per_shader.iter().map(|s| mean(s)).collect();
    // Each shader's warm times, in the cases' order (the medians below sort them).
    let warm = [per_shader[0].clone(), per_shader[1].clone()];
    let medians: Vec<f64> = per_shader.iter_mut().map(|s| median(s)).collect();
    for (i, name) in SERIES.iter().enumerate() {
        println!("  {name:<14} median {:>8.1}  mean {:>8.1}", medians[i], means[i]);
    }
    let mut extra = first_translation(&cases, &names, &warm, &args.key);
    let blobs: Vec<Blob> = cases.iter().zip(names).map(|(c, name)| Blob { name, bytes: c.bytes.clone() }).collect();
    extra.extend(side_by_side(dir, &blobs, key, args));
    report(&cases, &medians, &means, &extra);
    0
}

/// `../shared/NAME` beside the workspace (or under `D3D9_SHARED`), when it is there.
fn shared(name: &str) -> Option<PathBuf> {
    crate::conformance::shared_dir().map(|d| d.join(name)).filter(|p| p.is_dir())
}

/// Times the first translation in a fresh process of the shader of median size (its warm
/// SPIR-V and WGSL times from `warm`, per case, beside it); the `bench:` line's fragments.
fn first_translation(cases: &[Case], names: &[String], warm: &[Vec<f64>; 2], key: &[String]) -> Vec<String> {
    let mut by_size: Vec<usize> = (0..cases.len()).collect();
    by_size.sort_by_key(|&i| cases[i].bytes.len());
    let i = by_size[by_size.len() / 2];
    match crate::bench_first::measure(&cases[i].bytes, key) {
        Ok([spirv, wgsl]) => {
            println!(
                "first translation in a fresh process (median of {} processes), {} (the shader of median size): \
                 spirv {spirv:.1} µs (warm {:.1}), wgsl {wgsl:.1} µs (warm {:.1})",
                crate::bench_first::PROCESSES,
                names[i],
                warm[0][i],
                warm[1][i]
            );
            vec![format!("first-spirv {spirv:.1} µs"), format!("first-wgsl {wgsl:.1} µs")]
        }
        Err(e) => {
            println!("first translation not timed: {e}");
            Vec::new()
        }
    }
}

/// With the peers' programs: the side-by-side ratios on `blobs` (the bench's shaders) and on the
/// real corpus; the `bench:` line's fragments.
fn side_by_side(dir: &Path, blobs: &[Blob], key: &ShaderKey, args: &BenchArgs) -> Vec<String> {
    let Some(peers_dir) = args.peers.clone().or_else(|| shared("peers")).filter(|_| !args.no_peers) else {
        return Vec::new();
    };
    let plan = Plan { peers_dir: &peers_dir, iterations: args.iterations.get(), rounds: args.reps.get(), key };
    let mut out = Vec::new();
    let bench_corpus = Corpus { prefix: "", dir, blobs, peers: PEERS.iter().collect() };
    match bench_peers::compare(&bench_corpus, &plan) {
        Ok(f) => out.extend(f),
        Err(e) => println!("peers not timed on {}: {e}", dir.display()),
    }
    let Some(real) = args.real_corpus.clone().or_else(|| shared("real-corpus-xray")) else {
        return out;
    };
    let real_blobs = bench_peers::translatable_blobs(&real, key);
    let corpus = Corpus {
        prefix: "real-",
        dir: &real,
        blobs: &real_blobs,
        peers: PEERS.iter().filter(|p| p.takes_real_corpora).collect(),
    };
    match bench_peers::compare(&corpus, &plan) {
        Ok(f) => out.extend(f),
        Err(e) => println!("peers not timed on {}: {e}", real.display()),
    }
    out
}

/// The processor the times were taken on: machines of one size differ in their processors,
/// and times from two of them are not comparable. The name alone can be a brand ("AMD EPYC"),
/// so the family and model numbers follow it.
fn machine() -> String {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        let line = text.lines().find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))?;
        Some(line.split_once(':')?.1.trim().to_string())
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match (field("model name"), field("cpu family"), field("model")) {
        (Some(name), Some(family), Some(model)) => format!("{name} family {family} model {model}, {cores} cores"),
        (Some(name), ..) => format!("{name}, {cores} cores"),
        _ => format!("{}, {cores} cores", std::env::consts::ARCH),
    }
}

/// The allocation and size lines, the notes against the targets, and the final `bench:` line,
/// with the fragments of `extra` (first translation, peers) and the load average.
fn report(cases: &[Case], medians: &[f64], means: &[f64], extra: &[String]) {
    let n = cases.len();
    let per = |path: usize, f: fn(&Allocs) -> u64| -> (f64, f64) {
        let mut v: Vec<f64> = cases.iter().map(|c| f(&c.allocs[path]) as f64).collect();
        (median(&mut v), mean(&v))
    };
    let calls = [per(0, |a| a.calls), per(1, |a| a.calls)];
    let bytes = [per(0, |a| a.bytes), per(1, |a| a.bytes)];
    for (i, path) in ["spirv", "wgsl"].iter().enumerate() {
        println!(
            "  allocations per shader, {path}: {:.0} calls median ({:.0} mean), {:.1} KB asked for median ({:.1} mean)",
            calls[i].0,
            calls[i].1,
            bytes[i].0 / 1024.0,
            bytes[i].1 / 1024.0
        );
    }
    let stages: Vec<String> = (0..ALLOC_STAGES.len())
        .map(|i| {
            let mut v: Vec<f64> = cases.iter().map(|c| c.stage_allocs[i] as f64).collect();
            format!("{} {:.0}", ALLOC_STAGES[i], median(&mut v))
        })
        .collect();
    println!("  allocation calls per stage alone, median over shaders: {}", stages.join(", "));
    let peaks: [(f64, f64); 2] = std::array::from_fn(|path| {
        let mut v: Vec<f64> = cases.iter().map(|c| c.allocs[path].peak as f64 / 1024.0).collect();
        (median(&mut v), v.iter().copied().fold(0.0, f64::max))
    });
    println!(
        "  peak heap of one translation: spirv {:.1} KB median ({:.1} max), wgsl {:.1} KB median ({:.1} max)",
        peaks[0].0, peaks[0].1, peaks[1].0, peaks[1].1
    );
    let sizes: [usize; 2] = std::array::from_fn(|p| cases.iter().map(|c| c.sizes[p]).sum());
    println!(
        "  output: SPIR-V {} bytes in all ({:.1} KB per shader), WGSL {} bytes in all ({:.1} KB per shader)",
        sizes[0],
        sizes[0] as f64 / n as f64 / 1024.0,
        sizes[1],
        sizes[1] as f64 / n as f64 / 1024.0
    );
    // Target (issue 16): bytecode → validated SPIR-V, and → WGSL, within 60 µs per shader, as
    // users build the library. Cargo unifies features across what one command builds, so
    // building the whole workspace with its tests (which turn `full-validation` on) gives this
    // binary every naga check at each translation (a release build of the library alone runs
    // none: docs/architecture.md#naga-validation).
    if emit::FULL_VALIDATION {
        println!(
            "  note: this build runs every naga check (feature full-validation, or a debug build), not what users \
             get; build xtask alone (`cargo xtask bench`, or `cargo build --release -p xtask`) to compare with \
             the 60 µs target"
        );
    }
    for (i, path) in ["total-spirv", "total-wgsl"].iter().enumerate() {
        if medians[i] > 60.0 && !emit::FULL_VALIDATION {
            println!("  note: {path} misses the 60 µs target by {:.1} µs", medians[i] - 60.0);
        }
    }
    let stages: Vec<String> = (2..8).map(|i| format!("{} {:.1} µs", SERIES[i], medians[i])).collect();
    println!(
        "bench: {n} shaders, total-spirv {:.1} µs, mean-spirv {:.1} µs, total-wgsl {:.1} µs, mean-wgsl {:.1} µs, {}, allocs-spirv {:.0}, allocs-wgsl {:.0}, peak-heap-spirv {:.1} KB, peak-heap-wgsl {:.1} KB, spirv-bytes {}, wgsl-bytes {}, {:.0} shaders/s, naga-checks {}{}, load {}",
        medians[0],
        means[0],
        medians[1],
        means[1],
        stages.join(", "),
        calls[0].0,
        calls[1].0,
        peaks[0].0,
        peaks[1].0,
        sizes[0],
        sizes[1],
        1e6 / medians[0],
        if emit::FULL_VALIDATION { "all" } else { "none" },
        extra.iter().map(|f| format!(", {f}")).collect::<String>(),
        bench_peers::load_average().split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
}
