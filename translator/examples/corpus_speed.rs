//! Times decoding and disassembly of every shader of the corpora (`../shared/corpus` and
//! `../shared/bench-corpus`, or the folders given as arguments):
//!
//! ```sh
//! cargo run --release -p d3d9-shader --example corpus_speed
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use d3d9_shader::asm::{assemble, write_program, DisasmOptions};
use d3d9_shader::bytecode::decode;
use d3d9_shader::input::parse_hex;

fn hex_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "invalid") {
                hex_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "hex") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let dirs = if args.is_empty() {
        let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
        vec![shared.join("corpus"), shared.join("bench-corpus")]
    } else {
        args
    };
    let mut files = Vec::new();
    for d in &dirs {
        hex_files(d, &mut files);
    }
    let streams: Vec<Vec<u32>> =
        files.iter().filter_map(|p| parse_hex(&std::fs::read_to_string(p).ok()?).ok()).collect();
    if streams.is_empty() {
        eprintln!("no .hex files under {dirs:?}");
        std::process::exit(1);
    }
    let tokens: usize = streams.iter().map(Vec::len).sum();
    let rounds = 20;
    let mut text = String::with_capacity(1 << 16);
    let mut best_decode = f64::MAX;
    let mut best_both = f64::MAX;
    let mut best_asm = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        let programs: Vec<_> = streams.iter().filter_map(|s| decode(s).ok()).collect();
        best_decode = best_decode.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut bytes = 0;
        for s in &streams {
            if let Ok(p) = decode(s) {
                text.clear();
                write_program(&mut text, &p, &DisasmOptions::default()).unwrap();
                bytes += text.len();
            }
        }
        best_both = best_both.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for p in &programs {
            text.clear();
            write_program(&mut text, p, &DisasmOptions::default()).unwrap();
            assemble(&text).unwrap();
        }
        best_asm = best_asm.min(t.elapsed().as_secs_f64());
        std::hint::black_box(bytes);
    }
    let n = streams.len() as f64;
    println!("{} shaders, {tokens} tokens (best of {rounds} rounds)", streams.len());
    println!("decode:            {:8.3} ms  ({:.2} µs per shader)", best_decode * 1e3, best_decode * 1e6 / n);
    println!("decode + disasm:   {:8.3} ms  ({:.2} µs per shader)", best_both * 1e3, best_both * 1e6 / n);
    println!("disasm + assemble: {:8.3} ms  ({:.2} µs per shader)", best_asm * 1e3, best_asm * 1e6 / n);
}
