//! The contest record check: `check_record(text, dialect) -> Verdict`, and the official judge
//! around it, `judge_chess`.

use std::borrow::Cow;

use arbiter_chess_record::{Dialect, Mistake, RecordCheck, Verdict as RustVerdict};
use arbiter_scan::{Scanner, place_at};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::interrupt::Signals;
use crate::names;

/// A dialect named by Python code: `contest` or `standard`.
pub fn dialect(name: &str) -> PyResult<Dialect> {
    name.parse().map_err(|error: arbiter_chess_record::ParseDialectError| {
        PyValueError::new_err(error.to_string())
    })
}

/// A mistake and where its token stands in the text checked.
#[derive(Debug)]
pub struct Placed {
    pub mistake: Box<Mistake>,
    pub line: u32,
    pub column: u32,
    /// In characters, as Python indexes a string.
    pub offset: usize,
}

impl Placed {
    /// Places `mistake`, found in `text`.
    pub fn new(text: &str, mistake: Box<Mistake>) -> Placed {
        let bytes = mistake.offset.unwrap_or(0).min(text.len());
        let at = place_at(text, bytes);
        let offset = text.get(..bytes).map_or(0, |before| before.chars().count());
        Placed { mistake, line: at.line, column: at.column, offset }
    }

    /// `LINE:COL: explanation`, as `arbiter chess --explain` writes it after the file name.
    pub fn message(&self) -> String {
        format!("{}:{}: {}", self.line, self.column, self.mistake)
    }
}

/// The verdict on a record: `ok` and how many moves were read, and for a record that is not
/// valid, its first wrong token, where it stands, the rule it breaks and how to write it.
///
/// `bool(verdict)` is `verdict.ok`; `str(verdict)` is the official answer, `Yes` or `No`. The
/// attributes that describe the wrong token are None when the record is valid.
#[pyclass(frozen, module = "arbiter")]
pub struct Verdict {
    plies: u32,
    mistake: Option<Placed>,
}

impl Verdict {
    fn mistake(&self) -> Option<&Mistake> {
        self.mistake.as_ref().map(|placed| &*placed.mistake)
    }
}

#[pymethods]
impl Verdict {
    /// Whether every token is the canonical spelling of a legal move (the official `Yes`).
    #[getter]
    fn ok(&self) -> bool {
        self.mistake.is_none()
    }

    /// How many moves were read and accepted: all of them when the record is valid, else those
    /// before the wrong token.
    #[getter]
    fn plies(&self) -> u32 {
        self.plies
    }

    /// What is wrong, as `arbiter chess --explain` says it:
    /// `5. white 0-0 (ply 9): castling is written with the letter O, not zeros; write O-O`.
    #[getter]
    fn explanation(&self) -> Option<String> {
        self.mistake().map(ToString::to_string)
    }

