//! How big the naga module of each shader is: naga expressions (all functions and the entry
//! point) per D3D9 instruction, under the strict and the IEEE float rules, over a corpus
//! (default `../shared/bench-corpus`, one file per shader: the `.bin`, else the `.hex`):
//!
//! ```sh
//! cargo run --release -p d3d9-shader --example expression_count [-- [DIR] [--kinds] [--spirv-opt]]
//! ```
//!
//! Instructions are those that do work (not `dcl`, `def*`, comments, `nop`). Options:
//! `--kinds` prints how many expressions of each kind there are; `--spirv-opt` also counts the
//! instructions inside functions of every vertex shader's SPIR-V after `spirv-opt -O` (the
//! SPIRV-Tools optimiser must be on the `PATH`), the measure of the code a driver is handed;
//! `--time N` instead translates every shader to SPIR-V and to WGSL N times (strict rules,
//! round-robin) and prints the median microseconds per shader, a steady load for
//! `valgrind --tool=callgrind` instruction counts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::{decode_bytes, Opcode, ShaderKind};
use d3d9_shader::key::FloatRules;
use d3d9_shader::{emit, lower, ShaderKey};

/// One file per shader: the `.bin`, else the `.hex`.
fn shaders(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p: &PathBuf| p.extension().is_some_and(|x| x == "bin" || x == "hex"))
        .collect();
    files.sort();
    files.dedup_by(|b, a| a.with_extension("") == b.with_extension(""));
    files
}

