//! `cargo xtask <command>`: the project's tasks. One file per command, each with its arguments
//! (clap derive); a usage error exits 2, as clap's own do.

// `println!`/`print!` for every module below (macro_rules shadow std's in the modules declared
// after them): std's panic when stdout is closed (`cargo xtask bench | head -1`); these drop
// what cannot be written, so a closed pipe neither panics nor changes the exit status.
macro_rules! println {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
#[allow(unused_macros)]
macro_rules! print {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod alloc_count;
mod bench;
mod bench_code;
mod bench_corpus;
mod bench_draw;
mod bench_ffp;
mod bench_first;
mod bench_folder;
mod bench_gpu;
mod bench_peers;
mod bench_vkd3d;
mod conformance;
mod effects;
mod effects_checks;
mod effects_expect;
mod effects_known;
mod effects_lookup;
mod effects_methods;
mod effects_scenario;
mod effects_setup;
mod fuzz;
mod fuzz_budget;
mod fuzz_diff;
mod fuzz_diff_ffp;
mod gpu_check;
mod gpu_check_parts;
mod gpu_check_report;
mod progress;
mod static_server;
mod stats;
mod test;
mod web;
mod web_bench;
mod web_browser;

use clap::{Parser, Subcommand};

/// `Examples:` in the style of clap's own headings.
macro_rules! examples {
    ($($line:literal)*) => {
        concat!("\x1b[1m\x1b[4mExamples:\x1b[0m\n", $("  ", $line, "\n",)*)
    };
}
pub(crate) use examples;

/// Counts heap calls for `cargo xtask bench` (off unless the bench asks).
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

/// The project's tasks: tests, GPU conformance, benchmarks and fuzzers.
#[derive(Parser)]
#[command(name = "xtask", bin_name = "cargo xtask", after_help = examples!(
    "cargo xtask test"
    "cargo xtask conformance --backend cpu --filter texld"
    "cargo xtask fuzz --iterations 10000 --target translate"
))]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check prerequisites (installing missing system packages where it can) and run all tests.
    Test(test::TestArgs),
    /// Time each pipeline stage over a corpus (--folder: folder conversion, 1 thread against all).
    Bench(bench::BenchArgs),
    /// Draw every case on the GPU and the CPU and compare.
    Conformance(conformance::ConformanceArgs),
    /// Draw every corpus shader with generated inputs, GPU against CPU.
    Sweep(conformance::SweepArgs),
    /// Check the effect reader and run-time against NAME.fx.hex + NAME.expect.toml pairs.
    Effects(effects::EffectsArgs),
    /// Feed damaged shaders and text to every entry point: no panic, no hang.
    Fuzz(fuzz::FuzzArgs),
    /// Draw random valid programs on the GPU and the CPU reference and compare.
    FuzzDiff(fuzz_diff::FuzzDiffArgs),
    /// The one command for a lent GPU: conformance, sweep samples, fuzz-diff and bench --gpu in
    /// bounded time, one report (DIR/report.json, report.html).
    GpuCheck(gpu_check::GpuCheckArgs),
    /// Build the library for the browser and the playground page (--serve, --test, --bench).
    Web(web::WebArgs),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and version exit 0, usage errors 2; a closed stdout is not a failure.
            let _ = e.print();
            std::process::exit(e.exit_code());
        }
    };
    let status = match cli.command {
        Command::Test(a) => test::main(&a),
        Command::Bench(a) => bench::main(&a),
        Command::Conformance(a) => conformance::main(&a),
        Command::Sweep(a) => conformance::sweep_main(&a),
        Command::Effects(a) => effects::main(&a),
        Command::Fuzz(a) => fuzz::main(&a),
        Command::FuzzDiff(a) => fuzz_diff::main(&a),
        Command::GpuCheck(a) => gpu_check::main(&a),
        Command::Web(a) => web::main(&a),
    };
    std::process::exit(status);
}

/// The arguments after `cargo xtask COMMAND`, for a command that runs itself again in another
/// build profile.
pub fn command_args() -> Vec<String> {
    std::env::args().skip(2).collect()
}

/// Runs `cargo xtask COMMAND --in-release ARGS…` again as a release build (`cargo xtask` builds
/// the debug profile); its exit status.
pub fn run_in_release(command: &str) -> i32 {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace");
    let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["run", "--quiet", "--release", "--package", "xtask", "--", command, "--in-release"])
        .args(command_args())
        .status();
    match status {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("xtask: cannot run cargo: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn usage_errors_are_exit_status_2() {
        for args in [
            &["xtask"][..],
            &["xtask", "frobnicate"],
            &["xtask", "conformance", "--backend", "gpx"],
            &["xtask", "fuzz", "--target", "nothing"],
            &["xtask", "fuzz", "--seed", "0xzz"],
            &["xtask", "bench", "--reps", "0"],
            &["xtask", "fuzz-diff", "--version", "ps_9_9"],
            &["xtask", "fuzz-diff", "--minutes", "0"],
            &["xtask", "fuzz-diff", "--minutes", "1", "--count", "5"],
            &["xtask", "gpu-check", "--sample", "0"],
            &["xtask", "gpu-check", "--seed", "x"],
        ] {
            let e = Cli::try_parse_from(args).err().unwrap_or_else(|| panic!("{args:?} parsed"));
            assert_eq!(e.exit_code(), 2, "{args:?}: {e}");
        }
        let e = Cli::try_parse_from(["xtask", "sweep", "--help"]).err().unwrap();
        assert_eq!(e.exit_code(), 0);
    }
}
