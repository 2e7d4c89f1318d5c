//! One test per lowering rule; expectations derived by hand in each test.

use super::eval::{Outcome, Value};
use super::*;
use crate::bytecode::registers::misc;
use crate::bytecode::{Comparison, Opcode as O, Register, RegisterType as R, SrcModifier as Mod};
use crate::key::{AlphaFunc, AlphaPrecision, FloatRules, FogMode};

const VS2X: u32 = 0xFFFE_0201;
const VS3: u32 = 0xFFFE_0300;
const PS2X: u32 = 0xFFFF_0201;
const PS3: u32 = 0xFFFF_0300;

fn c(n: u16) -> SrcParam {
    src(R::Const, n)
}
fn r(n: u16) -> SrcParam {
    src(R::Temp, n)
}
fn ot0(m: &str) -> Option<DstParam> {
    Some(dst(R::TexCrdOut, 0, m))
}
fn rd(n: u16, m: &str) -> Option<DstParam> {
    Some(dst(R::Temp, n, m))
}
fn a0() -> Register {
    Register::new(R::Addr, 0)
}
fn al() -> Register {
    Register::new(R::Loop, 0)
}

/// Runs a vs_2_x program and returns oT0.
fn vs(insts: Vec<Instruction>, run: &Run) -> [f32; 4] {
    output(&program(VS2X, insts), run, "oT0")
}

