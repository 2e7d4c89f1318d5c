//! How a command ends: the exit statuses, stdout that a closed pipe does not break, and usage
//! errors found after parsing. A leaf the subcommands share: a usage error is a value that
//! [`super::run`] reports with the command line's definition, so no subcommand names the file
//! that names it (docs/architecture.md#no-circles).

use std::fmt::Display;

/// Exit status for success.
pub const EXIT_OK: i32 = 0;
/// Exit status for a rejected input.
pub const EXIT_REJECTED: i32 = 1;
/// Exit status for a usage error.
pub const EXIT_USAGE: i32 = 2;

/// `Examples:` in the style of clap's own headings (ANSI codes are dropped when stdout is not a
/// terminal or colour is off).
macro_rules! examples {
    ($($line:literal)*) => {
        concat!("\x1b[1m\x1b[4mExamples:\x1b[0m\n", $("  ", $line, "\n",)*)
    };
}
pub(crate) use examples;

/// Writes `bytes` to stdout; a closed pipe (`| head`) is not an error of the input.
pub fn write_stdout(bytes: &[u8]) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("d3d9-shader: cannot write to stdout: {e}");
            EXIT_REJECTED
        }
    }
}

/// What a command that can find a usage error returns: its exit status, or the usage error.
pub type Status = Result<i32, UsageError>;

/// A usage error found after parsing (a check clap cannot express): reported as clap reports its
/// own, with the usage of `subcommand` (the top level for `None`), and exit status 2.
#[derive(Debug)]
pub struct UsageError {
    pub subcommand: Option<&'static str>,
    pub message: String,
}

/// A usage error of `subcommand`.
pub fn usage_error(subcommand: Option<&'static str>, message: impl Display) -> Status {
    Err(UsageError { subcommand, message: message.to_string() })
}
