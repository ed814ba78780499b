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
        // Slice patterns and no number written out: this runs once per move.
        match (self.side, number) {
            (Color::White, [digits @ .., b'.'])
            | (Color::Black, [digits @ .., b'.', b'.', b'.']) => {
                writes_number(digits, self.move_number)
            }
            _ => false,
        }
    }

    /// PGN's number for this move: `12.` for white, `12...` for black.
    pub(crate) fn number(&self) -> String {
        format!("{}{}", self.move_number, self.side.fold_wb(".", "..."))
    }
}

/// Whether `digits` is `number` written in decimal, without leading zeros.
pub(crate) fn writes_number(digits: &[u8], number: u32) -> bool {
    // Read rather than written out, which would need a buffer: this runs once per round.
    let value = digits.iter().try_fold(0u32, |value, &digit| {
        let digit = digit.checked_sub(b'0').filter(|&digit| digit <= 9)?;
        value.checked_mul(10)?.checked_add(u32::from(digit))
    });
    digits.first().is_some_and(|&first| first != b'0') && value == Some(number)
}
