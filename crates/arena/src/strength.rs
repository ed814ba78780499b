//! A piece's strength C(a, b), compared exactly.
//!
//! ```
//! use std::cmp::Ordering;
//! use arbiter_arena::strength::{Strength, ranks};
//!
//! assert_eq!(Strength::new(16, 2).cmp(&Strength::new(10, 3)), Ordering::Equal); // 120 = 120
//! assert_eq!(Strength::new(5, 7).cmp(&Strength::new(0, 0)), Ordering::Less); // 0 < 1
//! // The pair the official program's 1e-8 tolerance calls equal:
//! assert_eq!(Strength::new(974, 36).cmp(&Strength::new(229, 92)), Ordering::Less);
//! // Ranks: equal strengths share one, written differently or not.
//! let side = [Strength::new(16, 2), Strength::new(4, 1), Strength::new(10, 7)];
//! assert_eq!(ranks(&side), [1, 0, 1]);
//! ```
//!
//! Attributes reach about 10^6 through onepunch, so the binomials themselves can have tens of
//! thousands of digits. Each strength carries an estimate of ln C(a, b) and a bound on that
//! estimate's error; two strengths whose estimates are further apart than the sum of the bounds
//! are ordered by them. Otherwise the exact path decides: C(a, b) = (a − b, a] / [1, b] as
//! products of integer ranges, so the ranges the two sides share cancel and the rest is
//! multiplied out, in a `u128` when it fits and in big integers otherwise. Near-ties between
//! real game values are pairs like (a, b) and (a ± 1, b), or C(c(c − 1)/2, 1) = C(c, 2), whose
//! ranges almost cancel; the worst case, b = 1000 on both sides and nothing shared, multiplies
//! two products of 2000 numbers below 2^20.
//!
//! A fight compares the strengths of a whole side; [`ranks`] turns them into integers once, with
//! one exact comparison at most per pair of neighbouring distinct values.

use std::cmp::Ordering;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

use num_bigint::BigUint;

/// C(a, b) as a pair, with an estimate of ln C(a, b) and a bound on its error.
#[derive(Debug, Clone, Copy)]
pub struct Strength {
    a: u32,
    b: u32,
    /// ln C(a, b) computed in floating point; −∞ for C = 0.
    ln: f64,
    /// |ln − ln C(a, b)| ≤ error (see [`RELATIVE_ERROR`]).
    error: f64,
}

/// The error bound of an estimate, relative to the sum of the magnitudes of the terms it adds.
///
/// Why this is safe: every term of an estimate (see `ln_binomial`) is made of at most a handful
/// of IEEE operations, each rounded to within u = 2^−53 relative, and of `ln` / `ln_1p` calls,
/// which the C libraries Rust uses keep within 1 ulp (2u relative); the table of ln n! is summed
/// with compensation, so its entries are within about 2u of ln n! (the error of each ln k adds
/// up to at most 2u·ln n!). A term is thus within 8u of its exact value, relative, and adding
/// m ≤ 8 terms rounds by at most m·u of the sum of their magnitudes M: the total error is below
/// 16u·M. The bound used is 2^−44 = 512u·M, 32 times that, and still so tight that distinct game
/// values almost never meet it (C(a, 1) against C(a + 1, 1) at a = 10^6 differ by 10^−6 in ln;
/// the bound is about 10^−12 there). Rounding in the subtraction of two estimates is covered by
/// the same margin.
const RELATIVE_ERROR: f64 = 1.0 / (1u64 << 44) as f64;

impl Strength {
    /// The strength of a piece with attributes (a, b). C(a, b) = 0 when b > a.
    pub fn new(a: u32, b: u32) -> Strength {
        let (ln, error) = match canonical(a, b) {
            None => (f64::NEG_INFINITY, 0.0),
            Some((a, k)) => {
                let (ln, magnitude) = ln_binomial(a, k);
                (ln, magnitude * RELATIVE_ERROR)
            }
        };
        Strength { a, b, ln, error }
    }

    /// a.
    pub fn a(self) -> u32 {
        self.a
    }

    /// b.
    pub fn b(self) -> u32 {
        self.b
    }

    /// C(a, b) written out in decimal.
    pub fn to_decimal(self) -> String {
        binomial(self.a, self.b).to_string()
    }

    /// The same binomial with b ≤ a / 2 (C(a, b) = C(a, a − b)), or `None` for C = 0.
    fn canonical(self) -> Option<(u32, u32)> {
        canonical(self.a, self.b)
    }
}

