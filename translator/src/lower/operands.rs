//! The operands of an instruction, checked once at the lowering's entry against the opcode
//! table's form for the program's version (its shape: a destination or not, how many sources;
//! and what its control bits mean).
//!
//! The decoder reads exactly the form's operands and rejects bad control bits, so a decoded
//! program always passes; a program built in memory ([`crate::translate()`] takes any
//! [`Program`](crate::bytecode::Program)) may not, and gets [`LowerError::MissingOperand`] or
//! [`LowerError::BadControl`] naming the instruction's token index. Past the check, handlers
//! read the operands of their form without further checks: [`Op::dst`], [`Op::src`],
//! [`Op::comparison`] and [`Op::texld_variant`] cannot fail for an operand the form has (a unit
//! test lowers every opcode in every version with exactly its form's operands).

use super::error::OperandPosition;
use super::LowerError;
use crate::bytecode::{
    Comparison, Control, DstParam, Instruction, Opcode, OpcodeInfo, SrcParam, TexldVariant, Version, VersionId,
};

/// An instruction whose operands match its form.
#[derive(Clone, Copy)]
pub(crate) struct Op<'i> {
    inst: &'i Instruction,
}

impl<'i> Op<'i> {
    /// Checks `inst` against its opcode's form in `version` (the form the decoder reads).
    /// `id` is `version`'s id, found once per lowering.
    pub fn check(inst: &'i Instruction, id: Option<VersionId>, version: Version) -> Result<Op<'i>, LowerError> {
        let form = inst.opcode.decoding_form_in(id, version);
        let missing = |operand| LowerError::MissingOperand { offset: inst.offset, operand };
        if form.shape.dst && inst.dst.is_none() {
            return Err(missing(OperandPosition::Destination));
        }
        if inst.src.len() < usize::from(form.shape.srcs) {
            return Err(missing(OperandPosition::Source(inst.src.len() as u8)));
        }
        let control_ok = match form.control {
            Control::None => true,
            Control::Comparison => inst.comparison().is_some(),
            Control::TexldVariant => inst.texld_variant().is_some(),
        };
        if !control_ok {
            return Err(LowerError::BadControl { offset: inst.offset, control: inst.control });
        }
        Ok(Op { inst })
    }

    /// The opcode.
    pub fn opcode(&self) -> Opcode {
        self.inst.opcode
    }

    /// The opcode's row of the opcode table.
    pub fn info(&self) -> &'static OpcodeInfo {
        self.inst.opcode.info()
    }

    /// The destination, for a form that has one.
    pub fn dst(&self) -> DstParam {
        self.inst.dst.expect("checked at entry: the form has a destination")
    }

    /// Source `i`, for `i` below the form's source count.
    pub fn src(&self, i: usize) -> SrcParam {
        *self.inst.src.get(i).expect("checked at entry: the form has this source")
    }

    /// The predicate of a predicated instruction.
    pub fn predicate(&self) -> Option<SrcParam> {
        self.inst.predicate
    }

    /// The comparison, for a form whose control bits hold one (`ifc`, `breakc`, `setp`).
    pub fn comparison(&self) -> Comparison {
        self.inst.comparison().expect("checked at entry: the form has a comparison")
    }

    /// The texld variant, for the ps_2_0+ form of `texld`.
    pub fn texld_variant(&self) -> TexldVariant {
        self.inst.texld_variant().expect("checked at entry: the form has a texld variant")
    }
}
