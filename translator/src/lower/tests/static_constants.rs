//! Static flow control on `b#` and `i#` under the three deliveries of the constants
//! ([`crate::key::delivery`]): baked from the key, naga overrides, and the buffers. Each gives
//! the result D3D9's rules give for the constants' values (derived by hand in each case).

use naga::{Expression, Literal, Statement};

use super::rules::{al, c, r, rd, VS2X};
use super::*;
use crate::bytecode::{Opcode as O, SrcModifier as Mod};
use crate::key::delivery::{Deliveries, Delivery};
use crate::key::state_block::constant_overrides;

/// `loop aL, i0` adds c[aL] (c2 = 100, c3 = 20, c4 = 3); `rep i1` adds 1000; `if b0` negates;
/// `callnz l1, b1` adds 0.5; oT0 = the result.
fn flow() -> Program {
    let insts = vec![
        def(2, [100.0; 4]),
        def(3, [20.0; 4]),
        def(4, [3.0; 4]),
        def(5, [0.0; 4]),
        def(6, [1000.0; 4]),
        def(8, [0.5; 4]),
        op(O::Mov, rd(0, "xyzw"), &[c(5)]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
        op(O::Rep, None, &[src(R::ConstInt, 1)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(6)]),
        op(O::EndRep, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 0)]),
        op(O::Mov, rd(0, "xyzw"), &[r(0).md(Mod::Neg)]),
        op(O::EndIf, None, &[]),
        op(O::CallNz, None, &[src(R::Label, 1), src(R::ConstBool, 1)]),
        op(O::Mov, Some(dst(R::TexCrdOut, 0, "xyzw")), &[r(0)]),
        op(O::Ret, None, &[]),
        op(O::Label, None, &[src(R::Label, 1)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(8)]),
        op(O::Ret, None, &[]),
    ];
    program(VS2X, insts)
}

/// The constants of one case: b0, b1, i0, i1, and oT0 by D3D9's rules.
struct Case {
    bools: [bool; 2],
    ints: [[i32; 4]; 2],
    expected: f32,
}

const CASES: [Case; 3] = [
    // aL = 2, 3, 4: 100 + 20 + 3; twice 1000: 2123; negated: −2123.
    Case { bools: [true, false], ints: [[3, 2, 1, 0], [2, 0, 0, 0]], expected: -2123.0 },
    // 2123, then l1 adds 0.5.
    Case { bools: [false, true], ints: [[3, 2, 1, 0], [2, 0, 0, 0]], expected: 2123.5 },
    // aL = 4, 2 (step −2): 3 + 100; rep 0 times.
    Case { bools: [false, false], ints: [[2, 4, -2, 0], [0, 0, 0, 0]], expected: 103.0 },
];

fn ot0_of(outcome: Outcome) -> [f32; 4] {
    match outcome {
        Outcome::Output(m) => m["oT0"].vec4(),
        Outcome::Killed => panic!("a vertex shader is never killed"),
    }
}

fn key(d: Delivery, case: &Case) -> ShaderKey {
    let mut k = ShaderKey {
        delivery: Deliveries { bool_constants: d, int_constants: d, ..Deliveries::default() },
        ..ShaderKey::default()
    };
    if d == Delivery::Baked {
        k.set_constants(&case.bools, &case.ints);
    }
    k
}

#[test]
fn every_delivery_of_the_constants_gives_d3d9s_result() {
    let p = flow();
    let sig = analyse(&p);
    for case in &CASES {
        // Uniform: the buffers hold the values.
        let uniform = Run {
            bools: case.bools.iter().copied().enumerate().collect(),
            ints: case.ints.iter().copied().enumerate().collect(),
            ..Run::default()
        };
        assert_eq!(output(&p, &uniform, "oT0"), [case.expected; 4], "uniform");
        // Baked: the key holds them; no buffer is declared.
        let baked = Run { key: key(Delivery::Baked, case), ..Run::default() };
        assert_eq!(output(&p, &baked, "oT0"), [case.expected; 4], "baked");
        // Override: naga's pipeline-constant pass gives them, as wgpu does.
        let lowered = crate::lower::lower(&p, &sig, &key(Delivery::Override, case)).unwrap();
        assert_eq!((lowered.layout.int_constants, lowered.layout.bool_constants), (None, None));
        let info = crate::emit::validate_fully(&lowered.module).unwrap();
        let bools = u16::from(case.bools[0]) | u16::from(case.bools[1]) << 1;
        let mut ints = [[0; 4]; 16];
        ints[..2].copy_from_slice(&case.ints);
        let mut values = naga::back::PipelineConstants::default();
        values.extend(constant_overrides(&lowered.module, bools, &ints));
        let (module, _) =
            naga::back::pipeline_constants::process_overrides(&lowered.module, &info, None, &values).unwrap();
        let specialised = crate::lower::Lowered { module: module.into_owned(), ..lowered };
        assert_eq!(ot0_of(evaluate(&specialised, &Run::default())), [case.expected; 4], "override");
    }
}

#[test]
fn a_baked_if_has_a_literal_condition_and_no_buffer() {
    let p = flow();
    let lowered = crate::lower::lower(&p, &analyse(&p), &key(Delivery::Baked, &CASES[0])).unwrap();
    assert_eq!((lowered.layout.int_constants, lowered.layout.bool_constants), (None, None));
    let m = &lowered.module;
    let functions: Vec<&naga::Function> =
        m.functions.iter().map(|(_, f)| f).chain(m.entry_points.iter().map(|e| &e.function)).collect();
    // `if b0` with b0 true: `if true`; `callnz l1, b1` with b1 false: `if false` (the
    // statements at the top of whichever function holds the program's main).
    let conditions: Vec<Option<bool>> = functions
        .iter()
        .flat_map(|f| {
            f.body.iter().filter_map(|s| match s {
                Statement::If { condition, .. } => Some(match f.expressions[*condition] {
                    Expression::Literal(Literal::Bool(b)) => Some(b),
                    _ => None,
                }),
                _ => None,
            })
        })
        .collect();
    assert_eq!(conditions, [Some(true), Some(false)]);
    // The loop counts are literals: min(3, 255) and min(2, 255).
    let literal_min = |f: &naga::Function, e: &Expression| match e {
        Expression::Math { fun: naga::MathFunction::Min, arg, arg1: Some(b), .. } => {
            matches!(f.expressions[*arg], Expression::Literal(Literal::I32(_)))
                && matches!(f.expressions[*b], Expression::Literal(Literal::I32(255)))
        }
        _ => false,
    };
    let mins: usize = functions.iter().map(|f| f.expressions.iter().filter(|(_, e)| literal_min(f, e)).count()).sum();
    assert_eq!(mins, 2);
}
