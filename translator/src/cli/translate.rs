//! The converting commands: `d3d9-shader INPUT OUTPUT` (the output format from OUTPUT's
//! extension, as naga-cli does) and `d3d9-shader translate INPUT|DIR|FILE... ` (one input to a
//! file or stdout, or many in parallel through [`super::folder`]). The conversion itself is
//! [`super::convert`].

use std::num::NonZeroUsize;
use std::path::Path;

use clap::{ArgMatches, Args};
use d3d9_shader::validate::Mode;
use d3d9_shader::{ParseOptions, ShaderKey};

use super::convert::{convert_input, output_path, Format, Outcome, Settings};
use super::diag::Style;
use super::status::{examples, usage_error, write_stdout, Status, EXIT_OK, EXIT_REJECTED};

const KEY_HELP: &str = "Device state the translation depends on (repeatable). Fields:
float_rules=strict|fast|ieee  alpha_func=never|less|equal|lessequal|greater|notequal|greaterequal|always
fog=none|vertex|linear|exp|exp2  fog_source=z|w  clip_planes=MASK  point_size=BOOL  point_sprite=BOOL
point_expansion=off|list|strip (vertex shaders: points drawn as quads, for WebGPU)
flat_shading=BOOL  swvp=BOOL (software vertex processing: also lets validation accept its limits)
shadow_samplers=MASK  unbound_samplers=MASK  fetch4_samplers=MASK (AMD GET4)  projected=MASK  projected<N>=0..4  sampler<N>=2d|cube|volume
finite_constants=BOOL  normalised_samplers=MASK (strict rules: facts of the draw that spare zero guards)
bool_constants=MASK (b0-b15)  int<N>=COUNT,START,STEP[,W] (i0-i15; both read only under --deliver ..._constants=baked)";

/// The options both converting commands take.
#[derive(Args)]
pub struct ConvertOptions {
    /// The output format [default: the output file's extension; wgsl on stdout].
    #[arg(long, value_name = "FORMAT", ignore_case = true)]
    to: Option<Format>,
    #[arg(long = "key", value_name = "FIELD=VALUE", value_parser = key_field, long_help = KEY_HELP,
          help = "Device state the translation depends on (repeatable; --help lists the fields)")]
    key: Vec<String>,
    /// The same fields as a TOML table (float_rules = "fast", clip_planes = 3); with --key, each
    /// applies in command-line order.
    #[arg(long = "key-file", value_name = "FILE.toml", value_parser = key_file)]
    key_file: Vec<KeyFile>,
    /// How a render-state mode reaches the code (repeatable): FIELD=baked|override|uniform, FIELD
    /// one of all, alpha_func, fog, fog_source, clip_planes, unbound_samplers, projected,
    /// bool_constants, int_constants. Override: a WGSL `override` set at pipeline creation;
    /// uniform: read from the render-state block (the constants: from their buffers). Either way
    /// one translation serves every value of the field [default: baked; the constants uniform].
    #[arg(long = "deliver", value_name = "FIELD=MODE", value_parser = deliver_field)]
    deliver: Vec<String>,
    /// Write the whole translation as JSON: cache hash, WGSL, SPIR-V (none with overrides),
    /// overrides, binding layout, interface and reflection (`d3d9_shader::artifact::Artifact`).
    #[arg(long)]
    emit_json: bool,
    /// Validate as the Direct3D 9 runtime does (refuse everything Windows refuses).
    #[arg(long, overrides_with = "lenient")]
    strict: bool,
    /// Translate what drivers accept, with a warning (the default).
    #[arg(long, overrides_with = "strict")]
    lenient: bool,
    /// No warnings, progress bar or summary; errors only.
    #[arg(short, long)]
    quiet: bool,
}

/// `d3d9-shader INPUT OUTPUT [options]`.
#[derive(Args)]
pub struct PairArgs {
    /// The shader: a raw blob (.bin .pso .vso .cso .fxo), hex words (.hex), an fxc /Fh header
    /// (.h), an assembly listing (.asm .vsh .psh), or - for stdin.
    #[arg(required = true)]
    input: Option<String>,
    /// The output file, its extension naming the format (- for stdout, with --to).
    #[arg(required = true)]
    output: Option<String>,
    #[command(flatten)]
    options: ConvertOptions,
}

const TRANSLATE_AFTER_HELP: &str = concat!(
    "Folder mode (a folder, or several files): every shader file under the folder (recursively) is
converted on all cores; outputs mirror the input tree under OUTDIR with the new extension (named
files land in OUTDIR by file name). A header's arrays become NAME.ARRAY.EXT.

Exit status: 0 success, 1 an input was rejected (every failure is listed), 2 usage error.

",
    examples!(
        "d3d9-shader translate shader.hex"
        "d3d9-shader translate shader.pso -o shader.spv --key float_rules=ieee"
        "d3d9-shader translate skinned.vso --key swvp=true   # c256 and up: software vertex processing"
        "d3d9-shader translate game/shaders --to wgsl -o out/ --key-file state.toml"
        "d3d9-shader translate *.pso --to spv -o out/"
    )
);

/// `d3d9-shader translate INPUT [options]`, `translate DIR|FILE... --to FORMAT -o OUTDIR`.
#[derive(Args)]
#[command(after_help = TRANSLATE_AFTER_HELP)]
pub struct TranslateArgs {
    /// A shader file (- for stdin), several, or one folder.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// The output file (default: stdout; spv and bin need -o) or, for several inputs, the output
    /// folder.
    #[arg(short, long = "output", value_name = "OUT")]
    out: Option<String>,
    /// Folder mode: worker threads [default: all cores].
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    #[command(flatten)]
    options: ConvertOptions,
}

