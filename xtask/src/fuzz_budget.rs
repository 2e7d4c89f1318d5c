//! How long a `fuzz-diff` run lasts: a number of items (`--count`), or a time (`--minutes`) spent
//! on seeds that count up from a start seed. The start seed is printed first and the last seed
//! at the end, so that a timed run can be repeated exactly (its programs are the count it
//! reports, from that seed) or continued from the seed after it.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use indicatif::ProgressBar;

/// A run's length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Exactly this many items.
    Count(u64),
    /// Items until this much time has passed (the item running then finishes).
    Time(Duration),
}

impl Budget {
    /// `--count` unless `--minutes` is given.
    pub fn new(count: u64, minutes: Option<f64>) -> Budget {
        match minutes {
            Some(m) => Budget::Time(Duration::from_secs_f64(m * 60.0)),
            None => Budget::Count(count),
        }
    }

    /// Whether item `k` (from 0) runs in a run that began at `start`.
    pub fn allows(&self, k: u64, start: Instant) -> bool {
        match *self {
            Budget::Count(n) => k < n,
            Budget::Time(d) => start.elapsed() < d,
        }
    }

    /// What the run will do, for its first line: "200 program(s)", "programs for 10 min".
    pub fn describe(&self, items: &str) -> String {
        match *self {
            Budget::Count(n) => format!("{n} {items}(s)"),
            Budget::Time(d) => format!("{items}s for {} min", d.as_secs_f64() / 60.0),
        }
    }

    /// The items planned, as the "skipped" count of a run that cannot start (0 for a timed run).
    pub fn planned(&self) -> u64 {
        match *self {
            Budget::Count(n) => n,
            Budget::Time(_) => 0,
        }
    }

    /// A progress bar in items (counted) or seconds (timed).
    pub fn bar(&self) -> ProgressBar {
        crate::progress::bar(match *self {
            Budget::Count(n) => n,
            Budget::Time(d) => d.as_secs(),
        })
    }

    /// Moves `bar` to item `k` (counted) or to the seconds spent (timed).
    pub fn show(&self, bar: &ProgressBar, k: u64, start: Instant) {
        bar.set_position(match self {
            Budget::Count(_) => k,
            Budget::Time(_) => start.elapsed().as_secs(),
        });
    }
}

/// The first seed: the one given; else 0 for a counted run, which is then repeatable by default,
/// and one taken from the clock (seconds since 1970) for a timed run, so that timed runs made one
/// after another try new programs.
pub fn start_seed(given: Option<u64>, budget: &Budget) -> u64 {
    match (given, budget) {
        (Some(s), _) => s,
        (None, Budget::Count(_)) => 0,
        (None, Budget::Time(_)) => SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
    }
}

/// `--minutes`: a positive, finite number of minutes.
pub fn minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 => Ok(m),
        _ => Err(format!("`{text}`: a positive number of minutes")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_runs_that_many_and_a_time_until_it_is_spent() {
        let start = Instant::now();
        let count = Budget::new(3, None);
        assert!(count.allows(2, start) && !count.allows(3, start));
        assert_eq!((count.planned(), count.describe("program")), (3, "3 program(s)".to_string()));
        // A timed run ignores the count; a budget already spent allows nothing, not even item 0.
        let timed = Budget::new(3, Some(10.0));
        assert!(timed.allows(1_000_000, start));
        assert_eq!((timed.planned(), timed.describe("program")), (0, "programs for 10 min".to_string()));
        let spent = Budget::Time(Duration::ZERO);
        assert!(!spent.allows(0, start));
    }

    #[test]
    fn the_start_seed_is_the_given_one_else_zero_or_the_clock() {
        let timed = Budget::new(0, Some(1.0));
        assert_eq!(start_seed(Some(7), &timed), 7);
        assert_eq!(start_seed(None, &Budget::Count(5)), 0);
        // 2020-01-01 is 1577836800 s after 1970: a clock seed is at least that.
        assert!(start_seed(None, &timed) >= 1_577_836_800);
        assert_eq!(minutes("0.5"), Ok(0.5));
        assert!(minutes("0").is_err() && minutes("-1").is_err() && minutes("inf").is_err() && minutes("x").is_err());
    }
}
