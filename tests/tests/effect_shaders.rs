//! Every effect of `../shared/effects` (FNA's stock effects, DigitalRise's engine effects and
//! Wine's test blobs) parses, and every shader stored in one translates under the default key to
//! WGSL that Tint accepts and to SPIR-V that `spirv-val` accepts for Vulkan 1.0. A shader the
//! runtime would refuse (Wine's blob holds a `vs_3_sw`, which only software vertex processing
//! runs) must at least be reported as such, not translated.

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::effect::Effect;
use d3d9_shader::ShaderKey;
use d3d9_tests::tint_check::Checker;
use d3d9_tests::{files_with_extension, parse_hex, shared_for_test, tool_for_test};

fn effect_files() -> Vec<PathBuf> {
    let Some(shared) = shared_for_test("effect_shaders") else { return Vec::new() };
    let dir = shared.join("effects");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    files_with_extension(&dir, "hex")
}

fn load(path: &Path) -> Effect {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let words = parse_hex(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Effect::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_effect_parses_and_its_shaders_translate_to_wgsl_tint_accepts_and_valid_spirv() {
    let files = effect_files();
    if files.is_empty() {
        return;
    }
    assert_eq!(files.len(), 34, "../shared/effects holds 34 effects");
    let checker = Checker::for_test("effect_shaders");
    let val = tool_for_test("effect_shaders", "spirv-val", "spirv-tools");
    let tmp = std::env::temp_dir().join(format!("effect_shaders_{}.spv", std::process::id()));
    let mut checker = checker;
    let (mut shaders, mut refused) = (0, Vec::new());
    let mut failures = Vec::new();
    for path in &files {
        let effect = load(path);
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for (id, s) in effect.shaders() {
            let label = format!("{name} object {id} ({})", s.version);
            let Some(shader) = &s.shader else {
                refused.push(format!("{label}: {}", s.error.as_deref().unwrap_or("")));
                continue;
            };
            shaders += 1;
            let t = match shader.translate(&ShaderKey::default()) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{label}: translate: {e}"));
                    continue;
                }
            };
            match t.to_wgsl() {
                Ok(code) => {
                    let stage = if s.version.starts_with("ps") { "pixel" } else { "vertex" };
                    if let Some(c) = checker.as_mut() {
                        c.module(label.clone(), stage, code).expect("the Tint checker");
                    }
                }
                Err(e) => failures.push(format!("{label}: WGSL: {e}")),
            }
            let words = match t.to_spirv() {
                Ok(w) => w,
                Err(e) => {
                    failures.push(format!("{label}: SPIR-V: {e}"));
                    continue;
                }
            };
            if let Some(val) = val {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&tmp, bytes).expect("temp file");
                let out = Command::new(val).args(["--target-env", "vulkan1.0"]).arg(&tmp).output().expect("spirv-val");
                if !out.status.success() {
                    failures.push(format!("{label}: spirv-val: {}", String::from_utf8_lossy(&out.stderr)));
                }
            }
        }
    }
    let _ = std::fs::remove_file(&tmp);
    if let Some(c) = checker {
        failures.extend(c.finish("effect shaders").expect("the Tint checker"));
    }
    eprintln!("effect_shaders: {} effects, {shaders} shaders translated; refused: {refused:?}", files.len());
    // Only Wine's vs_3_sw (software vertex processing) may be refused.
    assert!(refused.iter().all(|r| r.contains("vs_3_sw")), "shaders refused: {refused:#?}");
    assert!(shaders > 200, "only {shaders} shaders found");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
