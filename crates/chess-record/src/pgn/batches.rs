//! Reading a PGN input on one thread while the games read before are handled (e.g. checked on
//! every core) a batch at a time: results in input order, as soon as the input gives them, in
//! bounded memory.
//!
//! A batch is what has been read and not yet handled, up to a size: when the input comes
//! slowly (a pipe), each game is handed on as soon as it is complete, and when it comes fast the
//! batches fill up, so the cores have work. The bytes held at once, in the game being read and
//! in the pieces waiting or being handled, stay within a few MiB, or the largest game when it is
//! larger (plus a chunk read): the reader waits for the handler while the handler holds pieces
//! and more reading would go past that.

use std::io::{self, Read};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::split::{Piece, Splitter};

/// A batch holds at most this many pieces...
const BATCH_PIECES: usize = 1024;

/// ... and at most this many bytes of games (or one game, when it is larger).
const BATCH_BYTES: usize = 1 << 20;

/// The most bytes held at once while the handler holds pieces, as the budget counts them: a
/// few batches, so that reading keeps ahead of the handler. Alone, a game may go past it, up to
/// the game size limit: memory is bounded by this plus the largest game, whatever the input.
const HELD: usize = 4 << 20;

/// What a piece costs besides its bytes, as the budget counts it (so that a stream of tiny
/// pieces is bounded too).
const PIECE_COST: usize = 256;

/// The most read at a time, as the budget counts it (the splitter reads at most this much).
const READ_COST: usize = 256 << 10;

/// Why reading stopped early.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input could not be read on: the line reached and the error.
    #[error("line {0}: cannot read input: {1}")]
    Read(u32, io::Error),
    /// What was done with a batch failed (its output could not be written).
    #[error("cannot write output: {0}")]
    Write(io::Error),
}

/// The bytes read and not yet handled, against a cap.
#[derive(Debug)]
struct Budget {
    cap: usize,
    state: Mutex<Held>,
    released: Condvar,
}

#[derive(Debug, Default)]
struct Held {
    /// Read from the input and not handled yet (in the splitter, waiting, or being handled).
    read: usize,
    /// Of those, handed to the handler.
    handed: usize,
}

impl Budget {
    fn new(cap: usize) -> Budget {
        Budget { cap, state: Mutex::new(Held::default()), released: Condvar::new() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until a read can go on: while the handler holds pieces, what is held at once
    /// stays within the cap; when it holds none, the splitter bounds itself (by the game size
    /// limit).
    fn before_read(&self) {
        let mut held = self.lock();
        while held.handed > 0 && held.read.saturating_add(READ_COST) > self.cap {
            held = self.released.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn read(&self, bytes: usize) {
        self.lock().read += bytes;
    }

    /// Pieces of `bytes` handed on to the handler.
    fn hand(&self, bytes: usize) {
        self.lock().handed += bytes;
    }

    /// Pieces of `bytes` are done with; `handed` whether they had been handed on.
    fn release(&self, bytes: usize, handed: bool) {
        let mut held = self.lock();
        held.read = held.read.saturating_sub(bytes);
        if handed {
            held.handed = held.handed.saturating_sub(bytes);
        }
        self.released.notify_all();
    }
}

/// The input, read only as the budget allows.
struct Budgeted<R> {
    inner: R,
    budget: Arc<Budget>,
}

impl<R: Read> Read for Budgeted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.budget.before_read();
        let n = self.inner.read(buf)?;
        self.budget.read(n);
        Ok(n)
    }
}

/// What the budget counts for a piece: its bytes (as read from the input) and its cost.
fn cost(piece: &Piece) -> (usize, usize) {
    let bytes = match piece {
        Piece::Game(game) => game.bytes.len(),
        Piece::Raw(raw) => raw.len(),
        Piece::TooLarge { .. } => 0,
    };
    (bytes, bytes + PIECE_COST)
}

/// Cuts `reader` into pieces (games larger than `limit` bytes are [`Piece::TooLarge`]; with
/// `raw`, the bytes that belong to no game come too) and hands them to `each` a batch at a
/// time, in order, while the input goes on being read on a thread of its own. A batch is handed
/// on as soon as no more of the input is ready, so each game is handled as soon as the input
/// has given it whole.
pub fn for_each_batch<R: Read + Send>(
    reader: R,
    limit: usize,
    raw: bool,
    mut each: impl FnMut(Vec<Piece>) -> io::Result<()>,
) -> Result<(), BatchError> {
    let budget = Arc::new(Budget::new(HELD.max(2 * READ_COST)));
    let (send, receive) = mpsc::channel::<Result<(Piece, usize), (u32, io::Error)>>();
    std::thread::scope(|scope| {
        let reading = Arc::clone(&budget);
        scope.spawn(move || {
            let input = Budgeted { inner: reader, budget: Arc::clone(&reading) };
            // The bytes between games are always asked for, so that the budget sees them go.
            let mut splitter = Splitter::new(input).with_limit(limit).with_raw();
            // The pieces' bytes together are all that was read: each piece's bytes are
            // released once it is done with, or at once when it is not handed on.
            while let Some(piece) = splitter.next() {
                let piece = match piece {
                    Ok(piece) => piece,
                    Err(error) => {
                        let _ = send.send(Err((splitter.line(), error)));
                        return;
                    }
                };
                let (bytes, cost) = cost(&piece);
                if !raw && matches!(piece, Piece::Raw(_)) {
                    reading.release(bytes, false);
                    continue;
                }
                reading.read(cost - bytes);
                reading.hand(cost);
                // The receiver is gone only when it stopped on an error of its own.
                if send.send(Ok((piece, cost))).is_err() {
                    return;
                }
            }
        });
        loop {
            // Wait for one piece, then take what else is ready, up to a batch.
            let first = match receive.recv() {
                Ok(first) => first,
                Err(_) => return Ok(()),
            };
            let mut batch = Vec::new();
            let mut bytes = 0;
            let mut failure = None;
            let mut next = Some(first);
            while let Some(item) = next.take() {
                match item {
                    Ok((piece, cost)) => {
                        bytes += cost;
                        batch.push(piece);
                    }
                    Err(error) => {
                        failure = Some(error);
                        break;
                    }
                }
                if batch.len() >= BATCH_PIECES || bytes >= BATCH_BYTES {
                    break;
                }
                // Nothing more ready now (or the input has ended): the batch goes as it is.
                next = receive.try_recv().ok();
            }
            let outcome = if batch.is_empty() { Ok(()) } else { each(batch) };
            budget.release(bytes, true);
            outcome.map_err(BatchError::Write)?;
            if let Some((line, error)) = failure {
                return Err(BatchError::Read(line, error));
            }
        }
    })
}
