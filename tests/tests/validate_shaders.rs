//! The project's own validator examples: `shaders/invalid/*.asm` must be refused by strict
//! validation with an error containing the text of their first line (`// expect: <text>`),
//! and `shaders/valid/*.asm` (the programs exactly at each limit) must be accepted.
//!
//! `_sw` vertex shaders are validated with software vertex processing, which those models need.

use std::path::{Path, PathBuf};

use d3d9_shader::asm::assemble;
use d3d9_shader::validate::{validate, ValidationOptions};

fn shader_files(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("shaders").join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    files.sort();
    files
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap();
    let expect =
        text.lines().next().and_then(|l| l.strip_prefix("// expect: ")).ok_or("first line is not `// expect: ...`")?;
    let program = assemble(&text).map_err(|e| format!("does not assemble: {e}"))?;
    let swvp = program.version.is_vertex() && program.version.is_sw();
    let r = validate(&program, &ValidationOptions { swvp, ..ValidationOptions::strict() });
    if expect == "valid" {
        return if r.is_ok() { Ok(()) } else { Err(format!("expected valid, got {:?}", r.errors)) };
    }
    if r.errors.iter().any(|e| e.message.contains(expect)) {
        Ok(())
    } else {
        Err(format!("expected an error containing {expect:?}, got {:?}", r.errors))
    }
}

#[test]
fn invalid_examples_are_refused_with_their_message() {
    let files = shader_files("invalid");
    assert!(files.len() >= 50, "only {} examples", files.len());
    let failures: Vec<String> =
        files.iter().filter_map(|p| check(p).err().map(|e| format!("{}: {e}", p.display()))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn examples_at_the_limits_are_accepted() {
    let files = shader_files("valid");
    assert!(files.len() >= 25, "only {} examples", files.len());
    let failures: Vec<String> =
        files.iter().filter_map(|p| check(p).err().map(|e| format!("{}: {e}", p.display()))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
