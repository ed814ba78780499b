//! Opening a file a user named: a regular file only, opened without blocking, its size known
//! before a byte is read.
//!
//! A path can name a FIFO, whose opening blocks until someone writes (a UCI loop waiting there
//! would not even see `quit`), or a device such as `/dev/zero` that never ends. Both are refused:
//! the file is opened with `O_NONBLOCK` (which regular files ignore) and must then be a regular
//! file. Its length is then a fact to check against what the reader expects, before reading.
//!
//! ```
//! use arbiter_duck_engine::file;
//!
//! let error = file::open(std::path::Path::new("/dev/null")).unwrap_err();
//! assert_eq!(error.to_string(), "a character device, not a regular file");
//! ```

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Opens `path` for reading; an error unless it is a regular file (a symbolic link to one is
/// followed).
pub fn open(path: &Path) -> io::Result<(File, Metadata)> {
    let mut options = OpenOptions::new();
    options.read(true);
    open_with(path, &mut options)
}

/// Opens `path` with `options`, without blocking on a FIFO; an error unless it is a regular
/// file.
pub fn open_with(path: &Path, options: &mut OpenOptions) -> io::Result<(File, Metadata)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    regular(&metadata)?;
    Ok((file, metadata))
}

/// An error of kind `InvalidInput` unless `metadata` is that of a regular file, naming what it
/// is instead.
pub fn regular(metadata: &Metadata) -> io::Result<()> {
    if metadata.is_file() {
        return Ok(());
    }
    let kind = kind(metadata);
    Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{kind}, not a regular file")))
}

/// What a file that is not a regular file is, in words.
fn kind(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    if file_type.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// The error for a file of `length` bytes where at most `limit` are read.
pub fn too_large(length: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{length} bytes, over the limit of {limit} bytes for this file"),
    )
}

/// The whole of the regular file `path`, refused unread when it is longer than `limit` bytes.
/// A file that grows while it is read is read to the length it had when opened.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, metadata) = open(path)?;
    read_opened(file, metadata.len(), limit)
}

/// `length` bytes of `file` (its length when opened), refused unread over `limit`.
pub fn read_opened(file: File, length: u64, limit: u64) -> io::Result<Vec<u8>> {
    if length > limit {
        return Err(too_large(length, limit));
    }
    let capacity = usize::try_from(length).map_err(|_| too_large(length, limit))?;
    let mut bytes = Vec::with_capacity(capacity);
    file.take(length).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_directories_are_refused() {
        for (path, kind) in [("/dev/zero", "a character device"), (".", "a directory")] {
            let error = read_limited(Path::new(path), 1 << 20).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{path}");
            assert_eq!(error.to_string(), format!("{kind}, not a regular file"));
        }
    }

    #[test]
    fn a_file_over_the_limit_is_not_read() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let length = std::fs::metadata(&path).unwrap().len();
        assert_eq!(read_limited(&path, length).unwrap().len() as u64, length);
        let error = read_limited(&path, length - 1).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
    }
}
