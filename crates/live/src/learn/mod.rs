//! What the server keeps for learning from the engine, beside the games in the same store
//! (migration `05-learn`): the analyses asked for, from the queue to their result, and the
//! puzzles' and signed-in players' puzzle ratings with each player's history.
//!
//! An analysis is queued once per thing analysed (its `key`: `game:ID` or `import:HASH`);
//! asking again answers the one already there. Workers [claim](LearnStore::claim_analysis) the
//! oldest queued analysis, which marks it running; one that a server stopped in the middle of
//! is queued again when a server starts ([`LearnStore::requeue_analyses`]), so a restart loses
//! no request. The store keeps the result as the JSON text the server made: it knows nothing of
//! the engine.
//!
//! A signed-in player's first attempt at a puzzle rates both, in one transaction, by Glicko-2
//! ([`arbiter_rating`]): the attempt is a game the player wins by solving the puzzle.
//!
//! ```
//! use arbiter_live::SqliteStore;
//! use arbiter_live::learn::{AnalysisRequest, AnalysisState, LearnStore};
//!
//! let store = SqliteStore::memory().unwrap();
//! let request = AnalysisRequest {
//!     key: "import:1".into(),
//!     game_id: None,
//!     fen: None,
//!     commands: vec!["3 4 4 4".into()],
//!     nodes: 1000,
//! };
//! let queued = store.request_analysis(&request, "a1", 5).unwrap();
//! assert_eq!(queued.state, AnalysisState::Queued);
//! // The same request again: the same analysis.
//! assert_eq!(store.request_analysis(&request, "a2", 6).unwrap().id, "a1");
//! let claimed = store.claim_analysis(7).unwrap().unwrap();
//! assert_eq!(claimed.state, AnalysisState::Running);
//! store.finish_analysis("a1", Ok("{}"), 8).unwrap();
//! assert_eq!(store.analysis("a1").unwrap().unwrap().result.as_deref(), Some("{}"));
//! ```

pub mod postgres;
pub mod sqlite;

use arbiter_rating::{Glicko2, Rating, Score};
use serde::Serialize;

use crate::pairing::UserId;
use crate::store::StoreError;

/// Where an analysis stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisState {
    /// Waiting for a worker.
    Queued,
    /// A worker is searching it.
    Running,
    /// Its result is kept.
    Done,
    /// It could not be made (its reason is kept).
    Failed,
}

impl AnalysisState {
    /// The state as stored.
    pub const fn name(self) -> &'static str {
        match self {
            AnalysisState::Queued => "queued",
            AnalysisState::Running => "running",
            AnalysisState::Done => "done",
            AnalysisState::Failed => "failed",
        }
    }

    /// The state of a stored name.
    pub fn parse(text: &str) -> Option<AnalysisState> {
        [AnalysisState::Queued, AnalysisState::Running, AnalysisState::Done, AnalysisState::Failed]
            .into_iter()
            .find(|state| state.name() == text)
    }
}

/// What to analyse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisRequest {
    /// What is analysed, the same for the same request: `game:ID` or `import:HASH`.
    pub key: String,
    /// The live game analysed, if it is one.
    pub game_id: Option<String>,
    /// The position the game starts from; `None` for the official start.
    pub fen: Option<String>,
    /// The official commands.
    pub commands: Vec<String>,
    /// Nodes searched per position.
    pub nodes: u64,
}

/// An analysis as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// Its id.
    pub id: String,
    /// What was asked.
    pub request: AnalysisRequest,
    /// Where it stands.
    pub state: AnalysisState,
    /// The analysis as the server wrote it (JSON), once done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was asked for.
    pub created_at: u64,
    /// When a worker took it.
    pub started_at: Option<u64>,
    /// When it was done or failed.
    pub finished_at: Option<u64>,
}

/// A puzzle rating, or a player's puzzle rating, with its counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PuzzleRated {
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// Attempts rated.
    pub attempts: u64,
    /// Of those, solved.
    pub solved: u64,
}

/// A point of a player's puzzle rating history: after an attempt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzlePoint {
    /// The puzzle.
    pub puzzle_id: String,
    /// When.
    pub at: u64,
    /// Whether it was solved.
    pub solved: bool,
    /// The player's rating after it.
    pub rating: f64,
    /// The rating's deviation after it.
    pub deviation: f64,
}

/// What a rated attempt changed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Attempted {
    /// Whether it was rated: a player's first attempt at the puzzle is, later ones are not.
    pub rated: bool,
    /// The player's rating after it.
    pub player: PuzzleRated,
    /// The puzzle's rating after it.
    pub puzzle: PuzzleRated,
}

