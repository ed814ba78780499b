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

use crate::moves::ParseMoveError;
use crate::text::next_char;
use crate::{Move, Square};

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

const FILE: &str = "a file letter a-i";
const RANK: &str = "a rank 1-10";

/// Reads a square name at byte `start` of `text` (not beyond byte `end`); returns the square
/// and the byte after its name.
pub(crate) fn parse_square(
    text: &str,
    start: usize,
    end: usize,
) -> Result<(Square, usize), ParseMoveError> {
    let bytes = &text.as_bytes()[..end];
    let col = match bytes.get(start) {
        Some(&letter @ b'a'..=b'i') => letter - b'a',
        _ => return Err(ParseMoveError::at(text, start, next_char(&text[..end], start), FILE)),
    };
    let digits_start = start + 1;
    let digits_end =
        digits_start + bytes[digits_start..].iter().take_while(|b| b.is_ascii_digit()).count();
    let digits = &text[digits_start..digits_end];
    let rank = match digits.parse::<u8>() {
        Ok(rank @ 1..=10) if !digits.starts_with('0') => rank,
        _ if digits.is_empty() => {
            let after = next_char(&text[..end], digits_start);
            return Err(ParseMoveError::at(text, digits_start, after, RANK));
        }
        _ => return Err(ParseMoveError::at(text, digits_start, digits_end, RANK)),
    };
    let square = Square::new(rank - 1, col).expect("rank and file checked above");
    Ok((square, digits_end))
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