fn tokens(path: &Path) -> Option<Vec<u8>> {
    let file = std::fs::read(path).ok()?;
    let loaded = d3d9_shader::input::load(&file, &path.to_string_lossy()).ok()?;
    Some(loaded.first()?.tokens.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// What one shader adds up to.
#[derive(Default)]
struct Totals {
    shaders: usize,
    failed: usize,
    instructions: usize,
    expressions: usize,
    /// Vertex shaders' function instructions after `spirv-opt -O`.
    optimised: usize,
    kinds: BTreeMap<String, usize>,
}

/// The kind of an expression: its variant's name.
fn kind(e: &naga::Expression) -> String {
    let text = format!("{e:?}");
    text.split([' ', '(', '{']).next().unwrap_or("").to_string()
}

/// Instructions between `OpFunction` and `OpFunctionEnd` after `spirv-opt -O`.
fn optimised_instructions(words: &[u32], scratch: &Path) -> Option<usize> {
    let input = scratch.join("in.spv");
    let output = scratch.join("out.spv");
    std::fs::write(&input, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).ok()?;
    let ok = Command::new("spirv-opt").arg("-O").arg(&input).arg("-o").arg(&output).status().ok()?.success();
    let text = Command::new("spirv-dis").arg(&output).output().ok().filter(|_| ok)?.stdout;
    let (mut inside, mut n) = (false, 0);
    for line in String::from_utf8_lossy(&text).lines() {
        inside |= line.contains("OpFunction ") || line.ends_with("OpFunction");
        n += usize::from(inside);
        inside &= !line.contains("OpFunctionEnd");
    }
    Some(n)
}

/// Adds one shader; `None` when it does not translate.
fn add(t: &mut Totals, bytes: &[u8], rules: FloatRules, spirv_opt: Option<&Path>, kinds: bool) -> Option<()> {
    let program = decode_bytes(bytes).ok()?;
    let key = ShaderKey { float_rules: rules, ..ShaderKey::default() };
    let lowered = lower::lower(&program, &analyse(&program), &key).ok()?;
    let m = &lowered.module;
    let functions = m.functions.iter().map(|(_, f)| f).chain(m.entry_points.iter().map(|e| &e.function));
    for f in functions {
        t.expressions += f.expressions.len();
        if kinds {
            for (_, e) in f.expressions.iter() {
                *t.kinds.entry(kind(e)).or_default() += 1;
            }
        }
    }
    if let Some(scratch) = spirv_opt.filter(|_| program.version.kind == ShaderKind::Vertex) {
        let analysis = emit::Analysis::new(m).ok()?;
        t.optimised += optimised_instructions(&emit::spirv(m, &analysis).ok()?, scratch)?;
    }
    t.instructions += program
        .iter()
        .filter(|i| !i.opcode.info().declaration && !matches!(i.opcode, Opcode::Nop | Opcode::Phase))
        .count();
    Some(())
}

/// `--time N`: N rounds over the shaders, each translated to SPIR-V and to WGSL.
fn time(files: &[PathBuf], rounds: usize) {
    let blobs: Vec<Vec<u8>> = files.iter().filter_map(|f| tokens(f)).collect();
    let key = ShaderKey::default();
    let options = d3d9_shader::ParseOptions::lenient();
    let mut per_shader = vec![Vec::with_capacity(rounds); blobs.len()];
    for _ in 0..rounds {
        for (b, times) in blobs.iter().zip(&mut per_shader) {
            let start = std::time::Instant::now();
            let shader = d3d9_shader::Shader::parse(b, &options).expect("the corpus parses");
            let t = shader.translate(&key).expect("the corpus translates");
            std::hint::black_box((t.to_spirv().is_ok(), t.to_wgsl().is_ok()));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    let mut medians: Vec<f64> = per_shader
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    medians.sort_by(f64::total_cmp);
    let mean = medians.iter().sum::<f64>() / medians.len().max(1) as f64;
    println!(
        "{} shaders, {rounds} rounds: SPIR-V + WGSL median {:.1} µs, mean {mean:.1} µs per shader",
        blobs.len(),
        medians.get(medians.len() / 2).copied().unwrap_or(0.0)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kinds = args.iter().any(|a| a == "--kinds");
    let spirv_opt = args.iter().any(|a| a == "--spirv-opt");
    let rounds = args.iter().position(|a| a == "--time").and_then(|i| args.get(i + 1)?.parse::<usize>().ok());
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench-corpus"));
    let scratch = std::env::temp_dir().join(format!("expression-count-{}", std::process::id()));
    if spirv_opt {
        std::fs::create_dir_all(&scratch).expect("a scratch folder in the temporary directory");
    }
    let files = shaders(&dir);
    if files.is_empty() {
        eprintln!("no .bin or .hex shaders under {}", dir.display());
        std::process::exit(1);
    }
    if let Some(rounds) = rounds {
        return time(&files, rounds);
    }
    let mut optimised = Vec::new();
    for (rules, name) in [(FloatRules::Strict, "strict"), (FloatRules::Ieee, "ieee")] {
        let mut t = Totals::default();
        for f in &files {
            let added = tokens(f).and_then(|b| add(&mut t, &b, rules, spirv_opt.then_some(scratch.as_path()), kinds));
            match added {
                Some(()) => t.shaders += 1,
                None => t.failed += 1,
            }
        }
        println!(
            "{name}: {} shaders ({} failed), {} instructions, {} expressions, {:.2} per instruction",
            t.shaders,
            t.failed,
            t.instructions,
            t.expressions,
            t.expressions as f64 / t.instructions.max(1) as f64
        );
        if spirv_opt {
            println!("{name}: {} instructions in functions of the vertex shaders after spirv-opt -O", t.optimised);
            optimised.push(t.optimised);
        }
        let mut by_count: Vec<_> = t.kinds.into_iter().collect();
        by_count.sort_by_key(|e| std::cmp::Reverse(e.1));
        for (k, n) in by_count {
            println!("  {k:<20} {n:>8} {:.2}", n as f64 / t.instructions.max(1) as f64);
        }
    }
    if let [strict, ieee] = optimised[..] {
        println!("spirv-opt -O: strict / ieee = {:.3}", strict as f64 / ieee.max(1) as f64);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
