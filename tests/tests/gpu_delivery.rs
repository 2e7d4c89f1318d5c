//! The project's own cases drawn with the render-state modes delivered as pipeline constants and
//! as render-state block data ([`gpu_harness::translated::Delivering`]): every case must pass its
//! probes and match the CPU reference as it does with the modes baked (tests/gpu_cases.rs).

use std::path::Path;

use d3d9_shader::Delivery;
use gpu_harness::case::{case_files, Case};
use gpu_harness::device::gpu_for_test;
use gpu_harness::interpreted::Interpreter;
use gpu_harness::runner::{Backend, Runner, Verdict};
use gpu_harness::translated::Delivering;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace")
}

#[test]
fn own_cases_pass_on_the_gpu_under_override_and_uniform_delivery() {
    let Some(gpu) = gpu_for_test("own_cases_pass_on_the_gpu_under_override_and_uniform_delivery") else { return };
    let files = case_files(&repo().join("shaders/cases")).expect("shaders/cases exists");
    let mut failures = Vec::new();
    let mut passed = 0;
    for delivery in [Delivery::Override, Delivery::Uniform] {
        let translator = Delivering(delivery);
        let r = Runner::new(Some(&gpu), &Interpreter, &translator, vec![repo().join("shaders")], Backend::Both);
        for f in &files {
            let case = Case::load(f).unwrap_or_else(|e| panic!("{e}"));
            match r.run_case(&case, f).verdict {
                Verdict::Pass => passed += 1,
                v => failures.push(format!("{} ({delivery}): {v:?}", case.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed >= 16, "only {passed} case draws passed");
}
