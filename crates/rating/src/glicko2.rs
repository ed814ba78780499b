//! Glicko-2, step by step as Mark Glickman's "Example of the Glicko-2 system" (2013) gives it,
//! with its worked example as a test.
//!
//! A rating is a value, a deviation (how uncertain the value is) and a volatility (how erratic
//! the player's results are). Each game is a rating period of its own, rated as soon as it ends
//! (so that a player sees the change at once, as on lichess); before it, the deviation grows by
//! one period for each whole day the player has not played in the category ([`Rating::idle`]),
//! since a rating nobody has seen used grows uncertain.
//!
//! The system constant τ is 0.5, the value of the paper's own example and the middle of the
//! range (0.3 to 1.2) it advises: it bounds how fast the volatility may change, and so how much
//! one surprising result may move a rating.
//!
//! ```
//! use arbiter_rating::{Glicko2, Outcome, Rating, Score};
//!
//! // The paper's example.
//! let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
//! let games = [
//!     Outcome { opponent: Rating { rating: 1400.0, deviation: 30.0, volatility: 0.06 }, score: Score::Win },
//!     Outcome { opponent: Rating { rating: 1550.0, deviation: 100.0, volatility: 0.06 }, score: Score::Loss },
//!     Outcome { opponent: Rating { rating: 1700.0, deviation: 300.0, volatility: 0.06 }, score: Score::Loss },
//! ];
//! let after = Glicko2::ARBITER.rate(player, &games);
//! assert_eq!(format!("{:.2} {:.2} {:.4}", after.rating, after.deviation, after.volatility),
//!            "1464.05 151.52 0.0600");
//! ```
//!
//! (The paper prints 1464.06 and 0.05999: it rounds each step to a few digits; computed through,
//! the values are 1464.0507 and 0.0599960.)

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

/// Glicko-2's scale: a rating's distance from 1500, divided by this, is its `μ`.
pub const SCALE: f64 = 173.7178;

/// The centre of the scale and every newcomer's rating.
pub const CENTRE: f64 = 1500.0;

/// The deviation above which a rating is provisional (shown with a `?`): 110, as on lichess.
pub const PROVISIONAL: f64 = 110.0;

/// How close the volatility's iteration comes to its root (the paper's ε).
pub const EPSILON: f64 = 0.000_001;

/// A player's rating in one category.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating itself (Glicko's scale: 1500 for a newcomer).
    pub rating: f64,
    /// The rating deviation: the rating is within twice this of the player's strength, 95 times
    /// out of 100.
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// Every newcomer's rating: 1500 ± 350, volatility 0.06.
    pub const START: Rating = Rating { rating: CENTRE, deviation: 350.0, volatility: 0.06 };

    /// Whether the rating is still provisional: its deviation is over [`PROVISIONAL`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL
    }

    /// The rating after `periods` rating periods without a game: the deviation grows (step 6 of
    /// the paper with no game), never beyond a newcomer's; the rating and volatility stay.
    pub fn idle(self, periods: u32) -> Rating {
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + f64::from(periods) * self.volatility * self.volatility).sqrt();
        Rating { deviation: (grown * SCALE).min(Rating::START.deviation), ..self }
    }

    /// `μ` and `φ`, the rating and deviation on Glicko-2's scale (step 2).
    fn scaled(&self) -> (f64, f64) {
        ((self.rating - CENTRE) / SCALE, self.deviation / SCALE)
    }
}

/// A game's result for the player rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Lost: 0.
    Loss,
    /// Drawn: ½.
    Draw,
    /// Won: 1.
    Win,
}

impl Score {
    /// 0, ½ or 1.
    pub const fn value(self) -> f64 {
        match self {
            Score::Loss => 0.0,
            Score::Draw => 0.5,
            Score::Win => 1.0,
        }
    }

    /// The same game's result for the opponent.
    pub const fn reversed(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }
}

/// One game of a rating period: the opponent's rating before it, and the result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The opponent's rating at the start of the period.
    pub opponent: Rating,
    /// The result for the player rated.
    pub score: Score,
}

