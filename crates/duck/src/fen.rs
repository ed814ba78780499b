//! Positions as text: fairy-stockfish's FEN for this game.
//!
//! Ten ranks separated by `/`, from rank 10 (row 9, blue's back row) down to rank 1 (row 0); in
//! each rank, files `a` to `i` (columns 0 to 8) as letters for pieces — `r` car, `h` horse,
//! `e` elephant, `g` guard, `c` captain, `d` duck, `s` soldier, upper case for red — and digits
//! for runs of empty points. Then the side to move (`w` red, `b` blue), the castling and en
//! passant fields (always `-`), the halfmove clock (plies since the last capture) and the move
//! number. Fields after the board may be left out (they default to `w - - 0 1`); a move number 0
//! is read as 1. Fields are separated by any whitespace.
//!
//! ```
//! use arbiter_duck::fen::{Fen, INITIAL};
//! use arbiter_duck::{Color, Position};
//!
//! let fen: Fen = INITIAL.parse().unwrap();
//! assert_eq!(fen.turn, Color::Red);
//! assert_eq!(fen.to_string(), INITIAL);
//! assert_eq!(Position::from_fen(&fen).unwrap(), Position::new());
//!
//! let error = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHX w".parse::<Fen>().unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "character 55: expected a piece letter (r h e g c d s, upper case for red), \
//!      a digit 1-9 or `/`, found `X`"
//! );
//! ```
//!
//! A FEN only describes a board; [`Position::from_fen`](crate::Position::from_fen) says whether
//! it is a position of the game.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use arbiter_scan::Found;

use crate::text::{char_index, found, next_char};
use crate::{Board, Color, Piece, Square};

/// The starting position's FEN.
pub const INITIAL: &str = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1";

/// A FEN's content: any board, the side to move and the two counters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fen {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u32,
    /// The move number, from 1.
    pub fullmoves: u32,
}

impl Default for Fen {
    fn default() -> Fen {
        Fen { board: Board::initial(), turn: Color::Red, halfmoves: 0, fullmoves: 1 }
    }
}

/// The part of a FEN where a [`ParseFenError`] lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The ten ranks.
    Board,
    /// The side to move.
    Turn,
    /// The castling field.
    Castling,
    /// The en passant field.
    EnPassant,
    /// The halfmove clock.
    Halfmoves,
    /// The move number.
    Fullmoves,
    /// Something after the last field.
    End,
}

/// A text that is not a FEN: where it goes wrong, what was expected there and what was found.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("character {}: expected {expected}, found {found}", .index + 1)]
pub struct ParseFenError {
    /// The field in which the problem lies.
    pub field: FenField,
    /// Where the problem starts, in characters from the start of the text (0 for the first); the
    /// length of the text when it ends too soon.
    pub index: usize,
    /// What the FEN needs there.
    pub expected: String,
    /// What stands there instead.
    pub found: Found,
}

/// `N more point(s)`: what a rank with `col` points so far still needs.
fn more_points(col: u8) -> String {
    match Square::COLS - col {
        1 => "1 more point".to_owned(),
        left => format!("{left} more points"),
    }
}

/// A FEN being read, for its errors.
struct Reader<'a> {
    text: &'a str,
}

