//! What a position is worth: the engine's score seen from red's side ([`RedScore`]), and the
//! expected score of the side to move, a logistic of the evaluation fitted to self-play results
//! ([`expected`]).
//!
//! ```
//! use arbiter_duck::Color;
//! use arbiter_duck_engine::value::Score;
//! use arbiter_duck_learn::score::{self, RedScore};
//!
//! // Blue to move, a soldier up: red's view is a soldier down.
//! assert_eq!(RedScore::new(Score::Centipawns(100), Color::Blue), RedScore::Cp(-100));
//! assert_eq!(serde_json::to_string(&RedScore::Cp(-100)).unwrap(), "-100");
//! assert_eq!(serde_json::to_string(&RedScore::Mate(3)).unwrap(), r#"{"mate":3}"#);
//! // Even is an even chance; a captain captured by force is a certain win.
//! assert_eq!(score::expected(Score::Centipawns(0)), 0.5);
//! assert_eq!(score::expected(Score::Mate(4)), 1.0);
//! assert_eq!(score::expected(Score::Mate(-1)), 0.0);
//! assert!(score::expected(Score::Centipawns(1000)) > 0.85);
//! ```
//!
//! # The curve
//!
//! `E(v) = 1 / (1 + exp(-v / SCALE))`, with `v` in centipawns (hundredths of a soldier) from the
//! side to move's view and a draw counting a half. [`SCALE`] was fitted by maximum likelihood to
//! the results of self-play games (`examples/fit_curve.rs`; the data, the command and the fit are
//! in `docs/engine.md`, "Game analysis"). A forced capture of the captain counts 1 for the side
//! that captures, 0 for the other.

use arbiter_duck::Color;
use arbiter_duck_engine::value::Score;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

/// The logistic's scale in centipawns: an advantage of `SCALE` is worth an expected score of
/// `1 / (1 + e^-1)`, about 0.73. Fitted to self-play results (module docs).
pub const SCALE: f64 = 522.0;

/// The expected score of the side to move, 0 to 1 (a draw counts a half), for its `score`.
pub fn expected(score: Score) -> f64 {
    match score {
        Score::Centipawns(cp) => logistic(f64::from(cp), SCALE),
        Score::Mate(moves) if moves > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// `1 / (1 + exp(-cp / scale))`.
pub fn logistic(cp: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-cp / scale).exp())
}

/// A score seen from red's side: centipawns, or the moves until a captain is captured (positive
/// when red captures), or a game already over.
///
/// As JSON: a number for centipawns, `{"mate": N}` for a forced capture (N ≠ 0: red captures in
/// N of its moves when positive, blue in −N of its moves when negative), `{"mate": 0, "winner":
/// "red"}` once a captain is captured, and 0 for a game drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(from = "Wire")]
pub enum RedScore {
    /// Hundredths of a soldier, positive when red is better.
    Cp(i32),
    /// A captain is captured by force in this many moves of the capturing side: red's when
    /// positive.
    Mate(i32),
    /// The game is over: this side has captured the other's captain.
    Won(Color),
}

impl RedScore {
    /// `score`, from the point of view of `turn` (the side to move), seen by red.
    pub fn new(score: Score, turn: Color) -> RedScore {
        let sign = if turn == Color::Red { 1 } else { -1 };
        match score {
            Score::Centipawns(cp) => RedScore::Cp(sign * cp),
            Score::Mate(moves) => RedScore::Mate(sign * moves),
        }
    }

    /// This score from `side`'s point of view, as the search reports scores (a finished game
    /// is a capture in 0 moves, won or lost).
    pub fn for_side(self, side: Color) -> Score {
        let sign = if side == Color::Red { 1 } else { -1 };
        match self {
            RedScore::Cp(cp) => Score::Centipawns(sign * cp),
            RedScore::Mate(moves) => Score::Mate(sign * moves),
            RedScore::Won(winner) if winner == side => Score::Mate(1),
            RedScore::Won(_) => Score::Mate(-1),
        }
    }

    /// Centipawns from red's side, a forced or done capture counted as ±`cap`, the rest
    /// clamped to ±`cap`.
    pub fn capped(self, cap: i32) -> i32 {
        match self {
            RedScore::Cp(cp) => cp.clamp(-cap, cap),
            RedScore::Mate(moves) if moves > 0 => cap,
            RedScore::Mate(_) => -cap,
            RedScore::Won(Color::Red) => cap,
            RedScore::Won(Color::Blue) => -cap,
        }
    }

