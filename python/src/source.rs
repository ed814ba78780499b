//! Where PGN comes from: text in memory (`str` or `bytes`), a path (`str` or `os.PathLike`), or a
//! Python file object (binary, or text, whose characters are read as UTF-8); compressed or not.
//! And how an error met while reading becomes a Python exception.

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::PathBuf;

use arbiter_chess_record::pgn::{Compression, NulByte, decompressed};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use crate::errors::input_error;
use crate::interrupt::Checked;

/// A stream of PGN, decompressed as it is read.
pub struct Source {
    /// How it is compressed.
    pub compression: Compression,
    /// Its text.
    pub reader: Box<dyn Read + Send>,
    /// The path it was opened from, for the messages of errors met reading it.
    pub path: Option<PathBuf>,
}

impl Source {
    /// PGN text in memory: a `str` (read as UTF-8) or a bytes-like object, compressed or not.
    pub fn text(text: &Bound<'_, PyAny>) -> PyResult<Source> {
        let bytes = text_bytes(text)?;
        let (compression, reader) = decompressed(Checked::new(Cursor::new(bytes)))
            .map_err(|error| read_error(text.py(), error, Compression::None, 1, None))?;
        Ok(Source { compression, reader, path: None })
    }

    /// A path (`str` or `os.PathLike`) or a file object with a `read` method.
    pub fn open(file: &Bound<'_, PyAny>) -> PyResult<Source> {
        let py = file.py();
        if file.is_instance_of::<PyString>() || file.hasattr(intern!(py, "__fspath__"))? {
            let path: PathBuf = file.extract()?;
            let opened = File::open(&path).and_then(|opened| {
                // Opening a directory succeeds on Unix; reading it would not.
                if opened.metadata()?.is_dir() {
                    return Err(io::Error::from(io::ErrorKind::IsADirectory));
                }
                Ok(opened)
            });
            let opened = opened.map_err(|error| os_error(py, &error, Some(&path)))?;
            let (compression, reader) = decompressed(Checked::new(opened))
                .map_err(|error| read_error(py, error, Compression::None, 1, Some(&path)))?;
            return Ok(Source { compression, reader, path: Some(path) });
        }
        if file.hasattr(intern!(py, "read"))? {
            let reader = FileObject { file: file.clone().unbind(), pending: Vec::new(), used: 0 };
            let (compression, reader) = decompressed(Checked::new(reader))
                .map_err(|error| read_error(py, error, Compression::None, 1, None))?;
            return Ok(Source { compression, reader, path: None });
        }
        Err(PyTypeError::new_err(format!(
            "expected a path (str or os.PathLike) or a file object, found {}",
            file.get_type().name()?
        )))
    }
}

/// The bytes of PGN text given in memory: a `str` as UTF-8, or a bytes-like object.
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if text.is_instance_of::<PyString>() {
        return Ok(text.extract::<String>()?.into_bytes());
    }
    if let Ok(bytes) = text.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = text.cast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "expected PGN as str or bytes, found {}",
        text.get_type().name()?
    )))
}

/// How much a read asks a Python file object for at a time.
const CHUNK: usize = 256 << 10;

/// A Python file object read from Rust: each read takes the GIL for the call to its `read`.
struct FileObject {
    file: Py<PyAny>,
    /// What the last call returned, and how much of it has been handed out.
    pending: Vec<u8>,
    used: usize,
}

impl Read for FileObject {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.used == self.pending.len() {
            self.pending = Python::attach(|py| self.read_chunk(py)).map_err(io::Error::other)?;
            self.used = 0;
        }
        let n = buf.len().min(self.pending.len() - self.used);
        buf[..n].copy_from_slice(&self.pending[self.used..self.used + n]);
        self.used += n;
        Ok(n)
    }
}

impl FileObject {
    /// Calls `read`: bytes as they are, characters (a file opened in text mode) as UTF-8.
    fn read_chunk(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        let chunk = self.file.bind(py).call_method1(intern!(py, "read"), (CHUNK,))?;
        if let Ok(bytes) = chunk.cast::<PyBytes>() {
            return Ok(bytes.as_bytes().to_vec());
        }
        if chunk.is_instance_of::<PyString>() {
            return Ok(chunk.extract::<String>()?.into_bytes());
        }
        if let Ok(bytes) = chunk.cast::<PyByteArray>() {
            return Ok(bytes.to_vec());
        }
        Err(PyTypeError::new_err(format!(
            "the file object's read() returned {}, expected bytes or str",
            chunk.get_type().name()?
        )))
    }
}

/// The exception for an error met reading a stream compressed with `compression`, at `line`
/// of its text: the Python exception a file object's `read` raised, as it was; an `OSError` for
/// a file that cannot be read; an `InputError` for a compressed stream that is broken.
pub fn read_error(
    py: Python<'_>,
    error: io::Error,
    compression: Compression,
    line: u32,
    path: Option<&PathBuf>,
) -> PyErr {
    let error = match error.downcast::<PyErr>() {
        Ok(raised) => return raised,
        Err(error) => error,
    };
    if error.raw_os_error().is_some() {
        return os_error(py, &error, path);
    }
    if let Some(nul) = NulByte::of(&error) {
        // Reading stops at a NUL byte, which no text holds: an input error at its place.
        return input_error(py, nul.to_string(), Some(nul.at), String::new());
    }
    let at = arbiter_scan::Place { line, column: 1 };
    let message = match compression {
        Compression::None => {
            format!("{at}: expected more text, found an error reading it: {error}")
        }
        kind => format!("{at}: expected valid {kind}, found {error}"),
    };
    input_error(py, message, Some(at), String::new())
}

/// Python's `OSError` for `error` on `path`: `OSError(errno, strerror, filename)`, which Python
/// turns into the subclass the error number calls for (`FileNotFoundError`, ...).
fn os_error(py: Python<'_>, error: &io::Error, path: Option<&PathBuf>) -> PyErr {
    let errno = error.raw_os_error().or_else(|| {
        let name = match error.kind() {
            io::ErrorKind::IsADirectory => "EISDIR",
            _ => return None,
        };
        let errno = py.import(intern!(py, "errno")).and_then(|errno| errno.getattr(name));
        errno.and_then(|errno| errno.extract::<i32>()).ok()
    });
    let Some(errno) = errno else {
        return PyOSError::new_err(error.to_string());
    };
    let strerror = py
        .import(intern!(py, "os"))
        .and_then(|os| os.call_method1(intern!(py, "strerror"), (errno,)))
        .and_then(|text| text.extract::<String>())
        .unwrap_or_else(|_| error.to_string());
    let path = path.map(|path| path.as_os_str().to_owned());
    match py.get_type::<PyOSError>().call1((errno, strerror, path)) {
        Ok(raised) => PyErr::from_value(raised),
        Err(failed) => failed,
    }
}
