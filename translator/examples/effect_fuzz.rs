//! A long effect-fuzzing run without the test harness's dependencies: `cargo run --profile fuzz
//! --example effect_fuzz -- N [DIR...]` damages the effects of DIR (default `../shared/effects`,
//! plus the built-in sample) N times and feeds each to the reader and, when it parses, to every
//! pass of the run-time. It reports panics, errors that name no byte offset, and cases slower than
//! one second; `cargo xtask fuzz --target effect` is the same check inside the fuzz harness.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use d3d9_shader::effect::{Effect, EffectRuntime};
use d3d9_shader::fuzz::{mutate_effect, sample_effect, Rng};

fn seeds(dirs: &[String]) -> Vec<Vec<u8>> {
    let mut out = vec![sample_effect()];
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "hex") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    let words = d3d9_shader::input::parse_hex(&text).unwrap_or_default();
                    out.push(words.iter().flat_map(|w| w.to_le_bytes()).collect());
                }
            }
        }
    }
    out
}

fn case(bytes: &[u8]) -> Result<(), String> {
    match Effect::parse(bytes) {
        Ok(effect) => {
            let mut rt = EffectRuntime::new(&effect);
            for t in 0..effect.techniques.len() {
                let _ = rt.set_technique(t);
                for p in 0..rt.begin().unwrap_or(0) {
                    std::hint::black_box(rt.begin_pass(p).ok());
                    let _ = rt.end_pass();
                }
                rt.end();
            }
            Ok(())
        }
        Err(e) if e.to_string().starts_with("byte ") => Ok(()),
        Err(e) => Err(format!("error without a byte offset: {e}")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let dirs = if args.len() > 1 { args[1..].to_vec() } else { vec!["../shared/effects".to_string()] };
    let seeds = seeds(&dirs);
    std::panic::set_hook(Box::new(|_| {}));
    let threads = std::thread::available_parallelism().map_or(1, |c| c.get()) as u64;
    let start = Instant::now();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seeds = &seeds;
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for i in (t..n).step_by(threads as usize) {
                        let mut rng = Rng::new(0x00EF_FEC7 ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                        let bytes = mutate_effect(&seeds[rng.below(seeds.len())], &mut rng);
                        let t0 = Instant::now();
                        let outcome = catch_unwind(AssertUnwindSafe(|| case(&bytes)));
                        let slow = t0.elapsed() > Duration::from_secs(1);
                        match outcome {
                            Err(_) => failures.push(format!("case {i}: panic")),
                            Ok(Err(e)) => failures.push(format!("case {i}: {e}")),
                            Ok(Ok(())) if slow => failures.push(format!("case {i}: slow {:?}", t0.elapsed())),
                            Ok(Ok(())) => {}
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    for f in failures.iter().take(20) {
        println!("{f}");
    }
    println!(
        "effect_fuzz: {n} cases from {} seeds in {:.1} s: {} passed, {} failed",
        seeds.len(),
        start.elapsed().as_secs_f64(),
        n - failures.len() as u64,
        failures.len()
    );
    std::process::exit(i32::from(!failures.is_empty()));
}
