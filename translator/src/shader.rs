//! The front door for compatibility layers: parse a shader once, reflect on it, translate it
//! once per [`ShaderKey`], and link vertex/pixel pairs.
//!
//! Everything here is plain data: a [`Shader`] is `Send + Sync`, parsing and translating touch
//! no global state, so a runtime may parse and translate on as many threads as it likes.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

use serde::{Serialize, Serializer};

use crate::analysis::{analyse, CtabName, Features, IoRegister, Sampler, Signature};
use crate::bytecode::{decode, decode_bytes, Program, ShaderKind, Version};
use crate::error::{Error, Result};
use crate::key::linkage::Linkage;
use crate::key::ShaderKey;
use crate::translate::{translate_with, Translation};
use crate::validate::{validate, Diagnostic, Mode, ValidationOptions};

/// How [`Shader::parse`] checks a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParseOptions {
    /// The validator's options. The default is lenient Direct3D 9 validation: what the runtime
    /// refuses but drivers accept when the meaning is clear becomes a warning
    /// ([`Shader::warnings`]); [`ParseOptions::strict`] refuses everything Windows refuses.
    pub validation: ValidationOptions,
}

impl ParseOptions {
    /// Lenient validation (the default).
    pub fn lenient() -> ParseOptions {
        ParseOptions::default()
    }

    /// Strict validation: the Direct3D 9 runtime's rules.
    pub fn strict() -> ParseOptions {
        ParseOptions { validation: ValidationOptions { mode: Mode::Strict, ..ValidationOptions::default() } }
    }
}

/// A parsed and validated shader with its reflection; translate it with [`Shader::translate`].
#[derive(Clone, Debug)]
pub struct Shader {
    program: Program,
    signature: Signature,
    /// Built from the signature on the first [`Shader::reflection`] call: a runtime that only
    /// translates does not pay for the copies of names and ranges it holds.
    reflection: OnceLock<Reflection>,
    /// Found on the first [`Shader::warnings`] call, by the validation under `validation`:
    /// parsing runs only the checks that can refuse the program.
    warnings: OnceLock<Vec<Diagnostic>>,
    validation: ValidationOptions,
}

impl Shader {
    /// Parses a raw token blob: little-endian DWORDs starting with the version token, as given
    /// to `IDirect3DDevice9::CreateVertexShader`/`CreatePixelShader` (trailing bytes after the
    /// end token are ignored).
    /// A DXBC container (Shader Model 4+) is refused as such ([`InputError::Dxbc`](crate::input::InputError::Dxbc)).
    pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<Shader> {
        crate::input::refuse_dxbc(bytes)?;
        Shader::from_program(decode_bytes(bytes)?, options)
    }

    /// Reads a shader from any of the forms it travels in ([`crate::input::load`]): a raw blob,
    /// hex text, an fxc `/Fh` C header with one array, or an assembly listing, judged by
    /// content. An input with several shaders (a header with several arrays) is refused with
    /// [`InputError::Several`](crate::input::InputError::Several): read those with
    /// [`crate::input::load`] and [`Shader::from_tokens`].
    pub fn load(bytes: &[u8], options: &ParseOptions) -> Result<Shader> {
        let mut shaders = crate::input::load(bytes, "")?;
        match shaders.len() {
            1 => Shader::from_tokens(&shaders.remove(0).tokens, options),
            n => Err(crate::input::InputError::Several(n).into()),
        }
    }

    /// Parses a token stream.
    pub fn from_tokens(tokens: &[u32], options: &ParseOptions) -> Result<Shader> {
        Shader::from_program(decode(tokens)?, options)
    }

    /// Assembles shader assembly text (`vs_3_0` / `ps_2_0` … listings as fxc prints them; the
    /// syntax is documented in [`crate::asm`]).
    pub fn from_asm(text: &str, options: &ParseOptions) -> Result<Shader> {
        Shader::from_program(crate::asm::assemble(text)?, options)
    }

