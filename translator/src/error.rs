//! The crate-level error: every way [`Shader::parse`](crate::Shader::parse),
//! [`Shader::translate`](crate::Shader::translate) and [`link`](crate::link) can fail, each
//! carrying where in the input it happened (token index, or line and column of a text).

use thiserror::Error;

use crate::asm::AsmError;
use crate::bytecode::{DecodeError, ShaderKind, Usage};
use crate::input::InputError;
use crate::key::linkage::InterStageLimitError;
use crate::translate::TranslateError;
use crate::validate::Diagnostic;

/// Why a shader could not be read, validated, linked or translated.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The input's container (hex text, C header, blob length) is malformed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The token stream does not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The assembly text does not assemble.
    #[error(transparent)]
    Asm(#[from] AsmError),
    /// The validator refused the program; every error is listed, the first one is displayed.
    #[error("{}{}", .errors[0], more(.errors.len()))]
    Invalid {
        /// The errors, in stream order (at least one).
        errors: Vec<Diagnostic>,
    },
    /// The translator refused the program, or naga or a backend failed.
    #[error(transparent)]
    Translate(#[from] TranslateError),
    /// [`link`](crate::link) was given shaders of the wrong stages.
    #[error("link: expected a {expected:?} shader, got a {found:?} shader")]
    Stage {
        /// The stage the argument must have.
        expected: ShaderKind,
        /// The stage it has.
        found: ShaderKind,
    },
    /// A pair uses more inter-stage locations than the device allows.
    #[error(transparent)]
    InterStageLimit(#[from] InterStageLimitError),
    /// The vertex shader reads an input that the vertex declaration does not give
    /// ([`crate::pipeline::Pair`]).
    #[error("the vertex shader reads v{register} ({}{usage_index}), which the vertex declaration does not give", .usage.map_or("no semantic", |u| u.name()))]
    MissingVertexElement {
        /// The input register `v n`.
        register: u16,
        /// Its declared usage.
        usage: Option<Usage>,
        /// Its usage index.
        usage_index: u8,
    },
}

/// `shader.translate(&key)?.to_wgsl()?` in a function returning this crate's [`Result`]: an
/// emit failure is a translation failure.
impl From<crate::emit::EmitError> for Error {
    fn from(e: crate::emit::EmitError) -> Error {
        Error::Translate(TranslateError::Emit(e))
    }
}

fn more(n: usize) -> String {
    match n {
        0 | 1 => String::new(),
        2 => " (and 1 more error)".into(),
        n => format!(" (and {} more errors)", n - 1),
    }
}

/// Where in the input an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Token index in the stream (0 = version token; byte offset = 4 × token).
    Token(usize),
    /// Line and column of a text input, both from 1.
    Text {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
    },
}

impl Error {
    /// Where the error is, when it is at one place.
    pub fn location(&self) -> Option<Location> {
        match self {
            Error::Input(InputError::Asm(e)) | Error::Asm(e) => Some(Location::Text { line: e.line, column: e.column }),
            Error::Input(InputError::BadHexWord { line, column, .. } | InputError::Header { line, column, .. }) => {
                Some(Location::Text { line: *line, column: *column })
            }
            Error::Input(_) => None,
            Error::Decode(e) => Some(Location::Token(e.token)),
            Error::Invalid { errors } => errors[0].token.map(|t| Location::Token(t as usize)),
            Error::Translate(TranslateError::Lower(e)) => Some(Location::Token(e.offset() as usize)),
            Error::Translate(_)
            | Error::Stage { .. }
            | Error::InterStageLimit(_)
            | Error::MissingVertexElement { .. } => None,
        }
    }
}

/// Shorthand for results of this crate's front door.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Rule;

    #[test]
    fn invalid_displays_the_first_error_and_counts_the_rest() {
        let d = |token| Diagnostic {
            rule: Rule::Operands,
            message: "bad".into(),
            instruction: Some(1),
            token: Some(token),
        };
        let e = Error::Invalid { errors: vec![d(3), d(7), d(9)] };
        assert_eq!(e.to_string(), "[operands] instruction 1 (token 3, byte 12): bad (and 2 more errors)");
        assert_eq!(e.location(), Some(Location::Token(3)));
    }

    #[test]
    fn an_emit_error_converts_with_the_question_mark() {
        fn wgsl_of(shader: &crate::Shader) -> Result<String> {
            Ok(shader.translate(&crate::ShaderKey::default())?.to_wgsl()?)
        }
        let shader = crate::Shader::from_asm("ps_2_0\nmov oC0, c0", &crate::ParseOptions::default()).unwrap();
        assert!(wgsl_of(&shader).unwrap().contains("@fragment"));
        let emit = crate::emit::EmitError::Backend { backend: "wgsl", message: "x".into() };
        assert!(matches!(Error::from(emit), Error::Translate(TranslateError::Emit(_))));
    }

    #[test]
    fn errors_are_std_errors_and_cross_threads() {
        fn is_error<E: std::error::Error + Send + Sync + 'static>() {}
        is_error::<Error>();
    }
}
