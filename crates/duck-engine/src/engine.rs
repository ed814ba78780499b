//! The engine as every front end drives it: the UCI loop (`uci`), the terminal
//! (`arbiter duck bestmove` and `play`) and the web app. It holds the position to
//! search and the [`Searcher`] with its options; [`Engine::go`] searches within [`Limits`],
//! reports each iteration to a callback, and answers with a [`SearchResult`]. To stop a search
//! from another thread, raise the [`StopFlag`] given to `go`.
//!
//! Data flows one way: a front end reads its own commands into a position and limits, the engine
//! searches, and the reports come back through the callback for the front end to write in its
//! own form.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::engine::Engine;
//! use arbiter_duck_engine::search::{Limits, StopFlag};
//! use arbiter_duck_engine::value::Score;
//!
//! // Blue's captain on e10 stands on the file of red's car on e2: take it.
//! let mut engine = Engine::new(16);
//! engine.set_position("4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse::<Position>().unwrap());
//! let mut depths = Vec::new();
//! let result = engine.go(&Limits::depth(2), &StopFlag::new(), |info| depths.push(info.depth));
//! assert_eq!(result.best.unwrap().uci().to_string(), "e2e10");
//! assert_eq!(result.score, Score::Mate(1));
//! assert_eq!(depths, [1, 2]);
//! ```

use std::time::Duration;

use arbiter_duck::Position;

use crate::eval::Evaluation;
use crate::search::{Features, Limits, SearchInfo, SearchResult, Searcher, StopFlag};

/// A position to search and a searcher with its options, kept from one search to the next.
#[derive(Debug)]
pub struct Engine {
    searcher: Searcher,
    position: Position,
}

impl Engine {
    /// The default size of the transposition table, in MiB.
    pub const DEFAULT_HASH: usize = Searcher::DEFAULT_HASH;

    /// The most search threads.
    pub const MAX_THREADS: usize = Searcher::MAX_THREADS;

    /// The most lines searched at once (MultiPV).
    pub const MAX_MULTIPV: usize = Searcher::MAX_MULTIPV;

    /// An engine with a transposition table of `hash_mb` MiB, on one thread, at the start
    /// position.
    pub fn new(hash_mb: usize) -> Engine {
        Engine { searcher: Searcher::new(hash_mb), position: Position::new() }
    }

    /// Resizes the transposition table (which empties it); returns the size in use, in MiB,
    /// smaller than asked when memory does not allow that much.
    pub fn set_hash(&mut self, hash_mb: usize) -> usize {
        self.searcher.set_hash(hash_mb)
    }

    /// The size of the transposition table in use, in MiB (smaller than asked when memory did
    /// not allow that much).
    pub fn hash(&self) -> usize {
        self.searcher.hash()
    }

    /// Searches on `threads` threads (clamped to 1..=[`MAX_THREADS`](Engine::MAX_THREADS)).
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.searcher.threads()
    }

    /// Searches and reports the best `lines` moves (MultiPV, clamped to
    /// 1..=[`MAX_MULTIPV`](Engine::MAX_MULTIPV)); 1 by default.
    pub fn set_multipv(&mut self, lines: usize) {
        self.searcher.set_multipv(lines);
    }

    /// The number of lines searched and reported (MultiPV).
    pub fn multipv(&self) -> usize {
        self.searcher.multipv()
    }

    /// The time kept per move for communication when playing on a clock.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.searcher.set_move_overhead(overhead);
    }

    /// Switches parts of the search on or off (all are on by default).
    pub fn set_features(&mut self, features: Features) {
        self.searcher.set_features(features);
    }

    /// Evaluates positions with `evaluation` from the next search on (the built-in network by
    /// default); empties the transposition table, which holds the other evaluation's values.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.searcher.set_evaluation(evaluation);
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> &Evaluation {
        self.searcher.evaluation()
    }

    /// Forgets everything learnt in earlier searches: the next position belongs to another game.
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The position the next [`go`](Engine::go) searches.
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
    }

    /// The position to search.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Searches the position within `limits` or until `stop` is raised (from any thread),
    /// calling `on_info` after each iteration, and answers with the best move found.
    pub fn go(
        &mut self,
        limits: &Limits,
        stop: &StopFlag,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.searcher.search(&self.position, limits, stop, on_info)
    }
}
