//! `cargo xtask bench` (in progress).

pub fn main(_args: &[String]) -> i32 {
    eprintln!("xtask: bench is not implemented yet");
    2
}
