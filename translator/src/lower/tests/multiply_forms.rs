//! The strict multiply's shorter forms (`Lowerer::fmul`) and the values kept per component give
//! the rule's result, infinities and NaN included. Every expectation is the rule of
//! docs/d3d9-rules.md#float-rules, worked out by hand per lane in the comments: a product with a
//! zero factor is a zero whose sign is unspecified (docs/d3d9-rules.md#zero-product), so zeros
//! are compared without their sign ([`same`]); any other product is IEEE's, signs included.

use super::*;
use crate::bytecode::{Opcode as O, RegisterType as R};

const VS2X: u32 = 0xFFFE_0201;

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
fn sat(mut d: Option<DstParam>) -> Option<DstParam> {
    if let Some(d) = d.as_mut() {
        d.modifiers.0 = crate::bytecode::ResultModifiers::SATURATE;
    }
    d
}

/// oT0 of a vs_2_x program as bit patterns, with buffer constants `consts`.
fn bits(insts: Vec<Instruction>, consts: &[(usize, [f32; 4])]) -> [u32; 4] {
    let run = Run { consts: consts.to_vec(), ..Run::default() };
    output(&program(VS2X, insts), &run, "oT0").map(f32::to_bits)
}

const NEG0: u32 = 0x8000_0000;
const NAN: u32 = 0x7FC0_0000;

/// NaN payloads are not part of the rule: any NaN reads as `NAN`.
fn canonical(v: [u32; 4]) -> [u32; 4] {
    v.map(|b| if f32::from_bits(b).is_nan() { NAN } else { b })
}

/// `got` is `want` up to NaN payloads and the sign of a zero (either sign of a zero product is
/// the rule's).
#[track_caller]
fn same(got: [u32; 4], want: [u32; 4]) {
    let unsigned = |v: [u32; 4]| canonical(v).map(|b| if b == NEG0 { 0 } else { b });
    assert_eq!(unsigned(got), unsigned(want), "got {:?}", got.map(f32::from_bits));
}

#[test]
fn a_known_positive_factor_keeps_the_other_factors_zero_sign_inf_and_nan() {
    // c0 = def (2, 0.5, 3, 1), c1 from the buffer (−0, +inf, NaN, +0):
    // 2·−0 = ±0; 0.5·inf = inf; 3·NaN = NaN; 1·+0 = ±0. c0 is finite and never zero, so the
    // plain product is the rule's: no guard, no call.
    let p = vec![def(0, [2.0, 0.5, 3.0, 1.0]), op(O::Mul, ot0("xyzw"), &[c(0), c(1)])];
    let got = bits(p.clone(), &[(1, [-0.0, f32::INFINITY, f32::NAN, 0.0])]);
    same(got, [NEG0, f32::INFINITY.to_bits(), NAN, 0]);
    assert_eq!(forms(p, is_select), (0, 0));
}

#[test]
fn a_known_factor_with_zero_and_negative_lanes_follows_the_rule_per_lane() {
    // c0 = def (0, 2, −2, −2), c1 = (inf, −0, −0, +0):
    // 0·inf = ±0 (IEEE: NaN); 2·−0, −2·−0, −2·+0 = ±0. c0 is finite but zero in x: one guard,
    // `c0 · (c0 == 0 ? 0 : c1)`, its test a constant mask, and no call.
    let p = vec![def(0, [0.0, 2.0, -2.0, -2.0]), op(O::Mul, ot0("xyzw"), &[c(0), c(1)])];
    let got = bits(p.clone(), &[(1, [f32::INFINITY, -0.0, -0.0, 0.0])]);
    same(got, [0, NEG0, NEG0, 0]);
    assert_eq!(forms(p, is_select), (1, 0));
}

#[test]
fn a_saturated_factor_needs_one_guard_and_keeps_zero_signs() {
    // r0 = sat(c1) = sat(−5, NaN, 0.25, 2) = (+0, +0, 0.25, 1); c2 = (inf, −0, −0, NaN):
    // +0·inf = ±0 (IEEE: NaN); +0·−0 = ±0; 0.25·−0 = ±0; 1·NaN = NaN.
    let p = vec![op(O::Mov, sat(rd(0, "xyzw")), &[c(1)]), op(O::Mul, ot0("xyzw"), &[r(0), c(2)])];
    let got = bits(p, &[(1, [-5.0, f32::NAN, 0.25, 2.0]), (2, [f32::INFINITY, -0.0, -0.0, f32::NAN])]);
    same(got, [0, 0, NEG0, NAN]);
    // The other order: c2 · r0, the same by symmetry of the rule.
    let p = vec![op(O::Mov, sat(rd(0, "xyzw")), &[c(1)]), op(O::Mul, ot0("xyzw"), &[c(2), r(0)])];
    let got = bits(p, &[(1, [-5.0, f32::NAN, 0.25, 2.0]), (2, [f32::INFINITY, -0.0, -0.0, f32::NAN])]);
    same(got, [0, 0, NEG0, NAN]);
}

