//! The validator against the shared corpora: every shader a Windows runtime accepted passes
//! strict mode, the assembler/D3DX snippets and the bench corpus pass lenient mode, and every
//! `invalid/` example is rejected with the rule its `.why` names.
//!
//! Skips (saying so) when `../shared` is absent.

use std::path::Path;

use d3d9_shader::bytecode::decode;
use d3d9_shader::validate::{validate, Api, Rule, ValidationOptions};
use d3d9_tests::{hex_files, is_invalid, parse_hex, shared_dir};

/// Folders of snippets never given to the runtime: lenient mode only.
const NOT_RUNTIME: [&str; 2] = ["wine-d3dcompiler-asm", "wine-d3dx9-shader"];

fn folder(path: &Path, corpus: &Path) -> String {
    path.strip_prefix(corpus).unwrap().components().next().unwrap().as_os_str().to_string_lossy().into_owned()
}

fn api_of(folder: &str) -> Api {
    if folder.starts_with("wine-d3d8-") {
        Api::D3d8
    } else {
        Api::D3d9
    }
}

/// The INDEX.tsv `test_function` of a corpus file (the folder's index names it by stem).
fn test_function(path: &Path) -> String {
    let index = path.parent().unwrap().join("INDEX.tsv");
    let stem = path.file_stem().unwrap().to_string_lossy();
    let text = std::fs::read_to_string(index).unwrap_or_default();
    text.lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == stem)
        .map(|f| f[4].to_string())
        .unwrap_or_default()
}

/// `wine-d3d8-device/ps_2_0_code` is the same token stream as `wine-d3d8-device/invalid/ps_2_0`:
/// d3d8's `test_validate_ps` holds it to show that ps_2_0 is refused, and the folder's INDEX
/// lists it as valid by mistake. It is checked as what it is: valid Direct3D 9, refused by
/// Direct3D 8.
const D3D8_MISLABELED: &str = "wine-d3d8-device/ps_2_0_code.hex";

