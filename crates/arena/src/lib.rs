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
//! Modules, one concept each: [`grid`] (cells, facings, obstacles), [`skill`] (the ten skills),
//! [`game`] (the input model), [`io`] (the text format), [`rules`] (official vs statement
//! readings), [`sim`] (the round loop), [`cast`] (the skills' effects, one function each),
//! [`fight`] (the duels in a cell), [`strength`] (exact C(a, b) comparison),
//! [`gcc_sort`] (libstdc++'s `std::sort`), [`matching`] (hupraise), [`event`] (the trace).
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
pub mod game;
pub mod gcc_sort;
pub mod generate;
pub mod grid;
pub mod io;
pub mod matching;
pub mod rules;
pub mod sim;
pub mod skill;
pub mod strength;

use arbiter_scan::{ScanError, Scanner};

use crate::rules::Rules;
use crate::sim::RunError;

/// Why judging stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// Malformed input.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// A guarantee broken while playing game `game` (1-based).
    #[error("game {game}, {error}")]
    Run {
        /// 1-based game number.
        game: usize,
        /// What happened.
        error: RunError,
    },
}

/// Judges a whole input: reads each game, plays it and hands its output to `out` before reading
/// the next. Returns whether input was left over after the last game.
pub fn judge(text: &str, rules: Rules, mut out: impl FnMut(&str)) -> Result<bool, JudgeError> {
    let mut input = Scanner::new(text);
    let count = io::parse_count(&mut input)?;
    for game_number in 1..=count {
        let game = io::parse_game(&mut input)?;
        let outcome = sim::play(&game, rules)
            .map_err(|error| JudgeError::Run { game: game_number, error })?;
        out(&outcome.to_string());
    }
    Ok(!input.at_end())
}
