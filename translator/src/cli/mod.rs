//! The `d3d9-shader` command line: one file per subcommand.
//!
//! Exit status: 0 success, 1 input rejected (message names the file and the token or line),
//! 2 usage error. A panic is a bug.

mod asm_cmd;
mod disasm;
mod input;
mod run;
mod translate;
mod validate;

use std::ffi::OsString;

/// Exit status for success.
pub const EXIT_OK: i32 = 0;
/// Exit status for a rejected input.
pub const EXIT_REJECTED: i32 = 1;
/// Exit status for a usage error.
pub const EXIT_USAGE: i32 = 2;

const USAGE: &str = "\
usage: d3d9-shader <command> [options] INPUT

commands:
  disasm INPUT [--keep-comments]  print the assembly listing
  asm INPUT.asm [-o OUT]       assemble (OUT: .bin/.pso/.vso raw, .hex words; hex on stdout without -o)
  validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]
  translate INPUT [--to wgsl|spv|spvasm|msl|glsl|hlsl] [-o OUT] [--key FIELD=VALUE]...
  info INPUT [--json]
  run INPUT [--input v0=1,2,3,4|t0=..|vPos=x,y|vFace=-1]... [--const c0=...]... [--int i0=...]...
            [--bool b0=true]... [--float-rules strict|fast|ieee] [--json]
                               execute one invocation on the CPU reference interpreter

INPUT: a raw blob, a .hex file, an fxc /Fh header, an .asm listing, or - for stdin.";

/// Writes `bytes` to stdout; a closed pipe (`| head`) is not an error of the input.
pub fn write_stdout(bytes: &[u8]) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("d3d9-shader: cannot write to stdout: {e}");
            EXIT_REJECTED
        }
    }
}

/// Runs the tool with the arguments after the program name; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    let args: Vec<String> = match args.into_iter().map(|a| a.into_string()).collect() {
        Ok(a) => a,
        Err(bad) => {
            eprintln!("d3d9-shader: argument is not valid UTF-8: {bad:?}");
            return EXIT_USAGE;
        }
    };
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return EXIT_USAGE;
    };
    match command.as_str() {
        "disasm" => disasm::main(rest),
        "asm" => asm_cmd::main(rest),
        "validate" => validate::main(rest),
        "translate" => translate::main(rest),
        "info" => translate::info_main(rest),
        "run" => run::main(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("d3d9-shader: unknown command `{other}`\n\n{USAGE}");
            EXIT_USAGE
        }
    }
}
