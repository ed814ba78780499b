//! The [`Store`] in SQLite: one file, `arbiter.sqlite3`, in the data directory, its schema brought
//! up to date at every start by the migrations in `crates/live/migrations/sqlite/`. The database
//! runs in WAL mode with `synchronous = FULL`: a save returns only once its transaction is on
//! disk, so a killed server (or a power cut) loses no change that was answered.
//!
//! One server at a time serves a data directory: the store holds the directory's [lock](lock)
//! while it is open, and a second one is refused with the holder's process id and start time.
//! Nor does a server start on a file it cannot use: before serving, the store reads every page
//! (`PRAGMA quick_check`) and makes one real write, so that a damaged or read-only database is
//! refused at the start with what to do, not answered with a server error at every move.

pub mod backup;
mod group;
mod lock;

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};

pub use self::lock::{DirLock, LOCK};
use crate::clock::TimeControl;
use crate::game::{End, LiveGame, Played};
use crate::seat::{GameId, Token};
use crate::store::{Filter, Page, Store, StoreError, Summary, game_id, int, seat, seat_name, uint};

/// The database's file name in the data directory.
pub const FILE: &str = "arbiter.sqlite3";

/// The database header's application id, "ARBI": says what the file is (`file(1)` shows it),
/// and is written at every start as the store's write check.
pub const APPLICATION_ID: i32 = 0x4152_4249;

/// The schema's migrations, oldest first; each runs once, in a transaction of its own.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../migrations/sqlite/01-games/up.sql")),
        M::up(include_str!("../migrations/sqlite/02-clocks/up.sql")),
        M::up(include_str!("../migrations/sqlite/03-rematch/up.sql")),
        M::up(include_str!("../migrations/sqlite/04-accounts/up.sql")),
        M::up(include_str!("../migrations/sqlite/05-learn/up.sql")),
    ])
}

/// The games in one SQLite database, through one connection: SQLite has one writer at a time
/// anyway, and a save holds the connection only while it writes.
pub struct SqliteStore {
    connection: Mutex<Connection>,
    /// The saves waiting to be committed together.
    group: group::Group,
    /// The data directory's lock, let go only after the connection is closed.
    _lock: Option<DirLock>,
}

impl SqliteStore {
    /// The store in `dir` (created with its parents if missing), its schema brought up to date,
    /// held for as long as it is open. Refused if another server holds `dir`, or if the database
    /// cannot be read whole or written.
    pub fn open(dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|error| StoreError::Unusable(dir.to_owned(), error.to_string()))?;
        // Before the database is opened: a second server must not even migrate it.
        let lock = DirLock::take(dir)?;
        let path = dir.join(FILE);
        let unusable = |reason: String| StoreError::Unusable(path.clone(), reason);
        let connection = Connection::open(&path)
            .map_err(|error| unusable(format!("cannot be opened ({error})")))?;
        check(&connection).map_err(unusable)?;
        let mut store = SqliteStore::with(connection)?;
        store._lock = Some(lock);
        Ok(store)
    }

    /// A store in memory, gone with it: for tests and for a server started without a data
    /// directory.
    pub fn memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::with(Connection::open_in_memory()?)
    }

    fn with(mut connection: Connection) -> Result<SqliteStore, StoreError> {
        // Another server on the same file may be writing: wait for it rather than fail.
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL lets the archive be read while a move is written; FULL syncs every commit.
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        migrations().to_latest(&mut connection).map_err(|error| match error {
            rusqlite_migration::Error::MigrationDefinition(
                rusqlite_migration::MigrationDefinitionError::DatabaseTooFarAhead,
            ) => StoreError::Newer,
            other => other.into(),
        })?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
            group: group::Group::default(),
            _lock: None,
        })
    }

    /// The connection, taken even if a thread panicked holding it: each save is one
    /// transaction, rolled back if it was not committed.
    pub fn connection(&self) -> MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Refuses a database that cannot be used, saying why and what to do: one that does not read
