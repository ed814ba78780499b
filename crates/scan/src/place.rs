//! Lines and columns: where a byte offset stands in the input, counted as an editor counts.

use std::fmt;

/// A place in the input: 1-based line, and 1-based column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in Unicode scalar values from the start of the line.
    pub column: u32,
}

impl Place {
    /// Line 1, column 1.
    pub const START: Place = Place { line: 1, column: 1 };
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The place of one byte offset, with what is needed to go on counting from there, so that
/// places are found by counting each byte of the input at most once more.
///
/// A line ends at LF, at CR LF, or at a CR alone (old Mac text), so that line numbers agree with
/// what an editor shows; columns count characters, not bytes (every character has exactly one
/// byte that is not a UTF-8 continuation byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tracker {
    /// The byte offset.
    pub(crate) offset: usize,
    /// Its line and column.
    pub(crate) place: Place,
    /// Whether the byte before `offset` is a CR, whose line break an LF right after belongs to.
    after_cr: bool,
}

impl Tracker {
    /// Line 1, column 1 at byte `offset`.
    pub(crate) const fn start(offset: usize) -> Tracker {
        Tracker { offset, place: Place::START, after_cr: false }
    }

    /// Moves over `bytes`, the input from `self.offset` on.
    pub(crate) fn advance(&mut self, bytes: &[u8]) {
        self.offset += bytes.len();
        let mut bytes = bytes;
        if self.after_cr
            && let [b'\n', rest @ ..] = bytes
        {
            bytes = rest;
            self.after_cr = false;
        }
        let Some(&last) = bytes.last() else {
            return;
        };
        let (lf, cr) = count_breaks(bytes);
        let breaks = if cr == 0 {
            lf
        } else {
            lf + cr - bytes.windows(2).filter(|pair| pair == b"\r\n").count()
        };
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        match bytes.iter().rposition(|&b| b == b'\n' || b == b'\r') {
            Some(last_break) => {
                self.place.line = self.place.line.saturating_add(clamp(breaks));
                self.place.column = clamp(chars(&bytes[last_break + 1..])).saturating_add(1);
            }
            None => self.place.column = self.place.column.saturating_add(clamp(chars(bytes))),
        }
        self.after_cr = last == b'\r';
    }
}

/// The number of LF and of CR bytes in `bytes`. Counted in blocks of 255 bytes into byte-sized
/// counters, a loop the compiler turns into vector instructions: a stream counts every byte it
/// reads here once.
fn count_breaks(bytes: &[u8]) -> (usize, usize) {
    let (mut lf, mut cr) = (0, 0);
    for block in bytes.chunks(255) {
        let (mut block_lf, mut block_cr) = (0u8, 0u8);
        for &b in block {
            block_lf += u8::from(b == b'\n');
            block_cr += u8::from(b == b'\r');
        }
        lf += usize::from(block_lf);
        cr += usize::from(block_cr);
    }
    (lf, cr)
}

fn chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count()
}

/// The line and column of byte `offset` in `text` (the end of the text if `offset` lies beyond it).
///
/// ```
/// use arbiter_scan::{Place, place_at};
///
/// assert_eq!(place_at("1. e4\r\n  é Nf3", 12), Place { line: 2, column: 5 });
/// ```
pub fn place_at(text: &str, offset: usize) -> Place {
    let bytes = text.as_bytes();
    let mut tracker = Tracker::start(0);
    tracker.advance(&bytes[..offset.min(bytes.len())]);
    tracker.place
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Positions counted one character at a time, the obvious way.
    fn slow_place(text: &str, offset: usize) -> Place {
        let (mut line, mut column) = (1, 1);
        let mut chars = text[..offset].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' if chars.peek() == Some(&'\n') => {}
                '\n' | '\r' => (line, column) = (line + 1, 1),
                _ => column += 1,
            }
        }
        Place { line, column }
    }

    proptest! {
        #[test]
        fn tracking_in_pieces_agrees_with_counting(
            text in "[a\r\né ]{0,40}",
            cuts in prop::collection::vec(0usize..40, 0..6),
        ) {
            // Positions at character boundaries that are not the LF of a CR LF.
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(text.len())).collect();
            cuts.retain(|&c| text.is_char_boundary(c));
            cuts.sort_unstable();
            let mut tracker = Tracker::start(0);
            for cut in cuts {
                tracker.advance(&text.as_bytes()[tracker.offset..cut]);
                let lf_of_crlf = cut > 0 && text[..cut].ends_with('\r') && text[cut..].starts_with('\n');
                if !lf_of_crlf {
                    prop_assert_eq!(tracker.place, slow_place(&text, cut));
                }
            }
            let end = text.len();
            tracker.advance(&text.as_bytes()[tracker.offset..end]);
            prop_assert_eq!(tracker.place, slow_place(&text, end));
            prop_assert_eq!(place_at(&text, end), slow_place(&text, end));
        }
    }
}
