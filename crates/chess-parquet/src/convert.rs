//! A PGN stream converted into rows: its games read a batch at a time, each batch on every core
//! (rayon), the rows written in the order of the games.
//!
//! Every byte of the stream belongs to a row's text: a game's own, the blank lines after it up
//! to the next game, and before the first game whatever precedes it (a byte order mark). A game
//! too large to read is a row with its error and no text: its bytes, and the blank lines after
//! it, are not kept.

use std::collections::BTreeMap;
use std::io::{self, Read};

use arbiter_chess_record::pgn::{GameReport, GameText, Mode, Piece, Splitter};
use rayon::prelude::*;

use crate::Error;
use crate::row::GameRow;
use crate::text::settle;
use crate::write::DatasetWriter;

/// Games converted at a time, at most...
const BATCH_GAMES: usize = 1024;

/// ... and bytes of games.
const BATCH_BYTES: usize = 1 << 20;

/// What the games converted came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games without an error.
    pub ok: u64,
    /// Mainline moves read and accepted.
    pub plies: u64,
    /// Games with an error, by the error's kind.
    pub wrong: BTreeMap<&'static str, u64>,
    /// Games whose columns do not give their text back, which keep it.
    pub kept_text: u64,
}

impl Tally {
    fn add(&mut self, row: &GameRow) {
        self.games += 1;
        self.ok += u64::from(row.ok);
        self.plies += u64::from(row.plies);
        if let Some(error) = &row.error {
            *self.wrong.entry(error.kind).or_default() += 1;
        }
        self.kept_text += u64::from(row.pgn.is_some());
    }
}

/// A game with the bytes around it that its row keeps.
enum Unit {
    Game { game: GameText, before: Vec<u8>, after: Vec<u8> },
    TooLarge(GameReport),
}

impl Unit {
    fn size(&self) -> usize {
        match self {
            Unit::Game { game, .. } => game.bytes.len(),
            Unit::TooLarge(_) => 0,
        }
    }

    fn row(self, mode: Mode) -> GameRow {
        match self {
            Unit::Game { game, before, after } => {
                let (mut row, report) = GameRow::read(&game, mode);
                row.pgn = settle(&row, &game, &report, &before, &after);
                row
            }
            Unit::TooLarge(report) => GameRow::too_large(&report),
        }
    }
}

/// Reads the stream's games from `splitter` (games larger than `limit` bytes are rows of their
/// error), checks each in `mode` and writes its row with `writer`; what they came to. An error
/// reading the stream is given once the rows before it are written, with the line it stopped
/// at: the caller keeps what is written ([`DatasetWriter::finish`]) or not
/// ([`DatasetWriter::abort`]).
pub fn convert<R: Read>(
    splitter: Splitter<R>,
    limit: usize,
    mode: Mode,
    writer: &mut DatasetWriter,
) -> Result<Tally, ConvertError> {
    let mut splitter = splitter.with_limit(limit).with_raw();
    let mut tally = Tally::default();
    let mut ready: Vec<Unit> = Vec::new();
    let mut bytes = 0;
    // The last game read, which the bytes up to the next game's join.
    let mut last: Option<Unit> = None;
    // Bytes before the first game.
    let mut before: Vec<u8> = Vec::new();
    // After a game too large, its bytes: not kept.
    let mut skipping = false;
    let mut failure = None;
    loop {
        let piece = match splitter.next() {
            Some(Ok(piece)) => Some(piece),
            Some(Err(error)) => {
                failure = Some(ConvertError::Read { line: splitter.line(), error });
                None
            }
            None => None,
        };
        let Some(piece) = piece else {
            if let Some(unit) = last.take() {
                ready.push(unit);
            }
            write(&mut ready, mode, writer, &mut tally)?;
            break;
        };
        match piece {
            Piece::Raw(raw) => match &mut last {
                _ if skipping => {}
                Some(Unit::Game { after, .. }) => after.extend_from_slice(&raw),
                Some(Unit::TooLarge(_)) => {}
                None => before.extend_from_slice(&raw),
            },
            Piece::TooLarge { index, at, offset, limit } => {
                if let Some(unit) =
                    last.replace(Unit::TooLarge(GameReport::too_large(index, at, offset, limit)))
                {
                    bytes += unit.size();
                    ready.push(unit);
                }
                skipping = true;
            }
            Piece::Game(game) => {
                skipping = false;
                let lead = game.bytes.len() - game.text().len();
                let unit = match last.take() {
                    Some(mut unit) => {
                        if let Unit::Game { after, .. } = &mut unit {
                            after.extend_from_slice(&game.bytes[..lead]);
                        }
                        bytes += unit.size();
                        ready.push(unit);
                        Unit::Game { game, before: Vec::new(), after: Vec::new() }
                    }
                    None => {
                        let mut first = std::mem::take(&mut before);
                        first.extend_from_slice(&game.bytes[..lead]);
                        Unit::Game { game, before: first, after: Vec::new() }
                    }
                };
                last = Some(unit);
            }
        }
        if ready.len() >= BATCH_GAMES || bytes >= BATCH_BYTES {
            write(&mut ready, mode, writer, &mut tally)?;
            bytes = 0;
        }
    }
    match failure {
        Some(failure) => Err(failure),
        None => Ok(tally),
    }
}

/// Converts the units ready, on every core, and writes their rows in order.
fn write(
    ready: &mut Vec<Unit>,
    mode: Mode,
    writer: &mut DatasetWriter,
    tally: &mut Tally,
) -> Result<(), ConvertError> {
    let rows: Vec<GameRow> =
        std::mem::take(ready).into_par_iter().map(|unit| unit.row(mode)).collect();
    for row in &rows {
        writer.push(row).map_err(ConvertError::Write)?;
        tally.add(row);
    }
    Ok(())
}

/// Why a conversion stopped.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The stream could not be read on, at `line` of its text.
    #[error("line {line}: {error}")]
    Read {
        /// The line reached.
        line: u32,
        /// What went wrong.
        error: io::Error,
    },
    /// The dataset could not be written.
    #[error("{0}")]
    Write(Error),
}
