//! The result a board shows at the end of a game, and whether a written result disagrees with
//! it: asked by both the full check and the quick pass.

use shakmaty::Color;

use crate::variant::Playable;

/// The result the board shows at the end of a mainline of standard chess, and why: a mate or a
/// stalemate (the variants end otherwise).
pub(super) fn board_result<P: Playable>(pos: &P) -> Option<(&'static str, &'static str)> {
    if !P::STANDARD {
        return None;
    }
    let check = pos.checkers().any();
    if pos.is_won(check) {
        Some(match pos.turn() {
            Color::White => ("0-1", "checkmate on the board: black wins"),
            Color::Black => ("1-0", "checkmate on the board: white wins"),
        })
    } else if pos.is_stalemated(check) {
        Some(("1/2-1/2", "stalemate on the board: a draw"))
    } else {
        None
    }
}

/// Whether the result `written` (a token or a tag) disagrees with the board's `expected` one:
/// only a decided result can (`*` says nothing).
pub(super) fn contradicts_board(written: &str, expected: &str) -> bool {
    matches!(written, "1-0" | "0-1" | "1/2-1/2") && written != expected
}
