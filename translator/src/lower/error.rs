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
            LowerError::Invalid { offset, .. } | LowerError::Unsupported { offset, .. } => *offset,
        }
    }
}
