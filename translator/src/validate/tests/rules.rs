//! One test per rule family, each program built to break exactly the rule it names (and a
//! valid neighbour where the boundary matters).

use super::builder::*;
use crate::bytecode::{decode, encode, Opcode, RegisterType as T, ResultModifiers, SrcModifier, Swizzle, WriteMask};
use crate::validate::{validate, Api, Rule, ValidationOptions};

fn ps(v: &str) -> B {
    let mut b = B::new(v);
    b.start();
    b
}

// ---- colour outputs (the "output color register" page) ------------------------------------

#[test]
fn oc1_without_oc0() {
    let mut b = ps("ps_2_0");
    b.mov(dst(T::ColorOut, 1), src(T::Temp, 0));
    assert_error(&b, Rule::ColorOutput, "ps_2_0: oC1 written but oC0 never is");
    assert_error(&b, Rule::ColorOutput, "oC0 is never written");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    assert_valid(&b);
}

#[test]
fn oc2_needs_oc1() {
    let mut b = ps("ps_3_0");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    b.mov(dst(T::ColorOut, 2), src(T::Temp, 0));
    assert_error(&b, Rule::ColorOutput, "oC2 written but oC1 never is");
}

#[test]
fn oc_writes_before_3_0_are_plain_movs_once() {
    let mut b = ps("ps_2_0");
    b.op(Opcode::Add, Some(dst(T::ColorOut, 0)), &[src(T::Temp, 0), src(T::Temp, 0)]);
    assert_error(&b, Rule::ColorOutput, "oC0 is written only with mov before ps_3_0");

    let mut b = ps("ps_2_0");
    b.mov(dst(T::ColorOut, 0), scalar(T::Temp, 0, 0));
    assert_error(&b, Rule::ColorOutput, "no source swizzle or modifier");

    let mut b = ps("ps_2_0");
    let mut s = src(T::Temp, 0);
    s.modifier = SrcModifier::Neg;
    b.mov(dst(T::ColorOut, 0), s);
    assert_error(&b, Rule::ColorOutput, "no source swizzle or modifier");

    let mut b = ps("ps_2_0");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0)).dst.as_mut().unwrap().mask = WriteMask(0x7);
    assert_error(&b, Rule::ColorOutput, "no write mask or instruction modifier");

    let mut b = ps("ps_2_0");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0)).dst.as_mut().unwrap().modifiers =
        ResultModifiers(ResultModifiers::SATURATE);
    assert_error(&b, Rule::ColorOutput, "no write mask or instruction modifier");

    let mut b = ps("ps_2_0");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    assert_error(&b, Rule::ColorOutput, "oC0 written more than once");

    // ps_3_0 lifts all of these.
    let mut b = ps("ps_3_0");
    b.op(Opcode::Add, Some(dst(T::ColorOut, 0)), &[src(T::Temp, 0), src(T::Temp, 0)]).dst.as_mut().unwrap().mask =
        WriteMask(0x3);
    b.mov(dst(T::ColorOut, 0), scalar(T::Temp, 0, 1));
    assert_valid(&b);
}

#[test]
fn no_output_writes_in_dynamic_flow_or_under_predication() {
    let mut b = ps("ps_3_0");
    b.if_gt();
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    b.bare(Opcode::EndIf);
    assert_error(&b, Rule::ColorOutput, "oC0 written inside dynamic flow control");

    let mut b = ps("ps_2_x");
    b.setp();
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0)).predicate = Some(scalar(T::Predicate, 0, 0));
    assert_error(&b, Rule::ColorOutput, "oC0 written under predication");

    let mut b = ps("ps_3_0");
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    b.rep();
    b.break_gt();
    b.mov(dst(T::DepthOut, 0), scalar(T::Temp, 0, 0)).dst.as_mut().unwrap().mask = WriteMask(1);
    b.bare(Opcode::EndRep);
    assert_error(&b, Rule::ColorOutput, "oDepth written inside dynamic flow control");

    // Static flow control is fine.
    let mut b = ps("ps_3_0");
    b.if_bool();
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    b.bare(Opcode::EndIf);
    assert_valid(&b);
}

