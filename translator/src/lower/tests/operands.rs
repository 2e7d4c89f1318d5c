//! The operand check at the lowering's entry: a program built in memory without an operand its
//! form has gets a typed error naming the token index, and no handler reads an operand its form
//! lacks (every opcode, in every version, lowered with exactly its form's operands: an error is
//! fine, a panic is not).

use super::*;
use crate::bytecode::{Control, VersionId};
use crate::lower::{lower, LowerError, OperandPosition};

/// `inst` with exactly the operands of its form in `version`: the destination `dst`, the
/// sources from `srcs`, and valid control bits.
fn with_form_operands(opcode: Opcode, version: Version, dst: DstParam, srcs: &[SrcParam; 4]) -> Instruction {
    let form = opcode.decoding_form(version);
    let mut inst = op(opcode, form.shape.dst.then_some(dst), &srcs[..usize::from(form.shape.srcs)]);
    inst.control = match form.control {
        Control::Comparison => 1,
        Control::None | Control::TexldVariant => 0,
    };
    inst.offset = 1;
    inst
}

#[test]
fn every_opcode_in_every_version_lowers_with_its_forms_operands_without_panicking() {
    let files = [R::Temp, R::Texture, R::Sampler, R::ConstInt, R::ConstBool, R::Predicate, R::Const, R::Input];
    let mut sources: Vec<[SrcParam; 4]> = files.iter().map(|&f| [src(f, 0); 4]).collect();
    // texld's coordinates and sampler, texldd's gradients.
    sources.push([src(R::Temp, 0), src(R::Sampler, 0), src(R::Temp, 1), src(R::Temp, 1)]);
    let destinations = [dst(R::Temp, 2, "xyzw"), dst(R::Texture, 2, "xyzw"), dst(R::Predicate, 0, "xyzw")];
    let mut lowered = 0;
    for id in VersionId::ALL {
        let version = id.version();
        for &opcode in Opcode::ALL {
            for d in destinations {
                for s in &sources {
                    let inst = with_form_operands(opcode, version, d, s);
                    let mut p = Program::new(version);
                    p.instructions = vec![inst];
                    let sig = analyse(&p);
                    // Ok or a typed error: either way no panic.
                    lowered += usize::from(lower(&p, &sig, &ShaderKey::default()).is_ok());
                }
            }
        }
    }
    assert!(lowered > 1000, "most single instructions lower: {lowered}");
}

#[test]
fn a_built_instruction_without_an_operand_of_its_form_is_a_typed_error_at_its_token() {
    let v = version(0xFFFF_0300);
    let mut add = op(Opcode::Add, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Temp, 1)]);
    add.offset = 7;
    let p = program(0xFFFF_0300, vec![add]);
    let e = lower(&p, &analyse(&p), &ShaderKey::default()).unwrap_err();
    assert_eq!(e, LowerError::MissingOperand { offset: 7, operand: OperandPosition::Source(1) });
    assert_eq!(e.to_string(), "token 7: missing source 1");

    let mut mov = op(Opcode::Mov, None, &[src(R::Temp, 1)]);
    mov.offset = 3;
    let p = program(0xFFFF_0300, vec![mov]);
    let e = lower(&p, &analyse(&p), &ShaderKey::default()).unwrap_err();
    assert_eq!(e, LowerError::MissingOperand { offset: 3, operand: OperandPosition::Destination });

    // setp's control bits hold the comparison (1–6); 0 is none.
    let mut setp = op(Opcode::Setp, Some(dst(R::Predicate, 0, "xyzw")), &[src(R::Temp, 1), src(R::Temp, 2)]);
    setp.offset = 5;
    assert_eq!(Opcode::Setp.decoding_form(v).control, Control::Comparison);
    let p = program(0xFFFF_0300, vec![setp]);
    let e = lower(&p, &analyse(&p), &ShaderKey::default()).unwrap_err();
    assert_eq!(e, LowerError::BadControl { offset: 5, control: 0 });
}
