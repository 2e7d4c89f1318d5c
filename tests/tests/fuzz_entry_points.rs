//! A short, fixed-seed batch of `cargo xtask fuzz`: damaged inputs through every entry point
//! (decode, validate, assemble, disassemble, translate, interpret) must not panic, hang or give
//! an error without a place. `D3D9_FUZZ_CASES` lengthens it.

use d3d9_shader::fuzz::Rng;
use d3d9_tests::fuzz::{quiet_panics, run_case, Seeds, Target};

#[test]
fn every_entry_point_survives_damaged_input() {
    let cases: u64 = std::env::var("D3D9_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(600);
    let seeds = Seeds::load();
    eprintln!("seeds: {}", seeds.origin);
    quiet_panics();
    let mut failures = Vec::new();
    for target in Target::ALL {
        let mut reached = 0;
        for case in 0..cases {
            let mut rng = Rng::new(0x7E57 ^ (target as u64) << 56 ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let outcome = run_case(target, &seeds, &mut rng);
            reached += outcome.reached as u32;
            if let Some(f) = &outcome.failure {
                failures.push(format!("{} case {case}: {f}\n{:?}", target.name(), outcome.input));
            }
        }
        eprintln!("{}: {cases} cases, {reached} got through", target.name());
        // The batch must reach past the first error check, or it tests nothing.
        assert!(reached > 0, "{}: no case got through", target.name());
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
