//! Disassembly and assembly over the corpora: every valid shader's listing assembles back into
//! its tokens (comment blocks dropped by default, kept exactly with `keep_comments`).

use d3d9_shader::asm::{assemble, disassemble, DisasmOptions};
use d3d9_shader::bytecode::{decode, encode, encode_with};
use d3d9_tests::{shared_dir, valid_corpus_shaders};

#[test]
fn corpus_listings_reassemble_to_the_same_tokens() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let mut failures = Vec::new();
    let mut count = 0;
    for (path, tokens) in valid_corpus_shaders(&shared) {
        count += 1;
        let program = decode(&tokens).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for keep_comments in [false, true] {
            let text = disassemble(&program, &DisasmOptions { keep_comments });
            let expected = if keep_comments { tokens.clone() } else { encode_with(&program, false) };
            match assemble(&text) {
                Ok(p) if encode(&p) == expected => {}
                Ok(p) => failures.push(format!(
                    "{} (keep_comments {keep_comments}): tokens differ\n{text}\n{:08x?}\n{:08x?}",
                    path.display(),
                    encode(&p),
                    expected
                )),
                Err(e) => failures.push(format!("{} (keep_comments {keep_comments}): {e}\n{text}", path.display())),
            }
        }
    }
    assert!(count > 500, "expected the corpora, found {count} shaders");
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}
