//! What the lowering may leave out because nothing reads it (docs/architecture.md#values-per-component):
//! the variable of a register nothing has stored to yet (it still holds its initial +0), and the
//! components of a source that the instruction does not use. Each test checks the value, worked
//! out by hand, and that the shortcut was taken (the expressions it saves are absent), so a
//! lost shortcut and a wrong one both fail.

use naga::Expression;

use super::*;
use crate::bytecode::{Opcode as O, RegisterType as R};

const VS2X: u32 = 0xFFFE_0201;
const PS2X: u32 = 0xFFFF_0201;

fn c(n: u16) -> SrcParam {
    src(R::Const, n)
}
fn r(n: u16) -> SrcParam {
    src(R::Temp, n)
}
fn rd(n: u16, m: &str) -> Option<DstParam> {
    Some(dst(R::Temp, n, m))
}
fn ot0(m: &str) -> Option<DstParam> {
    Some(dst(R::TexCrdOut, 0, m))
}

/// oT0 of a vs_2_x program with buffer constants `consts`.
fn ot0_of(insts: &[Instruction], consts: &[(usize, [f32; 4])]) -> [f32; 4] {
    let run = Run { consts: consts.to_vec(), ..Run::default() };
    output(&program(VS2X, insts.to_vec()), &run, "oT0")
}

/// A vs_2_x program lowered with the default key.
fn vs_module(insts: &[Instruction]) -> naga::Module {
    lowered(&program(VS2X, insts.to_vec()))
}

#[test]
fn a_temporary_nothing_stored_to_reads_as_zero_with_no_variable() {
    // r0 starts as +0; mov r0.xy, c0 keeps its z and w: oT0 = (5, 6, +0, +0).
    let p = [op(O::Mov, rd(0, "xy"), &[c(0)]), op(O::Mov, ot0("xyzw"), &[r(0)])];
    let got = ot0_of(&p, &[(0, [5.0, 6.0, 7.0, 8.0])]);
    assert_eq!(got.map(f32::to_bits), [5.0f32.to_bits(), 6.0f32.to_bits(), 0, 0]);
    let module = vs_module(&p);
    let locals: Vec<_> =
        module.entry_points[0].function.local_variables.iter().filter_map(|(_, l)| l.name.clone()).collect();
    assert!(!locals.iter().any(|l| l.starts_with("r0")), "no variable for r0: {locals:?}");
    assert_eq!(entry_count(&module, |e| matches!(e, Expression::LocalVariable(_))), 0);
}

#[test]
fn a_loop_reads_what_its_later_instructions_stored() {
    // rep 2 { add r1, r0, c0; mov r0, c1 }: the first pass reads r0 = 0, the second c1, so
    // r1 = c1 + c0 = (11, 22, 33, 44). Read as its initial 0 each pass, r1 would be c0.
    let p = [
        defi(0, [2, 0, 0, 0]),
        op(O::Rep, None, &[src(R::ConstInt, 0)]),
        op(O::Add, rd(1, "xyzw"), &[r(0), c(0)]),
        op(O::Mov, rd(0, "xyzw"), &[c(1)]),
        op(O::EndRep, None, &[]),
        op(O::Mov, ot0("xyzw"), &[r(1)]),
    ];
    let got = ot0_of(&p, &[(0, [1.0, 2.0, 3.0, 4.0]), (1, [10.0, 20.0, 30.0, 40.0])]);
    assert_eq!(got, [11.0, 22.0, 33.0, 44.0]);
}

