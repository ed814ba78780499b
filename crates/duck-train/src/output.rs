//! The file a long run writes at its end, made safe before the run starts: its directory must
//! take a new file, it must not be one of the run's inputs, and it is written whole to a
//! temporary file beside it, then renamed over the path, so that a run that fails or is stopped
//! leaves what was there before.
//!
//! ```
//! use std::io::Write;
//!
//! use arbiter_duck_train::output::Output;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let data = dir.path().join("data.bin");
//! std::fs::write(&data, b"positions").unwrap();
//! // The output may not be an input, under any name.
//! assert!(Output::new(&data, &[&data]).is_err());
//! // A file in a directory that does not exist is refused before any work.
//! assert!(Output::new(&dir.path().join("missing/net.nnue"), &[&data]).is_err());
//! let mut out = Output::new(&dir.path().join("net.nnue"), &[&data]).unwrap();
//! out.file().write_all(b"weights").unwrap();
//! out.commit().unwrap();
//! assert_eq!(std::fs::read(dir.path().join("net.nnue")).unwrap(), b"weights");
//! ```

use std::fs::{File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Why the output cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output is one of the inputs (the same file under another name, a symbolic link to
    /// it or a hard link).
    #[error("{}: the output is the input {}: writing it would destroy it", out.display(), input.display())]
    IsInput {
        /// The output's path.
        out: PathBuf,
        /// The input's path.
        input: PathBuf,
    },
    /// The output's directory does not take a new file.
    #[error("{}: cannot write a file in {}: {source}", out.display(), dir.display())]
    Directory {
        /// The output's path.
        out: PathBuf,
        /// Its directory.
        dir: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Writing or renaming failed.
    #[error("{}: {source}", out.display())]
    Write {
        /// The output's path.
        out: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// An output file readied: a temporary file beside its path, renamed over it by
/// [`commit`](Output::commit); dropped without a commit, it leaves nothing behind.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    temporary: NamedTempFile,
}

/// The device and inode of a file: the same for every name it has.
#[cfg(unix)]
fn identity(metadata: &Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

impl Output {
    /// Readies `path` for writing, refusing it if it names the same file as one of `inputs`
    /// (compared by device and inode, through symbolic links), or if its directory does not
    /// exist or cannot take a new file.
    pub fn new(path: &Path, inputs: &[&Path]) -> Result<Output, OutputError> {
        if std::fs::metadata(path).is_ok_and(|out| out.is_dir()) {
            let source = io::Error::from(io::ErrorKind::IsADirectory);
            return Err(OutputError::Write { out: path.to_owned(), source });
        }
        #[cfg(unix)]
        if let Ok(out) = std::fs::metadata(path) {
            for input in inputs {
                if std::fs::metadata(input).is_ok_and(|input| identity(&input) == identity(&out)) {
                    let input = input.to_path_buf();
                    return Err(OutputError::IsInput { out: path.to_owned(), input });
                }
            }
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let prefix = format!(
            ".{}.",
            path.file_name().map_or_else(|| "out".into(), |name| name.to_string_lossy())
        );
        let mut builder = tempfile::Builder::new();
        // A file anyone may read, as `std::fs::write` would make it (less the umask), rather
        // than the temporary file's private 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temporary =
            builder.prefix(&prefix).suffix(".tmp").tempfile_in(dir).map_err(|source| {
                OutputError::Directory { out: path.to_owned(), dir: dir.to_owned(), source }
            })?;
        Ok(Output { path: path.to_owned(), temporary })
    }

    /// The temporary file to write the output to.
    pub fn file(&mut self) -> &mut File {
        self.temporary.as_file_mut()
    }

    /// The path the output is renamed to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes the temporary file to the disk and renames it over the output's path.
    pub fn commit(self) -> Result<(), OutputError> {
        let out = self.path;
        let failed = |source| OutputError::Write { out: out.clone(), source };
        self.temporary.as_file().sync_all().map_err(failed)?;
        self.temporary.persist(&out).map_err(|error| failed(error.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn an_input_under_any_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.bin");
        std::fs::write(&data, b"positions").unwrap();
        let symlink = dir.path().join("symlink.bin");
        std::os::unix::fs::symlink(&data, &symlink).unwrap();
        let hard = dir.path().join("hard.bin");
        std::fs::hard_link(&data, &hard).unwrap();
        let other = dir.path().join("other.bin");
        std::fs::write(&other, b"other").unwrap();
        let dotted = dir.path().join(".").join("data.bin");
        for out in [&data, &symlink, &hard, &dotted] {
            let error = Output::new(out, &[&other, &data]).unwrap_err();
            assert!(matches!(error, OutputError::IsInput { .. }), "{}: {error}", out.display());
            // The input named through a link is caught as well.
            assert!(Output::new(&data, &[out]).is_err());
        }
        assert_eq!(std::fs::read(&data).unwrap(), b"positions");
        assert!(Output::new(&dir.path().join("net.nnue"), &[&data, &other]).is_ok());
    }

    #[test]
    fn an_unwritable_directory_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing").join("net.nnue");
        let error = Output::new(&missing, &[]).unwrap_err();
        assert!(matches!(error, OutputError::Directory { .. }), "{error}");
        // A directory standing where the file should be: refused now, not at the rename.
        assert!(matches!(Output::new(dir.path(), &[]), Err(OutputError::Write { .. })));
        // A file standing where the directory should be.
        let file = dir.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert!(Output::new(&file.join("net.nnue"), &[]).is_err());
    }

    #[test]
    fn nothing_is_left_without_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("net.nnue");
        std::fs::write(&path, b"before").unwrap();
        let mut out = Output::new(&path, &[]).unwrap();
        out.file().write_all(b"half").unwrap();
        drop(out);
        assert_eq!(std::fs::read(&path).unwrap(), b"before");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut out = Output::new(&path, &[]).unwrap();
        out.file().write_all(b"after").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"after");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

        // The permissions of any file written, not those of a private temporary file.
        use std::os::unix::fs::PermissionsExt;
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"").unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode();
        assert_eq!(mode(&path), mode(&plain));
    }
}
