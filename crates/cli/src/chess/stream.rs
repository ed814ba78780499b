//! Reading a PGN input in batches of games on one thread while the games of the batch before are
//! checked on every core: bounded work in flight, results in input order.

use std::io;
use std::sync::mpsc;

use arbiter_chess_record::pgn::{Piece, Splitter};

use super::source::Source;

/// A batch holds at most this many pieces...
const BATCH_PIECES: usize = 1024;

/// ... and at most this many bytes of games (or one game, when it is larger).
const BATCH_BYTES: usize = 4 << 20;

/// Batches read ahead of the one being checked.
const AHEAD: usize = 2;

/// Why reading stopped early.
pub enum Stop {
    /// The input could not be read on: the line reached and the error.
    Read(u32, io::Error),
    /// The output could not be written.
    Write(io::Error),
}

/// Cuts `source` into pieces (games larger than `limit` bytes are [`Piece::TooLarge`]; with
/// `raw`, the bytes that belong to no game come too) and hands them to `each` a batch at a time,
/// in order, while the next batches are read.
pub fn for_each_batch(
    source: &mut Source,
    limit: usize,
    raw: bool,
    mut each: impl FnMut(Vec<Piece>) -> io::Result<()>,
) -> Result<(), Stop> {
    let reader = std::mem::replace(&mut source.reader, Box::new(io::empty()));
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
                Ok(batch) => each(batch).map_err(Stop::Write)?,
                Err((line, error)) => return Err(Stop::Read(line, error)),
            }
        }
        Ok(())
    })
}
