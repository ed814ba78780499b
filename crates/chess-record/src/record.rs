//! The contest record format: `1. e4 d5 2. exd5 ...` on one line, checked move by move.
//!
//! Tokens are separated by any run of whitespace: the characters C's `isspace` accepts (space,
//! tab, line feed, vertical tab, form feed, carriage return). A UTF-8 byte order mark at the very
//! start is ignored like leading whitespace, since editors add it unasked; anywhere else it is
//! part of a token. White's move follows its move number (`1.`, a token of its own), black's
//! move follows white's; only the last round may lack black's move; an empty record is valid
//! (docs/rules.md#chess-records).
//!
//! ```
//! use arbiter_chess_record::{check_record, Fault, Verdict};
//!
//! assert!(check_record("1. e4 e5 2. Nf3").is_yes());
//! assert!(check_record("").is_yes());
//! let Verdict::No(mistake) = check_record("1.e4") else { panic!() };
//! assert_eq!(mistake.fault, Fault::MoveNumber { expected: 1 });
//! ```

use std::fmt::{self, Write as _};

use arbiter_scan::Scanner;
use shakmaty::{Chess, Color, Position};

use crate::fault::{Fault, Mistake};
use crate::reading::{game_over, read_move};
use crate::spelling::Dialect;
use crate::turn::{Turn, writes_number};

/// The verdict on a record: `Yes` with the number of plies, or `No` with the first mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every token is the canonical spelling of a legal move.
    Yes {
        /// How many moves the record holds.
        plies: u32,
    },
    /// The first wrong token.
    No(Box<Mistake>),
}

impl Verdict {
    /// Whether the record is valid.
    pub fn is_yes(&self) -> bool {
        matches!(self, Verdict::Yes { .. })
    }
}

/// The official answer: `Yes` or `No`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_yes() { "Yes" } else { "No" })
    }
}

/// Checks a record in the contest dialect (the official judge).
pub fn check_record(record: &str) -> Verdict {
    check_record_in(record, Dialect::Contest)
}

/// Checks a record laid out like the contest's (`1. e4 e5 2. Nf3`) whose moves must be the
/// canonical spellings of `dialect`.
pub fn check_record_in(record: &str, dialect: Dialect) -> Verdict {
    let mut check = RecordCheck::new(dialect);
    let mut tokens = Scanner::new(record);
    while let Some(token) = tokens.next_token() {
        if !check.push(token.text, token.offset) {
            break;
        }
    }
    check.finish(record.len())
}

/// A record checked one token at a time, as it is read: [`check_record_in`] for a record that
/// is not held whole (read from a stream, however long).
///
/// ```
/// use arbiter_chess_record::{Dialect, RecordCheck, Verdict};
///
/// let mut check = RecordCheck::new(Dialect::Contest);
/// assert!(check.push("1.", 0));
/// assert!(check.push("e4", 3));
/// assert!(!check.push("e5+", 6));
/// let Verdict::No(mistake) = check.finish(9) else { panic!() };
/// assert_eq!((mistake.token.as_str(), mistake.offset), ("e5+", Some(6)));
/// ```
#[derive(Clone, Debug)]
pub struct RecordCheck {
    pos: Chess,
    dialect: Dialect,
    plies: u32,
    /// White's move number has been read; white's move comes next.
    numbered: bool,
    mistake: Option<Box<Mistake>>,
}

impl RecordCheck {
    /// A record at its start, whose moves must be spelled as `dialect` spells them.
    pub fn new(dialect: Dialect) -> RecordCheck {
        RecordCheck { pos: Chess::default(), dialect, plies: 0, numbered: false, mistake: None }
    }

    /// Checks the next token, which stands at byte `offset` of the record; returns whether the
    /// record is still right (after its first mistake, every token is ignored).
    #[inline]
    pub fn push(&mut self, token: &str, offset: usize) -> bool {
        if self.mistake.is_some() {
            return false;
        }
        let at = Turn::of(&self.pos);
        let number = at.move_number;
        let fault = match (self.pos.turn(), self.numbered) {
            (Color::White, false) => {
                if is_move_number(token, number) {
                    self.numbered = true;
                    return true;
                }
                after_end(&self.pos, Fault::MoveNumber { expected: number })
            }
            (Color::White, true) => match step(&mut self.pos, token, self.dialect) {
                Ok(()) => {
                    self.numbered = false;
                    self.plies += 1;
                    return true;
                }
                Err(fault) => fault,
            },
            (Color::Black, _) => match step(&mut self.pos, token, self.dialect) {
                Ok(()) => {
                    self.plies += 1;
                    return true;
                }
                Err(Fault::NotAMove) if is_move_number(token, number + 1) => {
                    after_end(&self.pos, Fault::MissingBlackMove)
                }
                Err(Fault::NotAMove) if is_black_move_number(token) => {
                    after_end(&self.pos, Fault::BlackMoveNumber)
                }
                Err(fault) => after_end(&self.pos, fault),
            },
        };
        self.mistake = Some(mistake(at, token, offset, fault));
        false
    }