    /// The explanation without the token's place: `castling is written ...; write O-O`.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.fault.to_string())
    }

    /// The kind of mistake: `move_number`, `missing_black_move`, `black_move_number`,
    /// `missing_move`, `not_a_move`, `illegal`, `ambiguous`, `missing_promotion`, `misspelled`,
    /// `after_game_end` or `null_move`.
    #[getter]
    fn fault(&self) -> Option<String> {
        self.mistake().map(|mistake| names::fault(&mistake.fault))
    }

    /// For a misspelled move, the rule of the spelling it breaks: `zero_castling`,
    /// `missing_check`, `mate_sign`, `promotion_equals`, `uci`, ...
    #[getter]
    fn rule(&self) -> Option<String> {
        self.mistake().and_then(|mistake| names::rule_of(&mistake.fault))
    }

    /// The ply of the wrong token, from 1.
    #[getter]
    fn ply(&self) -> Option<u32> {
        self.mistake().map(|mistake| mistake.ply)
    }

    /// The move number of the wrong token's ply.
    #[getter]
    fn move_number(&self) -> Option<u32> {
        self.mistake().map(|mistake| mistake.move_number)
    }

    /// Whose move it is: `white` or `black`.
    #[getter]
    fn side(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.side.to_string())
    }

    /// The wrong token as written; empty when the record ends too early.
    #[getter]
    fn token(&self) -> Option<String> {
        self.mistake().map(|mistake| mistake.token.clone())
    }

    /// Where the wrong token starts in the record, as an index into the string.
    #[getter]
    fn offset(&self) -> Option<usize> {
        self.mistake.as_ref().map(|placed| placed.offset)
    }

    /// The line of the wrong token, from 1.
    #[getter]
    fn line(&self) -> Option<u32> {
        self.mistake.as_ref().map(|placed| placed.line)
    }

    /// The column of the wrong token, from 1, in characters.
    #[getter]
    fn column(&self) -> Option<u32> {
        self.mistake.as_ref().map(|placed| placed.column)
    }

    /// How the move must be written, when the token is a legal move misspelled.
    #[getter]
    fn canonical(&self) -> Option<String> {
        self.mistake().and_then(|mistake| names::canonical(&mistake.fault)).map(str::to_owned)
    }

    /// Every canonical spelling that fits the token: the one of a misspelled move, the
    /// candidates of an ambiguous one or of a promotion that names no piece; else empty.
    #[getter]
    fn alternatives(&self) -> Vec<String> {
        self.mistake().map(|mistake| names::alternatives(&mistake.fault)).unwrap_or_default()
    }

    fn __bool__(&self) -> bool {
        self.ok()
    }

    fn __str__(&self) -> &'static str {
        if self.ok() { "Yes" } else { "No" }
    }

    fn __repr__(&self) -> String {
        match &self.mistake {
            None => format!("<Verdict Yes, {} plies>", self.plies),
            Some(placed) => format!("<Verdict No, {}>", placed.message()),
        }
    }
}

/// The verdict on `record`, checked in `dialect`, token by token, as long as `signals` let it
/// go on (`None` when a signal handler raised an exception).
fn verdict(record: &str, dialect: Dialect, signals: &mut Signals) -> Option<Verdict> {
    let mut check = RecordCheck::new(dialect);
    let mut tokens = Scanner::new(record);
    while let Some(token) = tokens.next_token() {
        if !signals.go_on() {
            return None;
        }
        if !check.push(token.text, token.offset) {
            break;
        }
    }
    Some(match check.finish(record.len()) {
        RustVerdict::Yes { plies } => Verdict { plies, mistake: None },
        RustVerdict::No(mistake) => Verdict {
            plies: mistake.ply.saturating_sub(1),
            mistake: Some(Placed::new(record, mistake)),
        },
    })
}

/// [`verdict`] without the GIL, Ctrl-C raising `KeyboardInterrupt` in the middle.
fn interruptible_verdict(py: Python<'_>, record: &str, dialect: Dialect) -> PyResult<Verdict> {
    let mut signals = Signals::new();
    match py.detach(|| verdict(record, dialect, &mut signals)) {
        Some(verdict) => Ok(verdict),
        None => signals.raised().and(Err(PyRuntimeError::new_err("interrupted"))),
    }
}

/// Checks a contest record, `1. e4 e5 2. Nf3 ...`: is every token exactly the canonical SAN of
/// a legal move in `dialect`?
///
/// `dialect="contest"` (the official judge) writes a promotion without `=` (`e8Q`) and a mate
/// with `+`; `dialect="standard"` is standard SAN (`e8=Q`, `#`). Move numbers are tokens of
/// their own, white's moves only (`1. e4 e5 2. Nf3`); any run of whitespace separates tokens;
/// an empty record is valid. Raises ValueError for an unknown dialect.
#[pyfunction]
#[pyo3(signature = (record, dialect = Cow::Borrowed("contest")), text_signature = "(record, dialect='contest')")]
pub fn check_record(py: Python<'_>, record: String, dialect: Cow<'_, str>) -> PyResult<Verdict> {
    let dialect = self::dialect(&dialect)?;
    interruptible_verdict(py, &record, dialect)
}

/// The official record judge: the whole input is one record; returns `Yes\n` or `No\n`.
#[pyfunction]
pub fn judge_chess(py: Python<'_>, input: String) -> PyResult<String> {
    let verdict = interruptible_verdict(py, &input, Dialect::Contest)?;
    Ok(if verdict.ok() { "Yes\n" } else { "No\n" }.to_owned())
}
