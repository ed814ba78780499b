//! The one way the command line writes: the official output (or JSON) on stdout, every message
//! on stderr in the form `FILE:LINE:COL: ...`, both buffered.
//!
//! A message costs a copy into a buffer, not a system call: the buffers are written out when
//! they fill, when a command is about to wait for input ([`Report::flush`]), and at the end.
//! When stdout and stderr are the same file (a terminal, or `2>&1`), each stream is written out
//! before the other is written to, so that every message stands right after the output line it
//! is about.

use std::fmt::Display;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, StderrLock, StdoutLock, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;

use arbiter_scan::Position;

/// Buffer size of each stream.
const BUFFER: usize = 1 << 16;

/// Standard output and standard error of one command, for messages about one input.
pub struct Report {
    out: BufWriter<StdoutLock<'static>>,
    err: BufWriter<StderrLock<'static>>,
    /// The input's name as messages give it: the file name, or `<stdin>`.
    source: String,
    /// Whether stdout and stderr end in the same file.
    shared: bool,
    /// Whether stderr is a terminal, where each message is shown at once.
    err_terminal: bool,
    /// Whether stderr was written to last (in a shared file, it goes out before stdout does).
    err_last: bool,
}

impl Report {
    /// Output and messages about the input named `source` (`<stdin>` for standard input).
    pub fn new(source: &str) -> Report {
        let stderr = io::stderr();
        Report {
            out: BufWriter::with_capacity(BUFFER, io::stdout().lock()),
            err_terminal: stderr.is_terminal(),
            err: BufWriter::with_capacity(BUFFER, stderr.lock()),
            source: source.to_owned(),
            shared: same_file(),
            err_last: false,
        }
    }

    /// Whether output and messages end in the same file, so that output held elsewhere (e.g. a
    /// judge's own buffer) must be handed over before a message about it.
    pub fn shared(&self) -> bool {
        self.shared
    }

    /// Writes a message line `FILE:LINE:COL: text`: an explanation (`text` is `what: why`).
    pub fn note(&mut self, at: Position, text: impl Display) {
        self.before_message();
        let _ = writeln!(self.err, "{}:{at}: {text}", self.source);
        self.after_message();
    }

    /// Writes `FILE:LINE:COL: warning: text`.
    pub fn warning(&mut self, at: Position, text: impl Display) {
        self.before_message();
        let _ = writeln!(self.err, "{}:{at}: warning: {text}", self.source);
        self.after_message();
    }

    /// Writes text on stderr as it is, lines that belong to the message before (e.g. a board).
    pub fn attach(&mut self, text: &[u8]) {
        self.before_message();
        let _ = self.err.write_all(text);
        self.after_message();
    }

    /// Prepares stderr for a message. (A message that cannot be written has nowhere else to go:
    /// its errors are dropped, as are those of stdout's flush here, which the next write to
    /// stdout reports.)
    fn before_message(&mut self) {
        if self.shared && !self.err_last {
            let _ = self.out.flush();
        }
        self.err_last = true;
    }

    fn after_message(&mut self) {
        if self.err_terminal {
            let _ = self.err.flush();
        }
    }

    fn before_output(&mut self) {
        if self.shared && self.err_last {
            let _ = self.err.flush();
        }
        self.err_last = false;
    }
}

/// Official output or JSON, on stdout.
impl Write for Report {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.before_output();
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.before_output();
        self.out.write_all(buf)
    }

    /// Writes out both streams, stderr last.
    fn flush(&mut self) -> io::Result<()> {
        let out = self.out.flush();
        let _ = self.err.flush();
        out
    }
}

impl Drop for Report {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Whether standard output and standard error are the same open file (same device and inode),
/// as with a terminal or `2>&1`.
fn same_file() -> bool {
    let identity = |fd: std::os::fd::BorrowedFd<'_>| {
        let file = File::from(fd.try_clone_to_owned().ok()?);
        let meta = file.metadata().ok()?;
        Some((meta.dev(), meta.ino()))
    };
    let out = identity(io::stdout().as_fd());
    out.is_some() && out == identity(io::stderr().as_fd())
}

/// Writes one line on stderr in one system call (the final error of a command).
pub fn write_line(text: impl Display) {
    let _ = io::stderr().lock().write_all(format!("{text}\n").as_bytes());
}
