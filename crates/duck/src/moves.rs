//! Moves and their official notation, the command `x1 y1 x2 y2`. Fairy-stockfish's square
//! notation `e1e2` is [`UciMove`](crate::UciMove); [`notation`](crate::notation) reads either.
//!
//! ```
//! use arbiter_duck::{Move, Square};
//!
//! let mv: Move = "9 4 8 4".parse().unwrap();
//! assert_eq!(mv, Move::new(Square::new(9, 4).unwrap(), Square::new(8, 4).unwrap()));
//! assert_eq!(mv.to_string(), "9 4 8 4");
//! assert_eq!(mv.uci().to_string(), "e10e9");
//! // Either notation is accepted where a move is read.
//! assert_eq!("e10e9".parse::<Move>(), Ok(mv));
//! let error = "9 4 8 9".parse::<Move>().unwrap_err();
//! assert_eq!(error.to_string(), "character 7: expected the destination column y2 (0-8), found `9`");
//! ```

use std::fmt;

use arbiter_scan::Found;

use crate::Square;
use crate::text::{char_index, found};

/// A move: the piece on `from` goes to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// The judge's command format, `x1 y1 x2 y2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (self.from, self.to);
        write!(f, "{} {} {} {}", from.row(), from.col(), to.row(), to.col())
    }
}

/// A text that is not a move: where it goes wrong, what was expected there and what was found.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("character {}: expected {expected}, found {found}", .index + 1)]
pub struct ParseMoveError {
    /// Where the problem starts, in characters from the start of the text (0 for the first); the
    /// length of the text when it ends too soon.
    pub index: usize,
    /// What the notation needs there.
    pub expected: &'static str,
    /// What stands there instead.
    pub found: Found,
}

impl ParseMoveError {
    /// The error for `expected` at bytes `start..end` of `text`.
    pub(crate) fn at(text: &str, start: usize, end: usize, expected: &'static str) -> Self {
        ParseMoveError { index: char_index(text, start), expected, found: found(text, start, end) }
    }
}

/// The four numbers of the official form, with what each must be.
const COORDINATES: [(&str, u8); 4] = [
    ("the source row x1 (0-9)", Square::ROWS),
    ("the source column y1 (0-8)", Square::COLS),
    ("the destination row x2 (0-9)", Square::ROWS),
    ("the destination column y2 (0-8)", Square::COLS),
];

/// Reads the official form `x1 y1 x2 y2`: four numbers separated by whitespace, which may also
/// stand around the move.
pub(crate) fn parse_official(text: &str) -> Result<Move, ParseMoveError> {
    let mut tokens = text
        .split_ascii_whitespace()
        .map(|token| (token.as_ptr() as usize - text.as_ptr() as usize, token));
    let mut values = [0; 4];
    for (value, (expected, limit)) in values.iter_mut().zip(COORDINATES) {
        let Some((offset, token)) = tokens.next() else {
            return Err(ParseMoveError::at(text, text.len(), text.len(), expected));
        };
        *value = match token.parse::<u8>() {
            Ok(number) if number < limit && token.bytes().all(|b| b.is_ascii_digit()) => number,
            _ => return Err(ParseMoveError::at(text, offset, offset + token.len(), expected)),
        };
    }
    if let Some((offset, token)) = tokens.next() {
        let expected = "the end of the move";
        return Err(ParseMoveError::at(text, offset, offset + token.len(), expected));
    }
    let square = |row, col| Square::new(row, col).expect("coordinates checked above");
    Ok(Move::new(square(values[0], values[1]), square(values[2], values[3])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        text.parse::<Move>().unwrap_err().to_string()
    }

    #[test]
    fn malformed_official_moves_say_what_and_where() {
        assert_eq!(error(""), "character 1: expected the source row x1 (0-9), found end of input");
        assert_eq!(
            error("0 3 1"),
            "character 6: expected the destination column y2 (0-8), found end of input"
        );
        assert_eq!(error("0 9 1 4"), "character 3: expected the source column y1 (0-8), found `9`");
        assert_eq!(
            error("0 3 +1 4"),
            "character 5: expected the destination row x2 (0-9), found `+1`"
        );
        assert_eq!(error("0 3 1 4 5"), "character 9: expected the end of the move, found `5`");
        assert_eq!(error("-1 0 0 0"), "character 1: expected the source row x1 (0-9), found `-1`");
        assert_eq!(
            error("0 3 1 4x"),
            "character 7: expected the destination column y2 (0-8), found `4x`"
        );
        assert_eq!(" \t0 3\n1 4 ".parse::<Move>().unwrap().to_string(), "0 3 1 4");
    }
}
