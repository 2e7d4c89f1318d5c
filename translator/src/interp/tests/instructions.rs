//! One test (at least) per arithmetic instruction, with the edge values of the D3D9 rules.

use super::*;
use crate::bytecode::TextureDimension;

const INF: f32 = f32::INFINITY;

#[test]
fn mov_add_sub_mul_mad() {
    // c0 = (1, 2, 3, 4), c1 = (10, 20, 30, 40).
    let head = "vs_2_0\ndef c0, 1, 2, 3, 4\ndef c1, 10, 20, 30, 40\n";
    assert_eq!(pos(&format!("{head}mov oPos, c0")), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(pos(&format!("{head}add oPos, c0, c1")), [11.0, 22.0, 33.0, 44.0]);
    assert_eq!(pos(&format!("{head}sub oPos, c0, c1")), [-9.0, -18.0, -27.0, -36.0]);
    assert_eq!(pos(&format!("{head}mul oPos, c0, c1")), [10.0, 40.0, 90.0, 160.0]);
    // mad: c0·c1 + c0 = (11, 42, 93, 164).
    assert_eq!(pos(&format!("{head}mad oPos, c0, c1, c0")), [11.0, 42.0, 93.0, 164.0]);
}

#[test]
fn zero_times_inf_or_nan_is_zero_in_every_multiply() {
    // c0 = 0, c1 = +inf (rcp 0), c2 = NaN (0·inf in IEEE). Strict rule: 0·x = 0.
    let head = "vs_2_0\ndef c0, 0, 0, 0, 0\nrcp r1, c0.x\nmul r2, r1, c0\nadd r2, r1, -r1\n";
    // r1 = +inf; r2 = inf − inf = NaN.
    assert_eq!(pos(&format!("{head}mul oPos, c0, r1")), [0.0; 4]);
    assert_eq!(pos(&format!("{head}mul oPos, r2, c0")), [0.0; 4]);
    assert_eq!(pos(&format!("{head}mad oPos, r1, c0, c0")), [0.0; 4]);
    assert_eq!(pos(&format!("{head}dp3 oPos, r1, c0")), [0.0; 4]);
    assert_eq!(pos(&format!("{head}dp4 oPos, c0, r2")), [0.0; 4]);
    // lrp: s0·(s1 − s2) + s2 with s0 = 0, s1 = inf, s2 = 0 → 0·inf + 0 = 0.
    assert_eq!(pos(&format!("{head}lrp oPos, c0, r1, c0")), [0.0; 4]);
    // IEEE rules: 0·inf = NaN.
    assert!(pos_rules(&format!("{head}mul oPos, c0, r1"), FloatRules::Ieee)[0].is_nan());
    // Fast rules: rcp(0) = FLT_MAX, so 0·FLT_MAX = 0.
    assert_eq!(pos_rules(&format!("{head}mul oPos, c0, r1"), FloatRules::Fast), [0.0; 4]);
    assert_eq!(pos_rules(&format!("{head}mov oPos, r1"), FloatRules::Fast), [f32::MAX; 4]);
}

#[test]
fn rcp_rsq_exp_log_read_the_scalar_component() {
    // c0 = (2, 4, 0, -8). With .xyzw the scalar is .w (docs/d3d9-rules.md#scalar-source).
    let head = "vs_2_0\ndef c0, 2, 4, 0, -8\n";
    assert_eq!(pos(&format!("{head}rcp oPos, c0.x")), [0.5; 4]);
    assert_eq!(pos(&format!("{head}rcp oPos, c0")), [-0.125; 4], ".xyzw reads w = −8");
    assert_eq!(pos(&format!("{head}rcp oPos, c0.z")), [INF; 4], "rcp(0) = +inf");
    // rsq |−8| ... use y: 1/√4 = 0.5; rsq(0) = +inf.
    assert_eq!(pos(&format!("{head}rsq oPos, c0.y")), [0.5; 4]);
    assert_eq!(pos(&format!("{head}rsq oPos, -c0.y")), [0.5; 4], "rsq takes |x|");
    assert_eq!(pos(&format!("{head}rsq oPos, c0.z")), [INF; 4]);
    // exp 2^2 = 4; exp 2^−8 = 1/256.
    assert_eq!(pos(&format!("{head}exp oPos, c0.x")), [4.0; 4]);
    assert_eq!(pos(&format!("{head}exp oPos, c0")), [1.0 / 256.0; 4]);
    // log2 |−8| = 3; log(0) = −FLT_MAX.
    assert_eq!(pos(&format!("{head}log oPos, c0")), [3.0; 4]);
    assert_eq!(pos(&format!("{head}log oPos, c0.z")), [-f32::MAX; 4]);
}

#[test]
fn dot_products_and_dp2add() {
    // c0 = (1, 2, 3, 4), c1 = (5, 6, 7, 8): dp3 = 5 + 12 + 21 = 38; dp4 = 38 + 32 = 70.
    let head = "vs_2_0\ndef c0, 1, 2, 3, 4\ndef c1, 5, 6, 7, 8\n";
    assert_eq!(pos(&format!("{head}dp3 oPos, c0, c1")), [38.0; 4]);
    assert_eq!(pos(&format!("{head}dp4 oPos, c0, c1")), [70.0; 4]);
    // dp2add (ps): 1·5 + 2·6 + c1.w (replicate) = 17 + 8 = 25.
    let p = "ps_2_0\ndef c0, 1, 2, 3, 4\ndef c1, 5, 6, 7, 8\ndp2add r0, c0, c1, c1.w\nmov oC0, r0";
    assert_eq!(color(p), [25.0; 4]);
}

#[test]
fn min_max_slt_sge() {
    // c0 = (1, 5, -2, 0), c1 = (3, 5, -4, -0).
    let head = "vs_2_0\ndef c0, 1, 5, -2, 0\ndef c1, 3, 5, -4, -0\n";
    assert_eq!(pos(&format!("{head}min oPos, c0, c1")), [1.0, 5.0, -4.0, -0.0]);
    assert_eq!(pos(&format!("{head}max oPos, c0, c1")), [3.0, 5.0, -2.0, 0.0]);
    // slt: 1<3, 5<5 no, −2<−4 no, 0<−0 no.
    assert_eq!(pos(&format!("{head}slt oPos, c0, c1")), [1.0, 0.0, 0.0, 0.0]);
    // sge: the complement.
    assert_eq!(pos(&format!("{head}sge oPos, c0, c1")), [0.0, 1.0, 1.0, 1.0]);
    // With r1 = NaN (inf − inf): min = a < b ? a : b and max = a >= b ? a : b give b when a is
    // NaN and NaN when b is; saturating NaN gives 0.
    let nan = "vs_2_0\ndef c0, 0, 0, 0, 0\ndef c1, 1, 1, 1, 1\nrcp r1, c0.x\nadd r1, r1, -r1\n";
    assert_eq!(pos(&format!("{nan}min oPos, r1, c1")), [1.0; 4]);
    assert!(pos(&format!("{nan}min oPos, c1, r1")).iter().all(|x| x.is_nan()));
    assert_eq!(pos(&format!("{nan}max oPos, r1, c1")), [1.0; 4]);
    assert!(pos(&format!("{nan}max oPos, c1, r1")).iter().all(|x| x.is_nan()));
    assert_eq!(pos(&format!("{nan}mov_sat oPos, r1")), [0.0; 4]);
}

#[test]
fn lit_with_power_clamp() {
    // lit (x, y, _, w) = (1, max(x, 0), x > 0 && y > 0 ? y^clamp(w) : 0, 1).
    let head = "vs_2_0\ndef c0, 0.5, 2, 0, 3\ndef c1, -1, 2, 0, 3\ndef c2, 0.5, 0.5, 0, 200\ndef c3, 0.5, 2, 0, 0\n";
    assert_eq!(pos(&format!("{head}lit oPos, c0")), [1.0, 0.5, 8.0, 1.0]);
    assert_eq!(pos(&format!("{head}lit oPos, c1")), [1.0, 0.0, 0.0, 1.0]);
    // 0.5^127.9961 (the clamp of 200): tiny but not 0.5^200.
    let z = pos(&format!("{head}lit oPos, c2"))[2];
    assert_eq!(z, 0.5f32.powf(127.9961));
    // Power 0: y^0 = 1.
    assert_eq!(pos(&format!("{head}lit oPos, c3")), [1.0, 0.5, 1.0, 1.0]);
}

#[test]
fn dst_lrp_frc() {
    // dst: (1, s0.y·s1.y, s0.z, s1.w) with c0 = (9, 2, 3, 9), c1 = (9, 5, 9, 7).
    let head =
        "vs_2_0\ndef c0, 9, 2, 3, 9\ndef c1, 9, 5, 9, 7\ndef c2, 0.25, 0.5, 0, 1\ndef c3, 1.25, -1.25, 3, -0.5\n";
    assert_eq!(pos(&format!("{head}dst oPos, c0, c1")), [1.0, 10.0, 3.0, 7.0]);
    // lrp c2, c0, c1: c2·(c0 − c1) + c1 = (9, 0.5·(−3) + 5, 9, 1·2 + 7) = (9, 3.5, 9, 9).
    assert_eq!(pos(&format!("{head}lrp oPos, c2, c0, c1")), [9.0, 3.5, 9.0, 9.0]);
    // frc: x − floor(x): 0.25, 0.75 (−1.25 − (−2)), 0, 0.5.
    assert_eq!(pos(&format!("{head}frc oPos, c3")), [0.25, 0.75, 0.0, 0.5]);
}

#[test]
fn matrix_macros_read_source_before_writing() {
    // Rows c1..c4 = identity scaled: c1 = (1,0,0,0), c2 = (0,2,0,0), c3 = (0,0,3,0), c4 = (0,0,0,4).
    let head =
        "vs_2_0\ndef c0, 1, 1, 1, 1\ndef c1, 1, 0, 0, 0\ndef c2, 0, 2, 0, 0\ndef c3, 0, 0, 3, 0\ndef c4, 0, 0, 0, 4\n\
                def c5, 5, 5, 5, 5\nmov r0, c0\nmov r1, c5\n";
    assert_eq!(pos(&format!("{head}m4x4 oPos, c0, c1")), [1.0, 2.0, 3.0, 4.0]);
    // m4x3 writes xyz only: w keeps r1.w = 5.
    assert_eq!(pos(&format!("{head}m4x3 r1.xyz, r0, c1\nmov oPos, r1")), [1.0, 2.0, 3.0, 5.0]);
    // m3x4: dp3 with 4 rows: (1, 2, 3, 0).
    assert_eq!(pos(&format!("{head}m3x4 oPos, c0, c1")), [1.0, 2.0, 3.0, 0.0]);
    assert_eq!(pos(&format!("{head}m3x3 r1.xyz, c0, c1\nmov oPos, r1")), [1.0, 2.0, 3.0, 5.0]);
    assert_eq!(pos(&format!("{head}m3x2 r1.xy, c0, c1\nmov oPos, r1")), [1.0, 2.0, 5.0, 5.0]);
    // dst aliases src: r0 = (1,1,1,1) must be read whole before r0.x is written: still (1,2,3,4).
    assert_eq!(pos(&format!("{head}m4x4 r0, r0, c1\nmov oPos, r0")), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn pow_crs_sgn_abs() {
    let head = "vs_2_0\ndef c0, -2, 3, 0, 0.5\ndef c1, 1, 0, 0, 0\ndef c2, 0, 1, 0, 7\n";
    // pow |−2|^3 = 8; pow(x, 0) = 1; pow(0, 0.5) = 0.
    assert_eq!(pos(&format!("{head}pow oPos, c0.x, c0.y")), [8.0; 4]);
    assert_eq!(pos(&format!("{head}pow oPos, c0.x, c0.z")), [1.0; 4]);
    assert_eq!(pos(&format!("{head}pow oPos, c0.z, c0.w")), [0.0; 4]);
    // A zero base with a negative exponent: |0|^−2 = +inf, and |−0|^−0.5 = +inf (fuzz-diff vs_2_x 10485).
    assert_eq!(pos(&format!("{head}pow oPos, c0.z, c0.x")), [INF; 4]);
    assert_eq!(pos(&format!("{head}pow oPos, -c0.z, -c0.w")), [INF; 4]);
    // x × y = z, and w is left alone (r0.w stays 7).
    assert_eq!(pos(&format!("{head}mov r0, c2\ncrs r0.xyz, c1, c2\nmov oPos, r0")), [0.0, 0.0, 1.0, 7.0]);
    // sgn (vs_2_0 form with two scratch temps, docs/d3d9-rules.md#sgn-scratch): (−1, 1, 0, 1).
    assert_eq!(pos(&format!("{head}sgn oPos, c0, r1, r2")), [-1.0, 1.0, 0.0, 1.0]);
    assert_eq!(pos("vs_3_0\ndcl_position o0\ndef c0, -0.5, 0, 2, -0\nsgn o0, c0"), [-1.0, 0.0, 1.0, 0.0]);
    assert_eq!(pos(&format!("{head}abs oPos, c0")), [2.0, 3.0, 0.0, 0.5]);
}

#[test]
fn nrm_scales_every_written_component() {
    // c0 = (3, 0, 4, 10): |xyz| = 5 → (0.6, 0, 0.8, 2): w is scaled too (docs/d3d9-rules.md#nrm).
    assert_eq!(pos("vs_2_0\ndef c0, 3, 0, 4, 10\nnrm oPos, c0"), [0.6, 0.0, 0.8, 2.0]);
    // Zero vector: rsq(0) = inf, 0·inf = 0 under strict rules.
    assert_eq!(pos("vs_2_0\ndef c0, 0, 0, 0, 1\nnrm oPos, c0"), [0.0, 0.0, 0.0, INF]);
}

#[test]
fn sincos_writes_x_cos_and_y_sin_only() {
    // f = 0: cos 0 = 1, sin 0 = 0; z and w keep r0's (5, 5).
    let p = "vs_2_0\ndef c0, 5, 5, 5, 5\ndef c1, 0, 0, 0, 0\nmov r0, c0\nsincos r0.xy, c1.x, c2, c3\nmov oPos, r0";
    assert_eq!(pos(p), [1.0, 0.0, 5.0, 5.0]);
    // SM3 form, f = π/2: (cos, sin) ≈ (0, 1).
    let p = "vs_3_0\ndcl_position o0\ndef c0, 1.5707964, 0, 0, 0\nmov o0, c0.y\nsincos o0.xy, c0.x";
    close(pos(p), [0.0, 1.0, 0.0, 0.0], 1e-6);
}

#[test]
fn expp_and_logp() {
    // vs_1_1: expp(2.5) = (2^2, 0.5, 2^2.5, 1) from .w of a plain source (docs/d3d9-rules.md#scalar-source).
    let out = pos("vs_1_1\ndef c0, 0, 0, 0, 2.5\nexpp oPos, c0");
    close(out, [4.0, 0.5, 5.656854, 1.0], 1e-5);
    // logp(6) = (2, 1.5, log2 6, 1).
    close(pos("vs_1_1\ndef c0, 0, 0, 0, 6\nlogp oPos, c0"), [2.0, 1.5, 2.5849626, 1.0], 1e-6);
    // vs_2_0: replicated 2^f and log2 |f|.
    assert_eq!(pos("vs_2_0\ndef c0, 3, 0, 0, 0\nexpp oPos, c0.x"), [8.0; 4]);
    assert_eq!(pos("vs_2_0\ndef c0, -4, 0, 0, 0\nlogp oPos, c0.x"), [2.0; 4]);
}

#[test]
fn cmp_picks_src1_for_negative_zero_and_cnd_compares_with_half() {
    // cmp: (0 ≥ 0, −0 ≥ 0, −1 < 0, NaN not ≥ 0).
    let p = "ps_2_0\ndef c0, 0, -0, -1, 1\ndef c1, 1, 1, 1, 1\ndef c2, 2, 2, 2, 2\ncmp r0, c0, c1, c2\nmov oC0, r0";
    assert_eq!(color(p), [1.0, 1.0, 2.0, 1.0]);
    // ps_1_4 cnd per component: > 0.5 picks src1 (0.5 itself does not): (c2, c1, c2, c1) =
    // (−1, 1, −1, 1), read inside the shader (r0 leaves it saturated, docs/d3d9-rules.md#ps1x-output-clamp).
    let p = "ps_1_4\ndef c0, 0.5, 0.6, 0, 1\ndef c1, 1, 1, 1, 1\ndef c2, -1, -1, -1, -1\ncnd r0, c0, c1, c2";
    assert_eq!(inside(p), [-1.0, 1.0, -1.0, 1.0]);
    // ps_1_1: one condition, r0.a, selects all channels: r0.a = 0.75 → c1.
    let p = "ps_1_1\ndef c0, 0, 0, 0, 0.75\ndef c1, 1, 0.5, 0, 1\ndef c2, 0, 0, 0, 0\nmov r0, c0\ncnd r0, r0.a, c1, c2";
    assert_eq!(color(p), [1.0, 0.5, 0.0, 1.0]);
}

#[test]
fn setp_and_predicated_writes() {
    // setp_gt p0, (1, 2, 3, 4), (2, 2, 2, 2) → (F, F, T, T); (p0) mov writes z, w only.
    let head = "vs_2_x\ndef c0, 1, 2, 3, 4\ndef c1, 2, 2, 2, 2\ndef c2, 9, 9, 9, 9\nmov r0, c1\nsetp_gt p0, c0, c1\n";
    assert_eq!(pos(&format!("{head}(p0) mov r0, c2\nmov oPos, r0")), [2.0, 2.0, 9.0, 9.0]);
    assert_eq!(pos(&format!("{head}(!p0) mov r0, c2\nmov oPos, r0")), [9.0, 9.0, 2.0, 2.0]);
    // A replicated predicate: (p0.z) writes everything.
    assert_eq!(pos(&format!("{head}(p0.z) mov r0, c2\nmov oPos, r0")), [9.0; 4]);
    // setp_ne with NaN is true; the other comparisons are false (c3.x = 0·… NaN from inf − inf).
    let nan = "vs_2_x\ndef c0, 0, 0, 0, 0\ndef c1, 1, 1, 1, 1\nrcp r1, c0.x\nadd r1, r1, -r1\n";
    assert_eq!(pos(&format!("{nan}setp_ne p0, r1, c0\n(p0) mov r0, c1\nmov oPos, r0")), [1.0; 4]);
    assert_eq!(pos(&format!("{nan}mov r0, c0\nsetp_eq p0, r1, c0\n(p0) mov r0, c1\nmov oPos, r0")), [0.0; 4]);
}

#[test]
fn dsx_dsy_difference_the_quad() {
    // Quad with v0 = (x, y, x·y, 0) at pixel (x, y) ∈ {0,1}²: dsx = (1, 0, y, 0), dsy = (0, 1, x, 0).
    let p = asm("ps_2_x\ndcl v0\ndsx r0, v0\ndsy r1, v0\nmov oC0, r0\nmov oC1, r1");
    let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
        let (x, y) = ((lane & 1) as f32, (lane >> 1) as f32);
        let mut i = PixelInput::default();
        i.v[0] = [x, y, x * y, 0.0];
        i
    });
    let out = run_pixel_quad(&p, &inputs, &Constants::default(), &Options::default(), &UnboundSampler).unwrap();
    assert_eq!(out[0].color[0].unwrap(), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(out[2].color[0].unwrap(), [1.0, 0.0, 1.0, 0.0], "bottom row: d(xy)/dx = y = 1");
    assert_eq!(out[0].color[1].unwrap(), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(out[3].color[1].unwrap(), [0.0, 1.0, 1.0, 0.0], "right column: d(xy)/dy = x = 1");
}

#[test]
fn mova_rounds_and_mov_a0_floors() {
    // c[a0.x + 3] selects among c0..c6 = 0..6 (the shape of Wine's test_mova).
    let defs = "def c0, 0, 0, 0, 0\ndef c1, 1, 1, 1, 1\ndef c2, 2, 2, 2, 2\ndef c3, 3, 3, 3, 3\n\
                def c4, 4, 4, 4, 4\ndef c5, 5, 5, 5, 5\ndef c6, 6, 6, 6, 6\n";
    for (x, floor, round) in [(0.4, 0, 0), (-0.4, -1, 0), (1.6, 1, 2), (-1.6, -2, -2), (2.4, 2, 2), (-2.4, -3, -2)] {
        let c = floats(&[(7, [x, 0.0, 0.0, 0.0])]);
        let v11 = pos_with(&format!("vs_1_1\n{defs}mov a0.x, c7.x\nmov oPos, c[a0.x + 3]"), &c);
        assert_eq!(v11[0], (floor + 3) as f32, "mov a0 floors {x}");
        let v20 = pos_with(&format!("vs_2_0\n{defs}mova a0.x, c7.x\nmov oPos, c[a0.x + 3]"), &c);
        assert_eq!(v20[0], (round + 3) as f32, "mova rounds {x}");
    }
}

#[test]
fn texld_variants_sample_with_projection_bias_level_and_gradients() {
    // 4×4 level 0 of 1s, 2×2 level 1 of 2s, 1×1 level 2 of 3s (red channel), point mips.
    let mut texels = vec![[1.0, 0.0, 0.0, 1.0]; 16];
    texels.extend([[2.0, 0.0, 0.0, 1.0]; 4]);
    texels.push([3.0, 0.0, 0.0, 1.0]);
    let mut t = ReferenceTexture::new(TextureDimension::Tex2D, 4, 4, 1, 3, texels).unwrap();
    t.mip_filter = MipFilter::Point;
    let mut s = ReferenceSampler::default();
    s.bind(0, t);
    let run = |body: &str, t0: [f32; 4]| {
        let mut input = PixelInput::default();
        input.t[0] = t0;
        let text = format!(
            "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ndef c0, 0.5, 0, 0, 0\ndef c1, 0, 0.5, 0, 0\n{body}\nmov oC0, r0"
        );
        pixel(
            &text,
            &{
                let mut i = input;
                i.v[0] = t0;
                i
            },
            &Constants::default(),
            &Options::default(),
            &s,
        )
        .color[0]
            .unwrap()[0]
    };
    // Equal quad inputs: derivatives 0 → level 0.
    assert_eq!(run("texld r0, v0, s0", [0.5, 0.5, 0.0, 1.0]), 1.0);
    // Zero derivatives give level log2(0) = −inf, which no bias lifts: still level 0.
    assert_eq!(run("texldb r0, v0, s0", [0.5, 0.5, 0.0, 1.0]), 1.0);
    // texldb in a quad whose u steps 0.25 per pixel: 0.25 · 4 texels = 1 → log2 1 = 0; bias w = 1
    // → level 1; w = 2 → level 2.
    let quad = |w: f32| {
        let p = asm("ps_2_0\ndcl t0\ndcl_2d s0\ntexldb r0, t0, s0\nmov oC0, r0");
        let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
            let mut i = PixelInput::default();
            i.t[0] = [0.25 + 0.25 * (lane & 1) as f32, 0.5, 0.0, w];
            i
        });
        run_pixel_quad(&p, &inputs, &Constants::default(), &Options::default(), &s).unwrap()[0].color[0].unwrap()[0]
    };
    assert_eq!(quad(0.0), 1.0);
    assert_eq!(quad(1.0), 2.0);
    assert_eq!(quad(2.0), 3.0);
    // texldl: level from w.
    assert_eq!(run("texldl r0, v0, s0", [0.5, 0.5, 0.0, 2.0]), 3.0);
    // texldd: ddx = (0.5, 0): 0.5·4 = 2 texels → level 1.
    assert_eq!(run("texldd r0, v0, s0, c0, c1", [0.5, 0.5, 0.0, 0.0]), 2.0);
    // texldp divides by w: (1.5, 1.5)/3 = (0.5, 0.5) — inside the texture either way, so check
    // with a texture that differs: see the ps_2_0 test below.
    let mut quad = ReferenceTexture::from_argb8_2d(2, 1, &[0xFF000000, 0xFFFF0000]).unwrap();
    quad.address = AddressMode::Clamp;
    let mut s2 = ReferenceSampler::default();
    s2.bind(0, quad);
    let mut input = PixelInput::default();
    // t0 = (1.2, 0.5, 0, 4): u = 1.2 → clamped to the right texel (red); projected u = 0.3 → left (black).
    input.t[0] = [1.2, 0.5, 0.0, 4.0];
    let p = |op: &str| format!("ps_2_0\ndcl t0\ndcl_2d s0\n{op} r0, t0, s0\nmov oC0, r0");
    let o = Options::default();
    assert_eq!(pixel(&p("texld"), &input, &Constants::default(), &o, &s2).color[0].unwrap(), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(pixel(&p("texldp"), &input, &Constants::default(), &o, &s2).color[0].unwrap(), [0.0, 0.0, 0.0, 1.0]);
    // Unbound sampler: (0, 0, 0, 1).
    assert_eq!(
        pixel(&p("texld"), &input, &Constants::default(), &o, &UnboundSampler).color[0].unwrap(),
        [0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn implicit_lod_comes_from_the_quad() {
    // 4×4 level 0 = 1, 2×2 level 1 = 2; coordinates step 0.5 per pixel → 2 texels → level 1.
    let mut texels = vec![[1.0, 0.0, 0.0, 1.0]; 16];
    texels.extend([[2.0, 0.0, 0.0, 1.0]; 4]);
    let mut t = ReferenceTexture::new(TextureDimension::Tex2D, 4, 4, 1, 2, texels).unwrap();
    t.mip_filter = MipFilter::Point;
    let mut s = ReferenceSampler::default();
    s.bind(0, t);
    let p = asm("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0");
    let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
        let mut i = PixelInput::default();
        i.t[0] = [0.25 + 0.5 * (lane & 1) as f32, 0.25 + 0.5 * (lane >> 1) as f32, 0.0, 1.0];
        i
    });
    let out = run_pixel_quad(&p, &inputs, &Constants::default(), &Options::default(), &s).unwrap();
    assert!(out.iter().all(|o| o.color[0].unwrap()[0] == 2.0));
}

#[test]
fn vertex_texldl_reads_vertex_samplers() {
    // vs_3_0 texldl from vertex sampler 1: a 1×1 texture (0.5 grey) bound there.
    let s = ReferenceSampler {
        vertex_textures: vec![None, Some(ReferenceTexture::from_argb8_2d(1, 1, &[0x80808080]).unwrap())],
        ..ReferenceSampler::default()
    };
    let p = asm("vs_3_0\ndcl_position o0\ndcl_2d s1\ndef c0, 0.5, 0.5, 0, 0\ntexldl o0, c0, s1");
    let out = run_vertex(&p, &VertexInput::default(), &Constants::default(), &Options::default(), &s).unwrap();
    assert_eq!(out.outputs[0].value, [128.0 / 255.0; 4]);
}

#[test]
fn products_are_rounded_before_the_sum() {
    // a = 1 + 2⁻¹²: a·a = 1 + 2⁻¹¹ + 2⁻²⁴, which rounds to 1 + 2⁻¹¹ in fp32 (2⁻²⁴ is half an ulp,
    // ties to even). mad a, a, −(1 + 2⁻¹¹) is therefore 0; a fused multiply-add would give 2⁻²⁴.
    let head = "vs_2_0\ndef c0, 1.000244140625, 0, 0, 0\ndef c1, 1.00048828125, 0, 0, 0\n";
    assert_eq!(pos(&format!("{head}mad oPos, c0.x, c0.x, -c1.x")), [0.0; 4]);
    // The same in a dot product: dp3 (a, 1, 0)·(a, −(1 + 2⁻¹¹), 0) = 0.
    let dp = format!(
        "{head}def c2, 1.000244140625, 1, 0, 0\ndef c3, 1.000244140625, -1.00048828125, 0, 0\ndp3 oPos, c2, c3"
    );
    assert_eq!(pos(&dp), [0.0; 4]);
}

#[test]
fn nop_and_partial_precision_change_nothing() {
    // _pp is computed at fp32: 1/3 exactly as fp32 division gives it.
    let p = "vs_2_0\ndef c0, 3, 3, 3, 3\nnop\nrcp_pp oPos, c0.x";
    assert_eq!(pos(p), [1.0f32 / 3.0; 4]);
}

#[test]
fn skewed_runs_span_a_driver_reassociating_a_sum_across_instructions() {
    // fuzz-diff seed 1796701136: r1 = −z + w with z = w = −1e30 is exactly 0, so D3D9 gives
    // r2 = c0 + 0; lavapipe computed (c0 − z) + w = 0. The skewed runs move the second sum by an
    // ulp of the chain's largest term (1e30: 2^76), so their spread holds both answers
    // (src/interp/reassociation.rs).
    let p = "vs_2_0\ndcl_position v0\ndef c0, -0.0208, 0, 0, 1\nadd r1.x, -v0.z, v0.w\nadd r2, c0, r1.x\nmov oPos, r2";
    let v = [(0, [0.0, 0.0, -1e30, -1e30])];
    let run = |skew| vs_full(p, &v, &Constants::default(), &Options { skew, ..Options::default() }).position.value[0];
    let step = 2f32.powi(76);
    assert_eq!(run(Skew::None), -0.0208);
    assert!(run(Skew::Up) >= step * 0.99 && run(Skew::Down) <= -step * 0.99, "{} {}", run(Skew::Up), run(Skew::Down));
    // Without a chain (one sum of an input and a constant) the skewed runs move an exact sum not at all.
    let p = "vs_2_0\ndcl_position v0\ndef c0, -0.0208, 0, 0, 1\nadd r2, c0, v0.z\nmov oPos, r2";
    let v = [(0, [0.0, 0.0, 0.0, 1.0])];
    assert_eq!(
        vs_full(p, &v, &Constants::default(), &Options { skew: Skew::Up, ..Options::default() }).position.value[0],
        -0.0208
    );
    // A saturated sum ends the chain: x − x saturated, then added, moves by nothing.
    let p = "vs_2_0\ndcl_position v0\ndef c0, 0.25, 0, 0, 1\nadd_sat r1.x, v0.z, -v0.z\nadd r2, c0, r1.x\nmov oPos, r2";
    let v = [(0, [0.0, 0.0, 1e30, 1.0])];
    assert_eq!(
        vs_full(p, &v, &Constants::default(), &Options { skew: Skew::Up, ..Options::default() }).position.value[0],
        0.25
    );
}

#[test]
fn skewed_runs_flush_subnormals_as_a_driver_may() {
    // fuzz-diff seed 1797000567: nrm of (−5.4e-20, −5.4e-20, −5.4e-20). Each square is 2.9e-39 and
    // their sum 8.8e-39, both below f32's smallest normal (1.18e-38). Kept, the result is −1/√3
    // in every component; flushed (lavapipe), the length² is 0, 1/√0 = inf, and the product is
    // infinite, which the skewed runs read as any value (NaN).
    let p = "vs_2_0\ndcl_position v0\nnrm r0, v0\nmov oPos, r0.x";
    let v = [(0, [-5.4e-20, -5.4e-20, -5.4e-20, 1.0])];
    let run = |skew| position_x(p, &v, skew);
    assert!((run(Skew::None) + 1.0 / 3f32.sqrt()).abs() < 1e-6, "{}", run(Skew::None));
    assert!(run(Skew::Up).is_nan() && run(Skew::Down).is_nan(), "{} {}", run(Skew::Up), run(Skew::Down));
    // rcp of a subnormal: 1/1e-39 = 1e39 overflows to inf anyway; rsq's 1/√1e-39 = 3.2e19 is finite
    // kept and inf (any value) flushed.
    let p = "vs_2_0\ndcl_position v0\nrsq r0, v0.x\nmov oPos, r0.x";
    let v = [(0, [1e-39, 0.0, 0.0, 1.0])];
    assert!((position_x(p, &v, Skew::None) / 3.1622776e19 - 1.0).abs() < 1e-6);
    assert!(position_x(p, &v, Skew::Up).is_nan());
}

/// oPos.x of `p` on one vertex with inputs `v`, in the run skewed by `skew`.
fn position_x(p: &str, v: &[(usize, [f32; 4])], skew: Skew) -> f32 {
    vs_full(p, v, &Constants::default(), &Options { skew, ..Options::default() }).position.value[0]
}
