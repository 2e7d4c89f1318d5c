//! A short fixed-seed batch of `cargo xtask fuzz-diff`: random valid programs of every version
//! drawn on the GPU (the software Vulkan driver in CI) and on the CPU reference must agree.
//! Without an adapter the test skips loudly; with `REQUIRE_GPU=1` that is a failure.

use d3d9_tests::diff::{run, DiffOutcome};
use d3d9_tests::generate::{generate, versions};

#[test]
fn generated_programs_draw_the_same_on_gpu_and_cpu() {
    let Some(gpu) = gpu_harness::device::gpu_for_test("generated_programs_draw_the_same_on_gpu_and_cpu") else { return };
    let dir = std::env::temp_dir().join(format!("d3d9-fuzz-diff-{}", std::process::id()));
    let per_version: u64 = std::env::var("D3D9_FUZZ_DIFF_PER_VERSION").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    // Two programs per version: 34, of which the vs_3_0 ones that fetch vertex textures skip.
    let mut failures = Vec::new();
    let mut passed = 0;
    for v in versions() {
        for seed in 0..per_version {
            let g = generate(v, 1000 + seed).unwrap();
            let name = format!("{}_{}", v.to_string().replace('.', "_"), 1000 + seed);
            match run(&g, &name, Some(&gpu), &dir) {
                DiffOutcome::Pass => passed += 1,
                DiffOutcome::Skip(why) => eprintln!("{name}: skipped: {why}"),
                DiffOutcome::Mismatch(m) => failures.push(format!("{name}: {}", m.join("; "))),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{passed} programs agree");
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}