/// The deviation a puzzle starts with: its first rating is an estimate from the search, surer
/// than a newcomer's 350.
pub const PUZZLE_DEVIATION: f64 = 200.0;

/// A puzzle's first rating, from its estimated `rating`.
pub fn puzzle_start(rating: f64) -> Rating {
    Rating { rating, deviation: PUZZLE_DEVIATION, volatility: Rating::START.volatility }
}

/// The ratings after an attempt: the player won if it solved the puzzle.
pub fn rate_attempt(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let score = if solved { Score::Win } else { Score::Loss };
    Glicko2::ARBITER.game(player, puzzle, score)
}

/// A finished live game, for the opening explorer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Its id.
    pub id: String,
    /// `red`, `blue`, or `None` for a draw.
    pub winner: Option<String>,
    /// Its commands, in order.
    pub commands: Vec<String>,
    /// When it last changed (ms since the epoch): with the id, where the next listing goes on.
    pub updated_at: u64,
}

/// The learning side of a store.
pub trait LearnStore {
    /// Up to `limit` finished games changed after `after` (a time and an id, `(0, "")` for all),
    /// in the order of that pair: what the opening explorer reads as games end.
    fn finished_since(&self, after: (u64, &str), limit: u64) -> Result<Vec<Finished>, StoreError>;

    /// Queues `request` as analysis `id` at `now`, or answers the analysis of the same key
    /// already kept.
    fn request_analysis(
        &self,
        request: &AnalysisRequest,
        id: &str,
        now: u64,
    ) -> Result<StoredAnalysis, StoreError>;

    /// The analysis `id`.
    fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError>;

    /// The analysis of key `key`.
    fn analysis_by_key(&self, key: &str) -> Result<Option<StoredAnalysis>, StoreError>;

    /// Takes the oldest queued analysis and marks it running since `now`.
    fn claim_analysis(&self, now: u64) -> Result<Option<StoredAnalysis>, StoreError>;

    /// Keeps the result of analysis `id` (its JSON), or why it failed.
    fn finish_analysis(
        &self,
        id: &str,
        outcome: Result<&str, &str>,
        now: u64,
    ) -> Result<(), StoreError>;

    /// Queues again the analyses running since before `started_before` (their server stopped);
    /// returns how many.
    fn requeue_analyses(&self, started_before: u64) -> Result<u64, StoreError>;

    /// How many analyses are queued, and how many of them were asked before `created_at`
    /// (the place in the queue of an analysis asked at `created_at`).
    fn queue_length(&self, created_at: u64) -> Result<(u64, u64), StoreError>;

    /// A puzzle's rating, once a signed-in player has tried it.
    fn puzzle_rating(&self, puzzle: &str) -> Result<Option<PuzzleRated>, StoreError>;

    /// A player's puzzle rating, once rated.
    fn player_puzzle_rating(&self, user: UserId) -> Result<Option<PuzzleRated>, StoreError>;

    /// A player's rated attempts, oldest first.
    fn puzzle_history(&self, user: UserId) -> Result<Vec<PuzzlePoint>, StoreError>;

    /// Rates `user`'s attempt at `puzzle` (whose first rating is `start`), in one transaction:
    /// the first attempt at a puzzle changes both ratings, a later one changes nothing.
    fn attempt_puzzle(
        &self,
        user: UserId,
        puzzle: &str,
        start: Rating,
        solved: bool,
        now: u64,
    ) -> Result<Attempted, StoreError>;
}

/// The commands as stored: a JSON array.
pub(crate) fn commands_text(commands: &[String]) -> String {
    serde_json::to_string(commands).unwrap_or_else(|_| "[]".to_owned())
}

/// The commands read back.
pub(crate) fn commands_of(id: &str, text: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(text)
        .map_err(|error| StoreError::Corrupt(id.to_owned(), format!("commands: {error}")))
}

/// A state read back.
pub(crate) fn state_of(id: &str, text: &str) -> Result<AnalysisState, StoreError> {
    AnalysisState::parse(text)
        .ok_or_else(|| StoreError::Corrupt(id.to_owned(), format!("analysis state {text}")))
}

/// What an attempt does to the counts.
pub(crate) fn counted(
    before: Option<PuzzleRated>,
    start: Rating,
    after: Rating,
    solved: bool,
) -> PuzzleRated {
    let before = before.unwrap_or(PuzzleRated { rating: start, attempts: 0, solved: 0 });
    PuzzleRated {
        rating: after,
        attempts: before.attempts + 1,
        solved: before.solved + u64::from(solved),
    }
}
