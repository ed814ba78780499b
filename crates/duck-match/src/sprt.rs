//! The sequential probability ratio test (SPRT) engine testers stop matches with: is the first
//! engine `elo1` stronger than the second (H1) or only `elo0` (H0)?
//!
//! ```
//! use arbiter_duck_match::sprt::{Decision, Sprt};
//! use arbiter_duck_match::tally::Pentanomial;
//!
//! let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
//! assert_eq!((sprt.alpha, sprt.beta), (0.05, 0.05));
//! let (lower, upper) = sprt.bounds();
//! assert!((lower + 2.944).abs() < 0.001 && (upper - 2.944).abs() < 0.001);
//!
//! // 200 pairs that favour the first engine clearly: H1 is accepted.
//! let llr = sprt.llr(Pentanomial([5, 20, 90, 55, 30]));
//! assert!(llr > upper);
//! assert_eq!(sprt.decision(llr), Some(Decision::H1));
//!
//! let error = "elo0=5,elo1=0".parse::<Sprt>().unwrap_err();
//! assert_eq!(error.to_string(), "expected elo0 below elo1, found elo0=5 and elo1=0");
//! ```
//!
//! The model is the one of OpenBench and of fishtest before normalised Elo (fastchess's
//! `model=logistic`): `elo0` and `elo1` are logistic Elo differences, the same unit the match
//! report's Elo is in; the data are game pairs (pentanomial), since every opening is played with
//! both colours; and the log-likelihood ratio is the generalised one (GSPRT) of Michel Van den
//! Bergh, "Comparing the approximations for the generalized log likelihood ratio of a
//! multinomial distribution": for each hypothesis, the distribution closest to the observed
//! frequencies whose expected score is that hypothesis's score (found by solving one equation
//! in one unknown), then `LLR = N · Σ p̂ᵢ · ln(p₁ᵢ / p₀ᵢ)`. The bounds are Wald's:
//! `ln(β / (1 − α))` and `ln((1 − β) / α)`. Empty classes count as 0.001, as fastchess counts
//! them, so that the estimates exist from the first pair on.

use std::fmt;
use std::str::FromStr;

use super::elo::score_from_elo;
use super::tally::{Pentanomial, Trinomial};

/// A test of H0 "the first engine is `elo0` stronger" against H1 "it is `elo1` stronger", with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// The hypothesis a test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The first engine is not `elo1` stronger: the LLR fell to the lower bound.
    H0,
    /// The first engine is `elo1` stronger: the LLR rose to the upper bound.
    H1,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        })
    }
}

/// What stands in the count of an empty class.
const EMPTY_CLASS: f64 = 1e-3;

impl Sprt {
    /// The test with the usual error rates, 5% each.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 for these game pairs.
    pub fn llr(&self, pairs: Pentanomial) -> f64 {
        self.llr_of(&Pentanomial::SCORES, &pairs.0)
    }

    /// The log-likelihood ratio counting games one by one (for games that do not come in
    /// pairs; the match runner always has pairs).
    pub fn llr_trinomial(&self, games: Trinomial) -> f64 {
        self.llr_of(&Trinomial::SCORES, &games.counts())
    }

    /// The hypothesis accepted at this LLR, if the test is over.
    pub fn decision(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }

    fn llr_of(&self, scores: &[f64], counts: &[u64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts: Vec<f64> =
            counts.iter().map(|&c| if c == 0 { EMPTY_CLASS } else { c as f64 }).collect();
        let total: f64 = counts.iter().sum();
        let observed: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let p0 = closest_with_mean(scores, &observed, score_from_elo(self.elo0));
        let p1 = closest_with_mean(scores, &observed, score_from_elo(self.elo1));
        total
            * observed
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(o, (a, b))| o * (b / a).ln())
                .sum::<f64>()
    }
}

/// The distribution over `scores` with mean `mean` that maximises the likelihood of the
/// `observed` frequencies (all positive; `scores` increasing, `mean` strictly inside their
/// range): `pᵢ = p̂ᵢ / (1 + θ·(aᵢ − mean))`, where θ solves `Σ p̂ᵢ·(aᵢ − mean) / (1 + θ·(aᵢ − mean))
/// = 0` (Van den Bergh, Proposition 1.1).
///
/// The left side decreases in θ over the interval where every denominator is positive, from +∞
/// to −∞, so bisection finds the root; 200 halvings reach the limit of `f64`.
fn closest_with_mean(scores: &[f64], observed: &[f64], mean: f64) -> Vec<f64> {
    let slope = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(observed)
            .map(|(&a, &p)| p * (a - mean) / (1.0 + theta * (a - mean)))
            .sum()
    };
    let (first, last) = (scores[0], scores[scores.len() - 1]);
    let (mut low, mut high) = (-1.0 / (last - mean), -1.0 / (first - mean));
    for _ in 0..200 {
        let middle = low + (high - low) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = low + (high - low) / 2.0;
    scores.iter().zip(observed).map(|(&a, &p)| p / (1.0 + theta * (a - mean))).collect()
}

/// A `--sprt` value that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found}")]
pub struct ParseSprtError {
    /// What the value needs.
    pub expected: String,
    /// What stands there instead.
    pub found: String,
}

impl FromStr for Sprt {
    type Err = ParseSprtError;

