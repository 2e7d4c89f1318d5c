//! Conversion of one input to the bytes of one output format, for every shader it holds: what
//! `d3d9-shader INPUT OUTPUT`, `translate` and folder mode share (the commands themselves are in
//! [`super::translate`], folder mode in [`super::folder`]; this module uses neither).

use std::path::{Path, PathBuf};

use d3d9_shader::bytecode::{decode, encode, Program};
use d3d9_shader::{ParseOptions, Shader, ShaderKey};

use super::diag::{self, Source, Style};
use super::input::{display_name, read_input};

/// An output format: the value of `--to`, or an output file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// WGSL.
    Wgsl,
    /// SPIR-V binary.
    #[value(alias = "spirv")]
    Spv,
    /// SPIR-V assembly (rspirv's disassembly, in process).
    #[value(name = "spvasm")]
    SpvAsm,
    /// Metal (cargo feature `msl`).
    #[value(alias = "metal")]
    Msl,
    /// GLSL 4.50 (cargo feature `glsl`).
    #[value(aliases = ["vert", "frag"])]
    Glsl,
    /// HLSL (cargo feature `hlsl`).
    Hlsl,
    /// Reflection: inputs, outputs, constants, samplers, constant table.
    Json,
    /// Assembly listing.
    Asm,
    /// Hex tokens.
    Hex,
    /// Raw little-endian tokens.
    #[value(aliases = ["pso", "vso"])]
    Bin,
}

impl Format {
    /// The format a file name's extension names.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?;
        clap::ValueEnum::from_str(ext, true).ok()
    }

    /// The extension written in folder mode.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Wgsl => "wgsl",
            Format::Spv => "spv",
            Format::SpvAsm => "spvasm",
            Format::Msl => "metal",
            Format::Glsl => "glsl",
            Format::Hlsl => "hlsl",
            Format::Json => "json",
            Format::Asm => "asm",
            Format::Hex => "hex",
            Format::Bin => "bin",
        }
    }

    /// Binary formats are not written to a terminal's stdout.
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Spv | Format::Bin)
    }
}

/// What every conversion of a run shares.
pub struct Settings {
    pub key: ShaderKey,
    pub parse: ParseOptions,
    pub format: Format,
    pub quiet: bool,
    pub style: Style,
    /// Write the whole translation artifact as JSON (`--emit-json`) instead of the format.
    pub emit_json: bool,
}

/// One shader converted (or not): the bytes or the rendered error (which names the shader).
pub struct Outcome {
    /// The array's name, for inputs holding several shaders.
    pub array: Option<String>,
    pub result: Result<Vec<u8>, String>,
    /// Rendered validator warnings.
    pub warnings: Vec<String>,
}

/// Reads and converts every shader of one input. An input that cannot be read at all gives one
/// failed outcome.
pub fn convert_input(path: &str, settings: &Settings) -> Vec<Outcome> {
    let name = display_name(path);
    let failed = |message: String| vec![Outcome { array: None, result: Err(message), warnings: Vec::new() }];
    let bytes = match read_input(path) {
        Ok(b) => b,
        Err(e) => return failed(settings.style.error(&name, e.strip_prefix(&format!("{name}: ")).unwrap_or(&e))),
    };
    let text = std::str::from_utf8(&bytes).ok();
    let hint = if path == "-" { "" } else { path };
    let shaders = match d3d9_shader::input::load(&bytes, hint) {
        Ok(s) => s,
        Err(e) => {
            let source = Source { text, ..Source::default() };
            return failed(diag::render(settings.style, &name, &e.into(), &source));
        }
    };
    shaders
        .into_iter()
        .map(|s| {
            let shown = match &s.name {
                Some(array) => format!("{name}:{array}"),
                None => name.clone(),
            };
            let mut warnings = Vec::new();
            let result = match decode(&s.tokens) {
                Err(e) => {
                    let source = Source { tokens: Some(&s.tokens), ..Source::default() };
                    Err(diag::render(settings.style, &shown, &e.into(), &source))
                }
                Ok(program) => convert_program(program, &s.tokens, &shown, settings, &mut warnings),
            };
            Outcome { array: s.name, result, warnings }
        })
        .collect()
}

