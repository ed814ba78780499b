//! A piece's strength C(a, b), compared exactly.
//!
//! ```
//! use std::cmp::Ordering;
//! use arbiter_arena::strength::Strength;
//!
//! assert_eq!(Strength::new(16, 2).cmp(&Strength::new(10, 3)), Ordering::Equal); // 120 = 120
//! assert_eq!(Strength::new(5, 7).cmp(&Strength::new(0, 0)), Ordering::Less); // 0 < 1
//! // The pair the official program's 1e-8 tolerance calls equal:
//! assert_eq!(Strength::new(974, 36).cmp(&Strength::new(229, 92)), Ordering::Less);
//! ```
//!
//! Attributes reach about 10^6 through onepunch, so the binomials themselves can have hundreds of
//! thousands of digits. The fast path compares ln C(a, b) = ln a! − ln b! − ln (a − b)!; when the
//! difference is within a margin that safely covers the rounding error of the three terms, the
//! exact path decides: it writes both binomials as products of primes (Legendre's formula),
//! cancels the common part, and compares the two remaining products as big integers.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use num_bigint::BigUint;

/// C(a, b) as a pair, with its logarithm cached for the fast comparison.
#[derive(Debug, Clone, Copy)]
pub struct Strength {
    a: u32,
    b: u32,
    ln: f64,
}

impl Strength {
    /// The strength of a piece with attributes (a, b). C(a, b) = 0 when b > a.
    pub fn new(a: u32, b: u32) -> Strength {
        let ln = if b > a {
            f64::NEG_INFINITY
        } else {
            ln_factorial(a) - ln_factorial(b) - ln_factorial(a - b)
        };
        Strength { a, b, ln }
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
        (self.b <= self.a).then(|| (self.a, self.b.min(self.a - self.b)))
    }
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
        // Each ln n! is accurate to a relative 1e-12 or better (see `ln_factorial`); the margin
        // is a thousand times that, relative to the largest term involved.
        let margin = 1e-9 * (1.0 + ln_factorial(x.0.max(y.0)));
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

/// Below this, ln n! comes from a table of running sums; above, from Stirling's series.
const TABLE: usize = 4096;

/// ln n!. The table's sums carry at most n rounding errors of 2^-53 relative (< 1e-12 for
/// n < 4096); Stirling's series with four terms is exact to 1e-25 relative beyond that.
fn ln_factorial(n: u32) -> f64 {
    static LN_FACTORIAL: OnceLock<Vec<f64>> = OnceLock::new();
    let table = LN_FACTORIAL.get_or_init(|| {
        let mut table = Vec::with_capacity(TABLE);
        let mut sum = 0.0f64;
        table.push(0.0);
        for k in 1..TABLE {
            sum += (k as f64).ln();
            table.push(sum);
        }
        table
    });
    match table.get(n as usize) {
        Some(&value) => value,
        None => {
            let x = f64::from(n);
            let x2 = x * x;
            x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x)
                - 1.0 / (360.0 * x * x2)
                + 1.0 / (1260.0 * x * x2 * x2)
        }
    }
}

/// Exponent of prime `p` in n! (Legendre).
fn legendre(mut n: u32, p: u32) -> i64 {
    let mut exponent = 0i64;
    while n > 0 {
        n /= p;
        exponent += i64::from(n);
    }
    exponent
}

/// Primes up to `n`, by a sieve.
fn primes_up_to(n: u32) -> Vec<u32> {
    let n = n as usize;
    let mut composite = vec![false; n + 1];
    let mut primes = Vec::new();
    for i in 2..=n {
        if !composite[i] {
            primes.push(i as u32);
            let mut j = i * i;
            while j <= n {
                composite[j] = true;
                j += i;
            }
        }
    }
    primes
}

/// Compares C(x) with C(y) exactly: the prime factors they share cancel, the rest are multiplied
/// out on each side.
fn exact_cmp(x: (u32, u32), y: (u32, u32)) -> Ordering {
    let exponent =
        |(a, b): (u32, u32), p: u32| legendre(a, p) - legendre(b, p) - legendre(a - b, p);
    let mut left = BigUint::from(1u32);
    let mut right = BigUint::from(1u32);
    for p in primes_up_to(x.0.max(y.0)) {
        let e = exponent(x, p) - exponent(y, p);
        if e > 0 {
            left *= BigUint::from(p).pow(e as u32);
        } else if e < 0 {
            right *= BigUint::from(p).pow((-e) as u32);
        }
    }
    left.cmp(&right)
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

    proptest! {
        #[test]
        fn agrees_with_big_integers(a1 in 0u32..400, b1 in 0u32..420, a2 in 0u32..400, b2 in 0u32..420) {
            let expected = binomial(a1, b1).cmp(&binomial(a2, b2));
            prop_assert_eq!(Strength::new(a1, b1).cmp(&Strength::new(a2, b2)), expected);
        }

        #[test]
        fn agrees_near_the_table_edge(a1 in 3000u32..6000, b1 in 0u32..6, a2 in 3000u32..6000, b2 in 0u32..6) {
            let expected = binomial(a1, b1).cmp(&binomial(a2, b2));
            prop_assert_eq!(Strength::new(a1, b1).cmp(&Strength::new(a2, b2)), expected);
        }

        #[test]
        fn exact_path_agrees(a1 in 0u32..300, b1 in 0u32..300, a2 in 0u32..300, b2 in 0u32..300) {
            prop_assume!(b1 <= a1 && b2 <= a2);
            let expected = binomial(a1, b1).cmp(&binomial(a2, b2));
            prop_assert_eq!(exact_cmp((a1, b1), (a2, b2)), expected);
        }
    }
}
