//! The data directory's lock, `arbiter.lock`: held by the server that opened the store for as
//! long as the store is open, so that a second server on the same directory refuses to start
//! instead of serving games from a copy in memory the first one keeps changing. The file says
//! who holds it (process id and start time), for the message the second server prints; the
//! lock itself is the system's (`flock`), let go when the process ends however it ends.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

use crate::store::StoreError;

/// The lock file's name in the data directory.
pub const LOCK: &str = "arbiter.lock";

/// The lock on a data directory, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    // Held for its lock only.
    _file: File,
}

impl DirLock {
    /// Takes the lock of `dir`, or says who holds it.
    pub fn take(dir: &Path) -> Result<DirLock, StoreError> {
        let path = dir.join(LOCK);
        let unusable =
            |error: std::io::Error| StoreError::Unusable(path.clone(), format!("{error}"));
        // Not truncated on opening: the holder's line is read when the lock is refused.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(unusable)?;
        match try_lock(&file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // A holder that has not written its line yet is told as unknown.
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(StoreError::InUse(
                    dir.to_owned(),
                    if holder.is_empty() { "process unknown".into() } else { holder.to_owned() },
                ));
            }
            Err(TryLockError::Error(error)) => return Err(unusable(error)),
        }
        let started = httpdate::fmt_http_date(std::time::SystemTime::now());
        let line = format!("pid {}, started {started}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(line.as_bytes()))
            .map_err(unusable)?;
        Ok(DirLock { _file: file })
    }
}

/// Takes `file`'s lock, trying again a few times over 100 ms: a lock let go by this very process
/// may still be held for a moment by a child it is starting (between its fork and its exec, the
/// child shares the open file), and a server restarted in place must not be refused for it.
fn try_lock(file: &File) -> Result<(), TryLockError> {
    for _ in 0..5 {
        match file.try_lock() {
            Err(TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            other => return other,
        }
    }
    file.try_lock()
}
