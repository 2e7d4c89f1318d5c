//! naga validation and the backends. Output is deterministic: the same program and key give the
//! same bytes (the lowering iterates only ordered collections).

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use thiserror::Error;

/// Why emission failed.
#[derive(Debug, Error)]
pub enum EmitError {
    /// naga's validator rejected the module (a translator bug).
    #[error("naga validation: {0}")]
    Validation(String),
    /// A backend failed.
    #[error("{backend}: {message}")]
    Backend {
        /// Which backend.
        backend: &'static str,
        /// Its message.
        message: String,
    },
}

/// The capabilities a translated module may use.
pub fn capabilities() -> Capabilities {
    Capabilities::CLIP_DISTANCES
}

/// Validates a module.
pub fn validate(module: &naga::Module) -> Result<ModuleInfo, EmitError> {
    Validator::new(ValidationFlags::all(), capabilities())
        .validate(module)
        .map_err(|e| EmitError::Validation(format!("{:?}", e.into_inner())))
}

/// WGSL text.
pub fn wgsl(module: &naga::Module, info: &ModuleInfo) -> Result<String, EmitError> {
    naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| EmitError::Backend { backend: "wgsl", message: e.to_string() })
}

/// SPIR-V words (version 1.3: demote is emulated, so nothing newer is needed).
pub fn spirv(module: &naga::Module, info: &ModuleInfo) -> Result<Vec<u32>, EmitError> {
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        flags: naga::back::spv::WriterFlags::empty(),
        ..naga::back::spv::Options::default()
    };
    naga::back::spv::write_vec(module, info, &options, None)
        .map_err(|e| EmitError::Backend { backend: "spirv", message: e.to_string() })
}

/// Metal Shading Language 2.1.
#[cfg(feature = "msl")]
pub fn msl(module: &naga::Module, info: &ModuleInfo) -> Result<String, EmitError> {
    // `invariant` (oPos) needs MSL 2.1.
    let options = naga::back::msl::Options { lang_version: (2, 1), ..naga::back::msl::Options::default() };
    let pipeline = naga::back::msl::PipelineOptions::default();
    naga::back::msl::write_string(module, info, &options, &pipeline)
        .map(|(s, _)| s)
        .map_err(|e| EmitError::Backend { backend: "msl", message: e.to_string() })
}

/// GLSL 4.50 of the module's entry point.
#[cfg(feature = "glsl")]
pub fn glsl(module: &naga::Module, info: &ModuleInfo) -> Result<String, EmitError> {
    let ep =
        module.entry_points.first().ok_or(EmitError::Backend { backend: "glsl", message: "no entry point".into() })?;
    let options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(450),
        ..naga::back::glsl::Options::default()
    };
    let pipeline =
        naga::back::glsl::PipelineOptions { shader_stage: ep.stage, entry_point: ep.name.clone(), multiview: None };
    let mut out = String::new();
    let mut w = naga::back::glsl::Writer::new(
        &mut out,
        module,
        info,
        &options,
        &pipeline,
        naga::proc::BoundsCheckPolicies::default(),
    )
    .map_err(|e| EmitError::Backend { backend: "glsl", message: e.to_string() })?;
    w.write().map_err(|e| EmitError::Backend { backend: "glsl", message: e.to_string() })?;
    Ok(out)
}

/// HLSL (shader model 5.1).
#[cfg(feature = "hlsl")]
pub fn hlsl(module: &naga::Module, info: &ModuleInfo) -> Result<String, EmitError> {
    let options = naga::back::hlsl::Options::default();
    let mut out = String::new();
    let pipeline = naga::back::hlsl::PipelineOptions::default();
    let mut w = naga::back::hlsl::Writer::new(&mut out, &options, &pipeline);
    w.write(module, info, None).map_err(|e| EmitError::Backend { backend: "hlsl", message: e.to_string() })?;
    Ok(out)
}