#[test]
fn gradients_inside_dynamic_flow_control() {
    let texld = |b: &mut B| {
        b.op(Opcode::Tex, Some(dst(T::Temp, 1)), &[src(T::Temp, 0), src(T::Sampler, 0)]);
    };
    let build = |dynamic: bool| {
        let mut b = B::new("ps_3_0");
        b.dcl(dst(T::Sampler, 0), 0, 0, 2);
        b.start();
        if dynamic {
            b.if_gt();
        } else {
            b.if_bool();
        }
        texld(&mut b);
        b.op(Opcode::Dsx, Some(dst(T::Temp, 2)), &[src(T::Temp, 0)]);
        b.bare(Opcode::EndIf);
        b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
        b
    };
    assert_valid(&build(false));
    let b = build(true);
    assert_error(&b, Rule::Gradient, "texld computes gradients inside dynamic flow control");
    assert_error(&b, Rule::Gradient, "dsx computes gradients");
    // Lenient mode lets drivers decide.
    assert!(b.check(&ValidationOptions::lenient()).is_ok());
}

// ---- code format ---------------------------------------------------------------------------

#[test]
fn subroutines_follow_ret_labels_once_calls_resolve() {
    let mut b = B::new("vs_2_0");
    b.start();
    b.label(0);
    b.bare(Opcode::Ret);
    assert_error(&b, Rule::CodeFormat, "label appears before the main program's ret");

    let mut b = B::new("vs_2_0");
    b.call(0);
    b.bare(Opcode::Ret);
    for _ in 0..2 {
        b.label(0);
        b.bare(Opcode::Ret);
    }
    assert_error(&b, Rule::CodeFormat, "label l0 is defined twice");

    let mut b = B::new("vs_2_0");
    b.call(3);
    b.bare(Opcode::Ret);
    assert_error(&b, Rule::CodeFormat, "call to label l3, which is not defined");

    let mut b = B::new("vs_2_0");
    b.bare(Opcode::Ret);
    b.start();
    assert_error(&b, Rule::CodeFormat, "after ret must belong to a subroutine");

    let mut b = B::new("vs_2_0");
    b.bare(Opcode::Ret);
    b.label(0);
    b.start();
    assert_error(&b, Rule::CodeFormat, "subroutine ends without ret");
}

#[test]
fn block_structure() {
    let mut b = B::new("vs_3_0");
    b.bare(Opcode::Else);
    assert_error(&b, Rule::FlowControl, "else without a matching if");
    let mut b = B::new("vs_3_0");
    b.bare(Opcode::EndIf);
    assert_error(&b, Rule::FlowControl, "endif without a matching if");
    let mut b = B::new("vs_3_0");
    b.rep();
    b.bare(Opcode::EndLoop);
    assert_error(&b, Rule::FlowControl, "endloop without a matching loop");
    let mut b = B::new("vs_3_0");
    b.loop_();
    assert_error(&b, Rule::FlowControl, "loop without endloop");
    let mut b = B::new("vs_3_0");
    b.bare(Opcode::Break);
    assert_error(&b, Rule::FlowControl, "break outside loop or rep");
    let mut b = B::new("vs_3_0");
    let mut s = src(T::Const, 0);
    s.relative =
        Some(crate::bytecode::RelAddr { reg: reg(T::Loop, 0), swizzle: Swizzle::replicate(0), implicit: false });
    b.mov(dst(T::Temp, 0), s);
    assert_error(&b, Rule::FlowControl, "aL is used outside loop/endloop");
    // Structural: lenient refuses broken blocks too.
    let mut b = B::new("vs_3_0");
    b.bare(Opcode::EndIf);
    assert!(!b.check(&ValidationOptions::lenient()).is_ok());
}

// ---- declarations --------------------------------------------------------------------------

