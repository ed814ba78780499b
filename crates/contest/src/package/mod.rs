//! Problem packages that judge systems import: each game's statement, samples, test data chosen
//! to reach every corner of the rules, validator and solutions, laid out as the Kattis problem
//! package format ([`kattis`], which DOMjudge imports) or as a Polygon package ([`polygon`]).
//!
//! ```
//! use arbiter_contest::duck::DuckProblem;
//! use arbiter_contest::package::{Format, build};
//!
//! let package = build::<DuckProblem>(Format::Kattis);
//! assert!(package.files().iter().any(|file| file.path == "problem.yaml"));
//! assert!(package.files().iter().any(|file| file.path == "data/sample/1.in"));
//! ```
//!
//! What a package holds is decided once, whatever its layout: [`contents`] gathers it from a
//! game's [`Packaged`] description ([`duck`], [`chess`], [`arena`]), with the generated tests
//! chosen by [`select`]. Nothing is random: the same version of arbiter builds the same bytes.

mod arena;
mod chess;
pub mod contents;
mod duck;
pub mod kattis;
pub mod polygon;
pub mod select;

use std::fmt;
use std::io;
use std::path::Path;

use arbiter_scan::Invalid;

use crate::setup::Setup;

pub use contents::{Code, Contents, Solution, Statement, Test, Verdict};

/// A layout of a problem package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The Kattis problem package format (legacy version), which DOMjudge imports.
    Kattis,
    /// A Polygon package: `problem.xml` with tests, checker, validator and solutions.
    Polygon,
}

impl Format {
    /// Both formats, with their names on the command line.
    pub const ALL: [(Format, &'static str); 2] =
        [(Format::Kattis, "kattis"), (Format::Polygon, "polygon")];
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Format::ALL.iter().find(|(format, _)| format == self).map_or("?", |(_, n)| n);
        f.write_str(name)
    }
}

/// A game that arbiter can package as a contest problem.
pub trait Packaged: Setup {
    /// The problem's title.
    const TITLE: &'static str;
    /// The short name judge systems file the problem under, e.g. `duckchess`.
    const SHORT_NAME: &'static str;
    /// The problem's identity for judge systems (a UUID, fixed once for the game).
    const UUID: &'static str;
    /// The time limit of one run, in seconds.
    const TIME_LIMIT_SECONDS: u32;
    /// The memory limit of one run, in MiB.
    const MEMORY_LIMIT_MIB: u32;
    /// The corners of the rules and the limits, as the strict validator names them.
    const CORNERS: &'static [&'static str];
    /// The generated tests: a profile name, an optional size (as `--size` writes it) and how
    /// many tests of that choice may be kept at most.
    const PLAN: &'static [(&'static str, Option<&'static str>, usize)];

    /// The options the package's answers are computed with.
    fn options() -> Self::Options;

    /// The strict validator's ruling on `input`: which corners it reaches, or where it breaks
    /// the format.
    fn corners(input: &[u8]) -> Result<Vec<bool>, Invalid>;

    /// What [`Packaged::normalize`] does to an input it changes, as a note after the `gen`
    /// command that printed the input (empty when it changes nothing).
    const NORMALIZED: &'static str = "";

    /// A generated `input` as the statement's format writes it: `gen` may write more freely
    /// than the statement (the arena's obstacles are any nonzero number).
    fn normalize(input: &str) -> String {
        input.to_owned()
    }

    /// Handwritten tests for corners no profile reaches: (name, input).
    fn handwritten() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// Whether a generated `input` may be a test: the accepted solutions must agree with the
    /// package's answer (the arena's near-ties are left out).
    fn usable(_input: &str) -> bool {
        true
    }

    /// The statement, in the project's own words.
    fn statement() -> Statement;

    /// The samples of the statement: (name, input).
    fn samples() -> Vec<(&'static str, &'static str)>;

    /// The official test data: (name, input).
    fn official() -> Vec<(&'static str, &'static str)>;

    /// The solutions shipped with the package, accepted and wrong.
    fn solutions() -> Vec<Solution>;
}

/// One file of a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Its path inside the package, with `/` between directories.
    pub path: String,
    /// Its contents.
    pub bytes: Vec<u8>,
    /// Whether it is a program to run (mode 755 rather than 644).
    pub executable: bool,
}

/// A package's files, sorted by path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Package {
    files: Vec<File>,
}

/// How large a package is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// The number of files.
    pub files: usize,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl Package {
    /// Adds a file (replacing one at the same path).
    pub fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.insert(File { path: path.into(), bytes: bytes.into(), executable: false });
    }

    /// Adds a program to run, with mode 755.
    pub fn add_executable(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.insert(File { path: path.into(), bytes: bytes.into(), executable: true });
    }

    fn insert(&mut self, file: File) {
        match self.files.binary_search_by(|f| f.path.cmp(&file.path)) {
            Ok(at) => self.files[at] = file,
            Err(at) => self.files.insert(at, file),
        }
    }

    /// The files, sorted by path.
    pub fn files(&self) -> &[File] {
        &self.files
    }

    /// The number of files and their total size.
    pub fn size(&self) -> Size {
        Size {
            files: self.files.len(),
            bytes: self.files.iter().map(|file| file.bytes.len() as u64).sum(),
        }
    }

    /// Writes the package under `dir`, which must not exist or be empty, so that no file of an
    /// older package is left among the new ones.
    pub fn write(&self, dir: &Path) -> Result<Size, PackageError> {
        let occupied = match std::fs::read_dir(dir) {
            Ok(mut entries) => entries.next().is_some(),
            Err(error) if error.kind() == io::ErrorKind::NotFound => false,
            Err(error) => return Err(PackageError::io(dir, error)),
        };
        if occupied {
            return Err(PackageError::NotEmpty(dir.display().to_string()));
        }
        for file in &self.files {
            let path = dir.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| PackageError::io(parent, e))?;
            }
            std::fs::write(&path, &file.bytes).map_err(|e| PackageError::io(&path, e))?;
            if file.executable {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::Permissions::from_mode(0o755);
                std::fs::set_permissions(&path, mode).map_err(|e| PackageError::io(&path, e))?;
            }
        }
        Ok(self.size())
    }
}

/// Why a package could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The directory already holds files.
    #[error("{0}: not empty; a package is written into a new or empty directory")]
    NotEmpty(String),
    /// A file or directory could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// What went wrong.
        source: io::Error,
    },
}

impl PackageError {
    fn io(path: &Path, source: io::Error) -> PackageError {
        PackageError::Io { path: path.display().to_string(), source }
    }
}

/// The package of game `G` in `format`.
pub fn build<G: Packaged>(format: Format) -> Package {
    let contents = contents::gather::<G>();
    match format {
        Format::Kattis => kattis::layout(&contents),
        Format::Polygon => polygon::layout(&contents),
    }
}
