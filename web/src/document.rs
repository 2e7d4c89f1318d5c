//! One loaded input as the playground and a JavaScript caller see it: the decoded program, its
//! listing with a line for every instruction, every validation message (errors and warnings,
//! with token and listing line), the reflection, and translations under a key.
//!
//! A program that decodes but fails validation still has a listing and its messages; only
//! translation needs a valid program. This is the native half of the API: `lib.rs` wraps it for
//! wasm-bindgen, and the tests call it directly.

use std::fmt::Write;

use d3d9_shader::asm::disasm::write_instruction;
use d3d9_shader::bytecode::{decode, Program, ShaderKind};
use d3d9_shader::input::{self, Format};
use d3d9_shader::validate::{validate, Diagnostic, ValidationOptions};
use d3d9_shader::{Error, ParseOptions, Shader, ShaderKey, Translation};
use serde::Serialize;

use crate::error::WebError;

/// How to read an input.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The file name, when there is one: its extension names the format (`.hex`, `.h`, `.asm`,
    /// `.pso`…); without one the content decides, as the CLI does.
    pub name: String,
    /// Refuse what the Direct3D 9 runtime refuses (otherwise the library's lenient default).
    pub strict: bool,
    /// Software vertex processing: the validator accepts its larger limits.
    pub swvp: bool,
}

/// One validation message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    /// `error` (the program is refused) or `warning` (lenient mode accepts it).
    pub severity: &'static str,
    /// The library's message.
    pub message: String,
    /// Token index of the instruction at fault (byte offset = 4 × token).
    pub token: Option<u32>,
    /// Index of that instruction in the program.
    pub instruction: Option<usize>,
    /// Its line in [`Document::listing`], from 1.
    pub line: Option<usize>,
}

/// A decoded input.
pub struct Document {
    program: Program,
    format: Format,
    listing: String,
    /// `instruction_lines[i]`: the listing line (from 1) of instruction `i`.
    instruction_lines: Vec<usize>,
    messages: Vec<Message>,
    shader: Option<Shader>,
    options: ParseOptions,
}

impl Document {
    /// Reads, decodes and validates `bytes` (a blob, hex words, an fxc header's first array, or
    /// assembly). Fails only when the input does not read or decode; validation errors are
    /// [`Document::messages`].
    pub fn load(bytes: &[u8], options: &LoadOptions) -> Result<Document, WebError> {
        let loaded = input::load(bytes, &options.name).map_err(|e| WebError::from(Error::Input(e)))?;
        let first = loaded.into_iter().next().ok_or_else(|| WebError::new("input", "no shader in the input"))?;
        let program = decode(&first.tokens).map_err(|e| WebError::from(Error::Decode(e)))?;
        let mut parse = if options.strict { ParseOptions::strict() } else { ParseOptions::lenient() };
        parse.validation.swvp = options.swvp;
        let (listing, instruction_lines) = listing(&program);
        let messages = messages(&program, &parse.validation, &instruction_lines);
        let shader = match messages.iter().any(|m| m.severity == "error") {
            true => None,
            false => Some(Shader::from_program(program.clone(), &parse)?),
        };
        Ok(Document { program, format: first.format, listing, instruction_lines, messages, shader, options: parse })
    }

    /// `vertex` or `pixel`.
    pub fn stage(&self) -> &'static str {
        match self.program.version.kind {
            ShaderKind::Vertex => "vertex",
            ShaderKind::Pixel => "pixel",
        }
    }

    /// The version as the assembler writes it (`ps_2_0`).
    pub fn version(&self) -> String {
        self.program.version.to_string()
    }

    /// How the input was read: `blob`, `hex`, `header` or `asm`.
    pub fn format(&self) -> &'static str {
        match self.format {
            Format::Blob => "blob",
            Format::Hex => "hex",
            Format::Header => "header",
            Format::Asm => "asm",
        }
    }

    /// The disassembly: the version line, then one instruction per line.
    pub fn listing(&self) -> &str {
        &self.listing
    }

    /// The listing line (from 1) of instruction `index`.
    pub fn instruction_line(&self, index: usize) -> Option<usize> {
        self.instruction_lines.get(index).copied()
    }

    /// Every validation message, errors first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Whether the program is valid (it may have warnings).
    pub fn is_valid(&self) -> bool {
        self.shader.is_some()
    }

    /// The token stream of the program.
    pub fn tokens(&self) -> Vec<u32> {
        d3d9_shader::bytecode::encode(&self.program)
    }

    /// The reflection as JSON: the same document as `d3d9-shader info --json`.
    pub fn reflection_json(&self) -> Result<String, WebError> {
        let shader = self.valid()?;
        serde_json::to_string(shader.reflection()).map_err(|e| WebError::new("emit", e.to_string()))
    }

    /// Translates under a key given as `FIELD=VALUE` pairs (the CLI's `--key` fields).
    pub fn translate<'a>(&self, key: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Output, WebError> {
        let key = self.key(key)?;
        Ok(Output { translation: self.valid()?.translate(&key)? })
    }

    fn key<'a>(&self, fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<ShaderKey, WebError> {
        let mut key = ShaderKey::default();
        for (field, value) in fields {
            // `deliver.FIELD = MODE` (the JS key's `deliver: { FIELD: MODE }`), or `deliver =
            // MODE` for every field: the CLI's `--deliver` (docs: `key::delivery`).
            let deliver = match field.strip_prefix("deliver") {
                Some("") => Some(format!("all={value}")),
                Some(rest) => rest.strip_prefix('.').map(|f| format!("{f}={value}")),
                None => None,
            };
            match deliver {
                Some(d) => key.delivery.set(&d).map_err(|e| WebError::new("key", e))?,
                None => key.set(&format!("{field}={value}")).map_err(|e| WebError::new("key", e.to_string()))?,
            }
        }
        if key.swvp && !self.options.validation.swvp {
            // Software vertex processing changes what validation accepts: load with `swvp` so
            // that validation and translation agree (the CLI does the same).
            return Err(WebError::new("key", "swvp=true needs the shader loaded with swvp"));
        }
        Ok(key)
    }

    fn valid(&self) -> Result<&Shader, WebError> {
        self.shader.as_ref().ok_or_else(|| {
            let first = self.messages.iter().find(|m| m.severity == "error");
            let mut e = WebError::new("invalid", first.map_or("the program is invalid".into(), |m| m.message.clone()));
            e.token = first.and_then(|m| m.token).map(|t| t as usize);
            e.line = first.and_then(|m| m.line);
            e
        })
    }
}

