//! The random numbers behind every generator: reproducible from a seed, the same on every machine.
//!
//! ```
//! use arbiter_contest::rng::{Rng, case_seed};
//!
//! let mut a = Rng::new(case_seed(7, 3));
//! let mut b = Rng::new(case_seed(7, 3));
//! assert_eq!(a.below(100), b.below(100));
//! assert_ne!(case_seed(7, 3), case_seed(7, 4));
//! assert!((5..=9).contains(&a.range(5, 9)));
//! ```

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A seeded generator with the few draws the generators need.
#[derive(Debug, Clone)]
pub struct Rng(SplitMix64);

impl Rng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n`; 0 when `n` is 0. Multiply-shift, without the bias of `%`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `low..=high` (`low` when `high < low`).
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        if high <= low {
            return low;
        }
        let span = (high - low) as u64 + 1;
        low + ((u128::from(self.next_u64()) * u128::from(span)) >> 64) as i64
    }

    /// True with probability `percent` / 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A uniformly chosen item, `None` from an empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { items.get(self.below(items.len())) }
    }

    /// An index chosen with probability proportional to its weight; `None` if all are 0.
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut draw = self.below(total as usize) as u64;
        for (i, &w) in weights.iter().enumerate() {
            if draw < u64::from(w) {
                return Some(i);
            }
            draw -= u64::from(w);
        }
        None
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The seed of case `index` of a run seeded with `seed`: cases are independent of each other, so
/// a failing case can be regenerated alone, whatever ran in parallel with it.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    // Two rounds of SplitMix64's finaliser over the pair.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    for _ in 0..2 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(1);
        for n in 1..50 {
            assert!(rng.below(n) < n);
            let x = rng.range(-3, n as i64);
            assert!((-3..=n as i64).contains(&x));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(4, 4), 4);
        assert_eq!(rng.weighted(&[0, 0]), None);
        assert_eq!(rng.weighted(&[0, 3, 0]), Some(1));
    }

    #[test]
    fn every_value_of_a_small_range_appears() {
        let mut rng = Rng::new(9);
        let mut seen = [false; 6];
        for _ in 0..200 {
            seen[rng.range(0, 5) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
