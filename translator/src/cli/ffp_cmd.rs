//! `d3d9-shader ffp STATE.toml [-o OUT]`: generates the fixed-function pair for a state written as
//! TOML with the case format's names (docs/case-format.md, "Fixed-function state"): the vertex
//! half to OUT's stem + `.vs` + extension and the pixel half to `.ps`, or both on stdout.

use std::path::{Path, PathBuf};

use clap::Args;
use d3d9_shader::ffp::{self, state_toml::keys_from_toml, FfpShader};

use super::{examples, EXIT_OK, EXIT_REJECTED};

/// `d3d9-shader ffp`.
#[derive(Args)]
#[command(after_help = examples!(
    "d3d9-shader ffp state.toml -o ffp.wgsl    # ffp.vs.wgsl and ffp.ps.wgsl"
    "d3d9-shader ffp state.toml -o ffp.spv"
    "d3d9-shader ffp state.toml"
))]
pub struct FfpArgs {
    /// The state: render states, elements or fvf, lights, textures, texture stages.
    state: PathBuf,
    /// Output name; its extension picks the format (.wgsl, .spv) [default: WGSL on stdout].
    #[arg(short, long = "output", value_name = "OUT")]
    out: Option<PathBuf>,
}

fn emit(shader: &FfpShader, spirv: bool) -> Result<Vec<u8>, ffp::FfpError> {
    if spirv {
        Ok(shader.to_spirv()?.iter().flat_map(|w| w.to_le_bytes()).collect())
    } else {
        Ok(shader.to_wgsl()?.into_bytes())
    }
}

fn with_stage(out: &Path, stage: &str) -> PathBuf {
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("wgsl");
    out.with_extension(format!("{stage}.{ext}"))
}

pub fn main(args: &FfpArgs) -> i32 {
    let text = match std::fs::read_to_string(&args.state) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("d3d9-shader ffp: {}: {e}", args.state.display());
            return EXIT_REJECTED;
        }
    };
    let result = keys_from_toml(&text).map_err(|e| e.to_string()).and_then(|(vk, pk)| {
        Ok((
            ffp::generate_vertex(&vk).map_err(|e| e.to_string())?,
            ffp::generate_pixel(&pk).map_err(|e| e.to_string())?,
        ))
    });
    let (vs, ps) = match result {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("d3d9-shader ffp: {}: {e}", args.state.display());
            return EXIT_REJECTED;
        }
    };
    let spirv = args.out.as_ref().and_then(|o| o.extension()).is_some_and(|e| e == "spv");
    let (v, p) = match (emit(&vs, spirv), emit(&ps, spirv)) {
        (Ok(v), Ok(p)) => (v, p),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("d3d9-shader ffp: {e}");
            return EXIT_REJECTED;
        }
    };
    let Some(out) = &args.out else {
        let mut all = b"// vertex half\n".to_vec();
        all.extend(v);
        all.extend(b"\n// pixel half\n");
        all.extend(p);
        return super::write_stdout(&all);
    };
    for (bytes, stage) in [(v, "vs"), (p, "ps")] {
        let path = with_stage(out, stage);
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("d3d9-shader ffp: cannot write {}: {e}", path.display());
            return EXIT_REJECTED;
        }
    }
    EXIT_OK
}
