//! What is kept of the games, and the [`Store`] that keeps it. A store commits each change of a
//! game whole (the game's row and its moves together) before it returns: the caller acknowledges
//! a move only after that.

use serde::Serialize;

use crate::game::LiveGame;
use crate::seat::GameId;

/// Why the store failed. The caller answers it as a server error; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("database migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A stored game does not read back (edited by hand, or from a newer arbiter).
    #[error("stored game {0} is corrupt: {1}")]
    Corrupt(String, String),
    /// The data directory cannot be made.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Which games a listing shows.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `ongoing`, `over`, or either.
    pub status: Option<String>,
    /// Part of a player's name (case-insensitive).
    pub player: Option<String>,
}

/// Which page of a listing: the newest games first.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    /// Games skipped.
    pub offset: u64,
    /// Games shown.
    pub limit: u64,
}

/// A game in a listing.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The id.
    pub id: String,
    /// Red's name, once the seat is taken.
    pub red: Option<String>,
    /// Blue's name.
    pub blue: Option<String>,
    /// `ongoing` or `over`.
    pub status: String,
    /// `red`, `blue` or `null`.
    pub winner: Option<String>,
    /// The end's reason code, once over.
    pub reason: Option<String>,
    /// Moves played.
    pub moves: u64,
    /// The time control, or `null`.
    pub time: Option<String>,
    /// When it was created (ms since the epoch).
    pub created_at: u64,
}

/// Where the games are kept.
pub trait Store: Send + 'static {
    /// Commits `game` as it now stands: its row, and its moves (those past the ones stored are
    /// added, those taken back removed). Returns once the change is durable.
    fn save(&mut self, game: &LiveGame) -> Result<(), StoreError>;

    /// The game `id` as last saved, its turn restarting at `now`.
    fn load(&mut self, id: &GameId, now: u64) -> Result<Option<LiveGame>, StoreError>;

    /// One page of the games matching `filter`, newest first, and how many match in all.
    fn list(&mut self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError>;
}
