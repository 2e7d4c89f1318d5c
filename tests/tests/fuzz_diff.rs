//! A short fixed-seed batch of `cargo xtask fuzz-diff`: random valid programs of every version
//! drawn on the GPU (the software Vulkan driver in CI) and on the CPU reference must agree.
//! Without an adapter the test skips loudly; with `REQUIRE_GPU=1` that is a failure. Their WGSL
//! must also pass Tint (`d3d9_tests::tint`), as in `cargo xtask fuzz-diff`.
//! The seeds (2000, 2001) are a batch that agrees today; `cargo xtask fuzz-diff` over thousands
//! of programs lists the disagreements still open (texkill at the quad edge, subroutine writes,
//! texm3x3spec, co-issued cmp in ps_1_2), which a batch meeting one of them would report.

use d3d9_tests::diff::{run, tint_check, DiffOutcome};
use d3d9_tests::generate::{generate, versions};
use d3d9_tests::tint_check::Checker;

#[test]
fn generated_programs_draw_the_same_on_gpu_and_cpu() {
    let Some(gpu) = gpu_harness::device::gpu_for_test("generated_programs_draw_the_same_on_gpu_and_cpu") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("d3d9-fuzz-diff-{}", std::process::id()));
    let per_version: u64 = std::env::var("D3D9_FUZZ_DIFF_PER_VERSION").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    // Two programs per version: 34 (vs_3_0 programs fetch vertex textures from stages 257+).
    let mut failures = Vec::new();
    let mut passed = 0;
    // As `cargo xtask fuzz-diff` does, each program's WGSL goes through Tint too.
    let mut tint = Checker::for_test("generated_programs_draw_the_same_on_gpu_and_cpu");
    for v in versions() {
        for seed in 0..per_version {
            let g = generate(v, 2000 + seed).unwrap();
            let name = format!("{}_{}", v.to_string().replace('.', "_"), 2000 + seed);
            match run(&g, &name, Some(&gpu), &dir) {
                DiffOutcome::Pass => passed += 1,
                DiffOutcome::Skip(why) => eprintln!("{name}: skipped: {why}"),
                DiffOutcome::Mismatch(m) => failures.push(format!("{name}: {}", m.join("; "))),
            }
            if let Some(checker) = tint.as_mut() {
                tint_check(&g, &name, checker).expect("the Tint checker");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(checker) = tint {
        failures.extend(checker.finish("fuzz-diff batch").expect("the Tint checker"));
    }
    eprintln!("{passed} programs agree");
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// Reproducers fuzz-diff found, drawn again: each must now agree.
/// - vs_1_1 `logp` of 0: the GPU path gave a NaN mantissa where the logp page (and the
///   interpreter) give −FLT_MAX.
/// - `callnz`: registers the subroutine wrote kept their values from before the call.
#[test]
fn fuzz_diff_reproducers_agree() {
    use d3d9_shader::bytecode::{Register, RegisterType, Usage};
    use d3d9_tests::generate::{Generated, Input};
    let Some(gpu) = gpu_harness::device::gpu_for_test("fuzz_diff_reproducers_agree") else { return };
    let dir = std::env::temp_dir().join(format!("d3d9-fuzz-diff-repro-{}", std::process::id()));
    let text =
        "vs_1_1\ndcl_position v0\nlogp r5, c3.w\nmov oPos, v0\nmov oD0, c0\nmov oD1, c0\nmov oT0, r5\nmov oT1, r5\n";
    let g = Generated {
        program: d3d9_shader::asm::assemble(text).unwrap(),
        float_consts: vec![(0, [0.25, 0.5, 0.75, 1.0]), (3, [1.0, 2.0, 3.0, 0.0])],
        int_consts: vec![],
        bool_consts: vec![],
        inputs: vec![Input {
            reg: Register::new(RegisterType::Input, 0),
            usage: Usage::Position,
            usage_index: 0,
            value: [0.0, 0.0, 0.5, 1.0],
        }],
        samplers: vec![],
        bump_env: vec![],
    };
    let outcome = run(&g, "logp_zero", Some(&gpu), &dir);
    assert!(matches!(outcome, DiffOutcome::Pass), "logp of 0: {outcome:?}");
    // callnz: main read r4 from before the call (the translator kept its cached value).
    let text = "vs_2_0\ndcl_position v0\ndef c0, 0.25, 0.5, 0.75, 1\ndef c1, 0.5, 0.5, 0.5, 0.5\nmov r4, c0\ncallnz l0, b0\nmov oPos, v0\nmov oD0, c0\nmov oD1, c0\nmov oT0, c0\nmov oT1, r4\nret\nlabel l0\nmov r4, c1\nret\n";
    let g = Generated {
        program: d3d9_shader::asm::assemble(text).unwrap(),
        float_consts: vec![],
        bool_consts: vec![(0, true)],
        ..g
    };
    let outcome = run(&g, "callnz", Some(&gpu), &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(matches!(outcome, DiffOutcome::Pass), "callnz: {outcome:?}");
}

/// Vertex texture fetch reproducers (vs_3_0 `texldl` on D3DVERTEXTEXTURESAMPLERn, case stages
/// 257 + n), drawn again: each must agree.
/// - A cube corner `(x, x, x)` (a replicated scalar): the interpreter chose +X, the GPU +Z (the
///   D3D10 tie order Z, then Y, then X, which the interpreter now follows).
/// - A NaN cube direction (`crs` of huge values in the original; `inf - inf` here): D3D9 leaves
///   the texel undefined, so the CPU marks the vertex's pixels as ties and the images may differ
///   there.
#[test]
fn vertex_texture_fetch_reproducers_agree() {
    use d3d9_shader::bytecode::{Register, RegisterType, TextureType, Usage};
    use d3d9_tests::generate::{Generated, Input};
    let Some(gpu) = gpu_harness::device::gpu_for_test("vertex_texture_fetch_reproducers_agree") else { return };
    let dir = std::env::temp_dir().join(format!("d3d9-fuzz-diff-vtf-{}", std::process::id()));
    let head = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\ndcl_texcoord o2\ndcl_2d s0\ndcl_cube s1\ndcl_volume s2\n";
    let programs = [
        ("cube_corner", "def c0, 6.7816, 6.7816, 6.7816, 0\nmov o0, v0\ntexldl r0, c0, s1\nmov o1, r0\nmov o2, c0\n"),
        (
            "cube_nan",
            "def c0, 0, 0, 0, 0\nmov o0, v0\nrcp r1, c0.x\nadd r2, r1, -r1\nmov r2.w, c0.w\ntexldl r0, r2, s1\nmov o1, r0\nmov o2, c0\n",
        ),
    ];
    let mut failures = Vec::new();
    for (name, body) in programs {
        let g = Generated {
            program: d3d9_shader::asm::assemble(&format!("{head}{body}")).unwrap(),
            float_consts: vec![],
            int_consts: vec![],
            bool_consts: vec![],
            inputs: vec![Input {
                reg: Register::new(RegisterType::Input, 0),
                usage: Usage::Position,
                usage_index: 0,
                value: [0.0, 0.0, 0.5, 1.0],
            }],
            samplers: vec![(0, TextureType::Tex2D), (1, TextureType::Cube), (2, TextureType::Volume)],
            bump_env: vec![],
        };
        match run(&g, name, Some(&gpu), &dir) {
            DiffOutcome::Pass => {}
            other => failures.push(format!("{name}: {other:?}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
