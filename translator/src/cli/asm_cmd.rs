//! `d3d9-shader asm INPUT [-o OUT]`: assembles a listing (or converts any input format) into
//! tokens: raw little-endian for `.bin`/`.pso`/`.vso`, hex words for `.hex`, hex on stdout
//! without `-o`.

use clap::Args;
use d3d9_shader::bytecode::encode;

use super::input::load_programs;
use super::status::{examples, usage_error, write_stdout, Status, EXIT_OK, EXIT_REJECTED};

/// `d3d9-shader asm`.
#[derive(Args)]
#[command(after_help = examples!(
    "d3d9-shader asm shader.asm -o shader.pso"
    "d3d9-shader asm shader.pso -o shader.hex"
    "echo 'ps_2_0 mov oC0, c0' | d3d9-shader asm -"
))]
pub struct AsmArgs {
    /// A listing (or any input format: blob, .hex, fxc header); - for stdin.
    input: String,
    /// The output: raw little-endian tokens for .bin, .pso or .vso, hex words for .hex
    /// [default: hex words on stdout].
    #[arg(short, long = "output", value_name = "OUT", value_parser = output)]
    out: Option<Output>,
}

/// Where the tokens go, and how.
#[derive(Clone)]
enum Output {
    Raw(String),
    Hex(String),
}

fn output(path: &str) -> Result<Output, String> {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("bin" | "pso" | "vso") => Ok(Output::Raw(path.to_string())),
        Some("hex") => Ok(Output::Hex(path.to_string())),
        _ => Err("cannot tell the format: name it .bin, .pso, .vso or .hex".into()),
    }
}

pub fn main(args: &AsmArgs) -> Status {
    let programs = match load_programs(&args.input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return Ok(EXIT_REJECTED);
        }
    };
    if programs.len() != 1 {
        return usage_error(Some("asm"), format!("{} holds {} shaders; give one", args.input, programs.len()));
    }
    let tokens = encode(&programs[0].0);
    let (bytes, path) = match &args.out {
        Some(Output::Raw(path)) => (tokens.iter().flat_map(|t| t.to_le_bytes()).collect(), path),
        Some(Output::Hex(path)) => (hex_text(&tokens).into_bytes(), path),
        None => return Ok(write_stdout(hex_text(&tokens).as_bytes())),
    };
    match std::fs::write(path, bytes) {
        Ok(()) => Ok(EXIT_OK),
        Err(e) => {
            eprintln!("d3d9-shader asm: cannot write {path}: {e}");
            Ok(EXIT_REJECTED)
        }
    }
}

/// Hex words, eight to a line, as the corpus `.hex` files hold them.
pub fn hex_text(tokens: &[u32]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(tokens.len() * 9 + 1);
    for (i, t) in tokens.iter().enumerate() {
        let _ = write!(out, "{t:08x}");
        out.push(if i % 8 == 7 || i + 1 == tokens.len() { '\n' } else { ' ' });
    }
    out
}
