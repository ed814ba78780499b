//! Squares of the 10×9 board.
//!
//! ```
//! use arbiter_duck::Square;
//!
//! let sq = Square::new(9, 4).unwrap();
//! assert_eq!((sq.row(), sq.col()), (9, 4));
//! assert_eq!(sq.to_string(), "(9,4)");
//! assert_eq!(Square::from_coords(10, 0), None);
//! assert_eq!(sq.offset(1, 0), None);
//! // fairy-stockfish's name: file a..i for the column, rank 1..10 for the row + 1.
//! assert_eq!(sq.name().to_string(), "e10");
//! assert_eq!(Square::from_name("e10"), Some(sq));
//! // Mirrors: across the river, and on the middle column.
//! assert_eq!(sq.flip_vertical(), Square::new(0, 4).unwrap());
//! assert_eq!(Square::A1.flip_horizontal(), Square::new(0, 8).unwrap());
//! ```

use std::fmt;

use crate::text::next_char;

/// A point of the board: row `x` (0..10, counted from red's side) and column `y` (0..9).
///
/// Stored as the index `x * 9 + y`, which is also its bit in a [`Bitboard`](crate::Bitboard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Number of rows.
    pub const ROWS: u8 = 10;
    /// Number of columns.
    pub const COLS: u8 = 9;
    /// Number of squares.
    pub const COUNT: usize = (Self::ROWS as usize) * (Self::COLS as usize);
    /// Row 0, column 0: red's left corner, `a1`.
    pub const A1: Square = Square(0);

    /// The square at row `row` and column `col`, if both are on the board.
    #[inline]
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < Self::ROWS && col < Self::COLS {
            Some(Square(row * Self::COLS + col))
        } else {
            None
        }
    }

    /// The square at coordinates read from untrusted input, which may be negative or huge.
    #[inline]
    pub const fn from_coords(row: i64, col: i64) -> Option<Square> {
        // Negative numbers wrap to huge ones: two comparisons rather than four.
        if (row as u64) < Self::ROWS as u64 && (col as u64) < Self::COLS as u64 {
            Some(Square(row as u8 * Self::COLS + col as u8))
        } else {
            None
        }
    }

    /// The square with index `index` (`row * 9 + col`), if below 90.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT { Some(Square(index as u8)) } else { None }
    }

    /// The index `row * 9 + col`, in `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row `x`, 0 on red's side.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / Self::COLS
    }

    /// The column `y`.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % Self::COLS
    }

    /// The square `rows` rows and `cols` columns away, if it is on the board.
    #[inline]
    pub const fn offset(self, rows: i8, cols: i8) -> Option<Square> {
        Square::from_coords(self.row() as i64 + rows as i64, self.col() as i64 + cols as i64)
    }

    /// The square seen across the river: row `x` goes to row `9 - x`, the column stays. Red's
    /// half of the board becomes blue's; the same mirror as in `flip_vertical` of chess
    /// libraries.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square((Self::ROWS - 1 - self.row()) * Self::COLS + self.col())
    }

    /// The square seen in a mirror standing on the middle column: column `y` goes to column
    /// `8 - y`, the row stays.
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square(self.row() * Self::COLS + (Self::COLS - 1 - self.col()))
    }

    /// All 90 squares, row by row from red's side.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..Self::COUNT as u8).map(Square)
    }

    /// The name in fairy-stockfish's notation: file `a`..`i` for the column, then rank `1`..`10`
    /// for the row + 1, e.g. `e10` for (9,4).
    #[inline]
    pub const fn name(self) -> SquareName {
        SquareName(self)
    }

    /// The square with the name `name` (see [`Square::name`]), if it is one.
    pub fn from_name(name: &str) -> Option<Square> {
        match read_name(name, 0, name.len()) {
            Ok((square, end)) if end == name.len() => Some(square),
            _ => None,
        }
    }
}

/// A square written as fairy-stockfish names it, e.g. `e10`; see [`Square::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareName(Square);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.0.col()), self.0.row() + 1)
    }
}

/// Where a square name goes wrong: bytes `start..end` of the text, and what was expected there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameError {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) expected: &'static str,
}

/// Reads a square name at byte `start` of `text` (not beyond byte `end`); returns the square
/// and the byte after its name.
pub(crate) fn read_name(
    text: &str,
    start: usize,
    end: usize,
) -> Result<(Square, usize), NameError> {
    const FILE: &str = "a file letter a-i";
    const RANK: &str = "a rank 1-10";
    let error = |start, end, expected| NameError { start, end, expected };
    let bytes = &text.as_bytes()[..end];
    let col = match bytes.get(start) {
        Some(&letter @ b'a'..=b'i') => letter - b'a',
        _ => return Err(error(start, next_char(&text[..end], start), FILE)),
    };
    let digits_start = start + 1;
    let digits_end =
        digits_start + bytes[digits_start..].iter().take_while(|b| b.is_ascii_digit()).count();
    let digits = &text[digits_start..digits_end];
    let rank = match digits.parse::<u8>() {
        Ok(rank @ 1..=10) if !digits.starts_with('0') => rank,
        _ if digits.is_empty() => {
            return Err(error(digits_start, next_char(&text[..end], digits_start), RANK));
        }
        _ => return Err(error(digits_start, digits_end, RANK)),
    };
    let square = Square::new(rank - 1, col).expect("rank and file checked above");
    Ok((square, digits_end))
}

impl fmt::Display for Square {
    /// The judge's coordinates, `(x,y)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row(), self.col())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.row(), sq.col()), Some(sq));
            assert_eq!(Square::from_index(sq.index()), Some(sq));
        }
        assert_eq!(Square::all().count(), 90);
    }

    #[test]
    fn off_board_coordinates_are_rejected() {
        for (x, y) in [(-1, 0), (0, -1), (10, 0), (0, 9), (i64::MAX, 0), (i64::MIN, i64::MIN)] {
            assert_eq!(Square::from_coords(x, y), None, "({x},{y})");
        }
        assert_eq!(Square::from_index(90), None);
        assert_eq!(Square::new(0, 8).and_then(|s| s.offset(0, 1)), None);
    }
}
