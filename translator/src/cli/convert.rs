//! Conversion: `d3d9-shader INPUT OUTPUT` (the output format from OUTPUT's extension, as
//! naga-cli does) and `d3d9-shader translate INPUT|DIR ...` (one input to a file or stdout, or a
//! whole folder in parallel: [`super::folder`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use d3d9_shader::bytecode::{decode, encode, Program};
use d3d9_shader::validate::Mode;
use d3d9_shader::{ParseOptions, Shader, ShaderKey};

use super::diag::{self, Source, Style};
use super::input::{display_name, read_input};
use super::{EXIT_OK, EXIT_REJECTED, EXIT_USAGE};

pub const PAIR_USAGE: &str = "\
usage: d3d9-shader INPUT OUTPUT [--key FIELD=VALUE]... [--key-file FILE.toml] [--strict] [--quiet]

The format of OUTPUT follows its extension:
  .wgsl                WGSL                     .spv      SPIR-V binary
  .spvasm              SPIR-V assembly (spirv-dis)
  .metal .msl          Metal (feature msl)      .glsl .vert .frag   GLSL 4.50 (feature glsl)
  .hlsl                HLSL (feature hlsl)      .json     reflection (inputs, outputs, constants, samplers)
  .asm                 assembly listing         .hex      hex tokens      .bin  raw tokens

examples:
  d3d9-shader skin.vso skin.wgsl
  d3d9-shader water.pso water.spv --key fog=linear --key alpha_func=greater
  d3d9-shader shaders.h shaders.json      # a header with several arrays: shaders.ARRAY.json each";

pub const TRANSLATE_USAGE: &str = "\
usage: d3d9-shader translate INPUT [--to FORMAT] [-o OUT] [options]
       d3d9-shader translate DIR --to FORMAT -o OUTDIR [--jobs N] [options]
       d3d9-shader translate FILE FILE... --to FORMAT -o OUTDIR [--jobs N] [options]

  --to FORMAT            wgsl (default), spv, spvasm, msl, glsl, hlsl, json, asm, hex, bin;
                         without --to, OUT's extension decides
  -o OUT                 output file (default: stdout; spv and bin need -o) or, for a folder, the
                         output folder: names mirror the input tree, with the new extension
  --key FIELD=VALUE      device state the translation depends on (repeatable); fields:
                         float_rules=strict|fast|ieee  alpha_func=never|less|equal|lessequal|
                         greater|notequal|greaterequal|always  fog=none|vertex|linear|exp|exp2
                         fog_source=z|w  clip_planes=MASK  point_size=BOOL  point_sprite=BOOL
                         flat_shading=BOOL  swvp=BOOL  shadow_samplers=MASK  unbound_samplers=MASK
                         sampler<N>=2d|cube|volume
  --key-file FILE.toml   the same fields as a TOML table (float_rules = \"fast\", clip_planes = 3)
  --strict               validate as the Direct3D 9 runtime does (default: lenient, which
                         translates what drivers accept and warns)
  --jobs N, -j N         folder mode: worker threads (default: all cores)
  --quiet, -q            no warnings, progress bar or summary; errors only

INPUT: a raw blob (.bin .pso .vso .cso .fxo), hex words (.hex), an fxc /Fh header (.h, one
shader per array), an assembly listing (.asm .vsh .psh), or - for stdin; without a known
extension the content decides. A folder is searched recursively for such files.

Exit status: 0 success, 1 an input was rejected (every failure is listed), 2 usage error.

examples:
  d3d9-shader translate shader.hex
  d3d9-shader translate shader.pso -o shader.spv --key float_rules=ieee
  d3d9-shader translate game/shaders --to wgsl -o out/ --key-file state.toml
  d3d9-shader translate *.pso --to spv -o out/";

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Wgsl,
    Spv,
    SpvAsm,
    Msl,
    Glsl,
    Hlsl,
    Json,
    Asm,
    Hex,
    Bin,
}