#[test]
fn declarations() {
    // ps_2_0 reads t0 without dcl t0.
    let mut b = B::new("ps_2_0");
    b.mov(dst(T::Temp, 0), src(T::Texture, 0));
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    assert_error(&b, Rule::Undeclared, "t0 used without a dcl");

    // A sampler needs a texture type.
    let mut b = B::new("ps_2_0");
    b.dcl(dst(T::Sampler, 0), 0, 0, 0);
    b.start();
    b.finish();
    assert_error(&b, Rule::Declaration, "s0 needs a texture type");

    // ps_3_0 refuses position0 on an input, accepts position1.
    let mut b = B::new("ps_3_0");
    b.dcl(dst(T::Input, 0), 0, 0, 0);
    b.start();
    b.finish();
    assert_error(&b, Rule::Declaration, "cannot be position0");
    b.p.instructions[0].payload =
        crate::bytecode::Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 1, texture_type: 0 });
    assert_valid(&b);

    // The same output semantic twice.
    let mut b = B::new("vs_3_0");
    b.dcl(dst(T::Output, 1), 5, 0, 0);
    b.dcl(dst(T::Output, 2), 5, 0, 0);
    b.start();
    b.finish();
    assert_error(&b, Rule::Declaration, "texcoord0 is declared twice");

    // dcl after an instruction.
    let mut b = B::new("vs_2_0");
    b.start();
    b.dcl(dst(T::Input, 0), 0, 0, 0);
    assert_error(&b, Rule::Declaration, "dcl after the first instruction");

    // ps_1_x declares nothing.
    let mut b = B::new("ps_1_1");
    b.dcl(dst(T::Input, 0), 0, 0, 0);
    assert_error(&b, Rule::Declaration, "ps_1_x has no dcl");

    // vs_1_1 needs dcl under Direct3D 9, not under Direct3D 8.
    let mut b = B::new("vs_1_1");
    b.mov(dst(T::RastOut, 0), src(T::Input, 0));
    assert_error(&b, Rule::Undeclared, "v0 used without a dcl");
    assert!(b.check(&ValidationOptions::strict().with_api(Api::D3d8)).is_ok());

    // A constant defined twice.
    let mut b = B::new("vs_2_0");
    b.def(3);
    b.def(3);
    assert_error(&b, Rule::Definition, "c3 is defined twice");
}

// ---- registers -----------------------------------------------------------------------------

#[test]
fn register_counts() {
    let cases: &[(&str, T, u16, &str)] = &[
        (
            "vs_2_0",
            T::Const,
            256,
            "c256 is out of range: the float constants c# are numbered 0 to 255 (software vertex processing, \
             the `swvp` option, allows c0 to c8191)",
        ),
        ("ps_1_1", T::Const, 8, "c8 is out of range"),
        ("ps_2_0", T::Const, 32, "c32 is out of range"),
        ("ps_3_0", T::Const, 224, "c224 is out of range"),
        ("ps_2_0", T::Temp, 12, "r12 is out of range"),
        ("ps_1_4", T::Temp, 6, "r6 is out of range"),
        ("vs_3_0", T::ConstBool, 16, "b16 is out of range"),
        ("ps_2_x", T::ConstInt, 16, "i16 is out of range"),
    ];
    for &(v, ty, n, text) in cases {
        let mut b = B::new(v);
        match ty {
            T::Temp => b.mov(dst(T::Temp, n), src(T::Const, 0)),
            T::ConstBool => b.op(Opcode::If, None, &[src(ty, n)]),
            T::ConstInt => b.op(Opcode::Rep, None, &[src(ty, n)]),
            _ => b.mov(dst(T::Temp, 0), src(ty, n)),
        };
        assert_error(&b, Rule::RegisterIndex, text);
        // Constant counts hold in lenient mode too.
        if ty != T::Temp {
            assert!(b.check(&ValidationOptions::lenient()).has_error(Rule::RegisterIndex), "{v} {text}");
        }
    }
    // Software vertex processing: 8192 float constants.
    let mut b = B::new("vs_2_0");
    b.mov(dst(T::Temp, 0), src(T::Const, 8191));
    assert!(b.check(&ValidationOptions { swvp: true, ..ValidationOptions::strict() }).is_ok());
    // Only a vertex shader's float constants below c8192 point at it.
    let mut b = B::new("ps_2_0");
    b.mov(dst(T::Temp, 0), src(T::Const, 40));
    let r = b.check(&ValidationOptions::strict());
    assert!(r.errors.iter().all(|e| !e.message.contains("swvp")), "{r:#?}");
    // Lenient with a relaxed constant limit: a warning.
    let mut b = B::new("ps_2_0");
    b.mov(dst(T::Temp, 0), src(T::Const, 40));
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    let r = b.check(&ValidationOptions { relaxed_constant_limit: true, ..ValidationOptions::lenient() });
    assert!(r.is_ok() && r.warnings.iter().any(|w| w.rule == Rule::RegisterIndex), "{r:#?}");
}

