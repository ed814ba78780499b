//! The readable notation of a move, written by the server so that the move list and the engine's
//! lines say a move the same way, in the board's own labels: the piece (its letter, or its glyph,
//! as the board draws it), then the two points as the board labels them, row then column, joined
//! by `→`, or by `×` for a capture; `+` when a check position arises, `#` when a captain is
//! captured: `H 0,1→2,2`, `R 1,4×9,4#`.

use arbiter_duck::{Game, Move, Played, Position};
use serde::Serialize;

/// A move in both forms of the readable notation.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notation {
    /// With the piece's letter: `H 0,1→2,2`.
    pub(crate) letter: String,
    /// With the piece's Chinese glyph: `傌 0,1→2,2`.
    pub(crate) glyph: String,
}

/// The notation of `mv`, which was played with the result `played`.
pub(crate) fn written(mv: Move, played: &Played) -> Notation {
    let (from, to) = (mv.from, mv.to);
    let joint = if played.captured.is_some() { '×' } else { '→' };
    let mark = if played.game_over {
        "#"
    } else if played.check {
        "+"
    } else {
        ""
    };
    let points = format!("{},{}{joint}{},{}{mark}", from.row(), from.col(), to.row(), to.col());
    Notation {
        letter: format!("{} {points}", played.piece.role.letter().to_ascii_uppercase()),
        glyph: format!("{} {points}", played.piece.glyph()),
    }
}

/// The notation of each move of `line` played from `position`, as far as the moves are valid.
pub(crate) fn line(position: &Position, line: &[Move]) -> Vec<Notation> {
    let mut game = Game::from_position(position.clone());
    let mut written_moves = Vec::with_capacity(line.len());
    for &mv in line {
        match game.play(mv.from, mv.to) {
            Ok(played) => written_moves.push(written(mv, &played)),
            Err(_) => break,
        }
    }
    written_moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_written_in_the_board_labels() {
        let position: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let moves: Vec<Move> = ["1 4 2 4", "9 4 8 4", "2 4 8 4"].map(|m| m.parse().unwrap()).into();
        let written = line(&position, &moves);
        let letters: Vec<&str> = written.iter().map(|n| n.letter.as_str()).collect();
        assert_eq!(letters, ["R 1,4→2,4+", "C 9,4→8,4+", "R 2,4×8,4#"]);
        assert_eq!(written[0].glyph, "俥 1,4→2,4+");
        // An invalid move ends the line.
        let start = Position::new();
        let moves: Vec<Move> = ["0 1 2 2", "0 0 5 0"].map(|m| m.parse().unwrap()).into();
        let written = line(&start, &moves);
        assert_eq!(written.len(), 1);
        assert_eq!(written[0].letter, "H 0,1→2,2");
    }
}
