//! `d3d9-shader effect`: the listing, `--json`, and `--to wgsl -o DIR` (every shader plus
//! `passes.json`), on the hand-built sample effect and, when `../shared` is present, on FNA's
//! BasicEffect (a failure under REQUIRE_SHARED=1 when it is absent).

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
}

/// A folder of the test's own for its files, removed when the test ends: the tests run in
/// parallel in one process, and a shared file could be read while another test rewrites it.
fn folder() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("cli_effect_").tempdir().expect("temp folder")
}

/// The sample effect as hex words in a file in `dir`.
fn sample_hex(dir: &tempfile::TempDir) -> PathBuf {
    let bytes = d3d9_shader::fuzz::sample_effect();
    let text: String =
        bytes.chunks(4).map(|w| format!("{:08x}\n", u32::from_le_bytes([w[0], w[1], w[2], w[3]]))).collect();
    let path = dir.path().join("sample.hex");
    std::fs::write(&path, text).expect("temp file");
    path
}

#[test]
fn the_listing_names_parameters_techniques_and_states() {
    let dir = folder();
    let out = bin().arg("effect").arg(sample_hex(&dir)).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("parameter g_Color : COLOR: VECTOR FLOAT 1x4"), "{text}");
    assert!(text.contains("technique t (1 passes)"), "{text}");
    assert!(text.contains("ZENABLE[0] constant [00000001]"), "{text}");
}

#[test]
fn json_is_the_serialised_effect() {
    let dir = folder();
    let out = bin().args(["effect", "--json"]).arg(sample_hex(&dir)).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["parameters"][0]["name"], "g_Color");
    assert_eq!(v["parameters"][0]["class"], "VECTOR");
    assert_eq!(v["techniques"][0]["passes"][0]["states"][0]["source"]["kind"], "constant");
}

#[test]
fn a_damaged_effect_is_rejected_with_its_byte_offset() {
    let dir = folder();
    let path = dir.path().join("cut.bin");
    std::fs::write(&path, &d3d9_shader::fuzz::sample_effect()[..40]).expect("temp file");
    let out = bin().arg("effect").arg(&path).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(": byte "), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn to_wgsl_writes_every_shader_and_the_passes() {
    let Some(shared) = shared_effect("fna_BasicEffect.fx.hex", "--to is not checked") else { return };
    let scratch = folder();
    let dir = scratch.path();
    let out = bin().arg("effect").arg(&shared).args(["--to", "wgsl", "-o"]).arg(dir).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let passes: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("passes.json")).expect("passes.json")).expect("JSON");
    let shaders = passes["shaders"].as_object().expect("shaders");
    assert!(shaders.len() > 20, "BasicEffect has dozens of shaders");
    for (id, s) in shaders {
        let file = s["file"].as_str().unwrap_or_else(|| panic!("shader {id}: {s}"));
        assert!(dir.join(file).exists() && dir.join(s["spirv"].as_str().unwrap_or("")).exists(), "{file}");
    }
    assert!(!passes["techniques"].as_array().expect("techniques").is_empty());
}

#[test]
fn skip_constants_lists_what_each_technique_still_uses() {
    // g_Color is read by no state and bound by no shader: the list is accepted
    // (docs/effects.md#skip-constants) and g_Color stays unused.
    let dir = folder();
    let out =
        bin().args(["effect", "--skip-constants", " g_Color;other "]).arg(sample_hex(&dir)).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("skip constants: g_Color, other\n"), "{text}");
    assert!(text.contains("technique t uses: \n"), "{text}");
}

/// The effect `name` of the shared data's `effects/` folder (`D3D9_SHARED`, else `../shared` from
/// the repository root, as the other tests find it). Absent, it is a skip said loudly (`unchecked`
/// says what goes unchecked), or a failure under `REQUIRE_SHARED=1` (CI sets it): a skip must not
/// pass for a check.
fn shared_effect(name: &str, unchecked: &str) -> Option<PathBuf> {
    let shared = std::env::var_os("D3D9_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let path = shared.join("effects").join(name);
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("REQUIRE_SHARED").is_none_or(|v| v != "1"), "REQUIRE_SHARED=1 but {path:?} is absent");
    eprintln!("*** cli_effect: {} is absent; {unchecked} on a real effect ***", path.display());
    None
}

#[test]
fn a_skip_list_windows_refuses_is_rejected_and_a_skipped_binding_is_marked() {
    // Wine's `test_effect_clone` blob.
    let Some(clone) = shared_effect("wine_clone.fx.hex", "skip lists are not checked") else { return };
    // vs is read by tech0's VertexShader state: D3DERR_INVALIDCALL on Windows.
    let out = bin().args(["effect", "--skip-constants", "skipped;vs"]).arg(&clone).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("vs is used by technique \"tech0\""), "{err}");
    // `skipped` is bound by register(c4): accepted, and tech1 then uses nothing.
    let dir = folder();
    let out = bin()
        .args(["effect", "--skip-constants", "skipped", "--to", "wgsl", "-o"])
        .arg(dir.path())
        .arg(&clone)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let passes = std::fs::read_to_string(dir.path().join("passes.json")).expect("passes.json");
    let v: serde_json::Value = serde_json::from_str(&passes).expect("JSON");
    let bindings: Vec<_> = v["shaders"]
        .as_object()
        .expect("shaders")
        .values()
        .flat_map(|s| s["constants"].as_array().cloned().unwrap_or_default())
        .collect();
    let skipped = bindings.iter().find(|b| b["name"] == "skipped").expect("the skipped binding");
    assert_eq!(skipped["skipped"], true, "{passes}");
}