/// One `--key` value, checked: the assignment as given.
fn key_field(text: &str) -> Result<String, String> {
    ShaderKey::default().set(text).map_err(|e| e.to_string())?;
    Ok(text.to_string())
}

/// One `--deliver` value, checked.
fn deliver_field(text: &str) -> Result<String, String> {
    d3d9_shader::Deliveries::default().set(text)?;
    Ok(text.to_string())
}

/// A `--key-file`, read and checked: its fields as `FIELD=VALUE` assignments.
#[derive(Clone)]
struct KeyFile(Vec<String>);

/// Reads a TOML file of key fields (`fog = "linear"`, `clip_planes = 3`, `point_sprite = true`,
/// `int2 = [3, 0, 1, 0]`: an array of integers is the comma-separated list `--key` takes).
fn key_file(path: &str) -> Result<KeyFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.message().to_string())?;
    let mut fields = Vec::new();
    for (field, value) in &table {
        let value = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::Array(items) => items
                .iter()
                .map(|v| v.as_integer().map(|i| i.to_string()))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("`{field}`: expected an array of integers"))?
                .join(","),
            other => {
                return Err(format!(
                    "`{field}`: expected a string, integer, boolean or integers, not {}",
                    other.type_str()
                ))
            }
        };
        fields.push(key_field(&format!("{field}={value}"))?);
    }
    Ok(KeyFile(fields))
}

impl ConvertOptions {
    /// The key: every `--key` and `--key-file` applied in command-line order (`matches` gives the
    /// order; both were checked while parsing).
    fn key(&self, matches: &ArgMatches) -> Result<ShaderKey, String> {
        let positions = |id: &str| matches.indices_of(id).map(|i| i.collect::<Vec<_>>()).unwrap_or_default();
        let mut assignments: Vec<(usize, &[String])> = Vec::new();
        assignments.extend(positions("key").into_iter().zip(self.key.chunks(1)));
        assignments.extend(positions("key_file").into_iter().zip(self.key_file.iter().map(|f| f.0.as_slice())));
        assignments.sort_by_key(|(at, _)| *at);
        let mut key = ShaderKey::default();
        for field in assignments.iter().flat_map(|(_, fields)| fields.iter()) {
            key.set(field).map_err(|e| e.to_string())?;
        }
        for d in &self.deliver {
            key.delivery.set(d)?;
        }
        Ok(key)
    }

    /// What every conversion of the run shares. Software vertex processing (`swvp` in the key)
    /// changes the validator's limits as well as the lowering's: vs_2_0 and up may read c256-c8191
    /// there, as the `_sw` versions may.
    fn settings(&self, matches: &ArgMatches, format: Format) -> Result<Settings, String> {
        let key = self.key(matches)?;
        let mut parse = ParseOptions::default();
        if self.strict {
            parse.validation.mode = Mode::Strict;
        }
        parse.validation.swvp = key.swvp;
        Ok(Settings { key, parse, format, quiet: self.quiet, style: Style::for_stderr(), emit_json: self.emit_json })
    }
}

/// `d3d9-shader INPUT OUTPUT [options]`.
pub fn pair_main(args: &PairArgs, matches: &ArgMatches) -> Status {
    let (Some(input), Some(output)) = (&args.input, &args.output) else {
        return usage_error(None, "expected INPUT OUTPUT or a command");
    };
    if Path::new(input).is_dir() {
        return usage_error(
            None,
            format!("`{input}` is a folder: use `d3d9-shader translate {input} --to FORMAT -o OUTDIR`"),
        );
    }
    let Some(format) = args.options.to.or_else(|| Format::from_path(output)) else {
        return usage_error(
            None,
            format!("cannot tell the output format from `{output}`: name an extension of --help, or use --to"),
        );
    };
    let settings = match args.options.settings(matches, format) {
        Ok(s) => s,
        Err(e) => return usage_error(None, e),
    };
    // `-` as OUTPUT is stdout (with --to naming the format).
    let output = Some(output.as_str()).filter(|o| *o != "-");
    Ok(write_outcomes(convert_input(input, &settings), output, &settings))
}

/// `d3d9-shader translate INPUT|DIR|FILE... [options]`.
pub fn translate_main(args: &TranslateArgs, matches: &ArgMatches) -> Status {
    let usage = |message: String| usage_error(Some("translate"), message);
    let format = args.options.to.or_else(|| args.out.as_deref().and_then(Format::from_path)).unwrap_or(Format::Wgsl);
    let settings = match args.options.settings(matches, format) {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    let jobs = args.jobs.or_else(|| std::thread::available_parallelism().ok()).map_or(1, NonZeroUsize::get);
    let input = &args.inputs[0];
    if args.inputs.len() > 1 {
        if let Some(dir) = args.inputs.iter().find(|p| Path::new(p).is_dir()) {
            return usage(format!("`{dir}` is a folder: give one folder, or files"));
        }
        let Some(out) = &args.out else {
            return usage("several inputs need -o OUTDIR".into());
        };
        return Ok(super::folder::run(super::folder::Inputs::Files(&args.inputs), Path::new(out), jobs, &settings));
    }
    if Path::new(input).is_dir() {
        let Some(out) = &args.out else {
            return usage("a folder needs -o OUTDIR".into());
        };
        return Ok(super::folder::run(
            super::folder::Inputs::Folder(Path::new(input)),
            Path::new(out),
            jobs,
            &settings,
        ));
    }
    // `-o -` is stdout, as OUTPUT `-` is for the pair form.
    let out = args.out.as_deref().filter(|o| *o != "-");
    if out.is_none() && format.is_binary() {
        return usage(format!("{} output is binary: name a file with -o", format.extension()));
    }
    Ok(write_outcomes(convert_input(input, &settings), out, &settings))
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
            None => match write_stdout(&bytes) {
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
