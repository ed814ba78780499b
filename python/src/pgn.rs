//! PGN validation: `check_pgn(text)` and `check_pgn_file(file)` return an iterator of
//! [`GameReport`]s, one per game, like `arbiter chess pgn --json` writes them.
//!
//! The stream is read a batch of games at a time without the GIL, and the games of a batch are
//! checked on every core (rayon; `RAYON_NUM_THREADS` limits the threads), then handed out one
//! by one in input order. Memory holds one batch and the largest game, whatever the input's
//! size.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use arbiter_chess_record::pgn::{
    Compression, GameReport as RustGameReport, MAX_GAME_BYTES, Mode, Piece, Problem as RustProblem,
    Splitter,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::names;
use crate::shard::Shard;
use crate::source::{Source, read_error};

/// A mode named by Python code: `strict` or `lenient`.
pub(crate) fn mode(name: &str) -> PyResult<Mode> {
    match name {
        "strict" => Ok(Mode::Strict),
        "lenient" => Ok(Mode::Lenient),
        _ => Err(PyValueError::new_err(format!(
            "unknown mode `{name}` (expected `strict` or `lenient`)"
        ))),
    }
}

/// A dict from a value's JSON form, as `arbiter chess pgn --json` writes it.
fn json_dict<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text =
        serde_json::to_string(value).map_err(|error| PyValueError::new_err(error.to_string()))?;
    py.import(intern!(py, "json"))?.call_method1(intern!(py, "loads"), (text,))
}

/// A problem found in a PGN game: an error, or in lenient mode a warning; or a move `fix`
/// could not rewrite.
///
/// `kind` is `move`, `syntax`, `fen`, `variant`, `no_result` or `too_large`; the attributes
/// about the move (`ply`, `move_number`, `side`, `token`, `reason`, `fault`, `rule`,
/// `canonical`) are None for the other kinds. `str(problem)` is its message.
#[pyclass(frozen, module = "arbiter")]
pub struct Problem {
    game: Option<usize>,
    line: u32,
    column: u32,
    problem: Described,
}

/// What a [`Problem`] holds: a PGN problem, or the mistake of a record.
enum Described {
    Pgn(RustProblem),
    Record(Box<arbiter_chess_record::Mistake>),
}

impl Problem {
    /// A problem of game `game` of a PGN source.
    pub fn pgn(game: Option<usize>, problem: RustProblem) -> Problem {
        let at = problem.at();
        Problem { game, line: at.line, column: at.column, problem: Described::Pgn(problem) }
    }

    /// The mistake of a record, at `line` and `column`.
    pub fn record(mistake: Box<arbiter_chess_record::Mistake>, line: u32, column: u32) -> Problem {
        Problem { game: None, line, column, problem: Described::Record(mistake) }
    }

    fn mistake(&self) -> Option<&arbiter_chess_record::Mistake> {
        match &self.problem {
            Described::Pgn(RustProblem::Move(located)) => Some(&located.mistake),
            Described::Pgn(_) => None,
            Described::Record(mistake) => Some(mistake),
        }
    }
}

