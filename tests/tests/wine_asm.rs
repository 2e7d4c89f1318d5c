//! The reference assembler's pairs: every `wine-d3dcompiler-asm/*.asm` assembles to the tokens in
//! its `.hex`, except the listed ones (each with its reason), so the list cannot grow unseen.

use d3d9_shader::asm::assemble_tokens;
use d3d9_tests::{parse_hex, shared_dir};

/// Pairs that are known not to match, and why. Keep this list short and honest.
const UNMATCHED: &[(&str, &str)] =
    &[("preproc_test_2", "uses `#define` with a line continuation: the assembler has no C preprocessor")];

#[test]
fn reference_assembler_pairs_match() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let dir = shared.join("corpus/wine-d3dcompiler-asm");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".asm").map(str::to_string))
        .collect();
    names.sort();
    let mut mismatched = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
        let expected = parse_hex(&std::fs::read_to_string(dir.join(format!("{name}.hex"))).unwrap()).unwrap();
        match assemble_tokens(&text) {
            Ok(tokens) if tokens == expected => {}
            Ok(tokens) => mismatched.push((name.clone(), format!("tokens {tokens:08x?}, expected {expected:08x?}"))),
            Err(e) => mismatched.push((name.clone(), e.to_string())),
        }
    }
    for (name, why) in &mismatched {
        let known = UNMATCHED.iter().find(|(n, _)| n == name).map_or("NOT LISTED", |(_, r)| r);
        eprintln!("unmatched {name}: {why}\n    listed reason: {known}");
    }
    let matched = names.len() - mismatched.len();
    eprintln!("{matched} of {} pairs match", names.len());
    assert!(names.len() >= 180, "expected the 184 pairs, found {}", names.len());
    let got: Vec<&str> = mismatched.iter().map(|(n, _)| n.as_str()).collect();
    let listed: Vec<&str> = UNMATCHED.iter().map(|(n, _)| *n).collect();
    assert_eq!(got, listed, "the unmatched pairs differ from the list");
    assert!(matched * 100 >= names.len() * 97, "only {matched} of {} match", names.len());
}
