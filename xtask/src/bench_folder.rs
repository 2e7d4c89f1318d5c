//! `cargo xtask bench --folder [--corpus DIR] [--list FILE] [--rounds N] [--jobs N] [--out DIR]`:
//! how folder conversion scales with threads. Runs the release
//! `d3d9-shader translate FILES... --to wgsl -o OUT --quiet`, FILES being one file per shader of
//! the corpus (as the stage bench chooses them, [`crate::bench_corpus`]: a corpus that holds each
//! shader as `.bin`, `.hex` and `.asm` would otherwise convert each three times) that translate
//! to WGSL (the others are listed and left out, so that every run must succeed), with
//! `--jobs 1` and `--jobs N` (default: every core) in alternation, each run into a fresh
//! output folder (after a `sync`, so that the previous run's writeback does not land in the
//! next), and prints the fastest and the median wall time of each and their ratios.
//!
//! The whole process is timed, start-up and the listing of the folder included: that is what a
//! person running the command waits for. The outputs go under `--out` (default
//! `target/bench-folder`): a folder on a RAM disk (`/dev/shm`) takes the disk's own time for
//! creating files out of the measure, which on a busy virtual disk varies more than the
//! conversion itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs the benchmark; the exit status.
pub fn run(root: &Path, dir: &Path, files: &[PathBuf], rounds: usize, jobs: usize, out: Option<&Path>) -> i32 {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--quiet", "--release", "--package", "d3d9-shader", "--bin", "d3d9-shader"])
        .status();
    if !matches!(built, Ok(s) if s.success()) {
        eprintln!("xtask: cannot build the release d3d9-shader");
        return 1;
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let binary = target.join("release").join(format!("d3d9-shader{}", std::env::consts::EXE_SUFFIX));
    let out = out.map_or_else(|| target.join("bench-folder"), |o| o.join("d3d9-bench-folder"));
    let _ = std::fs::remove_dir_all(&out);
    let mut times: [Vec<f64>; 2] = Default::default();
    let bar = crate::progress::bar(2 * rounds as u64);
    for round in 0..rounds {
        for (k, j) in [1, jobs].into_iter().enumerate() {
            bar.inc(1);
            let folder = out.join(format!("{round}-{j}"));
            let _ = Command::new("sync").status();
            let start = Instant::now();
            let run = Command::new(&binary)
                .arg("translate")
                .args(files)
                .args(["--to", "wgsl", "--quiet", "--jobs", &j.to_string(), "-o"])
                .arg(&folder)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output();
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            // The files are the ones that translate (the caller checked each): any failure,
            // exit status 1 (some input failed) included, means the run did not do the work
            // it is timed for.
            match run {
                Ok(o) if o.status.success() => times[k].push(elapsed),
                Ok(o) => {
                    let why = String::from_utf8_lossy(&o.stderr);
                    let why: Vec<&str> = why.lines().take(5).collect();
                    eprintln!("xtask: {} failed ({}): {}", binary.display(), o.status, why.join("; "));
                    return 1;
                }
                Err(e) => {
                    eprintln!("xtask: cannot run {}: {e}", binary.display());
                    return 1;
                }
            }
        }
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&out);
    let [one, many] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[0], t[t.len() / 2])
    });
    println!(
        "bench-folder: {} shaders of {} into {} ({rounds} rounds): jobs 1 fastest {:.1} ms, median {:.1} ms; jobs {jobs} fastest {:.1} ms, median {:.1} ms; speed-up {:.2}x fastest, {:.2}x median",
        files.len(),
        dir.display(),
        out.parent().unwrap_or(&out).display(),
        one.0,
        one.1,
        many.0,
        many.1,
        one.0 / many.0,
        one.1 / many.1
    );
    0
}
