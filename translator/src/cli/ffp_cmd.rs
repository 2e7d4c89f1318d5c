//! `d3d9-shader ffp STATE.toml [-o OUT] [--to FORMAT] [--mode keyed|uniform]`: generates the
//! fixed-function pair for a state written as TOML with the case format's names
//! (docs/case-format.md, "Fixed-function state"): the vertex half to OUT's stem + `.vs` +
//! extension and the pixel half to `.ps`, or both on stdout. In the uniform-driven mode
//! (docs/layers.md#fixed-function) the halves serve every state of their interface, and the state
//! block each one reads is written beside it as hex words (`.vs.state.hex`, `.ps.state.hex`).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use d3d9_shader::emit;
use d3d9_shader::ffp::{self, state_toml::keys_from_toml, FfpShader, PixelKey, VertexKey};

use super::convert::Format;
use super::status::{examples, write_stdout, EXIT_OK, EXIT_REJECTED};

/// `d3d9-shader ffp`.
#[derive(Args)]
#[command(after_help = examples!(
    "d3d9-shader ffp state.toml -o ffp.wgsl    # ffp.vs.wgsl and ffp.ps.wgsl"
    "d3d9-shader ffp state.toml -o ffp.spv --mode uniform    # and ffp.vs.state.hex, ffp.ps.state.hex"
    "d3d9-shader ffp state.toml --to spvasm"
    "d3d9-shader ffp state.toml"
))]
pub struct FfpArgs {
    /// The state: render states, elements or fvf, lights, textures, texture stages.
    state: PathBuf,
    /// Output name; its extension picks the format unless --to does [default: stdout].
    #[arg(short, long = "output", value_name = "OUT")]
    out: Option<PathBuf>,
    /// Output format: wgsl, spv, spvasm, msl, glsl, hlsl [default: OUT's extension, else wgsl].
    #[arg(long, value_name = "FORMAT")]
    to: Option<Format>,
    /// Code specialised to the state, or one module per interface driven by a state block.
    #[arg(long, value_enum, default_value_t = Mode::Keyed)]
    mode: Mode,
}

/// `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Specialised to the state (`ffp::generate_vertex`, `generate_pixel`).
    Keyed,
    /// Driven by the state block (`ffp::generate_vertex_uniform`, `generate_pixel_uniform`).
    Uniform,
}

/// One generated half: the module, and the state block it reads in the uniform-driven mode.
struct Half {
    shader: FfpShader,
    state: Option<Vec<u8>>,
}

/// The smallest interface that draws `pk`: the textures it samples.
fn pixel_interface(pk: &PixelKey) -> ffp::PixelInterface {
    ffp::PixelInterface { textures: pk.sampled_textures(), flat: pk.flat, varyings: pk.varyings.clone() }
}

fn generate(vk: &VertexKey, pk: &PixelKey, mode: Mode) -> Result<[Half; 2], String> {
    let e = |e: ffp::FfpError| e.to_string();
    Ok(match mode {
        Mode::Keyed => [
            Half { shader: ffp::generate_vertex(vk).map_err(e)?, state: None },
            Half { shader: ffp::generate_pixel(pk).map_err(e)?, state: None },
        ],
        Mode::Uniform => [
            Half { shader: ffp::generate_vertex_uniform(&vk.interface()).map_err(e)?, state: Some(vk.state_bytes()) },
            Half {
                shader: ffp::generate_pixel_uniform(&pixel_interface(pk)).map_err(e)?,
                state: Some(pk.state_bytes()),
            },
        ],
    })
}

