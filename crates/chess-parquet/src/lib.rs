//! Chess games as a Parquet dataset — one row per game with typed columns, Hive-partitioned by
//! month, compressed with Zstandard — and back to PGN.
//!
//! A game is read and checked by [`arbiter_chess_record`] (the same verdict as `arbiter chess
//! pgn`); [`row`] turns its tags, moves, clocks, evaluations and findings into a [`GameRow`],
//! [`columns`] defines the columns and gathers rows into Arrow batches, [`write`] writes the
//! partitions, [`convert`] drives a whole PGN stream on every core, [`text`] gives a row's PGN
//! back and [`read`] reads a dataset back in the order of its games. The rules crate knows
//! nothing of Arrow: only this crate, and what converts, pulls it in.
//!
//! ```
//! use arbiter_chess_parquet::{DatasetWriter, convert, write_pgn};
//! use arbiter_chess_record::pgn::{Mode, Splitter, MAX_GAME_BYTES};
//!
//! let pgn = b"[Event \"Rated Blitz game\"]\n[Result \"1-0\"]\n\n1. e4 { [%clk 0:02:58] } 1... e5 { [%clk 0:02:59] } 1-0\n\n";
//! let dir = std::env::temp_dir().join(format!("arbiter-doc-{}", std::process::id()));
//! let mut writer = DatasetWriter::new(&dir, "games.pgn", 0, 0);
//! let tally = convert::convert(Splitter::new(&pgn[..]), MAX_GAME_BYTES, Mode::Strict, &mut writer)?;
//! let parts = writer.finish()?;
//! assert_eq!((tally.games, tally.ok, parts[0].rows), (1, 1, 1));
//! assert_eq!(parts[0].path, "month=__HIVE_DEFAULT_PARTITION__/part-00000-000000.parquet");
//! let mut back = Vec::new();
//! write_pgn(&dir, &mut back)?;
//! assert_eq!(back, pgn);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod columns;
pub mod convert;
pub mod read;
pub mod row;
pub mod text;
pub mod write;

use std::path::PathBuf;

pub use columns::schema;
pub use convert::{ConvertError, Tally};
pub use read::{Written, write_pgn};
pub use row::{Date, Finding, GameRow, TimeOfDay};
pub use write::{DatasetWriter, Part};

/// Why a dataset could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("{path}: {error}", path = .0.display(), error = .1)]
    Io(PathBuf, std::io::Error),
    /// A Parquet file could not be written or read.
    #[error("{path}: {error}", path = .0.display(), error = .1)]
    Parquet(PathBuf, parquet::errors::ParquetError),
    /// A folder or file is not a dataset of this layout.
    #[error(
        "{path}: expected a dataset of `arbiter chess convert`, found {found}",
        path = .0.display(),
        found = .1
    )]
    Layout(PathBuf, String),
}
