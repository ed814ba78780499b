//! Reading the input named on the command line, and the errors every subcommand reports.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use arbiter_scan::ScanError;

/// Everything that ends a subcommand with exit status 2, printed as one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Malformed input, at a line and column of a named source.
    #[error("{source_name}:{error}")]
    Scan { source_name: String, error: ScanError },
    /// A file that cannot be read.
    #[error("{source_name}: cannot read: {error}")]
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

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Write(error)
        }
    }
}

/// A whole input, read into memory, with the name its messages use.
#[derive(Debug)]
pub struct Input {
    /// The file name as given, or `<stdin>`.
    pub name: String,
    /// The text; bytes that are not UTF-8 become U+FFFD and then fail to parse like any bad token.
    pub text: String,
}

impl Input {
    /// Reads `path`, or standard input when it is `None` or `-`.
    pub fn read(path: Option<&Path>) -> Result<Input, CliError> {
        let mut bytes = Vec::new();
        let name = match path {
            Some(path) if path != Path::new("-") => {
                let name = path.display().to_string();
                bytes = fs::read(path)
                    .map_err(|error| CliError::Read { source_name: name.clone(), error })?;
                name
            }
            _ => {
                let name = "<stdin>".to_owned();
                io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|error| CliError::Read { source_name: name.clone(), error })?;
                name
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        };
        Ok(Input { name, text })
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