fn consts(list: &[(usize, [f32; 4])]) -> Run {
    Run { consts: list.to_vec(), ..Run::default() }
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

fn dcl_out(n: u16, usage: u8, index: u8) -> Instruction {
    let mut i = op(O::Dcl, Some(dst(R::Output, n, "xyzw")), &[]);
    i.payload = Payload::Dcl(crate::bytecode::Decl { usage, usage_index: index, texture_type: 0 });
    i
}

fn retarget_ot0(i: &mut Instruction) {
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

fn ps(version: u32, insts: Vec<Instruction>, run: &Run) -> Outcome {
    run_ps(&program(version, insts), run)
}

fn run_ps(p: &Program, r: &Run) -> Outcome {
    super::run(p, r)
}

fn oc0(m: &str) -> Option<DstParam> {
    Some(dst(R::ColorOut, 0, m))
}

fn color(o: Outcome) -> [f32; 4] {
    match o {
        Outcome::Output(m) => m["oC0"].vec4(),
        Outcome::Killed => panic!("killed"),
    }
}

#[test]
fn cmp_picks_src1_for_negative_zero_and_cnd_compares_with_half() {
    // cmp: (−0 ≥ 0, −1 ≥ 0, 0 ≥ 0, NaN ≥ 0) = (T, F, T, F).
    let p = vec![
        def(0, [-0.0, -1.0, 0.0, f32::NAN]),
        def(1, [1.0; 4]),
        def(2, [2.0; 4]),
        op(O::Cmp, oc0("xyzw"), &[c(0), c(1), c(2)]),
    ];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [1.0, 2.0, 1.0, 2.0]);
}

#[test]
fn texkill_kills_on_any_negative_written_component_and_alpha_test_runs_after() {
    let kill = |m: &str| op(O::TexKill, Some(dst(R::Temp, 0, m)), &[]);
    let base =
        vec![def(0, [1.0, -1.0, 1.0, 0.5]), op(O::Mov, rd(0, "xyzw"), &[c(0)]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let mut p = base.clone();
    p.push(kill("xz"));
    assert!(matches!(ps(PS2X, p, &Run::default()), Outcome::Output(_)), "x and z are not negative");
    let mut p = base.clone();
    p.push(kill("xyzw"));
    assert!(matches!(ps(PS2X, p, &Run::default()), Outcome::Killed));
    // Alpha test greater than 0.6: alpha 0.5 fails.
    let key = ShaderKey { alpha_func: AlphaFunc::Greater, ..ShaderKey::default() };
    let rs = |v: f32| vec![(4usize, Value::F(v))];
    let run = Run { key: key.clone(), render_state: rs(0.6), ..Run::default() };
    assert!(matches!(ps(PS2X, base.clone(), &run), Outcome::Killed));
    let run = Run { key, render_state: rs(0.4), ..Run::default() };
    assert_eq!(color(ps(PS2X, base, &run)), [1.0, -1.0, 1.0, 0.5]);
}

#[test]
fn alpha_test_compares_eight_bit_values() {
    // docs/d3d9-rules.md#alpha-test: alpha 0.25 is the byte round(63.75) = 64, equal to ALPHAREF 64 (stored as
    // 64/255 = 0.25098): GREATEREQUAL passes and LESS fails, although 0.25 < 0.25098 as floats.
    let p = vec![def(0, [0.25, 0.5, 0.75, 0.25]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = |f: AlphaFunc| Run {
        key: ShaderKey { alpha_func: f, ..ShaderKey::default() },
        render_state: vec![(4usize, Value::F(64.0 / 255.0))],
        ..Run::default()
    };
    assert_eq!(color(ps(PS2X, p.clone(), &run(AlphaFunc::GreaterEqual))), [0.25, 0.5, 0.75, 0.25]);
    assert_eq!(color(ps(PS2X, p.clone(), &run(AlphaFunc::Equal))), [0.25, 0.5, 0.75, 0.25]);
    assert!(matches!(ps(PS2X, p.clone(), &run(AlphaFunc::Less)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p, &run(AlphaFunc::Greater)), Outcome::Killed));
}

#[test]
fn alpha_test_on_a_float_target_compares_the_unclamped_alpha() {
    // docs/d3d9-rules.md#alpha-test: on a float target alpha 1.5 passes GREATER against ALPHAREF 255 (1.0) and
    // fails EQUAL; the 8-bit comparison would saturate it to 255 (GREATER fails, EQUAL passes). Alpha 0.25 is
    // below 64/255 = 0.25098 as a float: GREATEREQUAL fails, LESS passes.
    let p = |a: f32| vec![def(0, [0.0, 1.0, 0.0, a]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = |f: AlphaFunc, precision: AlphaPrecision, reference: f32| Run {
        key: ShaderKey { alpha_func: f, alpha_precision: precision, ..ShaderKey::default() },
        render_state: vec![(4usize, Value::F(reference / 255.0))],
        ..Run::default()
    };
    let (fl, u8p) = (AlphaPrecision::Float, AlphaPrecision::Unorm8);
    assert_eq!(color(ps(PS2X, p(1.5), &run(AlphaFunc::Greater, fl, 255.0))), [0.0, 1.0, 0.0, 1.5]);
    assert!(matches!(ps(PS2X, p(1.5), &run(AlphaFunc::Equal, fl, 255.0)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p(1.5), &run(AlphaFunc::Greater, u8p, 255.0)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p(0.25), &run(AlphaFunc::GreaterEqual, fl, 64.0)), Outcome::Killed));
    assert_eq!(color(ps(PS2X, p(0.25), &run(AlphaFunc::Less, fl, 64.0))), [0.0, 1.0, 0.0, 0.25]);
}

#[test]
fn vpos_is_the_top_left_corner_and_vface_is_plus_minus_one() {
    let dcl_misc = |n: u16, m: &str| {
        let mut i = op(O::Dcl, Some(dst(R::MiscType, n, m)), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 0 });
        i
    };
    let p = vec![
        dcl_misc(misc::POSITION, "xy"),
        dcl_misc(misc::FACE, "x"),
        op(O::Mov, oc0("xy"), &[src(R::MiscType, misc::POSITION)]),
        op(O::Mov, oc0("z"), &[src(R::MiscType, misc::FACE).sw("x")]),
    ];
    let run = Run { frag_coord: [10.5, 3.5, 0.25, 1.0], back_face: true, ..Run::default() };
    let v = color(ps(PS3, p.clone(), &run));
    assert_eq!(&v[..3], &[10.0, 3.0, -1.0]);
    let run = Run { frag_coord: [0.5, 0.5, 0.0, 1.0], ..Run::default() };
    assert_eq!(color(ps(PS3, p, &run))[2], 1.0);
}

#[test]
fn depth_output_is_clamped() {
    let p = vec![def(0, [1.5, 0.0, 0.0, 0.0]), op(O::Mov, Some(dst(R::DepthOut, 0, "xyzw")), &[c(0).sw("x")])];
    let Outcome::Output(m) = ps(PS2X, p, &Run::default()) else { panic!() };
    assert_eq!(m["oDepth"], Value::F(1.0));
}

#[test]
fn linear_fog_mixes_the_fog_colour_by_depth() {
    // start 0, end 1, depth 0.25: f = (1 − 0.25) / 1 = 0.75; rgb = 0.75·(1,1,1) + 0.25·(0,0,1).
    let p = vec![def(0, [1.0, 1.0, 1.0, 0.5]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = Run {
        key: ShaderKey { fog: FogMode::Linear, ..ShaderKey::default() },
        frag_coord: [0.5, 0.5, 0.25, 1.0],
        render_state: vec![(0, super::eval::vec4([0.0, 0.0, 1.0, 1.0])), (1, Value::F(0.0)), (2, Value::F(1.0))],
        ..Run::default()
    };
    assert_eq!(color(ps(0xFFFF_0200, p, &run)), [0.75, 0.75, 1.0, 0.5]);
}

#[test]
fn texld_variants_choose_coordinates_and_level() {
    // The evaluator's sample returns (u, v, 0, level): −1 automatic, else the bias/level.
    let dcl_s = |n: u16| {
        let mut i = op(O::Dcl, Some(dst(R::Sampler, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
        i
    };
    let tex = |variant: u8| {
        let mut i = op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0)]);
        i.control = variant;
        i
    };
    let base = |i| vec![dcl_s(0), def(0, [2.0, 4.0, 6.0, 2.0]), i];
    assert_eq!(color(ps(PS2X, base(tex(0)), &Run::default())), [2.0, 4.0, 0.0, -1.0]);
    // texldp divides by w = 2.
    assert_eq!(color(ps(PS2X, base(tex(1)), &Run::default())), [1.0, 2.0, 0.0, -1.0]);
    // texldb biases by w.
    assert_eq!(color(ps(PS2X, base(tex(2)), &Run::default())), [2.0, 4.0, 0.0, 2.0]);
    // An unbound sampler reads (0, 0, 0, 1).
    let run = Run { key: ShaderKey { unbound_samplers: 1, ..ShaderKey::default() }, ..Run::default() };
    assert_eq!(color(ps(PS2X, base(tex(0)), &run)), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn a_swizzled_sampler_selects_the_texel_components() {
    // ps_2_x `texld r0, c0, s0.yzwx`: the texel (2, 4, 0, −1) of the evaluator is swizzled by
    // the sampler's swizzle, giving (t.y, t.z, t.w, t.x) = (4, 0, −1, 2) — what the
    // wine ps_code_swizzle shader relies on.
    let mut dcl = op(O::Dcl, Some(dst(R::Sampler, 0, "xyzw")), &[]);
    dcl.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
    let texld = op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0).sw("yzwx")]);
    let p = vec![dcl, def(0, [2.0, 4.0, 6.0, 2.0]), texld];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [4.0, 0.0, -1.0, 2.0]);
}

#[test]
fn odd_programs_are_errors_not_panics() {
    let cases = vec![
        vec![op(O::EndIf, None, &[])],
        vec![op(O::Else, None, &[])],
        vec![op(O::If, None, &[src(R::ConstBool, 0)])],
        vec![op(O::EndLoop, None, &[])],
        vec![op(O::Break, None, &[])],
        vec![op(O::Rep, None, &[c(0)]), op(O::EndRep, None, &[])],
        vec![op(O::Mov, Some(dst(R::Const, 0, "xyzw")), &[c(1)])],
        vec![op(O::Mov, ot0("xyzw"), &[src(R::Sampler, 0)])],
        vec![op(O::Mov, ot0("xyzw"), &[])],
        // v20: a vertex shader has 16 attribute slots (wine's vs_3_0_test_14).
        vec![op(O::Mov, ot0("xyzw"), &[src(R::Input, 20)])],
        vec![
            op(O::Call, None, &[src(R::Label, 1)]),
            op(O::Ret, None, &[]),
            op(O::Label, None, &[src(R::Label, 1)]),
            op(O::Call, None, &[src(R::Label, 1)]),
        ],
    ];
    for insts in cases {
        let p = program(VS2X, insts.clone());
        let sig = analyse(&p);
        assert!(super::super::lower(&p, &sig, &ShaderKey::default()).is_err(), "{insts:?}");
    }
}

#[test]
fn vs_1_1_mov_a0_floors_and_expp_logp_have_their_sm1_shape() {
    // mov a0.x, 1.7 floors to 1; c[a0.x + 2] = c3 = 3. (−1.2 would floor to −2.)
    let mut rel = c(2);
    rel.relative =
        Some(crate::bytecode::RelAddr { reg: a0(), swizzle: crate::bytecode::Swizzle::replicate(0), implicit: true });
    let p = program(
        0xFFFE_0101,
        vec![
            def(10, [1.7, 2.5, 8.0, 0.0]),
            op(O::Mov, Some(dst(R::Addr, 0, "x")), &[c(10).sw("x")]),
            op(O::Mov, ot0("xyzw"), &[rel]),
        ],
    );
    assert_eq!(output(&p, &consts(&[(3, [3.0; 4]), (2, [2.0; 4])]), "oT0"), [3.0; 4]);
    // expp 2.5 = (2^2, 0.5, 2^2.5, 1); logp 8 = (3, 8/2^3, 3, 1).
    let p = program(0xFFFE_0101, vec![def(10, [1.7, 2.5, 8.0, 0.0]), op(O::ExpP, ot0("xyzw"), &[c(10).sw("y")])]);
    let v = output(&p, &Run::default(), "oT0");
    assert_eq!((v[0], v[1], v[3]), (4.0, 0.5, 1.0));
    assert!((v[2] - 2f32.powf(2.5)).abs() < 1e-5);
    let p = program(0xFFFE_0101, vec![def(10, [1.7, 2.5, 8.0, 0.0]), op(O::LogP, ot0("xyzw"), &[c(10).sw("z")])]);
    assert_eq!(output(&p, &Run::default(), "oT0"), [3.0, 1.0, 3.0, 1.0]);
}

#[test]
fn clip_planes_become_clip_distances_of_the_position() {
    // Position (2, 0, 3, 1). Plane 0 = (1, 0, 0, 0) gives x = 2; plane 1 is off (1.0, never
    // clipped); plane 2 = (0, 0, 1, −1) gives z − w = 3 − 1 = 2.
    let p = program(VS2X, vec![def(0, [2.0, 0.0, 3.0, 1.0]), op(O::Mov, Some(dst(R::RastOut, 0, "xyzw")), &[c(0)])]);
    let mut planes = vec![super::eval::vec4([0.0; 4]); 8];
    planes[0] = super::eval::vec4([1.0, 0.0, 0.0, 0.0]);
    planes[2] = super::eval::vec4([0.0, 0.0, 1.0, -1.0]);
    let run = Run {
        key: ShaderKey { clip_planes: 0b101, ..ShaderKey::default() },
        render_state: vec![(9, Value::Agg(planes))],
        ..Run::default()
    };
    let Outcome::Output(m) = super::run(&p, &run) else { panic!() };
    assert_eq!(m["clip_distances"], Value::Agg(vec![Value::F(2.0), Value::F(1.0), Value::F(2.0)]));
}

#[test]
fn shadow_samplers_compare_with_z_and_cube_overrides_use_xyz() {
    let dcl_s = |n: u16, ty: u8| {
        let mut i = op(O::Dcl, Some(dst(R::Sampler, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: ty });
        i
    };
    let p = vec![dcl_s(0, 2), def(0, [0.25, 0.5, 0.75, 2.0]), op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0)])];
    // The evaluator's comparison sample returns the reference: z = 0.75, replicated.
    let run = Run { key: ShaderKey { shadow_samplers: 1, ..ShaderKey::default() }, ..Run::default() };
    assert_eq!(color(ps(PS2X, p.clone(), &run)), [0.75; 4]);
    // A cube override samples with xyz (the evaluator echoes u, v, w).
    let mut key = ShaderKey::default();
    key.sampler_types[0] = Some(crate::bytecode::TextureType::Cube);
    let run = Run { key, ..Run::default() };
    assert_eq!(color(ps(PS2X, p, &run)), [0.25, 0.5, 0.75, -1.0]);
}

#[test]
fn vertex_texture_fetch_uses_the_explicit_level() {
    let mut s = op(O::Dcl, Some(dst(R::Sampler, 1, "xyzw")), &[]);
    s.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
    let mut v = vec![
        dcl_out(0, 5, 0),
        s,
        def(0, [0.5, 0.25, 0.0, 3.0]),
        op(O::TexLdl, ot0("xyzw"), &[c(0), src(R::Sampler, 1)]),
    ];
    v.iter_mut().for_each(retarget_ot0);
    assert_eq!(output(&program(VS3, v), &Run::default(), "o0"), [0.5, 0.25, 0.0, 3.0]);
}

#[test]
fn link_passes_what_the_pixel_shader_reads_and_defaults_the_rest() {
    use crate::lower::io_map::{link, LinkSlot};
    // VS writes oT0, oT3 and oD0; PS (ps_2_0) reads t3 and v1 (COLOR1, not written).
    let vs = program(
        0xFFFE_0200,
        vec![
            def(0, [1.0, 2.0, 3.0, 4.0]),
            op(O::Mov, Some(dst(R::TexCrdOut, 0, "xyzw")), &[c(0)]),
            op(O::Mov, Some(dst(R::TexCrdOut, 3, "xyzw")), &[c(0)]),
            op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[c(0)]),
        ],
    );
    let psp = program(0xFFFF_0200, vec![op(O::Add, oc0("xyzw"), &[src(R::Texture, 3), src(R::Input, 1)])]);
    let linkage = link(vs.version, &analyse(&vs), psp.version, &analyse(&psp));
    let tex3 = (crate::bytecode::Usage::TexCoord as u8, 3);
    let col1 = (crate::bytecode::Usage::Color as u8, 1);
    assert!(linkage.slots.contains(&(tex3.0, tex3.1, LinkSlot::Location(0))), "{linkage:?}");
    assert!(linkage.slots.contains(&(col1.0, col1.1, LinkSlot::Missing)), "{linkage:?}");
    // A ps_2_0 is followed by the fog blend, which reads FOG: the VS writes no oFog.
    let fog = (crate::bytecode::Usage::Fog as u8, 0);
    assert!(linkage.slots.contains(&(fog.0, fog.1, LinkSlot::Missing)), "{linkage:?}");
    assert_eq!(linkage.slots.len(), 3);
    let key = ShaderKey { linkage: Some(linkage), ..ShaderKey::default() };
    // The VS outputs only oT3, at location 0; the PS reads t3 there and COLOR1's default
    // (0, 0, 0, 1) for v1: t3 + v1 = (1, 2, 3, 5).
    let Outcome::Output(m) = super::run(&vs, &Run { key: key.clone(), ..Run::default() }) else { panic!() };
    assert_eq!(m.len(), 2, "oT3 and the position: {:?}", m.keys());
    assert_eq!(m["oT3"].vec4(), [1.0, 2.0, 3.0, 4.0]);
    let run = Run { key, inputs: vec![(0, [1.0, 2.0, 3.0, 4.0])], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0200, psp.instructions.clone(), &run)), [1.0, 2.0, 3.0, 5.0]);
}

#[test]
fn vertex_fog_reads_the_linked_ofog_and_a_missing_one_fogs_fully() {
    use crate::lower::io_map::{link, LinkSlot};
    let fog = crate::bytecode::Usage::Fog as u8;
    // docs/d3d9-rules.md#fog: with FOGTABLEMODE NONE the blend factor is the vertex shader's oFog.x.
    // A vs_1_1 writing oFog links it to the ps_1_1 (which does not name it) …
    let vs =
        program(0xFFFE_0101, vec![def(0, [0.25, 0.0, 0.0, 0.0]), op(O::Mov, Some(dst(R::RastOut, 1, "x")), &[c(0)])]);
    let ps_prog =
        program(0xFFFF_0101, vec![def(0, [1.0, 1.0, 1.0, 0.5]), op(O::Mov, Some(dst(R::Temp, 0, "xyzw")), &[c(0)])]);
    let linkage = link(vs.version, &analyse(&vs), ps_prog.version, &analyse(&ps_prog));
    assert_eq!(linkage.slots, vec![(fog, 0, LinkSlot::Location(0))]);
    // … and the pixel shader blends by it: f = 0.25, rgb = 0.25·(1,1,1) + 0.75·(0,0,1).
    let fog_color = (0, super::eval::vec4([0.0, 0.0, 1.0, 1.0]));
    let key = ShaderKey { fog: FogMode::Vertex, linkage: Some(linkage), ..ShaderKey::default() };
    let run =
        Run { key, inputs: vec![(0, [0.25, 0.0, 0.0, 0.0])], render_state: vec![fog_color.clone()], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0101, ps_prog.instructions.clone(), &run)), [0.25, 0.25, 1.0, 0.5]);
    // A vertex shader that never writes oFog gives f = 0 (measured on Windows): the fog colour.
    let vs = program(0xFFFE_0101, vec![def(0, [1.0; 4]), op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[c(0)])]);
    let linkage = link(vs.version, &analyse(&vs), ps_prog.version, &analyse(&ps_prog));
    assert_eq!(linkage.slots, vec![(fog, 0, LinkSlot::Missing)]);
    let key = ShaderKey { fog: FogMode::Vertex, linkage: Some(linkage), ..ShaderKey::default() };
    let run = Run { key, render_state: vec![fog_color], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0101, ps_prog.instructions, &run)), [0.0, 0.0, 1.0, 0.5]);
}

