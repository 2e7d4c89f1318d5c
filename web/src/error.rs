//! The one error type of the JavaScript API: a message and, where the library knows it, the place
//! in the input (a token index for token streams, a line and column for text). In JavaScript it
//! becomes an `Error` carrying the same fields (`lib.rs`).

use d3d9_shader::input::InputError;
use d3d9_shader::{Error, Location};
use serde::Serialize;

/// Why a call failed, and where in the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WebError {
    /// What stage refused the input: `input`, `decode`, `asm`, `invalid`, `translate`, `key`,
    /// `emit`.
    pub kind: &'static str,
    /// The library's message.
    pub message: String,
    /// Token index (byte offset = 4 × token), for token streams.
    pub token: Option<usize>,
    /// Line of a text input, from 1.
    pub line: Option<usize>,
    /// Column of a text input, from 1.
    pub column: Option<usize>,
}

impl WebError {
    /// An error at no particular place.
    pub fn new(kind: &'static str, message: impl Into<String>) -> WebError {
        WebError { kind, message: message.into(), token: None, line: None, column: None }
    }
}

impl From<Error> for WebError {
    fn from(e: Error) -> WebError {
        let kind = match &e {
            Error::Input(InputError::Asm(_)) | Error::Asm(_) => "asm",
            Error::Input(_) => "input",
            Error::Decode(_) => "decode",
            Error::Invalid { .. } => "invalid",
            Error::Translate(_) => "translate",
            _ => "error",
        };
        let mut out = WebError::new(kind, e.to_string());
        match e.location() {
            Some(Location::Token(t)) => out.token = Some(t),
            Some(Location::Text { line, column }) => (out.line, out.column) = (Some(line), Some(column)),
            None => {}
        }
        out
    }
}

impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WebError {}
