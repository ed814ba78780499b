//! Random legal games, reproducible from a seed: data for benchmarks and property tests.
//!
//! ```
//! use arbiter_chess_record::{check_record, random::RandomGames};
//!
//! let games: Vec<String> = RandomGames::new(42).take(3).collect();
//! assert_eq!(games, RandomGames::new(42).take(3).collect::<Vec<_>>());
//! assert!(games.iter().all(|record| check_record(record).is_yes()));
//! ```

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use shakmaty::{Chess, Position};

use crate::record::RecordWriter;
use crate::turn::Turn;

use crate::spelling::{Dialect, SanText};

/// The shortest and longest game generated, in plies, unless the game ends sooner.
const PLIES: std::ops::RangeInclusive<u64> = 40..=160;

/// An endless stream of random legal games, each a contest record on one line.
#[derive(Clone, Debug)]
pub struct RandomGames {
    rng: SplitMix64,
}

impl RandomGames {
    /// The stream for `seed`; the same seed always gives the same games.
    pub fn new(seed: u64) -> RandomGames {
        RandomGames { rng: SplitMix64::seed_from_u64(seed) }
    }

    /// The next game as its list of moves, for callers that want the moves themselves.
    pub fn next_moves(&mut self) -> Vec<shakmaty::Move> {
        let span = PLIES.end() - PLIES.start() + 1;
        let length = PLIES.start() + self.rng.next_u64() % span;
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for _ in 0..length {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let index = (self.rng.next_u64() % legal.len() as u64) as usize;
            let m = legal[index];
            pos.play_unchecked(m);
            moves.push(m);
        }
        moves
    }
}

impl Iterator for RandomGames {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        Some(record(&self.next_moves(), Dialect::Contest))
    }
}

/// The record of a game given as legal moves from the initial position, in `dialect`.
pub fn record(moves: &[shakmaty::Move], dialect: Dialect) -> String {
    let mut pos = Chess::default();
    let mut out = RecordWriter::default();
    for &m in moves {
        let at = Turn::of(&pos);
        let san = shakmaty::san::San::from_move(&pos, m);
        pos.play_unchecked(m);
        let check = pos.checkers().any();
        let mate = check && pos.is_checkmate();
        out.push(at, SanText::new(san, check, mate, dialect).as_str());
    }
    out.finish()
}
