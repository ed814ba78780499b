//! Ctrl-C during long calls. The work runs without the GIL, where Python cannot run its signal
//! handlers; so the readers and writers of long calls take the GIL every [`EVERY`] to run them
//! (`Python::check_signals`), and give up with the exception a handler raised
//! (`KeyboardInterrupt` for Ctrl-C), carried in an `io::Error`, which the call then raises.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

/// How often a long call lets Python's signal handlers run.
const EVERY: Duration = Duration::from_millis(100);

/// Lets Python's signal handlers run every [`EVERY`] from a long loop without the GIL, which
/// asks [`Signals::go_on`] between its steps (tokens, games) and stops when it says no; the
/// exception a handler raised is then [`Signals::raised`].
pub struct Signals {
    last: Instant,
    raised: Option<PyErr>,
}

impl Signals {
    /// Signals last looked at now.
    pub fn new() -> Signals {
        Signals { last: Instant::now(), raised: None }
    }

    /// Whether the loop may go on: no signal handler has raised an exception.
    pub fn go_on(&mut self) -> bool {
        if self.raised.is_some() {
            return false;
        }
        if self.last.elapsed() < EVERY {
            return true;
        }
        self.last = Instant::now();
        self.raised = Python::attach(|py| py.check_signals()).err();
        self.raised.is_none()
    }

    /// The exception a signal handler raised (`KeyboardInterrupt` for Ctrl-C), if one did.
    pub fn raised(self) -> PyResult<()> {
        self.raised.map_or(Ok(()), Err)
    }
}

/// A reader or writer that lets Python's signal handlers run every [`EVERY`] while it is used.
pub struct Checked<T> {
    inner: T,
    last: Instant,
}

impl<T> Checked<T> {
    /// `inner`, checked.
    pub fn new(inner: T) -> Checked<T> {
        Checked { inner, last: Instant::now() }
    }

    /// The reader or writer itself.
    pub fn into_inner(self) -> T {
        self.inner
    }

    /// Runs Python's signal handlers if [`EVERY`] has passed since they last ran.
    fn check(&mut self) -> io::Result<()> {
        if self.last.elapsed() < EVERY {
            return Ok(());
        }
        self.last = Instant::now();
        // The exception travels as the io::Error's inner error, as a file object's do
        // (`crate::source::read_error` takes it out).
        Python::attach(|py| py.check_signals()).map_err(io::Error::other)
    }
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.read(buf)
    }
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
