//! One game as the input describes it: the board, the pieces as they start, the number of rounds.
//!
//! ```
//! use arbiter_arena::game::{Game, PieceSpec, Team};
//! use arbiter_arena::grid::{Dir, Grid, Pos};
//! use arbiter_arena::skill::Skill;
//!
//! let grid = Grid::new(1, 2, vec![false, false]).unwrap();
//! let piece = PieceSpec {
//!     pos: Pos::new(1, 1), a: 3, b: 1, team: Team::Red, dir: Dir::Right,
//!     first_cooldown: 1, cooldown: 1, respawn: 1, skill: Skill::Toolihai,
//! };
//! let game = Game::new(grid, vec![piece], 2).unwrap();
//! assert_eq!(game.pieces().len(), 1);
//! ```

use serde::{Deserialize, Serialize};

use crate::grid::{Dir, Grid, Pos};
use crate::skill::Skill;

/// A side. Input code 0 is red, 1 is blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Team {
    /// c = 0.
    Red,
    /// c = 1.
    Blue,
}

impl Team {
    /// The team of input code `code`.
    pub const fn from_code(code: i64) -> Option<Team> {
        match code {
            0 => Some(Team::Red),
            1 => Some(Team::Blue),
            _ => None,
        }
    }

    /// 0 for red, 1 for blue, for per-team tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A piece as it starts, one input line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceSpec {
    /// Starting cell.
    pub pos: Pos,
    /// First attribute a (≤ 1000).
    pub a: u32,
    /// Second attribute b (≤ a).
    pub b: u32,
    /// Its side.
    pub team: Team,
    /// Starting facing.
    pub dir: Dir,
    /// f: the round of its first cast.
    pub first_cooldown: u32,
    /// z: rounds between casts.
    pub cooldown: u32,
    /// r: rounds from death to respawn.
    pub respawn: u32,
    /// Its one skill.
    pub skill: Skill,
}

/// Limits of the statement, checked when a game is built.
pub mod limits {
    /// Largest number of games in one input.
    pub const GAMES: i64 = 20;
    /// Largest K.
    pub const PIECES: i64 = 200;
    /// Largest R.
    pub const ROUNDS: i64 = 1000;
    /// Largest starting attribute.
    pub const ATTRIBUTE: i64 = 1000;
    /// Largest f, z or r accepted. The statement gives no bound; this is the largest value the
    /// official program's `int` holds (see the crate docs, "Input limits").
    pub const TIMER: i64 = i32::MAX as i64;
}

/// A guarantee of the statement that a game breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// More than 200 pieces, or none.
    #[error("{0} pieces, outside 1..={max}", max = limits::PIECES)]
    Pieces(usize),
    /// More than 1000 rounds, or none.
    #[error("{0} rounds, outside 1..={max}", max = limits::ROUNDS)]
    Rounds(i64),
    /// A piece starts off the board or on an obstacle.
    #[error("piece {0} starts on a blocked cell")]
    Blocked(usize),
}

/// A validated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    grid: Grid,
    pieces: Vec<PieceSpec>,
    rounds: u32,
}

impl Game {
    /// A game on `grid` with `pieces` (index 0 is the statement's piece 1) played for `rounds`.
    pub fn new(grid: Grid, pieces: Vec<PieceSpec>, rounds: i64) -> Result<Game, GameError> {
        if pieces.is_empty() || pieces.len() > limits::PIECES as usize {
            return Err(GameError::Pieces(pieces.len()));
        }
        if !(1..=limits::ROUNDS).contains(&rounds) {
            return Err(GameError::Rounds(rounds));
        }
        if let Some(i) = pieces.iter().position(|p| grid.is_blocked(p.pos)) {
            return Err(GameError::Blocked(i + 1));
        }
        Ok(Game { grid, pieces, rounds: rounds as u32 })
    }

    /// The board.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The pieces in input order.
    pub fn pieces(&self) -> &[PieceSpec] {
        &self.pieces
    }

    /// R, the number of rounds.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }
}