#[pymethods]
impl Problem {
    /// Its kind: `move`, `syntax`, `fen`, `variant`, `no_result` or `too_large`.
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.problem {
            Described::Pgn(problem) => problem.kind(),
            Described::Record(_) => "move",
        }
    }

    /// The number of its game in the PGN source, from 1; None in a record.
    #[getter]
    fn game(&self) -> Option<usize> {
        self.game
    }

    /// Its line, from 1.
    #[getter]
    fn line(&self) -> u32 {
        self.line
    }

    /// Its column, from 1, in characters.
    #[getter]
    fn column(&self) -> u32 {
        self.column
    }

    /// What is wrong, as `arbiter chess pgn` says it.
    #[getter]
    fn message(&self) -> String {
        match &self.problem {
            Described::Pgn(problem) => problem.to_string(),
            Described::Record(mistake) => mistake.to_string(),
        }
    }

    /// For a move, the ply, from 1.
    #[getter]
    fn ply(&self) -> Option<u32> {
        self.mistake().map(|mistake| mistake.ply)
    }

    /// For a move, its move number.
    #[getter]
    fn move_number(&self) -> Option<u32> {
        self.mistake().map(|mistake| mistake.move_number)
    }

    /// For a move, whose it is: `white` or `black`.
    #[getter]
    fn side(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.side.to_string())
    }

    /// For a move, the token as written.
    #[getter]
    fn token(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.token.clone())
    }

    /// For a move, what is wrong with it, without its place.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.fault.to_string())
    }

    /// For a move, the kind of fault: `illegal`, `ambiguous`, `misspelled`, `null_move`, ...
    #[getter]
    fn fault(&self) -> Option<String> {
        self.mistake().map(|mistake| names::fault(&mistake.fault))
    }

    /// For a misspelled move, the rule of the spelling it breaks: `uci`, `zero_castling`, ...
    #[getter]
    fn rule(&self) -> Option<String> {
        self.mistake().and_then(|mistake| names::rule_of(&mistake.fault))
    }

    /// For a misspelled move, its canonical spelling.
    #[getter]
    fn canonical(&self) -> Option<String> {
        self.mistake().and_then(|mistake| names::canonical(&mistake.fault)).map(str::to_owned)
    }

    /// For a move, every canonical spelling that fits the token: the one of a misspelled move,
    /// the candidates of an ambiguous one or of a promotion that names no piece; else empty.
    #[getter]
    fn alternatives(&self) -> Vec<String> {
        self.mistake().map(|mistake| names::alternatives(&mistake.fault)).unwrap_or_default()
    }

    /// The JSON object `arbiter chess pgn --json` writes for it: `kind`, `line`, `column`,
    /// `message`, and for a move `ply`, `move_number`, `side`, `token`, `reason`, `canonical`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.problem {
            Described::Pgn(problem) => json_dict(py, problem),
            Described::Record(mistake) => {
                let located = arbiter_chess_record::pgn::Located {
                    at: arbiter_scan::Place { line: self.line, column: self.column },
                    mistake: (**mistake).clone(),
                };
                json_dict(py, &RustProblem::Move(Box::new(located)))
            }
        }
    }

    fn __str__(&self) -> String {
        self.message()
    }

    fn __repr__(&self) -> String {
        format!("<Problem {} at {}:{}: {}>", self.kind(), self.line, self.column, self.message())
    }
}

/// The verdict on one game of a PGN source.
///
/// `index` is its number in the source (`game` in the JSON), `line` and `column` where it
/// starts; `white` and `black` its tags (`?` when absent); `variant` the variant it is played
/// in (`Standard`, `Chess960`, `Crazyhouse`, ...); `ok` whether it has no error; `plies` how
/// many mainline moves were read (null moves included); `error` its first error, if any;
/// `warnings` in lenient mode each departure from PGN's export format that was accepted.
/// `bool(report)` is `report.ok`.
#[pyclass(frozen, module = "arbiter")]
pub struct GameReport {
    report: RustGameReport,
}

#[pymethods]
impl GameReport {
    /// Its number in the source, from 1.
    #[getter]
    fn index(&self) -> usize {
        self.report.index
    }

    /// The line it starts on, from 1.
    #[getter]
    fn line(&self) -> u32 {
        self.report.line
    }

    /// The column of its first character, from 1.
    #[getter]
    fn column(&self) -> u32 {
        self.report.column
    }

    /// Where its first character (of its tags, or of its movetext) stands in the source, in
    /// bytes of the text read (decompressed): where to seek to find it again.
    #[getter]
    fn offset(&self) -> u64 {
        self.report.offset
    }

    /// What the file calls it: the `Site` tag when it is a URL, else the `GameId` tag, else
    /// None.
    #[getter]
    fn id(&self) -> Option<&str> {
        self.report.id.as_deref()
    }

    /// The `White` tag, or `?`; bytes that are not UTF-8 are written `\xfc`.
    #[getter]
    fn white(&self) -> &str {
        &self.report.white
    }

    /// The `Black` tag, or `?`.
    #[getter]
    fn black(&self) -> &str {
        &self.report.black
    }

