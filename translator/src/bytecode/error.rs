//! Decoding errors: each names the token index (and so the byte offset) where the stream went wrong.

use thiserror::Error;

/// What is wrong with a token stream.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum DecodeErrorKind {
    /// The blob's length is not a multiple of four bytes.
    #[error("blob length {0} is not a multiple of 4 bytes")]
    UnalignedLength(usize),
    /// The stream has no tokens.
    #[error("empty token stream")]
    Empty,
    /// Token 0 names no shader model.
    #[error("invalid version token 0x{0:08x}")]
    BadVersion(u32),
    /// The blob is a DXBC container (its first four bytes are `DXBC`): Shader Model 4 or later,
    /// compiled for Direct3D 10 and up, which this library does not read.
    #[error("a DXBC container (Shader Model 4 or later, Direct3D 10 and up), not Direct3D 9 shader bytecode")]
    DxbcContainer,
    /// The stream ended before the end token.
    #[error("token stream ends without an end token (0x0000ffff)")]
    MissingEnd,
    /// The stream ended inside an instruction or comment.
    #[error("{what} needs {needed} more token(s) but the stream ends")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Tokens missing.
        needed: usize,
    },
    /// An opcode that D3D9 does not define.
    #[error("unknown opcode 0x{0:04x}")]
    UnknownOpcode(u32),
    /// A bit that must be 0 is set.
    #[error("reserved bits 0x{bits:08x} set in {what} token 0x{token:08x}")]
    ReservedBits {
        /// Which token.
        what: &'static str,
        /// The token.
        token: u32,
        /// The offending bits.
        bits: u32,
    },
    /// The SM2+ length field disagrees with the operands the opcode carries.
    #[error("{opcode}: length field says {stated} token(s) but the operands take {expected}")]
    LengthMismatch {
        /// Instruction name.
        opcode: &'static str,
        /// Bits 24–27.
        stated: u32,
        /// Computed from the table and the relative/predicate tokens.
        expected: u32,
    },
    /// A parameter token lacks bit 31.
    #[error("expected a parameter token (bit 31 set), found 0x{0:08x}")]
    NotAParameter(u32),
    /// A register type that does not exist.
    #[error("register type {0} does not exist")]
    BadRegisterType(u32),
    /// Source modifier 14 or 15.
    #[error("source modifier {0} does not exist")]
    BadSourceModifier(u32),
    /// A result shift outside ±3.
    #[error("result shift field {0} does not exist")]
    BadShift(u32),
    /// A relative-address token that is not a plain `a0`/`aL` component read.
    #[error("malformed relative-address token 0x{0:08x}")]
    BadRelativeToken(u32),
    /// A comment whose length runs past the end of the stream.
    #[error("comment of {length} DWORDs runs past the end of the stream ({available} left)")]
    CommentTooLong {
        /// Stated length.
        length: usize,
        /// Tokens left.
        available: usize,
    },
    /// Control bits on an opcode that takes none, or an unknown comparison/variant.
    #[error("{opcode}: invalid control bits {control}")]
    BadControl {
        /// Instruction name.
        opcode: &'static str,
        /// Bits 16–23.
        control: u8,
    },
}

/// A decoding error at a token.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("token {token} (byte {byte_offset}): {kind}", byte_offset = .token * 4)]
pub struct DecodeError {
    /// Index of the offending token (0 = version token).
    pub token: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// Byte offset of the offending token.
    pub fn byte_offset(&self) -> usize {
        self.token * 4
    }
}
