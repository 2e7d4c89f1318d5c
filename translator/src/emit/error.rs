//! Why emission failed: a leaf the folder's files share.

use thiserror::Error;

/// Why emission failed.
#[derive(Debug, Error)]
pub enum EmitError {
    /// naga's validator rejected the module (a translator bug).
    #[error("{}naga validation: {message}", token.map(|t| format!("token {t}: ")).unwrap_or_default())]
    Validation {
        /// Token index of the D3D9 instruction whose lowering made the offending expression or
        /// statement (the lowering gives each the span `token..token + 1`); `None` when the
        /// error is in code no instruction made (types, the entry point's prologue/epilogue).
        token: Option<u32>,
        /// naga's error.
        message: String,
    },
    /// A backend failed.
    #[error("{backend}: {message}")]
    Backend {
        /// Which backend.
        backend: &'static str,
        /// Its message.
        message: String,
    },
}
