//! The skill arena (组合数问题, THUPC 2018): the official referee and its rule readings.
//!
//! ```
//! use arbiter_arena::{judge, rules::Rules};
//!
//! // Red C(3, 1) meets blue C(1, 1) in the middle and wins, weakened to (2, 0); blue respawns
//! // next round, when hupraise pairs a = 2 with a = 1 (2 xor 1 = 3).
//! let input = "1\n1 3 2 2\n0 0 0\n1 1 3 1 0 3 1 1 1 toolihai\n1 3 1 1 1 2 1 1 1 hupraise\n";
//! let mut output = String::new();
//! judge(input, Rules::official(), |text| output.push_str(text)).unwrap();
//! assert_eq!(output, "0\n1\n1 3\n1 1\n");
//! ```
//!
//! # Modules
//!
//! One concept each. A game's state lives in [`state`]; each step of a round lives in its own
//! module with its scratch data, and [`sim`] only orders them. Each module uses only the modules
//! listed after it, so the modules form a DAG, leaves first (a step that calls a method another
//! module defines on [`state`]'s arena counts as using that module):
//!
//! | module | holds | uses |
//! | --- | --- | --- |
//! | [`grid`] | cells, facings, obstacles | — |
//! | [`skill`] | the ten skills and their parameters | — |
//! | [`rules`] | the official program's readings and the statement's | — |
//! | [`strength`] | exact C(a, b) comparison | — |
//! | [`gcc_sort`] | libstdc++'s `std::sort`, for the official order of ties | — |
//! | [`game`] | the input model | grid, skill |
//! | [`io`] | the text format | game, grid, skill |
//! | [`generate`] | random and maximum-size inputs | skill |
//! | [`geometry`] | rabiribi's sector and its shadows, where a push lands, 2dsaigao's wave | grid, rules |
//! | [`matching`] | maximum bipartite matching; hupraise's graph, kept between casts | game |
//! | [`outcome`] | what a game prints, or the guarantee it broke | grid |
//! | [`state`] | the game being played: pieces, timers, backward history (step 2) | game, grid, rules, skill |
//! | [`event`] | the trace, and the pieces as a sink sees them after a round | game, grid, rules, skill, state |
//! | [`respawn`] | step (1): respawns, the end of onepunch boosts | event, skill, state |
//! | [`movement`] | step (3): a step forward or a turn-about | event, state |
//! | [`cast`] | step (4): the skills' effects, one function each; hupraise's graph as scratch | event, game, geometry, grid, matching, outcome, respawn, skill, state |
//! | [`fight`] | step (5): the duels in a cell; the per-cell table and lists as scratch | event, game, gcc_sort, grid, rules, state, strength |
//! | [`sim`] | the round loop: the order of the steps | cast, event, fight, game, grid, movement, outcome, respawn, rules, state |
//! | the crate root | [`judge`]: reads, plays and prints every game | grid, io, outcome, rules, sim |
//!
//! # Input limits
//!
//! Every value the statement allows is accepted. Where the statement bounds a value, a larger
//! one is malformed input even when the official program's `int` reader would take it: T ≤ 20,
//! 1 ≤ N, M ≤ 100, 1 ≤ K ≤ 200, 1 ≤ R ≤ 1000 (the official program's arrays are sized by
//! these, so beyond them it writes out of bounds), starting a ≤ 1000 with 0 ≤ b ≤ a, onepunch
//! boosts v ≤ 1000 (its table of ln n! stops at 10^6, which these bounds keep attributes
//! near), team 0 or 1, facing 0..=3, a start on a free cell. A map cell is any integer, an
//! obstacle when it is not 0. Where the statement gives only a
//! sign, the official `int` decides the top: f, z, r in 1..=2^31 − 1, the durations of onepunch,
//! firework and 2dsaigao in 1..=2^31 − 1, every other skill parameter in 0..=2^31 − 1. A value
//! above 2^31 − 1 overflows the official reader and is malformed here. All of these are checked
//! while reading ([`io`]), with the position of the offending token.

#![warn(missing_docs)]

pub mod cast;
pub mod event;
pub mod fight;
pub mod float_ties;
pub mod game;
pub mod gcc_sort;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod io;
pub mod matching;
pub mod movement;
pub mod outcome;
pub mod respawn;
pub mod rules;
pub mod sim;
pub mod skill;
pub mod state;
pub mod strength;
pub mod validate;

use arbiter_scan::{Place, ScanError, Scanner, Source};
use serde::Serialize;

use crate::grid::Pos;
use crate::io::Games;
use crate::outcome::{Outcome, RunError};
use crate::rules::Rules;

/// Why judging stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// Malformed input.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// A guarantee broken while playing game `game` (1-based).
    #[error(
        "{place}: expected a game that keeps the statement's guarantees, found in game {game}, {error}"
    )]
    Run {
        /// 1-based game number.
        game: usize,
        /// What happened.
        error: RunError,
        /// Where the input writes the skill of the piece at fault.
        place: Place,
    },
}

/// Judges a whole input: reads each game, plays it and hands its output to `out` before reading
/// the next. Returns whether input was left over after the last game.
pub fn judge(text: &str, rules: Rules, mut out: impl FnMut(&str)) -> Result<bool, JudgeError> {
    let mut games = Games::new(Scanner::new(text))?;
    judge_games(&mut games, rules, |_, outcome| out(&outcome.to_string()))?;
    Ok(games.trailing().is_some())
}

/// Reads, plays and hands over (with its number) each game of `games`, before reading the next.
/// The official judge, whatever the input's source: `arbiter arena` streams its input through
/// this.
pub fn judge_games<S: Source>(
    games: &mut Games<'_, S>,
    rules: Rules,
    mut each: impl FnMut(usize, &Outcome),
) -> Result<(), JudgeError> {
    while let Some(game) = games.next() {
        let (number, game) = game?;
        let outcome = sim::play(&game, rules).map_err(|error| run_error(games, number, error))?;
        each(number, &outcome);
    }
    Ok(())
}

/// A guarantee broken while playing game `game`, placed at the skill of the piece at fault.
pub fn run_error<S: Source>(games: &Games<'_, S>, game: usize, error: RunError) -> JudgeError {
    #[allow(unreachable_patterns)]
    let piece = match &error {
        RunError::BackwardBeforeStart { piece, .. } => Some(*piece),
        _ => None,
    };
    let place = piece
        .and_then(|piece| games.skill_places().get(piece.wrapping_sub(1)).copied())
        .unwrap_or(games.count_place());
    JudgeError::Run { game, error, place }
}

/// One game's answer as data, as `arbiter arena --json` writes it: one object per game, e.g.
/// `{"game":1,"matchings":[3],"positions":[{"row":1,"col":3},{"row":1,"col":1}]}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Answer<'a> {
    /// The game's number, from 1.
    pub game: usize,
    /// Hupraise's numbers, in the order they were printed.
    pub matchings: &'a [usize],
    /// The final position of each piece.
    pub positions: &'a [Pos],
}

impl<'a> Answer<'a> {
    /// The answer of game `game`.
    pub fn new(game: usize, outcome: &'a Outcome) -> Answer<'a> {
        Answer { game, matchings: &outcome.matchings, positions: &outcome.positions }
    }
}