fn tokens(path: &Path) -> Vec<u32> {
    parse_hex(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn runtime_accepted_corpus_passes_strict_and_lenient() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not found");
        return;
    };
    let corpus = shared.join("corpus");
    let mut failures = vec![];
    let mut checked = 0;
    for path in hex_files(&corpus).into_iter().filter(|p| !is_invalid(p)) {
        let f = folder(&path, &corpus);
        let program = decode(&tokens(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rel = path.strip_prefix(&corpus).unwrap().display().to_string();
        if rel == D3D8_MISLABELED {
            assert!(validate(&program, &ValidationOptions::strict()).is_ok());
            assert!(validate(&program, &ValidationOptions::strict().with_api(Api::D3d8)).has_error(Rule::Api));
            continue;
        }
        let strict = !NOT_RUNTIME.contains(&f.as_str());
        // Shaders of wine's software-vertex-processing tests ran on such a device.
        let swvp = test_function(&path).contains("software");
        let modes = if strict {
            vec![ValidationOptions::strict(), ValidationOptions::lenient()]
        } else {
            vec![ValidationOptions::lenient()]
        };
        for options in modes {
            let r = validate(&program, &ValidationOptions { swvp, ..options.with_api(api_of(&f)) });
            checked += 1;
            for e in &r.errors {
                failures.push(format!("{} ({:?}): {e}", path.strip_prefix(&corpus).unwrap().display(), options.mode));
            }
        }
    }
    assert!(checked > 400, "only {checked} validations ran");
    assert!(failures.is_empty(), "{} errors on valid shaders:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn bench_corpus_passes_lenient() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not found");
        return;
    };
    let bench = shared.join("bench-corpus");
    let mut failures = vec![];
    let files = hex_files(&bench);
    assert!(files.len() > 100);
    for path in files {
        let program = decode(&tokens(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for e in validate(&program, &ValidationOptions::lenient()).errors {
            failures.push(format!("{}: {e}", path.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(failures.is_empty(), "{} errors:\n{}", failures.len(), failures.join("\n"));
}

/// The rule a `.why` text describes; `None` for streams the decoder itself must refuse.
fn expected_rule(why: &str) -> Option<Rule> {
    let w = why.to_lowercase();
    if w.contains("no end token") || w.contains("comment-token length") || w.contains("not walkable") {
        None
    } else if w.contains("d3d8 accepts only") {
        Some(Rule::Api)
    } else if w.contains("defb/defi") {
        // rep, if, defb and defi are not instructions of ps_2_0.
        Some(Rule::Instruction)
    } else if w.contains("dcl_position") {
        Some(Rule::Declaration)
    } else if w.contains(" using c")
        || w.contains(" using b")
        || w.contains(" using i")
        || w.contains("constant")
        || w.contains("index out of range")
    {
        Some(Rule::RegisterIndex)
    } else {
        panic!("no expected rule for .why: {why}")
    }
}

#[test]
fn invalid_examples_are_rejected_with_their_rule() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not found");
        return;
    };
    let corpus = shared.join("corpus");
    let mut count = 0;
    for path in hex_files(&corpus).into_iter().filter(|p| is_invalid(p)) {
        let f = folder(&path, &corpus);
        let why = std::fs::read_to_string(path.with_extension("why")).unwrap();
        let expected = expected_rule(&why);
        count += 1;
        let name = path.strip_prefix(&corpus).unwrap().display().to_string();
        match (decode(&tokens(&path)), expected) {
            (Err(_), None) => {}
            (Err(e), Some(rule)) => panic!("{name}: expected rule {rule}, but decoding failed: {e}"),
            (Ok(_), None) => panic!("{name}: the decoder should refuse this stream ({why})"),
            (Ok(program), Some(rule)) => {
                let r = validate(&program, &ValidationOptions::strict().with_api(api_of(&f)));
                assert!(r.has_error(rule), "{name}: expected an error of rule {rule} ({why}); got {:?}", r.errors);
                // Lenient mode refuses them too when the rule is structural or a constant count.
                if rule.structural() || rule == Rule::RegisterIndex {
                    let r = validate(&program, &ValidationOptions::lenient().with_api(api_of(&f)));
                    assert!(r.has_error(rule), "{name}: lenient mode accepted it");
                }
            }
        }
    }
    assert_eq!(count, 26, "the corpus holds 26 invalid examples");
}

/// The device tests expect the c256 shaders to be accepted under software vertex processing.
#[test]
fn c256_vertex_shaders_pass_with_software_vertex_processing() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not found");
        return;
    };
    for name in ["vs_1_256", "vs_3_256"] {
        let path = shared.join("corpus/wine-d3d9-device/invalid").join(format!("{name}.hex"));
        let program = decode(&tokens(&path)).unwrap();
        let options = ValidationOptions { swvp: true, ..ValidationOptions::strict() };
        let r = validate(&program, &options);
        assert!(r.is_ok(), "{name} under --swvp: {:?}", r.errors);
    }
}

/// Programs the decoder would never produce (any opcode over any operands, operands dropped,
/// instructions shuffled) get diagnostics, never a panic.
#[test]
fn mangled_programs_never_panic() {
    use d3d9_shader::bytecode::{Opcode, Sources};
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not found");
        return;
    };
    let mut runs = 0;
    for path in hex_files(&shared.join("corpus")).into_iter().filter(|p| !is_invalid(p)).step_by(3) {
        let program = decode(&tokens(&path)).unwrap();
        for id in d3d9_shader::bytecode::VersionId::ALL {
            let mut p = program.clone();
            p.version = id.version();
            let _ = validate(&p, &ValidationOptions::strict());
            let _ = validate(&p, &ValidationOptions::lenient());
            runs += 2;
        }
        for i in 0..program.len() {
            for k in 0..3 {
                let mut p = program.clone();
                let op = Opcode::ALL[(i * 7 + k * 31) % Opcode::ALL.len()];
                p.instructions[i].opcode = op;
                if k == 1 {
                    p.instructions[i].src = Sources::new();
                    p.instructions[i].dst = None;
                }
                if k == 2 {
                    p.instructions.swap(i, (i * 13 + 5) % program.len());
                }
                for options in [ValidationOptions::strict(), ValidationOptions::lenient().with_api(Api::D3d8)] {
                    let _ = validate(&p, &options);
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 1000);
}
