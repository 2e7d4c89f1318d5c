//! Every linked vertex/pixel pair of the conformance cases creates a render pipeline in Dawn
//! (Chromium's WebGPU, null backend; `tests/tint.rs`): each draw's shaders translated as the GPU
//! harness translates them (`gpu_harness::linked`: keys from the draw's state, the pair linked by
//! semantic), with bind group layouts from the translation's documented `BindingLayout`, a
//! `float32x4` vertex attribute per vertex input, the case's colour targets and a depth target
//! when the pixel shader writes depth. This checks what module-by-module checks cannot: that the
//! vertex outputs match the pixel inputs, and that the bindings match their documentation. A
//! shader drawn with a fixed-function partner is compiled alone. Cases the runner skips are
//! skipped here too (listed).
//!
//! Cases: `shaders/cases`, `../shared/conformance` (shaders resolve against `../shared/corpus`
//! and `shaders/`, as `cargo xtask conformance` resolves them) and `../shared/conformance-vkd3d`
//! (shaders in `../shared/corpus-vkd3d`).

use std::path::{Path, PathBuf};

use d3d9_tests::tint_check::Checker;
use d3d9_tests::{display_path, shared_for_test};
use gpu_harness::case::{case_files, Case};
use gpu_harness::runner::Runner;
use gpu_harness::translated::Translator;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace").to_path_buf()
}

/// (case folder, shader roots) of every case set.
fn case_sets() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let own = repo().join("shaders");
    let mut sets = vec![(own.join("cases"), vec![own.clone()])];
    if let Some(shared) = shared_for_test("tint_pairs") {
        sets.push((shared.join("conformance"), vec![shared.join("corpus"), own]));
        sets.push((shared.join("conformance-vkd3d"), vec![shared.join("corpus-vkd3d")]));
    }
    sets
}

fn runner(roots: Vec<PathBuf>) -> Runner<'static> {
    Runner::without_gpu(Some(&Translator), roots)
}

#[test]
fn every_linked_pair_of_the_conformance_cases_creates_a_dawn_pipeline() {
    let Some(mut checker) = Checker::for_test("every_linked_pair_of_the_conformance_cases_creates_a_dawn_pipeline")
    else {
        return;
    };
    let start = std::time::Instant::now();
    let (mut cases, mut skipped) = (0, Vec::new());
    for (dir, roots) in case_sets() {
        let r = runner(roots);
        let files = case_files(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        assert!(!files.is_empty(), "no cases in {}", dir.display());
        for f in files {
            let label = display_path(&f);
            let case = match Case::load(&f) {
                Ok(c) => c,
                Err(e) => {
                    checker.fail(label, e.to_string());
                    continue;
                }
            };
            cases += 1;
            if let Some(why) = checker.case(&r, &case, &label).expect("the Tint checker") {
                skipped.push(format!("{label}: {why}"));
            }
        }
    }
    if !skipped.is_empty() {
        eprintln!("{} cases skipped (as the runner skips them):\n  {}", skipped.len(), skipped.join("\n  "));
    }
    let failures = checker.finish("conformance pairs").expect("the Tint checker");
    eprintln!("tint_pairs: {cases} cases in {:.1} s", start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "Dawn refused {} draws (first above)", failures.len());
}
