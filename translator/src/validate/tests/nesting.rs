//! Every row of the D3D9 flow-control nesting tables (vs_2_0, vs_2_x, vs_2_sw, vs_3_0, vs_3_sw,
//! and the ps_2_x/ps_3_0 equivalents): one program exactly at each limit (valid) and one just
//! past it (refused, naming the limit), and what each instruction adds to each counter.
//!
//! The limits are the tables' numbers under the default caps of a typical SM3 GPU
//! (DynamicFlowControlDepth 24, StaticFlowControlDepth 4 for the 2_x models).

use super::builder::*;
use crate::bytecode::Opcode;
use crate::validate::{Caps, Rule, ValidationOptions};

fn program(v: &str, body: impl FnOnce(&mut B)) -> B {
    let mut b = B::new(v);
    b.start();
    body(&mut b);
    b.finish();
    b
}

/// `n` nested blocks opened by `open` and closed by `close`, with work in the middle.
fn nested(v: &str, n: usize, open: impl Fn(&mut B), close: Opcode) -> B {
    program(v, |b| {
        for _ in 0..n {
            open(b);
        }
        b.work();
        for _ in 0..n {
            b.bare(close);
        }
    })
}

/// A chain of calls `depth` deep: main calls l0, l0 calls l1, …
fn call_chain(v: &str, depth: u16, call: impl Fn(&mut B, u16)) -> B {
    let mut b = program(v, |b| call(b, 0));
    b.bare(Opcode::Ret);
    for l in 0..depth {
        b.label(l);
        if l + 1 < depth {
            call(&mut b, l + 1);
        }
        b.work();
        b.bare(Opcode::Ret);
    }
    b
}

const SM3_LIKE: [&str; 6] = ["vs_2_sw", "vs_3_0", "vs_3_sw", "ps_2_x", "ps_3_0", "ps_3_sw"];
const DYNAMIC_24: [&str; 6] = ["vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw", "ps_2_x", "ps_3_0"];
const CALLS_4: [&str; 6] = ["vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw", "ps_2_x", "ps_3_0"];

// ---- static nesting ------------------------------------------------------------------------

#[test]
fn static_nesting_24_in_sw_and_3_0_models() {
    for v in SM3_LIKE {
        assert_valid(&nested(v, 24, B::if_bool, Opcode::EndIf));
        assert_error(
            &nested(v, 25, B::if_bool, Opcode::EndIf),
            Rule::StaticNesting,
            "static flow control nesting 25 exceeds the limit 24",
        );
    }
}

#[test]
fn static_nesting_in_vs_2_0_and_vs_2_x_is_limited_only_by_the_static_count() {
    for v in ["vs_2_0", "vs_2_x"] {
        let at = nested(v, 16, B::if_bool, Opcode::EndIf);
        assert_valid(&at);
        let past = nested(v, 17, B::if_bool, Opcode::EndIf);
        assert_error(&past, Rule::StaticFlowCount, "static flow control count 17 exceeds the limit 16");
        assert!(!past.strict().has_error(Rule::StaticNesting), "{v}: no static nesting limit of its own");
    }
}

// ---- static flow count ---------------------------------------------------------------------

#[test]
fn static_count_16_in_vs_2_0_and_vs_2_x() {
    for v in ["vs_2_0", "vs_2_x"] {
        // if b / else / endif counts 2 (the else of a bool if counts), endif 0.
        let pairs = |n: usize, extra: bool| {
            program(v, |b| {
                for _ in 0..n {
                    b.if_bool();
                    b.work();
                    b.bare(Opcode::Else);
                    b.work();
                    b.bare(Opcode::EndIf);
                }
                if extra {
                    b.rep();
                    b.work();
                    b.bare(Opcode::EndRep);
                }
            })
        };
        assert_valid(&pairs(8, false));
        assert_error(&pairs(8, true), Rule::StaticFlowCount, "static flow control count 17 exceeds the limit 16");
    }
}

#[test]
fn rep_loop_call_and_callnz_bool_each_count_one() {
    // 15 reps + one call = 16 (valid); a callnz b0 more makes 17.
    let build = |extra: bool| {
        let mut b = program("vs_2_0", |b| {
            for _ in 0..15 {
                b.rep();
                b.work();
                b.bare(Opcode::EndRep);
            }
            b.call(0);
            if extra {
                b.callnz_bool(0);
            }
        });
        b.bare(Opcode::Ret);
        b.label(0);
        b.work();
        b.bare(Opcode::Ret);
        b
    };
    assert_valid(&build(false));
    assert_error(&build(true), Rule::StaticFlowCount, "count 17 exceeds the limit 16");
    // loop counts too.
    let loops = |n: usize| {
        program("vs_2_0", |b| {
            for _ in 0..n {
                b.loop_();
                b.work();
                b.bare(Opcode::EndLoop);
            }
        })
    };
    assert_valid(&loops(16));
    assert_error(&loops(17), Rule::StaticFlowCount, "count 17 exceeds the limit 16");
}

