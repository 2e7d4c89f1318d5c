//! Assembly errors: each names the line and column where the text went wrong, in the words of
//! someone writing the shader.

use thiserror::Error;

use crate::bytecode::DecodeError;

/// What is wrong with an assembly text.
#[derive(Clone, PartialEq, Debug, Error)]
pub enum AsmErrorKind {
    /// The text is larger than the assembler reads.
    #[error("the text is {size} bytes; the assembler reads at most {max}")]
    TooLarge {
        /// Size of the text.
        size: usize,
        /// The limit.
        max: usize,
    },
    /// A line is longer than any shader line needs to be.
    #[error("the line is {length} bytes long; lines may have at most {max}")]
    LineTooLong {
        /// Length of the line.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// The text has no version line.
    #[error("no version line (such as `vs_2_0` or `ps.1.4`) before the first instruction")]
    MissingVersion,
    /// The first line does not name a shader model.
    #[error("`{0}` is not a shader version (expected e.g. `vs_1_1`, `ps_2_x`, `vs.3.0`, `ps_3_sw`)")]
    BadVersion(String),
    /// A character that starts no token.
    #[error("unexpected character `{0}`")]
    UnexpectedChar(char),
    /// Something else than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would have been right.
        expected: &'static str,
        /// What the text has (quoted token or "end of line").
        found: String,
    },
    /// An instruction name that no opcode has in this version.
    #[error("unknown instruction `{0}`")]
    UnknownInstruction(String),
    /// An `_xxx` suffix that the instruction cannot take.
    #[error("`{instruction}` cannot take the modifier `_{modifier}`")]
    BadInstructionModifier {
        /// The instruction.
        instruction: &'static str,
        /// The suffix, without underscore.
        modifier: String,
    },
    /// `if`, `break` with two operands, or `setp` without `_gt`/`_eq`/….
    #[error("`{0}` needs a comparison suffix: _gt, _eq, _ge, _lt, _ne or _le")]
    MissingComparison(&'static str),
    /// Too few or too many operands.
    #[error("`{instruction}` takes {expected} operand(s), found {found}")]
    OperandCount {
        /// The instruction.
        instruction: &'static str,
        /// How many its form carries in this version.
        expected: usize,
        /// How many the line has.
        found: usize,
    },
    /// A name that is no register.
    #[error("`{0}` is not a register")]
    UnknownRegister(String),
    /// A register number beyond the 11-bit field (or c8191).
    #[error("register number {number} of `{name}` is out of range (at most {max})")]
    RegisterOutOfRange {
        /// The register file's prefix.
        name: String,
        /// The number written (after relative offsets are added).
        number: i64,
        /// The largest number the token can hold.
        max: u32,
    },
    /// A write mask that is not `xyzw`/`rgba` letters in order.
    #[error("`{0}` is not a write mask (components of xyzw or rgba, in that order)")]
    BadMask(String),
    /// A swizzle that is not one to four `xyzw`/`rgba` letters.
    #[error("`{0}` is not a swizzle (one to four of x, y, z, w or r, g, b, a)")]
    BadSwizzle(String),
    /// A source modifier the syntax does not know or cannot combine.
    #[error("`{0}` is not a source modifier (_bias, _bx2, _x2, _dz, _dw, _abs, with - or 1- or ! before)")]
    BadSourceModifier(String),
    /// A malformed relative address.
    #[error("relative addressing: {0}")]
    BadRelative(&'static str),
    /// A number that does not fit where it is written.
    #[error("`{text}` is not {what}")]
    BadNumber {
        /// The text.
        text: String,
        /// What was expected (e.g. "a 32-bit float").
        what: &'static str,
    },
    /// The instruction uses something its shader model cannot encode.
    #[error("{0}")]
    NotEncodable(&'static str),
    /// A malformed `.comment`/`.dw` block.
    #[error("comment block: {0}")]
    CommentBlock(String),
    /// A C preprocessor directive (the assembler has no preprocessor).
    #[error("preprocessor directive `#{0}` is not supported (only `#line` is skipped)")]
    Preprocessor(String),
    /// The assembled tokens did not decode: a defect of the assembler, reported rather than hidden.
    #[error("internal error, the assembled tokens do not decode: {0}")]
    Internal(DecodeError),
}

/// An assembly error at a line and column (both counted from 1).
#[derive(Clone, PartialEq, Debug, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct AsmError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: AsmErrorKind,
}
