//! The official program's comparison of strengths, for the switch `float-ties`: logarithms of
//! factorials in x87 extended precision, and a tolerance of 1e-8.
//!
//! ```
//! use std::cmp::Ordering;
//! use arbiter_arena::float_ties::{official_cmp, readings_differ};
//! use arbiter_arena::strength::Strength;
//!
//! // The pair the tolerance calls equal, where the exact comparison does not.
//! let (x, y) = (Strength::new(974, 36), Strength::new(229, 92));
//! assert_eq!(official_cmp(x, y), Ordering::Equal);
//! assert_eq!(x.cmp(&y), Ordering::Less);
//! assert!(readings_differ(x, y));
//! assert_eq!(official_cmp(Strength::new(5, 1), Strength::new(4, 2)), Ordering::Less);
//! ```
//!
//! The reference program (THUPC 2018, `problem/zhx/main.cpp`) fills a table
//! `fac[a] = fac[a - 1] + logl(a)` of `long double`s for a up to 10^6, takes
//! `C(a, b) ≈ fac[a] − fac[b] − fac[a − b]` and calls two strengths equal when their difference
//! is within `eps = 1e-8` (a `double` constant widened to `long double`). Compiled by g++ for
//! x86-64, `long double` is the x87 80-bit format and glibc's `logl` is the instruction `fyl2x`
//! applied to a and ln 2. This module performs the same instructions in the same order, so that
//! its answers are the official program's bit for bit on the same processor: the table is summed
//! in the same order, each sum and difference rounded to 64 bits of mantissa as the x87 unit
//! rounds them. On processors without an x87 unit the same formulas run in `f64`, which agrees
//! except within about 1e-9 of the tolerance.
//!
//! Beyond the official table (a > 10^6, reached only through onepunch) the program reads past its
//! array; here the table simply goes on. A strength with b > a, which the official rules never
//! produce, is compared exactly.

use std::cmp::Ordering;
use std::sync::RwLock;

use crate::strength::Strength;

/// The tolerance of the official program: `const long double eps = 1e-8;`.
const EPS: f64 = 1e-8;

/// The official table's size (`long double fac[1000010]`, filled up to 10^6); built whole the
/// first time it is needed, since most games reach well into it.
const OFFICIAL_TABLE: usize = 1_000_001;

#[cfg(target_arch = "x86_64")]
mod extended {
    //! x87 80-bit arithmetic through the x87 unit itself.

    use std::arch::asm;

    /// An x87 extended-precision value as stored in memory (`long double`).
    pub(super) type Extended = [u8; 10];

    /// Zero.
    pub(super) const ZERO: Extended = [0; 10];

    /// The control word g++'s programs run with on Linux: all exceptions masked, round to
    /// nearest, 64-bit mantissa.
    const CONTROL: u16 = 0x037f;

