//! `cargo xtask fuzz-diff --ffp [--count N | --minutes M] [--seed S] [--out DIR]`: random valid
//! fixed-function states (`d3d9_tests::generate::ffp`) drawn on the GPU with the library's
//! fixed-function generator and on the CPU with the harness's independent reference, compared.
//!
//! State k of the run is `generate_ffp(seed + k)`, for N states or M minutes
//! ([`crate::fuzz_budget`]). A mismatch is shrunk to a smaller state that
//! still mismatches on the same target; its case file and the runner's messages go to
//! DIR/ffp_SEED.toml and .txt (default `target/fuzz-diff`). Ends with
//! `fuzz-diff: N passed, M failed, K skipped`.

use std::path::Path;
use std::time::Instant;

use d3d9_tests::diff::DiffOutcome;
use d3d9_tests::ffp_diff::{ffp_case, run_ffp, shrink_ffp};
use d3d9_tests::generate::ffp::{generate_ffp, FfpState};

use crate::fuzz_budget::Budget;

/// What a shrunk state must still fail with: the first message's "target N".
fn failure_kind(messages: &[String]) -> Option<String> {
    messages.first()?.split("target ").nth(1)?.split(' ').next().map(|t| format!("target {t}"))
}

fn shrink_and_save(
    state: &FfpState,
    name: &str,
    messages: Vec<String>,
    gpu: &gpu_harness::device::Gpu,
    out: &Path,
) -> String {
    let work = out.join("work");
    let kind = failure_kind(&messages);
    let fails = |s: &FfpState| match run_ffp(s, &format!("{name}_shrink"), Some(gpu), &work) {
        DiffOutcome::Mismatch(m) => Some(m),
        _ => None,
    };
    let small = shrink_ffp(state, |c| fails(c).is_some_and(|m| failure_kind(&m) == kind), 300);
    let final_messages = fails(&small).unwrap_or(messages);
    let saved = d3d9_tests::diff::write_case(out, name, &ffp_case(&small, name)).and_then(|p| {
        std::fs::write(p.with_extension("txt"), final_messages.join("\n") + "\n")?;
        Ok(p)
    });
    match saved {
        Ok(p) => format!("           shrunk: {}", p.display()),
        Err(e) => format!("           (not saved: {e})"),
    }
}

pub fn main(budget: Budget, seed: u64, out: &Path, adapter: Option<&str>) -> i32 {
    let gpu = match gpu_harness::device::Gpu::new(adapter) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("xtask fuzz-diff: no GPU device: {e}");
            println!("fuzz-diff: 0 passed, 0 failed, {} skipped", budget.planned());
            return 1;
        }
    };
    println!("fuzz-diff: {} from seed {seed} on {}", budget.describe("fixed-function state"), gpu.describe());
    let work = out.join("work");
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut last = Instant::now();
    let bar = budget.bar();
    let mut k = 0;
    while budget.allows(k, start) {
        budget.show(&bar, k, start);
        let name = format!("ffp_{}", seed + k);
        let state = generate_ffp(seed + k);
        match run_ffp(&state, &name, Some(&gpu), &work) {
            DiffOutcome::Pass => passed += 1,
            DiffOutcome::Skip(why) => {
                skipped += 1;
                crate::progress::println(&bar, &format!("fuzz-diff: {name} skipped: {why}"));
            }
            DiffOutcome::Mismatch(messages) => {
                failed += 1;
                let first = messages.first().map(String::as_str).unwrap_or("");
                crate::progress::println(&bar, &format!("fuzz-diff: {name} MISMATCH: {first}"));
                crate::progress::println(&bar, &shrink_and_save(&state, &name, messages, &gpu, out));
            }
        }
        k += 1;
        if bar.is_hidden() && last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            let rate = k as f64 / start.elapsed().as_secs_f64();
            println!("fuzz-diff: {k} ({rate:.1} states/s), {failed} failed");
        }
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&work);
    println!("fuzz-diff: {:.1} s", start.elapsed().as_secs_f64());
    if k > 0 {
        println!("fuzz-diff: {k} state(s), seeds {seed} to {}", seed + k - 1);
    }
    println!("fuzz-diff: {passed} passed, {failed} failed, {skipped} skipped");
    (failed > 0) as i32
}
