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
