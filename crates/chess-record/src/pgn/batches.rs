//! Reading a PGN input in batches of games on one thread while the games of the batch before are
//! handled (e.g. checked on every core): bounded work in flight, results in input order.

use std::io::{self, Read};
use std::sync::mpsc;

use super::split::{Piece, Splitter};

/// A batch holds at most this many pieces...
const BATCH_PIECES: usize = 1024;

/// ... and at most this many bytes of games (or one game, when it is larger).
const BATCH_BYTES: usize = 4 << 20;

/// Batches read ahead of the one being checked.
const AHEAD: usize = 2;

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

/// Cuts `reader` into pieces (games larger than `limit` bytes are [`Piece::TooLarge`]; with
/// `raw`, the bytes that belong to no game come too) and hands them to `each` a batch at a time,
/// in order, while the next batches are read on a thread of their own.
pub fn for_each_batch<R: Read + Send>(
    reader: R,
    limit: usize,
    raw: bool,
    mut each: impl FnMut(Vec<Piece>) -> io::Result<()>,
) -> Result<(), BatchError> {
    let (send, receive) = mpsc::sync_channel::<Result<Vec<Piece>, (u32, io::Error)>>(AHEAD);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut splitter = Splitter::new(reader).with_limit(limit);
            if raw {
                splitter = splitter.with_raw();
            }
            let mut batch = Vec::with_capacity(BATCH_PIECES);
            let mut bytes = 0;
            loop {
                let piece = match splitter.next() {
                    Some(Ok(piece)) => piece,
                    Some(Err(error)) => {
                        let line = splitter.line();
                        let _ = send.send(Ok(std::mem::take(&mut batch)));
                        let _ = send.send(Err((line, error)));
                        return;
                    }
                    None => break,
                };
                bytes += match &piece {
                    Piece::Game(game) => game.bytes.len(),
                    Piece::Raw(raw) => raw.len(),
                    Piece::TooLarge { .. } => 0,
                };
                batch.push(piece);
                if batch.len() == BATCH_PIECES || bytes >= BATCH_BYTES {
                    bytes = 0;
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_PIECES));
                    // The receiver is gone only when it stopped on an error of its own.
                    if send.send(Ok(full)).is_err() {
                        return;
                    }
                }
            }
            let _ = send.send(Ok(batch));
        });
        for batch in receive {
            match batch {
                Ok(batch) => each(batch).map_err(BatchError::Write)?,
                Err((line, error)) => return Err(BatchError::Read(line, error)),
            }
        }
        Ok(())
    })
}
