//! Compressed PGN, read as it is decompressed: gzip (`.pgn.gz`), bzip2 (`.pgn.bz2`) and
//! Zstandard (`.pgn.zst`, lichess's databases), told apart by their first bytes, so that a
//! compressed stream on standard input is read as well as a named file.
//!
//! ```
//! use std::io::Read;
//! use arbiter_chess_record::pgn::{decompressed, Compression};
//!
//! let (kind, mut reader) = decompressed(&b"1. e4 *\n"[..])?;
//! assert_eq!(kind, Compression::None);
//! let mut text = String::new();
//! reader.read_to_string(&mut text)?;
//! assert_eq!(text, "1. e4 *\n");
//! # Ok::<_, std::io::Error>(())
//! ```

use std::fmt;
use std::io::{self, Cursor, Read};

/// How a stream is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not at all: plain text.
    None,
    /// gzip (`1f 8b`), members one after the other read as one stream.
    Gzip,
    /// bzip2 (`BZh`), streams one after the other read as one.
    Bzip2,
    /// Zstandard (`28 b5 2f fd`, or a skippable frame's `5? 2a 4d 18`), any number of frames.
    Zstd,
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::None => "plain text",
            Compression::Gzip => "gzip data",
            Compression::Bzip2 => "bzip2 data",
            Compression::Zstd => "zstd data",
        })
    }
}

impl Compression {
    /// The compression whose magic bytes `head` starts with.
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            // A skippable frame, as `pzstd` writes before each frame (its size) and the
            // seekable format at the end: Zstandard data begins with one too.
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Compression::Zstd,
            _ => Compression::None,
        }
    }
}

/// The largest Zstandard window accepted (2 GiB): `zstd --long=31` streams decompress too.
pub(super) const ZSTD_WINDOW_LOG_MAX: u32 = 31;

/// `reader`, decompressed as it is read when its first bytes show a compression.
pub fn decompressed<'a, R: Read + Send + 'a>(
    mut reader: R,
) -> io::Result<(Compression, Box<dyn Read + Send + 'a>)> {
    let mut head = [0u8; 4];
    let mut len = 0;
    while len < head.len() {
        match reader.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    let kind = Compression::detect(&head[..len]);
    let whole = Cursor::new(head).take(len as u64).chain(reader);
    let reader: Box<dyn Read + Send + 'a> = match kind {
        Compression::None => Box::new(whole),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(whole)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(whole)),
        Compression::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::new(whole)?;
            decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            Box::new(decoder)
        }
    };
    Ok((kind, reader))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn round_trip(kind: Compression, packed: Vec<u8>, text: &[u8]) {
        // One byte a read: the magic bytes arrive in pieces, as from a slow pipe.
        struct Trickle(Vec<u8>, usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = usize::from(self.1 < self.0.len() && !buf.is_empty());
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let (found, mut reader) = decompressed(Trickle(packed, 0)).expect("decoder");
        assert_eq!(found, kind);
        let mut out = Vec::new();
        reader.read_to_end(&mut out).expect("decompressed");
        assert_eq!(out, text);
    }

    #[test]
    fn every_compression_by_its_magic_bytes() {
        let text = b"[White \"M\xfcller\"]\n\n1. e4 *\n".repeat(100);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&text).expect("gzip");
        let mut gz = gz.finish().expect("gzip");
        // Two members one after the other, as `cat a.gz b.gz` makes.
        gz.extend_from_slice(&gz.clone());
        round_trip(Compression::Gzip, gz, &[&text[..], &text[..]].concat());
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(&text).expect("bzip2");
        round_trip(Compression::Bzip2, bz.finish().expect("bzip2"), &text);
        let zst = zstd::stream::encode_all(&text[..], 3).expect("zstd");
        round_trip(Compression::Zstd, zst, &text);
        // A skippable frame first, as `pzstd` writes.
        let mut pzstd = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        pzstd.extend(zstd::stream::encode_all(&text[..], 3).expect("zstd"));
        round_trip(Compression::Zstd, pzstd, &text);
        round_trip(Compression::None, text.clone(), &text);
        round_trip(Compression::None, b"1f".to_vec(), b"1f");
    }
}
