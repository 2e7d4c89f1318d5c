//! Differential testing of the fixed-function pipeline: a random state
//! ([`crate::generate::ffp`]) becomes a draw case, drawn on the GPU with the library's
//! fixed-function generator and on the CPU with the harness's independent reference, and the
//! images compared under the harness's tolerance policy. A mismatch is shrunk to a smaller
//! state that still mismatches.

use crate::diff::{run_written, DiffCase, DiffOutcome};
use crate::generate::ffp::FfpState;

/// The case of `state`, named `name`, with its translated partner (`NAME_vs` or `NAME_ps`) if
/// it mixes one in.
pub fn ffp_case(state: &FfpState, name: &str) -> DiffCase {
    let shaders = state.mix.map(|m| m.shader()).map(|(stage, p)| (format!("{name}_{stage}"), p));
    DiffCase { toml: state.to_toml(name), shaders: shaders.into_iter().collect() }
}

/// Draws `state` as case `name` (its file written to `dir`) on the GPU and the CPU and compares.
pub fn run_ffp(
    state: &FfpState,
    name: &str,
    gpu: Option<&gpu_harness::device::Gpu>,
    dir: &std::path::Path,
) -> DiffOutcome {
    run_written(&ffp_case(state, name), name, gpu, dir)
}

/// Shrinks `state` greedily: takes the first simplification that `still_fails` keeps failing,
/// again and again, until none does or `budget` tries are spent.
pub fn shrink_ffp(state: &FfpState, mut still_fails: impl FnMut(&FfpState) -> bool, budget: usize) -> FfpState {
    let mut best = state.clone();
    let mut tries = 0;
    'outer: while tries < budget {
        for candidate in best.simplifications() {
            tries += 1;
            if still_fails(&candidate) {
                best = candidate;
                continue 'outer;
            }
            if tries >= budget {
                break 'outer;
            }
        }
        break;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::ffp::generate_ffp;

    #[test]
    fn states_are_cases_the_harness_reads() {
        for seed in 0..200 {
            let s = generate_ffp(seed);
            let toml = s.to_toml("t");
            if let Err(e) = gpu_harness::case::Case::parse(&toml, std::path::Path::new("t.toml")) {
                panic!("seed {seed}: {e}\n{toml}");
            }
            assert_eq!(s, generate_ffp(seed), "a seed gives one state");
        }
    }

    #[test]
    fn every_simplification_is_smaller_and_shrinking_ends() {
        let s = generate_ffp(7);
        assert!(s.simplifications().iter().all(|c| c != &s));
        // A predicate that always fails shrinks to a state with nothing left to simplify.
        let small = shrink_ffp(&s, |_| true, 10_000);
        assert!(small.simplifications().is_empty(), "{small:?}");
        assert!(small.lights.is_empty() && small.stages.len() == 1 && small.fog.is_none());
    }

    #[test]
    fn the_cpu_reference_draws_every_state() {
        // Without a GPU the runner draws the CPU side only: every state must be drawable.
        let dir = std::env::temp_dir().join(format!("ffp-diff-test-{}", std::process::id()));
        for seed in 0..40 {
            let s = generate_ffp(seed);
            match run_ffp(&s, &format!("ffp_{seed}"), None, &dir) {
                DiffOutcome::Pass => {}
                other => panic!("seed {seed}: {other:?}\n{}", s.to_toml("t")),
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
