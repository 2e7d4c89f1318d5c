//! Every case file of `../shared/conformance` parses under the strict case model (unknown fields
//! are errors) and carries its own file name.

use d3d9_tests::shared_dir;
use gpu_harness::case::{case_files, Case};

#[test]
fn every_shared_case_parses() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared is absent, no shared conformance cases to parse");
        return;
    };
    let files = case_files(&shared.join("conformance")).expect("read ../shared/conformance");
    assert!(files.len() >= 150, "only {} case files found", files.len());
    let mut failures = Vec::new();
    for f in &files {
        match Case::load(f) {
            Ok(case) => {
                let stem = f.file_stem().unwrap().to_string_lossy();
                if case.name != stem {
                    failures.push(format!("{}: name `{}` differs from the file name", f.display(), case.name));
                }
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), files.len(), failures.join("\n"));
}

/// The Windows-measured fixed-function cases (`../shared/conformance-ffp`, docs/case-format.md#fixed-function)
/// parse too: every state, transform, light, stage and probe field they use is known.
#[test]
fn every_shared_fixed_function_case_parses() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared is absent, no fixed-function cases to parse");
        return;
    };
    let files = case_files(&shared.join("conformance-ffp")).expect("read ../shared/conformance-ffp");
    assert!(files.len() >= 120, "only {} fixed-function case files found", files.len());
    let failures: Vec<String> = files.iter().filter_map(|f| Case::load(f).err().map(|e| e.to_string())).collect();
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), files.len(), failures.join("\n"));
}
