//! The accumulators along the search's path: one entry per ply, each holding red's and blue's
//! perspective, so that a move updates the next ply's entry from this one (the moved piece's
//! feature off its origin and onto its destination, the captured piece's off) and taking the
//! move back is only going back a ply.
//!
//! A position's features change little from one ply to the next, and the feature transformer is
//! linear: the sum at the next ply is this ply's plus the weights of the features that appear,
//! minus those of the features that go. Under the plain feature set the update is lazy: a move
//! only notes what it changed, and the sums are brought up to date when a position of the path
//! is evaluated. Most positions a search reaches are never evaluated (a cut-off on the
//! transposition table, a move pruned once made, a captain under attack, a value the table
//! already holds), and their moves then cost no update at all. A move that changes a perspective's
//! [`Frame`] (its captain's bucket, under [`FeatureSet::Captain`](super::features::FeatureSet))
//! changes every feature of that perspective: its sums are computed again from the board.
//! Sums wrap in `i16` like the reference
//! ([`Network::evaluate_scratch`](super::Network::evaluate_scratch)), and wrapping addition does
//! not depend on the order, so the value of a position is the same however the search reached
//! it.
//!
//! ```
//! use arbiter_duck::{Move, Position};
//! use arbiter_duck_engine::nnue::{Accumulators, Model, Network};
//!
//! let network = Network::random(64, 1);
//! let model = Model::new(network.clone()).unwrap();
//! let mut position = Position::new();
//! let mut accumulators = Accumulators::new(&model, &position);
//! let mv: Move = "e4e5".parse().unwrap();
//! let piece = position.piece_at(mv.from).unwrap();
//! let undo = position.make(mv);
//! accumulators.make(0, piece, mv, undo.captured(), position.board());
//! assert_eq!(accumulators.evaluate(1, &position), network.evaluate_scratch(&position));
//! ```

use arbiter_duck::{Board, Color, Move, Piece, Position, Role};

use super::features::{self, FeatureSet, Frame};
use super::model::{Block, LANES, Model};
use super::network::{QA, output_bucket, output_value};
use crate::value::{MAX_PLY, Value};

/// The entries kept: one for each ply the search reaches, and one past it.
const ENTRIES: usize = MAX_PLY + 2;

/// A stack of accumulators for `model`, an entry per ply.
#[derive(Debug, Clone)]
pub struct Accumulators<'a> {
    model: &'a Model,
    /// Each entry: red's perspective in `blocks` blocks, then blue's.
    entries: Vec<Block>,
    /// The frame each entry's perspectives were summed in: red's, then blue's.
    frames: Vec<[Frame; 2]>,
    /// How each entry stands: up to date, or waiting for the change from the entry before.
    pending: Vec<Pending>,
    /// Whether the CPU has AVX2, for the copy of the evaluation compiled for it.
    avx2: bool,
}

/// How an entry stands (the plain feature set's lazy updates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// The sums are those of the position at the entry's ply.
    Done,
    /// The sums are those of the ply before, changed by this move: `piece` went from `mv.from`
    /// to `mv.to`, taking `captured`.
    Move { piece: Piece, mv: Move, captured: Option<Piece> },
    /// The sums are those of the ply before (a null move).
    Null,
}

// Each block is computed in a local and then stored whole: the compiler then knows the stores
// cannot change the blocks read, and vectorises without checking at run time whether they
// overlap (which, inlined into the search, it otherwise does and then often takes a lane at a
// time).

/// `to = from + add - sub`, lane by lane (wrapping, as `i16` sums do).
#[inline(always)]
fn add_sub(to: &mut [Block], from: &[Block], add: &[Block], sub: &[Block]) {
    for (((to, &from), &add), &sub) in to.iter_mut().zip(from).zip(add).zip(sub) {
        let mut block = from;
        for lane in 0..LANES {
            block.0[lane] = from.0[lane].wrapping_add(add.0[lane]).wrapping_sub(sub.0[lane]);
        }
        *to = block;
    }
}

