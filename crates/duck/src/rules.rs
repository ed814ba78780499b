//! The game's definition, in one place that every tool asks: where the pieces start, how many of
//! each a side has, and how a game ends. [`Board`](crate::Board) sets up the start from here,
//! [`Position`](crate::Position) checks piece counts against it and reports the end of a game as
//! an [`Outcome`], and every loop that plays whole games (matches, `arbiter duck play`, tuning)
//! stops at the same [`MAX_PLIES`].
//!
//! ```
//! use arbiter_duck::rules::{self, EndReason, Outcome};
//! use arbiter_duck::{Color, Position};
//!
//! assert_eq!(rules::START_COUNTS, [2, 2, 2, 2, 1, 5, 2]);
//! let start = Position::new();
//! assert_eq!(start.outcome(), None);
//! let capped = start.outcome_after(300, rules::MAX_PLIES).unwrap();
//! assert_eq!(capped, Outcome { winner: None, reason: EndReason::PlyCap { plies: 300 } });
//! assert_eq!(capped.to_string(), "a draw: 300 moves without a captured captain");
//! let won = Outcome::captain_captured(Color::Red);
//! assert_eq!(won.to_string(), "red wins: the blue captain is captured");
//! ```

use std::fmt;

use crate::{Color, Role};

/// Red's pieces at the start, as (row, column, role); blue's mirror them across the middle
/// (row 9 − row, same column).
pub const RED_START: [(u8, u8, Role); 16] = [
    (0, 0, Role::Car),
    (0, 1, Role::Horse),
    (0, 2, Role::Elephant),
    (0, 3, Role::Guard),
    (0, 4, Role::Captain),
    (0, 5, Role::Guard),
    (0, 6, Role::Elephant),
    (0, 7, Role::Horse),
    (0, 8, Role::Car),
    (2, 0, Role::Duck),
    (2, 8, Role::Duck),
    (3, 0, Role::Soldier),
    (3, 2, Role::Soldier),
    (3, 4, Role::Soldier),
    (3, 6, Role::Soldier),
    (3, 8, Role::Soldier),
];

/// How many pieces of each role a side starts with, in the official order of roles. No piece is
/// ever added, so a side never has more.
pub const START_COUNTS: [u32; 7] = {
    let mut counts = [0; 7];
    let mut i = 0;
    while i < RED_START.len() {
        counts[RED_START[i].2.index()] += 1;
        i += 1;
    }
    counts
};

/// The ply cap: a game still going after this many plies (an opening's included) is a draw, since
/// the game has no repetition or move-count rule of its own.
pub const MAX_PLIES: u32 = 300;

/// How a game has ended: who won (`None` for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side that won; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner captured the other side's captain.
    CaptainCaptured,
    /// The side to move still has its captain but no valid move (every piece is blocked). The
    /// statement does not cover this; it is a draw.
    NoMove {
        /// The side that cannot move.
        side: Color,
    },
    /// The game reached the ply cap (see [`MAX_PLIES`]): a draw.
    PlyCap {
        /// The cap.
        plies: u32,
    },
}

impl Outcome {
    /// `winner` has captured the other side's captain.
    #[inline]
    pub const fn captain_captured(winner: Color) -> Outcome {
        Outcome { winner: Some(winner), reason: EndReason::CaptainCaptured }
    }

    /// `side`, to move, has no valid move: a draw.
    #[inline]
    pub const fn no_move(side: Color) -> Outcome {
        Outcome { winner: None, reason: EndReason::NoMove { side } }
    }

    /// A draw at the ply cap, once `plies` plies have been played under a cap of `max_plies`.
    #[inline]
    pub fn ply_cap(plies: usize, max_plies: u32) -> Option<Outcome> {
        (plies >= max_plies as usize)
            .then_some(Outcome { winner: None, reason: EndReason::PlyCap { plies: max_plies } })
    }
}

impl fmt::Display for Outcome {
    /// One line for a person, e.g. `red wins: the blue captain is captured`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.reason, self.winner) {
            (EndReason::CaptainCaptured, Some(winner)) => {
                write!(f, "{winner} wins: the {} captain is captured", !winner)
            }
            (EndReason::CaptainCaptured, None) => f.write_str("a captain is captured"),
            (EndReason::NoMove { side }, _) => write!(f, "{side} has no valid move: a draw"),
            (EndReason::PlyCap { plies }, _) => {
                write!(f, "a draw: {plies} moves without a captured captain")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_reached_at_its_last_ply() {
        assert_eq!(Outcome::ply_cap(299, MAX_PLIES), None);
        let capped = Outcome::ply_cap(300, MAX_PLIES).unwrap();
        assert_eq!(capped.reason, EndReason::PlyCap { plies: 300 });
        assert_eq!(Outcome::ply_cap(usize::MAX, u32::MAX).map(|o| o.winner), Some(None));
    }

    #[test]
    fn outcomes_read_as_the_game_loop_prints_them() {
        assert_eq!(Outcome::no_move(Color::Blue).to_string(), "blue has no valid move: a draw");
        let won = Outcome::captain_captured(Color::Blue);
        assert_eq!(won.to_string(), "blue wins: the red captain is captured");
    }
}
