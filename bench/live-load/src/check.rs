//! The check at the end: the server's database, read directly, holds every acknowledged move
//! exactly once, in order, and nothing else.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::LoadError;
use crate::play::Record;

/// The database's file name in the server's data directory.
const FILE: &str = "arbiter.sqlite3";

/// What the database holds against what the server acknowledged.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Check {
    /// Moves stored, over all the games played.
    pub stored: u64,
    /// Acknowledged moves missing, or stored as another command.
    pub lost: u64,
    /// Moves stored that were not acknowledged (a duplicate among them), but for the one move
    /// of a game whose answer never came.
    pub extra: u64,
    /// Moves sent whose answer never came, and which are stored.
    pub unanswered_stored: u64,
    /// Games whose row disagrees with their moves (its ply count), or missing.
    pub bad_rows: u64,
    /// Games and moves in the database that no game of the load made.
    pub strangers: u64,
}

impl Check {
    /// Whether every acknowledged move is stored once, in order, and nothing else is.
    pub fn passed(&self) -> bool {
        self.lost == 0 && self.extra == 0 && self.bad_rows == 0 && self.strangers == 0
    }
}

/// Reads the database in `data_dir` (read-only) and holds it against `records`.
pub fn check(data_dir: &Path, records: &[Record]) -> Result<Check, LoadError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(data_dir.join(FILE), flags)?;
    let mut check = Check::default();
    let mut moves =
        connection.prepare("SELECT ply, command FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let mut row = connection.prepare("SELECT plies FROM games WHERE id = ?1")?;
    for record in records {
        let stored = moves
            .query_map([&record.id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        check.stored += stored.len() as u64;
        // The moves in order, each at its ply: a gap or a repeat shows as a difference.
        let in_order = stored
            .iter()
            .enumerate()
            .take_while(|(index, (ply, _))| usize::try_from(*ply).ok() == Some(*index))
            .count();
        let same = record
            .acknowledged
            .iter()
            .zip(&stored[..in_order])
            .take_while(|(acknowledged, (_, command))| *acknowledged == command)
            .count();
        check.lost += (record.acknowledged.len() - same) as u64;
        let mut beyond = stored.len() - same;
        let whole = same == record.acknowledged.len();
        if whole
            && beyond == 1
            && in_order == stored.len()
            && record.unanswered.as_deref() == Some(stored[same].1.as_str())
        {
            check.unanswered_stored += 1;
            beyond = 0;
        }
        check.extra += beyond as u64;
        let plies: Option<i64> =
            row.query_row([&record.id], |r| r.get(0)).map(Some).or_else(|error| match error {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                other => Err(other),
            })?;
        if plies != i64::try_from(stored.len()).ok() {
            check.bad_rows += 1;
        }
    }
    let games: i64 = connection.query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))?;
    let all_moves: i64 = connection.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0))?;
    let strangers = |count: i64, ours: u64| u64::try_from(count).unwrap_or(0).saturating_sub(ours);
    check.strangers = strangers(games, records.len() as u64) + strangers(all_moves, check.stored);
    Ok(check)
}
