//! Search values: centipawns from the side to move's point of view, and the scores of won and
//! lost games, which this game reaches by capturing a captain.
//!
//! ```
//! use arbiter_duck_engine::value::{self, MATE, Score};
//!
//! // The side to move captures the captain with its first move: mate in 1.
//! assert_eq!(value::score(value::won_in(1)), Score::Mate(1));
//! // Its captain is captured by the opponent's reply: mated in 1 (after its own move).
//! assert_eq!(value::score(value::lost_in(2)), Score::Mate(-1));
//! assert_eq!(value::score(35), Score::Centipawns(35));
//! assert!(value::won_in(1) < MATE);
//! ```

/// A search value in centipawns (hundredths of a soldier, as UCI counts), or a won or lost game.
pub type Value = i32;

/// The value of having captured the captain at the root: no search value reaches it.
pub const MATE: Value = 32_000;

/// Above every value, for the bounds of a full window.
pub const INFINITE: Value = MATE + 1;

/// A draw: a position repeated in the search path, or a side with no move.
pub const DRAW: Value = 0;

/// The deepest ply the search goes to (quiescence included).
pub const MAX_PLY: usize = 128;

/// Values at least this far from 0 are won or lost games.
pub const MATE_BOUND: Value = MATE - 2 * MAX_PLY as Value;

/// The value for the side to move when it captures the other captain `ply` plies from the root
/// (the capture being the `ply`-th move).
#[inline]
pub const fn won_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The value for the side to move when its captain is captured by the `ply`-th move from the root.
#[inline]
pub const fn lost_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether `value` is a won or lost game.
#[inline]
pub const fn is_decisive(value: Value) -> bool {
    value >= MATE_BOUND || value <= -MATE_BOUND
}

/// A value as the search reports it, from the point of view of the side to move: centipawns, or
/// the moves until a captain is captured (a front end writes it in its own form, UCI's `cp 35`
/// or `mate -2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Hundredths of a soldier.
    Centipawns(i32),
    /// A captain is captured in this many moves of the side to move; negative when the side to
    /// move loses (its captain is captured after this many of its own moves).
    Mate(i32),
}

/// The score of `value`: centipawns, or the moves (of the side to move) until a captain is
/// captured, negative when the side to move loses.
pub fn score(value: Value) -> Score {
    if value >= MATE_BOUND {
        Score::Mate((MATE - value + 1) / 2)
    } else if value <= -MATE_BOUND {
        Score::Mate(-(MATE + value) / 2)
    } else {
        Score::Centipawns(value)
    }
}

/// A value read from the transposition table, stored by [`to_table`] at another ply: a won or
/// lost game is counted from the node where it was stored.
#[inline]
pub const fn from_table(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value - ply as Value
    } else if value <= -MATE_BOUND {
        value + ply as Value
    } else {
        value
    }
}

/// A value as the transposition table keeps it: a won or lost game counted from this node rather
/// than from the root.
#[inline]
pub const fn to_table(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value + ply as Value
    } else if value <= -MATE_BOUND {
        value - ply as Value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_count_moves_of_the_side_to_move() {
        for moves in 1..20 {
            assert_eq!(score(won_in(2 * moves as usize - 1)), Score::Mate(moves));
            assert_eq!(score(lost_in(2 * moves as usize)), Score::Mate(-moves));
        }
        assert_eq!(score(lost_in(0)), Score::Mate(0));
    }

    #[test]
    fn table_values_move_with_the_ply() {
        for value in [won_in(7), lost_in(6), 123, -40, 0] {
            for ply in [0, 3, 50] {
                assert_eq!(from_table(to_table(value, ply), ply), value);
            }
        }
        // A capture 3 plies below a node at ply 4 is 3 plies below it when met at ply 10.
        assert_eq!(from_table(to_table(won_in(7), 4), 10), won_in(13));
    }
}
