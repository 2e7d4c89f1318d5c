//! vs_1_1 rules written as assembly, expectations derived by hand from docs/opcodes.md#arithmetic,
//! docs/d3d9-rules.md#output-saturation, docs/d3d9-rules.md#scalar-source, docs/d3d9-rules.md#address-register and
//! docs/d3d9-rules.md#float-rules.

use super::eval::{Outcome, Value};
use super::*;

fn outputs(text: &str, run: &Run) -> HashMap<String, Value> {
    let p = crate::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match super::run(&p, run) {
        Outcome::Output(m) => m,
        Outcome::Killed => panic!("killed"),
    }
}

/// oT0 of a vs_1_1 program whose body follows `dcl_position v0`.
fn ot0(body: &str, run: &Run) -> [f32; 4] {
    outputs(&format!("vs_1_1\ndcl_position v0\n{body}"), run)["oT0"].vec4()
}

fn near(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-30)
}

#[test]
fn mov_a0_floors_negative_and_positive_indices() {
    // docs/d3d9-rules.md#address-register: vs_1_1 mov a0.x floors. c0..c4 hold (n, n, n, n) for n = 0..4 (API).
    let run = Run { consts: (0..5).map(|n| (n, [n as f32; 4])).collect(), ..Run::default() };
    // floor(−1.2) = −2: c[a0.x + 5] = c3 (rounding would give c4, truncation c4).
    assert_eq!(ot0("def c10, -1.2, 0, 0, 0\nmov a0.x, c10.x\nmov oT0, c[a0.x + 5]", &run), [3.0; 4]);
    // floor(−0.5) = −1: c[a0.x + 3] = c2 (truncation would give c3).
    assert_eq!(ot0("def c10, -0.5, 0, 0, 0\nmov a0.x, c10.x\nmov oT0, c[a0.x + 3]", &run), [2.0; 4]);
    // floor(2.9) = 2: c[a0.x + 1] = c3 (rounding would give c4).
    assert_eq!(ot0("def c10, 2.9, 0, 0, 0\nmov a0.x, c10.x\nmov oT0, c[a0.x + 1]", &run), [3.0; 4]);
}

#[test]
fn scalar_sources_without_a_replicate_swizzle_use_w() {
    // docs/d3d9-rules.md#scalar-source: rcp oT0, c0 (.xyzw) reads c0.w = 4 → 0.25 everywhere.
    assert_eq!(ot0("def c0, 2, 8, 16, 4\nrcp oT0, c0", &Run::default()), [0.25; 4]);
    // expp with w = 2.5: (2^floor(2.5), frac(2.5), 2^2.5, 1) = (4, 0.5, 5.657, 1); the x
    // component 2 would give (4, 0, 4, 1).
    let v = ot0("def c0, 2, 0, 0, 2.5\nexpp oT0, c0", &Run::default());
    assert_eq!((v[0], v[1], v[3]), (4.0, 0.5, 1.0));
    assert!(near(v[2], 5.656_854, 1.0 / 1024.0), "{v:?}"); // partial precision: ≥ 10 bits
                                                           // expp −1.5: floor = −2 → 0.25; frac = −1.5 − (−2) = 0.5; 2^−1.5 = 0.353553.
    let v = ot0("def c0, 0, 0, 0, -1.5\nexpp oT0, c0", &Run::default());
    assert_eq!((v[0], v[1], v[3]), (0.25, 0.5, 1.0));
    assert!(near(v[2], 0.353_553_4, 1.0 / 1024.0), "{v:?}");
    // logp of w = −6 (|w| is used): exponent floor(log2 6) = 2, mantissa 6/4 = 1.5,
    // log2 6 = 2.584963, 1.
    let v = ot0("def c0, 8, 0, 0, -6\nlogp oT0, c0", &Run::default());
    assert_eq!((v[0], v[1], v[3]), (2.0, 1.5, 1.0));
    assert!(near(v[2], 2.584_963, 1.0 / 1024.0), "{v:?}");
    // logp of FLT_MAX (bits 0x7F7FFFFF): exponent 127, mantissa 0x3FFFFFFF = 2 − 2⁻²³, log2 = 128
    // (the nearest f32). ⌊log2⌋ and |f| / 2^⌊log2⌋ would give 128 and FLT_MAX / inf = 0.
    let v = ot0("def c0, 0, 0, 0, 3.4028235e38\nlogp oT0, c0", &Run::default());
    assert_eq!((v[0], v[1], v[3]), (127.0, 2.0 - f32::EPSILON, 1.0), "{v:?}");
    assert!(near(v[2], 128.0, 1.0 / 1024.0), "{v:?}");
}

