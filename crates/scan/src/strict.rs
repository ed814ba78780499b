//! Reading an input strictly, as testlib's validators do: the layout is part of the format.
//!
//! The judges read leniently ([`crate::Scanner`]); a problem setter checking test files needs
//! the opposite. [`Strict`] accepts exactly one space between two tokens, one line feed at the
//! end of every line including the last, and nothing else: no tab, no carriage return, no byte
//! order mark, no leading zero, nothing after the end. Each failure is an [`Invalid`] at the
//! line and column where the input departs from the format.
//!
//! ```
//! use arbiter_scan::Strict;
//!
//! let mut input = Strict::new(b"2 1001\n");
//! assert_eq!(input.int_in(0, 9, "x").unwrap(), 2);
//! input.space().unwrap();
//! let error = input.int_in(0, 1000, "Q").unwrap_err();
//! assert_eq!(error.to_string(), "1:3: expected Q ≤ 1000, found 1001");
//!
//! let mut input = Strict::new(b"7\r\n");
//! input.int_in(0, 9, "x").unwrap();
//! assert_eq!(input.eoln().unwrap_err().to_string(), "1:2: expected a line feed, found `\\r`");
//! ```

use crate::place::{Place, Tracker};
use crate::shown::Shown;

/// Where an input breaks its format, what the format asks for there, and what stands instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: expected {expected}, found {found}")]
pub struct Invalid {
    /// Where the offending character or token starts.
    pub place: Place,
    /// What the format or a limit asks for, e.g. `Q ≤ 1000`.
    pub expected: String,
    /// What is there, already worded: `` `\t` ``, `1001`, `end of input`.
    pub found: String,
}

/// A strict reader over the bytes of a whole input.
#[derive(Debug, Clone)]
pub struct Strict<'a> {
    bytes: &'a [u8],
    offset: usize,
}

/// Whether `byte` may be part of a token: printable ASCII other than the space.
fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_graphic()
}