#[test]
fn dynamic_instructions_do_not_count_toward_the_static_count() {
    // vs_2_x: if_gt, if p0, callnz p0 add nothing to the static count.
    let mut b = program("vs_2_x", |b| {
        b.setp();
        for _ in 0..10 {
            b.if_gt();
            b.work();
            b.bare(Opcode::Else);
            b.bare(Opcode::EndIf);
            b.if_pred();
            b.work();
            b.bare(Opcode::EndIf);
            b.callnz_pred(0);
        }
    });
    b.bare(Opcode::Ret);
    b.label(0);
    b.work();
    b.bare(Opcode::Ret);
    assert_valid(&b);
}

#[test]
fn ps_2_x_static_nesting_needs_static_flow_control_caps() {
    let caps = Caps { ps_static_flow_control_depth: 0, ..Caps::default() };
    let options = ValidationOptions { caps, ..ValidationOptions::strict() };
    let r = nested("ps_2_x", 1, B::if_bool, Opcode::EndIf).check(&options);
    assert!(
        r.errors.iter().any(|e| e.rule == Rule::StaticNesting && e.message.contains("nesting 1 exceeds the limit 0")),
        "{r:#?}"
    );
}

#[test]
fn sw_and_3_0_models_have_no_static_count() {
    for v in SM3_LIKE {
        let b = program(v, |b| {
            for _ in 0..40 {
                b.if_bool();
                b.work();
                b.bare(Opcode::EndIf);
            }
        });
        assert_valid(&b);
    }
}

// ---- dynamic nesting -----------------------------------------------------------------------

#[test]
fn dynamic_nesting_24() {
    for v in DYNAMIC_24 {
        assert_valid(&nested(v, 24, B::if_gt, Opcode::EndIf));
        assert_error(
            &nested(v, 25, B::if_gt, Opcode::EndIf),
            Rule::DynamicNesting,
            "dynamic flow control nesting 25 exceeds the limit 24",
        );
        // if p0 counts the same way.
        let pred = |n| {
            let mut b = nested(v, n, B::if_pred, Opcode::EndIf);
            let setp = b.p.instructions.len();
            b.setp();
            let s = b.p.instructions.remove(setp);
            b.p.instructions.insert(1, s);
            b
        };
        assert_valid(&pred(24));
        assert_error(&pred(25), Rule::DynamicNesting, "nesting 25 exceeds the limit 24");
    }
}

#[test]
fn break_comp_adds_one_then_removes_it() {
    for v in DYNAMIC_24 {
        let build = |ifs: usize| {
            program(v, |b| {
                b.rep();
                for _ in 0..ifs {
                    b.if_gt();
                }
                b.break_gt();
                for _ in 0..ifs {
                    b.bare(Opcode::EndIf);
                }
                b.work();
                b.bare(Opcode::EndRep);
            })
        };
        assert_valid(&build(23));
        assert_error(&build(24), Rule::DynamicNesting, "dynamic flow control nesting 25 exceeds the limit 24");
    }
}

#[test]
fn callnz_pred_adds_one_until_ret() {
    for v in DYNAMIC_24 {
        // At depth d, callnz p0 enters the subroutine at d + 1; the subroutine opens one more.
        let build = |d: usize| {
            let mut b = program(v, |b| {
                b.setp();
                for _ in 0..d {
                    b.if_gt();
                }
                b.callnz_pred(0);
                for _ in 0..d {
                    b.bare(Opcode::EndIf);
                }
            });
            b.bare(Opcode::Ret);
            b.label(0);
            b.if_gt();
            b.work();
            b.bare(Opcode::EndIf);
            b.bare(Opcode::Ret);
            b
        };
        assert_valid(&build(22));
        assert_error(&build(23), Rule::DynamicNesting, "dynamic flow control nesting 25 exceeds the limit 24");
    }
}

#[test]
fn vs_2_0_has_no_dynamic_flow_control() {
    let b = nested("vs_2_0", 1, B::if_gt, Opcode::EndIf);
    assert_error(&b, Rule::Instruction, "if_gt does not exist in vs_2_0");
    let b = nested("vs_2_0", 1, B::if_pred, Opcode::EndIf);
    assert_error(&b, Rule::RegisterType, "tests a boolean constant");
}