/// whole (a damaged page, a file that is no SQLite database), one of another program, one that
/// cannot be written (a read-only file, a full disk).
fn check(connection: &Connection) -> Result<(), String> {
    let restore = "stop every server and restore it from a backup (docs/deploy.md)";
    // Reads every page; stops at the first few problems.
    let mut problems = Vec::new();
    connection
        .pragma(None, "quick_check", 3, |row| {
            problems.push(row.get::<_, String>(0)?);
            Ok(())
        })
        .map_err(|error| format!("does not read as a SQLite database ({error}): {restore}"))?;
    if problems != ["ok"] {
        // One line: without SQLite's heading, its lines joined.
        let told: Vec<String> = problems
            .iter()
            .map(|problem| {
                let problem = problem.replace("*** in database main ***", "");
                problem.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .collect();
        return Err(format!("is damaged ({}): {restore}", told.join("; ")));
    }
    let id: i32 = connection
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .map_err(|error| format!("does not read ({error}): {restore}"))?;
    if id != 0 && id != APPLICATION_ID {
        return Err(format!("is another program's database (application id {id:#x})"));
    }
    // A committed write to the header: the file, its journal and the disk all take writes.
    connection.pragma_update(None, "application_id", APPLICATION_ID).map_err(|error| {
        format!(
            "cannot be written ({error}): make it and its directory writable by the server's \
             user, with room on the disk"
        )
    })
}

impl Store for SqliteStore {
    fn save(&self, game: &LiveGame) -> Result<(), StoreError> {
        self.group.save(game, || self.connection(), write)
    }

    fn load(&self, id: &GameId, now: u64) -> Result<Option<LiveGame>, StoreError> {
        type Row = (String, String, Option<String>, Option<String>, Option<i64>, Option<i64>);
        type State = (Option<String>, Option<String>, Option<String>, Option<String>, i64, i64);
        type Clocks = (Option<i64>, Option<i64>);
        let connection = self.connection();
        let found: Option<(Row, State, Clocks)> = connection
            .query_row(
                "SELECT red_token, blue_token, red_name, blue_name, initial_ms, increment_ms,
                        winner, reason, draw_offer, takeback, version, created_at, red_ms, blue_ms
                 FROM games WHERE id = ?1",
                [id.as_str()],
                |r| {
                    Ok((
                        (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?),
                        (r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?, r.get(11)?),
                        (r.get(12)?, r.get(13)?),
                    ))
                },
            )
            .optional()?;
        let Some((row, state, clocks)) = found else { return Ok(None) };
        let clocks = match clocks {
            (Some(red), Some(blue)) => Some((uint(red), uint(blue))),
            _ => None,
        };
        let (red_token, blue_token, red_name, blue_name, initial_ms, increment_ms) = row;
        let (winner, reason, draw_offer, takeback, version, created_at) = state;
        let key = id.as_str();
        let time = match (initial_ms, increment_ms) {
            (Some(initial), Some(increment)) => {
                Some(TimeControl { initial_ms: uint(initial), increment_ms: uint(increment) })
            }
            _ => None,
        };
        let end = match reason {
            Some(reason) => {
                Some(End::from_stored(seat(key, winner)?, &reason).ok_or_else(|| {
                    StoreError::Corrupt(key.to_owned(), format!("reason {reason}"))
                })?)
            }
            None => None,
        };
        let mut statement = connection.prepare_cached(
            "SELECT command, took_ms, played_at, red_ms, blue_ms FROM moves
             WHERE game_id = ?1 ORDER BY ply",
        )?;
        let moves = statement
            .query_map([key], |r| {
                let clocks = match (r.get::<_, Option<i64>>(3)?, r.get::<_, Option<i64>>(4)?) {
                    (Some(red), Some(blue)) => Some((uint(red), uint(blue))),
                    _ => None,
                };
                Ok(Played {
                    command: r.get(0)?,
                    took_ms: uint(r.get(1)?),
                    at: uint(r.get(2)?),
                    clocks,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut game = LiveGame::restore(
            id.clone(),
            [Token::from_stored(red_token), Token::from_stored(blue_token)],
            [red_name, blue_name],
            time,
            (moves, clocks),
            (seat(key, draw_offer)?, seat(key, takeback)?),
            end,
            uint(created_at),
            uint(version),
            now,
        )
        .map_err(|refusal| StoreError::Corrupt(key.to_owned(), refusal.to_string()))?;
        let (offer, rematch): (Option<String>, Option<String>) = connection.query_row(
            "SELECT rematch_offer, rematch FROM games WHERE id = ?1",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        game.rematch_offer = seat(key, offer)?;
        game.rematch = game_id(key, rematch)?;
        game.pairing = crate::accounts::commit::sqlite::pairing(&connection, id)?;
        Ok(Some(game))
    }

    fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError> {
        let status = filter.status.as_deref().filter(|s| matches!(*s, "ongoing" | "over"));
        // LIKE's own wildcards in a name are matched as themselves.
        let player = filter.player.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(|p| {
            let escaped = p.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            format!("%{escaped}%")
        });
        let condition =
            "(?1 IS NULL OR status = ?1) AND (?2 IS NULL OR red_name LIKE ?2 ESCAPE '\\'
                          OR blue_name LIKE ?2 ESCAPE '\\')";
        let connection = self.connection();
        let total: i64 = connection.query_row(
            &format!("SELECT COUNT(*) FROM games WHERE {condition}"),
            params![status, player],
            |r| r.get(0),
        )?;
        let mut statement = connection.prepare_cached(&format!(
            "SELECT id, red_name, blue_name, status, winner, reason, plies, initial_ms,
                    increment_ms, created_at
             FROM games WHERE {condition} ORDER BY created_at DESC, id LIMIT ?3 OFFSET ?4"
        ))?;
        let games = statement
            .query_map(params![status, player, int(page.limit), int(page.offset)], |r| {
                let time = match (r.get::<_, Option<i64>>(7)?, r.get::<_, Option<i64>>(8)?) {
                    (Some(initial), Some(increment)) => Some(
                        TimeControl { initial_ms: uint(initial), increment_ms: uint(increment) }
                            .to_string(),
                    ),
                    _ => None,
                };
                Ok(Summary {
                    id: r.get(0)?,
                    red: r.get(1)?,
                    blue: r.get(2)?,
                    status: r.get(3)?,
                    winner: r.get(4)?,
                    reason: r.get(5)?,
                    moves: uint(r.get(6)?),
                    time,
                    created_at: uint(r.get(9)?),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok((games, uint(total)))
    }

    fn version(&self, id: &GameId) -> Result<Option<u64>, StoreError> {
        let version: Option<i64> = self
            .connection()
            .query_row("SELECT version FROM games WHERE id = ?1", [id.as_str()], |r| r.get(0))
            .optional()?;
        Ok(version.map(uint))
    }
}

/// Writes `game` (its row, its moves past those stored, what the accounts keep of it) in the
/// transaction or savepoint `connection` is in. [`StoreError::Stale`] if the stored game is not
/// at the version before.
fn write(connection: &Connection, game: &LiveGame) -> Result<(), StoreError> {
    let (status, winner, reason) = match game.end {
        Some(end) => ("over", seat_name(end.winner), Some(end.reason)),
        None => ("ongoing", None, None),
    };
    let written = connection
        .prepare_cached(
            "INSERT INTO games (id, red_token, blue_token, red_name, blue_name, initial_ms,
                 increment_ms, status, winner, reason, draw_offer, takeback, plies, version,
                 created_at, updated_at, red_ms, blue_ms, rematch_offer, rematch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19, ?20)
             ON CONFLICT (id) DO UPDATE SET red_name = ?4, blue_name = ?5, status = ?8,
                 winner = ?9, reason = ?10, draw_offer = ?11, takeback = ?12, plies = ?13,
                 version = ?14, updated_at = ?16, red_ms = ?17, blue_ms = ?18,
                 rematch_offer = ?19, rematch = ?20
             WHERE games.version = ?14 - 1",
        )?
        .execute(params![
            game.id.as_str(),
            game.tokens[0].reveal(),
            game.tokens[1].reveal(),
            game.names[0],
            game.names[1],
            game.time.map(|t| int(t.initial_ms)),
            game.time.map(|t| int(t.increment_ms)),
            status,
            winner,
            reason,
            seat_name(game.draw_offer),
            seat_name(game.takeback),
            int(game.moves.len() as u64),
            int(game.version),
            int(game.created_at),
            int(game.turn_since),
            game.clocks.map(|c| int(c.red_ms)),
            game.clocks.map(|c| int(c.blue_ms)),
            seat_name(game.rematch_offer),
            game.rematch.as_ref().map(GameId::as_str),
        ])?;
    if written == 0 {
        // The savepoint is rolled back as it is dropped.
        return Err(StoreError::Stale(game.id.as_str().to_owned()));
    }
    let plies = int(game.moves.len() as u64);
    connection
        .prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
        .execute(params![game.id.as_str(), plies])?;
    // The moves stored are plies 0, 1, ... with none missing: their number is the last one's ply
    // and one, found by one seek of the key, not a count of them all.
    let stored: i64 = connection
        .prepare_cached("SELECT ply + 1 FROM moves WHERE game_id = ?1 ORDER BY ply DESC LIMIT 1")?
        .query_row([game.id.as_str()], |row| row.get(0))
        .optional()?
        .unwrap_or(0);
    {
        let mut insert = connection.prepare_cached(
            "INSERT INTO moves (game_id, ply, command, took_ms, played_at, red_ms, blue_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (ply, played) in game.moves.iter().enumerate().skip(uint(stored) as usize) {
            insert.execute(params![
                game.id.as_str(),
                int(ply as u64),
                played.command,
                int(played.took_ms),
                int(played.at),
                played.clocks.map(|c| int(c.0)),
                played.clocks.map(|c| int(c.1)),
            ])?;
        }
    }
    crate::accounts::commit::sqlite::saved(connection, game)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid_and_run_from_an_empty_database() {
        migrations().validate().unwrap();
        let mut connection = Connection::open_in_memory().unwrap();
        migrations().to_latest(&mut connection).unwrap();
        let tables: i64 = connection
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'moves')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 2);
    }

    #[test]
    fn a_database_of_the_first_schema_is_brought_up_to_date_with_its_games() {
        let mut connection = Connection::open_in_memory().unwrap();
        Migrations::new(vec![M::up(include_str!("../migrations/sqlite/01-games/up.sql"))])
            .to_latest(&mut connection)
            .unwrap();
        connection
            .execute(
                "INSERT INTO games (id, red_token, blue_token, red_name, status, version,
                     created_at, updated_at)
                 VALUES ('abcdefghij', 'r', 'b', 'Ann', 'ongoing', 1, 5, 5)",
                [],
            )
            .unwrap();
        let store = SqliteStore::with(connection).unwrap();
        let game = store.load(&GameId::parse("abcdefghij").unwrap(), 10).unwrap().unwrap();
        assert_eq!(game.names[0].as_deref(), Some("Ann"));
        assert!(game.clocks.is_none());
    }
}
