//! Where a move stands in its game: its ply, its move number and the side that plays it.

use shakmaty::{Color, Position};

/// Where the next move of a position stands in its game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    pub(crate) ply: u32,
    pub(crate) move_number: u32,
    pub(crate) side: Color,
}

impl Turn {
    /// The turn of the move to be played in `pos`.
    pub(crate) fn of<P: Position>(pos: &P) -> Turn {
        let move_number = pos.fullmoves().get();
        let side = pos.turn();
        let before = move_number.saturating_sub(1).saturating_mul(2);
        Turn { ply: before.saturating_add(side.fold_wb(1, 2)), move_number, side }
    }

    /// Whether `number` is PGN's number for this move: `12.` for white, `12...` for black.
    pub(crate) fn is_numbered_by(&self, number: &[u8]) -> bool {
        self.number_at(number) == Some(number.len())
    }

    /// The length of the word's number that starts `rest` (its digits, then its dots), when it
    /// is PGN's number for this move (see [`is_numbered_by`](Turn::is_numbered_by)).
    pub(crate) fn number_at(&self, rest: &[u8]) -> Option<usize> {
        let (value, digits) = leading_number(rest)?;
        let dots = rest[digits..].iter().take_while(|&&b| b == b'.').count();
        (value == self.move_number && dots == self.side.fold_wb(1, 3)).then_some(digits + dots)
    }

    /// PGN's number for this move: `12.` for white, `12...` for black.
    pub(crate) fn number(&self) -> String {
        format!("{}{}", self.move_number, self.side.fold_wb(".", "..."))
    }
}

/// Whether `digits` is `number` written in decimal, without leading zeros.
pub(crate) fn writes_number(digits: &[u8], number: u32) -> bool {
    leading_number(digits) == Some((number, digits.len()))
}

/// The number written in decimal at the start of `text`, without a leading zero, and how many
/// digits it has; `None` when there is none or it is larger than any move number (a `u32`).
fn leading_number(text: &[u8]) -> Option<(u32, usize)> {
    // Read in one pass, rather than cut out first or written out to compare: this runs once per
    // move.
    if text.first() == Some(&b'0') {
        return None;
    }
    let mut value = 0u32;
    let mut digits = 0;
    while let Some(&digit) = text.get(digits)
        && digit.is_ascii_digit()
    {
        value = value.checked_mul(10)?.checked_add(u32::from(digit - b'0'))?;
        digits += 1;
    }
    (digits > 0).then_some((value, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_numbered_by` as PGN states it, digits and dots cut apart first.
    fn numbered_slowly(turn: &Turn, number: &[u8]) -> bool {
        match (turn.side, number) {
            (Color::White, [digits @ .., b'.'])
            | (Color::Black, [digits @ .., b'.', b'.', b'.']) => {
                writes_number(digits, turn.move_number)
            }
            _ => false,
        }
    }

    #[test]
    fn the_largest_move_number_is_read() {
        let turn = Turn { ply: 1, move_number: u32::MAX, side: Color::White };
        for number in ["4294967295.", "4294967296.", "42949672950.", "04294967295.", "9."] {
            let bytes = number.as_bytes();
            assert_eq!(turn.is_numbered_by(bytes), numbered_slowly(&turn, bytes), "{number}");
        }
        assert!(turn.is_numbered_by(b"4294967295."));
    }

    proptest::proptest! {
        #[test]
        fn a_number_is_read_in_one_pass_as_written(
            number in "[0-9.]{0,6}|[0-9]{9,12}\\.{1,3}",
            move_number in 1u32..12,
            white: bool,
        ) {
            let side = if white { Color::White } else { Color::Black };
            let turn = Turn { ply: 1, move_number, side };
            let bytes = number.as_bytes();
            proptest::prop_assert_eq!(turn.is_numbered_by(bytes), numbered_slowly(&turn, bytes));
            for number in ["1.", "11.", "1...", "11..."] {
                let bytes = number.as_bytes();
                proptest::prop_assert_eq!(turn.is_numbered_by(bytes), numbered_slowly(&turn, bytes));
            }
        }
    }
}
