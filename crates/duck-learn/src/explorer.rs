//! The opening explorer: for a position, the moves played from it in a set of games, each with
//! how many games played it, how they ended, and the engine's evaluation when one is known.
//!
//! Each game adds its first [`MAX_PLY`] moves as it ends ([`Explorer::add_game`]): the index is
//! built incrementally and never rebuilt. One entry per (position, move) pair, keyed by the
//! position's Zobrist key mixed with the move: a query generates the position's moves (the rules'
//! own move generation) and looks each pair up, so it costs a hundred hash lookups whatever the
//! number of games, and a move reaches the same entry by whatever order of moves its position was
//! reached (transpositions share their statistics).
//!
//! ```
//! use arbiter_duck::{Color, Move, Position};
//! use arbiter_duck_learn::explorer::Explorer;
//!
//! let mut explorer = Explorer::new();
//! let moves: Vec<Move> = ["e4e5", "e7e6"].iter().map(|m| m.parse().unwrap()).collect();
//! explorer.add_game(&Position::new(), &moves, Some(Color::Red), &[]);
//! explorer.add_game(&Position::new(), &moves[..1], None, &[]);
//! let rows = explorer.moves(&Position::new());
//! assert_eq!(rows.len(), 1);
//! assert_eq!(rows[0].mv, moves[0]);
//! assert_eq!(rows[0].games, 2);
//! assert_eq!(rows[0].score(Color::Red), 0.75); // a win and a draw for red, who played it
//! ```

use std::collections::HashMap;

use arbiter_duck::{Color, Move, Position};
use serde::Serialize;

use crate::score::RedScore;

/// The plies of each game the explorer indexes: an opening explorer. Later positions are seldom
/// reached by two games.
pub const MAX_PLY: usize = 30;

/// What the games that played a move from a position did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tally {
    games: u32,
    red_wins: u32,
    draws: u32,
    /// The engine's evaluation of the position after the move, red's view: centipawns,
    /// [`MATE_FLAG`] plus the signed moves to a capture, or [`UNKNOWN`]. (Not an `Option`: an
    /// entry stays 24 bytes with its key.)
    eval: i32,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally { games: 0, red_wins: 0, draws: 0, eval: UNKNOWN }
    }
}

/// No evaluation known.
const UNKNOWN: i32 = i32::MIN;

/// An evaluation stored as a mate: this much added to the signed move count.
const MATE_FLAG: i32 = 1 << 24;

/// One row of the explorer: a move and what followed it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The move.
    #[serde(with = "crate::wire::command")]
    pub mv: Move,
    /// The games that played it.
    pub games: u32,
    /// Of those, won by red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by blue.
    pub blue_wins: u32,
    /// The engine's evaluation of the position after the move, from red's side, when known.
    pub eval: Option<RedScore>,
}

impl Row {
    /// The share of the points `side` scored in these games (a draw counts a half).
    pub fn score(&self, side: Color) -> f64 {
        let wins = match side {
            Color::Red => self.red_wins,
            Color::Blue => self.blue_wins,
        };
        (f64::from(wins) + f64::from(self.draws) / 2.0) / f64::from(self.games.max(1))
    }
}

/// The index.
#[derive(Debug, Clone, Default)]
pub struct Explorer {
    tallies: HashMap<u64, Tally>,
    games: u64,
}

/// The key of a (position, move) pair: the position's key, mixed with the move by a 64-bit
/// finaliser (splitmix64's), so that pairs of different positions do not meet.
fn pair_key(position: &Position, mv: Move) -> u64 {
    let mut z = position.key()
        ^ (((mv.from.index() as u64) << 8 | mv.to.index() as u64) + 1)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Explorer {
    /// An empty index.
    pub fn new() -> Explorer {
        Explorer::default()
    }

    /// The games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The (position, move) pairs held.
    pub fn pairs(&self) -> usize {
        self.tallies.len()
    }

    /// Adds a finished game: its first [`MAX_PLY`] moves from `start`, won by `winner` (`None`
    /// for a draw). `evals[i]`, when given, is the evaluation (red's side) of the position after
    /// move `i`; the latest known one is kept. Stops at the first move that is not valid.
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        winner: Option<Color>,
        evals: &[Option<RedScore>],
    ) {
        let mut position = start.clone();
        // A game that comes back to a position and plays the same move again counts once.
        let mut seen = [0u64; MAX_PLY];
        for (index, &mv) in moves.iter().take(MAX_PLY).enumerate() {
            if !position.is_legal(mv) {
                break;
            }
            let key = pair_key(&position, mv);
            if seen[..index].contains(&key) {
                let _ = position.make(mv);
                continue;
            }
            seen[index] = key;
            let tally = self.tallies.entry(key).or_default();
            tally.games += 1;
            match winner {
                Some(Color::Red) => tally.red_wins += 1,
                Some(Color::Blue) => {}
                None => tally.draws += 1,
            }
            if let Some(eval) = evals.get(index).copied().flatten().and_then(pack) {
                tally.eval = eval;
            }
            let _ = position.make(mv);
        }
        self.games += 1;
    }

    /// Keeps the evaluations of a game's positions (`evals[i]` after move `i`, red's view) for
    /// the pairs already held, without counting the game: an analysis of a game already added.
    pub fn set_evals(&mut self, start: &Position, moves: &[Move], evals: &[Option<RedScore>]) {
        let mut position = start.clone();
        for (index, &mv) in moves.iter().take(MAX_PLY).enumerate() {
            if !position.is_legal(mv) {
                break;
            }
            let eval = evals.get(index).copied().flatten().and_then(pack);
            if let (Some(tally), Some(eval)) =
                (self.tallies.get_mut(&pair_key(&position, mv)), eval)
            {
                tally.eval = eval;
            }
            let _ = position.make(mv);
        }
    }

    /// The moves played from `position`, most played first (then in move order).
    pub fn moves(&self, position: &Position) -> Vec<Row> {
        let mut rows: Vec<Row> = position
            .moves()
            .iter()
            .filter_map(|&mv| {
                let tally = self.tallies.get(&pair_key(position, mv))?;
                Some(Row {
                    mv,
                    games: tally.games,
                    red_wins: tally.red_wins,
                    draws: tally.draws,
                    blue_wins: tally.games - tally.red_wins - tally.draws,
                    eval: (tally.eval != UNKNOWN).then(|| unpack(tally.eval)),
                })
            })
            .collect();
        rows.sort_by(|a, b| b.games.cmp(&a.games).then(a.mv.cmp(&b.mv)));
        rows
    }
}

