//! What is kept of the games, and the [`Store`] that keeps it. A store commits each change of a
//! game whole (the game's row and its moves together) before it returns: the caller acknowledges
//! a move only after that. Each change carries the game's next version, and a store commits it
//! only over the version before: a change made from an out-of-date copy (another server changed
//! the game meanwhile) is refused as [`StoreError::Stale`], never written over the newer one.

use std::path::PathBuf;

use serde::Serialize;

use crate::game::LiveGame;
use crate::seat::{GameId, Seat};

/// Why the store failed. The caller answers it as a server error; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The PostgreSQL server refused or failed.
    #[error("PostgreSQL: {0}")]
    Postgres(String),
    /// The database cannot be reached now (restarting, say): nothing was acknowledged, and the
    /// store connects again by itself at the next request.
    #[error("the database cannot be reached now ({0})")]
    Unavailable(String),
    /// The game was changed elsewhere since the copy being saved was read: nothing was written.
    #[error("game {0} was changed meanwhile by another server")]
    Stale(String),
    /// The schema could not be brought up to date.
    #[error("database migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// The schema is newer than this arbiter's: a newer version migrated it.
    #[error(
        "the database's schema is newer than this arbiter's (a newer version upgraded it): run \
         that version, or restore the backup taken before the upgrade"
    )]
    Newer,
    /// A stored game does not read back (edited by hand, or from a newer arbiter).
    #[error("stored game {0} is corrupt: {1}")]
    Corrupt(String, String),
    /// The data directory cannot be made.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The database's address cannot be one.
    #[error("database address: {0}")]
    Address(String),
    /// Another server holds the data directory (the second field says which, as its lock file
    /// does): a store is served by one server at a time.
    #[error(
        "the data directory {dir} is in use by another arbiter server ({1}): stop that server \
         first, or give this one another data directory",
        dir = .0.display()
    )]
    InUse(PathBuf, String),
    /// The store's file cannot be used as it is (unreadable, read-only, damaged): the server
    /// does not start on it.
    #[error("{path}: {1}", path = .0.display())]
    Unusable(PathBuf, String),
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

/// Where the games are kept. A store is shared by every request: it serialises what must be (a
/// SQLite file has one writer) and lets the rest run at once (a PostgreSQL pool's connections).
pub trait Store: Send + Sync + 'static {
    /// Commits `game` as it now stands: its row, and its moves (those past the ones stored are
    /// added, those taken back removed). Returns once the change is durable. The stored game
    /// must be at the version before `game.version` (or absent, for version 1): else nothing is
    /// written and the answer is [`StoreError::Stale`].
    fn save(&self, game: &LiveGame) -> Result<(), StoreError>;

    /// The game `id` as last saved. A store of one server restarts its turn at `now` (the time
    /// the server was down is not charged); a [shared](Store::shared) one goes on from when the
    /// turn began, since another server may have been serving it all along.
    fn load(&self, id: &GameId, now: u64) -> Result<Option<LiveGame>, StoreError>;

    /// One page of the games matching `filter`, newest first, and how many match in all.
    fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError>;

    /// The version of the game `id` as last saved.
    fn version(&self, id: &GameId) -> Result<Option<u64>, StoreError>;

    /// Whether other servers may change the games too: then a game kept in memory is checked
    /// against the store's version before each use.
    fn shared(&self) -> bool {
        false
    }

    /// Whether the store answers now (a server's readiness check): by default, a read of the
    /// version of a game that does not exist.
    fn ready(&self) -> Result<(), StoreError> {
        let probe = GameId::parse("0000000000").expect("ten base-62 digits are a game id");
        self.version(&probe).map(|_| ())
    }
}

/// A store chosen at run time.
impl Store for Box<dyn Store> {
    fn save(&self, game: &LiveGame) -> Result<(), StoreError> {
        (**self).save(game)
    }

    fn load(&self, id: &GameId, now: u64) -> Result<Option<LiveGame>, StoreError> {
        (**self).load(id, now)
    }

    fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError> {
        (**self).list(filter, page)
    }

    fn version(&self, id: &GameId) -> Result<Option<u64>, StoreError> {
        (**self).version(id)
    }

    fn shared(&self) -> bool {
        (**self).shared()
    }

    fn ready(&self) -> Result<(), StoreError> {
        (**self).ready()
    }
}

/// A seat as both stores keep it: its name, or `NULL`.
pub(crate) fn seat_name(seat: Option<Seat>) -> Option<&'static str> {
    seat.map(Seat::name)
}

/// A seat read back, `Corrupt` if it is not one.
pub(crate) fn seat(id: &str, text: Option<String>) -> Result<Option<Seat>, StoreError> {
    text.map(|text| {
        Seat::parse(&text).ok_or_else(|| StoreError::Corrupt(id.to_owned(), format!("seat {text}")))
    })
    .transpose()
}

/// A game id read back, `Corrupt` if it is not one.
pub(crate) fn game_id(id: &str, text: Option<String>) -> Result<Option<GameId>, StoreError> {
    text.map(|text| {
        GameId::parse(&text)
            .ok_or_else(|| StoreError::Corrupt(id.to_owned(), format!("game id {text}")))
    })
    .transpose()
}

/// An integer column as stored (SQLite's integers and PostgreSQL's `BIGINT` are signed).
pub(crate) fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// An integer column read back; a negative one (edited by hand) reads as 0.
pub(crate) fn uint(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
