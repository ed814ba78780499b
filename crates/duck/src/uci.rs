//! Fairy-stockfish's square notation for moves, as UCI engines and GUIs write them: two square
//! names, each a file `a`..`i` (column y 0..8) and a rank `1`..`10` (row x + 1).
//!
//! ```
//! use arbiter_duck::{Move, Square, UciMove};
//!
//! let mv: UciMove = "e10e9".parse().unwrap();
//! assert_eq!(mv.0, Move::new(Square::new(9, 4).unwrap(), Square::new(8, 4).unwrap()));
//! assert_eq!(mv.to_string(), "e10e9");
//! assert_eq!(mv.0.to_string(), "9 4 8 4");
//! let error = "e11e9".parse::<UciMove>().unwrap_err();
//! assert_eq!(error.to_string(), "character 2: expected a rank 1-10, found `11`");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::Move;
use crate::moves::ParseMoveError;
use crate::square::{self, Square};

/// A move written in fairy-stockfish's square notation, e.g. `d1e2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UciMove(pub Move);

impl From<Move> for UciMove {
    fn from(mv: Move) -> UciMove {
        UciMove(mv)
    }
}

impl From<UciMove> for Move {
    fn from(mv: UciMove) -> Move {
        mv.0
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0.from.name(), self.0.to.name())
    }
}

impl Move {
    /// The move in fairy-stockfish's square notation, e.g. `e10e9`.
    #[inline]
    pub const fn uci(self) -> UciMove {
        UciMove(self)
    }
}

/// Reads a square name at byte `start` of `text` (not beyond byte `end`); returns the square
/// and the byte after its name.
fn parse_square(text: &str, start: usize, end: usize) -> Result<(Square, usize), ParseMoveError> {
    square::read_name(text, start, end)
        .map_err(|error| ParseMoveError::at(text, error.start, error.end, error.expected))
}

impl UciMove {
    /// Reads a move that fills bytes `start..end` of `text`, naming places in all of `text`.
    pub(crate) fn parse_at(
        text: &str,
        start: usize,
        end: usize,
    ) -> Result<UciMove, ParseMoveError> {
        let (from, middle) = parse_square(text, start, end)?;
        let (to, after) = parse_square(text, middle, end)?;
        if after != end {
            return Err(ParseMoveError::at(text, after, end, "the end of the move"));
        }
        Ok(UciMove(Move::new(from, to)))
    }
}

impl FromStr for UciMove {
    type Err = ParseMoveError;

    /// Reads exactly two square names, e.g. `e1e2` or `e10e9`.
    fn from_str(text: &str) -> Result<UciMove, ParseMoveError> {
        UciMove::parse_at(text, 0, text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        text.parse::<UciMove>().unwrap_err().to_string()
    }

    #[test]
    fn malformed_moves_say_what_and_where() {
        assert_eq!(error(""), "character 1: expected a file letter a-i, found end of input");
        assert_eq!(error("j1e2"), "character 1: expected a file letter a-i, found `j`");
        assert_eq!(error("E1e2"), "character 1: expected a file letter a-i, found `E`");
        assert_eq!(error("e0e2"), "character 2: expected a rank 1-10, found `0`");
        assert_eq!(error("e01e2"), "character 2: expected a rank 1-10, found `01`");
        assert_eq!(error("ee2"), "character 2: expected a rank 1-10, found `e`");
        assert_eq!(error("e1"), "character 3: expected a file letter a-i, found end of input");
        assert_eq!(error("e1é2"), "character 3: expected a file letter a-i, found `é`");
        assert_eq!(error("e1e"), "character 4: expected a rank 1-10, found end of input");
        assert_eq!(error("e1e2q"), "character 5: expected the end of the move, found `q`");
        assert_eq!(error("e1e2 "), "character 5: expected the end of the move, found ` `");
        assert_eq!(
            error("a99999999999e1"),
            "character 2: expected a rank 1-10, found `99999999999`"
        );
    }

    #[test]
    fn every_square_name_reads_back() {
        for sq in Square::all() {
            let name = sq.name().to_string();
            assert_eq!(Square::from_name(&name), Some(sq), "{name}");
        }
        assert_eq!(Square::new(9, 8).unwrap().name().to_string(), "i10");
        assert_eq!(Square::from_name("a1 "), None);
    }
}