/// An evaluation as a tally keeps it; a finished game's (no evaluation to keep) is `None`.
fn pack(eval: RedScore) -> Option<i32> {
    match eval {
        RedScore::Cp(cp) => Some(cp.clamp(-MATE_FLAG / 2, MATE_FLAG / 2)),
        RedScore::Mate(moves) => Some(MATE_FLAG + moves.clamp(-1000, 1000)),
        RedScore::Won(_) => None,
    }
}

/// The evaluation a tally keeps.
fn unpack(value: i32) -> RedScore {
    if value > MATE_FLAG / 2 { RedScore::Mate(value - MATE_FLAG) } else { RedScore::Cp(value) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &[&str]) -> Vec<Move> {
        text.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn transposed_games_share_their_moves() {
        let mut explorer = Explorer::new();
        // Two orders of the same two red moves and blue moves reach the same position.
        explorer.add_game(&Position::new(), &moves(&["e4e5", "e7e6", "a4a5", "c7c6"]), None, &[]);
        explorer.add_game(
            &Position::new(),
            &moves(&["a4a5", "c7c6", "e4e5", "e7e6", "e5e6"]),
            Some(Color::Red),
            &[None, None, None, None, Some(RedScore::Cp(120))],
        );
        let mut position = Position::new();
        for mv in moves(&["e4e5", "e7e6", "a4a5", "c7c6"]) {
            let _ = position.make(mv);
        }
        let rows = explorer.moves(&position);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].mv, "e5e6".parse().unwrap());
        assert_eq!((rows[0].games, rows[0].red_wins, rows[0].blue_wins), (1, 1, 0));
        assert_eq!(rows[0].eval, Some(RedScore::Cp(120)));
        let start = explorer.moves(&Position::new());
        assert_eq!(start.len(), 2);
        assert_eq!(start.iter().map(|row| row.games).sum::<u32>(), 2);
        assert_eq!(explorer.games(), 2);
    }

    #[test]
    fn only_the_opening_is_indexed() {
        let mut explorer = Explorer::new();
        let mut position = Position::new();
        let mut random = arbiter_duck_engine::random::RandomMover::new(3);
        let mut game = Vec::new();
        while game.len() < MAX_PLY + 10 {
            let Some(mv) = random.choose(&position) else { break };
            let _ = position.make(mv);
            game.push(mv);
        }
        explorer.add_game(&Position::new(), &game, None, &[]);
        assert!(explorer.pairs() <= MAX_PLY);
    }

    #[test]
    fn a_game_counts_once_for_a_move_it_repeats() {
        let mut explorer = Explorer::new();
        // The horse goes out and back twice: the start position and its move come again.
        let game = moves(&["b1c3", "b10c8", "c3b1", "c8b10", "b1c3", "b10c8"]);
        explorer.add_game(&Position::new(), &game, None, &[]);
        let rows = explorer.moves(&Position::new());
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].games, 1);
    }

    #[test]
    fn an_analysis_adds_evaluations_and_no_game() {
        let mut explorer = Explorer::new();
        let game = moves(&["e4e5", "e7e6"]);
        explorer.add_game(&Position::new(), &game, None, &[]);
        explorer.set_evals(
            &Position::new(),
            &game,
            &[Some(RedScore::Cp(40)), Some(RedScore::Mate(-2))],
        );
        let rows = explorer.moves(&Position::new());
        assert_eq!((rows[0].games, rows[0].eval), (1, Some(RedScore::Cp(40))));
        // A game never added gets nothing.
        explorer.set_evals(&Position::new(), &moves(&["a4a5"]), &[Some(RedScore::Cp(1))]);
        assert_eq!(explorer.moves(&Position::new()).len(), 1);
    }

    #[test]
    fn mates_are_kept_as_mates() {
        assert_eq!(pack(RedScore::Mate(-3)).map(unpack), Some(RedScore::Mate(-3)));
        assert_eq!(pack(RedScore::Cp(-250)).map(unpack), Some(RedScore::Cp(-250)));
        assert_eq!(pack(RedScore::Won(Color::Red)), None);
    }
}