#[test]
fn relative_output_writes_and_input_reads_check_their_bounds() {
    // vs_3_0: loop aL, i0 = (3, 0, 1) writes o[aL] = c[aL] for aL = 0, 1, 2; o1 and o2 are
    // TEXCOORD1/2, o0 TEXCOORD0 (locations 1, 2, 0); then o[aL + 10] with aL = 5 is o15, out
    // of range (12 outputs): nothing is written — in particular not o11 (TEXCOORD3), where an
    // index clamped without the bounds check would land.
    let mut v = vec![
        dcl_out(0, 5, 0),
        dcl_out(1, 5, 1),
        dcl_out(2, 5, 2),
        dcl_out(11, 5, 3),
        defi(0, [3, 0, 1, 0]),
        defi(1, [1, 5, 0, 0]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        {
            let mut i = op(O::Mov, Some(dst(R::Output, 0, "xyzw")), &[c(0).rel(al(), "x")]);
            i.dst.as_mut().unwrap().relative =
                Some(crate::bytecode::RelAddr { reg: al(), swizzle: swz("x"), implicit: false });
            i
        },
        op(O::EndLoop, None, &[]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 1)]),
        {
            let mut i = op(O::Mov, Some(dst(R::Output, 10, "xyzw")), &[c(9)]);
            i.dst.as_mut().unwrap().relative =
                Some(crate::bytecode::RelAddr { reg: al(), swizzle: swz("x"), implicit: false });
            i
        },
        op(O::EndLoop, None, &[]),
    ];
    v.iter_mut().for_each(retarget_ot0);
    let run = consts(&[(0, [10.0; 4]), (1, [11.0; 4]), (2, [12.0; 4]), (9, [99.0; 4])]);
    let Outcome::Output(m) = super::run(&program(VS3, v), &run) else { panic!() };
    assert_eq!((m["o0"].vec4(), m["o1"].vec4(), m["o2"].vec4()), ([10.0; 4], [11.0; 4], [12.0; 4]));
    assert_eq!(m["o11"].vec4(), [0.0; 4]);
    // ps_3_0: v[aL] over inputs v0, v1 (TEXCOORD0, TEXCOORD1 at locations 0, 1), aL from 0 to
    // 2: v2 is not an input (reads 0): sum = v0 + v1.
    let dcl_in = |n: u16, index: u8| {
        let mut i = op(O::Dcl, Some(dst(R::Input, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 5, usage_index: index, texture_type: 0 });
        i
    };
    let p = vec![
        dcl_in(0, 0),
        dcl_in(1, 1),
        defi(0, [3, 0, 1, 0]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), src(R::Input, 0).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
        op(O::Mov, oc0("xyzw"), &[r(0)]),
    ];
    let run = Run { inputs: vec![(0, [1.0, 2.0, 3.0, 4.0]), (1, [10.0, 20.0, 30.0, 40.0])], ..Run::default() };
    assert_eq!(color(ps(PS3, p, &run)), [11.0, 22.0, 33.0, 44.0]);
}

