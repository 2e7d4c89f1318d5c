//! The top-level API: program + key → naga module → WGSL/SPIR-V (and the other backends
//! behind features). Which naga checks run when: docs/architecture.md#naga-validation.

use thiserror::Error;

use crate::analysis::{analyse, Signature};
use crate::bytecode::Program;
use crate::emit::{self, EmitError};
use crate::key::pipeline_constants::PipelineConstants;
use crate::key::state_block::{Modes, RenderState};
use crate::key::ShaderKey;
use crate::lower::{self, BindingLayout, InterfaceMap, LowerError};

/// Why a translation failed.
#[derive(Debug, Error)]
pub enum TranslateError {
    /// The lowering refused the program.
    #[error(transparent)]
    Lower(#[from] LowerError),
    /// Validation or a backend failed.
    #[error(transparent)]
    Emit(#[from] EmitError),
}

/// A translated shader.
#[derive(Debug)]
pub struct Translation {
    /// The naga module.
    pub module: naga::Module,
    /// What the backends read about the module: the project's writers' facts, and naga's
    /// `ModuleInfo` once [`Translation::info`] asks for it.
    analysis: emit::Analysis,
    /// What the caller binds.
    pub layout: BindingLayout,
    /// Where inputs and outputs went.
    pub interface: InterfaceMap,
}

impl Translation {
    /// A translation of `module` (analysed with [`emit::Analysis::new`]).
    pub fn new(module: naga::Module, layout: BindingLayout, interface: InterfaceMap) -> Result<Translation, EmitError> {
        let analysis = emit::Analysis::new(&module)?;
        Ok(Translation { module, analysis, layout, interface })
    }

    /// A translation of a module analysed beforehand (`analysis` must be `module`'s).
    pub(crate) fn with_analysis(
        module: naga::Module,
        analysis: emit::Analysis,
        layout: BindingLayout,
        interface: InterfaceMap,
    ) -> Translation {
        Translation { module, analysis, layout, interface }
    }

    /// naga's validation info of the module, which naga's own backends take (the project's
    /// WGSL and SPIR-V writers do not need it). A release build validates on the first call
    /// (naga's checks but those of [`emit::TRANSLATION_FLAGS`]) and keeps the result; a debug
    /// or `full-validation` build validated with every check at translation.
    pub fn info(&self) -> Result<&naga::valid::ModuleInfo, EmitError> {
        self.analysis.info(&self.module)
    }

    /// Runs every naga check on the module, whatever the build (the GPU harness does before
    /// it draws): an error is a translator bug.
    pub fn validate_fully(&self) -> Result<naga::valid::ModuleInfo, EmitError> {
        emit::validate_fully(&self.module)
    }

    /// The facts the project's writers read (each expression's type and use count).
    pub fn facts(&self) -> &emit::WriterFacts {
        self.analysis.facts()
    }

    /// WGSL source.
    pub fn to_wgsl(&self) -> Result<String, EmitError> {
        emit::wgsl(&self.module, &self.analysis)
    }

    /// SPIR-V words, in the lowest version the module needs (1.0 for every translation today).
    pub fn to_spirv(&self) -> Result<Vec<u32>, EmitError> {
        emit::spirv(&self.module, &self.analysis)
    }

    /// SPIR-V words in a given version, e.g. `(1, 3)` for a Vulkan 1.1 target that wants it.
    pub fn to_spirv_version(&self, version: emit::SpirvVersion) -> Result<Vec<u32>, EmitError> {
        emit::spirv_version(&self.module, &self.analysis, version)
    }

    /// SPIR-V as little-endian bytes, as a `.spv` file holds it.
    pub fn to_spirv_bytes(&self) -> Result<Vec<u8>, EmitError> {
        Ok(self.to_spirv()?.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    /// Metal Shading Language.
    #[cfg(feature = "msl")]
    pub fn to_msl(&self) -> Result<String, EmitError> {
        emit::msl(&self.module, self.info()?)
    }

    /// GLSL.
    #[cfg(feature = "glsl")]
    pub fn to_glsl(&self) -> Result<String, EmitError> {
        emit::glsl(&self.module, self.info()?)
    }

    /// HLSL.
    #[cfg(feature = "hlsl")]
    pub fn to_hlsl(&self) -> Result<String, EmitError> {
        emit::hlsl(&self.module, self.info()?)
    }

    /// The pipeline constants of this translation's overrides under a draw's `modes` (take them
    /// from the device state, [`crate::Shader::modes`]) and the application's boolean and
    /// integer constants (`bools` bit n is `b n`, `ints[n]` is `i n`; read only where they are
    /// delivered as overrides): what wgpu takes beside [`Translation::to_wgsl`] at pipeline
    /// creation, and what [`Translation::specialise_with_constants`] bakes in.
    pub fn pipeline_constants(&self, modes: &Modes, bools: u16, ints: &[[i32; 4]; 16]) -> PipelineConstants {
        PipelineConstants::new(&self.overrides(), modes, bools, ints)
    }

    /// The names of the module's overrides (empty unless a mode is delivered as an override).
    pub fn overrides(&self) -> Vec<String> {
        self.module.overrides.iter().filter_map(|(_, o)| o.name.clone()).collect()
    }

    /// This translation with its overrides replaced by the values of `state`'s modes: a module
    /// without overrides, for the backends that cannot write them (SPIR-V, MSL, GLSL, HLSL;
    /// [`crate::key::delivery`]). wgpu does this itself at pipeline creation. Overrides of the
    /// boolean and integer constants keep their initial 0: give their values with
    /// [`Translation::specialise_with_constants`].
    pub fn specialise(&self, state: &RenderState) -> Result<Translation, EmitError> {
        self.specialise_with_constants(state, 0, &[[0; 4]; 16])
    }

    /// [`Translation::specialise`] with the boolean and integer constants of override delivery
    /// too: `bools` bit n is `b n`, `ints[n]` is `i n` ([`Translation::pipeline_constants`]).
    pub fn specialise_with_constants(
        &self,
        state: &RenderState,
        bools: u16,
        ints: &[[i32; 4]; 16],
    ) -> Result<Translation, EmitError> {
        let constants = self.pipeline_constants(&state.modes, bools, ints).to_naga();
        let (module, info) =
            naga::back::pipeline_constants::process_overrides(&self.module, self.info()?, None, &constants)
                .map_err(|e| EmitError::Backend { backend: "overrides", message: e.to_string() })?;
        let module = module.into_owned();
        // naga validated the specialised module as it processed the overrides.
        let analysis = emit::Analysis::with_info(&module, info.into_owned())?;
        Ok(Translation { module, analysis, layout: self.layout.clone(), interface: self.interface.clone() })
    }
}

/// Translates a program under `key` (analyses it first).
pub fn translate(program: &Program, key: &ShaderKey) -> Result<Translation, TranslateError> {
    let sig = analyse(program);
    translate_with(program, &sig, key)
}

/// Translates with a signature computed beforehand (translate once per key without analysing
/// again).
pub fn translate_with(program: &Program, sig: &Signature, key: &ShaderKey) -> Result<Translation, TranslateError> {
    let lowered = lower::lower(program, sig, key)?;
    Ok(Translation::new(lowered.module, lowered.layout, lowered.interface)?)
}
