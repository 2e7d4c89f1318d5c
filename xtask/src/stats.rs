//! The summaries the benchmarks report: medians, means, quartiles and geometric means of
//! sample lists (times in µs or ms, or ratios of them), the summary of a round-robin timing
//! ([`RoundRobin`]) and the ratios of two series taken side by side ([`paired_ratios`]).

/// The median of `v` (sorted in place): the middle sample, or the mean of the two middle ones
/// for an even count; NaN when `v` is empty.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The arithmetic mean of `v`.
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The geometric mean of `v`: the mean of ratios, where 2× and 0.5× cancel.
pub fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

/// The first and third quartiles of `v` (nearest rank; sorted in place).
pub fn middle_half(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 4], v[(3 * v.len()) / 4])
}

/// Each pair's ratio `ours[i] / theirs[i]`: the two samples of a pair were taken side by side,
/// so what slowed the machine then falls on both.
pub fn paired_ratios(ours: &[f64], theirs: &[f64]) -> Vec<f64> {
    ours.iter().zip(theirs).map(|(o, t)| o / t).collect()
}

/// One round-robin timing (every round visits each shader once, in order), summarised as the
/// peers' drivers summarise theirs (`../shared/peers/src/common.h`), all in µs per shader.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundRobin {
    /// Each shader's median over the rounds, then the median over shaders (`total-spirv`'s
    /// statistic): a round slowed by another process moves it little.
    pub median_of_medians: f64,
    /// Each shader's median over the rounds, then the mean over shaders.
    pub mean_of_medians: f64,
    /// Each round's wall time over the shaders, then the median over rounds.
    pub round_mean: f64,
    /// The same of the thread's CPU time, which leaves out the time other processes held the core.
    pub round_cpu: f64,
}

impl RoundRobin {
    /// From `per_shader[shader][round]` and each round's total wall and CPU time (sorted in place).
    pub fn from_samples(per_shader: &mut [Vec<f64>], round_wall: &mut [f64], round_cpu: &mut [f64]) -> Self {
        let shaders = per_shader.len() as f64;
        let mut medians: Vec<f64> = per_shader.iter_mut().map(|s| median(s)).collect();
        let mean_of_medians = mean(&medians);
        let per_round = |v: &mut [f64]| {
            let mut each: Vec<f64> = v.iter().map(|t| t / shaders).collect();
            median(&mut each)
        };
        RoundRobin {
            median_of_medians: median(&mut medians),
            mean_of_medians,
            round_mean: per_round(round_wall),
            round_cpu: per_round(round_cpu),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_count_takes_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn the_geometric_mean_of_inverse_ratios_is_one() {
        assert!((geomean(&[2.0, 0.5]) - 1.0).abs() < 1e-12);
        assert!((geomean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
        assert_eq!(mean(&[1.0, 4.0]), 2.5);
    }

    #[test]
    fn the_middle_half_is_the_first_to_the_third_quartile() {
        let mut v = [8.0, 1.0, 7.0, 2.0, 6.0, 3.0, 5.0, 4.0];
        assert_eq!(middle_half(&mut v), (3.0, 7.0));
    }

    #[test]
    fn a_round_robin_is_summarised_per_shader_then_over_shaders() {
        // Three shaders, three rounds; round 2 was slowed (another process held the core).
        let mut per_shader = vec![vec![10.0, 11.0, 40.0], vec![20.0, 19.0, 60.0], vec![5.0, 6.0, 7.0]];
        let mut wall = [36.0, 39.0, 110.0];
        let mut cpu = [33.0, 36.0, 39.0];
        let s = RoundRobin::from_samples(&mut per_shader, &mut wall, &mut cpu);
        // Per-shader medians 11, 20, 6: median 11, mean 37 / 3.
        assert_eq!(s.median_of_medians, 11.0);
        assert!((s.mean_of_medians - 37.0 / 3.0).abs() < 1e-12);
        // Rounds of 12, 13 and 36.67 µs per shader: median 13; CPU 11, 12, 13: median 12.
        assert_eq!(s.round_mean, 13.0);
        assert_eq!(s.round_cpu, 12.0);
    }

    #[test]
    fn side_by_side_ratios_pair_the_samples_of_one_iteration() {
        // The second iteration ran on a loaded machine: both sides doubled, the ratio held.
        let mut r = paired_ratios(&[10.0, 20.0, 12.0], &[40.0, 80.0, 30.0]);
        assert_eq!(r, [0.25, 0.25, 0.4]);
        assert_eq!(median(&mut r), 0.25);
        // The ratio of the medians would mix iterations: 12 / 40 = 0.3.
        assert_eq!(median(&mut [10.0, 20.0, 12.0]) / median(&mut [40.0, 80.0, 30.0]), 0.3);
    }
}