// ---- instructions, token bits, modifiers, swizzles, masks ----------------------------------

#[test]
fn instructions_and_modifiers() {
    let mut b = ps("ps_1_1");
    b.op(Opcode::Rcp, Some(dst(T::Temp, 0)), &[src(T::Temp, 0)]);
    assert_error(&b, Rule::Instruction, "rcp does not exist in ps_1_1");

    let mut b = B::new("vs_1_1");
    b.mov(dst(T::Temp, 0), src(T::Const, 0));
    b.mov(dst(T::Temp, 1), src(T::Const, 0)).coissue = true;
    assert_error(&b, Rule::InstructionToken, "co-issue (+) exists only in ps_1_x");

    let mut b = ps("ps_2_0");
    b.mov(dst(T::Temp, 1), src(T::Temp, 0)).predicate = Some(scalar(T::Predicate, 0, 0));
    assert_error(&b, Rule::InstructionToken, "predicated instructions need vs_2_x/ps_2_x or later");

    let mut b = ps("ps_1_3");
    b.mov(dst(T::Temp, 0), src(T::Temp, 0)).dst.as_mut().unwrap().shift = 3;
    assert_error(&b, Rule::ResultModifier, "_x8, _d4 and _d8 exist only in ps_1_4");

    let mut b = B::new("vs_2_0");
    b.mov(dst(T::Temp, 0), src(T::Const, 0)).dst.as_mut().unwrap().modifiers =
        ResultModifiers(ResultModifiers::PARTIAL_PRECISION);
    assert_error(&b, Rule::ResultModifier, "_pp exists only in ps_2_0 and later");

    let mut b = ps("ps_2_0");
    let mut s = src(T::Temp, 0);
    s.modifier = SrcModifier::Abs;
    b.mov(dst(T::Temp, 1), s);
    assert_error(
        &b,
        Rule::SourceModifier,
        "mov source 1 (r0_abs): the absolute value (_abs) modifier is not allowed here in ps_2_0",
    );

    let mut b = ps("ps_2_0");
    b.mov(dst(T::Temp, 1), SrcParam { swizzle: Swizzle::new(1, 0, 2, 3), ..src(T::Temp, 0) });
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 1));
    assert_error(&b, Rule::Swizzle, "arbitrary swizzles need ps_2_x");
    b.p.version = version("ps_2_x");
    assert_valid(&b);

    let mut b = ps("ps_1_1");
    b.mov(dst(T::Temp, 0), src(T::Temp, 0)).dst.as_mut().unwrap().mask = WriteMask(0x3);
    assert_error(&b, Rule::WriteMask, "may write only .rgba, .rgb or .a in ps_1_1");

    let mut b = B::new("vs_3_0");
    b.op(Opcode::SinCos, Some(dst(T::Temp, 0)), &[scalar(T::Const, 0, 0)]).dst.as_mut().unwrap().mask = WriteMask(0x7);
    assert_error(&b, Rule::WriteMask, "sincos writes only .x, .y or .xy");
}

use crate::bytecode::SrcParam;

