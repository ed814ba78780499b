//! Reading the input named on the command line, and the errors every subcommand reports.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use arbiter_scan::ScanError;
use memmap2::Mmap;

/// Everything that ends a subcommand with exit status 2, printed as one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Malformed input, at a line and column of a named source.
    #[error("{source_name}:{error}")]
    Scan { source_name: String, error: ScanError },
    /// A file that cannot be read. Like every input error it has the form
    /// `FILE:LINE:COL: expected ..., found ...`; the place is the start of the file.
    #[error("{source_name}:1:1: expected a readable file, found {}", unreadable(error))]
    Read { source_name: String, error: io::Error },
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(io::Error),
    /// Any other failure, already worded for the user.
    #[error("{0}")]
    Message(String),
    /// A validator found wrong inputs and has reported each one: exit status 1, nothing more
    /// printed (2 stays for input that cannot be used at all).
    #[error("some inputs are wrong")]
    Findings,
    /// The reader of our output went away (`arbiter duck | head`): stop quietly.
    #[error("broken pipe")]
    BrokenPipe,
}

/// What stands where a readable file was expected, in words.
fn unreadable(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "a file without read permission".to_owned(),
        io::ErrorKind::IsADirectory => "a directory".to_owned(),
        _ => format!("an error reading it: {error}"),
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Write(error)
        }
    }
}

/// A whole input with the name its messages use.
#[derive(Debug)]
pub struct Input {
    /// The file name as given, or `<stdin>`.
    pub name: String,
    text: Text,
}

#[derive(Debug)]
enum Text {
    /// Read into memory; bytes that are not UTF-8 became U+FFFD and fail to parse like any bad
    /// token.
    Owned(String),
    /// A regular file mapped into memory, checked to be UTF-8.
    Mapped(Mmap),
}

impl Input {
    /// Reads `path`, or standard input when it is `None` or `-`.
    ///
    /// A regular file (standard input redirected from one included) is mapped rather than copied:
    /// the official judges' inputs are read once, front to back, and mapping saves copying them.
    pub fn read(path: Option<&Path>) -> Result<Input, CliError> {
        let (name, file) = match path {
            Some(path) if path != Path::new("-") => {
                let name = path.display().to_string();
                let file = File::open(path);
                (name, file)
            }
            _ => {
                let stdin = io::stdin().as_fd().try_clone_to_owned().map(File::from);
                ("<stdin>".to_owned(), stdin)
            }
        };
        let read_error = |error| CliError::Read { source_name: name.clone(), error };
        let mut file = file.map_err(read_error)?;
        let regular = file.metadata().map_err(read_error)?;
        if regular.is_file() && regular.len() > 0 {
            // SAFETY: the map is only read. If another process truncated or rewrote the file while
            // we read it, we could see torn or vanishing bytes (or a SIGBUS on truncation); like
            // other command-line tools that map their inputs, we accept that for files given to us.
            if let Ok(map) = unsafe { Mmap::map(&file) }
                && std::str::from_utf8(&map).is_ok()
            {
                return Ok(Input { name, text: Text::Mapped(map) });
            }
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(read_error)?;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        };
        Ok(Input { name, text: Text::Owned(text) })
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        match &self.text {
            Text::Owned(text) => text,
            // SAFETY: checked to be UTF-8 in `read`; the bytes can only change under us through
            // the outside modification already accepted there.
            Text::Mapped(map) => unsafe { std::str::from_utf8_unchecked(map) },
        }
    }

    /// A scan error located in this input.
    pub fn error(&self, error: ScanError) -> CliError {
        CliError::Scan { source_name: self.name.clone(), error }
    }
}

/// The optional input file shared by every judge subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct FileArg {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// Writes `warning` on stderr, prefixed like the error messages.
pub fn warn(source_name: &str, warning: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{source_name}:{warning}");
}
