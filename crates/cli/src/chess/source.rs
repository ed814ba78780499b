//! The PGN inputs of `chess pgn` and `chess fix`: a file or standard input, read in chunks and
//! decompressed as it is read (gzip, bzip2, zstd, by their first bytes), with the count of bytes
//! read for a progress bar.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arbiter_chess_record::pgn::{Compression, NulByte, decompressed};

use crate::input::CliError;

/// An input opened for reading.
pub struct Source {
    /// The name messages use: the path as given, or `<stdin>`.
    pub name: String,
    /// How it is compressed.
    pub compression: Compression,
    /// Its text, decompressed.
    pub reader: Box<dyn Read + Send>,
    /// Its size on disk, when it is a regular file.
    pub size: Option<u64>,
    /// How many bytes of it (as stored, compressed or not) have been read so far.
    pub read: Arc<AtomicU64>,
}

/// Counts the bytes read through it.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Source {
    /// Opens `path`, or standard input when it is `None` or `-`.
    pub fn open(path: Option<&Path>) -> Result<Source, CliError> {
        let (name, file) = match path {
            Some(path) if path != Path::new("-") => {
                let name = path.display().to_string();
                let file = File::open(path).and_then(|file| {
                    // Opening a directory succeeds; reading it would not.
                    if file.metadata()?.is_dir() {
                        return Err(io::Error::from(io::ErrorKind::IsADirectory));
                    }
                    Ok(file)
                });
                (name, file)
            }
            _ => {
                if stdin_closed() {
                    return Err(CliError::Message(
                        "<stdin>:1:1: expected PGN on standard input, found it closed".to_owned(),
                    ));
                }
                let stdin = std::os::fd::AsFd::as_fd(&io::stdin()).try_clone_to_owned();
                ("<stdin>".to_owned(), stdin.map(File::from))
            }
        };
        let read_error = |error| CliError::Read { source_name: name.clone(), error };
        let file = file.map_err(read_error)?;
        let size = file.metadata().ok().filter(|meta| meta.is_file()).map(|meta| meta.len());
        let read = Arc::new(AtomicU64::new(0));
        let counted = Counted { inner: file, read: Arc::clone(&read) };
        let (compression, reader) = decompressed(counted).map_err(read_error)?;
        Ok(Source { name, compression, reader, size, read })
    }

    /// The text's reader, taken out to be read elsewhere (on a thread of its own); nothing is
    /// read through the source after.
    pub fn take_reader(&mut self) -> Box<dyn Read + Send> {
        std::mem::replace(&mut self.reader, Box::new(io::empty()))
    }

    /// The message for an error met while reading the input, at `line` of its text.
    pub fn error(&self, line: u32, error: &io::Error) -> String {
        if let Some(nul) = NulByte::of(error) {
            return format!("{}:{nul}", self.name);
        }
        match self.compression {
            Compression::None => format!(
                "{}:{line}:1: expected more text, found an error reading it: {error}",
                self.name
            ),
            kind => format!("{}:{line}:1: expected valid {kind}, found {error}", self.name),
        }
    }
}

/// Whether standard input was closed when arbiter started. The Rust runtime puts `/dev/null` in
/// place of a closed standard input, so that is what is looked for; reading `/dev/null` on
/// purpose gives nothing to check either.
fn stdin_closed() -> bool {
    let Ok(stdin) = std::os::fd::AsFd::as_fd(&io::stdin()).try_clone_to_owned() else {
        return true;
    };
    let (Ok(meta), Ok(null)) = (File::from(stdin).metadata(), std::fs::metadata("/dev/null"))
    else {
        return false;
    };
    meta.file_type().is_char_device() && meta.rdev() == null.rdev()
}

/// A progress bar on stderr, when it is a terminal and the input is large or of unknown size:
/// bytes read and games found.
pub fn progress_bar(source: &Source) -> Option<indicatif::ProgressBar> {
    /// Inputs smaller than this get no progress bar.
    const PROGRESS_BYTES: u64 = 8 << 20;
    if !io::stderr().is_terminal() || source.size.is_some_and(|size| size < PROGRESS_BYTES) {
        return None;
    }
    let (bar, template) = match source.size {
        Some(size) => (
            indicatif::ProgressBar::new(size),
            "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}  {msg}",
        ),
        None => (indicatif::ProgressBar::new_spinner(), "{spinner} {bytes} {bytes_per_sec}  {msg}"),
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    Some(bar)
}
