//! Opening the input named on the command line, and the errors every subcommand reports.

use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use arbiter_duck::FenError;
use arbiter_scan::ScanError;

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
    /// A strict validator rejected inputs and has reported each one: exit status 3, testlib's
    /// status for a validator's failure.
    #[error("some test files are invalid")]
    Rejected,
    /// The user stopped a long run (Ctrl-C) and it ended cleanly: exit status 130, the shell's
    /// for SIGINT, after this message.
    #[error("{0}")]
    Interrupted(String),
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

/// An input opened for reading, with the name its messages use. It is read as a stream, in
/// bounded chunks ([`arbiter_scan::Scanner::from_reader`]): never mapped (a file truncated while
/// mapped would kill the process), never read whole.
#[derive(Debug)]
pub struct Opened {
    /// The file name as given, or `<stdin>`.
    pub name: String,
    /// The open file (standard input's descriptor, duplicated, for `<stdin>`).
    pub file: File,
}

impl Opened {
    /// Opens `path`, or standard input when it is `None` or `-`.
    pub fn open(path: Option<&Path>) -> Result<Opened, CliError> {
        let (name, file) = match path {
            Some(path) if path != Path::new("-") => (path.display().to_string(), File::open(path)),
            // Read through a descriptor of our own: the scanner buffers, so std's buffer
            // around standard input would only add a copy.
            _ => {
                let stdin = io::stdin().as_fd().try_clone_to_owned().map(File::from);
                ("<stdin>".to_owned(), stdin)
            }
        };
        let file = match file.and_then(|file| Ok((file.metadata()?, file))) {
            Ok((meta, _)) if meta.is_dir() => Err(io::Error::from(io::ErrorKind::IsADirectory)),
            Ok((_, file)) => Ok(file),
            Err(error) => Err(error),
        };
        match file {
            Ok(file) => Ok(Opened { name, file }),
            Err(error) => Err(CliError::Read { source_name: name, error }),
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

/// The message for a `--fen` that is not a position: `--fen:1:COL: expected ..., found ...`.
pub fn fen_error(error: FenError) -> CliError {
    CliError::Message(match error {
        FenError::Parse(error) => {
            format!(
                "--fen:1:{}: expected {}, found {}",
                error.index + 1,
                error.expected,
                error.found
            )
        }
        FenError::Position(error) => {
            format!("--fen:1:1: expected a position of the game, found {error}")
        }
    })
}