/// Translates a vertex and a pixel shader linked: the vertex shader's outputs matched to the pixel
/// shader's inputs by semantic ([`d3d9_shader::link`]), each under its own key.
pub fn translate_pair<'a>(
    vs: &Document,
    ps: &Document,
    vs_key: impl IntoIterator<Item = (&'a str, &'a str)>,
    ps_key: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(Output, Output), WebError> {
    let linkage = d3d9_shader::link(vs.valid()?, ps.valid()?)?;
    let mut vs_key = vs.key(vs_key)?;
    let mut ps_key = ps.key(ps_key)?;
    vs_key.linkage = Some(linkage.clone());
    ps_key.linkage = Some(linkage);
    let vs_out = Output { translation: vs.valid()?.translate(&vs_key)? };
    Ok((vs_out, Output { translation: ps.valid()?.translate(&ps_key)? }))
}

/// One translation.
pub struct Output {
    translation: Translation,
}

impl Output {
    /// WGSL source.
    pub fn wgsl(&self) -> Result<String, WebError> {
        self.translation.to_wgsl().map_err(|e| WebError::new("emit", e.to_string()))
    }

    /// SPIR-V words.
    pub fn spirv(&self) -> Result<Vec<u32>, WebError> {
        self.translation.to_spirv().map_err(|e| WebError::new("emit", e.to_string()))
    }

    /// The SPIR-V module as text (rspirv's disassembly).
    pub fn spirv_text(&self) -> Result<String, WebError> {
        use rspirv::binary::Disassemble;
        let words = self.spirv()?;
        let module = rspirv::dr::load_words(&words).map_err(|e| WebError::new("emit", e.to_string()))?;
        Ok(module.disassemble())
    }

    /// What to bind and where inputs and outputs went, as JSON: `{"layout": …, "interface": …}`.
    pub fn bindings_json(&self) -> Result<String, WebError> {
        #[derive(Serialize)]
        struct Bindings<'a, L: Serialize, I: Serialize> {
            layout: &'a L,
            interface: &'a I,
        }
        let t = &self.translation;
        serde_json::to_string(&Bindings { layout: &t.layout, interface: &t.interface })
            .map_err(|e| WebError::new("emit", e.to_string()))
    }
}

/// The listing, and the line of each instruction in it.
fn listing(program: &Program) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(16 + program.instructions.len() * 28);
    let mut lines = Vec::with_capacity(program.instructions.len());
    let _ = writeln!(out, "{}", program.version);
    for (i, inst) in program.instructions.iter().enumerate() {
        lines.push(i + 2);
        if write_instruction(&mut out, inst, program.version).is_err() {
            out.push_str("// (cannot be written)");
        }
        out.push('\n');
    }
    (out, lines)
}

fn messages(program: &Program, options: &ValidationOptions, lines: &[usize]) -> Vec<Message> {
    let validation = validate(program, options);
    let message = |severity, d: &Diagnostic| Message {
        severity,
        message: d.message.clone(),
        token: d.token,
        instruction: d.instruction,
        line: d.instruction.and_then(|i| lines.get(i).copied()),
    };
    let errors = validation.errors.iter().map(|d| message("error", d));
    errors.chain(validation.warnings.iter().map(|d| message("warning", d))).collect()
}
