//! `cargo xtask fuzz-diff [--count N] [--seed S] [--version V]... [--out DIR]`: random valid
//! programs drawn on the GPU and on the CPU reference, compared (`d3d9_tests::diff`).
//!
//! Program k of the run is `generate(version, seed + k)` for the k-th version in turn (all the
//! versions the generator covers, or those given). A mismatch is shrunk to a small program that
//! still mismatches and passes the strict validator; its case file (the harness's TOML format),
//! the shaders' `.hex` and `.asm` listings and the runner's messages go to DIR/NAME.*
//! (default `target/fuzz-diff`). Ends with `fuzz-diff: N passed, M failed, K skipped`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use d3d9_shader::bytecode::Version;
use d3d9_tests::diff::{case_for, run, shrink, write_case, DiffOutcome};
use d3d9_tests::generate::{generate, versions};

const USAGE: &str = "usage: cargo xtask fuzz-diff [--count N] [--seed S] [--version V]... [--out DIR] [--adapter NAME]

Generates N random valid programs (default 200) across the versions, draws each on the GPU and on
the CPU interpreter into float targets, and compares. Mismatches are shrunk and saved under DIR
(default target/fuzz-diff) as case files with their shaders.";

struct Settings {
    count: u64,
    seed: u64,
    versions: Vec<Version>,
    out: PathBuf,
    adapter: Option<String>,
}

fn parse(args: &[String], root: &Path) -> Result<Settings, String> {
    let mut s =
        Settings { count: 200, seed: 0, versions: Vec::new(), out: root.join("target/fuzz-diff"), adapter: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--count" | "-n" => s.count = value()?.parse().map_err(|e| format!("--count: {e}"))?,
            "--seed" => s.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => s.out = PathBuf::from(value()?),
            "--adapter" => s.adapter = Some(value()?.clone()),
            "--version" => {
                let name = value()?;
                let v = versions()
                    .into_iter()
                    .find(|v| v.to_string() == *name)
                    .ok_or_else(|| format!("--version: `{name}` is not a version the generator covers"))?;
                s.versions.push(v);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if s.versions.is_empty() {
        s.versions = versions();
    }
    Ok(s)
}

pub fn main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return 0;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    let s = match parse(args, &root) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask fuzz-diff: {e}\n\n{USAGE}");
            return 2;
        }
    };
    let gpu = match gpu_harness::device::Gpu::new(s.adapter.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("xtask fuzz-diff: no GPU device: {e}");
            println!("fuzz-diff: 0 passed, 0 failed, {} skipped", s.count);
            return 1;
        }
    };
    println!("fuzz-diff: {} program(s) from seed {} on {}", s.count, s.seed, gpu.describe());
    let work = s.out.join("work");
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut last = Instant::now();
    for k in 0..s.count {
        let v = s.versions[(k % s.versions.len() as u64) as usize];
        let seed = s.seed + k / s.versions.len() as u64;
        let Some(g) = generate(v, seed) else { continue };
        let name = format!("{}_{seed}", v.to_string().replace('.', "_"));
        match run(&g, &name, Some(&gpu), &work) {
            DiffOutcome::Pass => passed += 1,
            DiffOutcome::Skip(why) => {
                skipped += 1;
                println!("fuzz-diff: {name} skipped: {why}");
            }
            DiffOutcome::Mismatch(messages) => {
                failed += 1;
                println!("fuzz-diff: {name} MISMATCH: {}", messages.first().map(String::as_str).unwrap_or(""));
                let before = g.program.instructions.len();
                // The same disagreement: on the same target (the message's "target N").
                let target = |m: &[String]| {
                    m.first()
                        .and_then(|m| m.split("target ").nth(1))
                        .and_then(|t| t.split(' ').next())
                        .map(str::to_string)
                };
                let first_target = target(&messages);
                let small = shrink(
                    &g,
                    |candidate| match run(candidate, &format!("{name}_shrink"), Some(&gpu), &work) {
                        DiffOutcome::Mismatch(m) => target(&m) == first_target,
                        _ => false,
                    },
                    400,
                );
                let final_messages = match run(&small, &name, Some(&gpu), &work) {
                    DiffOutcome::Mismatch(m) => m,
                    _ => messages,
                };
                let saved = case_for(&small, &name)
                    .map_err(std::io::Error::other)
                    .and_then(|c| write_case(&s.out, &name, &c))
                    .and_then(|p| {
                        std::fs::write(p.with_extension("txt"), final_messages.join("\n") + "\n")?;
                        Ok(p)
                    });
                match saved {
                    Ok(p) => println!(
                        "           shrunk from {before} to {} instructions: {}",
                        small.program.instructions.len(),
                        p.display()
                    ),
                    Err(e) => println!("           (not saved: {e})"),
                }
            }
        }
        if last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            println!(
                "fuzz-diff: {}/{} ({:.1} programs/s), {failed} failed",
                k + 1,
                s.count,
                (k + 1) as f64 / start.elapsed().as_secs_f64()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    println!("fuzz-diff: {:.1} s", start.elapsed().as_secs_f64());
    println!("fuzz-diff: {passed} passed, {failed} failed, {skipped} skipped");
    (failed > 0) as i32
}
