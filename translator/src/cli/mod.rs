//! The `d3d9-shader` command line: the arguments (clap derive) here, one file per subcommand.
//!
//! Exit status: 0 success, 1 input rejected (message names the file and the token or line),
//! 2 usage error (clap's own exit status for a usage error is 2 as well). A panic is a bug; so is
//! a panic on a closed stdout (`| head`): everything the tool prints on stdout goes through
//! [`write_stdout`].
//!
//! Module imports run one way: `translate` (the two converting commands) uses `folder` and
//! `convert`; `folder` uses `convert`; `convert` (one input to bytes) uses neither.

mod asm_cmd;
mod convert;
mod diag;
mod disasm;
mod effect;
mod ffp_cmd;
mod folder;
mod info;
mod input;
mod run;
mod status;
mod translate;
mod validate;

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use status::{examples, write_stdout, UsageError};

const AFTER_HELP: &str = concat!(
    "OUTPUT's extension picks the format: .wgsl .spv .spvasm .metal .glsl/.vert/.frag .hlsl
(translations), .json (reflection), .asm (listing), .hex or .bin (tokens); a header with several
arrays gives OUTPUT.ARRAY.EXT for each. `d3d9-shader translate` converts folders, on all cores.

INPUT: a raw blob, a .hex file, an fxc /Fh header, an .asm listing, or - for stdin.
Exit status: 0 success, 1 input rejected, 2 usage error.

",
    examples!(
        "d3d9-shader shader.pso shader.wgsl"
        "d3d9-shader shader.vso shader.spv --key clip_planes=1"
        "d3d9-shader shaders.h shaders.json      # one shaders.ARRAY.json per array"
        "d3d9-shader translate shaders/ --to spv -o out/"
        "d3d9-shader disasm shader.pso"
        "d3d9-shader completions bash > /etc/bash_completion.d/d3d9-shader"
    )
);

/// Direct3D 9 shader bytecode (SM 1.0-3.0) to WGSL, SPIR-V and more.
///
/// `d3d9-shader INPUT OUTPUT` converts one shader (naga-cli's convention); the commands below
/// do the rest.
#[derive(Parser)]
#[command(
    name = "d3d9-shader",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    arg_required_else_help = true,
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    pair: translate::PairArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Print the assembly listing.
    Disasm(disasm::DisasmArgs),
    /// Assemble a listing (or re-encode any input) into tokens.
    Asm(asm_cmd::AsmArgs),
    /// Check a shader against the Direct3D 9 runtime's rules.
    Validate(validate::ValidateArgs),
    /// Translate one shader, several, or a whole folder (in parallel).
    Translate(translate::TranslateArgs),
    /// Print a shader's inputs, outputs, constants, samplers and features.
    Info(info::InfoArgs),
    /// Execute one invocation on the CPU reference interpreter.
    Run(run::RunArgs),
    /// Generate the fixed-function pipeline's vertex and pixel halves for a state file.
    Ffp(ffp_cmd::FfpArgs),
    /// Print an effect's (fx_2_0) structure, or translate all of its shaders.
    Effect(effect::EffectArgs),
    /// Print a shell completion script.
    #[command(after_help = examples!(
        "d3d9-shader completions bash > ~/.local/share/bash-completion/completions/d3d9-shader"
        "d3d9-shader completions zsh > ~/.zfunc/_d3d9-shader"
        "d3d9-shader completions fish > ~/.config/fish/completions/d3d9-shader.fish"
    ))]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// Prints a clap error (or help, or version) and gives its exit status: 0 for help and version,
/// 2 for a usage error. Help goes to stdout, which may be a closed pipe: that is no error.
fn report(error: &clap::Error) -> i32 {
    let _ = error.print();
    error.exit_code()
}

/// Reports a usage error found after parsing, as clap reports its own, with the usage of its
/// subcommand (the top level for none); the exit status (2).
fn report_usage(error: UsageError) -> i32 {
    let mut cli = Cli::command();
    cli.build();
    let mut command = error.subcommand.and_then(|name| cli.find_subcommand(name).cloned()).unwrap_or(cli);
    report(&command.error(ErrorKind::ValueValidation, error.message))
}

/// The exit status of a command that can find a usage error.
fn status(status: status::Status) -> i32 {
    status.unwrap_or_else(report_usage)
}

/// Runs the tool with the arguments after the program name; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    if let [word] = args.as_slice() {
        // One word that is neither a command nor a file: clap alone would ask for OUTPUT.
        let word = word.to_string_lossy();
        let command = Cli::command().get_subcommands().any(|c| c.get_name() == word);
        if !word.starts_with('-') && !command && !std::path::Path::new(&*word).exists() {
            return status(status::usage_error(None, format!("`{word}` is neither a command nor a file")));
        }
    }
    let matches = match Cli::command().try_get_matches_from(std::iter::once(OsString::from("d3d9-shader")).chain(args))
    {
        Ok(m) => m,
        Err(e) => return report(&e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return report(&e),
    };
    let sub = |name: &str| matches.subcommand_matches(name).unwrap_or(&matches);
    match cli.command {
        None => status(translate::pair_main(&cli.pair, &matches)),
        Some(Command::Disasm(a)) => disasm::main(&a),
        Some(Command::Asm(a)) => status(asm_cmd::main(&a)),
        Some(Command::Validate(a)) => validate::main(&a),
        Some(Command::Translate(a)) => status(translate::translate_main(&a, sub("translate"))),
        Some(Command::Info(a)) => info::main(&a),
        Some(Command::Run(a)) => status(run::main(&a)),
        Some(Command::Ffp(a)) => ffp_cmd::main(&a),
        Some(Command::Effect(a)) => effect::main(&a),
        Some(Command::Completions { shell }) => completions(shell),
    }
}

/// `d3d9-shader completions SHELL`: the script clap_complete writes for this command line.
fn completions(shell: clap_complete::Shell) -> i32 {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "d3d9-shader", &mut script);
    write_stdout(&script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
