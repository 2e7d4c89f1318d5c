//! The `d3d9-shader` command line: one file per subcommand.
//!
//! Exit status: 0 success, 1 input rejected (message names the file and the token or line),
//! 2 usage error. A panic is a bug.

mod asm_cmd;
mod convert;
mod diag;
mod disasm;
mod folder;
mod help;
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
usage: d3d9-shader INPUT OUTPUT [options]     convert; OUTPUT's extension picks the format
       d3d9-shader <command> [options] INPUT

OUTPUT: .wgsl .spv .spvasm .metal .glsl/.vert/.frag .hlsl (translations), .json (reflection),
        .asm (listing), .hex or .bin (tokens)

commands (each has --help):
  disasm INPUT [--keep-comments]  print the assembly listing
  asm INPUT.asm [-o OUT]       assemble (OUT: .bin/.pso/.vso raw, .hex words; hex on stdout without -o)
  validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]
  translate INPUT [--to FORMAT] [-o OUT] [--key FIELD=VALUE]... [--key-file F.toml] [--strict]
  translate DIR --to FORMAT -o OUTDIR [--jobs N] [--quiet]   every shader of a folder, in parallel
  info INPUT [--json]
  run INPUT [--input v0=1,2,3,4|t0=..|vPos=x,y|vFace=-1]... [--const c0=...]... [--int i0=...]...
            [--bool b0=true]... [--float-rules strict|fast|ieee] [--json]
                               execute one invocation on the CPU reference interpreter

INPUT: a raw blob, a .hex file, an fxc /Fh header, an .asm listing, or - for stdin.
Exit status: 0 success, 1 input rejected, 2 usage error.

examples:
  d3d9-shader shader.pso shader.wgsl
  d3d9-shader shader.vso shader.spv --key clip_planes=1
  d3d9-shader translate shaders/ --to spv -o out/
  d3d9-shader disasm shader.pso";

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
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        if let Some(text) = help::text(command) {
            println!("{text}");
            return EXIT_OK;
        }
    }
    match command.as_str() {
        "disasm" => disasm::main(rest),
        "asm" => asm_cmd::main(rest),
        "validate" => validate::main(rest),
        "translate" => convert::translate_main(rest),
        "info" => translate::info_main(rest),
        "run" => run::main(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            0
        }
        // naga-cli's convention: INPUT OUTPUT.
        input if !input.starts_with('-') && rest.first().is_some_and(|o| !o.starts_with('-') || o == "-") => {
            convert::pair_main(&args)
        }
        path if std::path::Path::new(path).exists() => {
            eprintln!("d3d9-shader: `{path}`: expected `d3d9-shader INPUT OUTPUT` or a command\n\n{USAGE}");
            EXIT_USAGE
        }
        other => {
            eprintln!("d3d9-shader: unknown command `{other}`\n\n{USAGE}");
            EXIT_USAGE
        }
    }
}