#[test]
fn breakp_callnz_on_a_predicate_and_derivatives() {
    // setp_lt p0.x, c0.x (1), c0.y (2) → true; rep 5 { r0 += 1; breakp p0.x } → 1.
    // callnz l0, !p0.x does not call (r1 stays 0).
    let mut setp = op(O::Setp, Some(dst(R::Predicate, 0, "x")), &[c(0).sw("x"), c(0).sw("y")]);
    setp.control = Comparison::Lt as u8;
    let p = vec![
        def(0, [1.0, 2.0, 0.0, 0.0]),
        defi(0, [5, 0, 0, 0]),
        setp,
        op(O::Rep, None, &[src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0).sw("x")]),
        op(O::BreakP, None, &[src(R::Predicate, 0).sw("x")]),
        op(O::EndRep, None, &[]),
        op(O::CallNz, None, &[src(R::Label, 0), src(R::Predicate, 0).sw("x").md(Mod::Not)]),
        op(O::Add, oc0("xyzw"), &[r(0), r(1)]),
        op(O::Ret, None, &[]),
        op(O::Label, None, &[src(R::Label, 0)]),
        op(O::Mov, rd(1, "xyzw"), &[c(0).sw("y")]),
        op(O::Ret, None, &[]),
    ];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [1.0; 4]);
    // dsx of a value constant over the quad is 0 (the evaluator's derivative is 0).
    let p = vec![def(0, [1.0; 4]), op(O::Dsx, oc0("xyzw"), &[c(0)])];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [0.0; 4]);
}

