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

#[cfg(target_arch = "x86_64")]
use crate::movement::pext::Bmi2;
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
    split(&mut position.clone(), depth, &stopped, count, each)
}

/// The count below a node, with the fastest instructions this CPU has.
fn count(position: &mut Position, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if let Some(bmi2) = Bmi2::detect_with_bit_counts() {
        // SAFETY: the CPU has the features `bmi2::count` is compiled for.
        return unsafe { bmi2::count(position, depth, stopped, bmi2) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has `popcnt`, the one feature `popcnt::count` is compiled for.
        return unsafe { popcnt::count(position, depth, stopped) };
    }
    count_portable(position, depth, stopped)
}

/// [`count`] with the instructions of every x86-64 CPU (or of the target, elsewhere).
fn count_portable(position: &mut Position, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(position.count_moves()),
        _ if stopped() => None,
        _ => split(position, depth, stopped, count_portable, |_, _| ()),
    }
}

/// [`count`] compiled for CPUs with `popcnt` (x86-64-v2: nearly every x86-64 CPU since about
/// 2009), chosen at run time. The last ply is nearly all of perft's time, and most of that is
/// counting targets in 128-bit sets: with `popcnt` a count is two instructions, without it about
/// two dozen; the portable build may not assume the instruction, so the count is compiled twice.
/// CPUs with a fast BMI2 as well run [`bmi2`]'s copy instead.
#[cfg(target_arch = "x86_64")]
mod popcnt {
    use super::split;
    use crate::Position;

    #[target_feature(enable = "popcnt")]
    pub(super) fn count(
        position: &mut Position,
        depth: u32,
        stopped: &impl Fn() -> bool,
    ) -> Option<u64> {
        match depth {
            0 => Some(1),
            1 => Some(position.count_moves_inline()),
            _ if stopped() => None,
            // The closure has this function's target features: it calls `count` safely.
            _ => split(position, depth, stopped, |p, d, s| count(p, d, s), |_, _| ()),
        }
    }
}

/// [`popcnt`]'s count for CPUs with a fast BMI2, and BMI1 and LZCNT (x86-64-v3; Intel since 2013,
/// AMD since Zen 3), chosen at run time: a piece's targets are table lookups indexed by `pext`
/// (see [`movement::pext`](crate::movement::pext)) instead of a test per group of leaps or a scan
/// per ray, and a set's trailing or leading zeros are one instruction.
#[cfg(target_arch = "x86_64")]
mod bmi2 {
    use super::split;
    use crate::Position;
    use crate::movement::pext::Bmi2;

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn count(
        position: &mut Position,
        depth: u32,
        stopped: &impl Fn() -> bool,
        bmi2: Bmi2,
    ) -> Option<u64> {
        match depth {
            0 => Some(1),
            1 => Some(position.count_moves_with(|r, s, o| bmi2.targets(r, s, o))),
            _ if stopped() => None,
            // The closure has this function's target features: it calls `count` safely.
            _ => split(position, depth, stopped, |p, d, s| count(p, d, s, bmi2), |_, _| ()),
        }
    }
}

/// The one loop over first moves, for [`count`] and [`divide_until`].
#[inline(always)]
fn split<F: Fn() -> bool>(
    position: &mut Position,
    depth: u32,
    stopped: &F,
    below: impl Fn(&mut Position, u32, &F) -> Option<u64>,
    mut each: impl FnMut(Move, u64),
) -> Option<u64> {
    let mut total = 0;
    for mv in position.moves() {
        // Compiled into this loop with the piece looked up once: a call to `make` and `unmake`
        // each cost more than their work.
        let piece = position.piece_at(mv.from).expect("a generated move starts on a piece");
        let undo = position.make_piece(mv, piece);
        let nodes = below(position, depth - 1, stopped);
        position.unmake_piece(mv, undo, piece);
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
    fn the_portable_count_and_the_one_chosen_for_this_cpu_agree() {
        // Positions along a game, so that captures and ends of games are met too.
        let mut position = Position::new();
        for ply in 0..60 {
            let never = || false;
            let portable = count_portable(&mut position.clone(), 3, &never);
            assert_eq!(portable, count(&mut position.clone(), 3, &never), "ply {ply}");
            // The count for CPUs with `popcnt` alone, which this one may pass over.
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU has `popcnt`.
                let popcnt = unsafe { popcnt::count(&mut position.clone(), 3, &never) };
                assert_eq!(portable, popcnt, "ply {ply}");
            }
            let moves = position.moves();
            let Some(&mv) = moves.get(ply * 7 % moves.len().max(1)) else { break };
            let _ = position.make(mv);
        }
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
