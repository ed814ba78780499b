//! Deterministic inputs for benchmarks and stress tests.
//!
//! ```
//! use arbiter_duck::{generate, judge};
//!
//! let input = generate::long_game(1_000, 7);
//! let mut out = Vec::new();
//! let summary = judge::run(&input, &mut out).unwrap();
//! assert_eq!(summary.commands, 1_000);
//! // The game never ends: every line is either a move that goes on or an invalid command.
//! assert!(String::from_utf8(out).unwrap().lines().all(|l| l.ends_with(";no") || l == "Invalid command"));
//! ```

use std::fmt::Write;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::{Game, Role, Square};

/// A number in `0..n` (`n > 0`) from `rng`, with negligible bias for the small `n` used here.
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// An input of `commands` commands in the official format from one game that never ends.
///
/// About two commands in three are valid moves; the rest are random squares, which are almost
/// always invalid (empty or enemy source, own piece on the target, not in the pattern). Every
/// command stays on the board so that reference solutions which index arrays without bounds
/// checks can read the same input; off-board commands are covered by the tests. Valid moves avoid
/// captures whenever a quiet move exists, so the board stays full and check detection always has
/// work to do; no move ever captures a captain.
pub fn long_game(commands: usize, seed: u64) -> String {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut game = Game::new();
    let mut text = String::with_capacity(commands * 8 + 16);
    let _ = writeln!(text, "{commands}");
    let mut moves = Vec::with_capacity(128);
    for _ in 0..commands {
        if below(&mut rng, 3) == 0 {
            let mut square = || (below(&mut rng, 10) as i64, below(&mut rng, 9) as i64);
            let (from, to) = (square(), square());
            let captures_captain = Square::from_coords(to.0, to.1)
                .and_then(|sq| game.board().piece_at(sq))
                .is_some_and(|p| p.role == Role::Captain);
            if !captures_captain {
                let _ = game.play_coords(from, to);
                let _ = writeln!(text, "{} {} {} {}", from.0, from.1, to.0, to.1);
                continue;
            }
        }
        moves.clear();
        game.for_each_move(|mv| moves.push(mv));
        let board = game.board();
        let quiet = moves.iter().filter(|mv| board.piece_at(mv.to).is_none()).count();
        let safe: Vec<_> = if quiet > 0 {
            moves.iter().filter(|mv| board.piece_at(mv.to).is_none()).collect()
        } else {
            moves
                .iter()
                .filter(|mv| board.piece_at(mv.to).is_none_or(|p| p.role != Role::Captain))
                .collect()
        };
        let Some(&&mv) = safe.get(below(&mut rng, safe.len().max(1))) else {
            // No move keeps the game going: move from an empty square instead, which is invalid
            // and changes nothing. At most 32 of the 90 squares hold a piece.
            if let Some(sq) = Square::all().find(|&sq| board.piece_at(sq).is_none()) {
                let _ = writeln!(text, "{} {} {} {}", sq.row(), sq.col(), sq.row(), sq.col());
            }
            continue;
        };
        let _ = game.play(mv.from, mv.to);
        let _ = writeln!(text, "{mv}");
    }
    text
}
