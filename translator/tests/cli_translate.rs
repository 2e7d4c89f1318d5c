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
    // `-o -` is stdout too, not a file named `-` (run where no such file can be left behind).
    let dir = std::env::temp_dir().join(format!("d3d9-cli-{}-dash", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin().current_dir(&dir).arg("translate").arg(&inp).args(["-o", "-", "--to", "wgsl"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), wgsl);
    assert!(!dir.join("-").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let spv = inp.with_extension("spv");
    let out = bin().arg("translate").arg(&inp).arg("-o").arg(&spv).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // rspirv reads the whole module back; its one entry point is the pixel shader's.
    let module = rspirv::dr::load_bytes(std::fs::read(&spv).unwrap()).unwrap();
    let entry = &module.entry_points[..];
    assert_eq!(entry.len(), 1);
    assert_eq!(entry[0].operands[0].unwrap_execution_model(), rspirv::spirv::ExecutionModel::Fragment);
    assert_eq!(entry[0].operands[2].unwrap_literal_string(), "ps_main");
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

/// vs_2_0 `dcl_position v0; mov oPos, c256`, token by token: version 0xFFFE0200; dcl (opcode
/// 0x1F, two operand tokens) with usage POSITION 0 (bit 31 set, usage 0) and v0 (register type 1
/// in bits 28-30, mask .xyzw); mov (opcode 1) to oPos (type 4, RASTOUT, index 0, mask .xyzw)
/// from c256 (type 2, index 0x100, swizzle .xyzw = 0xE4); end.
const VS_C256: &str = "fffe0200 0200001f 80000000 900f0000 02000001 c00f0000 a0e40100 0000ffff";

#[test]
fn the_keys_swvp_lets_validation_accept_software_vertex_processing_limits() {
    // Hardware vertex processing gives vs_2_0 D3DCAPS9.MaxVertexShaderConst float constants, 256
    // on the default caps (c0-c255); software vertex processing gives every vertex shader 8192,
    // as the `_sw` versions have (validate/version_rules/registers.rs). So c256 is refused
    // without the key and translated with it.
    let inp = std::env::temp_dir().join(format!("d3d9-cli-{}-swvp.hex", std::process::id()));
    std::fs::write(&inp, VS_C256).unwrap();
    let out = bin().arg("translate").arg(&inp).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("c256 is out of range"));
    let out = bin().arg("translate").arg(&inp).args(["--key", "swvp=true"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // The register file past c255 is bound as the software-vertex-processing arrays
    // (`lower`'s binding table: binding 0 holds c0-c4095 when a read may reach past c255).
    let wgsl = String::from_utf8(out.stdout).unwrap();
    assert!(wgsl.contains("array<vec4<f32>, 4096>") && wgsl.contains("[256]"), "{wgsl}");
    // The same from a key file, and through `INPUT OUTPUT`.
    let key = inp.with_extension("toml");
    std::fs::write(&key, "swvp = true\n").unwrap();
    let target = inp.with_extension("wgsl");
    let out = bin().arg(&inp).arg(&target).arg("--key-file").arg(&key).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), wgsl);
    for p in [&inp, &key, &target] {
        let _ = std::fs::remove_file(p);
    }
}
