//! Group commit: the saves that arrive while one is being written wait, and are then written
//! together, each in a savepoint of one transaction, made durable by one sync of the disk.
//!
//! With `synchronous = FULL` a commit waits for the disk, and on an ordinary disk that is a few
//! milliseconds: one commit per save would cap a server at a few hundred moves a second however
//! many cores it has, and every move would queue behind the others' syncs. Written together,
//! each save still returns only once it is durable, and still alone decides its own fate: a save
//! that fails (a stale copy, say) is rolled back to its savepoint and answered its error, and the
//! others are written.
//!
//! No thread is kept for it: the first save to find no batch being written writes the batch
//! (its own save and every one waiting), answers each, and returns; one of the saves that came
//! meanwhile then writes the next.

use std::panic::AssertUnwindSafe;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use rusqlite::Connection;

use crate::game::LiveGame;
use crate::store::StoreError;

/// The most saves written in one transaction: a bound on how long a batch holds the database.
const MOST: usize = 256;

/// Saves waiting to be written, and the answers of those written.
#[derive(Default)]
pub(super) struct Group {
    state: Mutex<State>,
    /// Woken when a batch is written: its saves have their answers, and the next may begin.
    written: Condvar,
}

#[derive(Default)]
struct State {
    /// The saves waiting, by ticket.
    waiting: Vec<(u64, LiveGame)>,
    /// Answers not yet taken, by ticket.
    answers: Vec<(u64, Result<(), StoreError>)>,
    /// Whether a batch is being written now.
    writing: bool,
    next_ticket: u64,
}

impl Group {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Saves `game` with the saves waiting beside it, by `write` (one save, inside the
    /// transaction it is given) on the `connection`; returns once it is durable, or its error.
    pub(super) fn save<'c>(
        &self,
        game: &LiveGame,
        connection: impl Fn() -> MutexGuard<'c, Connection>,
        write: impl Fn(&Connection, &LiveGame) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut state = self.state();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.waiting.push((ticket, game.clone()));
        loop {
            if let Some(at) = state.answers.iter().position(|(t, _)| *t == ticket) {
                return state.answers.swap_remove(at).1;
            }
            if state.writing {
                state = self.written.wait(state).unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            // This save writes the batch: its own save is in it, the oldest first.
            let take = state.waiting.len().min(MOST);
            let batch: Vec<(u64, LiveGame)> = state.waiting.drain(..take).collect();
            state.writing = true;
            drop(state);
            let written = std::panic::catch_unwind(AssertUnwindSafe(|| {
                write_batch(&mut connection(), &batch, &write)
            }));
            state = self.state();
            let tickets = batch.iter().map(|(ticket, _)| *ticket);
            match written {
                Ok(answers) => state.answers.extend(tickets.zip(answers)),
                Err(panic) => {
                    // The savers waiting are answered before the panic goes on: none waits
                    // for ever.
                    let failed =
                        || shared(&StoreError::Io(std::io::Error::other("a save panicked")));
                    let others = tickets.filter(|other| *other != ticket);
                    state.answers.extend(others.map(|other| (other, Err(failed()))));
                    state.writing = false;
                    self.written.notify_all();
                    drop(state);
                    std::panic::resume_unwind(panic);
                }
            }
            state.writing = false;
            self.written.notify_all();
        }
    }
}

/// Writes `batch` in one transaction, each save in a savepoint of its own; the answer of each.
fn write_batch(
    connection: &mut Connection,
    batch: &[(u64, LiveGame)],
    write: &impl Fn(&Connection, &LiveGame) -> Result<(), StoreError>,
) -> Vec<Result<(), StoreError>> {
    let everyone = |error: StoreError| batch.iter().map(|_| Err(shared(&error))).collect();
    let mut transaction = match connection.transaction() {
        Ok(transaction) => transaction,
        Err(error) => return everyone(error.into()),
    };
    let mut answers = Vec::with_capacity(batch.len());
    for (_, game) in batch {
        let answer = transaction.savepoint().map_err(StoreError::from).and_then(|point| {
            write(&point, game)?;
            point.commit()?;
            Ok(())
        });
        // A failed save's savepoint is rolled back as it is dropped.
        answers.push(answer);
    }
    match transaction.commit() {
        Ok(()) => answers,
        Err(error) => everyone(error.into()),
    }
}

/// `error` again, for each of the saves of a batch that failed as a whole (a commit that did
/// not reach the disk fails every save in it).
fn shared(error: &StoreError) -> StoreError {
    match error {
        StoreError::Database(rusqlite::Error::SqliteFailure(code, text)) => {
            StoreError::Database(rusqlite::Error::SqliteFailure(*code, text.clone()))
        }
        other => StoreError::Database(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        )),
    }
}
