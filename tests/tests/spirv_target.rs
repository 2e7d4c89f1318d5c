//! The SPIR-V version a Vulkan 1.0 device can load: every shader of ../shared/bench-corpus (its
//! `.bin` blob, what a runtime is handed) translated under the default key gives SPIR-V that
//! `spirv-val --target-env vulkan1.0` accepts, both from `to_spirv()` (the default: the lowest
//! version the module needs) and from `to_spirv_version((1, 0))` (the caller asks for 1.0). The
//! header's version word must say 1.0 (0x0001_0000, SPIR-V specification 2.3 "Physical Layout").
//!
//! The words are the project's own SPIR-V writer's (`emit::spirv`), not naga's fallback.
//!
//! Skips without ../shared or spirv-val, except under REQUIRE_SHARED=1 / REQUIRE_TOOLS=1.

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::{ParseOptions, Shader, ShaderKey};
use d3d9_tests::{files_with_extension, hex_files, is_invalid, parse_hex, shared_for_test, shared_subdir};

/// Word 1 of a SPIR-V 1.0 module: major 1 in bits 16–23, minor 0 in bits 8–15.
const SPIRV_1_0: u32 = 0x0001_0000;

fn spirv_val() -> Option<PathBuf> {
    let found = Command::new("spirv-val").arg("--version").output().ok()?;
    found.status.success().then(|| PathBuf::from("spirv-val"))
}

/// spirv-val, or `None` after saying loudly that the test skips (a failure under REQUIRE_TOOLS=1).
fn spirv_val_for_test() -> Option<PathBuf> {
    let val = spirv_val();
    if val.is_none() {
        assert!(
            std::env::var_os("REQUIRE_TOOLS").is_none_or(|v| v != "1"),
            "REQUIRE_TOOLS=1 but spirv-val is not installed (apt-get install spirv-tools)"
        );
        eprintln!("\n*** SKIPPED spirv_target: spirv-val not found; set REQUIRE_TOOLS=1 to make this a failure ***\n");
    }
    val
}

fn validate(val: &Path, words: &[u32], tmp: &Path) -> Result<(), String> {
    validate_for(val, words, tmp, "vulkan1.0")
}

fn validate_for(val: &Path, words: &[u32], tmp: &Path, env: &str) -> Result<(), String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(tmp, bytes).map_err(|e| e.to_string())?;
    let out = Command::new(val).args(["--target-env", env]).arg(tmp).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!("spirv-val: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn check(path: &Path, val: &Path, tmp: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let shader = Shader::parse(&bytes, &ParseOptions::lenient()).map_err(|e| format!("parse: {e}"))?;
    let t = shader.translate(&ShaderKey::default()).map_err(|e| format!("translate: {e}"))?;
    let default = t.to_spirv().map_err(|e| format!("to_spirv: {e}"))?;
    let asked = t.to_spirv_version((1, 0)).map_err(|e| format!("to_spirv_version((1, 0)): {e}"))?;
    // The words come from the project's own writer, not naga's fallback.
    let own = d3d9_shader::emit::spirv::write(&t.module, t.facts(), (1, 0))
        .map_err(|e| format!("the project's SPIR-V writer refused the module: {e:?}"))?;
    if own != default {
        return Err("to_spirv() did not give the project's writer's words".into());
    }
    for (what, words) in [("default", &default), ("1.0 asked for", &asked)] {
        if words.get(1) != Some(&SPIRV_1_0) {
            return Err(format!("{what}: header version word {:#010x?}, not 1.0", words.get(1)));
        }
    }
    validate(val, &default, tmp).map_err(|e| format!("default: {e}"))?;
    // The same words need no second run of the validator.
    if asked != default {
        validate(val, &asked, tmp).map_err(|e| format!("1.0 asked for: {e}"))?;
    }
    Ok(())
}

#[test]
fn the_bench_corpus_loads_on_vulkan_1_0_by_default_and_when_asked() {
    let Some(_) = shared_for_test("spirv_target") else { return };
    let Some(dir) = shared_subdir("bench-corpus") else { return };
    let Some(val) = spirv_val_for_test() else { return };
    let files: Vec<PathBuf> = files_with_extension(&dir, "bin").into_iter().filter(|p| !is_invalid(p)).collect();
    let tmp = std::env::temp_dir().join(format!("d3d9-spirv-target-{}.spv", std::process::id()));
    let failures: Vec<String> =
        files.iter().filter_map(|f| check(f, &val, &tmp).err().map(|e| format!("{}: {e}", f.display()))).collect();
    let _ = std::fs::remove_file(&tmp);
    assert!(failures.is_empty(), "{} of {} shaders fail:\n{}", failures.len(), files.len(), failures.join("\n\n"));
    // The bench corpus holds 144 shaders; far fewer means the folder was not read.
    assert!(files.len() >= 100, "only {} .bin shaders under {}", files.len(), dir.display());
}

/// A shipped game's renderer (../shared/real-corpus-xray: ps_3_0 and vs_3_0 up to 2,000 tokens,
/// loops with breaks, texldl/texldd, MRT): the default SPIR-V loads on Vulkan 1.0, and the 1.3
/// the caller may ask for (the entry point then lists every global it uses) on Vulkan 1.3.
#[test]
fn the_shipped_game_loads_on_vulkan_1_0_and_1_3() {
    let Some(_) = shared_for_test("spirv_target") else { return };
    let Some(dir) = shared_subdir("real-corpus-xray") else { return };
    let Some(val) = spirv_val_for_test() else { return };
    let files = hex_files(&dir);
    let tmp = std::env::temp_dir().join(format!("d3d9-spirv-target-xray-{}.spv", std::process::id()));
    let check = |path: &Path| -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let tokens = parse_hex(&text)?;
        let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
        let shader = Shader::parse(&bytes, &ParseOptions::lenient()).map_err(|e| format!("parse: {e}"))?;
        let t = shader.translate(&ShaderKey::default()).map_err(|e| format!("translate: {e}"))?;
        let default = t.to_spirv().map_err(|e| format!("to_spirv: {e}"))?;
        validate_for(&val, &default, &tmp, "vulkan1.0").map_err(|e| format!("default: {e}"))?;
        let v13 = t.to_spirv_version((1, 3)).map_err(|e| format!("to_spirv_version((1, 3)): {e}"))?;
        if v13.get(1) != Some(&0x0001_0300) {
            return Err(format!("1.3 asked for: header version word {:#010x?}", v13.get(1)));
        }
        validate_for(&val, &v13, &tmp, "vulkan1.3").map_err(|e| format!("1.3: {e}"))
    };
    let failures: Vec<String> =
        files.iter().filter_map(|f| check(f).err().map(|e| format!("{}: {e}", f.display()))).collect();
    let _ = std::fs::remove_file(&tmp);
    assert!(failures.is_empty(), "{} of {} shaders fail:\n{}", failures.len(), files.len(), failures.join("\n\n"));
    // The folder holds 406 shaders; far fewer means it was not read.
    assert!(files.len() >= 400, "only {} shaders under {}", files.len(), dir.display());
}
