//! A small deterministic generator (SplitMix64): the same seed gives the same program on every
//! machine, so a failing seed is a reproducer.

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u32) as i32
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }

    /// A float from a pool that favours edge values.
    pub fn value(&mut self) -> f32 {
        const EDGES: [f32; 16] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            0.499_999_97,
            0.500_000_06,
            2.0,
            -2.5,
            1.0e30,
            -1.0e30,
            1.0e-30,
            0.25,
            3.0,
            -0.75,
            100.0,
        ];
        if self.chance(40) {
            self.pick(&EDGES)
        } else {
            // A modest range keeps most arithmetic finite and meaningful.
            (self.below(2001) as f32 - 1000.0) / 250.0
        }
    }
}
