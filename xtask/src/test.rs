//! `cargo xtask test` (in progress).

pub fn main(_args: &[String]) -> i32 {
    eprintln!("xtask: test is not implemented yet");
    2
}
