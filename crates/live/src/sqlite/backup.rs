//! A consistent copy of a store, taken while its server runs (`arbiter serve backup`).
//!
//! The copy is made by SQLite's online backup, all pages in one step: one read transaction on
//! the store, so the copy is the store as of one commit (every move acknowledged before the
//! backup began is in it), and in WAL mode the server's writers are never held up by it. The
//! copy is written beside `OUT` under a temporary name, checked (`PRAGMA quick_check`), made a
//! single file (rollback journal, no WAL beside it), synced, and only then renamed to `OUT`: a
//! backup that fails, or is killed, never leaves a half-written `OUT`, nor replaces a good one.
//!
//! The data directory's lock is not taken: the running server holds it, and SQLite's own
//! locking keeps the reading safe.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::FILE;
use crate::store::StoreError;

/// How long the copy waits for a store busy otherwise (recovering after a crash, say).
const BUSY: Duration = Duration::from_secs(10);

/// What a backup copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// Games in the copy.
    pub games: u64,
    /// Moves in the copy.
    pub moves: u64,
    /// The copy's size in bytes.
    pub bytes: u64,
}

/// Copies the store in the data directory `dir` to the file `out` (replaced if it exists).
pub fn backup(dir: &Path, out: &Path) -> Result<Copied, StoreError> {
    let source = dir.join(FILE);
    if !source.is_file() {
        return Err(StoreError::Unusable(dir.to_owned(), format!("holds no store (no {FILE})")));
    }
    let refused = |reason: &str| StoreError::Unusable(out.to_owned(), reason.to_owned());
    if out.is_dir() {
        return Err(refused("is a directory: name the file to write"));
    }
    let name = out.file_name().ok_or_else(|| refused("names no file"))?;
    let parent = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    // The store's own files are never written over.
    let parent = parent.canonicalize().map_err(|error| refused(&error.to_string()))?;
    let store = dir.canonicalize()?;
    let written = parent.join(name);
    let ours = [FILE.to_owned(), format!("{FILE}-wal"), format!("{FILE}-shm"), super::LOCK.into()];
    if parent == store && ours.iter().any(|own| name == own.as_str()) {
        return Err(refused("is the store's own file: write the copy elsewhere"));
    }
    let partial =
        parent.join(format!(".{}.partial-{}", name.to_string_lossy(), std::process::id()));
    let copied = copy(&source, &partial).and_then(|copied| {
        std::fs::File::open(&partial)?.sync_all()?;
        std::fs::rename(&partial, &written)?;
        // The rename itself is made durable with the directory.
        std::fs::File::open(&parent)?.sync_all()?;
        Ok(copied)
    });
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    copied
}

/// Copies the database `source` into the new file `to`, checked and made a single file.
fn copy(source: &Path, to: &Path) -> Result<Copied, StoreError> {
    let _ = std::fs::remove_file(to);
    let from = Connection::open_with_flags(
        source,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    from.busy_timeout(BUSY)?;
    let mut copy = Connection::open(to)?;
    {
        let backup = Backup::new(&from, &mut copy)?;
        let deadline = std::time::Instant::now() + BUSY;
        // Every page in one step: one read transaction, one consistent state.
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked
                    if std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => {
                    return Err(StoreError::Unusable(
                        source.to_owned(),
                        format!("stayed busy for {} s: no copy made", BUSY.as_secs()),
                    ));
                }
            }
        }
    }
    drop(from);
    // One file, whole: no write-ahead log to carry beside it. The store puts WAL back on when
    // a server opens the copy.
    copy.pragma_update(None, "journal_mode", "DELETE")?;
    let problems: String = copy.pragma_query_value(None, "quick_check", |row| row.get(0))?;
    if problems != "ok" {
        return Err(StoreError::Unusable(
            source.to_owned(),
            format!("copy is damaged: {problems}"),
        ));
    }
    let count = |table: &str| -> Result<u64, StoreError> {
        let count: i64 =
            copy.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| row.get(0))?;
        Ok(crate::store::uint(count))
    };
    let (games, moves) = (count("games")?, count("moves")?);
    drop(copy);
    let bytes = std::fs::metadata(to)?.len();
    Ok(Copied { games, moves, bytes })
}