#[test]
fn two_saturated_or_set_factors_multiply_plainly() {
    // r0 = sat(−1, 0.25, 1, NaN) = (+0, 0.25, 1, +0); r1 = slt(c2, c3) = (1, 0, 1, 0) with
    // c2 = (0, 1, 0, 1), c3 = (1, 0, 1, 0): products (0, 0, 1, 0). Both factors are finite.
    let p = vec![
        op(O::Mov, sat(rd(0, "xyzw")), &[c(1)]),
        op(O::Slt, rd(1, "xyzw"), &[c(2), c(3)]),
        op(O::Mul, ot0("xyzw"), &[r(0), r(1)]),
    ];
    let got = bits(p, &[(1, [-1.0, 0.25, 1.0, f32::NAN]), (2, [0.0, 1.0, 0.0, 1.0]), (3, [1.0, 0.0, 1.0, 0.0])]);
    same(got, [0, 0, 1.0f32.to_bits(), 0]);
}

#[test]
fn a_square_is_the_plain_product_and_follows_the_rule() {
    // c1 = (−0, +inf, NaN, −3), c1 · c1: −0·−0 = ±0; inf·inf = inf; NaN; −3·−3 = 9. dp3 of
    // c2 = (−0, 0, −0, 5) with itself: 0.
    let p = vec![op(O::Mul, ot0("xyzw"), &[c(1), c(1)])];
    let got = bits(p.clone(), &[(1, [-0.0, f32::INFINITY, f32::NAN, -3.0])]);
    same(got, [0, f32::INFINITY.to_bits(), NAN, 9.0f32.to_bits()]);
    let q = vec![op(O::Dp3, ot0("xyzw"), &[c(2), c(2)])];
    same(bits(q, &[(2, [-0.0, 0.0, -0.0, 5.0])]), [0; 4]);
    // No guard: the product's module has no select.
    let selects = entry_count(&lowered(&program(VS2X, p)), is_select);
    assert_eq!(selects, 0, "a square needs no zero guard");
}