impl<'a> Strict<'a> {
    /// A reader at the start of `bytes`. A byte order mark is not skipped: it is an error.
    pub fn new(bytes: &'a [u8]) -> Strict<'a> {
        Strict { bytes, offset: 0 }
    }

    /// The byte offset of the next character.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The line and column of byte `offset`.
    pub fn place_of(&self, offset: usize) -> Place {
        let mut tracker = Tracker::start(0);
        tracker.advance(&self.bytes[..offset.min(self.bytes.len())]);
        tracker.place
    }

    /// The line and column of the next character.
    pub fn place(&self) -> Place {
        self.place_of(self.offset)
    }

    /// Whether the next character is a line feed.
    pub fn at_eoln(&self) -> bool {
        self.bytes.get(self.offset) == Some(&b'\n')
    }

    /// Whether the whole input has been read.
    pub fn at_end(&self) -> bool {
        self.offset == self.bytes.len()
    }

    /// An error at byte `offset`.
    pub fn error_at(&self, offset: usize, expected: impl Into<String>, found: String) -> Invalid {
        Invalid { place: self.place_of(offset), expected: expected.into(), found }
    }

    /// The character at byte `offset`, worded for a message: `` `\t` ``, `end of input`.
    fn found_at(&self, offset: usize) -> String {
        let rest = &self.bytes[offset.min(self.bytes.len())..];
        if rest.is_empty() {
            return "end of input".to_owned();
        }
        let length = match rest[0] {
            0xf0..=0xff => 4,
            0xe0..=0xef => 3,
            0xc0..=0xdf => 2,
            _ => 1,
        };
        let text = String::from_utf8_lossy(&rest[..length.min(rest.len())]);
        let first: String = text.chars().take(1).collect();
        format!("`{}`", Shown(&first))
    }

    /// Expects the single byte `byte`, worded `what` in the message.
    fn expect(&mut self, byte: u8, what: &str) -> Result<(), Invalid> {
        if self.bytes.get(self.offset) == Some(&byte) {
            self.offset += 1;
            Ok(())
        } else {
            Err(self.error_at(self.offset, what, self.found_at(self.offset)))
        }
    }

    /// Exactly one space, the separator between two tokens of a line.
    pub fn space(&mut self) -> Result<(), Invalid> {
        self.expect(b' ', "a space")
    }

    /// The line feed that ends a line.
    pub fn eoln(&mut self) -> Result<(), Invalid> {
        self.expect(b'\n', "a line feed")
    }

    /// The end of the input.
    pub fn eof(&mut self) -> Result<(), Invalid> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error_at(self.offset, "the end of the input", self.found_at(self.offset)))
        }
    }

    /// The next token: a run of printable ASCII characters other than the space, at least one.
    pub fn token(&mut self, what: &str) -> Result<&'a str, Invalid> {
        let start = self.offset;
        let length = self.bytes[start..].iter().take_while(|&&b| is_token_byte(b)).count();
        if length == 0 {
            return Err(self.error_at(start, what, self.found_at(start)));
        }
        self.offset += length;
        // Printable ASCII is UTF-8.
        Ok(std::str::from_utf8(&self.bytes[start..self.offset]).unwrap_or_default())
    }

    /// The next token as an integer written as testlib writes one: an optional `-`, then `0` or
    /// digits without a leading zero (`-0` is not one).
    pub fn int(&mut self, what: &str) -> Result<i64, Invalid> {
        let start = self.offset;
        let token = self.token(&format!("an integer ({what})"))?;
        match parse_int(token) {
            Some(value) => Ok(value),
            None => Err(self.error_at(
                start,
                format!("an integer ({what})"),
                format!("`{}`", Shown(token)),
            )),
        }
    }

    /// The next token as an integer in `min..=max`; out of range, the message names the bound
    /// it breaks: `expected Q ≤ 1000, found 1001`.
    pub fn int_in(&mut self, min: i64, max: i64, name: &str) -> Result<i64, Invalid> {
        let start = self.offset;
        let value = self.int(name)?;
        if value > max {
            Err(self.error_at(start, format!("{name} ≤ {max}"), value.to_string()))
        } else if value < min {
            Err(self.error_at(start, format!("{name} ≥ {min}"), value.to_string()))
        } else {
            Ok(value)
        }
    }
}

/// `text` as a canonical integer, or `None`; integers beyond `i64` count as not integers here,
/// which no format of arbiter allows anyway.
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    if canonical { text.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(input: &[u8]) -> Result<Vec<i64>, Invalid> {
        let mut reader = Strict::new(input);
        let mut values = vec![reader.int_in(0, 9, "x")?];
        while !reader.at_eoln() && !reader.at_end() {
            reader.space()?;
            values.push(reader.int_in(0, 9, "x")?);
        }
        reader.eoln()?;
        reader.eof()?;
        Ok(values)
    }

    #[test]
    fn accepts_the_canonical_layout() {
        assert_eq!(line(b"1 2 3\n").unwrap(), [1, 2, 3]);
        assert_eq!(line(b"0\n").unwrap(), [0]);
    }

    #[test]
    fn rejects_every_other_layout() {
        let cases: [(&[u8], &str); 11] = [
            (b"1  2\n", "1:3: expected an integer (x), found ` `"),
            (b"1\t2\n", "1:2: expected a space, found `\\t`"),
            (b"1 2\r\n", "1:4: expected a space, found `\\r`"),
            (b"1 2", "1:4: expected a line feed, found end of input"),
            (b"\xef\xbb\xbf1\n", "1:1: expected an integer (x), found `\\u{feff}`"),
            (b"1\n\n", "2:1: expected the end of the input, found `\\n`"),
            (b" 1\n", "1:1: expected an integer (x), found ` `"),
            (b"01\n", "1:1: expected an integer (x), found `01`"),
            (b"-0\n", "1:1: expected an integer (x), found `-0`"),
            (b"10\n", "1:1: expected x \u{2264} 9, found 10"),
            (b"-1\n", "1:1: expected x \u{2265} 0, found -1"),
        ];
        for (input, message) in cases {
            assert_eq!(line(input).unwrap_err().to_string(), message, "{input:?}");
        }
    }
}