impl Format {
    /// The format `--to NAME` names.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "wgsl" => Format::Wgsl,
            "spv" | "spirv" => Format::Spv,
            "spvasm" => Format::SpvAsm,
            "msl" | "metal" => Format::Msl,
            "glsl" | "vert" | "frag" => Format::Glsl,
            "hlsl" => Format::Hlsl,
            "json" => Format::Json,
            "asm" => Format::Asm,
            "hex" => Format::Hex,
            "bin" | "pso" | "vso" => Format::Bin,
            _ => return None,
        })
    }

    /// The format a file name's extension names.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?;
        Format::from_name(ext)
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
    let bytes = match settings.format {
        Format::Wgsl => t.to_wgsl().map_err(backend)?.into_bytes(),
        Format::Spv => t.to_spirv_bytes().map_err(backend)?,
        Format::SpvAsm => spirv_dis(&t.to_spirv().map_err(backend)?).map_err(|e| settings.style.error(name, &e))?,
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

/// SPIR-V assembly through `spirv-dis` (spirv-tools), fed through a pipe.
fn spirv_dis(words: &[u32]) -> Result<Vec<u8>, String> {
    let mut child = Command::new("spirv-dis")
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spvasm needs spirv-dis (spirv-tools) on PATH: {e}"))?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!("spirv-dis: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(out.stdout)
}

/// The options both doors accept, parsed.
pub struct Options {
    pub positional: Vec<String>,
    pub to: Option<String>,
    pub out: Option<String>,
    pub key: ShaderKey,
    pub strict: bool,
    pub quiet: bool,
    pub jobs: Option<usize>,
}

/// Parses the options; `Err` holds the message for a usage error.
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        positional: Vec::new(),
        to: None,
        out: None,
        key: ShaderKey::default(),
        strict: false,
        quiet: false,
        jobs: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match a.as_str() {
            "--to" => o.to = Some(value(a)?),
            "-o" | "--output" => o.out = Some(value(a)?),
            "--key" => o.key.set(&value(a)?).map_err(|e| format!("--key {e}"))?,
            "--key-file" => {
                let file = value(a)?;
                apply_key_file(&mut o.key, &file)?;
            }
            "--strict" => o.strict = true,
            "--lenient" => o.strict = false,
            "-q" | "--quiet" => o.quiet = true,
            "-j" | "--jobs" => {
                let v = value(a)?;
                let n: usize = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--jobs: `{v}` is not a positive number"))?;
                o.jobs = Some(n);
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option `{s}`")),
            s => o.positional.push(s.to_string()),
        }
    }
    Ok(o)
}

/// Applies a TOML file of key fields (`fog = "linear"`, `clip_planes = 3`, `point_sprite = true`).
fn apply_key_file(key: &mut ShaderKey, path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--key-file {path}: {e}"))?;
    let table: toml::Table =
        text.parse().map_err(|e: toml::de::Error| format!("--key-file {path}: {}", e.message()))?;
    for (field, value) in &table {
        let value = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return Err(format!(
                    "--key-file {path}: `{field}`: expected a string, integer or boolean, not {}",
                    other.type_str()
                ))
            }
        };
        key.set(&format!("{field}={value}")).map_err(|e| format!("--key-file {path}: {e}"))?;
    }
    Ok(())
}

fn usage_error(message: &str, usage: &str) -> i32 {
    eprintln!("d3d9-shader: {message}\n\n{usage}");
    EXIT_USAGE
}

fn settings(o: &Options, format: Format) -> Settings {
    let mut parse = ParseOptions::default();
    if o.strict {
        parse.validation.mode = Mode::Strict;
    }
    Settings { key: o.key.clone(), parse, format, quiet: o.quiet, style: Style::for_stderr() }
}

