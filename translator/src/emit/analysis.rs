//! A module's analysis as the backends need it: the project's writers read [`WriterFacts`]
//! only; naga's writers (MSL, GLSL, HLSL, and the WGSL/SPIR-V fallbacks) need naga's
//! `ModuleInfo`, which is made on first request (docs/architecture.md#naga-validation).

use std::sync::OnceLock;

use naga::valid::ModuleInfo;

use super::error::EmitError;
use super::facts::WriterFacts;
use super::validation::{validate, validate_fully, FULL_VALIDATION};

/// The writers' facts of a module, and naga's validation of it once someone asks for it.
#[derive(Debug)]
pub struct Analysis {
    facts: WriterFacts,
    info: OnceLock<ModuleInfo>,
}

impl Analysis {
    /// Analyses a translated module. A release build computes only the writers' facts; a debug
    /// or `full-validation` build also runs every naga check (a module naga refuses is a
    /// translator bug) and proves the facts equal naga's.
    pub fn new(module: &naga::Module) -> Result<Analysis, EmitError> {
        if FULL_VALIDATION {
            let info = validate_fully(module)?;
            return Analysis::checked(module, info);
        }
        Ok(Analysis { facts: WriterFacts::new(module)?, info: OnceLock::new() })
    }

    /// The analysis of a module naga's validator has already analysed (`info` must be the
    /// `ModuleInfo` of `module`); a debug or `full-validation` build proves the facts equal it.
    pub fn with_info(module: &naga::Module, info: ModuleInfo) -> Result<Analysis, EmitError> {
        if FULL_VALIDATION {
            return Analysis::checked(module, info);
        }
        Ok(Analysis { facts: WriterFacts::new(module)?, info: OnceLock::from(info) })
    }

    /// Validates a module naga has not seen (the fixed-function generator's, a stored one)
    /// with [`validate`]'s checks, and analyses it.
    pub fn validated(module: &naga::Module) -> Result<Analysis, EmitError> {
        Analysis::with_info(module, validate(module)?)
    }

    fn checked(module: &naga::Module, info: ModuleInfo) -> Result<Analysis, EmitError> {
        let facts = WriterFacts::new(module)?;
        if let Some(d) = facts.differs_from(module, &info) {
            return Err(EmitError::Validation {
                token: None,
                message: format!("writer facts differ from naga's: {d}"),
            });
        }
        Ok(Analysis { facts, info: OnceLock::from(info) })
    }

    /// The facts the project's writers read.
    pub fn facts(&self) -> &WriterFacts {
        &self.facts
    }

    /// naga's `ModuleInfo` of `module` (the module this analysis was made from), validating
    /// it with [`validate`]'s checks on the first call.
    pub fn info(&self, module: &naga::Module) -> Result<&ModuleInfo, EmitError> {
        if let Some(info) = self.info.get() {
            return Ok(info);
        }
        let info = validate(module)?;
        Ok(self.info.get_or_init(|| info))
    }
}
