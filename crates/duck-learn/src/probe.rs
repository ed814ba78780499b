//! The searches analysis and puzzles ask of the engine, each at a fixed number of nodes on one
//! thread, so that the same questions in the same order get the same answers.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::value::Score;
//! use arbiter_duck_learn::probe::Probe;
//!
//! // Red's car on e2 takes the captain on e10: the only winning move.
//! let position: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
//! let mut probe = Probe::new(2_000);
//! let best = probe.best(&position).unwrap();
//! assert_eq!(best.pv[0].to_string(), "1 4 9 4");
//! assert_eq!(best.score, Score::Mate(1));
//! let second = probe.best_except(&position, &[best.pv[0]]).unwrap();
//! assert!(matches!(second.score, Score::Centipawns(_)));
//! ```

use arbiter_duck::{Move, Position};
use arbiter_duck_engine::engine::Engine;
use arbiter_duck_engine::search::{Limits, SearchInfo, StopFlag};
use arbiter_duck_engine::value::Score;

/// The transposition table of a probe's engine, in MiB.
pub const HASH_MB: usize = 16;

/// A line the search found: its moves (at least one) and its score for the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The moves, the first the one to play.
    pub pv: Vec<Move>,
    /// The score of the first move, from the side to move's view.
    pub score: Score,
    /// The depth the search completed.
    pub depth: u32,
}

impl Line {
    /// The move to play.
    pub fn first(&self) -> Move {
        self.pv[0]
    }
}

/// An engine that searches a fixed number of nodes a question.
#[derive(Debug)]
pub struct Probe {
    engine: Engine,
    nodes: u64,
    stop: StopFlag,
}

impl Probe {
    /// A probe searching `nodes` nodes a question, on one thread with a [`HASH_MB`] table.
    pub fn new(nodes: u64) -> Probe {
        Probe::with_stop(nodes, StopFlag::new())
    }

    /// A probe whose searches end early once `stop` is raised (their answers then count for
    /// nothing: the caller stops asking).
    pub fn with_stop(nodes: u64, stop: StopFlag) -> Probe {
        Probe { engine: Engine::new(HASH_MB), nodes: nodes.max(1), stop }
    }

    /// The nodes searched a question.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// Forgets what earlier searches learnt: the next question belongs to another game.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// The best line from `position`; `None` when the game is over or there is no move.
    pub fn best(&mut self, position: &Position) -> Option<Line> {
        self.search(position, Vec::new(), None, |_| {})
    }

    /// The best line from `position`, and the depth from which every iteration of the search
    /// preferred its first move (1 when the first iteration already did): how deep the move is
    /// hidden.
    pub fn best_and_depth_found(&mut self, position: &Position) -> Option<(Line, u32)> {
        let mut firsts = Vec::new();
        let line = self.search(position, Vec::new(), None, |info| {
            if let Some(&first) = info.pv.first() {
                firsts.push((info.depth, first));
            }
        })?;
        let found = firsts
            .iter()
            .rev()
            .take_while(|&&(_, first)| first == line.first())
            .last()
            .map_or(line.depth.max(1), |&(depth, _)| depth);
        Some((line, found))
    }

    /// The best line that starts with none of `excluded`; `None` when every move is excluded
    /// (or the game is over).
    pub fn best_except(&mut self, position: &Position, excluded: &[Move]) -> Option<Line> {
        let rest: Vec<Move> =
            position.moves().iter().copied().filter(|mv| !excluded.contains(mv)).collect();
        if rest.is_empty() {
            return None;
        }
        self.search(position, rest, None, |_| {})
    }

    /// The line that starts with `mv`, searched no deeper than `depth` (the depth the best
    /// move's search reached, so that the two compare alike); `None` when `mv` is not a move of
    /// the position.
    pub fn line_of(&mut self, position: &Position, mv: Move, depth: u32) -> Option<Line> {
        if !position.is_legal(mv) {
            return None;
        }
        self.search(position, vec![mv], Some(depth.max(1)), |_| {})
    }

    /// One search among `searchmoves` (all moves when empty).
    fn search(
        &mut self,
        position: &Position,
        searchmoves: Vec<Move>,
        depth: Option<u32>,
        on_info: impl FnMut(&SearchInfo),
    ) -> Option<Line> {
        if position.is_over() {
            return None;
        }
        self.engine.set_position(position.clone());
        let limits = Limits { nodes: Some(self.nodes), depth, searchmoves, ..Limits::default() };
        let result = self.engine.go(&limits, &self.stop, on_info);
        let best = result.best?;
        let pv = if result.pv.first() == Some(&best) { result.pv } else { vec![best] };
        Some(Line { pv, score: result.score, depth: result.depth })
    }
}
