//! What several targets share: a reader that hands out its bytes in pieces of varying sizes,
//! as a pipe does, so that every chunk boundary of the streaming scanner is exercised.

use std::io::{self, Read};

/// Hands out `bytes` in pieces whose sizes cycle through `sizes` (each 1 or more).
pub struct Pieces<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl<'a> Pieces<'a> {
    /// Splits off the first byte of `data` to choose the piece sizes; the rest is the input.
    pub fn from_fuzz(data: &'a [u8]) -> (Pieces<'a>, &'a [u8]) {
        let (seed, bytes) = data.split_first().map_or((0, data), |(s, rest)| (*s, rest));
        let sizes = vec![1 + usize::from(seed & 7), 1 + usize::from(seed >> 3) * 37, 1];
        (Pieces { bytes, sizes, next: 0 }, bytes)
    }
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()].min(buf.len()).min(self.bytes.len());
        self.next += 1;
        buf[..size].copy_from_slice(&self.bytes[..size]);
        self.bytes = &self.bytes[size..];
        Ok(size)
    }
}
