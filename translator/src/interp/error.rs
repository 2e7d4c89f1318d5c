//! What can go wrong while executing ([`InterpError`]) and the limits that bound an execution.

use thiserror::Error;

use crate::bytecode::{Opcode, ShaderKind};

/// The most nested `call`s before [`InterpErrorKind::CallDepth`] (D3D9 allows 4).
pub const MAX_CALL_DEPTH: usize = 16;

/// The most nested `if`/`loop`/`rep` blocks before [`InterpErrorKind::NestingTooDeep`] (D3D9
/// allows 24).
pub const MAX_NESTING: usize = 32;

/// What went wrong while executing.
#[derive(Clone, PartialEq, Debug, Error)]
pub enum InterpErrorKind {
    /// The program ran more instructions than [`Options::step_limit`](super::Options::step_limit).
    #[error("step limit of {0} instruction executions reached")]
    StepLimit(u64),
    /// `run_vertex` was given a pixel shader or the reverse.
    #[error("a {found:?} shader cannot run as a {expected:?} shader")]
    WrongKind {
        /// What the entry point runs.
        expected: ShaderKind,
        /// What the program is.
        found: ShaderKind,
    },
    /// Flow-control instructions that do not nest (an `else` without `if`, a missing `endloop`…).
    #[error("unbalanced flow control: {0}")]
    Unbalanced(&'static str),
    /// Flow control nested deeper than [`MAX_NESTING`].
    #[error("flow control nested deeper than {MAX_NESTING}")]
    NestingTooDeep,
    /// `call` nested deeper than [`MAX_CALL_DEPTH`].
    #[error("calls nested deeper than {MAX_CALL_DEPTH}")]
    CallDepth,
    /// An operand the instruction needs is absent.
    #[error("missing operand")]
    MissingOperand,
    /// A register number beyond what the interpreter holds for its file.
    #[error("register {0} is out of range")]
    RegisterOutOfRange(String),
    /// A register that cannot be read as a value here.
    #[error("register {0} cannot be read")]
    NotReadable(String),
    /// A register that cannot be written here.
    #[error("register {0} cannot be written")]
    NotWritable(String),
    /// Control bits that name no comparison.
    #[error("invalid comparison code {0}")]
    BadComparison(u8),
    /// An opcode with no defined behaviour (the reserved `texm3x3diff`).
    #[error("opcode {0:?} has no defined behaviour")]
    Unsupported(Opcode),
}

/// An execution error, naming the instruction where it happened.
#[derive(Clone, PartialEq, Debug, Error)]
#[error("instruction {instruction} (token {offset}, byte 0x{:x}): {kind}", *offset as u64 * 4)]
pub struct InterpError {
    /// Index into [`Program::instructions`](crate::bytecode::Program::instructions) (0 when the error is not tied to one).
    pub instruction: usize,
    /// Token index of the instruction in the stream (0 for built programs).
    pub offset: u32,
    /// What went wrong.
    pub kind: InterpErrorKind,
}