#[test]
fn sw_versions_keep_constants_in_the_uniform_array_unless_a_read_may_reach_past_it() {
    // ps_3_sw reading only c5 directly: the usual 224-register array holds it.
    let layout = |insts: Vec<Instruction>| {
        let p = program(0xFFFF_03FF, insts);
        let lowered = super::super::lower(&p, &analyse(&p), &ShaderKey::default()).expect("lowers");
        lowered.layout.float_constants.map(|f| (f.count, f.high_binding))
    };
    assert_eq!(layout(vec![op(O::Mov, oc0("xyzw"), &[c(5)])]), Some((224, None)));
    // A direct read of c300 lies past it: all 8192 registers, in two 64 KiB uniform arrays.
    let both = Some((8192, Some(super::super::FLOAT_CONSTANTS_HIGH_BINDING)));
    assert_eq!(layout(vec![op(O::Mov, oc0("xyzw"), &[c(300)])]), both);
    // A relative read may reach any register (ps_3_0 relative `c[aL + n]` inside a loop).
    let rel = vec![
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Mov, oc0("xyzw"), &[c(2).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
    ];
    assert_eq!(layout(rel), both);
    // The value read through the uniform array is the constant itself.
    let p = vec![op(O::Mov, oc0("xyzw"), &[c(5)])];
    assert_eq!(color(ps(0xFFFF_03FF, p, &consts(&[(5, [2.25, -1.75, 3.5, 0.5])]))), [2.25, -1.75, 3.5, 0.5]);
}

#[test]
fn sw_versions_have_2048_integer_and_boolean_constants() {
    // vs_3_sw: rep i100 (3 iterations) adds c0 three times; `if b50` then adds c1 once, b51 not.
    let o0 = || Some(dst(R::Output, 0, "xyzw"));
    let p = vec![
        dcl_out(0, 5, 0),
        op(O::Mov, rd(0, "xyzw"), &[c(2)]),
        op(O::Rep, None, &[src(R::ConstInt, 100)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0)]),
        op(O::EndRep, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 50)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(1)]),
        op(O::EndIf, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 51)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(1)]),
        op(O::EndIf, None, &[]),
        op(O::Mov, o0(), &[r(0)]),
    ];
    let run = Run {
        consts: vec![(0, [1.0; 4]), (1, [10.0; 4]), (2, [0.0; 4])],
        ints: vec![(100, [3, 0, 0, 0])],
        bools: vec![(50, true), (51, false)],
        ..Run::default()
    };
    // 0 + 3·1 + 10 = 13.
    assert_eq!(output(&program(0xFFFE_03FF, p), &run, "o0"), [13.0; 4]);
}

