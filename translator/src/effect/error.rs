//! Why an effect blob could not be read: every error names the byte offset (from the start of
//! the blob, wrapper included) where the reader found the problem.

use thiserror::Error;

/// How deep struct members may nest (a cyclic or hostile blob cannot recurse forever); the limit
/// lives beside the error that reports it, so that the reader builds on this file.
pub const MAX_DEPTH: usize = 32;

/// A malformed effect.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EffectError {
    /// The blob does not start with `0xFEFF0901` (fx_2_0), nor with the XNA wrapper `0xBCF00BCF`.
    #[error("byte {offset}: magic {magic:#010x} is neither fx_2_0 (0xfeff0901) nor the XNA wrapper (0xbcf00bcf)")]
    BadMagic {
        /// Where the magic was read.
        offset: usize,
        /// The word found.
        magic: u32,
    },
    /// A read runs past the end of the blob (or of the region it must stay in).
    #[error("byte {offset}: {what} needs {needed} bytes, {available} left")]
    Truncated {
        /// Where the read starts.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: usize,
        /// Bytes available from `offset`.
        available: usize,
    },
    /// A count is larger than the bytes left could hold.
    #[error("byte {offset}: {what} count {count} cannot fit in the {available} bytes left")]
    CountTooLarge {
        /// Where the count was read.
        offset: usize,
        /// What is counted.
        what: &'static str,
        /// The count.
        count: u32,
        /// Bytes left after it.
        available: usize,
    },
    /// A type description or preshader value is outside what D3DX defines.
    #[error("byte {offset}: {what} {value:#x} is not valid")]
    BadValue {
        /// Where the value was read.
        offset: usize,
        /// What it is.
        what: &'static str,
        /// The value.
        value: u32,
    },
    /// Struct members nest deeper than [`MAX_DEPTH`].
    #[error("byte {offset}: types nest deeper than {}", MAX_DEPTH)]
    TooDeep {
        /// Where the too-deep type starts.
        offset: usize,
    },
    /// An object id or parameter index refers to nothing.
    #[error("byte {offset}: {what} {index} is out of range (there are {count})")]
    BadIndex {
        /// Where the index was read.
        offset: usize,
        /// What it indexes.
        what: &'static str,
        /// The index.
        index: u32,
        /// How many there are.
        count: usize,
    },
    /// A preshader (FXLC/CLIT/CTAB) is malformed.
    #[error("byte {offset}: preshader: {message}")]
    Preshader {
        /// Where in the blob.
        offset: usize,
        /// What is wrong.
        message: String,
    },
}

impl EffectError {
    /// The byte offset the error names.
    pub fn offset(&self) -> usize {
        match self {
            EffectError::BadMagic { offset, .. }
            | EffectError::Truncated { offset, .. }
            | EffectError::CountTooLarge { offset, .. }
            | EffectError::BadValue { offset, .. }
            | EffectError::TooDeep { offset }
            | EffectError::BadIndex { offset, .. }
            | EffectError::Preshader { offset, .. } => *offset,
        }
    }
}
