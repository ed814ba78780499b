//! Shards of a PGN file, read apart (on other processes or machines) so that every game is
//! checked exactly once: `shards(path, target_bytes)` cuts the file, `shard_extent(shard)`
//! counts what a shard holds, `Shard.placed` says what comes before it, and
//! `check_pgn_file(path, shard=...)` checks its games.

use std::io::Read;
use std::path::{Path, PathBuf};

use arbiter_chess_record::pgn::{
    Base, Compression, Layout, Shard as RustShard, ShardText, Splitter, plan_shards,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::source::read_error;

/// A part of a PGN file to check on its own: the bytes `start` to `end` of the file at `path`
/// (compressed bytes for a Zstandard file cut between frames), shard `number` of the file's.
///
/// `text_start`, `line` and `game` say what comes before its range: bytes of text, the line it
/// starts on, games. Those not known are None, and its reports then count from the shard's own
/// start (offset 0, line 1, game 1); `placed` gives the shard with them known.
#[pyclass(frozen, eq, hash, module = "arbiter")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shard {
    path: PathBuf,
    #[pyo3(get)]
    number: usize,
    shard: RustShard,
    #[pyo3(get)]
    text_start: Option<u64>,
    #[pyo3(get)]
    line: Option<u32>,
    #[pyo3(get)]
    game: Option<usize>,
}

/// The name of a layout, as Python sees it.
fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Text => "text",
        Layout::ZstdFrames => "zstd_frames",
        Layout::Whole => "whole",
    }
}

fn layout_named(name: &str) -> PyResult<Layout> {
    match name {
        "text" => Ok(Layout::Text),
        "zstd_frames" => Ok(Layout::ZstdFrames),
        "whole" => Ok(Layout::Whole),
        _ => Err(PyValueError::new_err(format!("unknown shard layout `{name}`"))),
    }
}

fn compression_name(compression: Compression) -> &'static str {
    match compression {
        Compression::None => "none",
        Compression::Gzip => "gzip",
        Compression::Bzip2 => "bzip2",
        Compression::Zstd => "zstd",
    }
}

fn compression_named(name: &str) -> PyResult<Compression> {
    match name {
        "none" => Ok(Compression::None),
        "gzip" => Ok(Compression::Gzip),
        "bzip2" => Ok(Compression::Bzip2),
        "zstd" => Ok(Compression::Zstd),
        _ => Err(PyValueError::new_err(format!("unknown compression `{name}`"))),
    }
}

impl Shard {
    /// The path of its file.
    pub fn file(&self) -> &Path {
        &self.path
    }

    /// Opens its text, with a splitter that places its games as the whole file's would be.
    pub fn splitter(&self, py: Python<'_>) -> PyResult<Splitter<Box<dyn Read + Send>>> {
        let text = py
            .detach(|| ShardText::open(&self.path, &self.shard))
            .map_err(|error| read_error(py, error, self.shard.compression, 1, Some(&self.path)))?;
        let base = Base {
            text_start: self.text_start.unwrap_or(0),
            line: self.line.unwrap_or(1),
            games: self.game.unwrap_or(0),
        };
        Ok(text.splitter(base))
    }

    /// Its number among its file's shards.
    pub fn number(&self) -> usize {
        self.number
    }

    /// How the file is compressed.
    pub fn compressed(&self) -> Compression {
        self.shard.compression
    }
}

#[pymethods]
impl Shard {
    #[new]
    #[pyo3(signature = (path, number, start, end, layout, compression, text_start = None, line = None, game = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        path: PathBuf,
        number: usize,
        start: u64,
        end: u64,
        layout: &str,
        compression: &str,
        text_start: Option<u64>,
        line: Option<u32>,
        game: Option<usize>,
    ) -> PyResult<Shard> {
        if end < start {
            return Err(PyValueError::new_err("a shard ends before it starts"));
        }
        let shard = RustShard {
            start,
            end,
            layout: layout_named(layout)?,
            compression: compression_named(compression)?,
        };
        Ok(Shard { path, number, shard, text_start, line, game })
    }

    /// The path of its file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Where its range starts in the file, in bytes.
    #[getter]
    fn start(&self) -> u64 {
        self.shard.start
    }

    /// Where its range ends in the file, in bytes: the next shard's start.
    #[getter]
    fn end(&self) -> u64 {
        self.shard.end
    }

    /// `text` (plain bytes), `zstd_frames` (whole frames) or `whole` (the whole file, read
    /// from its start).
    #[getter]
    fn layout(&self) -> &'static str {
        layout_name(self.shard.layout)
    }

    /// `none`, `gzip`, `bzip2` or `zstd`.
    #[getter]
    fn compression(&self) -> &'static str {
        compression_name(self.shard.compression)
    }

    /// The shard with what comes before its range known: bytes of text, its first line, games.
    fn placed(&self, text_start: u64, line: u32, game: usize) -> Shard {
        Shard { text_start: Some(text_start), line: Some(line), game: Some(game), ..self.clone() }
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let args = (
            self.path.clone(),
            self.number,
            self.shard.start,
            self.shard.end,
            self.layout(),
            self.compression(),
            self.text_start,
            self.line,
            self.game,
        );
        Ok((py.get_type::<Shard>().into_any(), args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Shard {} of {} bytes {}..{} ({})>",
            self.number,
            self.path.display(),
            self.shard.start,
            self.shard.end,
            self.layout()
        )
    }
}

/// Cuts the PGN file at `path` into shards of about `target_bytes` bytes: byte ranges of plain
/// text, runs of whole frames of a Zstandard file made of several; one shard for any other
/// compressed file. Each game of the file is checked by exactly one shard, whatever their size.
/// The first shard is placed; plain shards know their `text_start`.
#[pyfunction]
pub fn shards(py: Python<'_>, path: PathBuf, target_bytes: u64) -> PyResult<Vec<Shard>> {
    if target_bytes == 0 {
        return Err(PyValueError::new_err("target_bytes must be at least 1"));
    }
    let planned = py
        .detach(|| plan_shards(&path, target_bytes))
        .map_err(|error| read_error(py, error, Compression::None, 1, Some(&path)))?;
    Ok(planned
        .into_iter()
        .enumerate()
        .map(|(number, shard)| {
            let first = shard.start == 0;
            let text_start = match shard.layout {
                Layout::Text => Some(shard.start),
                _ => first.then_some(0),
            };
            let (line, game) = if first { (Some(1), Some(0)) } else { (None, None) };
            Shard { path: path.clone(), number, shard, text_start, line, game }
        })
        .collect())
}

/// What a shard's range holds, read through: `(text_bytes, line_breaks, games)`. Summed over
/// the shards before one, they place it (`Shard.placed`); `place_shards` does that.
#[pyfunction]
pub fn shard_extent(py: Python<'_>, shard: &Shard) -> PyResult<(u64, u64, usize)> {
    let extent =
        py.detach(|| arbiter_chess_record::pgn::shard_extent(&shard.path, &shard.shard)).map_err(
            |error| read_error(py, error, shard.shard.compression, 1, Some(&shard.path)),
        )?;
    Ok((extent.text_bytes, extent.lines, extent.games))
}
