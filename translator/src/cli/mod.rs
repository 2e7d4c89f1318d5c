//! Command line front end (in progress).

use std::ffi::OsString;

/// Runs the tool; returns the exit status (0 ok, 1 input rejected, 2 usage error).
pub fn run(_args: Vec<OsString>) -> i32 {
    eprintln!("d3d9-shader: not implemented yet");
    2
}
