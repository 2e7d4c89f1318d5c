//! `cargo xtask conformance` (in progress).

pub fn main(_args: &[String]) -> i32 {
    eprintln!("xtask: conformance is not implemented yet");
    2
}

pub fn sweep_main(_args: &[String]) -> i32 {
    eprintln!("xtask: sweep is not implemented yet");
    2
}
