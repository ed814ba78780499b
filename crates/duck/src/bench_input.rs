//! Deterministic inputs for benchmarks and stress tests: long command lists for the judge, and
//! random positions for move generation tests.
//!
//! ```
//! use arbiter_duck::{bench_input, judge};
//!
//! let input = bench_input::long_game(1_000, 7);
//! let mut out = Vec::new();
//! let summary = judge::run(&input, &mut out).unwrap();
//! assert_eq!(summary.commands, 1_000);
//! // The game never ends: every line is either a move that goes on or an invalid command.
//! assert!(String::from_utf8(out).unwrap().lines().all(|l| l.ends_with(";no") || l == "Invalid command"));
//!
//! // The same seed gives the same position.
//! assert_eq!(bench_input::random_scatter(3), bench_input::random_scatter(3));
//! assert_eq!(bench_input::random_game(3, 40).fullmoves(), 21);
//! ```

use std::fmt::Write;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::{Board, Color, Game, Piece, Position, Role, Square};

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
    let mut game = Game::new().without_history();
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

/// The position after `plies` random valid moves from the start, each picked uniformly (fewer
/// when a captain falls or a side cannot move first).
pub fn random_game(seed: u64, plies: usize) -> Position {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut position = Position::new();
    for _ in 0..plies {
        let moves = position.moves();
        if moves.is_empty() {
            break;
        }
        let _ = position.make(moves[below(&mut rng, moves.len())]);
    }
    position
}

/// Both captains and a random subset of the other 30 starting pieces, each on a random square,
/// with a random side to move: positions no game reaches, sparse or crowded (the share of pieces
/// kept is itself random), with pieces on every edge.
pub fn random_scatter(seed: u64) -> Position {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut free: Vec<Square> = Square::all().collect();
    let start = Board::initial();
    // Captains first, so that they are always placed.
    let mut pieces: Vec<Piece> = start.occupied().filter_map(|sq| start.piece_at(sq)).collect();
    pieces.sort_by_key(|piece| piece.role != Role::Captain);
    let keep = below(&mut rng, 101);
    let mut board = Board::empty();
    for piece in pieces {
        if piece.role == Role::Captain || below(&mut rng, 100) < keep {
            let square = free.swap_remove(below(&mut rng, free.len()));
            board.put(square, piece);
        }
    }
    let turn = if rng.next_u64() & 1 == 0 { Color::Red } else { Color::Blue };
    Position::from_board(board, turn).expect("both captains and at most the starting pieces")
}
