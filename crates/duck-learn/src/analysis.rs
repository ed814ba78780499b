//! A whole game analysed: each position before a move searched to a fixed number of nodes, and
//! for each move its evaluation, the engine's best move and line, what it cost its side and its
//! [`Mark`]; then each side's accuracy and average loss.
//!
//! For the move played in a position, the engine searches the position (the best move, its line
//! and score), then, when another move was played, that move alone to the depth the best move's
//! search reached, with the same node cap. Both scores come from the same position with the same
//! side to move, so what the move cost is not confused with the swing of whose turn it is (large
//! in this game at a short search). The move's `eval` is the played move's score seen from red's
//! side (the best's when the best was played; the winner once a captain is captured).
//!
//! One thread and a fixed number of nodes: the same game analysed again gives the same analysis.
//!
//! ```
//! use arbiter_duck::{Move, Position};
//! use arbiter_duck_learn::analysis::Analyser;
//!
//! let moves: Vec<Move> = ["e4e5", "e7e6", "e5e6"].iter().map(|m| m.parse().unwrap()).collect();
//! let analysis = Analyser::new(2_000).analyse(&Position::new(), &moves, |_, _| {}).unwrap();
//! assert_eq!(analysis.moves.len(), 3);
//! assert_eq!(analysis.moves[2].ply, 3);
//! assert!(analysis.red.accuracy.is_some());
//! ```

use arbiter_duck::{Color, Move, Position};
use serde::{Deserialize, Serialize};

use crate::accuracy::{self, LOSS_CAP, Weighed};
use crate::mark::Mark;
use crate::probe::{Line, Probe};
use crate::score::{RedScore, expected};

/// What the analysis says of one move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The side that played it.
    #[serde(with = "crate::wire::color")]
    pub mover: Color,
    /// The move played.
    #[serde(with = "crate::wire::command")]
    pub played: Move,
    /// The position after it, seen from red's side: the played move's score in the search of
    /// the position before.
    pub eval: RedScore,
    /// The engine's best move in the position before.
    #[serde(with = "crate::wire::command")]
    pub best: Move,
    /// The best move's score, from red's side.
    pub best_eval: RedScore,
    /// The engine's line from the position before, starting with `best`.
    #[serde(with = "crate::wire::commands")]
    pub line: Vec<Move>,
    /// The expected score the move lost its side against the best move, 0 to 1.
    pub drop: f64,
    /// The centipawns it lost against the best move (scores capped at ±1000).
    pub loss: i32,
    /// Its accuracy, 0 to 100.
    pub accuracy: f64,
    /// Its mark, if it lost enough for one.
    pub mark: Option<Mark>,
}

/// One side's account of the game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// The game accuracy, 0 to 100; `None` when the side did not move.
    pub accuracy: Option<f64>,
    /// The average loss in centipawns; `None` when the side did not move.
    pub average_loss: Option<f64>,
    /// Its moves marked `?!`.
    pub inaccuracies: usize,
    /// Its moves marked `?`.
    pub mistakes: usize,
    /// Its moves marked `??`.
    pub blunders: usize,
}

/// A game analysed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The nodes searched per question.
    pub nodes: u64,
    /// Each move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// Red's account.
    pub red: SideSummary,
    /// Blue's account.
    pub blue: SideSummary,
}

impl Analysis {
    /// The account of `side`.
    pub fn side(&self, side: Color) -> &SideSummary {
        match side {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }
}

/// A move that cannot be analysed because it is not a move of its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({mv}) is not a valid move of its position")]
pub struct InvalidMove {
    /// The move's number, from 1.
    pub ply: usize,
    /// The move.
    pub mv: Move,
}

/// Analyses games with one engine.
#[derive(Debug)]
pub struct Analyser {
    probe: Probe,
}

impl Analyser {
    /// An analyser searching `nodes` nodes a question.
    pub fn new(nodes: u64) -> Analyser {
        Analyser { probe: Probe::new(nodes) }
    }