/// `d3d9-shader INPUT OUTPUT [options]`.
pub fn pair_main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{PAIR_USAGE}");
        return EXIT_OK;
    }
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e, PAIR_USAGE),
    };
    let [input, output] = o.positional.as_slice() else {
        return usage_error("expected INPUT OUTPUT", PAIR_USAGE);
    };
    if Path::new(input).is_dir() {
        return usage_error(
            &format!("`{input}` is a folder: use `d3d9-shader translate {input} --to FORMAT -o OUTDIR`"),
            PAIR_USAGE,
        );
    }
    let format = match o.to.as_deref().map(Format::from_name).unwrap_or_else(|| Format::from_path(output)) {
        Some(f) => f,
        None => {
            return usage_error(
                &format!("cannot tell the output format from `{output}`: name an extension below, or use --to"),
                PAIR_USAGE,
            )
        }
    };
    let settings = settings(&o, format);
    // `-` as OUTPUT is stdout (with --to naming the format).
    let output = Some(output.as_str()).filter(|o| *o != "-");
    write_outcomes(convert_input(input, &settings), output, &settings)
}

/// `d3d9-shader translate INPUT|DIR [options]`.
pub fn translate_main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{TRANSLATE_USAGE}");
        return EXIT_OK;
    }
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e, TRANSLATE_USAGE),
    };
    let Some(input) = o.positional.first() else {
        return usage_error("no INPUT", TRANSLATE_USAGE);
    };
    let named = o.to.as_deref().map(|t| Format::from_name(t).ok_or(t));
    let format = match named {
        Some(Ok(f)) => f,
        Some(Err(t)) => return usage_error(&format!("unknown format `{t}`"), TRANSLATE_USAGE),
        None => o.out.as_deref().and_then(Format::from_path).unwrap_or(Format::Wgsl),
    };
    let settings = settings(&o, format);
    let jobs = o.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if o.positional.len() > 1 {
        if let Some(dir) = o.positional.iter().find(|p| Path::new(p).is_dir()) {
            return usage_error(&format!("`{dir}` is a folder: give one folder, or files"), TRANSLATE_USAGE);
        }
        let Some(out) = &o.out else {
            return usage_error("several inputs need -o OUTDIR", TRANSLATE_USAGE);
        };
        return super::folder::run(super::folder::Inputs::Files(&o.positional), Path::new(out), jobs, &settings);
    }
    if Path::new(input).is_dir() {
        let Some(out) = &o.out else {
            return usage_error("a folder needs -o OUTDIR", TRANSLATE_USAGE);
        };
        return super::folder::run(super::folder::Inputs::Folder(Path::new(input)), Path::new(out), jobs, &settings);
    }
    if o.out.is_none() && format.is_binary() {
        return usage_error(&format!("{} output is binary: name a file with -o", format.extension()), TRANSLATE_USAGE);
    }
    write_outcomes(convert_input(input, &settings), o.out.as_deref(), &settings)
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

/// Writes single-input results to OUT (or stdout) and reports failures; the exit status.
fn write_outcomes(outcomes: Vec<Outcome>, out: Option<&str>, settings: &Settings) -> i32 {
    let several = outcomes.len() > 1;
    let mut status = EXIT_OK;
    for o in outcomes {
        for w in &o.warnings {
            eprintln!("{w}");
        }
        let bytes = match o.result {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{e}");
                status = EXIT_REJECTED;
                continue;
            }
        };
        let written = match out {
            Some(out) => {
                let path = output_path(Path::new(out), o.array.as_deref(), several);
                std::fs::write(&path, &bytes)
                    .map_err(|e| settings.style.error(&path.display().to_string(), &format!("cannot write: {e}")))
            }
            None => match super::write_stdout(&bytes) {
                EXIT_OK => Ok(()),
                _ => Err(String::new()),
            },
        };
        if let Err(e) = written {
            if !e.is_empty() {
                eprintln!("{e}");
            }
            status = EXIT_REJECTED;
        }
    }
    status
}
