//! The categories a player is rated in apart, by how long a game of a time control is expected
//! to last: its starting time plus 40 times its increment (a game of 40 moves each), as lichess
//! counts it. A player's bullet rating says nothing of their classical play.
//!
//! | category | expected duration |
//! | --- | --- |
//! | bullet | under 3 minutes (`1+0`, `2+1`) |
//! | blitz | under 8 minutes (`3+0`, `3+2`, `5+3`) |
//! | rapid | under 25 minutes (`10+0`, `15+10`) |
//! | classical | 25 minutes or more (`30+0`) |

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A rating category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Expected under 3 minutes.
    Bullet,
    /// Expected under 8 minutes.
    Blitz,
    /// Expected under 25 minutes.
    Rapid,
    /// Expected 25 minutes or more.
    Classical,
}

/// The moves each side is expected to play, by which the increment counts.
pub const EXPECTED_MOVES: u64 = 40;

/// Each category with the expected duration (in seconds) it stays under, shortest first.
const BOUNDS: [(Category, u64); 3] =
    [(Category::Bullet, 3 * 60), (Category::Blitz, 8 * 60), (Category::Rapid, 25 * 60)];

impl Category {
    /// Every category, shortest first.
    pub const ALL: [Category; 4] =
        [Category::Bullet, Category::Blitz, Category::Rapid, Category::Classical];

    /// The category of a time control of `initial_ms` each and `increment_ms` per move.
    pub fn of(initial_ms: u64, increment_ms: u64) -> Category {
        let seconds =
            (initial_ms / 1000).saturating_add(EXPECTED_MOVES.saturating_mul(increment_ms / 1000));
        BOUNDS
            .iter()
            .find(|(_, under)| seconds < *under)
            .map_or(Category::Classical, |(category, _)| *category)
    }

    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCategory;

impl fmt::Display for UnknownCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a category is bullet, blitz, rapid or classical")
    }
}

impl std::error::Error for UnknownCategory {}

impl FromStr for Category {
    type Err = UnknownCategory;

    fn from_str(text: &str) -> Result<Category, UnknownCategory> {
        Category::ALL.into_iter().find(|c| c.name() == text).ok_or(UnknownCategory)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `minutes+seconds` in milliseconds.
    fn control(minutes: f64, seconds: u64) -> (u64, u64) {
        ((minutes * 60_000.0) as u64, seconds * 1000)
    }

    #[test]
    fn common_time_controls_fall_where_lichess_puts_them() {
        let cases = [
            ((0.5, 0), Category::Bullet),
            ((1.0, 0), Category::Bullet),
            ((2.0, 1), Category::Bullet),
            ((3.0, 0), Category::Blitz),
            ((3.0, 2), Category::Blitz),
            ((5.0, 3), Category::Blitz),
            ((5.0, 5), Category::Rapid),
            ((10.0, 0), Category::Rapid),
            ((15.0, 10), Category::Rapid),
            ((25.0, 0), Category::Classical),
            ((30.0, 20), Category::Classical),
        ];
        for ((minutes, seconds), expected) in cases {
            let (initial, increment) = control(minutes, seconds);
            assert_eq!(Category::of(initial, increment), expected, "{minutes}+{seconds}");
        }
    }

    #[test]
    fn the_bounds_are_strict() {
        // 2+1 is 120 + 40 = 160 s; 1+3 is 60 + 120 = 180 s, the first blitz duration.
        assert_eq!(Category::of(60_000, 3_000), Category::Blitz);
        assert_eq!(Category::of(479_000, 0), Category::Blitz);
        assert_eq!(Category::of(480_000, 0), Category::Rapid);
        assert_eq!(Category::of(1_499_000, 0), Category::Rapid);
        assert_eq!(Category::of(1_500_000, 0), Category::Classical);
        assert_eq!(Category::of(u64::MAX, u64::MAX), Category::Classical);
    }

    #[test]
    fn names_read_back() {
        for category in Category::ALL {
            assert_eq!(category.name().parse(), Ok(category));
        }
        assert_eq!("Blitz".parse::<Category>(), Err(UnknownCategory));
    }
}
