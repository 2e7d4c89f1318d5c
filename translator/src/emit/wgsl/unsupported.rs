//! What this writer reports when it leaves a module to naga's: a leaf every file of the writer
//! names (docs/architecture.md#no-circles).

/// Why this writer left a module to naga's: the construct it does not write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);
