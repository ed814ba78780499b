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
//! That is the [`FeatureSet::Pieces`] set, [`INPUTS`] inputs. A network may use another
//! [`FeatureSet`], which its file names: [`FeatureSet::Captain`] gives each perspective's
//! features in the bucket of its own captain's point ([`CAPTAIN_BUCKETS`] copies of the
//! pieces' features, as xiangqi and chess networks bucket by the king's square), the board seen
//! mirrored left to right when that captain stands right of the middle column, so that the
//! network learns what each piece means for a captain where it is. A perspective's bucket and
//! mirror are its [`Frame`]; a move that changes a frame (its own captain's) recomputes that
//! perspective's sums rather than updating them.
//!
//! ```
//! use arbiter_duck::{Color, Piece, Position, Role, Square};
//! use arbiter_duck_engine::nnue::features::{self, FeatureSet, INPUTS};
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
//! // With its captain on e1, red's bucket is the first; on f2, the fourth, seen mirrored.
//! let captain = FeatureSet::Captain;
//! let frame = captain.frame(Color::Red, Square::from_name("e1"));
//! assert_eq!(FeatureSet::index(frame, Color::Red, car, a1), 0);
//! let frame = captain.frame(Color::Red, Square::from_name("f2"));
//! let i1 = Square::from_name("i1").unwrap();
//! assert_eq!(FeatureSet::index(frame, Color::Red, car, i1), 4 * INPUTS);
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

/// The buckets of [`FeatureSet::Captain`]: where a perspective's captain stands, its rows
/// counted from its own side and its columns folded onto the left half (the board is then
/// seen mirrored). The captain spends most of a game on its first row, most of that on the
/// middle column or next to it; each of these points has a bucket of its own, the rarer
/// ones share.
pub const CAPTAIN_BUCKETS: usize = 8;

/// The bucket of a captain on the oriented `row` and the folded column `col` (0 at the edge,
/// 4 the middle).
const fn captain_bucket(row: usize, col: usize) -> usize {
    match (row, col) {
        (0, 4) => 0,
        (0, 3) => 1,
        (0, _) => 2,
        (1, 4) => 3,
        (1, 3) => 4,
        (1, _) => 5,
        (2, _) => 6,
        _ => 7,
    }
}

/// The sets of inputs a network may have; its file names its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Every piece on its point ([`index`]): [`INPUTS`] inputs.
    Pieces,
    /// Every piece on its point, in the bucket of the perspective's captain's point, seen
    /// mirrored when that captain stands right of the middle: [`CAPTAIN_BUCKETS`] × [`INPUTS`]
    /// inputs.
    Captain,
}

/// How a perspective sees the board under a [`FeatureSet`]: the first input of its bucket, and
/// whether the columns are mirrored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    offset: usize,
    mirror: bool,
}

impl FeatureSet {
    /// Every set, by its number.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Pieces, FeatureSet::Captain];

    /// The set's number in a network file.
    pub const fn id(self) -> u32 {
        self as u32
    }

    /// The set numbered `id`, if there is one.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.get(id as usize).copied()
    }

    /// The set's name on the command line: `pieces` or `captain`.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::Pieces => "pieces",
            FeatureSet::Captain => "captain",
        }
    }

    /// The number of inputs.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::Pieces => INPUTS,
            FeatureSet::Captain => CAPTAIN_BUCKETS * INPUTS,
        }
    }

    /// The frame of `perspective` whose captain stands on `captain` (none: a side whose
    /// captain was just captured, seen in the first bucket).
    #[inline]
    pub fn frame(self, perspective: Color, captain: Option<Square>) -> Frame {
        match (self, captain) {
            (FeatureSet::Pieces, _) | (FeatureSet::Captain, None) => Frame::PLAIN,
            (FeatureSet::Captain, Some(captain)) => {
                let sq = Square::from_index(oriented(perspective, captain)).unwrap_or(captain);
                let (row, col) = (usize::from(sq.row()), usize::from(sq.col()));
                let mirror = col > 4;
                let folded = if mirror { 8 - col } else { col };
                Frame { offset: captain_bucket(row, folded) * INPUTS, mirror }
            }
        }
    }

    /// The frame of `perspective` on `board`.
    #[inline]
    pub fn frame_of(self, board: &Board, perspective: Color) -> Frame {
        self.frame(perspective, board.captain(perspective))
    }

    /// The feature of `piece` on `sq` from `perspective`, seen in `frame`.
    #[inline]
    pub fn index(frame: Frame, perspective: Color, piece: Piece, sq: Square) -> usize {
        let sq = if frame.mirror { sq.flip_horizontal() } else { sq };
        frame.offset + index(perspective, piece, sq)
    }

    /// The active features of `board` from `perspective`: one per piece, in the order of the
    /// points.
    pub fn active(self, board: &Board, perspective: Color) -> impl Iterator<Item = usize> + '_ {
        let frame = self.frame_of(board, perspective);
        board.occupied().filter_map(move |sq| {
            board.piece_at(sq).map(|piece| FeatureSet::index(frame, perspective, piece, sq))
        })
    }
}

