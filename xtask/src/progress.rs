//! Progress bars (indicatif) for the long runs: on stderr when it is a terminal, hidden
//! otherwise (piped, redirected, CI), where the commands print plain log lines instead.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps, or a hidden one (it draws nothing) when stderr is not a terminal.
/// `{msg}` shows what runs.
pub fn bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {pos}/{len} {elapsed} (eta {eta}) {wide_msg}") {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar
}

/// Prints a line to stdout without tearing the bar (it is drawn again below the line).
pub fn println(bar: &ProgressBar, line: &str) {
    bar.suspend(|| println!("{line}"));
}
