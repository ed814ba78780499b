//! The Elo difference a match result implies, with its 95% confidence interval and the
//! likelihood of superiority (LOS), computed as fastchess and OpenBench do.
//!
//! ```
//! use arbiter_duck_match::elo::{Estimate, elo_from_score};
//! use arbiter_duck_match::tally::{Pentanomial, Trinomial};
//!
//! // A score of 75% is 190.8 Elo.
//! assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
//!
//! // 136 wins, 111 draws, 96 losses, game by game.
//! let wdl = Estimate::trinomial(Trinomial { wins: 136, draws: 111, losses: 96 }).unwrap();
//! assert!((wdl.elo - 40.70).abs() < 0.01);
//!
//! // Game pairs: how many pairs scored 0, ½, 1, 1½ and 2 points for the first engine.
//! let pairs = Estimate::pentanomial(Pentanomial([34, 54, 63, 64, 75])).unwrap();
//! assert!((pairs.elo - 55.58).abs() < 0.01);
//! assert!(pairs.lower < pairs.elo && pairs.elo < pairs.upper);
//! assert!(pairs.los > 0.9999);
//! ```
//!
//! The model: each game (trinomial) or each pair of games with the same opening and swapped
//! colours (pentanomial) is one draw from a distribution of scores; the mean score `s` estimates
//! the expected score, its standard error is `sqrt(var / n)`, and the interval `s ± 1.96·se` is
//! mapped to Elo by the logistic curve `elo(s) = -400·log10(1/s - 1)`. The pentanomial model is
//! the right one when games come in pairs: the two games of a pair share an opening, so their
//! results are correlated, and counting them as independent games overstates the confidence when
//! openings are unbalanced. LOS is the probability, under the normal approximation, that the true
//! expected score is above ½.

use super::tally::{Pentanomial, Trinomial};

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval is the mean
/// ± this many standard errors.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// An estimate of the first engine's strength relative to the second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The mean score per game, 0..1.
    pub score: f64,
    /// The Elo difference for that score (infinite at a score of 0 or 1).
    pub elo: f64,
    /// The lower end of the 95% interval, in Elo.
    pub lower: f64,
    /// The upper end of the 95% interval, in Elo.
    pub upper: f64,
    /// The likelihood of superiority, 0..1.
    pub los: f64,
}

impl Estimate {
    /// The estimate from game pairs; `None` before the first complete pair.
    pub fn pentanomial(pairs: Pentanomial) -> Option<Estimate> {
        Estimate::from_counts(&Pentanomial::SCORES, &pairs.0)
    }

    /// The estimate from single games; `None` before the first game.
    pub fn trinomial(games: Trinomial) -> Option<Estimate> {
        Estimate::from_counts(&Trinomial::SCORES, &games.counts())
    }

