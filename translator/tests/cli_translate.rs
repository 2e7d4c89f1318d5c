//! The built `d3d9-shader translate` and `info` commands on a small shader.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
}

/// ps_2_0: def c0, 1, 0.5, 0.25, 1 / mov oC0, c0.
const PS: &str = "ffff0200 05000051 a00f0000 3f800000 3f000000 3e800000 3f800000 02000001 800f0800 a0e40000 0000ffff";

fn input(test: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("d3d9-cli-{}-{test}.hex", std::process::id()));
    std::fs::write(&p, PS).unwrap();
    p
}

#[test]
fn translate_to_wgsl_and_spirv_and_info_json() {
    let inp = input("formats");
    let out = bin().args(["translate"]).arg(&inp).args(["--to", "wgsl"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let wgsl = String::from_utf8(out.stdout).unwrap();
    assert!(wgsl.contains("@fragment") && wgsl.contains("fn ps_main"), "{wgsl}");
    let spv = inp.with_extension("spv");
    let out = bin().arg("translate").arg(&inp).arg("-o").arg(&spv).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&spv).unwrap();
    assert_eq!(&bytes[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
    let out = bin().arg("info").arg(&inp).arg("--json").output().unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["version"], "ps_2_0");
    assert_eq!(json["outputs"][0]["register"], "oC0");
    let _ = std::fs::remove_file(&spv);
    let _ = std::fs::remove_file(&inp);
}

#[test]
fn bad_key_and_bad_input_fail_with_status() {
    let inp = input("errors");
    let out = bin().arg("translate").arg(&inp).args(["--key", "fog=sideways"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let bad = inp.with_extension("bad.hex");
    std::fs::write(&bad, "ffff0200 12345678").unwrap();
    let out = bin().arg("translate").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.is_empty());
    let _ = std::fs::remove_file(&bad);
    let _ = std::fs::remove_file(&inp);
}