    /// The verdict once the record ends at byte offset `end`.
    pub fn finish(self, end: usize) -> Verdict {
        if let Some(mistake) = self.mistake {
            return Verdict::No(mistake);
        }
        if self.numbered {
            let at = Turn::of(&self.pos);
            return Verdict::No(mistake(at, "", end, after_end(&self.pos, Fault::MissingMove)));
        }
        Verdict::Yes { plies: self.plies }
    }
}

/// The mistake `fault` of `token`, at `offset`, in the ply `at`.
fn mistake(at: Turn, token: &str, offset: usize, fault: Fault) -> Box<Mistake> {
    Box::new(Mistake::new(at, token, Some(offset), fault))
}

/// The fault to report for `fault`, found in `pos`: when the game has already ended, that is
/// what is wrong (after checkmate or stalemate nothing may follow, not even a move number), not
/// that black's move is missing or a move number is out of place.
fn after_end(pos: &Chess, fault: Fault) -> Fault {
    match fault {
        Fault::MoveNumber { .. }
        | Fault::MissingBlackMove
        | Fault::BlackMoveNumber
        | Fault::MissingMove
        | Fault::NotAMove => game_over(pos).unwrap_or(fault),
        fault => fault,
    }
}

/// Reads and plays one move; a misspelling is a fault like an illegal move.
fn step(pos: &mut Chess, token: &str, dialect: Dialect) -> Result<(), Fault> {
    let reading = read_move(pos, token, dialect)?;
    match reading.rule {
        None => Ok(()),
        Some(rule) => Err(Fault::Misspelled { canonical: reading.canonical.to_string(), rule }),
    }
}

/// The byte order mark, which a file may start with.
pub(crate) const BOM: &str = "\u{feff}";

/// The tokens of `text` (without a leading byte order mark), as slices of it.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    let mut scanner = Scanner::new(text.strip_prefix(BOM).unwrap_or(text));
    std::iter::from_fn(move || scanner.next_token().map(|token| token.text))
}

/// Whether `token` is exactly `{number}.`: no leading zeros, no other text.
fn is_move_number(token: &str, number: u32) -> bool {
    token.strip_suffix('.').is_some_and(|digits| writes_number(digits.as_bytes(), number))
}

/// Whether `token` is PGN's number for black's move: digits, then two dots or more (`1...`).
fn is_black_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.len() - digits.len() >= 2
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Writes moves in the record layout, `1. e4 e5 2. Nf3`, numbering white's moves.
#[derive(Debug, Default)]
pub(crate) struct RecordWriter {
    out: String,
}

impl RecordWriter {
    /// Appends the move spelled `spelling`, played at `at`.
    pub(crate) fn push(&mut self, at: Turn, spelling: &str) {
        if !self.out.is_empty() {
            self.out.push(' ');
        }
        if at.side == Color::White {
            let _ = write!(self.out, "{}. ", at.move_number);
        }
        self.out.push_str(spelling);
    }

    /// The record written.
    pub(crate) fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exactly the number's decimal digits are its number, for every move number (from 1) near
    /// a power of ten, the largest ones and every short string of digits and neighbouring bytes.
    #[test]
    fn numbers_are_their_digits() {
        let mut numbers: Vec<u32> =
            (0..=9).flat_map(|p| [10u32.pow(p) - 1, 10u32.pow(p)]).collect();
        numbers.extend([7, 42, 65_536, u32::MAX - 1, u32::MAX]);
        numbers.retain(|&number| number > 0);
        let mut texts: Vec<String> = numbers.iter().map(u32::to_string).collect();
        texts.extend(
            ["", "0", "00", "01", "4294967296", "99999999999", "1.", "1a", "-1", "+1"]
                .map(String::from),
        );
        let bytes = b"0189./:";
        for a in bytes {
            for b in bytes {
                texts.push(String::from_utf8(vec![*a, *b]).unwrap_or_default());
            }
        }
        for number in numbers {
            for text in &texts {
                assert_eq!(
                    writes_number(text.as_bytes(), number),
                    *text == number.to_string(),
                    "{text} {number}"
                );
            }
        }
    }
}
