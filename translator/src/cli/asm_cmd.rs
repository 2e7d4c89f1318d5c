//! `d3d9-shader asm INPUT [-o OUT]`: assembles a listing (or converts any input format) into
//! tokens: raw little-endian for `.bin`/`.pso`/`.vso`, hex words for `.hex`, hex on stdout
//! without `-o`.

use d3d9_shader::bytecode::encode;

use super::input::load_programs;
use super::{EXIT_REJECTED, EXIT_USAGE};

const USAGE: &str = "usage: d3d9-shader asm INPUT [-o OUT]
  OUT ending in .bin, .pso or .vso gets raw little-endian tokens, .hex gets hex words;
  without -o the hex words go to stdout. INPUT may be - for stdin.";

/// How the tokens are written.
enum Output {
    Raw(String),
    Hex(String),
    Stdout,
}

pub fn main(args: &[String]) -> i32 {
    let mut input = None;
    let mut output = Output::Stdout;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => {
                let Some(path) = it.next() else {
                    eprintln!("d3d9-shader asm: -o needs a file name\n{USAGE}");
                    return EXIT_USAGE;
                };
                let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
                output = match ext.as_deref() {
                    Some("bin" | "pso" | "vso") => Output::Raw(path.clone()),
                    Some("hex") => Output::Hex(path.clone()),
                    _ => {
                        eprintln!(
                            "d3d9-shader asm: cannot tell the format of `{path}`: name it .bin, .pso, .vso or .hex"
                        );
                        return EXIT_USAGE;
                    }
                };
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return 0;
            }
            s if s.starts_with('-') && s != "-" => {
                eprintln!("d3d9-shader asm: unknown option `{s}`\n{USAGE}");
                return EXIT_USAGE;
            }
            s if input.is_none() => input = Some(s),
            s => {
                eprintln!("d3d9-shader asm: unexpected argument `{s}`\n{USAGE}");
                return EXIT_USAGE;
            }
        }
    }
    let Some(input) = input else {
        eprintln!("{USAGE}");
        return EXIT_USAGE;
    };
    let programs = match load_programs(input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    if programs.len() != 1 {
        eprintln!("d3d9-shader asm: {input} holds {} shaders; give one", programs.len());
        return EXIT_USAGE;
    }
    let tokens = encode(&programs[0].0);
    let (bytes, path) = match output {
        Output::Raw(path) => (tokens.iter().flat_map(|t| t.to_le_bytes()).collect(), Some(path)),
        Output::Hex(path) => (hex_text(&tokens).into_bytes(), Some(path)),
        Output::Stdout => (hex_text(&tokens).into_bytes(), None),
    };
    match path {
        Some(path) => match std::fs::write(&path, bytes) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("d3d9-shader asm: cannot write {path}: {e}");
                EXIT_REJECTED
            }
        },
        None => super::write_stdout(&bytes),
    }
}

/// Hex words, eight to a line, as the corpus `.hex` files hold them.
pub fn hex_text(tokens: &[u32]) -> String {
    let mut out = String::with_capacity(tokens.len() * 9 + 1);
    for (i, t) in tokens.iter().enumerate() {
        out.push_str(&format!("{t:08x}"));
        out.push(if i % 8 == 7 || i + 1 == tokens.len() { '\n' } else { ' ' });
    }
    out
}
