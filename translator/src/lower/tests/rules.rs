//! One test per lowering rule of arithmetic, registers and flow control (the pixel stage and
//! texture sampling: `rules_pixel`; whole programs: `rules_programs`); expectations derived by
//! hand in each test.

use super::eval::Outcome;
use super::*;
use crate::bytecode::{Comparison, Opcode as O, Register, RegisterType as R, SrcModifier as Mod};
use crate::key::FloatRules;

pub(super) const VS2X: u32 = 0xFFFE_0201;
pub(super) const VS3: u32 = 0xFFFE_0300;
pub(super) const PS2X: u32 = 0xFFFF_0201;
pub(super) const PS3: u32 = 0xFFFF_0300;

pub(super) fn c(n: u16) -> SrcParam {
    src(R::Const, n)
}
pub(super) fn r(n: u16) -> SrcParam {
    src(R::Temp, n)
}
pub(super) fn ot0(m: &str) -> Option<DstParam> {
    Some(dst(R::TexCrdOut, 0, m))
}
pub(super) fn rd(n: u16, m: &str) -> Option<DstParam> {
    Some(dst(R::Temp, n, m))
}
pub(super) fn a0() -> Register {
    Register::new(R::Addr, 0)
}
pub(super) fn al() -> Register {
    Register::new(R::Loop, 0)
}

/// Runs a vs_2_x program and returns oT0.
pub(super) fn vs(insts: Vec<Instruction>, run: &Run) -> [f32; 4] {
    output(&program(VS2X, insts), run, "oT0")
}

pub(super) fn consts(list: &[(usize, [f32; 4])]) -> Run {
    Run { consts: list.to_vec(), ..Run::default() }
}

/// Runs a pixel shader of `version`.
pub(super) fn ps(version: u32, insts: Vec<Instruction>, run: &Run) -> Outcome {
    run_ps(&program(version, insts), run)
}

pub(super) fn run_ps(p: &Program, r: &Run) -> Outcome {
    super::run(p, r)
}

pub(super) fn oc0(m: &str) -> Option<DstParam> {
    Some(dst(R::ColorOut, 0, m))
}

pub(super) fn color(o: Outcome) -> [f32; 4] {
    match o {
        Outcome::Output(m) => m["oC0"].vec4(),
        Outcome::Killed => panic!("killed"),
    }
}

#[test]
fn strict_multiply_makes_zero_times_anything_zero() {
    // (b == 0 ? 0 : a) * (a == 0 ? 0 : b): 0·inf = 0, 2·3 = 6, inf·0 = 0, NaN·0 = 0.
    let p = vec![
        def(0, [0.0, 2.0, f32::INFINITY, f32::NAN]),
        def(1, [f32::INFINITY, 3.0, 0.0, 0.0]),
        op(O::Mul, ot0("xyzw"), &[c(0), c(1)]),
    ];
    assert_eq!(vs(p.clone(), &Run::default()), [0.0, 6.0, 0.0, 0.0]);
    let ieee =
        vs(p, &Run { key: ShaderKey { float_rules: FloatRules::Ieee, ..ShaderKey::default() }, ..Run::default() });
    assert!(ieee[0].is_nan() && ieee[2].is_nan() && ieee[3].is_nan() && ieee[1] == 6.0, "IEEE keeps NaN: {ieee:?}");
}