/// `to = from + add - sub - gone`, lane by lane: a capture.
#[inline(always)]
fn add_sub_sub(to: &mut [Block], from: &[Block], add: &[Block], sub: &[Block], gone: &[Block]) {
    let sources = from.iter().zip(add).zip(sub).zip(gone);
    for (to, (((&from, &add), &sub), &gone)) in to.iter_mut().zip(sources) {
        let mut block = from;
        for lane in 0..LANES {
            block.0[lane] = from.0[lane]
                .wrapping_add(add.0[lane])
                .wrapping_sub(sub.0[lane])
                .wrapping_sub(gone.0[lane]);
        }
        *to = block;
    }
}

/// `Σ clamp(accumulator, 0, QA) · weight` over the lanes, wrapping in `i32`.
#[inline(always)]
fn dot(accumulator: &[Block], weights: &[Block]) -> i32 {
    let mut sum = 0i32;
    for (values, weights) in accumulator.iter().zip(weights) {
        let block = values.0.iter().zip(&weights.0).fold(0i32, |sum, (&value, &weight)| {
            let activation = i32::from(value.clamp(0, QA as i16));
            sum.wrapping_add(activation * i32::from(weight))
        });
        sum = sum.wrapping_add(block);
    }
    sum
}

impl<'a> Accumulators<'a> {
    /// A stack for `model`, its root entry (ply 0) computed for `position`.
    pub fn new(model: &'a Model, position: &Position) -> Accumulators<'a> {
        let mut accumulators = Accumulators {
            model,
            entries: vec![Block::ZERO; ENTRIES * 2 * model.blocks],
            frames: vec![[Frame::PLAIN; 2]; ENTRIES],
            pending: vec![Pending::Done; ENTRIES],
            avx2: has_avx2(),
        };
        accumulators.refresh(0, position);
        accumulators
    }

    /// The entry of `ply`: both perspectives.
    #[inline(always)]
    fn entry(&self, ply: usize) -> &[Block] {
        let size = 2 * self.model.blocks;
        &self.entries[ply * size..(ply + 1) * size]
    }

    /// Computes the entry of `ply` from scratch for `position`: the bias plus every piece's
    /// feature, in each perspective.
    pub fn refresh(&mut self, ply: usize, position: &Position) {
        for perspective in Color::ALL {
            self.refresh_half(ply, position.board(), perspective);
        }
        self.pending[ply] = Pending::Done;
    }

    /// Computes `perspective`'s half of the entry of `ply` from scratch for `board`.
    fn refresh_half(&mut self, ply: usize, board: &Board, perspective: Color) {
        let blocks = self.model.blocks;
        let model = self.model;
        let start = (2 * ply + perspective.index()) * blocks;
        let half = &mut self.entries[start..start + blocks];
        half.copy_from_slice(&model.feature_bias);
        for feature in model.features.active(board, perspective) {
            for (sum, weights) in half.iter_mut().zip(model.feature(feature)) {
                for lane in 0..LANES {
                    sum.0[lane] = sum.0[lane].wrapping_add(weights.0[lane]);
                }
            }
        }
        self.frames[ply][perspective.index()] = model.features.frame_of(board, perspective);
    }

    /// Sets the entry of `ply + 1` for the position after `mv` played from the position of
    /// `ply`: `piece` leaves `mv.from` for `mv.to`, where it takes `captured`, if any; `board`
    /// is the board after the move, from which a perspective whose frame the move changes is
    /// summed again. Under the plain feature set the change is only noted, and made when a
    /// position at `ply + 1` or deeper is evaluated.
    #[inline]
    pub fn make(
        &mut self,
        ply: usize,
        piece: Piece,
        mv: Move,
        captured: Option<Piece>,
        board: &Board,
    ) {
        if self.model.features == FeatureSet::Pieces {
            self.pending[ply + 1] = Pending::Move { piece, mv, captured };
            return;
        }
        self.pending[ply + 1] = Pending::Done;
        let blocks = self.model.blocks;
        let model = self.model;
        for perspective in Color::ALL {
            let frame = self.frames[ply][perspective.index()];
            // Only a perspective's own captain sets its frame: its move, or its capture.
            let captain = |piece: Piece| piece.role == Role::Captain && piece.color == perspective;
            if (captain(piece) || captured.is_some_and(captain))
                && model.features.frame_of(board, perspective) != frame
            {
                self.refresh_half(ply + 1, board, perspective);
                continue;
            }
            self.frames[ply + 1][perspective.index()] = frame;
            let (before, after) = self.entries.split_at_mut((ply + 1) * 2 * blocks);
            let half = perspective.index() * blocks..(perspective.index() + 1) * blocks;
            let from = &before[ply * 2 * blocks..][half.clone()];
            let to = &mut after[half];
            let index = |piece, sq| FeatureSet::index(frame, perspective, piece, sq);
            let add = model.feature(index(piece, mv.to));
            let sub = model.feature(index(piece, mv.from));
            match captured {
                None => add_sub(to, from, add, sub),
                Some(captured) => {
                    let gone = model.feature(index(captured, mv.to));
                    add_sub_sub(to, from, add, sub, gone);
                }
            }
        }
    }

    /// Brings the entry of `ply` up to date: the changes noted since the last entry of the path
    /// that is, in order.
    #[inline(always)]
    fn update(&mut self, ply: usize) {
        if self.pending[ply] == Pending::Done {
            return;
        }
        // Ply 0 is always up to date (`new` computes it, and no move leads to it).
        let done = (0..ply).rev().find(|&p| self.pending[p] == Pending::Done).unwrap_or(0);
        for next in done + 1..=ply {
            match self.pending[next] {
                Pending::Done => {}
                Pending::Move { piece, mv, captured } => {
                    self.make_plain(next - 1, piece, mv, captured);
                }
                Pending::Null => {
                    let size = 2 * self.model.blocks;
                    self.entries.copy_within((next - 1) * size..next * size, next * size);
                }
            }
            self.pending[next] = Pending::Done;
        }
    }

    /// [`make`](Accumulators::make) for the plain feature set, whose frame never changes: the
    /// search's hot path, kept free of the frames' bookkeeping (their entries stay
    /// [`Frame::PLAIN`]).
    #[inline(always)]
    fn make_plain(&mut self, ply: usize, piece: Piece, mv: Move, captured: Option<Piece>) {
        let blocks = self.model.blocks;
        let model = self.model;
        let (before, after) = self.entries.split_at_mut((ply + 1) * 2 * blocks);
        let from = &before[ply * 2 * blocks..];
        let to = &mut after[..2 * blocks];
        for perspective in Color::ALL {
            let half = perspective.index() * blocks..(perspective.index() + 1) * blocks;
            let (from, to) = (&from[half.clone()], &mut to[half]);
            let add = model.feature(features::index(perspective, piece, mv.to));
            let sub = model.feature(features::index(perspective, piece, mv.from));
            match captured {
                None => add_sub(to, from, add, sub),
                Some(captured) => {
                    let gone = model.feature(features::index(perspective, captured, mv.to));
                    add_sub_sub(to, from, add, sub, gone);
                }
            }
        }
    }

    /// Sets the entry of `ply + 1` for a null move from `ply`: the same pieces, so the same sums
    /// (noted, under the plain feature set, until they are needed).
    #[inline]
    pub fn make_null(&mut self, ply: usize) {
        if self.model.features == FeatureSet::Pieces {
            self.pending[ply + 1] = Pending::Null;
            return;
        }
        self.pending[ply + 1] = Pending::Done;
        let size = 2 * self.model.blocks;
        self.entries.copy_within(ply * size..(ply + 1) * size, (ply + 1) * size);
        self.frames[ply + 1] = self.frames[ply];
    }

    /// The value of `position`, the position at `ply`, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, position: &Position) -> Value {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has AVX2.
            return unsafe { avx2::evaluate(self, ply, position) };
        }
        self.evaluate_inline(ply, position)
    }

    /// [`evaluate`](Accumulators::evaluate), inlined into each copy of it: the updates it waits
    /// for, and the output layer.
    #[inline(always)]
    fn evaluate_inline(&mut self, ply: usize, position: &Position) -> Value {
        self.update(ply);
        let blocks = self.model.blocks;
        let entry = self.entry(ply);
        let (red, blue) = entry.split_at(blocks);
        let (us, them) = match position.turn() {
            Color::Red => (red, blue),
            Color::Blue => (blue, red),
        };
        let buckets = self.model.output_bias.len();
        let (ours, theirs, bias) = if buckets == 1 {
            let (ours, theirs) = self.model.output_weights.split_at(blocks);
            (ours, theirs, self.model.output_bias[0])
        } else {
            let bucket = output_bucket(position.board().occupied().count(), buckets);
            let weights = &self.model.output_weights[bucket * 2 * blocks..][..2 * blocks];
            let (ours, theirs) = weights.split_at(blocks);
            (ours, theirs, self.model.output_bias[bucket])
        };
        let sum = bias.wrapping_add(dot(us, ours)).wrapping_add(dot(them, theirs));
        output_value(sum, self.model.scale)
    }
}

