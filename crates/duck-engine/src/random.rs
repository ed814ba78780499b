//! A player that picks one of the valid moves uniformly at random: the weakest sensible
//! opponent, and the first rung of the strength table.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::random::RandomMover;
//!
//! let position = Position::new();
//! let mut a = RandomMover::new(7);
//! let mut b = RandomMover::new(7);
//! let mv = a.choose(&position).unwrap();
//! assert!(position.is_legal(mv));
//! // The same seed makes the same choices.
//! assert_eq!(b.choose(&position), Some(mv));
//! ```

use arbiter_duck::{Move, Position};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Picks valid moves uniformly at random, from a seed.
#[derive(Debug, Clone)]
pub struct RandomMover {
    rng: Xoshiro256PlusPlus,
}

impl RandomMover {
    /// A mover whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }

    /// A valid move of `position`, each with the same chance; `None` when there is none.
    pub fn choose(&mut self, position: &Position) -> Option<Move> {
        let moves = position.moves();
        if moves.is_empty() {
            return None;
        }
        // Rejection sampling keeps every move equally likely.
        let n = moves.len() as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let r = self.rng.next_u64();
            if r < zone {
                return Some(moves[(r % n) as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_is_chosen() {
        let position = Position::new();
        let mut mover = RandomMover::new(1);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..43 * 200 {
            *counts.entry(mover.choose(&position).unwrap()).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 43);
        // 200 expected each; a fair die stays well within this.
        assert!(counts.values().all(|&c| (120..=290).contains(&c)), "{counts:?}");
    }
}
