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
}