fn emit(shader: &FfpShader, format: Format) -> Result<Vec<u8>, String> {
    let (m, a) = (&shader.module, &shader.analysis);
    let e = |e: emit::EmitError| e.to_string();
    Ok(match format {
        Format::Wgsl => emit::wgsl(m, a).map_err(e)?.into_bytes(),
        Format::Spv => emit::spirv(m, a).map_err(e)?.iter().flat_map(|w| w.to_le_bytes()).collect(),
        Format::SpvAsm => super::convert::spirv_assembly(&emit::spirv(m, a).map_err(e)?)?,
        #[cfg(feature = "msl")]
        Format::Msl => emit::msl(m, a.info(m).map_err(e)?).map_err(e)?.into_bytes(),
        #[cfg(feature = "glsl")]
        Format::Glsl => emit::glsl(m, a.info(m).map_err(e)?).map_err(e)?.into_bytes(),
        #[cfg(feature = "hlsl")]
        Format::Hlsl => emit::hlsl(m, a.info(m).map_err(e)?).map_err(e)?.into_bytes(),
        Format::Json | Format::Asm | Format::Hex | Format::Bin => {
            return Err(format!("{} is a format of bytecode, not of generated code", format.extension()))
        }
        #[allow(unreachable_patterns)]
        other => {
            let feature = other.extension().replace("metal", "msl");
            return Err(format!("this build has no {feature} backend (cargo feature `{feature}`)"));
        }
    })
}

/// A state block as hex words, one line of four per 16 bytes (the std140 rows of the WGSL
/// struct the half declares).
fn state_hex(bytes: &[u8]) -> String {
    let words: Vec<String> =
        bytes.chunks(4).map(|c| format!("0x{:08x}", u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))).collect();
    words.chunks(4).map(|row| row.join(" ") + "\n").collect()
}

fn with_stage(out: &Path, stage: &str, ext: &str) -> PathBuf {
    out.with_extension(format!("{stage}.{ext}"))
}

/// Both halves on stdout, each after a comment line (and its state block, as comments).
fn to_stdout(halves: &[Half; 2], bytes: [Vec<u8>; 2], format: Format) -> i32 {
    if format.is_binary() {
        eprintln!("d3d9-shader ffp: {} output needs -o OUT", format.extension());
        return EXIT_REJECTED;
    }
    let comment = if format == Format::SpvAsm { ";" } else { "//" };
    let mut all = Vec::new();
    for ((half, code), name) in halves.iter().zip(bytes).zip(["vertex", "pixel"]) {
        all.extend(format!("{comment} {name} half\n").into_bytes());
        if let Some(state) = &half.state {
            all.extend(format!("{comment} its state block:\n").into_bytes());
            for line in state_hex(state).lines() {
                all.extend(format!("{comment}   {line}\n").into_bytes());
            }
        }
        all.extend(code);
    }
    write_stdout(&all)
}

pub fn main(args: &FfpArgs) -> i32 {
    let fail = |e: String| {
        eprintln!("d3d9-shader ffp: {}: {e}", args.state.display());
        EXIT_REJECTED
    };
    let text = match std::fs::read_to_string(&args.state) {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    let halves =
        match keys_from_toml(&text).map_err(|e| e.to_string()).and_then(|(vk, pk)| generate(&vk, &pk, args.mode)) {
            Ok(h) => h,
            Err(e) => return fail(e),
        };
    let from_out = args.out.as_ref().and_then(|o| o.to_str()).and_then(Format::from_path);
    let format = args.to.or(from_out).unwrap_or(Format::Wgsl);
    let bytes = match (emit(&halves[0].shader, format), emit(&halves[1].shader, format)) {
        (Ok(v), Ok(p)) => [v, p],
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let Some(out) = &args.out else {
        return to_stdout(&halves, bytes, format);
    };
    for ((half, code), stage) in halves.iter().zip(bytes).zip(["vs", "ps"]) {
        let mut files = vec![(with_stage(out, stage, format.extension()), code)];
        if let Some(state) = &half.state {
            files.push((with_stage(out, stage, "state.hex"), state_hex(state).into_bytes()));
        }
        for (path, contents) in files {
            if let Err(e) = std::fs::write(&path, contents) {
                eprintln!("d3d9-shader ffp: cannot write {}: {e}", path.display());
                return EXIT_REJECTED;
            }
        }
    }
    EXIT_OK
}
