//! `d3d9-shader disasm INPUT [--keep-comments]`: prints the assembly listing.

use d3d9_shader::asm::{write_program, DisasmOptions};

use super::input::load_programs;
use super::{EXIT_REJECTED, EXIT_USAGE};

const USAGE: &str = "usage: d3d9-shader disasm INPUT [--keep-comments]
  --keep-comments   write comment blocks as .comment/.dw lines, so the listing assembles to the exact blob";

pub fn main(args: &[String]) -> i32 {
    let mut options = DisasmOptions::default();
    let mut input = None;
    for a in args {
        match a.as_str() {
            "--keep-comments" => options.keep_comments = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return 0;
            }
            s if s.starts_with('-') && s != "-" => {
                eprintln!("d3d9-shader disasm: unknown option `{s}`\n{USAGE}");
                return EXIT_USAGE;
            }
            s if input.is_none() => input = Some(s),
            s => {
                eprintln!("d3d9-shader disasm: unexpected argument `{s}`\n{USAGE}");
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
    let several = programs.len() > 1;
    let mut text = String::new();
    for (program, name) in &programs {
        if several {
            text.push_str(&format!("// {name}\n"));
        }
        write_program(&mut text, program, &options).expect("writing to a String cannot fail");
    }
    super::write_stdout(text.as_bytes())
}