    /// The variant, as lichess names it: `Standard`, `Chess960`, `Antichess`, `Atomic`,
    /// `Crazyhouse`, `King of the Hill`, `Three-check`, `Racing Kings` or `Horde`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.report.variant.name()
    }

    /// The `Result` tag as written (`1-0`, `0-1`, `1/2-1/2`, `*`), or None.
    #[getter]
    fn result(&self) -> Option<&str> {
        self.report.result.as_deref()
    }

    /// Whether the game has no error.
    #[getter]
    fn ok(&self) -> bool {
        self.report.ok
    }

    /// How many mainline moves were read and accepted (null moves included).
    #[getter]
    fn plies(&self) -> u32 {
        self.report.plies
    }

    /// The first error, if any.
    #[getter]
    fn error(&self) -> Option<Problem> {
        let game = Some(self.report.index);
        self.report.error.clone().map(|problem| Problem::pgn(game, problem))
    }

    /// In lenient mode, each departure from the export format that was accepted.
    #[getter]
    fn warnings(&self) -> Vec<Problem> {
        let game = Some(self.report.index);
        self.report.warnings.iter().map(|problem| Problem::pgn(game, problem.clone())).collect()
    }

    /// The JSON object `arbiter chess pgn --json` writes for the game, without `file`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_dict(py, &self.report)
    }

    fn __bool__(&self) -> bool {
        self.report.ok
    }

    fn __repr__(&self) -> String {
        let verdict = match &self.report.error {
            None => format!("ok, {} plies", self.report.plies),
            Some(error) => format!("{}: {error}", error.at()),
        };
        format!(
            "<GameReport {} ({} - {}): {verdict}>",
            self.report.index,
            arbiter_scan::Shown(&self.report.white),
            arbiter_scan::Shown(&self.report.black)
        )
    }
}

/// A batch holds at most this many games...
const BATCH_GAMES: usize = 256;

/// ... and at most this many bytes of games (or one game, when it is larger).
const BATCH_BYTES: usize = 2 << 20;

/// The reading of a source: the games checked and not yet handed out, and what is left.
struct Reading {
    splitter: Option<Splitter<Box<dyn io::Read + Send>>>,
    mode: Mode,
    compression: Compression,
    path: Option<PathBuf>,
    ready: VecDeque<RustGameReport>,
    /// An error met reading, raised once the games before it have been handed out.
    failure: Option<(u32, io::Error)>,
}

impl Reading {
    /// Reads the next batch of games and checks them on every core.
    fn read_batch(&mut self) {
        let Some(splitter) = &mut self.splitter else {
            return;
        };
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < BATCH_GAMES && bytes < BATCH_BYTES {
            match splitter.next() {
                Some(Ok(piece)) => {
                    if let Piece::Game(game) = &piece {
                        bytes += game.bytes.len();
                    }
                    batch.push(piece);
                }
                Some(Err(error)) => {
                    self.failure = Some((splitter.line(), error));
                    self.splitter = None;
                    break;
                }
                None => {
                    self.splitter = None;
                    break;
                }
            }
        }
        let mode = self.mode;
        let reports: Vec<RustGameReport> = batch
            .par_iter()
            .filter_map(|piece| match piece {
                Piece::Game(game) => Some(game.check(mode)),
                Piece::TooLarge { index, at, offset, limit } => {
                    Some(RustGameReport::too_large(*index, *at, *offset, *limit))
                }
                Piece::Raw(_) => None,
            })
            .collect();
        self.ready.extend(reports);
    }
}

/// The reports on the games of a PGN source, one per game, in order: an iterator of
/// [`GameReport`]. An error reading the source (a broken compressed stream, a file object
/// whose `read` raises) is raised after the reports of the games before it.
#[pyclass(frozen, module = "arbiter")]
pub struct GameReports {
    reading: Mutex<Reading>,
}

impl GameReports {
    fn new(source: Source, mode: Mode, limit: usize) -> GameReports {
        let Source { compression, reader, path } = source;
        GameReports::of(Splitter::new(reader), mode, limit, compression, path)
    }