impl Reader<'_> {
    fn error(
        &self,
        field: FenField,
        start: usize,
        end: usize,
        expected: impl Into<String>,
    ) -> ParseFenError {
        ParseFenError {
            field,
            index: char_index(self.text, start),
            expected: expected.into(),
            found: found(self.text, start, end),
        }
    }

    /// Reads the board from bytes `start..end`.
    fn board(&self, start: usize, end: usize) -> Result<Board, ParseFenError> {
        let error = |at: usize, expected: String| {
            Err(self.error(FenField::Board, at, next_char(self.text, at), expected))
        };
        if start == end {
            return error(start, "the board (10 ranks separated by `/`)".to_owned());
        }
        let mut board = Board::empty();
        let (mut row, mut col) = (Square::ROWS - 1, 0);
        for (offset, c) in self.text[start..end].char_indices() {
            let at = start + offset;
            let rank = row + 1;
            match c {
                '/' if col < Square::COLS => {
                    return error(at, format!("{} in rank {rank}", more_points(col)));
                }
                '/' if row == 0 => {
                    return error(at, "the end of the board after rank 1".to_owned());
                }
                '/' => (row, col) = (row - 1, 0),
                '1'..='9' => {
                    let run = c as u8 - b'0';
                    if col + run > Square::COLS {
                        let expected = match col {
                            Square::COLS => format!("`/` after the 9 points of rank {rank}"),
                            _ => format!("at most {} in rank {rank}", more_points(col)),
                        };
                        return error(at, expected);
                    }
                    col += run;
                }
                _ => {
                    let Some(piece) = Piece::from_letter(c) else {
                        return error(
                            at,
                            "a piece letter (r h e g c d s, upper case for red), a digit 1-9 or `/`"
                                .to_owned(),
                        );
                    };
                    let Some(sq) = Square::new(row, col) else {
                        return error(at, format!("`/` after the 9 points of rank {rank}"));
                    };
                    board.put(sq, piece);
                    col += 1;
                }
            }
        }
        if col < Square::COLS {
            return error(end, format!("{} in rank {}", more_points(col), row + 1));
        }
        if row > 0 {
            return error(end, format!("`/` and rank {row} (a FEN has 10 ranks)"));
        }
        Ok(board)
    }

    /// A counter from a token of digits.
    fn number(
        &self,
        field: FenField,
        (at, token): (usize, &str),
        expected: &str,
    ) -> Result<u32, ParseFenError> {
        match token.parse::<u32>() {
            Ok(value) if token.bytes().all(|b| b.is_ascii_digit()) => Ok(value),
            _ => Err(self.error(field, at, at + token.len(), expected)),
        }
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(text: &str) -> Result<Fen, ParseFenError> {
        let reader = Reader { text };
        let start = text.len() - text.trim_start().len();
        let board_end =
            text[start..].find(|c: char| c.is_ascii_whitespace()).map_or(text.len(), |i| start + i);
        let board = reader.board(start, board_end)?;
        let mut tokens = text[board_end..]
            .split_ascii_whitespace()
            .map(|token| (token.as_ptr() as usize - text.as_ptr() as usize, token));
        let mut fen = Fen { board, ..Fen::default() };
        let wrong = |field, (at, token): (usize, &str), expected: &str| {
            Err(reader.error(field, at, at + token.len(), expected))
        };
        if let Some(token) = tokens.next() {
            fen.turn = match token.1 {
                "w" => Color::Red,
                "b" => Color::Blue,
                _ => {
                    return wrong(
                        FenField::Turn,
                        token,
                        "the side to move, `w` (red) or `b` (blue)",
                    );
                }
            };
        }
        if let Some(token) = tokens.next()
            && token.1 != "-"
        {
            return wrong(FenField::Castling, token, "`-` for castling (this game has none)");
        }
        if let Some(token) = tokens.next()
            && token.1 != "-"
        {
            return wrong(FenField::EnPassant, token, "`-` for en passant (this game has none)");
        }
        if let Some(token) = tokens.next() {
            let expected = "the halfmove clock (a number of plies)";
            fen.halfmoves = reader.number(FenField::Halfmoves, token, expected)?;
        }
        if let Some(token) = tokens.next() {
            let expected = "the move number (a positive number)";
            fen.fullmoves = reader.number(FenField::Fullmoves, token, expected)?.max(1);
        }
        if let Some(token) = tokens.next() {
            return wrong(FenField::End, token, "the end of the FEN");
        }
        Ok(fen)
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..Square::ROWS).rev() {
            let mut empty = 0;
            for sq in (0..Square::COLS).filter_map(|col| Square::new(row, col)) {
                match self.board.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        f.write_char(piece.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if row > 0 {
                f.write_char('/')?;
            }
        }
        let turn = match self.turn {
            Color::Red => 'w',
            Color::Blue => 'b',
        };
        write!(f, " {turn} - - {} {}", self.halfmoves, self.fullmoves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (FenField, String) {
        let error = text.parse::<Fen>().unwrap_err();
        (error.field, error.to_string())
    }

    #[test]
    fn the_initial_position() {
        let fen: Fen = INITIAL.parse().unwrap();
        assert_eq!(fen, Fen::default());
        assert_eq!(fen.to_string(), INITIAL);
        // Fields after the board default to the start's.
        let short: Fen = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR".parse().unwrap();
        assert_eq!(short, fen);
        let spaced: Fen = "  rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR\tb -  - 7 0\n"
            .parse()
            .unwrap();
        assert_eq!((spaced.turn, spaced.halfmoves, spaced.fullmoves), (Color::Blue, 7, 1));
    }

    #[test]
    fn malformed_fens_say_what_and_where() {
        let board = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR";
        let cases = [
            (
                "",
                FenField::Board,
                "character 1: expected the board (10 ranks separated by `/`), found end of input",
            ),
            (
                "9/9",
                FenField::Board,
                "character 4: expected `/` and rank 8 (a FEN has 10 ranks), found end of input",
            ),
            ("8/9", FenField::Board, "character 2: expected 1 more point in rank 10, found `/`"),
            (
                "4c5/9",
                FenField::Board,
                "character 3: expected at most 4 more points in rank 10, found `5`",
            ),
            ("4c3/9", FenField::Board, "character 4: expected 1 more point in rank 10, found `/`"),
            (
                "4c4c",
                FenField::Board,
                "character 4: expected `/` after the 9 points of rank 10, found `c`",
            ),
            (
                "4c4/85",
                FenField::Board,
                "character 6: expected at most 1 more point in rank 9, found `5`",
            ),
            (
                "4c4/0",
                FenField::Board,
                "character 5: expected a piece letter (r h e g c d s, upper case for red), a digit 1-9 or `/`, found `0`",
            ),
            (
                "9/9/9/9/9/9/9/9/9/9/9",
                FenField::Board,
                "character 20: expected the end of the board after rank 1, found `/`",
            ),
            (
                "9/9/9/9/9/9/9/9/9/é",
                FenField::Board,
                "character 19: expected a piece letter (r h e g c d s, upper case for red), a digit 1-9 or `/`, found `é`",
            ),
        ];
        for (text, field, message) in cases {
            assert_eq!(error(text), (field, message.to_owned()), "{text}");
        }
        let after = |rest: &str| error(&format!("{board} {rest}"));
        let at = board.chars().count() + 2;
        assert_eq!(
            after("r"),
            (
                FenField::Turn,
                format!(
                    "character {at}: expected the side to move, `w` (red) or `b` (blue), found `r`"
                )
            )
        );
        assert_eq!(after("w KQ").0, FenField::Castling);
        assert_eq!(after("w - e3").0, FenField::EnPassant);
        assert_eq!(after("w - - -1").0, FenField::Halfmoves);
        assert_eq!(after("w - - 0 4294967296").0, FenField::Fullmoves);
        assert_eq!(
            after("w - - 0 1 moves"),
            (
                FenField::End,
                format!("character {}: expected the end of the FEN, found `moves`", at + 10)
            )
        );
    }
}
