//! `d3d9-shader validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]`
//!
//! Exit 0 when the shader is valid (warnings on stderr), 1 with the errors (each naming the
//! rule, the instruction index and the token offset), 2 on a usage error.

use d3d9_shader::validate::{validate, Api, Mode, ValidationOptions};

const USAGE: &str = "usage: d3d9-shader validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]";

pub fn main(args: &[String]) -> i32 {
    let mut options = ValidationOptions::lenient();
    let mut input = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--strict" => options.mode = Mode::Strict,
            "--lenient" => options.mode = Mode::Lenient,
            "--swvp" => options.swvp = true,
            "--api" => match it.next().map(String::as_str) {
                Some("d3d9") => options.api = Api::D3d9,
                Some("d3d8") => options.api = Api::D3d8,
                other => {
                    eprintln!(
                        "d3d9-shader validate: --api takes d3d9 or d3d8, not {}\n{USAGE}",
                        other.unwrap_or("nothing")
                    );
                    return super::EXIT_USAGE;
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return 0;
            }
            s if s.starts_with("--") => {
                eprintln!("d3d9-shader validate: unknown option {s}\n{USAGE}");
                return super::EXIT_USAGE;
            }
            s => {
                if input.replace(s.to_string()).is_some() {
                    eprintln!("d3d9-shader validate: one INPUT only\n{USAGE}");
                    return super::EXIT_USAGE;
                }
            }
        }
    }
    let Some(input) = input else {
        eprintln!("{USAGE}");
        return super::EXIT_USAGE;
    };
    // A header may hold several shaders: each is validated, and any error fails the run.
    let programs = match super::input::load_programs(&input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return super::EXIT_REJECTED;
        }
    };
    let mut status = super::EXIT_OK;
    for (program, name) in &programs {
        let result = validate(program, &options);
        for w in &result.warnings {
            eprintln!("{name}: warning {w}");
        }
        for e in &result.errors {
            eprintln!("{name}: error {e}");
        }
        if !result.is_ok() {
            status = super::EXIT_REJECTED;
        }
    }
    status
}