/// Whether the CPU has AVX2 (always false off x86-64).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The evaluation, with the updates it brings up to date, compiled for AVX2 as well and chosen
/// at run time: the portable build may not assume it, and its lanes are twice as wide (the sums
/// and products are the same integers, so the value is the same).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Accumulators, Position, Value};

    #[target_feature(enable = "avx2")]
    pub(super) fn evaluate(
        accumulators: &mut Accumulators,
        ply: usize,
        position: &Position,
    ) -> Value {
        accumulators.evaluate_inline(ply, position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Network;

    #[test]
    fn the_portable_evaluation_and_the_avx2_one_agree() {
        let network = Network::random(96, 5);
        let model = Model::new(network.clone()).unwrap();
        let mut position = Position::new();
        let mut wide = Accumulators::new(&model, &position);
        let mut portable = Accumulators::new(&model, &position);
        portable.avx2 = false;
        for ply in 0..60 {
            let moves = position.moves();
            let Some(&mv) = moves.get((ply * 7) % moves.len().max(1)) else { break };
            let piece = position.piece_at(mv.from).unwrap();
            let undo = position.make(mv);
            wide.make(ply, piece, mv, undo.captured(), position.board());
            portable.make(ply, piece, mv, undo.captured(), position.board());
            let value = network.evaluate_scratch(&position);
            assert_eq!(portable.evaluate(ply + 1, &position), value);
            assert_eq!(wide.evaluate(ply + 1, &position), value);
        }
    }

    #[test]
    fn a_capture_and_a_null_move_update_as_a_refresh_computes() {
        let network = Network::random(48, 4);
        let model = Model::new(network.clone()).unwrap();
        let mut position = Position::new();
        let mut accumulators = Accumulators::new(&model, &position);
        // e4e5 e7e6 e5e6: the red soldier takes the blue one.
        for (ply, mv) in ["e4e5", "e7e6", "e5e6"].into_iter().enumerate() {
            let mv: Move = mv.parse().unwrap();
            let piece = position.piece_at(mv.from).unwrap();
            let undo = position.make(mv);
            accumulators.make(ply, piece, mv, undo.captured(), position.board());
            let mut fresh = Accumulators::new(&model, &position);
            fresh.refresh(0, &position);
            assert_eq!(
                accumulators.evaluate(ply + 1, &position),
                network.evaluate_scratch(&position)
            );
            assert_eq!(accumulators.entry(ply + 1), fresh.entry(0));
        }
        let undo = position.make_null();
        accumulators.make_null(3);
        assert_eq!(accumulators.evaluate(4, &position), network.evaluate_scratch(&position));
        position.unmake_null(undo);
        assert_eq!(accumulators.evaluate(3, &position), network.evaluate_scratch(&position));
    }
}
