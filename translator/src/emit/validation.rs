//! naga's validator, with the checks each build runs (docs/architecture.md#naga-validation).

use std::cell::RefCell;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

use super::error::EmitError;

/// The capabilities a translated module may use.
pub fn capabilities() -> Capabilities {
    Capabilities::CLIP_DISTANCES
}

/// Whether every translation is validated with every naga check ([`Analysis::new`]), and
/// [`validate`] runs every check: in debug builds, and with the cargo feature
/// `full-validation`, which the workspace's tests turn on (docs/architecture.md#naga-validation).
/// A release build validates no translation unless asked (`Translation::info`).
pub const FULL_VALIDATION: bool = cfg!(any(debug_assertions, feature = "full-validation"));

/// The checks [`validate`] runs (for `Translation::info`, the fixed-function halves and stored
/// artifacts). Without [`FULL_VALIDATION`], naga's per-expression and per-statement type checks
/// are left out: they find only lowering bugs, which the tests look for with every flag over
/// every corpus, and they were 37 % of naga's validation of the common list (325k of its
/// instructions per shader, callgrind). The rest stays: naga's analysis (types, uses,
/// uniformity), handles, constants, layouts and bindings, and uniformity errors, which
/// browsers' compilers would refuse.
pub const TRANSLATION_FLAGS: ValidationFlags = if FULL_VALIDATION {
    ValidationFlags::all()
} else {
    ValidationFlags::from_bits_retain(
        ValidationFlags::all().bits() & !(ValidationFlags::EXPRESSIONS.bits() | ValidationFlags::BLOCKS.bits()),
    )
};

thread_local! {
    /// One validator per thread: building one costs more than validating a small module, and
    /// `validate` starts from a clean state every time.
    static VALIDATOR: RefCell<Validator> = RefCell::new(Validator::new(TRANSLATION_FLAGS, capabilities()));
    /// The same with every flag, for [`validate_fully`].
    static FULL_VALIDATOR: RefCell<Validator> = RefCell::new(Validator::new(ValidationFlags::all(), capabilities()));
}

/// Validates a module with [`TRANSLATION_FLAGS`]: a module naga refuses is a translator bug.
pub fn validate(module: &naga::Module) -> Result<ModuleInfo, EmitError> {
    VALIDATOR.with_borrow_mut(|v| v.validate(module).map_err(validation_error))
}

/// Validates a module with every naga check, whatever the build (the GPU harness and the
/// tests' proof that the checks [`validate`] may leave out find nothing).
pub fn validate_fully(module: &naga::Module) -> Result<ModuleInfo, EmitError> {
    FULL_VALIDATOR.with_borrow_mut(|v| v.validate(module).map_err(validation_error))
}

/// naga's error with the token of the first span it names that the lowering set.
fn validation_error(e: naga::WithSpan<naga::valid::ValidationError>) -> EmitError {
    let token = e.spans().find_map(|(span, _)| span.to_range()).map(|r| r.start as u32);
    EmitError::Validation { token, message: format!("{:?}", e.into_inner()) }
}