#[test]
fn dynamic_flow_control_depth_0_caps_refuse_dynamic_flow() {
    let caps = Caps { vs_dynamic_flow_control_depth: 0, ..Caps::default() };
    let options = ValidationOptions { caps, ..ValidationOptions::strict() };
    let r = nested("vs_2_x", 1, B::if_gt, Opcode::EndIf).check(&options);
    assert!(
        r.errors.iter().any(|e| e.rule == Rule::DynamicNesting && e.message.contains("nesting 1 exceeds the limit 0")),
        "{r:#?}"
    );
}

// ---- loop/rep nesting ----------------------------------------------------------------------

#[test]
fn loop_nesting_1_in_vs_2_0() {
    assert_valid(&nested("vs_2_0", 1, B::rep, Opcode::EndRep));
    assert_error(
        &nested("vs_2_0", 2, B::rep, Opcode::EndRep),
        Rule::LoopNesting,
        "vs_2_0: loop nesting 2 exceeds the limit 1",
    );
    assert_valid(&nested("vs_2_0", 1, B::loop_, Opcode::EndLoop));
    assert_error(
        &nested("vs_2_0", 2, B::loop_, Opcode::EndLoop),
        Rule::LoopNesting,
        "loop nesting 2 exceeds the limit 1",
    );
}

#[test]
fn loop_nesting_4_elsewhere() {
    for v in CALLS_4 {
        assert_valid(&nested(v, 4, B::rep, Opcode::EndRep));
        assert_error(&nested(v, 5, B::rep, Opcode::EndRep), Rule::LoopNesting, "loop nesting 5 exceeds the limit 4");
        if v != "ps_2_x" {
            // loop exists in vs_2_0+ and ps_3_0.
            assert_valid(&nested(v, 4, B::loop_, Opcode::EndLoop));
            assert_error(
                &nested(v, 5, B::loop_, Opcode::EndLoop),
                Rule::LoopNesting,
                "loop nesting 5 exceeds the limit 4",
            );
        }
    }
}

#[test]
fn loop_nesting_in_2_x_follows_static_flow_control_depth_caps() {
    let caps = Caps { vs_static_flow_control_depth: 2, ..Caps::default() };
    let options = ValidationOptions { caps, ..ValidationOptions::strict() };
    assert!(nested("vs_2_x", 2, B::rep, Opcode::EndRep).check(&options).is_ok());
    let r = nested("vs_2_x", 3, B::rep, Opcode::EndRep).check(&options);
    assert!(r.errors.iter().any(|e| e.rule == Rule::LoopNesting && e.message.contains("3 exceeds the limit 2")));
}

// ---- call nesting --------------------------------------------------------------------------

#[test]
fn call_nesting_1_in_vs_2_0() {
    assert_valid(&call_chain("vs_2_0", 1, B::call));
    assert_error(&call_chain("vs_2_0", 2, B::call), Rule::CallNesting, "vs_2_0: call nesting 2 exceeds the limit 1");
    assert_valid(&call_chain("vs_2_0", 1, B::callnz_bool));
    assert_error(&call_chain("vs_2_0", 2, B::callnz_bool), Rule::CallNesting, "call nesting 2 exceeds the limit 1");
}

#[test]
fn call_nesting_4_elsewhere() {
    for v in CALLS_4 {
        assert_valid(&call_chain(v, 4, B::call));
        assert_error(&call_chain(v, 5, B::call), Rule::CallNesting, "call nesting 5 exceeds the limit 4");
    }
}

#[test]
fn loops_inside_called_subroutines_add_to_the_callers_nesting() {
    // vs_2_0: a rep in main around a call to a subroutine with a rep is loop nesting 2.
    let build = |outer: bool| {
        let mut b = program("vs_2_0", |b| {
            if outer {
                b.rep();
            }
            b.call(0);
            if outer {
                b.bare(Opcode::EndRep);
            }
        });
        b.bare(Opcode::Ret);
        b.label(0);
        b.rep();
        b.work();
        b.bare(Opcode::EndRep);
        b.bare(Opcode::Ret);
        b
    };
    assert_valid(&build(false));
    assert_error(&build(true), Rule::LoopNesting, "loop nesting 2 exceeds the limit 1");
}

#[test]
fn recursion_is_refused() {
    let mut b = program("vs_3_0", |b| b.call(0));
    b.bare(Opcode::Ret);
    b.label(0);
    b.call(0);
    b.bare(Opcode::Ret);
    assert_error(&b, Rule::CallNesting, "recursive call to l0");
}
