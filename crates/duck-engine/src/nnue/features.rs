//! The network's inputs: one feature per (perspective, piece, point), the one definition the
//! search's inference and the trainer share.
//!
//! A position is seen twice, once from each side's perspective. From perspective `p`, a piece of
//! colour `c` and role `r` on the point `s` is feature
//! `(c != p) * 630 + r * 90 + oriented(p, s)`: the perspective's own pieces come first, the
//! roles in their official order ([`Role`] as a number), the points row-major with row 0 at the
//! perspective's own side (blue's rows are mirrored, the columns kept). Every piece on the board
//! is a feature, both captains and the ducks included, so a position has one active feature per
//! piece in each perspective.
//!
//! ```
//! use arbiter_duck::{Color, Piece, Position, Role, Square};
//! use arbiter_duck_engine::nnue::features::{self, INPUTS};
//!
//! let start = Position::new();
//! let red: Vec<usize> = features::active(start.board(), Color::Red).collect();
//! assert_eq!(red.len(), 32);
//! assert!(red.iter().all(|&feature| feature < INPUTS));
//! // Red's car on a1 is, from blue's side, an enemy car on blue's last row.
//! let a1 = Square::from_name("a1").unwrap();
//! let car = Piece::new(Color::Red, Role::Car);
//! assert_eq!(features::index(Color::Red, car, a1), 0);
//! assert_eq!(features::index(Color::Blue, car, a1), 630 + 9 * 9);
//! ```

use arbiter_duck::{Board, Color, Piece, Role, Square};

/// The features of one side's pieces from one perspective: 7 roles on 90 points.
pub const PER_SIDE: usize = Role::ALL.len() * Square::COUNT;

/// The number of inputs: the perspective's own pieces, then the other side's.
pub const INPUTS: usize = 2 * PER_SIDE;

/// The point `sq` as `perspective` sees it: itself for red, its row mirrored for blue (row
/// `9 - row`, same column), so that each side sees its own pieces start on the low rows.
#[inline]
pub const fn oriented(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Red => sq.index(),
        Color::Blue => sq.flip_vertical().index(),
    }
}

/// The feature of `piece` on `sq` from `perspective`, in `0..INPUTS`.
#[inline]
pub const fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = piece.color.index() != perspective.index();
    theirs as usize * PER_SIDE + piece.role as usize * Square::COUNT + oriented(perspective, sq)
}

/// The active features of `board` from `perspective`: one per piece, in the order of the points.
pub fn active(board: &Board, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    board
        .occupied()
        .filter_map(move |sq| board.piece_at(sq).map(|piece| index(perspective, piece, sq)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use arbiter_duck::Position;

    use super::*;

    /// The position with the colours swapped and the board turned upside down (rows mirrored),
    /// the other side to move.
    fn mirrored(position: &Position) -> Position {
        let mut board = Board::empty();
        for sq in position.board().occupied() {
            let piece = position.board().piece_at(sq).unwrap();
            let _ = board.put(sq.flip_vertical(), Piece::new(!piece.color, piece.role));
        }
        Position::from_board(board, !position.turn()).unwrap()
    }

    /// The positions of a random game from the start, `plies` long at most.
    fn random_game(seed: u64, plies: usize) -> Vec<Position> {
        let mut rng = seed;
        let mut position = Position::new();
        let mut positions = vec![position.clone()];
        for _ in 0..plies {
            let moves = position.moves();
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let _ = position.make(moves[(rng >> 33) as usize % moves.len()]);
            positions.push(position.clone());
        }
        positions
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        for seed in 0..8 {
            for position in random_game(seed, 120) {
                for perspective in Color::ALL {
                    let features: Vec<usize> = active(position.board(), perspective).collect();
                    assert_eq!(features.len(), position.board().occupied().count() as usize);
                    assert!(features.iter().all(|&feature| feature < INPUTS), "{position}");
                    let distinct: BTreeSet<usize> = features.iter().copied().collect();
                    assert_eq!(distinct.len(), features.len(), "{position}");
                }
            }
        }
    }

    #[test]
    fn every_feature_is_one_piece_on_one_point() {
        for perspective in Color::ALL {
            let mut seen = BTreeSet::new();
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in Square::all() {
                        assert!(seen.insert(index(perspective, Piece::new(color, role), sq)));
                    }
                }
            }
            assert_eq!(seen.len(), INPUTS);
            assert_eq!(seen.last(), Some(&(INPUTS - 1)));
        }
    }

    #[test]
    fn blue_sees_what_red_sees_in_the_mirrored_position() {
        for seed in 0..8 {
            for position in random_game(seed, 80) {
                let mirror = mirrored(&position);
                let blue: BTreeSet<usize> = active(position.board(), Color::Blue).collect();
                let red: BTreeSet<usize> = active(mirror.board(), Color::Red).collect();
                assert_eq!(blue, red, "{position}");
                let red: BTreeSet<usize> = active(position.board(), Color::Red).collect();
                let blue: BTreeSet<usize> = active(mirror.board(), Color::Blue).collect();
                assert_eq!(red, blue, "{position}");
            }
        }
    }

    #[test]
    fn the_orientation_mirrors_rows_only() {
        let a1 = Square::from_name("a1").unwrap();
        let i10 = Square::from_name("i10").unwrap();
        assert_eq!(oriented(Color::Red, a1), 0);
        assert_eq!(oriented(Color::Blue, a1), 81);
        assert_eq!(oriented(Color::Red, i10), 89);
        assert_eq!(oriented(Color::Blue, i10), 8);
    }
}
