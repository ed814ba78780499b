//! The exceptions, and how the libraries' errors become them.
//!
//! Bad input is a `ValueError`: [`InputError`] for input a judge or the PGN reader cannot read,
//! [`FixError`] for moves `fix` cannot rewrite. Its message is the one `arbiter` prints on
//! stderr, without the file name: `LINE:COL: expected ..., found ...`. A file that cannot be
//! opened or read is Python's own `OSError` (`FileNotFoundError`, ...), as `open` raises it.

use arbiter_scan::{Place, ScanError};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    arbiter,
    InputError,
    PyValueError,
    "Malformed input: the message is arbiter's, `LINE:COL: expected ..., found ...`.\n\n\
     Attributes: `line` and `column` (1-based, or None when the error has no place), and \
     `output`, the official output of the complete commands or games before the error."
);

pyo3::create_exception!(
    arbiter,
    FixError,
    PyValueError,
    "Moves `fix` could not rewrite (an illegal or ambiguous move, broken PGN syntax, ...).\n\n\
     Attributes: `problems`, a list of `Problem`, and `text`, the input rewritten as far as it \
     could be (each part that could not be is kept as written), or None for a record."
);

pyo3::create_exception!(
    arbiter,
    InputWarning,
    PyUserWarning,
    "Input arbiter ignored, such as text after the last command a judge reads."
);

/// An [`InputError`] with `message`, placed at `at`, after `output`.
pub fn input_error(py: Python<'_>, message: String, at: Option<Place>, output: String) -> PyErr {
    let error = InputError::new_err(message);
    let value = error.value(py);
    let (line, column) = at.map(|at| (at.line, at.column)).unzip();
    // Setting attributes on a fresh exception instance cannot fail but for lack of memory, which
    // the next allocation reports anyway.
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("output", output);
    error
}

/// The [`InputError`] of a scan error, after `output`.
pub fn scan_error(py: Python<'_>, error: &ScanError, output: String) -> PyErr {
    input_error(py, error.to_string(), Some(error.place), output)
}

/// Warns with an [`InputWarning`], as from the caller's line.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let message = std::ffi::CString::new(message.replace('\0', "\\0"))
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    PyErr::warn(py, &py.get_type::<InputWarning>(), &message, 1)
}
