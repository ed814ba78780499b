//! The one way the command line writes: the official output (or JSON) on stdout, every message
//! on stderr in the form `FILE:LINE:COL: ...`, both buffered.
//!
//! A message costs a copy into a buffer, not a system call: the buffers are written out when
//! they fill, when a command is about to wait for input ([`Output::flush`]), and at the end.
//! When stdout and stderr are the same file (a terminal, `2>&1`, `/dev/null`), messages go into
//! stdout's buffer, so that each one stands right after the output line it is about without a
//! system call of its own. When stdout is a file or a pipe of its own, a second thread writes it
//! ([`Background`]), so that the copying into the kernel overlaps the work.

use std::fmt::Display;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, StderrLock, StdoutLock, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;

use arbiter_scan::Place;

use crate::background::Background;

/// Buffer size of each stream.
const BUFFER: usize = 1 << 16;

/// Standard output and standard error of one command, for messages about one input.
pub struct Output {
    out: Stdout,
    /// Standard error, unless it is the same file as standard output.
    err: Option<BufWriter<StderrLock<'static>>>,
    /// The input's name as messages give it: the file name, or `<stdin>`.
    source: String,
    /// Whether stderr is a terminal of its own, where each message is shown at once.
    err_terminal: bool,
}

impl Output {
    /// Output and messages about the input named `source` (`<stdin>` for standard input).
    pub fn new(source: &str) -> Output {
        let stderr = io::stderr();
        let shared = same_file();
        let background = match shared || io::stdout().is_terminal() {
            true => None,
            false => Background::stdout(),
        };
        Output {
            out: match background {
                Some(background) => Stdout::Background(background),
                None => Stdout::Direct(BufWriter::with_capacity(BUFFER, io::stdout().lock())),
            },
            err_terminal: !shared && stderr.is_terminal(),
            err: (!shared).then(|| BufWriter::with_capacity(BUFFER, stderr.lock())),
            source: source.to_owned(),
        }
    }

    /// Whether output and messages end in the same file, so that output held elsewhere (e.g. a
    /// judge's own buffer) must be handed over before a message about it.
    pub fn shared(&self) -> bool {
        self.err.is_none()
    }

    /// Writes the bytes of `chunk` on stdout, leaving it empty: handed as they are to the thread
    /// that writes stdout, if one does, instead of copied.
    pub fn take(&mut self, chunk: &mut Vec<u8>) -> io::Result<()> {
        match &mut self.out {
            Stdout::Direct(out) => {
                out.write_all(chunk)?;
                chunk.clear();
                Ok(())
            }
            Stdout::Background(out) => out.take(chunk),
        }
    }

    /// Writes a message line `FILE:LINE:COL: text`: an explanation (`text` is `what: why`).
    pub fn note(&mut self, at: Place, text: impl Display) {
        let source = &self.source;
        let _ = match &mut self.err {
            Some(err) => writeln!(err, "{source}:{at}: {text}"),
            None => writeln!(self.out, "{source}:{at}: {text}"),
        };
        self.after_message();
    }

    /// Writes `FILE:LINE:COL: warning: text`.
    pub fn warning(&mut self, at: Place, text: impl Display) {
        self.note(at, format_args!("warning: {text}"));
    }

    /// Writes text on stderr as it is, lines that belong to the message before (e.g. a board).
    pub fn attach(&mut self, text: &[u8]) {
        let _ = match &mut self.err {
            Some(err) => err.write_all(text),
            None => self.out.write_all(text),
        };
        self.after_message();
    }

    /// Shows a message at once on a terminal of its own. (A message that cannot be written has
    /// nowhere else to go: errors writing one are dropped.)
    fn after_message(&mut self) {
        if let (true, Some(err)) = (self.err_terminal, &mut self.err) {
            let _ = err.flush();
        }
    }
}

/// Standard output, as [`Output`] writes it.
enum Stdout {
    /// Through a buffer, by the thread that produces it.
    Direct(BufWriter<StdoutLock<'static>>),
    /// By a thread of its own.
    Background(Background),
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Direct(out) => out.write(buf),
            Stdout::Background(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Stdout::Direct(out) => out.write_all(buf),
            Stdout::Background(out) => out.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Direct(out) => out.flush(),
            Stdout::Background(out) => out.flush(),
        }
    }
}

/// Official output or JSON, on stdout.
impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    /// Writes out both streams.
    fn flush(&mut self) -> io::Result<()> {
        let out = self.out.flush();
        if let Some(err) = &mut self.err {
            let _ = err.flush();
        }
        out
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Whether standard output and standard error are the same file (same device and inode), as
/// with a terminal or `2>&1`.
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