    /// Validates and analyses a decoded program.
    pub fn from_program(program: Program, options: &ParseOptions) -> Result<Shader> {
        let errors = crate::validate::errors(&program, &options.validation);
        if !errors.is_empty() {
            return Err(Error::Invalid { errors });
        }
        let signature = analyse(&program);
        Ok(Shader {
            program,
            signature,
            reflection: OnceLock::new(),
            warnings: OnceLock::new(),
            validation: options.validation,
        })
    }

    /// The version token.
    pub fn version(&self) -> Version {
        self.program.version
    }

    /// Vertex or pixel.
    pub fn stage(&self) -> ShaderKind {
        self.program.version.kind
    }

    /// What the shader reads, writes and uses.
    pub fn reflection(&self) -> &Reflection {
        self.reflection.get_or_init(|| Reflection::new(&self.program, &self.signature))
    }

    /// What lenient validation let through (empty under strict validation).
    pub fn warnings(&self) -> &[Diagnostic] {
        self.warnings.get_or_init(|| validate(&self.program, &self.validation).warnings)
    }

    /// The decoded program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The token stream (re-encoded; identical to a decoded input's tokens).
    pub fn tokens(&self) -> Vec<u32> {
        crate::bytecode::encode(&self.program)
    }

    /// The key for this shader under the device state `state`: [`ShaderKey::from_state`]
    /// reduced to what this shader reads ([`ShaderKey::minimal`]), so that states differing
    /// only in what it ignores give equal keys.
    pub fn key(&self, state: &crate::key::device::DeviceState) -> ShaderKey {
        ShaderKey::from_state_for(self.version(), &self.signature, state)
    }

    /// The render-state modes of this shader under the device state
    /// ([`Modes::from_state`](crate::key::Modes::from_state)): the values of the pipeline
    /// constants of override delivery ([`Modes::pipeline_constants`](crate::key::Modes::pipeline_constants))
    /// and of [`RenderState::modes`](crate::RenderState::modes) for uniform delivery and
    /// [`Translation::specialise`]. Take them from here, not from the key translated under,
    /// whose overridden fields [`ShaderKey::minimal`] resets.
    pub fn modes(&self, state: &crate::key::device::DeviceState) -> crate::key::Modes {
        crate::key::Modes::from_state(self.version(), state)
    }

    /// `key` reduced to what this shader reads ([`ShaderKey::minimal`]).
    pub fn minimal_key(&self, key: &ShaderKey) -> ShaderKey {
        key.minimal(self.version(), &self.signature)
    }

    /// Translates under `key`: a validated naga module, what to bind, and where the inputs and
    /// outputs went. Call it once per distinct key and cache by key.
    pub fn translate(&self, key: &ShaderKey) -> Result<Translation> {
        Ok(translate_with(&self.program, &self.signature, key)?)
    }
}

/// Links a vertex shader's outputs to a pixel shader's inputs by semantic (usage, index): SM3
/// pairs, and SM2 (or SM1) vertex shaders with SM3 pixel shaders and the other way round.
///
/// Put the result in both keys' [`ShaderKey::linkage`]. Semantics the pixel shader reads and
/// the vertex shader does not write get the D3D9 default value (COLOR0 = 1, COLOR1 = (0,0,0,1),
/// FOG = 1, others 0); outputs the pixel shader does not read are dropped.
pub fn link(vs: &Shader, ps: &Shader) -> Result<Linkage> {
    for (shader, expected) in [(vs, ShaderKind::Vertex), (ps, ShaderKind::Pixel)] {
        if shader.stage() != expected {
            return Err(Error::Stage { expected, found: shader.stage() });
        }
    }
    Ok(crate::key::linkage::link(vs.version(), &vs.signature, ps.version(), &ps.signature))
}

