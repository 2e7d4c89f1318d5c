//! Shader Model 1 pixel texture instructions, written as assembly, each expectation derived by
//! hand from docs/opcodes.md#ps1x-texture-ops and the sections of docs/d3d9-rules.md cited in the test.
//! The test evaluator's sample returns (u, v, w or 0, −1): the coordinates used (w only for
//! cube and volume stages).

use super::eval::{vec4, Outcome, Value};
use super::*;
use crate::bytecode::TextureType;

fn asm(text: &str) -> Program {
    crate::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn outputs(text: &str, run: &Run) -> HashMap<String, Value> {
    match super::run(&asm(text), run) {
        Outcome::Output(m) => m,
        Outcome::Killed => panic!("killed"),
    }
}

/// r0 as the program left it, where it lies in [−16, 16]: r0 leaves a ps_1_x shader saturated
/// (docs/d3d9-rules.md#ps1x-output-clamp), so a last `mad r0, r0, 1/32, 0.5` carries it into
/// [0, 1] and the colour is read back as (x − 0.5)·32 (exact for dyadic values, within 1e-5 for
/// the others). `text` starts with its version line; c6 and c7 must be free.
fn color(text: &str, run: &Run) -> [f32; 4] {
    let (version, rest) = text.split_once('\n').expect("a version line");
    let encoded = format!(
        "{version}\ndef c6, 0.03125, 0.03125, 0.03125, 0.03125\ndef c7, 0.5, 0.5, 0.5, 0.5\n{rest}\nmad r0, r0, c6, c7"
    );
    outputs(&encoded, run)["oC0"].vec4().map(|x| (x - 0.5) * 32.0)
}

fn sets(list: &[(u32, [f32; 4])]) -> Run {
    Run { inputs: list.to_vec(), ..Run::default() }
}

/// `run` with stage `n` bound to a texture of type `ty` (3-component sample coordinates).
fn with_stage(mut run: Run, n: usize, ty: TextureType) -> Run {
    run.key.sampler_types[n] = Some(ty);
    run
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

const SET0: [f32; 4] = [0.25, 0.5, 0.75, 2.0];

#[test]
fn texreg2ar_gb_rgb_sample_with_the_named_channels_of_tn() {
    // texcoord t0 = (sat 0.25, sat 0.5, sat 0.75, 1) = (0.25, 0.5, 0.75, 1).
    let run = sets(&[(0, SET0)]);
    // texreg2ar: (u, v) = (t0.a, t0.r) = (1, 0.25).
    let p = "ps_1_1\ntexcoord t0\ntexreg2ar t1, t0\nmov r0, t1";
    assert_eq!(color(p, &run), [1.0, 0.25, 0.0, -1.0]);
    // texreg2gb: (u, v) = (t0.g, t0.b) = (0.5, 0.75).
    let p = "ps_1_1\ntexcoord t0\ntexreg2gb t1, t0\nmov r0, t1";
    assert_eq!(color(p, &run), [0.5, 0.75, 0.0, -1.0]);
    // texreg2rgb on a volume stage: (u, v, w) = (t0.r, t0.g, t0.b) = (0.25, 0.5, 0.75).
    let p = "ps_1_2\ntexcoord t0\ntexreg2rgb t1, t0\nmov r0, t1";
    assert_eq!(color(p, &with_stage(sets(&[(0, SET0)]), 1, TextureType::Volume)), [0.25, 0.5, 0.75, -1.0]);
}

/// t0 = (0.25, 0.5, 0.75, 1) from set 0; the rows (sets 1–3) are ŷ, x̂, ẑ (permuted, so a row
/// taken from the wrong set shows), with w = 9 that no dot product may read.
fn m3x3_run() -> Run {
    sets(&[(0, SET0), (1, [0.0, 1.0, 0.0, 9.0]), (2, [1.0, 0.0, 0.0, 9.0]), (3, [0.0, 0.0, 1.0, 9.0])])
}

#[test]
fn texm3x3tex_and_texm3x3_multiply_by_the_three_rows() {
    // Row·t0: set1·t0 = 0.5, set2·t0 = 0.25, set3·t0 = 0.75 → (0.5, 0.25, 0.75).
    let p = "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3";
    assert_eq!(color(p, &with_stage(m3x3_run(), 3, TextureType::Cube)), [0.5, 0.25, 0.75, -1.0]);
    // texm3x3 (ps_1_2): no lookup, t3 = (0.5, 0.25, 0.75, 1).
    let p = "ps_1_2\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3";
    assert_eq!(color(p, &m3x3_run()), [0.5, 0.25, 0.75, 1.0]);
}

#[test]
fn texm3x3spec_and_vspec_reflect_the_eye_about_the_normal() {
    // Rows x̂, ŷ, ẑ; t0 = (0, 0.5, 0.5, 1) → N = (0, 0.5, 0.5). Eye E = (0, 1, 0):
    // N·E = 0.5, N·N = 0.5, R = 2·N·(N·E)/(N·N) − E = 2·N − E = (0, 1, 1) − (0, 1, 0) = (0, 0, 1).
    let rows = |w: [f32; 3]| {
        let run = sets(&[
            (0, [0.0, 0.5, 0.5, 1.0]),
            (1, [1.0, 0.0, 0.0, w[0]]),
            (2, [0.0, 1.0, 0.0, w[1]]),
            (3, [0.0, 0.0, 1.0, w[2]]),
        ]);
        with_stage(run, 3, TextureType::Cube)
    };
    let spec = "ps_1_1\ndef c0, 0, 1, 0, 0\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3";
    // The sets' w (0.5 each) must not be the eye for spec.
    assert_eq!(color(spec, &rows([0.5, 0.5, 0.5])), [0.0, 0.0, 1.0, -1.0]);
    // vspec: E = (set1.w, set2.w, set3.w) = (0, 1, 0), the same reflection.
    let vspec = "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3";
    assert_eq!(color(vspec, &rows([0.0, 1.0, 0.0])), [0.0, 0.0, 1.0, -1.0]);
    // E = (1, 0, 0): N·E = 0, R = −E = (−1, 0, 0).
    assert_eq!(color(vspec, &rows([1.0, 0.0, 0.0])), [-1.0, 0.0, 0.0, -1.0]);
}

#[test]
fn texdp3_replicates_and_texdp3tex_samples_at_the_dot_product() {
    // set1 = (0.5, 0.5, 0.5, 7): set1.xyz·t0.xyz = 0.125 + 0.25 + 0.375 = 0.75 (w not used).
    let run = sets(&[(0, SET0), (1, [0.5, 0.5, 0.5, 7.0])]);
    let p = "ps_1_2\ntexcoord t0\ntexdp3 t1, t0\nmov r0, t1";
    assert_eq!(color(p, &run), [0.75; 4]);
    // texdp3tex samples (0.75, 0).
    let p = "ps_1_2\ntexcoord t0\ntexdp3tex t1, t0\nmov r0, t1";
    assert_eq!(color(p, &run), [0.75, 0.0, 0.0, -1.0]);
}

#[test]
fn texm3x2depth_writes_z_over_w_and_one_when_w_is_zero() {
    // z = set1·t0 = 0.25 (x̂), w = set2·t0 = 0.5 (ŷ): depth = 0.25 / 0.5 = 0.5.
    let p = "ps_1_3\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0";
    let m = outputs(p, &sets(&[(0, SET0), (1, [1.0, 0.0, 0.0, 0.0]), (2, [0.0, 1.0, 0.0, 0.0])]));
    assert_eq!(m["oDepth"], Value::F(0.5));
    // w = 0 (set 2 = 0): depth 1.
    let m = outputs(p, &sets(&[(0, SET0), (1, [1.0, 0.0, 0.0, 0.0]), (2, [0.0; 4])]));
    assert_eq!(m["oDepth"], Value::F(1.0));
}

#[test]
fn texbeml_scales_all_four_channels_by_the_luminance() {
    // docs/d3d9-rules.md#texbem and docs/opcodes.md#ps1x-texture-ops (texbeml). Matrix of stage 1
    // (1, 0, 0, 2); t0 = (0.5, 0.25, 0.5, 1); set 1 = (0.1, 0.2): u' = 0.1 + 0.5 = 0.6,
    // v' = 0.2 + 2·0.25 = 0.7; sample (0.6, 0.7, 0, −1).
    // Luminance (LSCALE, LOFFSET) = (2, 0.25): L = t0.b·2 + 0.25 = 1.25 scales all of RGBA:
    // (0.75, 0.875, 0, −1.25).
    let mut env = vec![vec4([0.0; 4]); 8];
    env[1] = vec4([1.0, 0.0, 0.0, 2.0]);
    let mut lum = vec![vec4([0.0; 4]); 8];
    lum[1] = vec4([2.0, 0.25, 0.0, 0.0]);
    let run = Run {
        inputs: vec![(0, [0.5, 0.25, 0.5, 1.0]), (1, [0.1, 0.2, 0.0, 1.0])],
        render_state: vec![(10, Value::Agg(env)), (11, Value::Agg(lum))],
        ..Run::default()
    };
    let v = color("ps_1_1\ntexcoord t0\ntexbeml t1, t0\nmov r0, t1", &run);
    assert!(close(v, [0.75, 0.875, 0.0, -1.25]), "{v:?}");
}

#[test]
fn texkill_in_ps_1_4_tests_xyz_of_a_coordinate_set() {
    // docs/d3d9-rules.md#texkill: ps_1_x tests xyz only.
    let kill = |v: [f32; 4]| super::run(&asm("ps_1_4\ntexkill t0\nmov r0, c0"), &sets(&[(0, v)]));
    assert!(matches!(kill([0.5, 0.5, 0.5, -1.0]), Outcome::Output(_)));
    assert!(matches!(kill([0.5, 0.5, -0.1, 1.0]), Outcome::Killed));
    assert!(matches!(kill([-0.5, 0.5, 0.5, 1.0]), Outcome::Killed));
}

#[test]
fn ps_1_4_texcrd_does_not_saturate_and_texld_divides_by_z_or_w() {
    // texcrd copies the set unclamped (unlike ps_1_1 texcoord): (1.5, −0.5, 0.25).
    let run = sets(&[(0, [1.5, -0.5, 0.25, 2.0])]);
    let v = color("ps_1_4\ntexcrd r0.rgb, t0", &run);
    assert_eq!(&v[..3], &[1.5, -0.5, 0.25]);
    // t0 = (1, 2, 4, 8): _dz → (1/4, 2/4) = (0.25, 0.5); _dw → (1/8, 2/8) = (0.125, 0.25).
    let run = sets(&[(0, [1.0, 2.0, 4.0, 8.0])]);
    assert_eq!(color("ps_1_4\ntexld r0, t0_dz", &run), [0.25, 0.5, 0.0, -1.0]);
    assert_eq!(color("ps_1_4\ntexld r0, t0_dw", &run), [0.125, 0.25, 0.0, -1.0]);
    // Plain texld r2, t0 samples stage 2 at (1, 2).
    assert_eq!(color("ps_1_4\ntexld r2, t0\nmov r0, r2", &run), [1.0, 2.0, 0.0, -1.0]);
}

#[test]
fn bem_writes_rg_from_the_bump_matrix_and_keeps_ba() {
    // Stage 1 matrix (1, 0, 0, 2); s0 = (0.1, 0.2), s1 = (0.5, 0.25):
    // x = 0.1 + 1·0.5 + 0·0.25 = 0.6; y = 0.2 + 0·0.5 + 2·0.25 = 0.7; b, a keep (0.3, 0.4).
    let mut env = vec![vec4([0.0; 4]); 8];
    env[1] = vec4([1.0, 0.0, 0.0, 2.0]);
    let run = Run { render_state: vec![(10, Value::Agg(env))], ..Run::default() };
    let p = "ps_1_4\ndef c0, 0.1, 0.2, 0, 0\ndef c1, 0.5, 0.25, 0, 0\ndef c2, 0, 0, 0.3, 0.4\n\
             mov r1, c2\nbem r1.rg, c0, c1\nphase\nmov r0, r1";
    let v = color(p, &run);
    assert!(close(v, [0.6, 0.7, 0.3, 0.4]), "{v:?}");
}

#[test]
fn texdepth_divides_r5_r_by_r5_g_and_clamps() {
    // docs/d3d9-rules.md#texdepth: depth = r5.r / r5.g, clamped to [0, 1], r5.g = 0 gives 1.
    let depth = |r: f32, g: f32| {
        let p = format!("ps_1_4\ndef c0, {r}, {g}, 0, 0\nmov r5, c0\nphase\ntexdepth r5\nmov r0, c0");
        outputs(&p, &Run::default())["oDepth"].clone()
    };
    assert_eq!(depth(0.25, 0.5), Value::F(0.5));
    assert_eq!(depth(0.25, 0.0), Value::F(1.0));
    assert_eq!(depth(0.75, 0.5), Value::F(1.0)); // 1.5 clamps to 1
    assert_eq!(depth(-0.25, 0.5), Value::F(0.0)); // −0.5 clamps to 0

    // docs/d3d9-rules.md#texdepth with docs/d3d9-rules.md#ps1x-constant-clamp: c0.g = 2 is clamped to
    // 1 first: 0.5 / 1 = 0.5 (not 0.25).
    assert_eq!(depth(0.5, 2.0), Value::F(0.5));
}

#[test]
fn phase_1_values_survive_into_phase_2() {
    // r2 = c0 in phase 1 is read after the phase marker; r3 is sampled in phase 2 from the
    // phase-1 r1 = (0.5, 0.25): texld r3, r1 samples stage 3 at (0.5, 0.25).
    let p = "ps_1_4\ndef c0, 0.5, 0.25, 0.75, 1\nmov r2, c0\nmov r1, c0\nphase\ntexld r3, r1\nadd r0, r2, r3";
    // r2 + r3 = (0.5 + 0.5, 0.25 + 0.25, 0.75 + 0, 1 − 1) = (1, 0.5, 0.75, 0).
    assert_eq!(color(p, &Run::default()), [1.0, 0.5, 0.75, 0.0]);
}

#[test]
fn ps_1_4_cnd_compares_each_component_with_one_half() {
    // docs/d3d9-rules.md#cnd: ps_1_4 cnd selects per component on src0 > 0.5.
    // src0 = (0.75, 0.5, 0.25, 1): x > 0.5 → 1, y = 0.5 not > → −1, z → −1, w → 1.
    let p = "ps_1_4\ndef c0, 0.75, 0.5, 0.25, 1\ndef c1, 1, 1, 1, 1\ndef c2, -1, -1, -1, -1\nmov r1, c0\ncnd r0, r1, c1, c2";
    assert_eq!(color(p, &Run::default()), [1.0, -1.0, -1.0, 1.0]);
}

#[test]
fn lenient_ps_1_x_cnd_decides_on_the_w_of_any_condition() {
    // docs/d3d9-rules.md#cnd: before ps_1_4 cnd decides on src0's .w (the runtime's r0.a) for
    // every channel, whatever register and swizzle a lenient parse let through. r1 = (0.75,
    // 0.25, 0.75, 0.25): its .w is not > 0.5, so every channel takes c2, although r1.x and r1.z
    // are above 0.5 (a per-component reading would give (1, 0.25, 0, 0.5)).
    let defs = "def c0, 0.75, 0.25, 0.75, 0.25\ndef c1, 1, 0.5, 0, 1\ndef c2, 0, 0.25, 0.75, 0.5\nmov r1, c0\n";
    let c2 = [0.0, 0.25, 0.75, 0.5];
    for v in ["ps_1_1", "ps_1_2", "ps_1_3"] {
        assert_eq!(color(&format!("{v}\n{defs}cnd r0, r1, c1, c2"), &Run::default()), c2, "{v} r1");
        assert_eq!(color(&format!("{v}\n{defs}cnd r0, c0, c1, c2"), &Run::default()), c2, "{v} c0");
    }
    // r1.x replicates 0.75 into .w: c1 everywhere.
    assert_eq!(color(&format!("ps_1_2\n{defs}cnd r0, r1.x, c1, c2"), &Run::default()), [1.0, 0.5, 0.0, 1.0]);
    // One written channel decides on .w too: r0.x = c2.x = 0 (r1.x alone would pick c1.x = 1).
    let p = format!("ps_1_1\n{defs}mov r0, c1\ncnd r0.x, r1, c1, c2");
    assert_eq!(color(&p, &Run::default()), [0.0, 0.5, 0.0, 1.0]);
}