#[test]
fn relaxed_in_lenient_mode() {
    // A swizzled texld coordinate in ps_2_x, a partial texkill mask, a ps_2_b version token.
    let mut b = B::new("ps_2_x");
    b.dcl(dst(T::Texture, 0), 0, 0, 0);
    b.dcl(dst(T::Sampler, 0), 0, 0, 2);
    b.op(Opcode::Tex, Some(dst(T::Temp, 0)), &[scalar(T::Texture, 0, 0), src(T::Sampler, 0)]);
    b.op(Opcode::TexKill, Some(dst(T::Temp, 0)), &[]).dst.as_mut().unwrap().mask = WriteMask(0x1);
    b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
    assert_error(&b, Rule::Swizzle, "texld source 1 (t0) takes no swizzle before ps_3_0");
    assert_error(&b, Rule::WriteMask, "texkill takes the whole register");
    b.p.version.minor = 2;
    assert_error(&b, Rule::Version, "version 2.2 is not a documented model");
    let r = b.check(&ValidationOptions::lenient());
    assert!(r.is_ok(), "{:#?}", r.errors);
    assert_eq!(r.warnings.len(), 3, "{:#?}", r.warnings);
}

#[test]
fn api_d3d8() {
    let mut b = ps("ps_2_0");
    b.finish();
    let r = b.check(&ValidationOptions::strict().with_api(Api::D3d8));
    assert!(r
        .errors
        .iter()
        .any(|e| e.rule == Rule::Api && e.message == "ps_2_0: Direct3D 8 accepts shaders up to ps_1_4"));
    assert!(b.check(&ValidationOptions::lenient().with_api(Api::D3d8)).has_error(Rule::Api));
    let mut b = B::new("vs_2_0");
    b.start();
    assert!(b.check(&ValidationOptions::strict().with_api(Api::D3d8)).has_error(Rule::Api));
}

// ---- ps_1_x texture instructions -----------------------------------------------------------

#[test]
fn ps_1_x_texture_order_and_pairs() {
    let tex = |b: &mut B, op: Opcode, m: u16, n: Option<u16>| {
        let srcs: Vec<_> = n.map(|n| src(T::Texture, n)).into_iter().collect();
        b.op(op, Some(dst(T::Texture, m)), &srcs);
    };
    let mut b = B::new("ps_1_1");
    b.mov(dst(T::Temp, 0), src(T::Const, 0));
    tex(&mut b, Opcode::Tex, 0, None);
    assert_error(&b, Rule::TextureOps, "tex after an arithmetic instruction");

    let mut b = B::new("ps_1_1");
    tex(&mut b, Opcode::Tex, 0, None);
    tex(&mut b, Opcode::TexM3x2Pad, 1, Some(0));
    b.mov(dst(T::Temp, 0), src(T::Texture, 0));
    assert_error(&b, Rule::TextureOps, "texm3x2pad is not followed by the instruction that completes it");

    let mut b = B::new("ps_1_1");
    tex(&mut b, Opcode::Tex, 0, None);
    tex(&mut b, Opcode::TexM3x2Pad, 1, Some(0));
    tex(&mut b, Opcode::TexM3x2Tex, 2, Some(0));
    b.mov(dst(T::Temp, 0), src(T::Texture, 2));
    assert_valid(&b);
    b.p.instructions.remove(1);
    assert_error(&b, Rule::TextureOps, "texm3x2tex t2 must follow texm3x2pad");

    let mut b = B::new("ps_1_1");
    tex(&mut b, Opcode::Tex, 1, None);
    tex(&mut b, Opcode::TexBem, 0, Some(1));
    assert_error(&b, Rule::TextureOps, "texbem t0 reads t1: the source must be a lower texture register");

    let mut b = B::new("ps_1_1");
    b.mov(dst(T::Temp, 0), src(T::Texture, 3));
    assert_error(&b, Rule::UninitializedRead, "t3 is read before it is written");
}

