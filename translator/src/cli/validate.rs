//! `d3d9-shader validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]`
//!
//! Exit 0 when the shader is valid (warnings on stderr), 1 with the errors (each naming the
//! rule, the instruction index and the token offset), 2 on a usage error.

use clap::{Args, ValueEnum};
use d3d9_shader::validate::{validate, Api, Mode, ValidationOptions};

use super::status::{examples, EXIT_OK, EXIT_REJECTED};

/// `d3d9-shader validate`.
#[derive(Args)]
#[command(
    long_about = "Checks INPUT against the Direct3D 9 runtime's rules. --strict refuses everything \
                  Windows refuses; --lenient (the default) turns what drivers accept into warnings. Each \
                  message names the rule, the instruction and its token offset. Every shader of a header \
                  is checked.\n\nExit status: 0 valid, 1 invalid, 2 usage error.",
    after_help = examples!(
        "d3d9-shader validate shader.pso --strict"
        "d3d9-shader validate old.vso --api d3d8"
        "d3d9-shader validate skinned.vso --swvp    # the limits of software vertex processing"
    )
)]
pub struct ValidateArgs {
    /// A blob, .hex, fxc header or listing; - for stdin.
    input: String,
    /// The Direct3D 9 runtime's rules: refuse everything Windows refuses.
    #[arg(long, overrides_with = "lenient")]
    strict: bool,
    /// What drivers accept is a warning (the default).
    #[arg(long, overrides_with = "strict")]
    lenient: bool,
    /// The runtime whose rules apply.
    #[arg(long, value_enum, default_value_t = ApiArg::D3d9)]
    api: ApiArg,
    /// Software vertex processing: 8192 float constants for vertex shaders, and the _sw models.
    #[arg(long)]
    swvp: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum ApiArg {
    /// Direct3D 9.
    D3d9,
    /// Direct3D 8: up to vs_1_1 and ps_1_4.
    D3d8,
}

pub fn main(args: &ValidateArgs) -> i32 {
    let mut options = ValidationOptions::lenient();
    if args.strict {
        options.mode = Mode::Strict;
    }
    options.api = match args.api {
        ApiArg::D3d9 => Api::D3d9,
        ApiArg::D3d8 => Api::D3d8,
    };
    options.swvp = args.swvp;
    // A header may hold several shaders: each is validated, and any error fails the run.
    let programs = match super::input::load_programs(&args.input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_REJECTED;
        }
    };
    let mut status = EXIT_OK;
    for (program, name) in &programs {
        let result = validate(program, &options);
        for w in &result.warnings {
            eprintln!("{name}: warning {w}");
        }
        for e in &result.errors {
            eprintln!("{name}: error {e}");
        }
        if !result.is_ok() {
            status = EXIT_REJECTED;
        }
    }
    status
}
