//! Objects: the strings and shaders an effect stores by id (parameters, annotations and states
//! of string, texture and shader type hold an object id), and the resources after the
//! techniques that attach shader code, preshaders, parameter references and array selectors to
//! states.

use serde::Serialize;

use super::error::EffectError;
use super::preshader::{comments, Preshader};
use super::reader::words;
use crate::bytecode::ConstantTable;
use crate::{ParseOptions, Shader};

/// An object slot.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Object {
    /// Absolute byte offset of its data in the blob (`None` when the blob gives it none).
    pub offset: Option<usize>,
    /// Its bytes.
    #[serde(skip)]
    pub data: Vec<u8>,
    /// What it holds.
    pub kind: ObjectKind,
}

/// What an object holds, decided by the type of what refers to it.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ObjectKind {
    /// Nothing refers to it, or it has no data (a texture, a NULL shader).
    #[default]
    Empty,
    /// A string.
    String {
        /// Its text (up to the first NUL).
        text: String,
    },
    /// A vertex or pixel shader.
    Shader(Box<EffectShader>),
}

/// A shader stored in an effect.
#[derive(Clone, Debug, Serialize)]
pub struct EffectShader {
    /// The token stream, version token through end token.
    #[serde(skip)]
    pub tokens: Vec<u32>,
    /// `vs_3_0` etc.
    pub version: String,
    /// The parsed shader, when it decodes and validates (leniently).
    #[serde(skip)]
    pub shader: Option<Shader>,
    /// Why it does not, when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its constant table.
    #[serde(skip)]
    pub constants: Option<ConstantTable>,
    /// The preshader in its `PRES` comment.
    #[serde(skip)]
    pub preshader: Option<Preshader>,
}

const PRES: u32 = u32::from_le_bytes(*b"PRES");

impl EffectShader {
    /// Whether a hardware device creates it: `vs_3_sw`/`ps_3_sw` (minor 255) and the other
    /// software-only versions are refused by a HAL device, so the effect binds no shader.
    pub fn hardware_supported(&self) -> bool {
        self.shader.is_some() && self.tokens.first().is_some_and(|&t| t & 0xff != 0xff)
    }
}

impl EffectShader {
    /// Reads a shader from an object's bytes at absolute offset `offset`.
    pub fn new(data: &[u8], offset: usize) -> Result<EffectShader, EffectError> {
        let tokens = words(data);
        let version_token = *tokens.first().ok_or(EffectError::Truncated {
            offset,
            what: "shader version token",
            needed: 4,
            available: data.len(),
        })?;
        let version = crate::bytecode::Version::from_token(version_token)
            .map_or_else(|| format!("{version_token:#010x}"), |v| v.to_string());
        // One decode serves the constant table and the shader.
        let (shader, error, constants) = match crate::bytecode::decode(&tokens) {
            Ok(program) => {
                let constants = program.constant_table().and_then(Result::ok);
                match Shader::from_program(program, &ParseOptions::lenient()) {
                    Ok(s) => (Some(s), None, constants),
                    Err(e) => (None, Some(e.to_string()), constants),
                }
            }
            Err(e) => (None, Some(crate::Error::from(e).to_string()), None),
        };
        let preshader = match comments(&tokens, offset).into_iter().find(|c| c.0 == PRES) {
            Some((_, at, payload)) => Some(Preshader::parse(payload, at)?),
            None => None,
        };
        Ok(EffectShader { tokens, version, shader, error, constants, preshader })
    }
}
