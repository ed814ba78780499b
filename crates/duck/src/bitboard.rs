//! Sets of squares as 90-bit masks.
//!
//! ```
//! use arbiter_duck::{Bitboard, Square};
//!
//! let a = Square::new(0, 0).unwrap();
//! let b = Square::new(9, 8).unwrap();
//! let set = Bitboard::from_square(a) | Bitboard::from_square(b);
//! assert_eq!(set.count(), 2);
//! assert_eq!(set.into_iter().collect::<Vec<_>>(), [a, b]);
//! ```

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

/// A set of squares; bit `i` stands for the square with index `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1 << Square::COUNT) - 1);

    /// The set holding just `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table: shifting a 128-bit number by a variable amount takes several instructions.
        SQUARE_BITS[sq.index()]
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | Bitboard::from_square(sq).0)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !Bitboard::from_square(sq).0)
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// The square with the highest index, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Square::from_index(127 - self.0.leading_zeros() as usize) }
    }
}

/// The set of each single square.
const SQUARE_BITS: [Bitboard; Square::COUNT] = {
    let mut bits = [Bitboard::EMPTY; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        bits[i] = Bitboard(1 << i);
        i += 1;
    }
    bits
};

impl Bitboard {
    /// The squares of the set in index order, like iterating the set itself but cheaper: a
    /// 128-bit number takes several instructions to clear its lowest bit or count its trailing
    /// zeros, each 64-bit half one.
    #[inline]
    pub(crate) fn squares(self) -> Squares {
        Squares { low: self.0 as u64, high: (self.0 >> 64) as u64 }
    }
}

/// The squares of a [`Bitboard`], from [`Bitboard::squares`].
#[derive(Debug, Clone)]
pub(crate) struct Squares {
    low: u64,
    high: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let index = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            // Below 64: the compiler drops the range check.
            return Square::from_index(index);
        }
        // 128 once the set is empty, like a bit beyond the board: either ends the iteration, as
        // iterating the set itself does.
        let index = 64 + self.high.trailing_zeros() as usize;
        self.high &= self.high.wrapping_sub(1);
        Square::from_index(index)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;

            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }

        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;

    /// The complement within the 90 squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_the_iteration_of_the_set() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in 0..2000 {
            let bits = u128::from(next()) << 64 | u128::from(next());
            // Sparse and dense sets, some with bits beyond the board, which end both iterations.
            let bits = match n % 4 {
                0 => bits & u128::from(next()) & Bitboard::FULL.0,
                1 => bits & Bitboard::FULL.0,
                2 => bits & !(u128::MAX >> 40),
                _ => bits,
            };
            let set = Bitboard(bits);
            assert_eq!(set.squares().collect::<Vec<_>>(), set.collect::<Vec<_>>(), "{bits:#x}");
        }
        assert_eq!(Bitboard::EMPTY.squares().next(), None);
        assert_eq!(Bitboard::FULL.squares().count(), Square::COUNT);
    }
}
