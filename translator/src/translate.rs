//! The top-level API: program + key → validated naga module → WGSL/SPIR-V (and the other
//! backends behind features).

use thiserror::Error;

use crate::analysis::{analyse, Signature};
use crate::bytecode::Program;
use crate::emit::{self, EmitError};
use crate::key::state_block::RenderState;
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
    /// Its validation info.
    pub info: naga::valid::ModuleInfo,
    /// What the caller binds.
    pub layout: BindingLayout,
    /// Where inputs and outputs went.
    pub interface: InterfaceMap,
}

impl Translation {
    /// WGSL source.
    pub fn to_wgsl(&self) -> Result<String, EmitError> {
        emit::wgsl(&self.module, &self.info)
    }

    /// SPIR-V words, in the lowest version the module needs (1.0 for every translation today).
    pub fn to_spirv(&self) -> Result<Vec<u32>, EmitError> {
        emit::spirv(&self.module, &self.info)
    }

    /// SPIR-V words in a given version, e.g. `(1, 3)` for a Vulkan 1.1 target that wants it.
    pub fn to_spirv_version(&self, version: emit::SpirvVersion) -> Result<Vec<u32>, EmitError> {
        emit::spirv_version(&self.module, &self.info, version)
    }

    /// SPIR-V as little-endian bytes, as a `.spv` file holds it.
    pub fn to_spirv_bytes(&self) -> Result<Vec<u8>, EmitError> {
        Ok(self.to_spirv()?.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    /// Metal Shading Language.
    #[cfg(feature = "msl")]
    pub fn to_msl(&self) -> Result<String, EmitError> {
        emit::msl(&self.module, &self.info)
    }

    /// GLSL.
    #[cfg(feature = "glsl")]
    pub fn to_glsl(&self) -> Result<String, EmitError> {
        emit::glsl(&self.module, &self.info)
    }

    /// HLSL.
    #[cfg(feature = "hlsl")]
    pub fn to_hlsl(&self) -> Result<String, EmitError> {
        emit::hlsl(&self.module, &self.info)
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
    /// too: `bools` bit n is `b n`, `ints[n]` is `i n`
    /// ([`constant_overrides`](crate::key::state_block::constant_overrides)).
    pub fn specialise_with_constants(
        &self,
        state: &RenderState,
        bools: u16,
        ints: &[[i32; 4]; 16],
    ) -> Result<Translation, EmitError> {
        let mut constants = naga::back::PipelineConstants::default();
        let values = state.pipeline_constants(&self.module).into_iter();
        for (name, value) in values.chain(crate::key::state_block::constant_overrides(&self.module, bools, ints)) {
            constants.insert(name, value);
        }
        let (module, info) =
            naga::back::pipeline_constants::process_overrides(&self.module, &self.info, None, &constants)
                .map_err(|e| EmitError::Backend { backend: "overrides", message: e.to_string() })?;
        Ok(Translation {
            module: module.into_owned(),
            info: info.into_owned(),
            layout: self.layout.clone(),
            interface: self.interface.clone(),
        })
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
    let info = emit::validate(&lowered.module)?;
    Ok(Translation { module: lowered.module, info, layout: lowered.layout, interface: lowered.interface })
}
