//! Where a scanner's bytes come from: a string held whole, or a reader read in chunks.

use std::io::{self, Read};

/// The bytes a [`Scanner`](crate::Scanner) reads: a window onto the input, refilled on demand.
///
/// Implemented by [`Text`] (a string held whole) and [`Stream`] (any [`Read`], read in bounded
/// chunks); code that reads a format is written once, generic over the source.
pub trait Source {
    /// The bytes at hand: always whole UTF-8 characters (a stream turns invalid bytes into
    /// U+FFFD as it reads them).
    fn window(&self) -> &[u8];

    /// Whether the input ends where the window ends: nothing more will ever be read.
    fn is_exhausted(&self) -> bool;

    /// Forgets the first `drop` bytes of the window and reads more input after its end. Returns
    /// whether any byte was added; `false` means the input has ended (or could not be read, see
    /// [`Source::read_error`]) and [`Source::is_exhausted`] is then `true`.
    fn refill(&mut self, drop: usize) -> bool;

    /// Why reading stopped early, if it did.
    fn read_error(&self) -> Option<&io::Error>;
}

/// A string held whole: the window is the whole text, and nothing is ever read.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a>(pub(crate) &'a str);

impl Source for Text<'_> {
    #[inline]
    fn window(&self) -> &[u8] {
        self.0.as_bytes()
    }

    #[inline]
    fn is_exhausted(&self) -> bool {
        true
    }

    fn refill(&mut self, _drop: usize) -> bool {
        false
    }

    fn read_error(&self) -> Option<&io::Error> {
        None
    }
}

/// The longest token a scanner reads whole. A longer one is cut there (its start is returned and
/// the rest skipped), and a message calls it a token of more than this many bytes: no format
/// arbiter reads has tokens nearly this long, and a stream never holds more than this and one
/// chunk ([`CHUNK_BYTES`]).
pub const MAX_TOKEN_BYTES: usize = 1 << 16;

/// Bytes asked of the reader at a time.
pub(crate) const CHUNK_BYTES: usize = 1 << 16;

/// A reader read in chunks of [`CHUNK_BYTES`]: the window holds what has been read and not yet
/// dropped, which a scanner keeps to the token it is reading, so memory stays bounded whatever
/// the input.
#[derive(Debug)]
pub struct Stream<R> {
    reader: R,
    /// The buffer, zeroed once when it grows, never again: a pipe may deliver a few bytes per
    /// read, and each read must not cost a chunk's worth of work.
    buf: Vec<u8>,
    /// Bytes of `buf` read and not dropped.
    filled: usize,
    /// `buf[..valid]` is whole UTF-8 characters; the rest of what is filled (at most three
    /// bytes) is the start of a character whose other bytes have not arrived yet.
    valid: usize,
    exhausted: bool,
    error: Option<io::Error>,
}

impl<R: Read> Stream<R> {
    /// A stream that has read nothing yet.
    pub(crate) fn new(reader: R) -> Stream<R> {
        Stream { reader, buf: Vec::new(), filled: 0, valid: 0, exhausted: false, error: None }
    }

    /// Reads once (retrying when interrupted); returns the number of bytes added.
    fn read_chunk(&mut self) -> usize {
        if self.buf.len() < self.filled + CHUNK_BYTES {
            self.buf.resize(self.filled + CHUNK_BYTES, 0);
        }
        let space = &mut self.buf[self.filled..self.filled + CHUNK_BYTES];
        let read = loop {
            match self.reader.read(space) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    self.error = Some(error);
                    break 0;
                }
                Ok(read) => break read.min(CHUNK_BYTES),
            }
        };
        self.filled += read;
        if read == 0 {
            self.exhausted = true;
        }
        read
    }

    /// Moves `valid` over the bytes read, replacing each invalid sequence with U+FFFD, except an
    /// incomplete character at the end while more may come.
    fn validate(&mut self) {
        let error = match std::str::from_utf8(&self.buf[self.valid..self.filled]) {
            Ok(_) => {
                self.valid = self.filled;
                return;
            }
            Err(error) => error,
        };
        let good = self.valid + error.valid_up_to();
        if error.error_len().is_none() && !self.exhausted {
            // Only the last character is incomplete: wait for the rest of it.
            self.valid = good;
            return;
        }
        let tail = self.buf[good..self.filled].to_vec();
        let mut fixed = Vec::with_capacity(tail.len() + 8);
        let mut chunks = tail.utf8_chunks().peekable();
        let mut pending: &[u8] = &[];
        while let Some(chunk) = chunks.next() {
            fixed.extend_from_slice(chunk.valid().as_bytes());
            let invalid = chunk.invalid();
            if invalid.is_empty() {
                continue;
            }
            let incomplete = std::str::from_utf8(invalid).is_err_and(|e| e.error_len().is_none());
            if chunks.peek().is_none() && incomplete && !self.exhausted {
                pending = invalid;
            } else {
                fixed.extend_from_slice("\u{fffd}".as_bytes());
            }
        }
        self.valid = good + fixed.len();
        fixed.extend_from_slice(pending);
        self.filled = good + fixed.len();
        if self.buf.len() < self.filled {
            self.buf.resize(self.filled, 0);
        }
        self.buf[good..self.filled].copy_from_slice(&fixed);
    }
}

impl<R: Read> Source for Stream<R> {
    #[inline]
    fn window(&self) -> &[u8] {
        &self.buf[..self.valid]
    }

    #[inline]
    fn is_exhausted(&self) -> bool {
        self.exhausted && self.valid == self.filled
    }

    fn refill(&mut self, drop: usize) -> bool {
        let drop = drop.min(self.valid);
        self.buf.copy_within(drop..self.filled, 0);
        self.filled -= drop;
        self.valid -= drop;
        let before = self.valid;
        while !self.exhausted && self.valid == before {
            self.read_chunk();
            self.validate();
        }
        self.valid > before
    }

    fn read_error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }
}
