//! The project's own conformance cases (`shaders/cases/<area>/*.toml`): every case parses under the
//! strict case model, carries the informational fields that make its expectations checkable by a
//! reader (category, rule, confidence and a hand derivation), names shaders that exist, assemble and
//! pass the lenient validator, and together the cases cover every shader version.
//!
//! The draws themselves run in `tests/tests/gpu_cases.rs` (every probe on the CPU reference; on the
//! GPU too when an adapter is present, compared with the CPU image) and in `cargo xtask conformance`,
//! whose default case folder is `shaders/cases/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use d3d9_shader::validate::{validate, ValidationOptions};
use gpu_harness::case::{case_files, Case};

fn shaders_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("shaders")
}

/// Every case with the programs it names, or the reasons it is broken.
fn load_all() -> (Vec<(PathBuf, Case)>, Vec<String>) {
    let root = shaders_dir();
    let files = case_files(&root.join("cases")).expect("read shaders/cases");
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    for f in files {
        match Case::load(&f) {
            Ok(case) => cases.push((f, case)),
            Err(e) => failures.push(e.to_string()),
        }
    }
    (cases, failures)
}

#[test]
fn own_cases_parse_and_carry_their_derivation() {
    let (cases, mut failures) = load_all();
    assert!(cases.len() >= 60, "only {} own cases found", cases.len());
    for (path, case) in &cases {
        let stem = path.file_stem().unwrap().to_string_lossy();
        if case.name != stem {
            failures.push(format!("{}: name `{}` differs from the file name", path.display(), case.name));
        }
        let missing: Vec<&str> = [
            ("category", case.category.is_none()),
            ("rule", case.rule.is_none()),
            ("confidence", case.confidence.is_none()),
            ("derivation", case.derivation.as_deref().is_none_or(|d| d.trim().is_empty())),
        ]
        .into_iter()
        .filter_map(|(field, absent)| absent.then_some(field))
        .collect();
        if !missing.is_empty() {
            failures.push(format!("{}: missing {}", path.display(), missing.join(", ")));
        }
        if case.probes.is_empty() {
            failures.push(format!("{}: no probe", path.display()));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn own_case_shaders_assemble_and_validate() {
    let (cases, mut failures) = load_all();
    let roots = vec![shaders_dir()];
    let mut versions = BTreeSet::new();
    let mut checked = BTreeSet::new();
    for (path, case) in &cases {
        for draw in &case.draws {
            for name in [&draw.vertex_shader, &draw.pixel_shader] {
                if name == "none" || !checked.insert(name.clone()) {
                    continue;
                }
                let program = match gpu_harness::shaders::load(name, &roots) {
                    Ok((_, p)) => p,
                    Err(e) => {
                        failures.push(format!("{}: {e}", path.display()));
                        continue;
                    }
                };
                versions.insert(format!("{}", program.version));
                let options = ValidationOptions { swvp: program.version.is_sw(), ..ValidationOptions::lenient() };
                let v = validate(&program, &options);
                if !v.is_ok() {
                    failures.push(format!("{}: {name}: {:?}", path.display(), v.errors));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    for wanted in [
        "vs_1_1", "vs_2_0", "vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0",
        "ps_2_x", "ps_3_0",
    ] {
        assert!(versions.contains(wanted), "no own case draws a {wanted} shader (versions seen: {versions:?})");
    }
}