    /// `logl(n)` as glibc computes it on x86-64 for n ≥ 1: `fyl2x` with x = n and y = ln 2
    /// (for n = 1 glibc takes `fyl2xp1` of 0, which is 0 as well).
    pub(super) fn ln(n: u64) -> Extended {
        if n == 1 {
            return ZERO;
        }
        let value = n as i64;
        let mut out = ZERO;
        let mut saved = 0u16;
        // SAFETY: the block reads `value` and `CONTROL` and writes `out` and `saved`, all live
        // locals of the right sizes; it leaves the x87 stack empty and restores the control
        // word it found.
        unsafe {
            asm!(
                "fnstcw word ptr [{saved}]",
                "fldcw word ptr [{control}]",
                "fldln2",
                "fild qword ptr [{value}]",
                "fyl2x",
                "fstp tbyte ptr [{out}]",
                "fldcw word ptr [{saved}]",
                saved = in(reg) &mut saved,
                control = in(reg) &CONTROL,
                value = in(reg) &value,
                out = in(reg) &mut out,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack),
            );
        }
        out
    }

    /// x + y, or x − y when `subtract`, rounded as the x87 unit rounds.
    pub(super) fn add(x: &Extended, y: &Extended, subtract: bool) -> Extended {
        let mut out = ZERO;
        let mut saved = 0u16;
        // SAFETY: as in `ln`: reads `x`, `y` and `CONTROL`, writes `out` and `saved`, leaves
        // the x87 stack empty and the control word as it was.
        unsafe {
            if subtract {
                asm!(
                    "fnstcw word ptr [{saved}]",
                    "fldcw word ptr [{control}]",
                    "fld tbyte ptr [{x}]",
                    "fld tbyte ptr [{y}]",
                    // st(1) = st(1) − st(0) = x − y, then pop.
                    "fsubp st(1), st",
                    "fstp tbyte ptr [{out}]",
                    "fldcw word ptr [{saved}]",
                    saved = in(reg) &mut saved,
                    control = in(reg) &CONTROL,
                    x = in(reg) x,
                    y = in(reg) y,
                    out = in(reg) &mut out,
                    out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                    out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                    options(nostack),
                );
            } else {
                asm!(
                    "fnstcw word ptr [{saved}]",
                    "fldcw word ptr [{control}]",
                    "fld tbyte ptr [{x}]",
                    "fld tbyte ptr [{y}]",
                    "faddp st(1), st",
                    "fstp tbyte ptr [{out}]",
                    "fldcw word ptr [{saved}]",
                    saved = in(reg) &mut saved,
                    control = in(reg) &CONTROL,
                    x = in(reg) x,
                    y = in(reg) y,
                    out = in(reg) &mut out,
                    out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                    out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                    options(nostack),
                );
            }
        }
        out
    }

    /// The sign and the magnitude of `x` as an integer pair that orders like |x|: the biased
    /// exponent, then the 64-bit mantissa (explicit integer bit).
    pub(super) fn parts(x: &Extended) -> (bool, (u16, u64)) {
        let mantissa = u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let top = u16::from_le_bytes([x[8], x[9]]);
        (top & 0x8000 != 0, (top & 0x7fff, mantissa))
    }

    /// `(long double) value` for a positive finite normal `f64`: exact.
    pub(super) fn from_f64(value: f64) -> Extended {
        let bits = value.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as u16 + (16383 - 1023);
        let mantissa = (1u64 << 63) | ((bits & ((1u64 << 52) - 1)) << 11);
        let mut out = ZERO;
        out[..8].copy_from_slice(&mantissa.to_le_bytes());
        out[8..].copy_from_slice(&exponent.to_le_bytes());
        out
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod extended {
    //! Without an x87 unit: the same formulas in `f64`.

    /// The value, in `f64`.
    pub(super) type Extended = f64;

    /// Zero.
    pub(super) const ZERO: Extended = 0.0;

    /// ln n.
    pub(super) fn ln(n: u64) -> Extended {
        (n as f64).ln()
    }

    /// x + y, or x − y when `subtract`.
    pub(super) fn add(x: &Extended, y: &Extended, subtract: bool) -> Extended {
        if subtract { x - y } else { x + y }
    }

    /// The sign, and |x| as a pair that orders like it.
    pub(super) fn parts(x: &Extended) -> (bool, (u16, u64)) {
        (x.is_sign_negative(), (0, x.abs().to_bits()))
    }

    /// The value itself.
    pub(super) fn from_f64(value: f64) -> Extended {
        value
    }
}

use extended::{Extended, add, from_f64, ln, parts};

/// `fac`: ln n! summed as the official program sums it, grown on demand past its size.
static FACTORIALS: RwLock<Vec<Extended>> = RwLock::new(Vec::new());

/// `fac[n]` for each of `ns`, growing the table first if one is past its end.
fn factorials<const N: usize>(ns: [usize; N]) -> [Extended; N] {
    let largest = ns.iter().copied().max().unwrap_or(0);
    {
        let table = FACTORIALS.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        if largest < table.len() {
            return ns.map(|n| table[n]);
        }
    }
    let mut table = FACTORIALS.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let target = (largest + 1).max(OFFICIAL_TABLE);
    if table.is_empty() {
        table.push(extended::ZERO);
    }
    while table.len() < target {
        let n = table.len();
        let next = add(&table[n - 1], &ln(n as u64), false);
        table.push(next);
    }
    ns.map(|n| table[n])
}

/// `combinational(i) - combinational(j)`: (fac[a] − fac[b] − fac[a − b]) for each, subtracted.
fn difference(x: Strength, y: Strength) -> Extended {
    let (xa, xb, ya, yb) = (x.a() as usize, x.b() as usize, y.a() as usize, y.b() as usize);
    let [fxa, fxb, fxk, fya, fyb, fyk] = factorials([xa, xb, xa - xb, ya, yb, ya - yb]);
    let cx = add(&add(&fxa, &fxb, true), &fxk, true);
    let cy = add(&add(&fya, &fyb, true), &fyk, true);
    add(&cx, &cy, true)
}

/// How the official program orders two strengths: `sign(combinational(x) − combinational(y))`,
/// Equal within the tolerance. Not a total order: near-ties make it intransitive.
pub fn official_cmp(x: Strength, y: Strength) -> Ordering {
    if x.b() > x.a() || y.b() > y.a() {
        return x.cmp(&y);
    }
    let (negative, magnitude) = parts(&difference(x, y));
    let (_, eps) = parts(&from_f64(EPS));
    if magnitude <= eps {
        Ordering::Equal
    } else if negative {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Whether the exact comparison and the official program's disagree on `x` against `y`: a
/// near-tie, where `float-ties` changes the outcome.
pub fn readings_differ(x: Strength, y: Strength) -> bool {
    official_cmp(x, y) != x.cmp(&y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_takes_the_operands_in_order() {
        let (five, three) = (from_f64(5.0), from_f64(3.0));
        assert_eq!(parts(&add(&five, &three, true)), parts(&from_f64(2.0)));
        let (negative, magnitude) = parts(&add(&three, &five, true));
        assert!(negative);
        assert_eq!(magnitude, parts(&from_f64(2.0)).1);
        assert_eq!(parts(&add(&five, &three, false)), parts(&from_f64(8.0)));
    }

    #[test]
    fn far_apart_strengths_agree_with_the_exact_order() {
        for (x, y) in [((10, 3), (10, 4)), ((1000, 500), (999, 500)), ((16, 2), (10, 3))] {
            let (x, y) = (Strength::new(x.0, x.1), Strength::new(y.0, y.1));
            assert_eq!(official_cmp(x, y), x.cmp(&y), "{x} {y}");
            assert_eq!(official_cmp(y, x), y.cmp(&x), "{y} {x}");
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod official_bits {
    use super::*;

    fn hex(x: &Extended) -> String {
        x.iter().rev().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
    }

    /// The table and a difference, byte for byte as g++ -O2 computes them in the official
    /// program (printed from its `fac` array with `memcpy`).
    #[test]
    fn the_table_matches_the_official_program() {
        let [f2, f3, f12345, f999999, f1000000] = factorials([2, 3, 12345, 999_999, 1_000_000]);
        assert_eq!(hex(&f2), "3f fe b1 72 17 f7 d1 cf 79 ac");
        assert_eq!(hex(&f3), "3f ff e5 58 5f d1 51 00 11 92");
        assert_eq!(hex(&f12345), "40 0f cb 0d 7a 0b 94 f3 65 fa");
        assert_eq!(hex(&f999999), "40 16 c3 8c 90 91 b3 a8 6b 67");
        assert_eq!(hex(&f1000000), "40 16 c3 8c 9e 62 78 f5 33 67");
        let d = difference(Strength::new(974, 36), Strength::new(229, 92));
        assert_eq!(hex(&d), "bf e4 90 ad 43 60 00 00 00 00");
    }
}