#[test]
fn mad_dp3_dp4_and_lrp_use_the_multiply_rule() {
    // mad: 0·inf + 1 = 1. dp3 (0,1,2)·(inf,1,1) = 0 + 1 + 2 = 3; dp4 adds w: 1·4 = 4 → 7.
    let p = vec![
        def(0, [0.0, 1.0, 2.0, 1.0]),
        def(1, [f32::INFINITY, 1.0, 1.0, 4.0]),
        def(2, [1.0, 1.0, 1.0, 1.0]),
        op(O::Mad, rd(0, "x"), &[c(0).sw("x"), c(1).sw("x"), c(2).sw("x")]),
        op(O::Dp3, rd(0, "y"), &[c(0), c(1)]),
        op(O::Dp4, rd(0, "z"), &[c(0), c(1)]),
        // lrp: s0·(s1 − s2) + s2 with s0 = 0, s1 − s2 = inf → 0 + s2 = 1.
        op(O::Lrp, rd(0, "w"), &[c(0).sw("x"), c(1).sw("x"), c(2).sw("x")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &Run::default()), [1.0, 3.0, 7.0, 1.0]);
}

#[test]
fn scalar_instructions_read_the_w_selector_and_follow_edge_rules() {
    // rcp of a plain .xyzw source reads .w = 8 → 0.125; rcp(0) = +inf; rsq(−4) = 1/√4 = 0.5;
    // log(0) = −FLT_MAX, exp(3) = 8, log(−8) = 3.
    let p = vec![
        def(0, [1.0, 2.0, 4.0, 8.0]),
        def(1, [0.0, -4.0, 3.0, -8.0]),
        op(O::Rcp, rd(0, "x"), &[c(0)]),
        op(O::Rcp, rd(0, "y"), &[c(1).sw("x")]),
        op(O::Rsq, rd(0, "z"), &[c(1).sw("y")]),
        op(O::Log, rd(0, "w"), &[c(1).sw("x")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &Run::default()), [0.125, f32::INFINITY, 0.5, -f32::MAX]);
    let p = vec![
        def(1, [0.0, -4.0, 3.0, -8.0]),
        op(O::Exp, rd(0, "x"), &[c(1).sw("z")]),
        op(O::Log, rd(0, "y"), &[c(1).sw("w")]),
        op(O::Mov, ot0("xy"), &[r(0)]),
    ];
    let v = vs(p, &Run::default());
    assert_eq!((v[0], v[1]), (8.0, 3.0));
}

#[test]
fn fast_rules_clamp_rcp_to_flt_max() {
    let p = vec![def(0, [0.0; 4]), op(O::Rcp, ot0("xyzw"), &[c(0).sw("x")])];
    let run = Run { key: ShaderKey { float_rules: FloatRules::Fast, ..ShaderKey::default() }, ..Run::default() };
    assert_eq!(vs(p, &run), [f32::MAX; 4]);
}

#[test]
fn pow_takes_the_absolute_base_and_b_zero_gives_one() {
    // pow(−2, 3) = |−2|³ = 8; pow(0, 0) = 1; pow(0, 2) = 0; pow(4, 0.5) = 2.
    let p = vec![
        def(0, [-2.0, 3.0, 0.0, 2.0]),
        def(1, [4.0, 0.5, 0.0, 0.0]),
        op(O::Pow, rd(0, "x"), &[c(0).sw("x"), c(0).sw("y")]),
        op(O::Pow, rd(0, "y"), &[c(0).sw("z"), c(0).sw("z")]),
        op(O::Pow, rd(0, "z"), &[c(0).sw("z"), c(0).sw("w")]),
        op(O::Pow, rd(0, "w"), &[c(1).sw("x"), c(1).sw("y")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &Run::default()), [8.0, 1.0, 0.0, 2.0]);
}

#[test]
fn pow_of_a_zero_base_does_not_rest_on_log2_of_zero() {
    // |±0|^b is +inf for b < 0, 0 for b > 0, 1 for b = 0 (and |inf|^0 = 1): the lowering must
    // pick these by comparison, since log2(0) is undefined in GLSL.std.450 and a driver may fuse
    // exp2(log2(a)·b) into a pow that returns 0 for every zero base (lavapipe does; fuzz-diff
    // vs_2_x 10485: pow(0, −2.564) read 0). The evaluator reads log2(0) as NaN here.
    let p = vec![
        def(0, [0.0, -2.564, 2.0, f32::INFINITY]),
        def_bits(1, [0x8000_0000, 0, 0xBF80_0000, 0]),
        op(O::Pow, rd(0, "x"), &[c(0).sw("x"), c(0).sw("y")]),
        op(O::Pow, rd(0, "y"), &[c(1).sw("x"), c(0).sw("z")]),
        op(O::Pow, rd(0, "z"), &[c(1).sw("x"), c(1).sw("y")]),
        op(O::Pow, rd(0, "w"), &[c(0).sw("w"), c(1).sw("y")]),
        op(O::Pow, rd(1, "x"), &[c(1).sw("x"), c(1).sw("z")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
        op(O::Mov, Some(dst(R::TexCrdOut, 1, "xyzw")), &[r(1).sw("xxxx")]),
    ];
    for float_rules in [FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee] {
        let run =
            Run { key: ShaderKey { float_rules, ..ShaderKey::default() }, undefined_as_nan: true, ..Run::default() };
        // pow(0, −2.564) = +inf; pow(−0, 2) = 0; pow(−0, 0) = 1; pow(inf, 0) = 1.
        assert_eq!(vs(p.clone(), &run), [f32::INFINITY, 0.0, 1.0, 1.0], "{float_rules:?}");
        // pow(−0, −1) = +inf: the base's sign is dropped.
        assert_eq!(output(&program(VS2X, p.clone()), &run, "oT1")[0], f32::INFINITY, "{float_rules:?}");
    }
}

#[test]
fn write_masks_keep_the_other_components() {
    let p = vec![
        def(0, [1.0, 2.0, 3.0, 4.0]),
        def(1, [5.0, 6.0, 7.0, 8.0]),
        op(O::Mov, rd(0, "xyzw"), &[c(0)]),
        op(O::Mov, rd(0, "yw"), &[c(1)]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &Run::default()), [1.0, 6.0, 3.0, 8.0]);
}

#[test]
fn swizzles_and_source_modifiers() {
    // c0 = (0.25, −2, 3, 1). Per modifier, on c0.wzyx = (1, 3, −2, 0.25):
    let cases: [(Mod, [f32; 4]); 9] = [
        (Mod::Neg, [-1.0, -3.0, 2.0, -0.25]),
        (Mod::Abs, [1.0, 3.0, 2.0, 0.25]),
        (Mod::AbsNeg, [-1.0, -3.0, -2.0, -0.25]),
        (Mod::Bias, [0.5, 2.5, -2.5, -0.25]),
        (Mod::BiasNeg, [-0.5, -2.5, 2.5, 0.25]),
        (Mod::Sign, [1.0, 5.0, -5.0, -0.5]),
        (Mod::SignNeg, [-1.0, -5.0, 5.0, 0.5]),
        (Mod::Comp, [0.0, -2.0, 3.0, 0.75]),
        (Mod::X2, [2.0, 6.0, -4.0, 0.5]),
    ];
    for (m, expected) in cases {
        let p = vec![def(0, [0.25, -2.0, 3.0, 1.0]), op(O::Mov, ot0("xyzw"), &[c(0).sw("wzyx").md(m)])];
        assert_eq!(vs(p, &Run::default()), expected, "{m:?}");
    }
}

#[test]
fn saturate_clamps_to_zero_one() {
    let mut i = op(O::Mov, ot0("xyzw"), &[c(0)]);
    i.dst.as_mut().unwrap().modifiers.0 = crate::bytecode::ResultModifiers::SATURATE;
    let p = vec![def(0, [-1.0, 0.5, 2.0, 1.0]), i];
    assert_eq!(vs(p, &Run::default()), [0.0, 0.5, 1.0, 1.0]);
    // NaN saturates to 0 (the rule of D3D10-class hardware), −0 to +0 and +inf to 1.
    let p = vec![def_bits(0, [0x7FC0_0000, 0x8000_0000, 0x7F80_0000, 0xFFC0_0000]), i];
    assert_eq!(vs(p, &Run::default()).map(f32::to_bits), [0, 0, 1.0f32.to_bits(), 0]);
}

#[test]
fn rsq_of_either_zero_is_plus_infinity() {
    // rsq takes |x|: rsq(−0) = rsq(+0) = +inf, chosen by comparison, not by the sign of 1/sqrt.
    for bits in [0x8000_0000u32, 0] {
        let p = vec![def_bits(0, [bits, 0, 0, 0]), op(O::Rsq, ot0("xyzw"), &[c(0).sw("xxxx")])];
        assert_eq!(vs(p, &Run::default()), [f32::INFINITY; 4], "rsq({:?})", f32::from_bits(bits));
    }
}

#[test]
fn min_and_max_follow_the_reference_definitions_with_nan() {
    // min = a < b ? a : b, max = a >= b ? a : b: a NaN in a gives b; a NaN in b gives NaN.
    let nan = 0x7FC0_0000;
    let one = 1.0f32.to_bits();
    let p = |o: O| {
        vec![def_bits(0, [nan, one, nan, one]), def_bits(1, [one, nan, one, nan]), op(o, ot0("xyzw"), &[c(0), c(1)])]
    };
    let min = vs(p(O::Min), &Run::default());
    assert!(min[0] == 1.0 && min[1].is_nan() && min[2] == 1.0 && min[3].is_nan(), "min {min:?}");
    let max = vs(p(O::Max), &Run::default());
    assert!(max[0] == 1.0 && max[1].is_nan() && max[2] == 1.0 && max[3].is_nan(), "max {max:?}");
}

#[test]
fn lit_dst_sincos_nrm_crs_frc_sgn() {
    // lit (2, 4, _, 0.5): (1, max(2,0), 4^0.5, 1) = (1, 2, 2, 1); x ≤ 0 gives z = 0.
    let p = vec![def(0, [2.0, 4.0, 9.0, 0.5]), op(O::Lit, ot0("xyzw"), &[c(0)])];
    assert_eq!(vs(p, &Run::default()), [1.0, 2.0, 2.0, 1.0]);
    let p = vec![def(0, [-1.0, 4.0, 9.0, 0.5]), op(O::Lit, ot0("xyzw"), &[c(0)])];
    assert_eq!(vs(p, &Run::default()), [1.0, 0.0, 0.0, 1.0]);
    // dst (_, 2, 3, _) (_, 5, _, 7) = (1, 10, 3, 7).
    let p = vec![def(0, [9.0, 2.0, 3.0, 9.0]), def(1, [9.0, 5.0, 9.0, 7.0]), op(O::Dst, ot0("xyzw"), &[c(0), c(1)])];
    assert_eq!(vs(p, &Run::default()), [1.0, 10.0, 3.0, 7.0]);
    // sincos of 0 writes (cos, sin) = (1, 0) and leaves z, w.
    let p = vec![
        def(0, [0.0, 0.0, 0.0, 0.0]),
        def(1, [5.0, 6.0, 7.0, 8.0]),
        op(O::Mov, ot0("xyzw"), &[c(1)]),
        op(O::SinCos, ot0("xy"), &[c(0).sw("x"), c(1), c(1)]),
    ];
    assert_eq!(vs(p, &Run::default()), [1.0, 0.0, 7.0, 8.0]);
    // nrm (3, 0, 4, 10): 1/5 scales every component, w too: (0.6, 0, 0.8, 2).
    let p = vec![def(0, [3.0, 0.0, 4.0, 10.0]), op(O::Nrm, ot0("xyzw"), &[c(0)])];
    assert_eq!(vs(p, &Run::default()), [0.6, 0.0, 0.8, 2.0]);
    // nrm (3, 0, 4, −1e30): w is scaled but not summed, so its square's overflow is no part of
    // the length: (0.6, 0, 0.8, −2e29), not 1/√inf = 0 everywhere.
    let p = vec![def(0, [3.0, 0.0, 4.0, -1e30]), op(O::Nrm, ot0("xyzw"), &[c(0)])];
    let v = vs(p, &Run::default());
    assert_eq!(&v[..3], &[0.6, 0.0, 0.8], "{v:?}");
    assert!((v[3] / -2e29 - 1.0).abs() < 1e-6, "{v:?}");
    // crs x̂ × ŷ = ẑ; w is not written (stays 0).
    let p = vec![def(0, [1.0, 0.0, 0.0, 5.0]), def(1, [0.0, 1.0, 0.0, 5.0]), op(O::Crs, ot0("xyzw"), &[c(0), c(1)])];
    assert_eq!(vs(p, &Run::default()), [0.0, 0.0, 1.0, 0.0]);
    // frc (1.25, −0.25) = (0.25, 0.75); sgn (−3, 0, 2, −0) = (−1, 0, 1, 0).
    let p = vec![def(0, [1.25, -0.25, 0.0, 0.0]), op(O::Frc, ot0("xy"), &[c(0)])];
    assert_eq!(&vs(p, &Run::default())[..2], &[0.25, 0.75]);
    let p = vec![def(0, [-3.0, 0.0, 2.0, -0.0]), op(O::Sgn, ot0("xyzw"), &[c(0), r(1), r(2)])];
    assert_eq!(vs(p, &Run::default()), [-1.0, 0.0, 1.0, 0.0]);
}

#[test]
fn matrix_macros_read_the_source_before_writing_an_aliased_destination() {
    // r0 = (1, 2, 3, 4); m4x4 r0, r0, c0 with rows c0..c3 = e_w, e_z, e_y, e_x reverses r0.
    // Written in place, a row-by-row store would read the new r0.x when computing .y.
    let p = vec![
        def(0, [0.0, 0.0, 0.0, 1.0]),
        def(1, [0.0, 0.0, 1.0, 0.0]),
        def(2, [0.0, 1.0, 0.0, 0.0]),
        def(3, [1.0, 0.0, 0.0, 0.0]),
        def(4, [1.0, 2.0, 3.0, 4.0]),
        op(O::Mov, rd(0, "xyzw"), &[c(4)]),
        op(O::M4x4, rd(0, "xyzw"), &[r(0), c(0)]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &Run::default()), [4.0, 3.0, 2.0, 1.0]);
    // m3x2 writes only x and y: (dp3 with rows c1, c2) = (3, 2); z, w keep c4's 3, 4.
    let p = vec![
        def(1, [0.0, 0.0, 1.0, 0.0]),
        def(2, [0.0, 1.0, 0.0, 0.0]),
        def(4, [1.0, 2.0, 3.0, 4.0]),
        op(O::Mov, ot0("xyzw"), &[c(4)]),
        op(O::M3x2, ot0("xyzw"), &[c(4), c(1)]),
    ];
    assert_eq!(vs(p, &Run::default()), [3.0, 2.0, 3.0, 4.0]);
}

#[test]
fn relative_addressing_rounds_mova_checks_bounds_and_lets_def_win() {
    // mova rounds half away from zero: 1.5 → 2, so c[a0.x + 2] = c4.
    let run = consts(&[(4, [4.0; 4]), (3, [3.0; 4]), (0, [7.0; 4])]);
    let p = vec![
        def(10, [1.5, -5.0, 1.0, -0.5]),
        op(O::Mova, Some(dst(R::Addr, 0, "xyzw")), &[c(10)]),
        op(O::Mov, rd(0, "x"), &[c(2).rel(a0(), "x")]),
        // a0.y = −5: c[−5 + 3] = c[−2] is out of range and reads 0.
        op(O::Mov, rd(0, "y"), &[c(3).rel(a0(), "y")]),
        // a0.w = round(−0.5) = −1: c[−1 + 1] = c0 = 7.
        op(O::Mov, rd(0, "z"), &[c(1).rel(a0(), "w")]),
        // a0.z = 1: c[1 + 9] = c10 is a def and wins over the buffer: its .w is −0.5.
        op(O::Mov, rd(0, "w"), &[c(9).rel(a0(), "z")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(vs(p, &run), [4.0, 0.0, 7.0, -0.5]);
    // Beyond the buffer's 256 registers reads 0 as well.
    let p = vec![
        def(10, [300.0; 4]),
        op(O::Mova, Some(dst(R::Addr, 0, "x")), &[c(10)]),
        op(O::Mov, ot0("xyzw"), &[c(0).rel(a0(), "x")]),
    ];
    assert_eq!(vs(p, &consts(&[(0, [1.0; 4])])), [0.0; 4]);
}

#[test]
fn a_relative_read_tests_both_bounds_with_one_unsigned_comparison() {
    // c[a0.x + 1] with a0.x = −2, 255 and 1: c[−1] and c[256] are outside the 256 registers
    // and read 0, c[2] = (2, 2, 2, 2). As a u32, −1 is 4294967295: above 256 like 256 itself.
    let read = |index: f32| {
        let p = vec![
            def(10, [index; 4]),
            op(O::Mova, Some(dst(R::Addr, 0, "x")), &[c(10)]),
            op(O::Mov, ot0("xyzw"), &[c(1).rel(a0(), "x")]),
        ];
        let got = vs(p.clone(), &consts(&[(2, [2.0; 4]), (255, [5.0; 4])]));
        let tests = entry_count(&lowered(&program(VS2X, p)), |e| {
            use naga::BinaryOperator as B;
            matches!(e, naga::Expression::Binary { op: B::Less | B::GreaterEqual | B::LogicalAnd, .. })
        });
        (got, tests)
    };
    assert_eq!(read(-2.0), ([0.0; 4], 1));
    assert_eq!(read(255.0), ([0.0; 4], 1));
    assert_eq!(read(1.0), ([2.0; 4], 1));
}

#[test]
fn def_keeps_nan_and_infinity_bit_patterns() {
    let bits = [0x7FC0_0001, 0x7F80_0000, 0xFF80_0000, 0x3F80_0000];
    let p = vec![def_bits(0, bits), op(O::Mov, ot0("xyzw"), &[c(0)])];
    let v = vs(p, &Run { key: ShaderKey { float_rules: FloatRules::Ieee, ..ShaderKey::default() }, ..Run::default() });
    assert_eq!(v.map(f32::to_bits), bits);
}

#[test]
fn predicated_writes_are_per_component() {
    // setp_gt p0, (1, 0, 3, −1), (0, 0, 0, 0) = (T, F, T, F); (p0) mov r0, c2 and (!p0) mov r1, c2.
    let mut setp = op(O::Setp, Some(dst(R::Predicate, 0, "xyzw")), &[c(0), c(1)]);
    setp.control = Comparison::Gt as u8;
    let mut m0 = op(O::Mov, rd(0, "xyzw"), &[c(2)]);
    m0.predicate = Some(src(R::Predicate, 0));
    let mut m1 = op(O::Mov, rd(1, "xyzw"), &[c(2)]);
    m1.predicate = Some(src(R::Predicate, 0).md(Mod::Not));
    let p = vec![
        def(0, [1.0, 0.0, 3.0, -1.0]),
        def(1, [0.0; 4]),
        def(2, [9.0; 4]),
        setp,
        m0,
        m1,
        op(O::Add, ot0("xyzw"), &[r(0), r(1).md(Mod::Neg)]),
    ];
    assert_eq!(vs(p, &Run::default()), [9.0, -9.0, 9.0, -9.0]);
}

#[test]
fn loop_sets_al_from_the_integer_constant_and_is_bounded() {
    // loop aL, i0 = (3, 1, 2): aL = 1, 3, 5 → r0 = c1 + c3 + c5 = 1 + 3 + 5 = 9.
    let run = consts(&[(1, [1.0; 4]), (3, [3.0; 4]), (5, [5.0; 4]), (7, [100.0; 4])]);
    let body = |count: [i32; 4]| {
        vec![
            defi(0, count),
            op(O::Mov, rd(0, "xyzw"), &[c(20)]),
            op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
            op(O::Add, rd(0, "xyzw"), &[r(0), c(0).rel(al(), "x")]),
            op(O::EndLoop, None, &[]),
            op(O::Mov, ot0("xyzw"), &[r(0)]),
        ]
    };
    let p = program(VS3, {
        let mut v = body([3, 1, 2, 0]);
        v.insert(0, dcl_out(0, 5, 0));
        v.iter_mut().for_each(retarget_ot0);
        v
    });
    assert_eq!(output(&p, &run, "o0"), [9.0; 4]);
    // Count 0 runs nothing.
    let mut v = body([0, 1, 2, 0]);
    v.insert(0, dcl_out(0, 5, 0));
    v.iter_mut().for_each(retarget_ot0);
    assert_eq!(output(&program(VS3, v), &run, "o0"), [0.0; 4]);
    // A count of 1000 from the buffer (D3D9 allows at most 255) stops after 255 iterations.
    let p = vec![
        op(O::Rep, None, &[src(R::ConstInt, 1)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0)]),
        op(O::EndRep, None, &[]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    let run = Run { consts: vec![(0, [1.0; 4])], ints: vec![(1, [1000, 0, 0, 0])], ..Run::default() };
    assert_eq!(vs(p, &run), [255.0; 4]);
}

pub(super) fn dcl_out(n: u16, usage: u8, index: u8) -> Instruction {
    let mut i = op(O::Dcl, Some(dst(R::Output, n, "xyzw")), &[]);
    i.payload = Payload::Dcl(crate::bytecode::Decl { usage, usage_index: index, texture_type: 0 });
    i
}

pub(super) fn retarget_ot0(i: &mut Instruction) {
    if let Some(d) = i.dst.as_mut() {
        if d.reg.ty == R::TexCrdOut {
            d.reg.ty = R::Output;
        }
    }
}

#[test]
fn nested_loops_restore_the_outer_al() {
    // Outer aL = 0, 1; inner loop changes aL; after it, c[aL] must read the outer counter:
    // r0 += c[aL] gives c0 + c1 = 1 + 2 = 3 (the inner loop adds nothing to r0).
    let mut v = vec![
        dcl_out(0, 5, 0),
        defi(0, [2, 0, 1, 0]),
        defi(1, [3, 10, 5, 0]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 1)]),
        op(O::Mov, rd(1, "xyzw"), &[c(0).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    v.iter_mut().for_each(retarget_ot0);
    assert_eq!(output(&program(VS3, v), &consts(&[(0, [1.0; 4]), (1, [2.0; 4])]), "o0"), [3.0; 4]);
}

#[test]
fn rep_with_breakc_and_static_if_else() {
    // rep i0 (10): r0 += 1; break_ge r0.x, c1.x (3) → 3.
    let mut brk = op(O::BreakC, None, &[r(0).sw("x"), c(1).sw("x")]);
    brk.control = Comparison::Ge as u8;
    let p = vec![
        defi(0, [10, 0, 0, 0]),
        def(0, [1.0; 4]),
        def(1, [3.0; 4]),
        op(O::Rep, None, &[src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0)]),
        brk,
        op(O::EndRep, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 2)]),
        op(O::Mov, rd(1, "xyzw"), &[c(0)]),
        op(O::Else, None, &[]),
        op(O::Mov, rd(1, "xyzw"), &[c(0).md(Mod::Neg)]),
        op(O::EndIf, None, &[]),
        op(O::Mul, ot0("xyzw"), &[r(0), r(1)]),
    ];
    let on = Run { bools: vec![(2, true)], ..Run::default() };
    assert_eq!(vs(p.clone(), &on), [3.0; 4]);
    assert_eq!(vs(p, &Run::default()), [-3.0; 4]);
}

#[test]
fn ifc_ne_is_true_with_nan_and_the_others_are_ordered() {
    for (cmp, expected) in [(Comparison::Ne, 1.0), (Comparison::Eq, 0.0), (Comparison::Lt, 0.0), (Comparison::Ge, 0.0)]
    {
        let mut ifc = op(O::Ifc, None, &[c(0).sw("x"), c(0).sw("y")]);
        ifc.control = cmp as u8;
        let p = vec![
            def(0, [f32::NAN, 1.0, 0.0, 0.0]),
            def(1, [1.0; 4]),
            ifc,
            op(O::Mov, ot0("xyzw"), &[c(1)]),
            op(O::EndIf, None, &[]),
        ];
        assert_eq!(vs(p, &Run::default()), [expected; 4], "{cmp:?}");
    }
}

#[test]
fn subroutines_and_ret_in_main_still_run_the_epilogue() {
    // call l1 writes r1 = c0; callnz l2, b0 (false) would negate it; ret inside if ends main
    // early, after oT0 was written, and the output still reaches the epilogue.
    let p = vec![
        def(0, [2.0; 4]),
        def(1, [5.0; 4]),
        op(O::Call, None, &[src(R::Label, 1)]),
        op(O::CallNz, None, &[src(R::Label, 2), src(R::ConstBool, 0)]),
        op(O::Mov, ot0("xyzw"), &[r(1)]),
        op(O::If, None, &[src(R::ConstBool, 1)]),
        op(O::Ret, None, &[]),
        op(O::EndIf, None, &[]),
        op(O::Mov, ot0("xyzw"), &[c(1)]),
        op(O::Ret, None, &[]),
        op(O::Label, None, &[src(R::Label, 1)]),
        op(O::Mov, rd(1, "xyzw"), &[c(0)]),
        op(O::Ret, None, &[]),
        op(O::Label, None, &[src(R::Label, 2)]),
        op(O::Mov, rd(1, "xyzw"), &[r(1).md(Mod::Neg)]),
        op(O::Ret, None, &[]),
    ];
    assert_eq!(vs(p.clone(), &Run { bools: vec![(1, true)], ..Run::default() }), [2.0; 4]);
    assert_eq!(vs(p.clone(), &Run::default()), [5.0; 4]);
    assert_eq!(vs(p, &Run { bools: vec![(0, true), (1, true)], ..Run::default() }), [-2.0; 4]);
}

#[test]
fn vertex_colour_outputs_saturate_and_default() {
    // oD0 = 2 saturates to 1; oD1 written only in x keeps (·, 0, 0, 1) from its default.
    let p = vec![
        def(0, [2.0, -1.0, 0.5, 0.25]),
        op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[c(0)]),
        op(O::Mov, Some(dst(R::AttrOut, 1, "x")), &[c(0).sw("z")]),
    ];
    let p = program(VS2X, p);
    assert_eq!(output(&p, &Run::default(), "oD0"), [1.0, 0.0, 0.5, 0.25]);
    assert_eq!(output(&p, &Run::default(), "oD1"), [0.5, 0.0, 0.0, 1.0]);
}