#[test]
fn ps_1_4_phases() {
    let mut b = B::new("ps_1_4");
    b.op(Opcode::Tex, Some(dst(T::Temp, 0)), &[src(T::Texture, 0)]);
    b.mov(dst(T::Temp, 1), src(T::Input, 0));
    b.bare(Opcode::Phase);
    b.op(Opcode::Tex, Some(dst(T::Temp, 2)), &[src(T::Temp, 0)]);
    b.op(Opcode::Bem, Some(dst(T::Temp, 3)), &[src(T::Temp, 0), src(T::Temp, 2)]);
    b.bare(Opcode::Phase);
    assert_error(&b, Rule::Phase, "v0 is read in the first phase");
    assert_error(&b, Rule::Phase, "bem exists only in the first phase");
    assert_error(&b, Rule::Phase, "at most one phase instruction");
    // texld in phase 2 reads an r# that phase 1 wrote: fine.
    let mut b = B::new("ps_1_4");
    b.op(Opcode::Tex, Some(dst(T::Temp, 0)), &[src(T::Texture, 0)]);
    b.bare(Opcode::Phase);
    b.op(Opcode::Tex, Some(dst(T::Temp, 1)), &[src(T::Temp, 0)]);
    b.mov(dst(T::Temp, 0), src(T::Temp, 1));
    assert_valid(&b);
}

// ---- instruction slots ---------------------------------------------------------------------

#[test]
fn slot_limits() {
    let arith = |v: &str, n: usize| {
        let mut b = B::new(v);
        for _ in 0..n {
            b.mov(dst(T::Temp, 0), src(T::Const, 0));
        }
        if v.starts_with("ps_2") {
            b.p.instructions.pop();
            b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
        }
        b
    };
    assert_valid(&arith("ps_2_0", 64));
    assert_error(&arith("ps_2_0", 65), Rule::InstructionSlots, "65 arithmetic instruction slots exceed the limit 64");
    assert_valid(&arith("ps_1_1", 8));
    assert_error(&arith("ps_1_1", 9), Rule::InstructionSlots, "9 arithmetic instruction slots exceed the limit 8");
    assert_valid(&arith("vs_1_1", 128));
    assert_error(&arith("vs_1_1", 129), Rule::InstructionSlots, "129 instruction slots exceed the limit 128");
    assert_valid(&arith("vs_2_0", 256));
    assert_error(&arith("vs_2_0", 257), Rule::InstructionSlots, "257 instruction slots exceed the limit 256");
}

// ---- diagnostics ---------------------------------------------------------------------------

#[test]
fn every_error_is_collected_with_instruction_and_token() {
    let mut b = B::new("vs_2_0");
    b.dcl(dst(T::Input, 0), 0, 0, 0); // tokens 1-3
    b.mov(dst(T::Temp, 0), src(T::Const, 300)); // token 4
    b.mov(dst(T::Temp, 40), src(T::Input, 0)); // token 7
    b.bare(Opcode::EndIf); // token 10
    let program = decode(&encode(&b.p)).unwrap();
    let r = validate(&program, &ValidationOptions::strict());
    let at = |rule: Rule| r.errors.iter().find(|e| e.rule == rule).map(|e| (e.instruction, e.token));
    assert_eq!(at(Rule::RegisterIndex), Some((Some(1), Some(4))));
    assert_eq!(r.errors.iter().filter(|e| e.rule == Rule::RegisterIndex).count(), 2);
    assert_eq!(at(Rule::FlowControl), Some((Some(3), Some(10))));
    let shown = r.errors[0].to_string();
    assert!(shown.starts_with('[') && shown.contains("(token"), "{shown}");
}

#[test]
fn temporaries_are_written_before_they_are_read() {
    let mut b = B::new("vs_2_0");
    b.mov(dst(T::Temp, 0), src(T::Temp, 3));
    assert_error(&b, Rule::UninitializedRead, "r3 is read before anything writes it");
    // vs_2_0 sgn's two scratch registers are not reads.
    let mut b = B::new("vs_2_0");
    b.start();
    b.op(Opcode::Sgn, Some(dst(T::Temp, 1)), &[src(T::Temp, 0), src(T::Temp, 4), src(T::Temp, 5)]);
    assert_valid(&b);
}