    /// Red's expected score.
    pub fn red_expected(self) -> f64 {
        expected(self.for_side(Color::Red))
    }
}

impl Serialize for RedScore {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            RedScore::Cp(cp) => serializer.serialize_i32(cp),
            RedScore::Mate(moves) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("mate", &moves)?;
                map.end()
            }
            RedScore::Won(winner) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("mate", &0)?;
                map.serialize_entry("winner", winner.name())?;
                map.end()
            }
        }
    }
}

/// The JSON forms [`RedScore`] is read from.
#[derive(Deserialize)]
#[serde(untagged)]
enum Wire {
    Cp(i32),
    Mate {
        mate: i32,
        #[serde(default)]
        winner: Option<WireColor>,
    },
}

/// A side's name in JSON.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum WireColor {
    Red,
    Blue,
}

impl From<Wire> for RedScore {
    fn from(wire: Wire) -> RedScore {
        match wire {
            Wire::Cp(cp) => RedScore::Cp(cp),
            Wire::Mate { mate: 0, winner: Some(WireColor::Red) } => RedScore::Won(Color::Red),
            Wire::Mate { mate: 0, winner: Some(WireColor::Blue) } => RedScore::Won(Color::Blue),
            Wire::Mate { mate, .. } => RedScore::Mate(mate),
        }
    }
}

/// What a maximum-likelihood fit of the curve found.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The fitted scale, in centipawns.
    pub scale: f64,
    /// The mean cross-entropy of the results under the fitted curve (nats per position).
    pub loss: f64,
    /// The number of positions fitted.
    pub positions: usize,
}

/// Fits [`SCALE`]: the scale `s` that maximises the likelihood of the `results` (the side to
/// move's score in its game, 0, ½ or 1) given the positions' search scores `cp` under
/// `E(cp) = 1 / (1 + exp(-cp / s))`, by a golden-section search on `ln s` between 10 and 10,000
/// centipawns (the loss has one minimum there). `None` for no positions.
pub fn fit(samples: &[(i32, f64)]) -> Option<Fit> {
    if samples.is_empty() {
        return None;
    }
    let loss = |scale: f64| {
        let total: f64 = samples
            .iter()
            .map(|&(cp, result)| {
                let p = logistic(f64::from(cp), scale).clamp(1e-12, 1.0 - 1e-12);
                -(result * p.ln() + (1.0 - result) * (1.0 - p).ln())
            })
            .sum();
        total / samples.len() as f64
    };
    let (mut low, mut high) = (10f64.ln(), 10_000f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(a.exp()) < loss(b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    let scale = ((low + high) / 2.0).exp();
    Some(Fit { scale, loss: loss(scale), positions: samples.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_scores_read_back_as_written() {
        for score in [
            RedScore::Cp(-35),
            RedScore::Mate(2),
            RedScore::Mate(-4),
            RedScore::Won(Color::Red),
            RedScore::Won(Color::Blue),
        ] {
            let json = serde_json::to_string(&score).unwrap();
            assert_eq!(serde_json::from_str::<RedScore>(&json).unwrap(), score, "{json}");
        }
        assert_eq!(
            serde_json::to_string(&RedScore::Won(Color::Blue)).unwrap(),
            r#"{"mate":0,"winner":"blue"}"#
        );
    }

    #[test]
    fn a_side_sees_the_score_the_other_way_round() {
        let score = RedScore::new(Score::Mate(-2), Color::Blue);
        assert_eq!(score, RedScore::Mate(2));
        assert_eq!(score.for_side(Color::Blue), Score::Mate(-2));
        assert_eq!(RedScore::Won(Color::Blue).for_side(Color::Blue), Score::Mate(1));
        assert_eq!(RedScore::Cp(1500).capped(1000), 1000);
        assert_eq!(RedScore::Won(Color::Blue).capped(1000), -1000);
    }

    #[test]
    fn the_fit_finds_the_scale_the_results_were_drawn_with() {
        // Results drawn without noise from a known curve: the expected score itself as the
        // result is the likelihood's fixed point.
        let samples: Vec<(i32, f64)> =
            (-800..=800).step_by(10).map(|cp| (cp, logistic(f64::from(cp), 180.0))).collect();
        let fit = fit(&samples).unwrap();
        assert!((fit.scale - 180.0).abs() < 0.5, "{fit:?}");
        assert_eq!(fit.positions, samples.len());
        assert!(super::fit(&[]).is_none());
    }
}
