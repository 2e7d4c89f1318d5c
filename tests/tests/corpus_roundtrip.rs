//! Every valid corpus shader decodes and re-encodes token for token.

use d3d9_shader::bytecode::{decode, encode};
use d3d9_tests::{hex_files, is_invalid, parse_hex, shared_dir};

#[test]
fn corpus_decodes_and_encodes_exactly() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let mut failures = Vec::new();
    let mut count = 0;
    for dir in ["corpus", "bench-corpus"] {
        for path in hex_files(&shared.join(dir)) {
            if is_invalid(&path) {
                continue;
            }
            count += 1;
            let tokens = parse_hex(&std::fs::read_to_string(&path).unwrap()).unwrap();
            match decode(&tokens) {
                Ok(p) => {
                    let again = encode(&p);
                    if again != tokens {
                        failures.push(format!("{}: re-encoding differs", path.display()));
                    }
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(count > 500, "expected the corpora, found {count} shaders");
    assert!(failures.is_empty(), "{} of {count} failed:\n{}", failures.len(), failures.join("\n"));
}
