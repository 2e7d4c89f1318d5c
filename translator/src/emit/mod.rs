//! The writers' facts, naga validation and the backends. Output is deterministic: the same
//! program and key give the same bytes (the lowering iterates only ordered collections).

mod analysis;
mod error;
mod facts;
pub mod spirv;
mod validation;
mod wgsl;

use std::cell::RefCell;
use std::fmt::Write as _;

use naga::valid::ModuleInfo;

pub use analysis::Analysis;
pub use error::EmitError;
pub use facts::{FunctionFacts, WriterFacts};
pub use validation::{capabilities, validate, validate_fully, FULL_VALIDATION, TRANSLATION_FLAGS};

thread_local! {
    /// SPIR-V writers per thread, by version (`write` resets a writer's state), and the words
    /// they write into: both keep their capacity from one shader to the next.
    static SPIRV_WRITERS: RefCell<SpirvWriters> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// A thread's SPIR-V writers by version, and the words they write into.
type SpirvWriters = (Vec<(SpirvVersion, naga::back::spv::Writer)>, Vec<u32>);

/// A reused buffer past this size is dropped rather than kept for the next shader.
const KEEP_BYTES: usize = 1 << 20;

/// WGSL text: the project's writer (`wgsl/`), or naga's for a module outside what it writes
/// (none of the translator's or the fixed-function generator's, which the tests check).
pub fn wgsl(module: &naga::Module, analysis: &Analysis) -> Result<String, EmitError> {
    let mut directives = String::new();
    write_diagnostic_directives(module, &mut directives);
    match self::wgsl::write(module, analysis.facts(), &directives) {
        Ok(text) => Ok(text),
        Err(_) => naga_wgsl_after(module, analysis.info(module)?, directives),
    }
}

/// WGSL text from the project's writer alone: an error where `wgsl` would fall back to naga's
/// writer. The tests use it to prove the fallback unused.
pub fn wgsl_own(module: &naga::Module, facts: &WriterFacts) -> Result<String, EmitError> {
    let mut directives = String::new();
    write_diagnostic_directives(module, &mut directives);
    self::wgsl::write(module, facts, &directives)
        .map_err(|u| EmitError::Backend { backend: "wgsl", message: format!("the project's writer lacks {}", u.0) })
}

/// WGSL text from naga's writer (the fallback), for comparisons with the project's.
pub fn naga_wgsl(module: &naga::Module, info: &ModuleInfo) -> Result<String, EmitError> {
    let mut directives = String::new();
    write_diagnostic_directives(module, &mut directives);
    naga_wgsl_after(module, info, directives)
}

/// naga's WGSL writer, after the directives.
fn naga_wgsl_after(module: &naga::Module, info: &ModuleInfo, directives: String) -> Result<String, EmitError> {
    // A fresh writer per module: a reused one (its name tables kept, the text shared through a
    // `RefCell` sink) made fewer allocations but cost more instructions (callgrind, the bench's
    // common list), since naga writes WGSL in many small pieces.
    let body = naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| EmitError::Backend { backend: "wgsl", message: e.to_string() })?;
    if directives.is_empty() {
        return Ok(body);
    }
    let mut out = directives;
    out.push_str(&body);
    Ok(out)
}

/// The module's diagnostic filters as WGSL `diagnostic` directives, which must come before any
/// declaration: naga 30's WGSL writer does not write them (the lowering sets
/// `derivative_uniformity: off` where D3D9 code takes derivatives in divergent flow; see
/// docs/wgsl.md).
fn write_diagnostic_directives(module: &naga::Module, out: &mut String) {
    use naga::diagnostic_filter::{FilterableTriggeringRule, Severity, StandardFilterableTriggeringRule};
    let mut chain = Vec::new();
    let mut node = module.diagnostic_filter_leaf;
    while let Some(h) = node {
        chain.push(&module.diagnostic_filters[h]);
        node = module.diagnostic_filters[h].parent;
    }
    // Root first: a later directive for the same rule overrides an earlier one.
    for n in chain.iter().rev() {
        let severity = match n.inner.new_severity {
            Severity::Off => "off",
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        let _ = write!(out, "diagnostic({severity}, ");
        let _ = match &n.inner.triggering_rule {
            FilterableTriggeringRule::Standard(StandardFilterableTriggeringRule::DerivativeUniformity) => {
                write!(out, "derivative_uniformity")
            }
            FilterableTriggeringRule::Unknown(name) => write!(out, "{name}"),
            FilterableTriggeringRule::User(parts) => write!(out, "{}.{}", parts[0], parts[1]),
        };
        out.push_str(");\n");
    }
}

/// A SPIR-V version, (major, minor).
pub type SpirvVersion = (u8, u8);

/// SPIR-V words in the lowest version the module needs: 1.0 (which every Vulkan device loads),
/// unless naga needs a newer one for a feature. The translation needs none: `texkill` is
/// emulated rather than demoted, and storage buffers use the 1.0 extension.
///
/// The project's own writer ([`spirv::write`]) writes every module the lowering and the
/// fixed-function generator make; a module outside what it covers goes to naga's writer.
pub fn spirv(module: &naga::Module, analysis: &Analysis) -> Result<Vec<u32>, EmitError> {
    if let Ok(words) = spirv::write(module, analysis.facts(), (1, 0)) {
        return Ok(words);
    }
    let info = analysis.info(module)?;
    match write_spirv(module, info, (1, 0)) {
        Err(naga::back::spv::Error::SpirvVersionTooLow(major, minor)) => write_spirv(module, info, (major, minor)),
        other => other,
    }
    .map_err(spirv_error)
}

/// SPIR-V words in the version the caller asks for (an error if the module needs a newer one).
pub fn spirv_version(module: &naga::Module, analysis: &Analysis, version: SpirvVersion) -> Result<Vec<u32>, EmitError> {
    if let Ok(words) = spirv::write(module, analysis.facts(), version) {
        return Ok(words);
    }
    write_spirv(module, analysis.info(module)?, version).map_err(spirv_error)
}

fn spirv_error(e: naga::back::spv::Error) -> EmitError {
    EmitError::Backend { backend: "spirv", message: e.to_string() }
}

fn write_spirv(
    module: &naga::Module,
    info: &ModuleInfo,
    version: SpirvVersion,
) -> Result<Vec<u32>, naga::back::spv::Error> {
    SPIRV_WRITERS.with_borrow_mut(|(writers, words)| {
        let i = match writers.iter().position(|(v, _)| *v == version) {
            Some(i) => i,
            None => {
                let options = naga::back::spv::Options {
                    lang_version: version,
                    flags: naga::back::spv::WriterFlags::empty(),
                    ..naga::back::spv::Options::default()
                };
                writers.push((version, naga::back::spv::Writer::new(&options)?));
                writers.len() - 1
            }
        };
        words.clear();
        let written = writers[i].1.write(module, info, None, &None, words);
        // One allocation of the exact size; the buffer keeps its capacity for the next shader.
        let out = words.clone();
        words.clear();
        if words.capacity() * 4 > KEEP_BYTES {
            *words = Vec::new();
        }
        written.map(|()| out)
    })
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
