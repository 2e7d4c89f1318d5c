//! `d3d9-shader disasm INPUT [--keep-comments]`: prints the assembly listing.

use clap::Args;
use d3d9_shader::asm::{write_program, DisasmOptions};

use super::input::load_programs;
use super::status::{examples, write_stdout, EXIT_REJECTED};

/// `d3d9-shader disasm`.
#[derive(Args)]
#[command(after_help = examples!(
    "d3d9-shader disasm shader.pso"
    "d3d9-shader disasm shader.pso --keep-comments > shader.asm"
    "d3d9-shader disasm shaders.h            # every array, each under a // NAME line"
))]
pub struct DisasmArgs {
    /// A blob, .hex, fxc header or listing; - for stdin.
    input: String,
    /// Write comment blocks as .comment/.dw lines, so that the listing assembles to the exact blob.
    #[arg(long)]
    keep_comments: bool,
}

pub fn main(args: &DisasmArgs) -> i32 {
    let options = DisasmOptions { keep_comments: args.keep_comments };
    let programs = match load_programs(&args.input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    let several = programs.len() > 1;
    let mut text = String::new();
    for (program, name) in &programs {
        if several {
            text.push_str(&format!("// {name}\n"));
        }
        if write_program(&mut text, program, &options).is_err() {
            // Writing to a String fails only if a Display impl does; say so rather than panic.
            eprintln!("d3d9-shader: {name}: cannot write the listing");
            return EXIT_REJECTED;
        }
    }
    write_stdout(text.as_bytes())
}