    /// The reports on the games `splitter` cuts from a source compressed with `compression`.
    fn of(
        splitter: Splitter<Box<dyn io::Read + Send>>,
        mode: Mode,
        limit: usize,
        compression: Compression,
        path: Option<PathBuf>,
    ) -> GameReports {
        GameReports {
            reading: Mutex::new(Reading {
                splitter: Some(splitter.with_limit(limit)),
                mode,
                compression,
                path,
                ready: VecDeque::new(),
                failure: None,
            }),
        }
    }
}

#[pymethods]
impl GameReports {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<GameReport>> {
        // Waiting for the lock while holding the GIL could deadlock with a thread that reads a
        // Python file object under the lock: a second reader is refused, as a generator
        // refuses to run twice at once.
        let Ok(mut reading) = self.reading.try_lock() else {
            return Err(PyRuntimeError::new_err("the games are being read by another thread"));
        };
        loop {
            if let Some(report) = reading.ready.pop_front() {
                return Ok(Some(GameReport { report }));
            }
            if let Some((line, error)) = reading.failure.take() {
                return Err(read_error(
                    py,
                    error,
                    reading.compression,
                    line,
                    reading.path.as_ref(),
                ));
            }
            if reading.splitter.is_none() {
                return Ok(None);
            }
            let reading = &mut *reading;
            py.detach(|| reading.read_batch());
        }
    }
}

/// Checks every game of PGN text given as `str` or `bytes` (compressed bytes too: gzip, bzip2,
/// zstd), in `mode` `strict` (PGN's export format) or `lenient` (what real files hold, with a
/// warning for each departure). Returns an iterator of GameReport.
///
/// A game larger than `max_game_bytes` is reported as such (`too_large`) and skipped.
#[pyfunction]
#[pyo3(
    signature = (pgn, mode = Cow::Borrowed("strict"), *, max_game_bytes = MAX_GAME_BYTES),
    text_signature = "(pgn, mode='strict', *, max_game_bytes=MAX_GAME_BYTES)"
)]
pub fn check_pgn(
    pgn: &Bound<'_, PyAny>,
    mode: Cow<'_, str>,
    max_game_bytes: usize,
) -> PyResult<GameReports> {
    let mode = self::mode(&mode)?;
    Ok(GameReports::new(Source::text(pgn)?, mode, max_game_bytes))
}

/// Checks every game of a PGN file: a path (`str` or `os.PathLike`) or a file object opened
/// for reading (binary, or text, read as UTF-8), plain or compressed (gzip, bzip2, zstd,
/// recognised by their first bytes). Otherwise like `check_pgn`.
///
/// The file is opened at once (a missing file raises `FileNotFoundError` here) and read as the
/// iterator goes.
///
/// With `shard` (one of `shards(file, ...)`), only the shard's games are checked, numbered and
/// placed as in the whole file when the shard is placed; `file` must then be its path.
#[pyfunction]
#[pyo3(
    signature = (file, mode = Cow::Borrowed("strict"), *, max_game_bytes = MAX_GAME_BYTES, shard = None),
    text_signature = "(file, mode='strict', *, max_game_bytes=MAX_GAME_BYTES, shard=None)"
)]
pub fn check_pgn_file(
    file: &Bound<'_, PyAny>,
    mode: Cow<'_, str>,
    max_game_bytes: usize,
    shard: Option<PyRef<'_, Shard>>,
) -> PyResult<GameReports> {
    let mode = self::mode(&mode)?;
    let Some(shard) = shard else {
        return Ok(GameReports::new(Source::open(file)?, mode, max_game_bytes));
    };
    let path: PathBuf = file
        .extract()
        .map_err(|_| PyTypeError::new_err("with a shard, the file must be given by its path"))?;
    if path != shard.file() {
        return Err(PyValueError::new_err(format!(
            "the shard is one of {}, not of {}",
            shard.file().display(),
            path.display()
        )));
    }
    let splitter = shard.splitter(file.py())?;
    Ok(GameReports::of(splitter, mode, max_game_bytes, shard.compressed(), Some(path)))
}
