//! Perft: the number of move sequences of a given length, the standard test of move generation.
//!
//! A sequence ends early when it captures a captain (the game is over then). The last ply is
//! counted in bulk, without playing its moves, as fairy-stockfish does.
//!
//! ```
//! use arbiter_duck::{Position, perft};
//!
//! let start = Position::new();
//! assert_eq!(perft::perft(&start, 2), 1_849);
//! let mut first_moves = Vec::new();
//! let total = perft::divide(&start, 2, |mv, nodes| first_moves.push((mv.uci().to_string(), nodes)));
//! assert_eq!(total, 1_849);
//! assert_eq!(first_moves.len(), 43);
//! assert_eq!(first_moves[0], ("a1a2".to_owned(), 43));
//! ```

use crate::{Move, Position};

/// The number of move sequences of `depth` plies from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    // `|| false` never stops the count.
    count(&mut position.clone(), depth, &|| false).unwrap_or_default()
}

/// Calls `each` with every move of `position` and the number of sequences of `depth` plies that
/// start with it, in the order of [`Position::moves`]; returns their sum, the perft count. At
/// depth 0 there is one (empty) sequence and no first move.
pub fn divide(position: &Position, depth: u32, each: impl FnMut(Move, u64)) -> u64 {
    divide_until(position, depth, || false, each).unwrap_or_default()
}

/// [`divide`] that gives up once `stopped()` says so: it is asked at every node above the last
/// two plies, so every few thousand nodes at most. Returns `None` when it gave up; `each` has
/// been called for the first moves counted before.
pub fn divide_until(
    position: &Position,
    depth: u32,
    stopped: impl Fn() -> bool,
    each: impl FnMut(Move, u64),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    split(&mut position.clone(), depth, &stopped, each)
}

fn count(position: &mut Position, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(position.count_moves()),
        _ if stopped() => None,
        _ => split(position, depth, stopped, |_, _| ()),
    }
}

/// The one loop over first moves, for [`count`] and [`divide_until`].
#[inline]
fn split(
    position: &mut Position,
    depth: u32,
    stopped: &impl Fn() -> bool,
    mut each: impl FnMut(Move, u64),
) -> Option<u64> {
    let mut total = 0;
    for mv in position.moves() {
        let undo = position.make(mv);
        let nodes = count(position, depth - 1, stopped);
        position.unmake(mv, undo);
        let nodes = nodes?;
        each(mv, nodes);
        total += nodes;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts_from_the_start() {
        let start = Position::new();
        // The counts fairy-stockfish gives for this game (docs/rules.md#duck-chess).
        let counts: Vec<u64> = (0..=4).map(|d| perft(&start, d)).collect();
        assert_eq!(counts, [1, 43, 1_849, 80_066, 3_466_638]);
        assert_eq!(divide(&start, 0, |_, _| panic!("no first move at depth 0")), 1);
    }

    #[test]
    fn a_count_asked_to_stop_gives_up() {
        let start = Position::new();
        assert_eq!(divide_until(&start, 3, || false, |_, _| ()), Some(80_066));
        let mut first_moves = 0;
        assert_eq!(divide_until(&start, 12, || true, |_, _| first_moves += 1), None);
        assert_eq!(first_moves, 0);
        // The last two plies are counted without asking.
        assert_eq!(divide_until(&start, 2, || true, |_, _| ()), Some(1_849));
    }

    #[test]
    fn counters_at_their_limits_change_no_count() {
        let fen = "4c4/9/9/9/9/9/9/9/9/4C4 b - - 4294967295 4294967295";
        let position: Position = fen.parse().unwrap();
        let plain: Position = "4c4/9/9/9/9/9/9/9/9/4C4 b".parse().unwrap();
        assert_eq!(perft(&position, 3), perft(&plain, 3));
    }
}