#[test]
fn one_component_writes_compute_that_component_and_keep_the_others() {
    // r0 = c1 = (1, 2, 3, 4); mul r0.y, c1.x, c2.z: 1·−0 = ±0;
    // mad r0.w, c1.y, c2.x, c1.x: 2·inf + 1 = inf; add r0.x, c1.z, c1.w = 7; z keeps 3.
    let p = vec![
        op(O::Mov, rd(0, "xyzw"), &[c(1)]),
        op(O::Mul, rd(0, "y"), &[c(1).sw("x"), c(2).sw("z")]),
        op(O::Mad, rd(0, "w"), &[c(1).sw("y"), c(2).sw("x"), c(1).sw("x")]),
        op(O::Add, rd(0, "x"), &[c(1).sw("z"), c(1).sw("w")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    let got = bits(p, &[(1, [1.0, 2.0, 3.0, 4.0]), (2, [f32::INFINITY, 5.0, -0.0, 6.0])]);
    same(got, [7.0f32.to_bits(), NEG0, 3.0f32.to_bits(), f32::INFINITY.to_bits()]);
}

#[test]
fn swizzled_partial_writes_compose_the_right_components() {
    // r0.xy = c1.wz = (4, 3); r0.zw = c2.yx = (6, 5); r1 = r0.wzyx = (5, 6, 3, 4);
    // oT0 = r1.yxww = (6, 5, 4, 4).
    let p = vec![
        op(O::Mov, rd(0, "xy"), &[c(1).sw("wzzz")]),
        op(O::Mov, rd(0, "zw"), &[c(2).sw("yyyx")]),
        op(O::Mov, rd(1, "xyzw"), &[r(0).sw("wzyx")]),
        op(O::Mov, ot0("xyzw"), &[r(1).sw("yxww")]),
    ];
    let got = bits(p, &[(1, [1.0, 2.0, 3.0, 4.0]), (2, [5.0, 6.0, 7.0, 8.0])]);
    assert_eq!(got, [6.0, 5.0, 4.0, 4.0].map(f32::to_bits));
}

/// How many expressions of the entry point are of `kind`, and how many calls the module has.
fn forms(insts: Vec<Instruction>, kind: fn(&naga::Expression) -> bool) -> (usize, usize) {
    let module = lowered(&program(VS2X, insts));
    (entry_count(&module, kind), entry_count(&module, |e| matches!(e, naga::Expression::CallResult(_))))
}

fn is_select(e: &naga::Expression) -> bool {
    matches!(e, naga::Expression::Select { .. })
}

#[test]
fn a_known_factor_is_judged_by_the_written_components_alone() {
    // c0 = def (0, 2, −2, inf); mul oT0.yz, c0, c1 with c1 = (7, −0, +0, 9) writes y and z,
    // where c0 is finite and non-zero: 2·−0 = ±0; −2·+0 = ±0. x and w keep oT0's +0. The
    // unwritten 0 and inf of c0 do not force a guard: one select, the write of y and z.
    let p = vec![def(0, [0.0, 2.0, -2.0, f32::INFINITY]), op(O::Mul, ot0("yz"), &[c(0), c(1)])];
    same(bits(p.clone(), &[(1, [7.0, -0.0, 0.0, 9.0])]), [0, NEG0, 0, 0]);
    assert_eq!(forms(p, is_select), (1, 0), "the plain product");
    // The same with other values: 2·inf = inf; 3·−0 = ±0.
    let q = vec![def(0, [0.0, 2.0, 3.0, -1.0]), op(O::Mul, ot0("yz"), &[c(0), c(1)])];
    same(bits(q.clone(), &[(1, [7.0, f32::INFINITY, -0.0, 9.0])]), [0, f32::INFINITY.to_bits(), NEG0, 0]);
    // One select: the write of y and z into oT0, none for the product.
    assert_eq!(forms(q, is_select), (1, 0));
}

#[test]
fn a_partly_written_register_is_known_where_the_product_reads_it() {
    // r0.xy = c2 (buffer), r0.zw = def c0.xy = (−1, −1); mul oT0.zw, c1, r0 reads only the
    // known −1s of r0: with c1 = (5, 5, +0, inf), +0·−1 = ±0; inf·−1 = −inf: the plain product.
    let p = vec![
        def(0, [-1.0, -1.0, 0.0, 1.0]),
        op(O::Mov, rd(0, "xy"), &[c(2)]),
        op(O::Mov, rd(0, "zw"), &[c(0).sw("xxxy")]),
        op(O::Mul, ot0("zw"), &[c(1), r(0)]),
    ];
    let got = bits(p.clone(), &[(1, [5.0, 5.0, 0.0, f32::INFINITY]), (2, [3.0, 4.0, 0.0, 0.0])]);
    same(got, [0, 0, 0, f32::NEG_INFINITY.to_bits()]);
    assert_eq!(forms(p, is_select).1, 0, "the plain product, not the rule's call");
}

#[test]
fn a_dot_product_judges_its_known_factor_by_the_summed_components() {
    // dp3 oT0.x, c0, c1 with c0 = def (1, 2, 3, 0): finite and non-zero in the three summed
    // components, so the plain products: 1·−0 + 2·inf + 3·1 = inf. c1.w = NaN is not summed.
    let p = vec![def(0, [1.0, 2.0, 3.0, 0.0]), op(O::Dp3, ot0("x"), &[c(0), c(1)])];
    let got = bits(p.clone(), &[(1, [-0.0, f32::INFINITY, 1.0, f32::NAN])]);
    same(got, [f32::INFINITY.to_bits(), 0, 0, 0]);
    // No guard: c0.w = 0 would have asked for one (a select of the other factor).
    assert_eq!(forms(p, is_select), (0, 0));
}

#[test]
fn arithmetic_on_known_values_keeps_them_finite_and_unknown_factors_keep_the_whole_rule() {
    // r0 = sat(c1) · 2 + 0.5 lies in [0.5, 2.5]: finite and never zero, so r0 · c2 is the plain
    // product. c1 = (−1, 0.25, NaN, 4) → r0 = (0.5, 1, 0.5, 2.5); c2 = (inf, −0, NaN, 2):
    // 0.5·inf = inf; 1·−0 = ±0; 0.5·NaN = NaN; 2.5·2 = 5.
    let p = vec![
        def(0, [2.0, 0.5, 0.0, 0.0]),
        op(O::Mov, sat(rd(1, "xyzw")), &[c(1)]),
        op(O::Mad, rd(0, "xyzw"), &[r(1), c(0).sw("xxxx"), c(0).sw("yyyy")]),
        op(O::Mul, ot0("xyzw"), &[r(0), c(2)]),
    ];
    let got = bits(p.clone(), &[(1, [-1.0, 0.25, f32::NAN, 4.0]), (2, [f32::INFINITY, -0.0, f32::NAN, 2.0])]);
    same(got, [f32::INFINITY.to_bits(), 0, NAN, 5.0f32.to_bits()]);
    assert_eq!(forms(p, |_| false).1, 0, "no call of the rule");
    // Two application constants: nothing is known, the rule's call stays (the rule's floor).
    // c1 · c2 with c1 = (0, inf, NaN, −0), c2 = (inf, 0, 0, NaN): every lane ±0.
    let q = vec![op(O::Mul, ot0("xyzw"), &[c(1), c(2)])];
    let got = bits(q.clone(), &[(1, [0.0, f32::INFINITY, f32::NAN, -0.0]), (2, [f32::INFINITY, 0.0, 0.0, f32::NAN])]);
    same(got, [0; 4]);
    assert_eq!(forms(q, |_| false).1, 1, "the rule's call");
}

#[test]
fn the_keys_facts_about_constants_and_textures_spare_a_guard() {
    // finite_constants: c1 · c2 of two application constants is the plain product:
    // c1 = (0, 2, −0, 1), c2 = (5, −3, 7, 0): 0·5, −0·7 and 1·0 are ±0, 2·−3 = −6.
    let p = vec![op(O::Mul, ot0("xyzw"), &[c(1), c(2)])];
    let finite = ShaderKey { finite_constants: true, ..ShaderKey::default() };
    let run = Run {
        consts: vec![(1, [0.0, 2.0, -0.0, 1.0]), (2, [5.0, -3.0, 7.0, 0.0])],
        key: finite.clone(),
        ..Run::default()
    };
    same(output(&program(VS2X, p.clone()), &run, "oT0").map(f32::to_bits), [0, (-6.0f32).to_bits(), 0, 0]);
    let module = super::super::lower(&program(VS2X, p.clone()), &analyse(&program(VS2X, p)), &finite).unwrap().module;
    let calls = entry_count(&module, |e| matches!(e, naga::Expression::CallResult(_)));
    assert_eq!((entry_count(&module, is_select), calls), (0, 0), "both finite: no guard");
    // A constant times a vertex input, of which nothing is known: one guard on the constant
    // with the fact (a select, no call), the rule's call without it.
    let vs = "vs_2_0\ndcl_position v0\nmul oPos, c1, v0\n";
    let vs = crate::Shader::from_asm(vs, &crate::ParseOptions::default()).unwrap();
    let forms = |key: &ShaderKey| {
        let module = vs.translate(key).unwrap().module;
        (entry_count(&module, is_select), entry_count(&module, |e| matches!(e, naga::Expression::CallResult(_))))
    };
    assert_eq!(forms(&finite), (1, 0), "one guard");
    assert_eq!(forms(&ShaderKey::default()), (0, 1), "the rule's call");
    // normalised_samplers: a texel of s0 is in [−1, 1], so texel · c0 needs one guard (on the
    // texel) and, with the constants finite too, none; a shadow sampler's result is in [0, 1].
    // Without the facts nothing is known of either factor: the rule's call.
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmul oC0, r0, c0\n";
    let shader = crate::Shader::from_asm(text, &crate::ParseOptions::default()).unwrap();
    let calls = |key: ShaderKey| {
        let module = shader.translate(&key).unwrap().module;
        entry_count(&module, |e| matches!(e, naga::Expression::CallResult(_)))
    };
    assert_eq!(calls(ShaderKey::default()), 1, "texel · constant: nothing known");
    let facts = ShaderKey { finite_constants: true, ..ShaderKey::default() };
    assert_eq!(calls(ShaderKey { normalised_samplers: 1, ..facts.clone() }), 0);
    assert_eq!(calls(ShaderKey { normalised_samplers: 1, ..ShaderKey::default() }), 0, "a finite texel: one guard");
    assert_eq!(calls(ShaderKey { shadow_samplers: 1, ..ShaderKey::default() }), 0, "a comparison's 0 or 1");
}

#[test]
fn a_three_component_dot_product_knows_nothing_of_the_fourth_component() {
    // dp3 r0.x, (1, 0, 0, 5), (0, 1, 0, 5) = 0: the w lanes (25) are not summed. r1 = 1e30 · 1e30
    // = inf (a square: plain). r0.x · inf under the rule is ±0; had the range pass summed the w
    // lanes, it would call r0.x the non-zero 25 and multiply plainly: 0 · inf = NaN.
    let p = vec![
        def(0, [1.0, 0.0, 0.0, 5.0]),
        def(1, [0.0, 1.0, 0.0, 5.0]),
        def(2, [1e30; 4]),
        op(O::Dp3, rd(0, "x"), &[c(0), c(1)]),
        op(O::Mul, rd(1, "xyzw"), &[c(2), c(2)]),
        op(O::Mul, ot0("xyzw"), &[r(0).sw("x"), r(1)]),
    ];
    same(bits(p, &[]), [0; 4]);
}
