//! `d3d9-shader run` end to end: a hand-encoded ps_2_0 shader, inputs on the command line, JSON out.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// ps_2_0: def c0, 0.25, 0.5, 0.75, 1; add oC0, c0, t0; texkill t0 (kills when t0 < 0).
const SHADER: &str = "ffff0200\n\
    05000051 a00f0000 3e800000 3f000000 3f400000 3f800000\n\
    03000002 800f0800 a0e40000 b0e40000\n\
    01000041 b00f0000\n\
    0000ffff\n";

fn run(args: &[&str]) -> (i32, String) {
    // One file per call: the tests run in parallel threads of one process.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("d3d9-shader-cli-run-{}-{n}.hex", std::process::id()));
    std::fs::write(&path, SHADER).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
        .arg("run")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn json_outputs_of_a_pixel_shader() {
    // c0 + t0 = (0.25 + 1, 0.5 + 1, 0.75 + 1, 1 + 1).
    let (code, out) = run(&["--input", "t0=1,1,1,1", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"outputs": {"oC0": [1.25, 1.5, 1.75, 2.0]}, "discarded": false}"#);
    // t0 = (−1, 0, 0, 1) (missing components expand as a vertex element): killed.
    let (code, out) = run(&["--input", "t0=-1", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"outputs": {"oC0": [-0.75, 0.5, 0.75, 2.0]}, "discarded": true}"#);
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(run(&["--const", "x0=1"]).0, 2);
    assert_eq!(run(&["--float-rules", "loose"]).0, 2);
    assert_eq!(run(&["--input", "q7=1"]).0, 2);
}
