//! Moves, move generation and perft.
//!
//! ```
//! use arbiter_duck::{Game, moves::perft};
//!
//! let game = Game::new();
//! assert_eq!(game.legal_moves().len(), 43);
//! assert_eq!(perft(&game, 2), 1_849);
//! ```

use std::fmt;

use crate::{Game, Square};

/// A move: the piece on `from` goes to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    /// The judge's command format, `x1 y1 x2 y2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (self.from, self.to);
        write!(f, "{} {} {} {}", from.row(), from.col(), to.row(), to.col())
    }
}

impl Game {
    /// Every valid move of the side to move; none once the game is over.
    ///
    /// Nothing is illegal because of check: a side may leave its captain attacked.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.for_each_move(|mv| moves.push(mv));
        moves
    }

    /// Calls `f` with every valid move of the side to move.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.winner().is_some() {
            return;
        }
        let board = self.board();
        for from in board.by_color(self.turn()) {
            for to in board.moves_from(from) {
                f(Move { from, to });
            }
        }
    }

    /// Number of valid moves of the side to move, without listing them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        let board = self.board();
        board.by_color(self.turn()).map(|from| u64::from(board.moves_from(from).count())).sum()
    }
}

/// Number of move sequences of length `depth` from `game` (a captured captain ends a sequence).
pub fn perft(game: &Game, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => {
            let mut nodes = 0;
            game.for_each_move(|mv| {
                let mut child = game.clone();
                if child.play(mv.from, mv.to).is_ok() {
                    nodes += perft(&child, depth - 1);
                }
            });
            nodes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_perft_counts_from_the_start() {
        let game = Game::new();
        // The counts fairy-stockfish gives for this game (SPEC §7).
        let counts: Vec<u64> = (1..=4).map(|d| perft(&game, d)).collect();
        assert_eq!(counts, [43, 1_849, 80_066, 3_466_638]);
    }
}
