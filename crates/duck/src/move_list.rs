//! A list of moves with a fixed capacity, so that generating moves never allocates.
//!
//! ```
//! use arbiter_duck::{MoveList, Position};
//!
//! let moves: MoveList = Position::new().moves();
//! assert_eq!(moves.len(), 43);
//! assert!(moves.iter().all(|mv| mv.from != mv.to));
//! assert!(arbiter_duck::move_list::MAX_MOVES <= MoveList::CAPACITY);
//! ```

use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::rules::START_COUNTS;
use crate::{Move, Role, Square, movement};

/// The most valid moves a position can offer: a side never has more pieces of a role than it
/// starts with ([`START_COUNTS`], enforced when a [`Position`](crate::Position) is built, and
/// moves only remove pieces), and a piece of a role reaches at most
/// [`movement::max_targets`] squares. With the official pieces: 2 cars × 17 + 2 horses × 8 +
/// 2 elephants × 4 + 2 guards × 4 + 1 captain × 4 + 5 soldiers × 8 + 2 ducks × 8 = 126.
pub const MAX_MOVES: usize = {
    let mut total = 0;
    let mut r = 0;
    while r < Role::ALL.len() {
        total += START_COUNTS[r] as usize * movement::max_targets(Role::ALL[r]) as usize;
        r += 1;
    }
    total
};

const _: () = assert!(MAX_MOVES <= MoveList::CAPACITY, "a position can have more moves than fit");

/// Up to [`MoveList::CAPACITY`] moves, stored inline.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

/// Fills the unused part of a list.
const NO_MOVE: Move = Move::new(Square::A1, Square::A1);

impl MoveList {
    /// How many moves a list holds: at least [`MAX_MOVES`].
    pub const CAPACITY: usize = 128;

    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList { moves: [NO_MOVE; MoveList::CAPACITY], len: 0 }
    }

    /// Adds `mv` at the end.
    ///
    /// # Panics
    ///
    /// When the list is full, which moves generated from a [`Position`](crate::Position) never
    /// make it (see [`MAX_MOVES`]).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (to reorder them).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, { MoveList::CAPACITY }>>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(self.len)
    }
}

impl Extend<Move> for MoveList {
    /// Adds every move of `iter`; panics when the list would overflow.
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for mv in iter {
            self.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_each_role_at_its_widest() {
        let widest: Vec<u32> = Role::ALL.iter().map(|&r| movement::max_targets(r)).collect();
        // car, horse, elephant, guard, captain, soldier, duck
        assert_eq!(widest, [17, 8, 4, 4, 4, 8, 8]);
        assert_eq!(MAX_MOVES, 126);
    }

    #[test]
    fn a_list_behaves_like_a_slice() {
        let mut list = MoveList::new();
        let mv = |a, b| Move::new(Square::from_index(a).unwrap(), Square::from_index(b).unwrap());
        list.extend([mv(1, 2), mv(3, 4)]);
        assert_eq!(list.len(), 2);
        list.swap(0, 1);
        assert_eq!(list.into_iter().collect::<Vec<_>>(), [mv(3, 4), mv(1, 2)]);
    }
}
