//! Every valid corpus shader decodes and re-encodes token for token.

use d3d9_shader::bytecode::{decode, encode};
use d3d9_tests::{shared_dir, valid_corpus_shaders};

#[test]
fn corpus_decodes_and_encodes_exactly() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let mut failures = Vec::new();
    let mut count = 0;
    for (path, tokens) in valid_corpus_shaders(&shared) {
        count += 1;
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
    assert!(count > 500, "expected the corpora, found {count} shaders");
    assert!(failures.is_empty(), "{} of {count} failed:\n{}", failures.len(), failures.join("\n"));
}
