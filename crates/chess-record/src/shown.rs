//! Bytes from a file as a message shows them: UTF-8 text as [`Shown`] shows it, and each byte
//! that is not UTF-8 (a Latin-1 `ü` is the byte 0xfc) as an escape, `\xfc`.
//!
//! ```
//! use arbiter_chess_record::ShownBytes;
//!
//! assert_eq!(ShownBytes(b"M\xfcller").to_string(), "M\\xfcller");
//! assert_eq!(ShownBytes("Müller".as_bytes()).to_string(), "Müller");
//! ```

use std::fmt::{self, Write as _};

use arbiter_scan::Shown;

/// Shows bytes like [`Shown`] shows text, with every byte that is not UTF-8 as `\xNN`; at most
/// [`Shown::MAX_CHARS`] characters (an escape counts as one), then `…`.
#[derive(Clone, Copy, Debug)]
pub struct ShownBytes<'a>(pub &'a [u8]);

impl fmt::Display for ShownBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = 0;
        let mut buf = [0u8; 4];
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                if shown == Shown::MAX_CHARS {
                    return f.write_char('…');
                }
                Shown(c.encode_utf8(&mut buf)).fmt(f)?;
                shown += 1;
            }
            for byte in chunk.invalid() {
                if shown == Shown::MAX_CHARS {
                    return f.write_char('…');
                }
                write!(f, "\\x{byte:02x}")?;
                shown += 1;
            }
        }
        Ok(())
    }
}

/// `bytes` as a string: UTF-8 as it is, every other byte as `\xNN`; nothing cut or escaped
/// besides. Tag values that are not UTF-8 (PGN's own encoding is Latin-1) are kept this way.
pub fn escaped(bytes: &[u8]) -> String {
    // Nearly every value is UTF-8, copied at once.
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_owned();
    }
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}