impl Frame {
    /// The frame of [`FeatureSet::Pieces`]: no bucket, no mirror.
    pub const PLAIN: Frame = Frame { offset: 0, mirror: false };
}

impl std::str::FromStr for FeatureSet {
    type Err = String;

    fn from_str(name: &str) -> Result<FeatureSet, String> {
        FeatureSet::ALL
            .into_iter()
            .find(|set| set.name() == name)
            .ok_or_else(|| format!("expected a feature set, `pieces` or `captain`, found `{name}`"))
    }
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
    fn captain_features_are_pieces_in_the_captains_bucket_and_mirrored_on_the_right() {
        let set = FeatureSet::Captain;
        let mut buckets = BTreeSet::new();
        for seed in 0..12 {
            for position in random_game(seed, 150) {
                let board = position.board();
                for perspective in Color::ALL {
                    let features: Vec<usize> = set.active(board, perspective).collect();
                    assert!(features.iter().all(|&feature| feature < set.inputs()));
                    let distinct: BTreeSet<usize> = features.iter().copied().collect();
                    assert_eq!(distinct.len(), features.len(), "{position}");
                    // The same pieces as the plain set, mirrored when the captain stands right
                    // of the middle, all in one bucket.
                    let captain = board.captain(perspective);
                    let mirror = captain.is_some_and(|sq| sq.col() > 4);
                    let seen = if mirror { trainer_mirror(board) } else { board.clone() };
                    let plain: BTreeSet<usize> = active(&seen, perspective).collect();
                    let bucket = features[0] / INPUTS;
                    assert!(features.iter().all(|&feature| feature / INPUTS == bucket));
                    let folded: BTreeSet<usize> = features.iter().map(|f| f % INPUTS).collect();
                    assert_eq!(folded, plain, "{position}");
                    buckets.insert(bucket);
                }
            }
        }
        assert_eq!(buckets.len(), CAPTAIN_BUCKETS, "random games visit every bucket");
        // Blue's captain on e10 is in its first bucket, as red's on e1: rows are counted from
        // each side's own, columns are the same for both.
        let pairs = [("e1", "e10", 0), ("d1", "d10", 1), ("f1", "f10", 1), ("a3", "a8", 6)];
        for (red, blue, bucket) in pairs {
            let red = set.frame(Color::Red, Square::from_name(red));
            let blue = set.frame(Color::Blue, Square::from_name(blue));
            assert_eq!(red, blue);
            assert_eq!(red.offset, bucket * INPUTS);
        }
        assert_eq!(set.frame(Color::Red, None), Frame::PLAIN);
        assert!(set.frame(Color::Red, Square::from_name("f1")).mirror);
        assert!(!set.frame(Color::Red, Square::from_name("e1")).mirror);
    }

    /// The board turned left to right.
    fn trainer_mirror(board: &Board) -> Board {
        let mut mirror = Board::empty();
        for sq in board.occupied() {
            let _ = mirror.put(sq.flip_horizontal(), board.piece_at(sq).unwrap());
        }
        mirror
    }

    #[test]
    fn sets_are_named_and_numbered() {
        for set in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(set.id()), Some(set));
            assert_eq!(set.name().parse::<FeatureSet>(), Ok(set));
        }
        assert_eq!(FeatureSet::from_id(2), None);
        assert!("kings".parse::<FeatureSet>().unwrap_err().contains("`kings`"));
        assert_eq!(FeatureSet::Pieces.inputs(), 1260);
        assert_eq!(FeatureSet::Captain.inputs(), 10_080);
        // The plain set is the functions above.
        let position = random_game(3, 40).pop().unwrap();
        for perspective in Color::ALL {
            let plain: Vec<usize> = active(position.board(), perspective).collect();
            let set: Vec<usize> =
                FeatureSet::Pieces.active(position.board(), perspective).collect();
            assert_eq!(plain, set);
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