#[test]
fn a_write_after_a_loop_reads_what_the_loop_stored() {
    // rep 1 { mov r0.x, c0.x }; mov r0.y, c0.y: r0 = (1, 2, 0, 0) after the loop.
    let p = [
        defi(0, [1, 0, 0, 0]),
        op(O::Rep, None, &[src(R::ConstInt, 0)]),
        op(O::Mov, rd(0, "x"), &[c(0)]),
        op(O::EndRep, None, &[]),
        op(O::Mov, rd(0, "y"), &[c(0)]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    assert_eq!(ot0_of(&p, &[(0, [1.0, 2.0, 3.0, 4.0])]), [1.0, 2.0, 0.0, 0.0]);
}

#[test]
fn the_written_components_of_in_place_sources_read_the_whole_vectors() {
    // add oT0.xyz, r0.xyzx, c1.xyzx: lane w of either source is not used, so both are read
    // whole (no swizzle) and c1.w = inf does not reach oT0.w, which keeps its +0.
    let p = [op(O::Mov, rd(0, "xyzw"), &[c(0)]), op(O::Add, ot0("xyz"), &[r(0).sw("xyzx"), c(1).sw("xyzx")])];
    let got = ot0_of(&p, &[(0, [1.0, 2.0, 3.0, 4.0]), (1, [10.0, 20.0, 30.0, f32::INFINITY])]);
    assert_eq!(got, [11.0, 22.0, 33.0, 0.0]);
    assert_eq!(entry_count(&vs_module(&p), |e| matches!(e, Expression::Swizzle { .. })), 0);
}

#[test]
fn used_components_from_one_value_need_no_select() {
    // r0 = (c0.x, c0.y, c1.x, c1.y); add oT0.zw, r0, c2 uses only the components from c1:
    // oT0 = (0, 0, 5 + 100, 6 + 200), with one swizzle of c1 and no select against c0: the
    // one select merges oT0's written components with its initial +0.
    let p = [
        op(O::Mov, rd(0, "xyzw"), &[c(0)]),
        op(O::Mov, rd(0, "zw"), &[c(1).sw("xyxy")]),
        op(O::Add, ot0("zw"), &[r(0), c(2)]),
    ];
    let consts = [(0, [1.0, 2.0, 3.0, 4.0]), (1, [5.0, 6.0, 7.0, 8.0]), (2, [0.0, 0.0, 100.0, 200.0])];
    assert_eq!(ot0_of(&p, &consts), [0.0, 0.0, 105.0, 206.0]);
    assert_eq!(entry_count(&vs_module(&p), |e| matches!(e, Expression::Select { .. })), 1);
}

#[test]
fn a_dot_product_reads_only_the_components_it_sums() {
    // dp3 oT0.x, r0.xyzx, r0.xyzx with r0 = (1, 2, 3, NaN): 1 + 4 + 9 = 14; the NaN in w is
    // read (the source is taken whole) but not summed.
    let p = [op(O::Mov, rd(0, "xyzw"), &[c(0)]), op(O::Dp3, ot0("x"), &[r(0).sw("xyzx"), r(0).sw("xyzx")])];
    assert_eq!(ot0_of(&p, &[(0, [1.0, 2.0, 3.0, f32::NAN])]), [14.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_projected_sample_reads_its_divisor_from_the_swizzled_w() {
    // texldp r0, c0.xyzx, s0 divides by the source's w, which is c0.x = 2: the evaluator's
    // sample gives (u, v, 0, −1) = (2 / 2, 4 / 2, 0, −1). c0.w = 8 must not be the divisor.
    let mut dcl = op(O::Dcl, Some(dst(R::Sampler, 0, "xyzw")), &[]);
    dcl.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
    let mut texldp = op(O::Tex, Some(dst(R::ColorOut, 0, "xyzw")), &[c(0).sw("xyzx"), src(R::Sampler, 0)]);
    texldp.control = 1;
    let p = program(PS2X, vec![dcl, texldp]);
    let consts = Run { consts: vec![(0, [2.0, 4.0, 6.0, 8.0])], ..Run::default() };
    match run(&p, &consts) {
        Outcome::Output(m) => assert_eq!(m["oC0"].vec4(), [1.0, 2.0, 0.0, -1.0]),
        Outcome::Killed => panic!("killed"),
    }
}

#[test]
fn an_address_component_is_rounded_and_read_as_a_scalar() {
    // mova rounds half away from zero (docs/d3d9-rules.md#address-register), one component at
    // a time here: a0.y = round(−2.5) = −3 and a0.x = round(2.5) = 3 (half to even would give
    // −2 and 2, reading c3.x = 30 and c3.y, c2.zw instead). So r0.x = c[−3 + 5].x = c2.x = 20,
    // r0.y = c[3 + 1].y = c4.y = 41 and r0.zw = c[3 + 0].zw = c3.zw = (32, 33).
    let a0 = crate::bytecode::Register::new(R::Addr, 0);
    let p = [
        def(10, [2.5, 0.0, -2.5, 0.0]),
        op(O::Mova, Some(dst(R::Addr, 0, "y")), &[c(10).sw("zzzz")]),
        op(O::Mova, Some(dst(R::Addr, 0, "x")), &[c(10).sw("xxxx")]),
        op(O::Mov, rd(0, "x"), &[c(5).rel(a0, "y")]),
        op(O::Mov, rd(0, "y"), &[c(1).rel(a0, "x")]),
        op(O::Mov, rd(0, "zw"), &[c(0).rel(a0, "x")]),
        op(O::Mov, ot0("xyzw"), &[r(0)]),
    ];
    let consts = [(2, [20.0, 21.0, 22.0, 23.0]), (3, [30.0, 31.0, 32.0, 33.0]), (4, [40.0, 41.0, 42.0, 43.0])];
    assert_eq!(ot0_of(&p, &consts), [20.0, 41.0, 32.0, 33.0]);
    // Each address is its rounded scalar: a0 is never built as a vector (no splat of the
    // scalar to round four lanes, no compose of its components to take one back out).
    let module = vs_module(&p);
    assert_eq!(entry_count(&module, |e| matches!(e, Expression::Splat { .. })), 0);
    let composes = entry_count(&module, |e| matches!(e, Expression::Compose { .. }));
    assert_eq!(composes, 2, "only oT0's vector and the output structure");
    // mova_sat saturates before it rounds: a0.x = round(sat(−2.5)) = 0 (round(−2.5) = −3
    // unsaturated), so oT0 = c[0 + 2] = c2.
    let mut mova_sat = dst(R::Addr, 0, "x");
    mova_sat.modifiers.0 = crate::bytecode::ResultModifiers::SATURATE;
    let p = [
        def(10, [2.5, 0.0, -2.5, 0.0]),
        op(O::Mova, Some(mova_sat), &[c(10).sw("zzzz")]),
        op(O::Mov, ot0("xyzw"), &[c(2).rel(a0, "x")]),
    ];
    let consts = [(2, [20.0, 21.0, 22.0, 23.0]), (3, [30.0; 4])];
    assert_eq!(ot0_of(&p, &consts), [20.0, 21.0, 22.0, 23.0]);
}

#[test]
fn the_zeros_a_partial_write_keeps_cost_nothing_until_read() {
    // mov r0.xy, c0 on a fresh r0 keeps its z and w, +0; add r0.zw, c1, c1 replaces them before
    // anything reads them: oT0 = (1, 2, 6, 8). No run-time zero is made (the bit-pattern
    // variable `bits` it would be loaded from is absent).
    let p =
        [op(O::Mov, rd(0, "xy"), &[c(0)]), op(O::Add, rd(0, "zw"), &[c(1), c(1)]), op(O::Mov, ot0("xyzw"), &[r(0)])];
    assert_eq!(ot0_of(&p, &[(0, [1.0, 2.0, 9.0, 9.0]), (1, [0.0, 0.0, 3.0, 4.0])]), [1.0, 2.0, 6.0, 8.0]);
    let globals: Vec<_> = vs_module(&p).global_variables.iter().filter_map(|(_, g)| g.name.clone()).collect();
    assert!(!globals.iter().any(|g| g == "bits"), "no zero is loaded: {globals:?}");
    // Read, the kept zeros are +0: mov oT0, r0.zwxy after mov r0.xy, c0 gives (0, 0, 1, 2).
    let p = [op(O::Mov, rd(0, "xy"), &[c(0)]), op(O::Mov, ot0("xyzw"), &[r(0).sw("zwxy")])];
    let got = ot0_of(&p, &[(0, [1.0, 2.0, 9.0, 9.0])]);
    assert_eq!(got.map(f32::to_bits), [0, 0, 1.0f32.to_bits(), 2.0f32.to_bits()]);
}
