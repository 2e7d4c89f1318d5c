//! `cargo xtask web --bench`: what translation costs in the browser against the same code
//! natively. Both sides run the web API's own path (`d3d9_shader_web::document`: read, decode,
//! validate, translate, emit) over the bench corpus, round-robin, and report the time of a round
//! divided by its shaders, median over rounds. A round's total, not each shader's, because a
//! browser's clock is coarsened to about 0.1 ms, the size of one translation.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use d3d9_shader_web::document::{Document, LoadOptions};

use crate::bench_corpus;

const ROUNDS: usize = 15;

struct Corpus {
    names: Vec<String>,
    files: Vec<(String, Vec<u8>)>,
}

pub fn run(root: &Path, site: &Path, corpus: Option<&Path>, list: Option<&Path>) -> Result<(), String> {
    if cfg!(debug_assertions) {
        return run_in_release(root);
    }
    let default_corpus = root.parent().map(|p| p.join("shared/bench-corpus"));
    let dir = corpus.map(Path::to_path_buf).or(default_corpus).ok_or("no corpus")?;
    let corpus = read_corpus(&dir, list)?;
    let native = [time_native(&corpus, false), time_native(&corpus, true)];
    let paths: Vec<String> = corpus.names.iter().map(|p| dir.join(p).display().to_string()).collect();
    let list_file = root.join("target/web-bench-files.json");
    std::fs::write(&list_file, serde_json::to_string(&paths).map_err(|e| e.to_string())?)
        .map_err(|e| format!("{}: {e}", list_file.display()))?;
    let output = Command::new("node")
        .current_dir(root.join("web/tests"))
        .arg("bench.mjs")
        .arg(site)
        .arg(&list_file)
        .arg(ROUNDS.to_string())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("the browser bench failed:\n{text}{}", String::from_utf8_lossy(&output.stderr)));
    }
    let browser: serde_json::Value = serde_json::from_str(text.trim()).map_err(|e| format!("bench.mjs output: {e}"))?;
    let (bw, bs) = (browser["wgsl"].as_f64().unwrap_or(f64::NAN), browser["spirv"].as_f64().unwrap_or(f64::NAN));
    println!(
        "web-bench: {} shaders, {ROUNDS} rounds, µs per shader (round / shaders, median over rounds): \
         native wgsl {:.1} spirv {:.1}, browser wgsl {bw:.1} spirv {bs:.1}, ratio wgsl {:.2} spirv {:.2}",
        corpus.files.len(),
        native[0],
        native[1],
        bw / native[0],
        bs / native[1]
    );
    Ok(())
}

fn read_corpus(dir: &Path, list: Option<&Path>) -> Result<Corpus, String> {
    let wanted = list.map(bench_corpus::read_list).transpose()?;
    let mut corpus = Corpus { names: Vec::new(), files: Vec::new() };
    for entry in bench_corpus::shaders(dir) {
        if wanted.as_ref().is_some_and(|w| !w.contains(&entry.name)) {
            continue;
        }
        let bytes = std::fs::read(&entry.path).map_err(|e| format!("{}: {e}", entry.path.display()))?;
        let file = entry.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        // Only what the library accepts: the bench times translations, not refusals.
        if Document::load(&bytes, &LoadOptions { name: file.clone(), ..LoadOptions::default() })
            .is_ok_and(|d| d.translate([]).is_ok())
        {
            let relative = entry.path.strip_prefix(dir).unwrap_or(&entry.path).display().to_string();
            corpus.names.push(relative);
            corpus.files.push((file, bytes));
        }
    }
    if corpus.files.is_empty() {
        return Err(format!("no shaders to time in {}", dir.display()));
    }
    Ok(corpus)
}

/// Median over rounds of (round time / shaders), in µs.
fn time_native(corpus: &Corpus, spirv: bool) -> f64 {
    let mut rounds = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS + 1 {
        let start = Instant::now();
        for (name, bytes) in &corpus.files {
            let doc = Document::load(bytes, &LoadOptions { name: name.clone(), ..LoadOptions::default() });
            let out = doc.and_then(|d| d.translate([]));
            let emitted = out.map(|o| if spirv { o.spirv().map(|w| w.len()) } else { o.wgsl().map(|s| s.len()) });
            std::hint::black_box(emitted.is_ok());
        }
        rounds.push(start.elapsed().as_secs_f64() * 1e6 / corpus.files.len() as f64);
    }
    // The first round warms caches and is left out, as in the browser.
    rounds.remove(0);
    rounds.sort_by(f64::total_cmp);
    rounds[rounds.len() / 2]
}

/// Times mean nothing in a debug build: the command again in release.
fn run_in_release(root: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["run", "--quiet", "--release", "--package", "xtask", "--", "web"])
        .args(crate::command_args())
        .status();
    status.is_ok_and(|s| s.success()).then_some(()).ok_or_else(|| "the release run failed".into())
}
