//! Expressions carry the token index of the instruction that made them, so that a naga
//! validation error names that instruction ([`crate::emit::EmitError::Validation`]).

use naga::{BinaryOperator, Expression};

use crate::analysis::analyse;
use crate::bytecode::{decode, encode};
use crate::emit::{validate, EmitError};
use crate::key::ShaderKey;

/// ps_2_0 tokens, counted by hand from the encoding (an instruction token, then one token per
/// parameter; `dcl` has its declaration token and the register):
/// 0 version; 1–3 `dcl t0`; 4–7 `add r0, t0, t0`; 8–10 `mov oC0, r0`; 11 end.
const PS: &str = "ps_2_0\ndcl t0\nadd r0, t0, t0\nmov oC0, r0\n";
const ADD_TOKEN: u32 = 4;

fn lowered() -> naga::Module {
    // Through the encoder and the decoder: decoded instructions carry their token offsets.
    let program = decode(&encode(&crate::asm::assemble(PS).unwrap())).unwrap();
    assert_eq!(program.instructions.iter().map(|i| i.offset).collect::<Vec<_>>()[..3], [1, 4, 8]);
    let sig = analyse(&program);
    super::super::lower(
        &program,
        &sig,
        &ShaderKey { float_rules: crate::key::FloatRules::Ieee, ..ShaderKey::default() },
    )
    .unwrap()
    .module
}

#[test]
fn expressions_carry_their_instructions_token() {
    let module = lowered();
    let f = &module.entry_points[0].function;
    let add = f
        .expressions
        .iter()
        .find(|(_, e)| matches!(e, Expression::Binary { op: BinaryOperator::Add, .. }))
        .map(|(h, _)| h)
        .expect("the add");
    assert_eq!(f.expressions.get_span(add).to_range(), Some(4..5));
    assert!(validate(&module).is_ok());
}

#[test]
fn a_validation_error_names_the_token_of_the_instruction_that_made_the_expression() {
    let mut module = lowered();
    let f = &mut module.entry_points[0].function;
    // Corrupt the add's expression: component 9 of a vec4 does not exist.
    let add = f
        .expressions
        .iter()
        .find(|(_, e)| matches!(e, Expression::Binary { op: BinaryOperator::Add, .. }))
        .map(|(h, _)| h)
        .expect("the add");
    let Expression::Binary { left, .. } = f.expressions[add] else { unreachable!() };
    *f.expressions.get_mut(add) = Expression::AccessIndex { base: left, index: 9 };
    match validate(&module) {
        Err(e @ EmitError::Validation { token, .. }) => {
            assert_eq!(token, Some(ADD_TOKEN), "{e}");
            assert!(e.to_string().starts_with("token 4: naga validation: "), "{e}");
        }
        other => panic!("expected a validation error, got {other:?}"),
    }
}
