//! Every SM2/SM3 shader of ../shared/corpus, ../shared/bench-corpus and ../shared/real-corpus-xray
//! (a shipped game's renderer) translates (lenient),
//! passes naga's validator, re-parses as WGSL (written by the project's writer, never naga's
//! fallback), and its SPIR-V passes `spirv-val` for Vulkan 1.0
//! (the default SPIR-V version is 1.0, which every Vulkan device loads).

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::bytecode::decode;
use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::{hex_files, is_invalid, parse_hex, shared_dir};

/// The tests build the library with the `full-validation` feature (tests/Cargo.toml), so every
/// translation they make passes all of naga's checks (a release build runs none) and proves the
/// writers' facts equal naga's analysis.
#[test]
fn the_tests_run_every_naga_check() {
    assert_eq!(
        d3d9_shader::emit::TRANSLATION_FLAGS,
        naga::valid::ValidationFlags::all(),
        "tests/Cargo.toml lost the full-validation feature"
    );
}

fn corpus_shaders() -> Option<Vec<PathBuf>> {
    let shared = shared_dir()?;
    let mut files = hex_files(&shared.join("corpus"));
    files.extend(hex_files(&shared.join("bench-corpus")));
    files.extend(hex_files(&shared.join("real-corpus-xray")));
    Some(files.into_iter().filter(|p| !is_invalid(p)).collect())
}

fn spirv_val() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin/spirv-val");
    if p.exists() {
        return Some(p);
    }
    let found = Command::new("spirv-val").arg("--version").output().ok()?;
    found.status.success().then(|| PathBuf::from("spirv-val"))
}

fn check(path: &Path, spirv_val: Option<&Path>, tmp: &Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let tokens = parse_hex(&text)?;
    let program = decode(&tokens).map_err(|e| format!("decode: {e}"))?;
    for (name, key) in keys() {
        let t = translate(&program, &key).map_err(|e| format!("translate ({name}): {e}"))?;
        let wgsl = t.to_wgsl().map_err(|e| format!("{name}: {e}"))?;
        // The project's writer writes every translation: naga's (the fallback) is never used.
        let own = d3d9_shader::emit::wgsl_own(&t.module, t.facts()).map_err(|e| format!("{name}: {e}"))?;
        if own != wgsl {
            return Err(format!("{name}: the WGSL is not the project's writer's"));
        }
        // The same text as naga's writer, line for line, but for the names of the lets naga
        // names after the IR's named expressions (ours are all `_eN`): the same values,
        // computed at the same points.
        let naga_text = d3d9_shader::emit::naga_wgsl(&t.module, t.info().map_err(|e| format!("{name}: {e}"))?)
            .map_err(|e| format!("{name}: {e}"))?;
        if !same_but_let_names(&own, &naga_text) {
            return Err(format!("{name}: the WGSL differs from naga's writer's\n{own}\n{naga_text}"));
        }
        naga::front::wgsl::parse_str(&wgsl)
            .map_err(|e| format!("WGSL re-parse ({name}): {}\n{wgsl}", e.emit_to_string(&wgsl)))?;
        let words = t.to_spirv().map_err(|e| format!("{name}: {e}"))?;
        // Every key's module is within the project's SPIR-V writer (naga's is only a fallback).
        d3d9_shader::emit::spirv::write(&t.module, t.facts(), (1, 0))
            .map_err(|e| format!("{name}: the project's SPIR-V writer refused the module: {e:?}"))?;
        spirv_check(&words, spirv_val, tmp).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(true)
}

/// Whether `ours` is `nagas` with some `let` names changed: lines pair up, and renaming each
/// let naga named differently (everywhere) turns naga's text into ours.
fn same_but_let_names(ours: &str, nagas: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (nagas.lines().collect(), ours.lines().collect());
    if a.len() != b.len() {
        return false;
    }
    let mut renamed = std::collections::HashMap::new();
    for (x, y) in a.iter().zip(&b) {
        if let (Some(nx), Some(ny)) = (let_name(x), let_name(y)) {
            if nx != ny {
                renamed.insert(nx.to_string(), ny.to_string());
            }
        }
    }
    a.iter().zip(&b).all(|(x, y)| renamed.is_empty() || rename(x, &renamed) == *y)
        && (!renamed.is_empty() || ours == nagas)
}

/// The name a `let` line declares.
fn let_name(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("let ").and_then(|r| r.split(' ').next())
}

/// `line` with each identifier in `renamed` replaced.
fn rename(line: &str, renamed: &std::collections::HashMap<String, String>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut word = String::new();
    for c in line.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(renamed.get(&word).map_or(&word, |w| w));
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// The default key, and one turning on every render-state feature WGSL can express.
fn keys() -> [(&'static str, ShaderKey); 2] {
    use d3d9_shader::key::{CompareFunc, FogMode};
    [
        ("default key", ShaderKey::default()),
        (
            "render-state key",
            ShaderKey {
                alpha_func: CompareFunc::Less,
                fog: FogMode::Linear,
                clip_planes: 0x81,
                shadow_samplers: 0x3,
                unbound_samplers: 0x4,
                flat_shading: true,
                ..ShaderKey::default()
            },
        ),
    ]
}

fn spirv_check(words: &[u32], spirv_val: Option<&Path>, tmp: &Path) -> Result<(), String> {
    if let Some(val) = spirv_val {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(tmp, bytes).map_err(|e| e.to_string())?;
        let out =
            Command::new(val).arg("--target-env").arg("vulkan1.0").arg(tmp).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "spirv-val: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(())
}

#[test]
fn every_sm2_sm3_corpus_shader_translates_validates_and_reparses() {
    let Some(files) = corpus_shaders() else {
        eprintln!("SKIPPED: ../shared is absent, corpus translation not checked");
        return;
    };
    let val = spirv_val();
    if val.is_none() {
        if std::env::var_os("REQUIRE_TOOLS").is_some_and(|v| v == "1") {
            panic!("spirv-val is required (REQUIRE_TOOLS=1) but not installed: apt-get install spirv-tools");
        }
        eprintln!("WARNING: spirv-val not found; SPIR-V is not validated (install spirv-tools)");
    }
    let tmp = std::env::temp_dir().join(format!("d3d9-corpus-{}.spv", std::process::id()));
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        match check(f, val.as_deref(), &tmp) {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {}", f.display(), e)),
        }
    }
    let _ = std::fs::remove_file(&tmp);
    eprintln!("{checked} shaders translated, {} failed", failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
    assert!(checked > 300, "expected the corpus to hold hundreds of SM2/SM3 shaders, found {checked}");
}
