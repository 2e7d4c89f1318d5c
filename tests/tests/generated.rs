//! The random program generator: deterministic, and every program round-trips through the encoder.

use d3d9_shader::bytecode::{decode, encode};
use d3d9_tests::generate::{generate, versions};

#[test]
fn same_seed_same_program() {
    for v in versions() {
        let a = generate(v, 7).unwrap();
        let b = generate(v, 7).unwrap();
        assert_eq!(a.program, b.program, "{v}");
    }
}

#[test]
fn generated_programs_encode_and_decode() {
    for v in versions() {
        for seed in 0..200 {
            let g = generate(v, seed).unwrap();
            let tokens = encode(&g.program);
            let back = decode(&tokens).unwrap_or_else(|e| panic!("{v} seed {seed}: {e}"));
            assert_eq!(encode(&back), tokens, "{v} seed {seed}");
        }
    }
}

/// Every generated program passes the strict validator (which also tests the validator: where the
/// two disagree, the D3D9 documentation decides which side is wrong).
#[test]
fn generated_programs_pass_the_strict_validator() {
    use d3d9_shader::validate::{validate, ValidationOptions};
    use std::collections::BTreeMap;
    let cases: u64 = std::env::var("D3D9_GENERATE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1500);
    // Each distinct complaint (per version, with its first seed and listing) once.
    let mut failures: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut count = 0;
    for v in versions() {
        let options = ValidationOptions { swvp: v.is_sw(), ..ValidationOptions::strict() };
        for seed in 0..cases {
            let g = generate(v, seed).unwrap();
            let result = validate(&g.program, &options);
            for e in &result.errors {
                count += 1;
                let message = e.to_string();
                let text: String = message.rsplit(": ").next().unwrap_or("").to_string();
                // Group by rule and version: register numbers and positions vary.
                let text: String = text.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
                let key = format!("{v}:{text}");
                let entry = failures.entry(key).or_insert_with(|| {
                    let listing = d3d9_shader::asm::disassemble(&g.program, &Default::default());
                    (0, format!("seed {seed}: {message}\n{listing}"))
                });
                entry.0 += 1;
            }
        }
    }
    let report: Vec<String> = failures.iter().map(|(k, (n, first))| format!("{n} × {k}\n  first: {first}")).collect();
    assert!(failures.is_empty(), "{count} errors in generated programs:\n{}", report.join("\n"));
}
