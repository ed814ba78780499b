//! What playing a game gives: the [`Outcome`] it prints, or the [`RunError`] of a broken
//! guarantee.

use std::fmt;

use crate::grid::Pos;

/// A guarantee broken while playing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// A backward of l at round H with H − l ≤ 0 ("数据保证不会回到游戏开始之前").
    #[error("round {round}: piece {piece} casts backward {rounds}, before the first round")]
    BackwardBeforeStart {
        /// H.
        round: u32,
        /// 1-based piece index.
        piece: usize,
        /// l.
        rounds: u32,
    },
}

/// What a game prints: hupraise's numbers as they were cast, then the final positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// One number per hupraise cast, in order.
    pub matchings: Vec<usize>,
    /// Final position of each piece.
    pub positions: Vec<Pos>,
}

impl fmt::Display for Outcome {
    /// The official output: one line per number, then `row col` per piece.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pairs in &self.matchings {
            writeln!(f, "{pairs}")?;
        }
        for pos in &self.positions {
            writeln!(f, "{} {}", pos.row, pos.col)?;
        }
        Ok(())
    }
}