#[test]
fn scalar_and_predicate_operands_take_one_component() {
    let mut b = B::new("vs_2_0");
    b.op(Opcode::Rcp, Some(dst(T::Temp, 0)), &[src(T::Const, 0)]);
    assert_error(&b, Rule::Swizzle, "rcp source 1 (c0): a scalar operand takes one component");
    b.p.instructions[0].src[0].swizzle = Swizzle::replicate(3);
    assert_valid(&b);
    // vs_1_1 reads .w of a plain source.
    let mut b = B::new("vs_1_1");
    b.op(Opcode::Rcp, Some(dst(T::Temp, 0)), &[src(T::Const, 0)]);
    assert_valid(&b);

    let mut b = B::new("vs_2_x");
    b.setp();
    b.op(Opcode::If, None, &[src(T::Predicate, 0)]);
    b.bare(Opcode::EndIf);
    assert_error(&b, Rule::Swizzle, "if source 1 (p0): a predicate source takes one component");
}

#[test]
fn definitions_come_before_instructions() {
    let mut b = B::new("ps_2_0");
    b.def(0);
    b.start();
    b.finish();
    assert_valid(&b);
    b.def(1);
    assert_error(&b, Rule::Definition, "definition after the first instruction (instruction 1)");
}

#[test]
fn integer_and_boolean_constants() {
    // vs_2_0 defines and tests them; `!b0` negates a boolean.
    let mut b = B::new("vs_2_0");
    b.defb(0);
    b.defi(0);
    b.start();
    b.rep();
    b.work();
    b.bare(Opcode::EndRep);
    b.op(Opcode::If, None, &[not(src(T::ConstBool, 0))]);
    b.work();
    b.bare(Opcode::EndIf);
    assert_valid(&b);
    // `!` on anything but a boolean or predicate is no modifier at all.
    b.p.instructions[4].src[1].modifier = SrcModifier::Not;
    assert_error(&b, Rule::SourceModifier, "(!c0): the not (!) modifier is not allowed");
    // ps_2_0 has neither.
    let mut b = B::new("ps_2_0");
    b.defb(0);
    b.defi(0);
    assert_error(&b, Rule::Instruction, "defb does not exist in ps_2_0");
    assert_error(&b, Rule::Instruction, "defi does not exist in ps_2_0");
}

#[test]
fn ps_2_0_dependent_read_limit() {
    let chain = |reads: usize| {
        let mut b = B::new("ps_2_0");
        b.dcl(dst(T::Texture, 0), 0, 0, 0);
        b.dcl(dst(T::Sampler, 0), 0, 0, 2);
        b.op(Opcode::Tex, Some(dst(T::Temp, 0)), &[src(T::Texture, 0), src(T::Sampler, 0)]);
        for _ in 1..reads {
            b.op(Opcode::Tex, Some(dst(T::Temp, 0)), &[src(T::Temp, 0), src(T::Sampler, 0)]);
        }
        b.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
        b
    };
    assert_valid(&chain(4));
    assert_error(&chain(5), Rule::TextureOps, "dependent read level 5 exceeds the limit 4");
    // ps_2_x with the default caps (D3DPS20CAPS_NODEPENDENTREADLIMIT) has no limit.
    let mut b = chain(6);
    b.p.version = version("ps_2_x");
    assert_valid(&b);
}

#[test]
fn public_register_limits() {
    use crate::bytecode::VersionId;
    use crate::validate::version_rules::registers::limits;
    let strict = ValidationOptions::strict();
    // The register tables: ps_2_0 c0–c31 and r0–r11, ps_3_0 c0–c223 and v0–v9, vs_3_0 s0–s3.
    assert_eq!(limits(VersionId::Ps20, &strict).consts, 32);
    assert_eq!(limits(VersionId::Ps20, &strict).temps, 12);
    assert_eq!(limits(VersionId::Ps30, &strict).consts, 224);
    assert_eq!(limits(VersionId::Ps30, &strict).inputs, 10);
    assert_eq!(limits(VersionId::Vs30, &strict).samplers, 4);
    assert_eq!(limits(VersionId::Vs20, &ValidationOptions { swvp: true, ..strict }).consts, 8192);
    assert_eq!(limits(VersionId::Vs3sw, &strict).bools, 2048);
}
