//! Reading moves written in either notation, the official `x1 y1 x2 y2` ([`Move`]) or
//! fairy-stockfish's `e1e2` ([`UciMove`]): one move ([`Move`]'s `FromStr`), or a list of them
//! ([`parse_moves`]), as a person types them on a command line.
//!
//! ```
//! use arbiter_duck::notation::parse_moves;
//!
//! let moves = parse_moves("e4e5, 6 4 5 4").unwrap();
//! assert_eq!(moves.len(), 2);
//! assert_eq!((moves[1].mv.to_string(), moves[1].index, moves[1].text), ("6 4 5 4".to_owned(), 6, "6 4 5 4"));
//! let error = parse_moves("e4e5 e7e6, 4 4 5").unwrap_err();
//! assert_eq!(error.to_string(), "character 17: expected the destination column y2 (0-8), found end of input");
//! ```

use std::str::FromStr;

use crate::moves::{self, ParseMoveError};
use crate::{Move, UciMove};

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads the official form `x1 y1 x2 y2` (four numbers separated by whitespace) or the square
    /// notation `e1e2` (told apart by the first character: a digit or a letter). Whitespace
    /// around the move is ignored.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let start = text.len() - text.trim_start().len();
        if text[start..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            let end = text.trim_end().len();
            return UciMove::parse_at(text, start, end).map(|uci| uci.0);
        }
        moves::parse_official(text)
    }
}

/// A move read from a list, and where it stands there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListedMove<'a> {
    /// The move.
    pub mv: Move,
    /// Where it starts, in characters from the start of the list (0 for the first).
    pub index: usize,
    /// Its text, as written in the list.
    pub text: &'a str,
}

/// Reads moves written `x1 y1 x2 y2` or `e1e2`, separated by whitespace or commas. An error's
/// [`index`](ParseMoveError::index) counts characters from the start of the whole list.
pub fn parse_moves(text: &str) -> Result<Vec<ListedMove<'_>>, ParseMoveError> {
    let tokens: Vec<(usize, &str)> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(|token| (token.as_ptr() as usize - text.as_ptr() as usize, token))
        .collect();
    let index = |offset: usize| text[..offset].chars().count();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (start, token) = tokens[i];
        // A letter starts a move in square notation; a digit starts the four numbers.
        let count = if token.starts_with(|c: char| c.is_ascii_alphabetic()) { 1 } else { 4 };
        let last = (i + count).min(tokens.len()) - 1;
        let end = tokens[last].0 + tokens[last].1.len();
        // Commas become spaces: the same length, so places in the move are places in `text`.
        let piece = text[start..end].replace(',', " ");
        match piece.parse::<Move>() {
            Ok(mv) => moves.push(ListedMove { mv, index: index(start), text: &text[start..end] }),
            Err(error) => {
                return Err(ParseMoveError { index: index(start) + error.index, ..error });
            }
        }
        i = last + 1;
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse_moves(text).unwrap_err().to_string()
    }

    #[test]
    fn a_list_mixes_notations_and_separators() {
        let moves = parse_moves(" 3 4 4 4, e7e6,0,3,1,4\te1e2 ").unwrap();
        let read: Vec<_> =
            moves.iter().map(|m| (m.mv.uci().to_string(), m.index, m.text)).collect();
        assert_eq!(
            read,
            [
                ("e4e5".to_owned(), 1, "3 4 4 4"),
                ("e7e6".to_owned(), 10, "e7e6"),
                ("d1e2".to_owned(), 15, "0,3,1,4"),
                ("e1e2".to_owned(), 23, "e1e2"),
            ]
        );
        assert_eq!(parse_moves(" , ").unwrap(), []);
    }

    #[test]
    fn an_error_is_placed_in_the_whole_list() {
        assert_eq!(
            error("e4e5 e7e6, 4 4 5"),
            "character 17: expected the destination column y2 (0-8), found end of input"
        );
        assert_eq!(error("e4e5 x"), "character 6: expected a file letter a-i, found `x`");
        assert_eq!(error("é e4e5 e11"), "character 1: expected the source row x1 (0-9), found `é`");
        // Characters, not bytes: the ideographic space takes three bytes.
        assert_eq!(error("e4e5\u{3000}e4e11"), "character 9: expected a rank 1-10, found `11`");
    }
}
