//! `d3d9-shader validate`: exit 0 for a valid shader (warnings on stderr), 1 with the errors
//! (rule, instruction, token), 2 for a usage error.

use std::path::PathBuf;
use std::process::Command;

fn tool() -> Command {
    Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
}

/// `words` as a hex file named `name` in `dir`.
fn hex_file(dir: &tempfile::TempDir, name: &str, words: &[u32]) -> PathBuf {
    let path = dir.path().join(name);
    let text: Vec<String> = words.iter().map(|w| format!("{w:08x}")).collect();
    std::fs::write(&path, text.join("\n")).unwrap();
    path
}

/// A folder of the test's own for its files, removed when the test ends.
fn folder() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("d3d9-validate-cli-").tempdir().unwrap()
}

// ps_2_0: def c32 (out of range: ps_2_0 has c0–c31); dcl v0; add r0, v0, c32; mov oC0, r0 —
// tokens written by hand from the token format: def = 0x05000051, dst c32 = 0xA00F0020;
// dcl = 0x0200001F, usage 0x80000000, v0 = 0x900F0000; add = 0x03000002, r0 = 0x800F0000,
// v0 = 0x90E40000, c32 = 0xA0E40020; mov = 0x02000001, oC0 = 0x800F0800, r0 = 0x80E40000.
const PS20_C32: [u32; 18] = [
    0xFFFF_0200,
    0x0500_0051,
    0xA00F_0020,
    0x3F80_0000,
    0x3F80_0000,
    0x3F80_0000,
    0x3F80_0000,
    0x0200_001F,
    0x8000_0000,
    0x900F_0000,
    0x0300_0002,
    0x800F_0000,
    0x90E4_0000,
    0xA0E4_0020,
    0x0200_0001,
    0x800F_0800,
    0x80E4_0000,
    0x0000_FFFF,
];

#[test]
fn exit_codes_and_messages() {
    let dir = folder();
    let mut valid = PS20_C32;
    valid[2] = 0xA00F_001F; // def c31
    valid[13] = 0xA0E4_001F; // read c31
    let ok = hex_file(&dir, "valid.hex", &valid);
    let out = tool().args(["validate", ok.to_str().unwrap(), "--strict"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));

    let bad = hex_file(&dir, "c32.hex", &PS20_C32);
    let out = tool().args(["validate", bad.to_str().unwrap(), "--strict"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // The def (instruction 0, token 1) and the read (instruction 2, token 10) are both named.
    assert!(err.contains("[register-index] instruction 0 (token 1, byte 4): ps_2_0: c32 is out of range"), "{err}");
    assert!(err.contains("instruction 2 (token 10, byte 40)"), "{err}");

    // A truncated stream is refused by the decoder, also with status 1.
    let cut = hex_file(&dir, "cut.hex", &PS20_C32[..17]);
    assert_eq!(tool().args(["validate", cut.to_str().unwrap()]).status().unwrap().code(), Some(1));

    // Direct3D 8 refuses ps_2_0.
    let out = tool().args(["validate", ok.to_str().unwrap(), "--api", "d3d8"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Direct3D 8 accepts shaders up to ps_1_4"));

    // Usage errors.
    assert_eq!(tool().args(["validate"]).status().unwrap().code(), Some(2));
    assert_eq!(tool().args(["validate", ok.to_str().unwrap(), "--api", "d3d7"]).status().unwrap().code(), Some(2));
    assert_eq!(tool().args(["validate", ok.to_str().unwrap(), "--bogus"]).status().unwrap().code(), Some(2));
}

#[test]
fn lenient_warnings_go_to_stderr_with_status_0() {
    let dir = folder();
    // ps_2_b-style version token 2.2 with the valid body: lenient accepts with a warning.
    let mut words = PS20_C32;
    words[0] = 0xFFFF_0202;
    words[2] = 0xA00F_001F;
    words[13] = 0xA0E4_001F;
    let p = hex_file(&dir, "ps22.hex", &words);
    let out = tool().args(["validate", p.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning [version]"));
    assert_eq!(tool().args(["validate", p.to_str().unwrap(), "--strict"]).status().unwrap().code(), Some(1));
}
