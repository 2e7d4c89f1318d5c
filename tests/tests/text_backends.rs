//! The text backends behind the `msl`, `glsl` and `hlsl` features: every shader of every corpus
//! (../shared/corpus, bench-corpus, real-corpus, real-corpus-xray, corpus-vkd3d, and the
//! project's shaders/asm)
//! translates under the default key, its GLSL 4.50 compiles with `glslangValidator` (Debian's
//! glslang-tools, which `cargo xtask test` installs) with no error, and its MSL and HLSL are
//! written without error. Nothing on this machine compiles MSL or HLSL; naga's writers are the
//! check there.

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::bytecode::{decode, Program, ShaderKind};
use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::{files_with_extension, hex_files, is_invalid, parse_hex, shared_subdir, tool_for_test};

/// (path, program) of every valid shader of the corpora.
fn shaders() -> Vec<(PathBuf, Program)> {
    let mut files = Vec::new();
    for name in ["corpus", "bench-corpus", "real-corpus", "real-corpus-xray", "corpus-vkd3d"] {
        if let Some(dir) = shared_subdir(name) {
            files.extend(hex_files(&dir).into_iter().filter(|p| !is_invalid(p)));
        }
    }
    let mut out: Vec<(PathBuf, Program)> = files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let tokens = parse_hex(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let program = decode(&tokens).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, program)
        })
        .collect();
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("shaders/asm");
    for p in files_with_extension(&own, "asm") {
        let text = std::fs::read_to_string(&p).unwrap();
        let program = d3d9_shader::asm::assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        out.push((p, program));
    }
    out
}

/// Compiles each file (stage from its extension); the files that fail, with glslang's messages.
fn compile_glsl(tool: &str, files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    // Batches keep the process count low; a failing batch is compiled file by file to name the
    // culprits.
    for batch in files.chunks(64) {
        let ok = Command::new(tool).args(batch).output().is_ok_and(|o| o.status.success());
        if ok {
            continue;
        }
        for f in batch {
            let out = Command::new(tool).arg(f).output().expect("glslangValidator runs");
            if !out.status.success() {
                failures.push(format!("{}: {}", f.display(), String::from_utf8_lossy(&out.stdout).trim()));
            }
        }
    }
    failures
}

#[test]
fn every_corpus_shader_has_glsl_that_glslang_compiles_and_msl_and_hlsl() {
    let shaders = shaders();
    assert!(!shaders.is_empty());
    let tool = tool_for_test("text_backends", "glslangValidator", "glslang-tools");
    let tmp = std::env::temp_dir().join(format!("d3d9-glsl-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    let mut glsl_files = Vec::new();
    let key = ShaderKey::default();
    for (i, (path, program)) in shaders.iter().enumerate() {
        let t = match translate(program, &key) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: translate: {e}", path.display()));
                continue;
            }
        };
        for (backend, result) in [("msl", t.to_msl().map(drop)), ("hlsl", t.to_hlsl().map(drop))] {
            if let Err(e) = result {
                failures.push(format!("{}: {backend}: {e}", path.display()));
            }
        }
        match t.to_glsl() {
            Ok(glsl) => {
                let stage = match program.version.kind {
                    ShaderKind::Vertex => "vert",
                    ShaderKind::Pixel => "frag",
                };
                let file = tmp.join(format!("{i:05}.{stage}"));
                std::fs::write(&file, glsl).unwrap();
                glsl_files.push((file, path));
            }
            Err(e) => failures.push(format!("{}: glsl: {e}", path.display())),
        }
    }
    if let Some(tool) = tool {
        let files: Vec<PathBuf> = glsl_files.iter().map(|(f, _)| f.clone()).collect();
        for failure in compile_glsl(tool, &files) {
            let source = glsl_files.iter().find(|(f, _)| failure.starts_with(&*f.display().to_string()));
            let name = source.map_or(String::new(), |(_, p)| p.display().to_string());
            failures.push(format!("{name}: glslangValidator: {failure}"));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("text backends: {} passed, {} failed", shaders.len() - failures.len().min(shaders.len()), failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