impl Shader {
    /// Whether this shader's varyings all have a location in the stable interface
    /// ([`Linkage::stable`]): when both stages of a pair say yes, translate each once under
    /// `Linkage::stable()` and pair them freely; otherwise [`link`] the pair.
    pub fn fits_stable_interface(&self) -> bool {
        crate::key::linkage::fits_stable(self.version(), &self.signature)
    }
}

/// A shader's reflection: what a runtime needs to know to feed and bind it. Serialises to the
/// JSON that `d3d9-shader info --json` and `d3d9-shader IN OUT.json` print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reflection {
    /// `vs_3_0`, `ps_2_x`, …
    pub version: String,
    /// Vertex or pixel.
    #[serde(serialize_with = "stage_name")]
    pub stage: ShaderKind,
    /// Inputs (`v#`, `t#`, `vPos`, `vFace`) with their usage, usage index, register and masks.
    pub inputs: Vec<IoRegister>,
    /// Outputs (`oPos`, `oD#`, `oT#`, `oFog`, `oPts`, `o#`, `oC#`, `oDepth`).
    pub outputs: Vec<IoRegister>,
    /// Float constants `c#`.
    pub float_constants: ConstantReflection,
    /// Integer constants `i#`.
    pub int_constants: ConstantReflection,
    /// Boolean constants `b#`.
    pub bool_constants: ConstantReflection,
    /// Samplers with their declared texture types.
    pub samplers: Vec<Sampler>,
    /// The constant table's names (empty without a CTAB comment).
    pub ctab: Vec<CtabName>,
    /// Features the program uses.
    pub features: Features,
    /// Temporary registers used (highest `r#` + 1).
    pub temps: u16,
}

/// How a program uses one constant file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConstantReflection {
    /// Registers read directly, as inclusive ranges (`c0`–`c3`, `c8`).
    pub ranges: Vec<RangeInclusive<u16>>,
    /// Some read is relatively addressed (`c[a0.x + n]`, `c[aL + n]`): the caller cannot know
    /// which registers are read and should upload the whole file.
    pub relative: bool,
    /// Base registers `n` of the relative reads.
    pub relative_bases: Vec<u16>,
    /// Registers set by `def`/`defi`/`defb`, with their raw 32-bit values (a float's bits, an
    /// integer, or a boolean in `.0`). They win over the values the caller uploads.
    pub defined: BTreeMap<u16, [u32; 4]>,
}

impl ConstantReflection {
    /// Whether register `n` is read directly.
    pub fn reads(&self, n: u16) -> bool {
        self.ranges.iter().any(|r| r.contains(&n))
    }
}

fn stage_name<S: Serializer>(k: &ShaderKind, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(match k {
        ShaderKind::Vertex => "vertex",
        ShaderKind::Pixel => "pixel",
    })
}

/// Sorted, deduplicated registers → inclusive ranges of consecutive registers.
fn ranges(used: &[u16]) -> Vec<RangeInclusive<u16>> {
    let mut out: Vec<RangeInclusive<u16>> = Vec::new();
    for &n in used {
        match out.last_mut() {
            Some(r) if *r.end() == n || r.end().checked_add(1) == Some(n) => *r = *r.start()..=n,
            _ => out.push(n..=n),
        }
    }
    out
}

impl Reflection {
    fn new(program: &Program, sig: &Signature) -> Reflection {
        let constants = |c: &crate::analysis::ConstantUse| ConstantReflection {
            ranges: ranges(&c.used),
            relative: c.relative,
            relative_bases: c.relative_bases.clone(),
            defined: c.defined.clone(),
        };
        Reflection {
            version: sig.version.clone(),
            stage: program.version.kind,
            inputs: sig.inputs.clone(),
            outputs: sig.outputs.clone(),
            float_constants: constants(&sig.float_constants),
            int_constants: constants(&sig.int_constants),
            bool_constants: constants(&sig.bool_constants),
            samplers: sig.samplers.clone(),
            ctab: crate::analysis::ctab_names(program),
            features: sig.features.clone(),
            temps: sig.temps,
        }
    }
}

#[cfg(test)]
mod tests;
