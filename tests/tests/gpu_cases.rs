//! The project's own cases (shaders/cases) drawn on the GPU and on the CPU reference.
//!
//! Every case must pass its probes on the CPU and on the GPU, and the two images must match; a
//! case whose shaders the translator refuses fails. Without a GPU adapter the GPU half is skipped
//! loudly, or fails with `REQUIRE_GPU=1`.

use std::path::Path;

use gpu_harness::case::{case_files, Case};
use gpu_harness::device::gpu_for_test;
use gpu_harness::interpreted::Interpreter;
use gpu_harness::runner::{Backend, Runner, Verdict};
use gpu_harness::translated::Translator;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace")
}

fn cases() -> Vec<(std::path::PathBuf, Case)> {
    let files = case_files(&repo().join("shaders/cases")).expect("shaders/cases exists");
    assert!(files.len() >= 10, "only {} own cases", files.len());
    files.into_iter().map(|f| (f.clone(), Case::load(&f).unwrap_or_else(|e| panic!("{e}")))).collect()
}

fn runner(backend: Backend, gpu: Option<&gpu_harness::device::Gpu>) -> Runner<'_> {
    Runner::new(gpu, &Interpreter, &Translator, vec![repo().join("shaders")], backend)
}

#[test]
fn own_cases_pass_on_the_cpu() {
    let r = runner(Backend::Cpu, None);
    let mut failures = Vec::new();
    for (path, case) in cases() {
        match r.run_case(&case, &path).verdict {
            Verdict::Pass => {}
            v => failures.push(format!("{}: {v:?}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn own_cases_pass_on_the_gpu_and_match_the_cpu() {
    let Some(gpu) = gpu_for_test("own_cases_pass_on_the_gpu_and_match_the_cpu") else { return };
    let r = runner(Backend::Both, Some(&gpu));
    let (mut failures, mut passed) = (Vec::new(), 0);
    for (path, case) in cases() {
        match r.run_case(&case, &path).verdict {
            Verdict::Pass => passed += 1,
            v => failures.push(format!("{}: {v:?}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed >= 8, "only {passed} cases passed on the GPU");
}

#[test]
fn a_wrong_expectation_fails_and_an_alternative_is_noted() {
    let text = std::fs::read_to_string(repo().join("shaders/cases/ff_alphatest_low_byte.toml")).unwrap();
    // The left half is green; claim red instead.
    let wrong = text.replacen("expected = 0x0000ff00", "expected = 0x00ff0000", 1);
    let case = Case::parse(&wrong, Path::new("wrong.toml")).unwrap();
    let r = runner(Backend::Cpu, None).run_case(&case, Path::new("wrong.toml"));
    assert!(matches!(&r.verdict, Verdict::Fail(m) if m.len() == 1 && m[0].contains("(4, 8)")), "{:?}", r.verdict);
    // The same wrong value with the true colour as an alternative passes, noted as broken().
    let alt = wrong.replacen("expected = 0x00ff0000", "expected = 0x00ff0000\naccept_also = [0x0000ff00]", 1);
    let case = Case::parse(&alt, Path::new("alt.toml")).unwrap();
    let r = runner(Backend::Cpu, None).run_case(&case, Path::new("alt.toml"));
    assert_eq!(r.verdict, Verdict::Pass);
    assert!(r.notes.iter().any(|n| n.contains("broken()")), "{:?}", r.notes);
}
