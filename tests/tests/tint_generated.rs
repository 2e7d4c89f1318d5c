//! The programs `cargo xtask fuzz-diff` generates pass Tint (Chromium's WGSL compiler;
//! `tests/tint.rs`) with their partner shaders: each case's linked pair compiles and creates a
//! Dawn render pipeline (`d3d9_tests::diff::tint_check`). The programs are those of the default
//! fuzz-diff run: program k is `generate(version k mod V, seed k / V)` over the V versions the
//! generator covers; `D3D9_TINT_PROGRAMS` sets how many (default 2000). No GPU is needed.

use d3d9_tests::diff::tint_check;
use d3d9_tests::generate::{generate, versions};
use d3d9_tests::tint_check::Checker;

#[test]
fn tint_accepts_every_generated_program_and_its_pipeline() {
    let Some(mut checker) = Checker::for_test("tint_accepts_every_generated_program_and_its_pipeline") else { return };
    let count: u64 = std::env::var("D3D9_TINT_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let start = std::time::Instant::now();
    let versions = versions();
    let mut skipped = Vec::new();
    for k in 0..count {
        let v = versions[(k % versions.len() as u64) as usize];
        let seed = k / versions.len() as u64;
        let Some(g) = generate(v, seed) else { continue };
        let name = format!("{}_{seed}", v.to_string().replace('.', "_"));
        if let Some(why) = tint_check(&g, &name, &mut checker).expect("the Tint checker") {
            skipped.push(format!("{name}: {why}"));
        }
    }
    if !skipped.is_empty() {
        eprintln!("{} programs skipped:\n  {}", skipped.len(), skipped.join("\n  "));
    }
    let failures = checker.finish("generated programs").expect("the Tint checker");
    eprintln!("tint_generated: {count} programs in {:.1} s", start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "Tint refused {} generated programs (first above)", failures.len());
}
