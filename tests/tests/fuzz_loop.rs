//! Thousands of damaged shaders and texts, deterministically: decoding, disassembling and
//! assembling never panic or hang, every mutant that decodes prints a listing, and every listing
//! assembles back to the mutant's tokens (comment blocks aside, and exactly when kept).
//! The mutation engine is `d3d9_shader::fuzz`.

use d3d9_shader::asm::{assemble, disassemble, DisasmOptions};
use d3d9_shader::bytecode::{decode, encode, encode_with, stream_length};
use d3d9_shader::fuzz::{mutate, mutate_text, random_text, Layout, Rng};
use d3d9_tests::{hex_files, is_invalid, parse_hex, shared_dir};

/// Shaders to mutate: the corpora when present, else a few written here.
fn seeds() -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    if let Some(shared) = shared_dir() {
        for path in hex_files(&shared.join("corpus")) {
            if let Ok(t) = parse_hex(&std::fs::read_to_string(&path).unwrap()) {
                if !is_invalid(&path) {
                    out.push(t);
                }
            }
        }
    } else {
        eprintln!("../shared not present: fuzzing the built-in seeds only");
    }
    for text in [
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ndef c0, 1, 0, -0, 0x7fc00001\ntexld r0, t0, s0\nmov_sat oC0, r0\n",
        "vs_3_0\ndcl_position v0\ndcl_texcoord1 o3\ndefi i0, 4, 0, 1, 0\nloop aL, i0\nmov o[aL + 1], c[aL + 2]\nendloop\nsetp_gt p0, v0, c0\n(!p0.x) add r0, -r0_abs, c0\n",
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0_bx2\ntexm3x2tex t2, t0\nadd_x2 r0.rgb, t2, 1-v0\n+mov r0.a, v0_bias\n",
        "vs_1_1\ndcl_position v0\nmov a0.x, v0.x\nmov oPos, c[a0.x + 4]\n",
    ] {
        out.push(encode(&assemble(text).expect("seed text assembles")));
    }
    out
}

/// The seed and case count: fixed by default, `D3D9_FUZZ_SEED` / `D3D9_FUZZ_CASES` for longer runs.
fn settings(default_seed: u64, default_cases: usize) -> (u64, usize) {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    (var("D3D9_FUZZ_SEED").unwrap_or(default_seed), var("D3D9_FUZZ_CASES").map_or(default_cases, |c: u64| c as usize))
}

fn check_round_trip(tokens: &[u32], case: &str) {
    let Ok(program) = decode(tokens) else { return };
    // The decoder keeps every bit: re-encoding gives the stream back up to its end token.
    let len = stream_length(tokens).expect("decoded streams have a length");
    assert_eq!(encode(&program), tokens[..len], "{case}: decode/encode is not exact");
    for keep_comments in [false, true] {
        let text = disassemble(&program, &DisasmOptions { keep_comments });
        let again = assemble(&text).unwrap_or_else(|e| panic!("{case}: listing does not assemble: {e}\n{text}"));
        let expected = if keep_comments { encode(&program) } else { encode_with(&program, false) };
        assert_eq!(encode(&again), expected, "{case}: listing assembles to other tokens\n{text}");
    }
}

#[test]
fn mutated_token_streams() {
    let seeds = seeds();
    let layouts: Vec<Layout> = seeds.iter().map(|s| Layout::of(s)).collect();
    let (seed, cases) = settings(0xD3D9, 20_000);
    let mut rng = Rng::new(seed);
    let mut decoded = 0;
    for case in 0..cases {
        let k = rng.below(seeds.len());
        let mutant = mutate(&seeds[k], &layouts[k], &mut rng);
        decoded += decode(&mutant).is_ok() as usize;
        check_round_trip(&mutant, &format!("case {case} (seed shader {k})"));
    }
    eprintln!("{cases} mutants, {decoded} decoded");
    assert!(decoded > cases / 20, "the mutations should leave some streams decodable ({decoded})");
    assert!(decoded < cases, "the mutations should break some streams");
}

#[test]
fn random_and_damaged_text() {
    let seeds = seeds();
    let (seed, cases) = settings(0xA5A5, 10_000);
    let mut rng = Rng::new(seed);
    let mut assembled = 0;
    for case in 0..cases {
        let text = if case % 2 == 0 {
            let pieces = 1 + rng.below(60);
            random_text(&mut rng, pieces)
        } else {
            let k = rng.below(seeds.len());
            let listing = disassemble(&decode(&seeds[k]).unwrap(), &DisasmOptions::default());
            mutate_text(&listing, &mut rng)
        };
        if let Ok(p) = assemble(&text) {
            assembled += 1;
            check_round_trip(&encode(&p), &format!("text case {case}"));
        }
    }
    eprintln!("{cases} texts, {assembled} assembled");
    assert!(assembled > 100, "damaged listings should often still assemble ({assembled})");
}

#[test]
fn damaged_inputs_of_every_format() {
    use d3d9_shader::input::load;
    let seeds = seeds();
    let (seed, cases) = settings(0x1F1F, 4000);
    let mut rng = Rng::new(seed);
    let mut loaded = 0;
    for case in 0..cases {
        let k = rng.below(seeds.len());
        let tokens = &seeds[k];
        let text = match case % 4 {
            0 => tokens.iter().flat_map(|t| t.to_le_bytes()).map(char::from).collect::<String>(),
            1 => tokens.iter().map(|t| format!("{t:08x}")).collect::<Vec<_>>().join(" "),
            2 => format!(
                "#if 0\n// listing\n#endif\nconst DWORD g_{k}[] = {{ {} }};\n",
                tokens.iter().map(|t| format!("0x{t:08x}")).collect::<Vec<_>>().join(", ")
            ),
            _ => disassemble(&decode(tokens).unwrap(), &DisasmOptions::default()),
        };
        let bytes: Vec<u8> = if case % 4 == 0 {
            // The blob itself, damaged at the byte level.
            let mut b: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(b.len());
                b[i] = rng.next_u32() as u8;
            }
            if rng.one_in(4) {
                b.truncate(rng.below(b.len() + 1));
            }
            b
        } else {
            mutate_text(&text, &mut rng).into_bytes()
        };
        // The content decides the format (no extension); nothing may panic.
        if let Ok(shaders) = load(&bytes, "") {
            loaded += 1;
            for s in shaders {
                check_round_trip(&s.tokens, &format!("input case {case}"));
            }
        }
    }
    eprintln!("{cases} inputs, {loaded} loaded");
    assert!(loaded > cases / 10, "damaged inputs should often still load ({loaded})");
}
