//! Zobrist keys: a 64-bit hash of a position, kept up to date as pieces move.
//!
//! A position's key is the exclusive or of one random number per piece on its square, and of
//! [`BLUE_TO_MOVE`] when blue moves next. The [`Board`](crate::Board) updates its part in the
//! three mutators that put, remove and move pieces, and nowhere else; the side to move is added by
//! [`Position::key`](crate::Position::key).
//!
//! ```
//! use arbiter_duck::Position;
//!
//! let mut position = Position::new();
//! let start = position.key();
//! let mv = "d1e2".parse().unwrap();
//! let undo = position.make(mv);
//! assert_ne!(position.key(), start);
//! assert_eq!(position.key(), position.key_from_scratch());
//! position.unmake(mv, undo);
//! assert_eq!(position.key(), start);
//! ```

use crate::{Color, Piece, Square};

/// The next number of the SplitMix64 sequence, and the new state.
const fn split_mix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31), state)
}

/// One number per piece (red pieces first, in the official order of roles) and square, then the
/// number for blue to move; fixed at compile time so that keys are the same in every run.
static KEYS: ([[u64; Square::COUNT]; 14], u64) = {
    let mut pieces = [[0; Square::COUNT]; 14];
    let mut state = 2019;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < Square::COUNT {
            let (value, next) = split_mix(state);
            pieces[p][s] = value;
            state = next;
            s += 1;
        }
        p += 1;
    }
    (pieces, split_mix(state).0)
};

/// Added to the key when blue moves next.
pub const BLUE_TO_MOVE: u64 = KEYS.1;

/// The number of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.0[piece.color.index() * 7 + piece.role.index()][sq.index()]
}

/// The number for `turn` to move: 0 for red, [`BLUE_TO_MOVE`] for blue.
#[inline]
pub const fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::Red => 0,
        Color::Blue => BLUE_TO_MOVE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_numbers_are_distinct() {
        let mut all: Vec<u64> = KEYS.0.iter().flatten().copied().collect();
        all.push(BLUE_TO_MOVE);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 14 * Square::COUNT + 1);
    }
}
