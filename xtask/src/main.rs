//! `cargo xtask <command>`: the project's tasks. One file per command.

mod bench;
mod bench_folder;
mod conformance;
mod fuzz;
mod fuzz_diff;
mod test;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  test          check prerequisites (installing missing system packages where it can) and run all tests
  bench         time each pipeline stage over a corpus (--folder: folder conversion, 1 thread against all)
  conformance   draw every case on the GPU and the CPU and compare
  sweep         draw every corpus shader with generated inputs, GPU against CPU
  fuzz          feed damaged shaders and text to every entry point: no panic, no hang
  fuzz-diff     draw random valid programs on the GPU and the CPU reference and compare";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let status = match command.as_str() {
        "test" => test::main(rest),
        "bench" => bench::main(rest),
        "conformance" => conformance::main(rest),
        "sweep" => conformance::sweep_main(rest),
        "fuzz" => fuzz::main(rest),
        "fuzz-diff" => fuzz_diff::main(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("xtask: unknown command `{other}`\n\n{USAGE}");
            2
        }
    };
    std::process::exit(status);
}