#[test]
fn lit_clamps_the_power_to_127_9961() {
    // dst = (1, max(x, 0), x > 0 && y > 0 ? y^clamp(w, ±(128 − 1/256)) : 0, 1).
    let lit = |w: f32| ot0(&format!("def c0, 0.5, 0.9, 0, {w}\nlit oT0, c0"), &Run::default());
    let clamp = 128.0 - 1.0 / 256.0;
    // w = 200 → 0.9^127.99609 ≈ 1.39e−6 (0.9^200 ≈ 7.1e−10 unclamped).
    let v = lit(200.0);
    assert_eq!((v[0], v[1], v[3]), (1.0, 0.5, 1.0));
    assert!(near(v[2], 0.9f32.powf(clamp), 1e-3), "{v:?}");
    // w = −200 → 0.9^−127.99609 ≈ 7.2e5 (0.9^−200 ≈ 1.4e9).
    let v = lit(-200.0);
    assert!(near(v[2], 0.9f32.powf(-clamp), 1e-3), "{v:?}");
    // w = 2 is inside: 0.81.
    assert!(near(lit(2.0)[2], 0.81, 1e-5));
    // x ≤ 0: y = max(x, 0) = 0 and z = 0.
    let v = ot0("def c0, -0.5, 0.9, 0, 2\nlit oT0, c0", &Run::default());
    assert_eq!(v, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn dst_frc_and_the_matrix_macros() {
    // dst = (1, s0.y·s1.y, s0.z, s1.w) = (1, 2·4, 3, 5).
    assert_eq!(ot0("def c0, 9, 2, 3, 9\ndef c1, 9, 4, 9, 5\ndst oT0, c0, c1", &Run::default()), [1.0, 8.0, 3.0, 5.0]);
    // frc (vs_1_1 writes .xy): x − floor(x): 1.25 → 0.25, −1.25 → 0.75.
    let v = ot0("def c0, 1.25, -1.25, 0, 0\nfrc r0.xy, c0\nmov oT0.xy, r0", &Run::default());
    assert_eq!(&v[..2], &[0.25, 0.75]);
    // v0 = (1, 2, 3, 4); rows c0 = (1, 0, 0, 0), c1 = (0, 1, 0, 1), c2 = (1, 1, 1, 1), c3 = (0, 0, 0, 2).
    let rows = "def c0, 1, 0, 0, 0\ndef c1, 0, 1, 0, 1\ndef c2, 1, 1, 1, 1\ndef c3, 0, 0, 0, 2\n";
    let run = Run { inputs: vec![(0, [1.0, 2.0, 3.0, 4.0])], ..Run::default() };
    // m4x3: dot4 with c0, c1, c2 = (1, 2 + 4, 1 + 2 + 3 + 4) = (1, 6, 10).
    let v = ot0(&format!("{rows}m4x3 oT0.xyz, v0, c0"), &run);
    assert_eq!(&v[..3], &[1.0, 6.0, 10.0]);
    // m3x4: dot3 with c0..c3 = (1, 2, 6, 0).
    assert_eq!(ot0(&format!("{rows}m3x4 oT0, v0, c0"), &run), [1.0, 2.0, 6.0, 0.0]);
    // m3x2: dot3 with c0, c1 = (1, 2).
    let v = ot0(&format!("{rows}m3x2 oT0.xy, v0, c0"), &run);
    assert_eq!(&v[..2], &[1.0, 2.0]);
}

#[test]
fn colour_and_fog_outputs_saturate() {
    // docs/d3d9-rules.md#output-saturation: oD0/oD1 and oFog of vs < 3.0 are saturated; oT0 is not.
    let m = outputs(
        "vs_1_1\ndcl_position v0\ndef c0, 2, -1, 0.5, 1.5\nmov oD0, c0\nmov oD1, -c0\nmov oFog, c0.w\nmov oT0, c0",
        &Run::default(),
    );
    assert_eq!(m["oD0"].vec4(), [1.0, 0.0, 0.5, 1.0]);
    assert_eq!(m["oD1"].vec4(), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(m["oT0"].vec4(), [2.0, -1.0, 0.5, 1.5]);
    let fog = match &m["oFog"] {
        Value::F(x) => *x,
        v => v.vec4()[0],
    };
    assert_eq!(fog, 1.0);
}