/// C(a, b) as (a, min(b, a − b)), or `None` for C = 0.
fn canonical(a: u32, b: u32) -> Option<(u32, u32)> {
    (b <= a).then(|| (a, b.min(a - b)))
}

impl PartialEq for Strength {
    fn eq(&self, other: &Strength) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Strength {}

impl PartialOrd for Strength {
    fn partial_cmp(&self, other: &Strength) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Strength {
    fn cmp(&self, other: &Strength) -> Ordering {
        let (x, y) = match (self.canonical(), other.canonical()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x == y => return Ordering::Equal,
            (Some(x), Some(y)) => (x, y),
        };
        let difference = self.ln - other.ln;
        let margin = self.error + other.error;
        if difference > margin {
            Ordering::Greater
        } else if difference < -margin {
            Ordering::Less
        } else {
            exact_cmp(x, y)
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C({}, {})", self.a, self.b)
    }
}

/// Ranks of `strengths`: `ranks[i] < ranks[j]` exactly when `strengths[i] < strengths[j]`, and
/// equal strengths share a rank; ranks are 0, 1, 2, … without gaps.
///
/// Sorting a side by rank gives the comparisons a sort by strength would, so any sorting
/// algorithm (libstdc++'s included) ends in the same order, while each strength is estimated
/// once and pieces with the same canonical (a, b) are never compared at all.
pub fn ranks(strengths: &[Strength]) -> Vec<u32> {
    if strengths.len() <= SMALL_SIDE {
        return small_ranks(strengths);
    }
    let mut by_pair: Vec<u32> = (0..strengths.len() as u32).collect();
    by_pair.sort_unstable_by_key(|&i| strengths[i as usize].canonical());
    // One representative per canonical pair, in increasing strength.
    let mut distinct: Vec<u32> = Vec::with_capacity(strengths.len());
    for pair in by_pair
        .chunk_by(|&x, &y| strengths[x as usize].canonical() == strengths[y as usize].canonical())
    {
        distinct.push(pair[0]);
    }
    distinct.sort_unstable_by(|&x, &y| strengths[x as usize].cmp(&strengths[y as usize]));
    let mut rank_of = vec![0u32; strengths.len()];
    let mut rank = 0;
    for (k, &x) in distinct.iter().enumerate() {
        if k > 0 && strengths[distinct[k - 1] as usize] != strengths[x as usize] {
            rank += 1;
        }
        rank_of[x as usize] = rank;
    }
    let mut ranks = vec![0u32; strengths.len()];
    for pair in by_pair
        .chunk_by(|&x, &y| strengths[x as usize].canonical() == strengths[y as usize].canonical())
    {
        let rank = rank_of[pair[0] as usize];
        for &x in pair {
            ranks[x as usize] = rank;
        }
    }
    ranks
}

/// Sides up to this size are ranked by insertion sort, without the grouping by canonical pair:
/// at most SMALL_SIDE² / 2 comparisons, and no allocation but the result.
const SMALL_SIDE: usize = 16;

/// [`ranks`] for at most [`SMALL_SIDE`] strengths.
fn small_ranks(strengths: &[Strength]) -> Vec<u32> {
    let n = strengths.len();
    let mut order = [0u8; SMALL_SIDE];
    for k in 0..n {
        let mut j = k;
        while j > 0 && strengths[order[j - 1] as usize] > strengths[k] {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = k as u8;
    }
    let mut ranks = vec![0u32; n];
    let mut rank = 0;
    for k in 1..n {
        let (previous, current) = (order[k - 1] as usize, order[k] as usize);
        if strengths[previous] != strengths[current] {
            rank += 1;
        }
        ranks[current] = rank;
    }
    ranks
}

/// Below this, ln n! comes from a table; above, from Stirling's series.
const TABLE: u32 = 4096;

/// ln n! for n < [`TABLE`], summed with Neumaier's compensation so that each entry is as
/// accurate as the logarithms it adds.
fn ln_factorial_table() -> &'static [f64] {
    static LN_FACTORIAL: OnceLock<Vec<f64>> = OnceLock::new();
    LN_FACTORIAL.get_or_init(|| {
        let mut table = Vec::with_capacity(TABLE as usize);
        let (mut sum, mut compensation) = (0.0f64, 0.0f64);
        table.push(0.0);
        for k in 1..TABLE {
            let term = f64::from(k).ln();
            let next = sum + term;
            compensation +=
                if sum.abs() >= term { (sum - next) + term } else { (term - next) + sum };
            sum = next;
            table.push(sum + compensation);
        }
        table
    })
}

/// ln n! and the magnitude its error is relative to: the table below [`TABLE`], Stirling's
/// series (n ln n − n + ln(2πn)/2 + 1/(12n) − 1/(360n³) + 1/(1260n⁵)) above, whose truncation
/// error (< 1/(1680n⁷) < 10^−28) is far below the rounding of the terms.
fn ln_factorial(n: u32) -> (f64, f64) {
    if n < TABLE {
        let value = ln_factorial_table()[n as usize];
        return (value, value);
    }
    let x = f64::from(n);
    let (x2, ln_x) = (x * x, x.ln());
    let value = x * ln_x - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x)
        - 1.0 / (360.0 * x * x2)
        + 1.0 / (1260.0 * x * x2 * x2);
    (value, x * ln_x + x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0)
}

/// ln C(a, k) for k ≤ a − k, and the sum of the magnitudes of the terms it was computed from
/// (the error bound is relative to that, see [`RELATIVE_ERROR`]).
///
/// ln a! − ln (a − k)! − ln k! loses to cancellation what the two large factorials carry: at
/// a = 10^6 each is 10^7 and the rounding of either swamps the 10^−6 between C(a, 1) and
/// C(a + 1, 1). When both a and a − k are past the table, ln a! − ln (a − k)! is therefore taken
/// from the difference of the two Stirling series written without it: with c = a − k and
/// L = ln(a/c) = −ln_1p(−k/a), it is c·L + k(ln a − 1) + L/2 − k/(12ac) + (1/c³ − 1/a³)/360 −
/// (1/c⁵ − 1/a⁵)/1260, all of whose terms are small when k is.
fn ln_binomial(a: u32, k: u32) -> (f64, f64) {
    if k == 0 {
        return (0.0, 0.0);
    }
    let c = a - k;
    let (ln_k, k_magnitude) = ln_factorial(k);
    if c < TABLE {
        let ((ln_a, a_magnitude), (ln_c, c_magnitude)) = (ln_factorial(a), ln_factorial(c));
        return (ln_a - ln_c - ln_k, a_magnitude + c_magnitude + k_magnitude);
    }
    let (x, y, kf) = (f64::from(a), f64::from(c), f64::from(k));
    let l = -(-kf / x).ln_1p();
    let (x3, y3) = (x * x * x, y * y * y);
    let terms = [
        y * l,
        kf * (x.ln() - 1.0),
        0.5 * l,
        -kf / (12.0 * x * y),
        (1.0 / y3 - 1.0 / x3) / 360.0,
        -(1.0 / (y3 * y * y) - 1.0 / (x3 * x * x)) / 1260.0,
    ];
    let falling: f64 = terms.iter().sum();
    let magnitude = terms.iter().map(|t| t.abs()).sum::<f64>() + kf;
    (falling - ln_k, magnitude + k_magnitude)
}

/// Compares C(x) with C(y) exactly, for canonical pairs (b ≤ a − b): with C(a, b) =
/// P(a − b + 1 ..= a) / P(1 ..= b), C(x) ≷ C(y) is P(Ix)·P(Jy) ≷ P(Iy)·P(Jx); the part of Ix
/// and Iy they share cancels, and so does the shorter of Jx and Jy. No factor of one side is
/// left on the other (Ix lies above bx and Iy above by, as b ≤ a − b).
fn exact_cmp(x: (u32, u32), y: (u32, u32)) -> Ordering {
    let falling = |(a, b): (u32, u32)| (u64::from(a - b) + 1, u64::from(a));
    let ((x_low, x_high), (y_low, y_high)) = (falling(x), falling(y));
    let mut left: Vec<RangeInclusive<u64>> = Vec::with_capacity(3);
    let mut right: Vec<RangeInclusive<u64>> = Vec::with_capacity(3);
    let (shared_low, shared_high) = (x_low.max(y_low), x_high.min(y_high));
    if shared_low <= shared_high {
        left.extend([x_low..=shared_low - 1, shared_high + 1..=x_high]);
        right.extend([y_low..=shared_low - 1, shared_high + 1..=y_high]);
    } else {
        left.push(x_low..=x_high);
        right.push(y_low..=y_high);
    }
    let (bx, by) = (u64::from(x.1), u64::from(y.1));
    left.push(bx + 1..=by);
    right.push(by + 1..=bx);
    match (product_u128(&left), product_u128(&right)) {
        (Some(l), Some(r)) => l.cmp(&r),
        _ => product(&left).cmp(&product(&right)),
    }
}

/// The product of the integers in `ranges`, if it fits in a `u128`.
fn product_u128(ranges: &[RangeInclusive<u64>]) -> Option<u128> {
    let mut value = 1u128;
    for n in ranges.iter().flat_map(|r| r.clone()) {
        value = value.checked_mul(u128::from(n))?;
    }
    Some(value)
}

/// The product of the integers in `ranges`: packed into machine words, then multiplied pairwise
/// so that the big multiplications are few and balanced.
fn product(ranges: &[RangeInclusive<u64>]) -> BigUint {
    let mut words = Vec::new();
    let mut word = 1u64;
    for n in ranges.iter().flat_map(|r| r.clone()) {
        match word.checked_mul(n) {
            Some(next) => word = next,
            None => {
                words.push(BigUint::from(word));
                word = n;
            }
        }
    }
    words.push(BigUint::from(word));
    while words.len() > 1 {
        words = words.chunks(2).map(|pair| pair.iter().product()).collect();
    }
    words.pop().unwrap_or_else(|| BigUint::from(1u32))
}

/// C(a, b) as a big integer (0 when b > a).
pub fn binomial(a: u32, b: u32) -> BigUint {
    if b > a {
        return BigUint::from(0u32);
    }
    let b = b.min(a - b);
    let mut value = BigUint::from(1u32);
    for i in 0..b {
        value *= a - i;
        value /= i + 1;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn edge_cases() {
        let zero = Strength::new(3, 4);
        let one = Strength::new(0, 0);
        assert!(zero < one);
        assert_eq!(zero, Strength::new(0, 1));
        assert_eq!(one, Strength::new(7, 7));
        assert_eq!(one, Strength::new(7, 0));
        assert_eq!(Strength::new(10, 3), Strength::new(10, 7));
        assert_eq!(Strength::new(10, 3).to_decimal(), "120");
        assert_eq!(Strength::new(3, 10).to_decimal(), "0");
    }

    #[test]
    fn near_tie_is_decided_exactly() {
        assert!(Strength::new(974, 36) < Strength::new(229, 92));
        assert!(exact_cmp((974, 36), (229, 92)) == Ordering::Less);
    }

    #[test]
    fn large_attributes() {
        assert!(Strength::new(1_000_000, 500_000) > Strength::new(1_000_000, 499_999));
        assert!(Strength::new(1_000_000, 1) == Strength::new(1_000_000, 999_999));
        assert!(Strength::new(1_000_001, 1) > Strength::new(1_000_000, 999_999));
        assert!(Strength::new(5000, 2) > Strength::new(4999, 2));
    }

    /// Equal binomials written differently (Singmaster's list, and the infinite family
    /// C(F(2i+2)F(2i+3), F(2i)F(2i+3)) = C(F(2i+2)F(2i+3) − 1, F(2i)F(2i+3) + 1)).
    const TIES: [((u32, u32), (u32, u32)); 12] = [
        ((16, 2), (10, 3)),
        ((56, 2), (22, 3)),
        ((120, 2), (36, 3)),
        ((21, 2), (10, 4)),
        ((153, 2), (19, 5)),
        ((78, 2), (15, 5)),
        ((15, 5), (14, 6)),
        ((221, 2), (17, 8)),
        ((104, 39), (103, 40)),
        ((714, 272), (713, 273)),
        ((4895, 1869), (4894, 1870)),
        ((33552, 12815), (33551, 12816)),
    ];

    #[test]
    fn known_ties_are_equal_and_their_neighbours_are_not() {
        for ((a1, b1), (a2, b2)) in TIES {
            assert_eq!(binomial(a1, b1), binomial(a2, b2));
            let (x, y) = (Strength::new(a1, b1), Strength::new(a2, b2));
            assert_eq!(x.cmp(&y), Ordering::Equal, "C({a1}, {b1}) = C({a2}, {b2})");
            assert_eq!(Strength::new(a1, a1 - b1), y);
            for (dx, dy) in [(1, 0), (0, 1)] {
                let (x, y) = ((a1 + dx, b1), (a2 + dy, b2));
                let expected = binomial(x.0, x.1).cmp(&binomial(y.0, y.1));
                assert_eq!(Strength::new(x.0, x.1).cmp(&Strength::new(y.0, y.1)), expected);
            }
        }
    }

    #[test]
    fn ranks_follow_the_strengths() {
        let side: Vec<Strength> = [(3003, 1), (78, 2), (15, 5), (14, 8), (5, 9), (0, 0), (77, 2)]
            .iter()
            .map(|&(a, b)| Strength::new(a, b))
            .collect();
        // 3003 four ways, 0, 1 and 2926.
        assert_eq!(ranks(&side), [3, 3, 3, 3, 0, 1, 2]);
        assert_eq!(ranks(&[]), Vec::<u32>::new());
    }

    /// Attributes the game can reach: a starts at most 1000 and gains at most 1000 a round for
    /// at most 1000 rounds (onepunch); b starts at most 1000 and never grows (fights, expiry and
    /// backward only lower it or restore an earlier value; respawn restores the start).
    fn reachable() -> impl Strategy<Value = (u32, u32)> {
        (0u32..=1_001_000, 0u32..=1000)
    }

    fn agree(x: (u32, u32), y: (u32, u32)) -> Result<(), TestCaseError> {
        let expected = binomial(x.0, x.1).cmp(&binomial(y.0, y.1));
        let (sx, sy) = (Strength::new(x.0, x.1), Strength::new(y.0, y.1));
        prop_assert_eq!(sx.cmp(&sy), expected, "C{:?} vs C{:?}", x, y);
        prop_assert_eq!(sy.cmp(&sx), expected.reverse());
        if let (Some(cx), Some(cy)) = (canonical(x.0, x.1), canonical(y.0, y.1)) {
            prop_assert_eq!(exact_cmp(cx, cy), expected);
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn agrees_with_big_integers(a1 in 0u32..400, b1 in 0u32..420, a2 in 0u32..400, b2 in 0u32..420) {
            agree((a1, b1), (a2, b2))?;
        }

        #[test]
        fn agrees_near_the_table_edge(a1 in 3000u32..9000, b1 in 0u32..6, a2 in 3000u32..9000, b2 in 0u32..6) {
            agree((a1, b1), (a2, b2))?;
        }

        #[test]
        fn agrees_on_reachable_attributes(x in reachable(), y in reachable()) {
            agree(x, y)?;
        }

        #[test]
        fn agrees_on_neighbours(x in reachable(), da in -1i64..=1, db in -1i64..=1) {
            let y = ((i64::from(x.0) + da).max(0) as u32, (i64::from(x.1) + db).max(0) as u32);
            agree(x, y)?;
            if x.1 <= x.0 {
                agree(x, (x.0, x.0 - x.1))?;
                agree((x.0, x.0 - x.1), y)?;
            }
        }

        #[test]
        fn agrees_on_one_against_two(c in 2u32..=1415, d in -2i64..=2) {
            // C(c(c − 1)/2, 1) = C(c, 2): the tie, and the values next to it.
            let a = (i64::from(c) * i64::from(c - 1) / 2 + d).max(0) as u32;
            agree((a, 1), (c, 2))?;
            // Near c = 2, a can be 0 and has no a − 1.
            if a >= 1 {
                agree((a, a - 1), (c, c - 2))?;
            }
        }

        #[test]
        fn agrees_on_one_against_any(c in 0u32..=1000, b in 0u32..=8, flip in any::<bool>(), d in -1i64..=1) {
            // Every C(c, b) up to 1,001,000 is also C(C(c, b), 1).
            let b = if flip && b <= c { c - b } else { b };
            let value = binomial(c, b);
            prop_assume!(value <= BigUint::from(1_001_000u32));
            let a = value.to_u32_digits().first().copied().unwrap_or(0);
            let a = (i64::from(a) + d).max(0) as u32;
            agree((a, 1), (c, b))?;
        }

        #[test]
        fn ranks_agree_with_big_integers(pairs in proptest::collection::vec((0u32..40, 0u32..40), 0..40)) {
            let strengths: Vec<Strength> = pairs.iter().map(|&(a, b)| Strength::new(a, b)).collect();
            let ranks = ranks(&strengths);
            for (i, x) in pairs.iter().enumerate() {
                for (j, y) in pairs.iter().enumerate() {
                    let expected = binomial(x.0, x.1).cmp(&binomial(y.0, y.1));
                    prop_assert_eq!(ranks[i].cmp(&ranks[j]), expected);
                }
            }
            let distinct: std::collections::BTreeSet<BigUint> =
                pairs.iter().map(|&(a, b)| binomial(a, b)).collect();
            prop_assert_eq!(ranks.iter().max().map_or(0, |&r| r as usize + 1), distinct.len());
        }
    }
}