#[test]
fn sw_constants_past_4095_come_from_the_second_array() {
    // vs_3_sw: c5000 is register 5000 − 4096 = 904 of the second array; c4095 the last of the first.
    let run =
        consts(&[(4095, [1.0, 2.0, 3.0, 4.0]), (4096, [5.0; 4]), (5000, [-6.5, 7.0, 0.25, 8.0]), (8191, [9.0; 4])]);
    let vs_sw = |insts: Vec<Instruction>| output(&program(0xFFFE_03FF, insts), &run, "o0");
    let o0 = || Some(dst(R::Output, 0, "xyzw"));
    assert_eq!(vs_sw(vec![dcl_out(0, 5, 0), op(O::Mov, o0(), &[c(5000)])]), [-6.5, 7.0, 0.25, 8.0]);
    assert_eq!(vs_sw(vec![dcl_out(0, 5, 0), op(O::Mov, o0(), &[c(4095)])]), [1.0, 2.0, 3.0, 4.0]);
    // Relatively: a0.x = 4000 or 8000 plus the base picks either array; past 8191 (and below 0)
    // reads 0.
    let relative = |a: f32, base: u16| {
        vec![
            dcl_out(0, 5, 0),
            def(0, [a; 4]),
            op(O::Mova, Some(dst(R::Addr, 0, "x")), &[c(0)]),
            op(O::Mov, o0(), &[c(base).rel(a0(), "x")]),
        ]
    };
    assert_eq!(vs_sw(relative(4000.0, 95)), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(vs_sw(relative(4000.0, 96)), [5.0; 4]);
    assert_eq!(vs_sw(relative(4000.0, 1000)), [-6.5, 7.0, 0.25, 8.0]);
    assert_eq!(vs_sw(relative(8000.0, 191)), [9.0; 4]);
    assert_eq!(vs_sw(relative(8000.0, 192)), [0.0; 4]);
    assert_eq!(vs_sw(relative(-10.0, 9)), [0.0; 4]);
}