    /// An analyser asking `probe`'s engine.
    pub fn with_probe(probe: Probe) -> Analyser {
        Analyser { probe }
    }

    /// Analyses the game of `moves` from `start`, calling `progress(done, total)` after each
    /// move. Stops at the first move that is not valid. A probe stopped by its flag gives an
    /// analysis of the moves reached.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Analysis, InvalidMove> {
        self.probe.new_game();
        let mut position = start.clone();
        let mut analysed = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            let ply = index + 1;
            if !position.is_legal(mv) {
                return Err(InvalidMove { ply, mv });
            }
            if self.probe.stopped() {
                break;
            }
            analysed.push(self.analyse_move(&position, mv, ply));
            let _ = position.make(mv);
            progress(ply, moves.len());
        }
        Ok(summarise(self.probe.nodes(), analysed))
    }

    /// One move, played in `position`.
    fn analyse_move(&mut self, position: &Position, mv: Move, ply: usize) -> MoveAnalysis {
        let mover = position.turn();
        // A valid move exists, so the search finds a best one; the fallback only keeps the
        // analysis whole.
        let best = self.probe.best(position).unwrap_or(Line {
            pv: vec![mv],
            score: arbiter_duck_engine::value::Score::Centipawns(0),
            depth: 0,
        });
        let mut after = position.clone();
        let _ = after.make(mv);
        let played = if after.is_over() {
            arbiter_duck_engine::value::Score::Mate(1)
        } else if mv == best.first() {
            best.score
        } else {
            self.probe.line_of(position, mv, best.depth).map_or(best.score, |line| line.score)
        };
        let (before_expected, after_expected) = (expected(best.score), expected(played));
        let drop = (before_expected - after_expected).max(0.0);
        let (best_eval, mut eval) =
            (RedScore::new(best.score, mover), RedScore::new(played, mover));
        if let Some(winner) = after.winner() {
            eval = RedScore::Won(winner);
        }
        let capped = |score: RedScore| RedScore::capped(score, LOSS_CAP) * sign(mover);
        MoveAnalysis {
            ply,
            mover,
            played: mv,
            eval,
            best: best.first(),
            best_eval,
            line: best.pv,
            drop,
            loss: accuracy::loss(capped(best_eval), capped(eval)),
            accuracy: accuracy::move_accuracy(before_expected * 100.0, after_expected * 100.0),
            mark: Mark::for_drop(drop),
        }
    }
}

/// +1 for red, −1 for blue.
fn sign(color: Color) -> i32 {
    if color == Color::Red { 1 } else { -1 }
}

/// The sides' accounts of the analysed moves.
pub fn summarise(nodes: u64, moves: Vec<MoveAnalysis>) -> Analysis {
    // Red's expected score in per cent at the start (its best move's) and after each move.
    let mut red = Vec::with_capacity(moves.len() + 1);
    if let Some(first) = moves.first() {
        red.push(first.best_eval.red_expected() * 100.0);
    }
    red.extend(moves.iter().map(|m| m.eval.red_expected() * 100.0));
    let weights = accuracy::weights(&red);
    let side = |color: Color| {
        let mine: Vec<(usize, &MoveAnalysis)> =
            moves.iter().enumerate().filter(|(_, m)| m.mover == color).collect();
        let weighed: Vec<Weighed> = mine
            .iter()
            .map(|&(i, m)| Weighed { accuracy: m.accuracy, weight: weights[i] })
            .collect();
        let losses: Vec<i32> = mine.iter().map(|(_, m)| m.loss).collect();
        let count = |mark| mine.iter().filter(|(_, m)| m.mark == Some(mark)).count();
        SideSummary {
            accuracy: accuracy::game_accuracy(&weighed),
            average_loss: accuracy::average_loss(&losses),
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
        }
    };
    let (red, blue) = (side(Color::Red), side(Color::Blue));
    Analysis { nodes, moves, red, blue }
}
