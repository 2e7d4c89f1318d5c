//! `d3d9-shader disasm` (in progress).

pub fn main(_args: &[String]) -> i32 {
    eprintln!("d3d9-shader: this command is not implemented yet");
    super::EXIT_USAGE
}
