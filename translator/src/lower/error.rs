//! Lowering errors: each names the token index of the instruction that caused it.

use thiserror::Error;

/// Why a program could not be lowered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LowerError {
    /// The program breaks a rule the lowering depends on (unbalanced blocks, a call to a missing
    /// label, recursion, a register file used where it cannot be).
    #[error("token {offset}: {what}")]
    Invalid {
        /// Token index of the instruction.
        offset: u32,
        /// What is wrong.
        what: String,
    },
    /// The instruction lacks an operand its form has (a program built in memory: the decoder
    /// reads every operand of the form).
    #[error("token {offset}: missing {operand}")]
    MissingOperand {
        /// Token index of the instruction.
        offset: u32,
        /// The first operand missing.
        operand: OperandPosition,
    },
    /// The control bits (16–23) do not hold what the form needs there: a comparison (1–6) or a
    /// texld variant (0–2).
    #[error("token {offset}: bad control bits {control}")]
    BadControl {
        /// Token index of the instruction.
        offset: u32,
        /// The control bits.
        control: u8,
    },
    /// Something the lowering does not handle yet.
    #[error("token {offset}: not supported: {what}")]
    Unsupported {
        /// Token index of the instruction.
        offset: u32,
        /// What is missing.
        what: String,
    },
}

impl LowerError {
    /// The token index of the offending instruction.
    pub fn offset(&self) -> u32 {
        match self {
            LowerError::Invalid { offset, .. }
            | LowerError::MissingOperand { offset, .. }
            | LowerError::BadControl { offset, .. }
            | LowerError::Unsupported { offset, .. } => *offset,
        }
    }
}

/// The position of an operand in an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandPosition {
    /// The destination parameter.
    Destination,
    /// Source parameter n (0 first).
    Source(u8),
}

impl std::fmt::Display for OperandPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperandPosition::Destination => write!(f, "destination"),
            OperandPosition::Source(n) => write!(f, "source {n}"),
        }
    }
}