    /// The estimate from counts of outcomes, each outcome worth its score (0..1).
    fn from_counts(scores: &[f64], counts: &[u64]) -> Option<Estimate> {
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let n = total as f64;
        let score: f64 = scores.iter().zip(counts).map(|(&a, &c)| a * c as f64 / n).sum();
        let variance: f64 =
            scores.iter().zip(counts).map(|(&a, &c)| c as f64 / n * (a - score).powi(2)).sum();
        let error = (variance / n).sqrt();
        let bound = |s: f64| elo_from_score(s.clamp(0.0, 1.0));
        let los = if error > 0.0 {
            normal_cdf((score - 0.5) / error)
        } else {
            // Every pair (or game) scored the same: certainty either way, or none at ½.
            match score.partial_cmp(&0.5) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            }
        };
        Some(Estimate {
            score,
            elo: elo_from_score(score),
            lower: bound(score - Z_95 * error),
            upper: bound(score + Z_95 * error),
            los,
        })
    }

    /// Half the width of the interval: the `±` figure engine testers quote (infinite when an
    /// end of the interval is).
    pub fn margin(&self) -> f64 {
        if self.lower.is_finite() && self.upper.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// The logistic Elo difference for an expected score `s` (0..1): `-400·log10(1/s - 1)`.
pub fn elo_from_score(s: f64) -> f64 {
    // Written as 400·log10(s / (1 - s)), which is +0.0 rather than -0.0 at an even score.
    400.0 * (s / (1.0 - s)).log10()
}

/// The expected score for a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ(x).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, by the Chebyshev fit of Numerical Recipes (`erfcc`), with a
/// relative error below 1.2e-7 everywhere: more than enough for a percentage shown with two
/// decimals, and it saves a dependency for one function.
fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = C.iter().rev().fold(0.0, |acc, &c| c + t * acc);
    let tail = t * (-z * z + poly).exp();
    if x >= 0.0 { tail } else { 2.0 - tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() <= tolerance, "{actual} is not {expected} ± {tolerance}");
    }

    #[test]
    fn the_logistic_curve_at_hand_checked_points() {
        assert!(elo_from_score(0.5).is_sign_positive() && elo_from_score(0.5) == 0.0);
        // 10^(1/2) = 3.1623: a 3:1 odds ratio is 400·log10(3) = 190.85 Elo.
        close(elo_from_score(0.75), 190.848_501_9, 1e-6);
        close(elo_from_score(0.25), -190.848_501_9, 1e-6);
        close(elo_from_score(10.0 / 11.0), 400.0, 1e-9);
        close(score_from_elo(400.0), 10.0 / 11.0, 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn the_normal_distribution_at_tabulated_points() {
        close(normal_cdf(0.0), 0.5, 1e-7);
        close(normal_cdf(1.0), 0.841_344_746, 1e-7);
        close(normal_cdf(-1.0), 0.158_655_254, 1e-7);
        close(normal_cdf(Z_95), 0.975, 1e-7);
        close(normal_cdf(3.0), 0.998_650_102, 1e-7);
        close(normal_cdf(-8.0), 0.0, 1e-12);
    }

    // The next cases are the published test values of fastchess (app/tests/elo_test.cpp), whose
    // estimates follow the same formulas; its Elo error is our `margin`.

    #[test]
    fn trinomial_estimates_match_fastchess() {
        let e = Estimate::trinomial(Trinomial { wins: 76, losses: 89, draws: 123 }).unwrap();
        close(e.score, 0.477, 0.001);
        close(e.los * 100.0, 15.53, 0.005);
        let e = Estimate::trinomial(Trinomial { wins: 136, losses: 96, draws: 111 }).unwrap();
        close(e.elo, 40.70, 0.005);
        close(e.margin(), 30.43, 0.005);
        close(e.los * 100.0, 99.60, 0.005);
    }

    #[test]
    fn pentanomial_estimates_match_fastchess() {
        // fastchess lists the pairs as LL, LD, WL, DD, WD, WW; WL and DD both score 1 point.
        let cases = [
            ([34, 54, 31 + 32, 64, 75], 55.58, 27.65, 100.00, 0.579),
            ([332, 433, 457 + 41, 333, 334], -8.64, 10.33, 5.05, 0.488),
            ([7895, 8757, 5485 + 200, 568, 9999], -21.04, 2.95, 0.00, 0.470),
        ];
        for (pairs, elo, margin, los, score) in cases {
            let e = Estimate::pentanomial(Pentanomial(pairs)).unwrap();
            close(e.elo, elo, 0.005);
            close(e.margin(), margin, 0.005);
            close(e.los * 100.0, los, 0.005);
            close(e.score, score, 0.001);
        }
    }

    #[test]
    fn the_interval_by_hand() {
        // 10 pairs: 5 scoring 2 points, 5 scoring 1. Mean 0.75 per game; per-pair variance
        // 0.0625; standard error sqrt(0.0625 / 10) = 0.0790569; the interval 0.75 ± 0.154949 is
        // 0.595051 .. 0.904949 in score, 66.86 .. 391.47 in Elo; LOS = Φ(0.25 / 0.0790569).
        let e = Estimate::pentanomial(Pentanomial([0, 0, 5, 0, 5])).unwrap();
        close(e.score, 0.75, 1e-12);
        close(e.lower, 66.861_718, 1e-5);
        close(e.upper, 391.466_477, 1e-5);
        close(e.los, 0.999_217_30, 1e-7);
    }

    #[test]
    fn degenerate_results() {
        assert_eq!(Estimate::pentanomial(Pentanomial::default()), None);
        let even = Estimate::pentanomial(Pentanomial([0, 0, 7, 0, 0])).unwrap();
        assert_eq!((even.elo, even.lower, even.upper, even.los), (0.0, 0.0, 0.0, 0.5));
        let sweep = Estimate::trinomial(Trinomial { wins: 4, draws: 0, losses: 0 }).unwrap();
        assert_eq!((sweep.elo, sweep.los, sweep.margin()), (f64::INFINITY, 1.0, f64::INFINITY));
        let mixed = Estimate::trinomial(Trinomial { wins: 3, draws: 0, losses: 1 }).unwrap();
        assert_eq!(mixed.upper, f64::INFINITY);
        assert!(mixed.lower.is_finite());
    }
}