/// The system, with its constant τ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2 {
    /// τ: how much the volatility may change in a period.
    pub tau: f64,
}

/// `g(φ)`: how much a game against an opponent of deviation `φ` counts.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// `E`: the expected score against an opponent at `mu_j` of deviation `phi_j`.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// arbiter's system: τ = 0.5.
    pub const ARBITER: Glicko2 = Glicko2 { tau: 0.5 };

    /// The player's rating after a rating period of `games` (steps 2 to 8 of the paper). With no
    /// game, only the deviation grows, by one period.
    pub fn rate(&self, player: Rating, games: &[Outcome]) -> Rating {
        if games.is_empty() {
            return player.idle(1);
        }
        let (mu, phi) = player.scaled();
        // Step 3: v, the estimated variance of the rating from the games alone; step 4: Δ, the
        // estimated improvement. `sum` is Σ g(φj)(sj − Ej), which step 7 uses again.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let (mu_j, phi_j) = game.opponent.scaled();
            let (g_j, e_j) = (g(phi_j), expected(mu, mu_j, phi_j));
            inverse_v += g_j * g_j * e_j * (1.0 - e_j);
            sum += g_j * (game.score.value() - e_j);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = self.volatility(phi, player.volatility, v, delta);
        // Step 6: the deviation grown by one period; step 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        // Step 8: back to Glicko's scale.
        Rating { rating: SCALE * mu_new + CENTRE, deviation: SCALE * phi_new, volatility: sigma }
    }

    /// Both players' ratings after a game between them, each rated as a period of that one game
    /// against the other's rating before it; `score` is the first player's result.
    pub fn game(&self, first: Rating, second: Rating, score: Score) -> (Rating, Rating) {
        (
            self.rate(first, &[Outcome { opponent: second, score }]),
            self.rate(second, &[Outcome { opponent: first, score: score.reversed() }]),
        )
    }

    /// Step 5: the new volatility σ′, the root of the paper's `f` found by the Illinois
    /// algorithm (a regula falsi that halves the stale end's value).
    fn volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let denominator = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * denominator * denominator)
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > EPSILON {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        (big_a / 2.0).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating { rating, deviation, volatility: 0.06 }
    }

    /// The paper's example: a player at 1500 ± 200 beats a 1400 ± 30, loses to a 1550 ± 100 and
    /// to a 1700 ± 300; the paper finds 1464.06 ± 151.52, volatility 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let games = [
            Outcome { opponent: rating(1400.0, 30.0), score: Score::Win },
            Outcome { opponent: rating(1550.0, 100.0), score: Score::Loss },
            Outcome { opponent: rating(1700.0, 300.0), score: Score::Loss },
        ];
        let after = Glicko2 { tau: 0.5 }.rate(rating(1500.0, 200.0), &games);
        // The paper rounds its intermediate steps and prints its results to the digits given:
        // computed through, they are 1464.0507, 151.5165 and 0.0599960.
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
        // The paper's intermediate values: v = 1.7785, Δ = −0.4834 (checked through μ′).
        let mu = (after.rating - CENTRE) / SCALE;
        assert!((mu - -0.2069).abs() < 0.0001, "μ′ = {mu}");
        let phi = after.deviation / SCALE;
        assert!((phi - 0.8722).abs() < 0.0001, "φ′ = {phi}");
    }

    #[test]
    fn a_period_without_games_only_grows_the_deviation() {
        let player = rating(1500.0, 200.0);
        let after = Glicko2::ARBITER.rate(player, &[]);
        // φ′ = √(φ² + σ²) on Glicko-2's scale.
        let expected = ((200.0 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-9);
        assert_eq!((after.rating, after.volatility), (1500.0, 0.06));
        assert_eq!(Rating::START.idle(1000), Rating::START);
    }

    #[test]
    fn provisional_means_a_deviation_over_110() {
        assert!(Rating::START.is_provisional());
        assert!(rating(1500.0, 110.01).is_provisional());
        assert!(!rating(1500.0, 110.0).is_provisional());
    }
}
