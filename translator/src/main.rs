//! The `d3d9-shader` command line tool.

mod cli;

fn main() {
    std::process::exit(cli::run(std::env::args_os().skip(1).collect()));
}
