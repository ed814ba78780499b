//! The marks a move earns from the drop in its side's expected score: an inaccuracy `?!`, a
//! mistake `?` or a blunder `??`.
//!
//! The drop is what the move cost its side against the engine's best move: the expected score
//! ([`crate::score::expected`]) of the best move less that of the move played, both searched
//! from the position before the move (so the side to move is the same and the search alike).
//! The thresholds are lichess's (a drop of 0.1, 0.2 and 0.3 in its "winning chances", which run
//! from −1 to 1, so 0.05, 0.10 and 0.15 of an expected score from 0 to 1), applied to this
//! game's own fitted curve.
//!
//! ```
//! use arbiter_duck_learn::mark::Mark;
//!
//! assert_eq!(Mark::for_drop(0.04), None);
//! assert_eq!(Mark::for_drop(0.05), Some(Mark::Inaccuracy));
//! assert_eq!(Mark::for_drop(0.12), Some(Mark::Mistake));
//! assert_eq!(Mark::for_drop(0.5).unwrap().symbol(), "??");
//! assert_eq!("?!".parse::<Mark>(), Ok(Mark::Inaccuracy));
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// `?!`: the side's expected score dropped by at least [`Mark::INACCURACY`].
    #[serde(rename = "?!")]
    Inaccuracy,
    /// `?`: by at least [`Mark::MISTAKE`].
    #[serde(rename = "?")]
    Mistake,
    /// `??`: by at least [`Mark::BLUNDER`].
    #[serde(rename = "??")]
    Blunder,
}

impl Mark {
    /// The drop in expected score that makes an inaccuracy.
    pub const INACCURACY: f64 = 0.05;
    /// The drop that makes a mistake.
    pub const MISTAKE: f64 = 0.10;
    /// The drop that makes a blunder.
    pub const BLUNDER: f64 = 0.15;

    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark of a move that lost `drop` of its side's expected score (0 to 1), if any.
    pub fn for_drop(drop: f64) -> Option<Mark> {
        Mark::ALL.into_iter().rev().find(|mark| drop >= mark.threshold())
    }

    /// The least drop that earns this mark.
    pub const fn threshold(self) -> f64 {
        match self {
            Mark::Inaccuracy => Mark::INACCURACY,
            Mark::Mistake => Mark::MISTAKE,
            Mark::Blunder => Mark::BLUNDER,
        }
    }

    /// The mark as annotations write it: `?!`, `?` or `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark's name in words.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// A text that is not a mark.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a mark (`?!`, `?` or `??`), found `{0}`")]
pub struct ParseMarkError(pub String);

impl FromStr for Mark {
    type Err = ParseMarkError;

    fn from_str(text: &str) -> Result<Mark, ParseMarkError> {
        Mark::ALL
            .into_iter()
            .find(|mark| mark.symbol() == text)
            .ok_or_else(|| ParseMarkError(text.to_owned()))
    }
}