    /// Reads `elo0=E0,elo1=E1[,alpha=A][,beta=B]` (the keys in any order; alpha and beta 0.05
    /// when absent).
    fn from_str(text: &str) -> Result<Sprt, ParseSprtError> {
        let error =
            |expected: &str, found: String| ParseSprtError { expected: expected.to_owned(), found };
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in text.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(error("KEY=VALUE (elo0, elo1, alpha or beta)", format!("`{part}`")));
            };
            let number =
                value.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                    error(&format!("a number after {key}="), format!("`{value}`"))
                })?;
            match key.trim() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => return Err(error("elo0, elo1, alpha or beta", format!("`{key}`"))),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(error("both elo0 and elo1", format!("`{text}`")));
        };
        if elo0 >= elo1 {
            return Err(error("elo0 below elo1", format!("elo0={elo0} and elo1={elo1}")));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 1.0) {
                return Err(error(&format!("{name} between 0 and 1"), format!("{name}={rate}")));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(error("alpha + beta below 1", format!("alpha={alpha} and beta={beta}")));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elo0={},elo1={},alpha={},beta={}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() <= tolerance, "{actual} is not {expected} ± {tolerance}");
    }

    /// fastchess writes pairs as LL, LD, WL, DD, WD, WW.
    fn pairs(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial([ll, ld, wl + dd, wd, ww])
    }

    // The published test values of fastchess (app/tests/sprt_test.cpp) for its logistic model,
    // which this one is; they agree with fishtest's and OpenBench's to the digits shown.

    #[test]
    fn pentanomial_llr_matches_fastchess() {
        let sprt = Sprt::new(0.5, 2.5);
        close(sprt.llr(pairs(223, 9863, 20279, 1000, 10037, 246)), -3.07, 0.005);
        let sprt = Sprt::new(0.0, 2.0);
        close(sprt.llr(pairs(871, 26175, 55003, 980, 26678, 821)), -4.98, 0.005);
    }

    #[test]
    fn trinomial_llr_matches_fastchess() {
        let sprt = Sprt::new(0.5, 2.5);
        let games = Trinomial { wins: 21404, losses: 21184, draws: 40708 };
        close(sprt.llr_trinomial(games), -1.57, 0.005);
        let sprt = Sprt::new(0.0, 2.0);
        let games = Trinomial { wins: 57433, losses: 57030, draws: 106593 };
        close(sprt.llr_trinomial(games), -2.59, 0.005);
    }

    #[test]
    fn the_constrained_distribution_has_the_asked_mean_and_stays_a_distribution() {
        let observed = [0.1, 0.2, 0.4, 0.2, 0.1];
        for mean in [0.3, 0.5, 0.5143, 0.7] {
            let p = closest_with_mean(&Pentanomial::SCORES, &observed, mean);
            close(p.iter().sum(), 1.0, 1e-12);
            close(p.iter().zip(Pentanomial::SCORES).map(|(p, a)| p * a).sum(), mean, 1e-12);
            assert!(p.iter().all(|&p| p > 0.0));
        }
        // When the observed mean is the asked one, the observed distribution is the answer.
        let p = closest_with_mean(&Pentanomial::SCORES, &observed, 0.5);
        for (p, o) in p.iter().zip(observed) {
            close(*p, o, 1e-12);
        }
    }

    #[test]
    fn the_llr_grows_with_evidence_and_keeps_its_sign() {
        let sprt = Sprt::new(0.0, 10.0);
        // No pairs, no evidence.
        assert_eq!(sprt.llr(Pentanomial::default()), 0.0);
        let strong = Pentanomial([10, 20, 40, 30, 20]);
        let stronger = Pentanomial([20, 40, 80, 60, 40]);
        assert!(sprt.llr(strong) > 0.0);
        close(sprt.llr(stronger), 2.0 * sprt.llr(strong), 1e-9);
        let weak = Pentanomial([20, 30, 40, 20, 10]);
        assert!(sprt.llr(weak) < 0.0);
        assert_eq!(sprt.decision(sprt.llr(Pentanomial([0, 0, 0, 0, 1000]))), Some(Decision::H1));
        assert_eq!(sprt.decision(sprt.llr(Pentanomial([1000, 0, 0, 0, 0]))), Some(Decision::H0));
        assert_eq!(sprt.decision(0.0), None);
    }

    #[test]
    fn wald_bounds() {
        let sprt = Sprt { alpha: 0.05, beta: 0.1, ..Sprt::new(0.0, 5.0) };
        let (lower, upper) = sprt.bounds();
        close(lower, (0.1f64 / 0.95).ln(), 1e-12);
        close(upper, 18f64.ln(), 1e-12);
    }

    #[test]
    fn sprt_values_read_and_refuse() {
        let sprt: Sprt = "elo0=-1.5, elo1=2.5,alpha=0.1,beta=0.02".parse().unwrap();
        assert_eq!(sprt, Sprt { elo0: -1.5, elo1: 2.5, alpha: 0.1, beta: 0.02 });
        assert_eq!(sprt.to_string().parse::<Sprt>(), Ok(sprt));
        let refused = [
            ("elo0=0", "expected both elo0 and elo1, found `elo0=0`"),
            ("elo0=0,elo1", "expected KEY=VALUE (elo0, elo1, alpha or beta), found `elo1`"),
            ("elo0=0,elo1=x", "expected a number after elo1=, found `x`"),
            ("elo0=0,elo1=inf", "expected a number after elo1=, found `inf`"),
            ("elo0=0,elo1=5,gamma=1", "expected elo0, elo1, alpha or beta, found `gamma`"),
            ("elo0=0,elo1=5,alpha=0", "expected alpha between 0 and 1, found alpha=0"),
            ("elo0=0,elo1=5,alpha=0.5,beta=0.5", "expected alpha + beta below 1"),
        ];
        for (text, message) in refused {
            let error = text.parse::<Sprt>().unwrap_err().to_string();
            assert!(error.starts_with(message), "{text}: {error}");
        }
    }
}
