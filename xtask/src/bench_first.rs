//! The first translation in a process, which the round-robin timing leaves out with its warm-up
//! round: it also creates what later translations reuse (the validator's and the writers'
//! tables, per-thread state) and runs code and touches data not yet in the caches or even
//! mapped. A program that translates a few shaders at start-up waits for it.
//!
//! Each sample is a fresh process: the bench runs its own binary again with a hidden argument
//! (`--first-of FILE --first-output spirv|wgsl`), and that process reads the raw blob, times its
//! one translation by the user's path ([`crate::bench::to_spirv`], [`crate::bench::to_wgsl`])
//! and prints it. [`PROCESSES`] processes per output, SPIR-V and WGSL in alternation; the
//! median is reported.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use d3d9_shader::ShaderKey;

use crate::bench_peers::Output;
use crate::stats::median;

/// Fresh processes per output.
pub const PROCESSES: usize = 5;

/// The outputs, in the order of [`measure`]'s answer, with their names on the command line.
const OUTPUTS: [(Output, &str); 2] = [(Output::Spirv, "spirv"), (Output::Wgsl, "wgsl")];

/// The output a `--first-output` name means.
pub fn output_named(name: &str) -> Output {
    OUTPUTS.iter().find(|(_, n)| *n == name).map_or(Output::Spirv, |(o, _)| *o)
}

/// The child process: times one translation of the raw blob `file`, the first in this process,
/// and prints `first-translation US`.
pub fn child(file: &Path, output: Output, key: &ShaderKey) -> i32 {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("xtask bench: {}: {e}", file.display());
            return 1;
        }
    };
    let start = Instant::now();
    let ok = output.translate(&bytes, key);
    let us = start.elapsed().as_secs_f64() * 1e6;
    if !ok {
        eprintln!("xtask bench: {} does not translate", file.display());
        return 1;
    }
    println!("first-translation {us}");
    0
}

/// Medians over [`PROCESSES`] fresh processes of the first translation of `bytes` to SPIR-V
/// and to WGSL, in µs, under the `--key` fields `key_fields`.
pub fn measure(bytes: &[u8], key_fields: &[String]) -> Result<[f64; 2], String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the running xtask: {e}"))?;
    let file = std::env::temp_dir().join(format!("xtask-bench-first-{}.bin", std::process::id()));
    std::fs::write(&file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut times = [Vec::new(), Vec::new()];
    let mut result = Ok(());
    'runs: for _ in 0..PROCESSES {
        for (slot, (_, name)) in times.iter_mut().zip(OUTPUTS) {
            let key_args = key_fields.iter().flat_map(|k| ["--key", k.as_str()]);
            let run = Command::new(&exe)
                .args(["bench", "--in-release", "--first-output", name, "--first-of"])
                .arg(&file)
                .args(key_args)
                .output();
            match run.map_err(|e| e.to_string()).and_then(|o| parse_child(&String::from_utf8_lossy(&o.stdout))) {
                Ok(us) => slot.push(us),
                Err(e) => {
                    result = Err(format!("the first-translation process ({name}): {e}"));
                    break 'runs;
                }
            }
        }
    }
    let _ = std::fs::remove_file(&file);
    result.map(|()| times.map(|mut t| median(&mut t)))
}

/// The µs of a child's `first-translation US` line.
fn parse_child(stdout: &str) -> Result<f64, String> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("first-translation ")?.trim().parse().ok())
        .ok_or_else(|| format!("no first-translation line in {stdout:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_child_answers_one_line() {
        assert_eq!(parse_child("first-translation 812.5\n"), Ok(812.5));
        assert!(parse_child("").is_err());
        assert_eq!(output_named("wgsl"), Output::Wgsl);
        assert_eq!(output_named("spirv"), Output::Spirv);
    }
}
