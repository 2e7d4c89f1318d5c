//! The summaries the benchmarks report: medians, means, quartiles and geometric means of
//! sample lists (times in µs or ms, or ratios of them).

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
}
