//! Rewriting into canonical SAN: `fix(text, dialect)`, a record or PGN, as `arbiter chess fix`
//! rewrites them.

use std::borrow::Cow;

use arbiter_chess_record::fix::{FixedPgn, PgnSniffer, fix_pgn_while, fix_record_while};
use arbiter_chess_record::pgn::Problem as RustProblem;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::FixError;
use crate::interrupt::Signals;
use crate::pgn::Problem;
use crate::record::{Placed, dialect};

/// What `fix` did, before it is handed to Python.
enum Fixed {
    /// Everything was rewritten.
    Done(Vec<u8>),
    /// A record could not be: its first move that cannot be read.
    Record(Placed),
    /// Parts of a PGN source could not be; the rest was.
    Pgn(FixedPgn),
}

/// Rewrites `text`, a contest record or PGN, told apart as `arbiter chess fix` does.
/// How much of the text is looked at, to tell a record from PGN, between two looks at signals.
const SNIFF: usize = 1 << 16;

/// Goes on as long as `signals` let it: `None` when a signal handler raised an exception.
fn rewrite(
    text: &[u8],
    dialect: arbiter_chess_record::Dialect,
    signals: &mut Signals,
) -> Option<Fixed> {
    // Told apart a piece at a time, so that a long text can be given up while it is looked at.
    let mut sniffer = PgnSniffer::default();
    let mut pgn = false;
    for piece in text.chunks(SNIFF) {
        if !signals.go_on() {
            return None;
        }
        if sniffer.feed(piece) {
            pgn = true;
            break;
        }
    }
    if pgn || sniffer.finish() {
        let fixed = fix_pgn_while(text, dialect, || signals.go_on())?;
        return Some(if fixed.problems.is_empty() {
            Fixed::Done(fixed.text)
        } else {
            Fixed::Pgn(fixed)
        });
    }
    let record = String::from_utf8_lossy(text);
    Some(match fix_record_while(&record, dialect, || signals.go_on())? {
        Ok(fixed) => Fixed::Done(fixed.into_bytes()),
        Err(mistake) => Fixed::Record(Placed::new(&record, Box::new(mistake))),
    })
}

/// The line `arbiter chess fix` writes for a problem of game `game`.
fn pgn_message(game: usize, problem: &RustProblem) -> String {
    let kept = match problem {
        RustProblem::Move(_) => "kept as written, with the rest of its line",
        _ => "game kept as written",
    };
    format!("{}: game {game}: {problem}; {kept}", problem.at())
}

/// Rewrites a contest record or PGN into canonical SAN in `dialect` (`standard`: `e8=Q`, `#`;
/// `contest`: `e8Q`, `+` on mate), as `arbiter chess fix` does.
///
/// The text is PGN when it starts with a tag pair (`[`) or holds a comment, a variation, an
/// annotation or a result; else it is a record, written afresh as `1. e4 e5 2. Nf3`. In PGN
/// every move that denotes exactly one legal move is rewritten in place and every other byte
/// is kept. Returns the same type it is given: `str` for `str`, `bytes` for `bytes` (kept byte
/// for byte, in any encoding).
///
/// Raises FixError when something could not be rewritten (an illegal or ambiguous move, broken
/// syntax, an unknown variant, a bad `FEN` tag); its `text` holds the rest rewritten (PGN) and
/// its `problems` say what and where.
#[pyfunction]
#[pyo3(signature = (text, dialect = Cow::Borrowed("standard")), text_signature = "(text, dialect='standard')")]
pub fn fix<'py>(text: &Bound<'py, PyAny>, dialect: Cow<'_, str>) -> PyResult<Bound<'py, PyAny>> {
    let py = text.py();
    let dialect = self::dialect(&dialect)?;
    let is_str = text.is_instance_of::<PyString>();
    let bytes: Vec<u8> = if is_str {
        text.extract::<String>()?.into_bytes()
    } else if let Ok(bytes) = text.cast::<PyBytes>() {
        bytes.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(format!(
            "expected a record or PGN as str or bytes, found {}",
            text.get_type().name()?
        )));
    };
    let output = |bytes: Vec<u8>| -> Bound<'py, PyAny> {
        if is_str {
            PyString::new(py, &String::from_utf8_lossy(&bytes)).into_any()
        } else {
            PyBytes::new(py, &bytes).into_any()
        }
    };
    let mut signals = Signals::new();
    let Some(fixed) = py.detach(|| rewrite(&bytes, dialect, &mut signals)) else {
        signals.raised()?;
        return Err(PyRuntimeError::new_err("interrupted"));
    };
    match fixed {
        Fixed::Done(fixed) => Ok(output(fixed)),
        Fixed::Record(placed) => {
            let message = placed.message();
            let problem = Problem::record(placed.mistake, placed.line, placed.column);
            Err(fix_error(py, message, vec![problem], py.None().into_bound(py)))
        }
        Fixed::Pgn(FixedPgn { text, problems }) => {
            let mut message = problems
                .first()
                .map(|(game, problem)| pgn_message(*game, problem))
                .unwrap_or_default();
            if problems.len() > 1 {
                message.push_str(&format!(" (and {} more problems)", problems.len() - 1));
            }
            let problems = problems
                .into_iter()
                .map(|(game, problem)| Problem::pgn(Some(game), problem))
                .collect();
            Err(fix_error(py, message, problems, output(text)))
        }
    }
}

/// A [`FixError`] with `message`, its `problems` and the `text` rewritten as far as it could be.
fn fix_error<'py>(
    py: Python<'py>,
    message: String,
    problems: Vec<Problem>,
    text: Bound<'py, PyAny>,
) -> PyErr {
    let error = FixError::new_err(message);
    let value = error.value(py);
    // Setting an attribute on a fresh exception fails only for lack of memory.
    let _ = value.setattr("problems", problems);
    let _ = value.setattr("text", text);
    error
}