/// Converts one decoded program to the settings' format.
fn convert_program(
    program: Program,
    tokens: &[u32],
    name: &str,
    settings: &Settings,
    warnings: &mut Vec<String>,
) -> Result<Vec<u8>, String> {
    match settings.format {
        Format::Asm => return Ok(d3d9_shader::asm::disassemble(&program, &Default::default()).into_bytes()),
        Format::Hex => return Ok(super::asm_cmd::hex_text(&encode(&program)).into_bytes()),
        Format::Bin => return Ok(encode(&program).iter().flat_map(|t| t.to_le_bytes()).collect()),
        _ => {}
    }
    let copy = program.clone();
    let source = Source { tokens: Some(tokens), program: Some(&copy), ..Source::default() };
    let render = |e: d3d9_shader::Error| diag::render(settings.style, name, &e, &source);
    let shader = Shader::from_program(program, &settings.parse).map_err(render)?;
    if !settings.quiet {
        // A few warnings say what lenient validation let through; a hundred would bury the output.
        const SHOWN: usize = 5;
        let all = shader.warnings();
        warnings
            .extend(all.iter().take(SHOWN).map(|w| diag::render_diagnostic(settings.style, name, w, &source, true)));
        if all.len() > SHOWN {
            let more = format!("{} more warnings (`d3d9-shader validate` lists them all)", all.len() - SHOWN);
            warnings.push(settings.style.warning(name, &more));
        }
    }
    if settings.format == Format::Json {
        let mut json = serde_json::to_string_pretty(shader.reflection())
            .map_err(|e| settings.style.error(name, &e.to_string()))?;
        json.push('\n');
        return Ok(json.into_bytes());
    }
    let t = shader.translate(&settings.key).map_err(render)?;
    let backend = |e: d3d9_shader::emit::EmitError| render(d3d9_shader::TranslateError::from(e).into());
    if settings.emit_json {
        let artifact = d3d9_shader::artifact::Artifact::new(&shader, &settings.key, &t).map_err(backend)?;
        let mut json =
            serde_json::to_string_pretty(&artifact).map_err(|e| settings.style.error(name, &e.to_string()))?;
        json.push('\n');
        return Ok(json.into_bytes());
    }
    let bytes = match settings.format {
        Format::Wgsl => t.to_wgsl().map_err(backend)?.into_bytes(),
        Format::Spv => t.to_spirv_bytes().map_err(backend)?,
        Format::SpvAsm => {
            spirv_assembly(&t.to_spirv().map_err(backend)?).map_err(|e| settings.style.error(name, &e))?
        }
        #[cfg(feature = "msl")]
        Format::Msl => t.to_msl().map_err(backend)?.into_bytes(),
        #[cfg(feature = "glsl")]
        Format::Glsl => t.to_glsl().map_err(backend)?.into_bytes(),
        #[cfg(feature = "hlsl")]
        Format::Hlsl => t.to_hlsl().map_err(backend)?.into_bytes(),
        other => {
            let feature = other.extension().replace("metal", "msl");
            return Err(settings
                .style
                .error(name, &format!("this build has no {feature} backend (cargo feature `{feature}`)")));
        }
    };
    Ok(bytes)
}

/// SPIR-V assembly, disassembled in process by rspirv (no external tool at run time).
pub(super) fn spirv_assembly(words: &[u32]) -> Result<Vec<u8>, String> {
    use rspirv::binary::Disassemble;
    let module = rspirv::dr::load_words(words).map_err(|e| format!("reading back the SPIR-V: {e}"))?;
    let mut text = module.disassemble();
    text.push('\n');
    Ok(text.into_bytes())
}

/// The file an input's shader goes to: OUT itself, or OUT with the array name before the
/// extension when the input holds several shaders.
pub fn output_path(out: &Path, array: Option<&str>, several: bool) -> PathBuf {
    match array {
        Some(array) if several => {
            let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let name = match out.extension() {
                Some(ext) => format!("{stem}.{array}.{}", ext.to_string_lossy()),
                None => format!("{stem}.{array}"),
            };
            out.with_file_name(name)
        }
        _ => out.to_path_buf(),
    }
}
