//! Whitespace-separated tokens with line and column positions.
//!
//! The official judges read their input with `scanf`: any run of whitespace (spaces, tabs, CR, LF,
//! vertical tab, form feed) separates tokens, and line breaks carry no meaning. [`Scanner`] reads the
//! same way, but every failure is a [`ScanError`] that says where it happened and what was expected,
//! so a tool can print `FILE:LINE:COL: expected ..., found ...`.
//!
//! ```
//! use arbiter_scan::Scanner;
//!
//! let mut input = Scanner::new("2\n 0 0\tseven 1");
//! assert_eq!(input.int("the count").unwrap(), 2);
//! assert_eq!(input.int("a row").unwrap(), 0);
//! assert_eq!(input.int("a column").unwrap(), 0);
//! let error = input.int("a row").unwrap_err();
//! assert_eq!(error.to_string(), "2:6: expected a row, found `seven`");
//! ```
//!
//! Positions are computed only when asked for (from the byte offset, by counting line breaks), so
//! reading a token is a tight byte loop.

#![warn(missing_docs)]

use std::fmt::{self, Write as _};

/// A place in the input: 1-based line, and 1-based column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in Unicode scalar values from the start of the line.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What the scanner met where it expected something else.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Found {
    /// The input ended.
    End,
    /// A token; only its first [`Shown::MAX_CHARS`] characters and one more are kept, which is all
    /// a message shows.
    Token(String),
}

impl Found {
    fn token(text: &str) -> Found {
        match text.char_indices().nth(Shown::MAX_CHARS + 1) {
            Some((cut, _)) => Found::Token(text[..cut].to_owned()),
            None => Found::Token(text.to_owned()),
        }
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("end of input"),
            Found::Token(text) => write!(f, "`{}`", Shown(text)),
        }
    }
}

/// Text from the input as a message echoes it: at most [`Shown::MAX_CHARS`] characters, then `…`;
/// control characters, whitespace other than the space, and marks that print as nothing (a byte
/// order mark, a zero-width space, a direction override) written as escapes (`\t`, `\u{feff}`),
/// so that a message stays one short line that shows what is really there.
///
/// ```
/// use arbiter_scan::Shown;
///
/// assert_eq!(Shown("e4\u{b}").to_string(), "e4\\u{b}");
/// assert_eq!(Shown(&"x".repeat(100)).to_string(), format!("{}…", "x".repeat(40)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(pub &'a str);

impl Shown<'_> {
    /// The most characters of input text a message echoes.
    pub const MAX_CHARS: usize = 40;
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.chars().enumerate() {
            if i == Self::MAX_CHARS {
                return f.write_char('…');
            }
            match c {
                '\t' => f.write_str("\\t")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                ' ' => f.write_char(' ')?,
                c if c.is_control() || c.is_whitespace() || is_invisible(c) => {
                    write!(f, "\\u{{{:x}}}", u32::from(c))?;
                }
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Format characters that print as nothing: the byte order mark (zero-width no-break space),
/// zero-width spaces and joiners, direction marks and overrides, the soft hyphen.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{feff}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{00ad}'
    )
}

/// Malformed input: where, what was expected and what was found instead.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{position}: expected {expected}, found {found}")]
pub struct ScanError {
    /// Where the offending token starts, or where the input ended.
    pub position: Position,
    /// What the format asks for at this point, e.g. `"an integer (the number of commands)"`.
    pub expected: String,
    /// What is there instead.
    pub found: Found,
}

/// A token: a maximal run of non-whitespace bytes, with its byte offset in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Byte offset of the token's first byte.
    pub offset: usize,
}

/// Reads whitespace-separated tokens from a string, remembering where each one is.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

/// Space, tab, LF, vertical tab, form feed and CR: what C's `isspace` accepts in the C locale.
const SPACES: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0b | 1 << 0x0c | 1 << b'\r';

/// Whether `byte` separates tokens: space, tab, LF, vertical tab, form feed or CR, as C's
/// `isspace` in the C locale, which the official judges read with.
#[inline]
pub const fn is_space(byte: u8) -> bool {
    byte <= b' ' && SPACES >> byte & 1 != 0
}

/// The line and column of byte `offset` in `text` (the end of the text if `offset` lies beyond it).
///
/// A line ends at LF, at CR LF, or at a CR alone (old Mac text), so that line numbers agree with
/// what an editor shows; columns count characters, not bytes.
///
/// ```
/// use arbiter_scan::{Position, position_at};
///
/// assert_eq!(position_at("1. e4\r\n  é Nf3", 12), Position { line: 2, column: 5 });
/// ```
pub fn position_at(text: &str, offset: usize) -> Position {
    let bytes = text.as_bytes();
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before.iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i + 1);
    let breaks = before
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    // Every character has exactly one byte that is not a UTF-8 continuation byte.
    let column = before[line_start..].iter().filter(|&&b| b & 0xc0 != 0x80).count();
    let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Position { line: clamp(breaks + 1), column: clamp(column + 1) }
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    pub fn new(text: &'a str) -> Scanner<'a> {
        Scanner { text, pos: 0 }
    }

    /// Skips whitespace.
    #[inline]
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
    }

    /// The line and column of byte `offset`.
    fn position_of(&self, offset: usize) -> Position {
        position_at(self.text, offset)
    }

    /// The position of the next token, or of the end of the input if there is none.
    pub fn position(&mut self) -> Position {
        self.skip_space();
        self.position_of(self.pos)
    }

    /// The next token, or `None` at the end of the input.
    #[inline]
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut end = start;
        while end < bytes.len() && !is_space(bytes[end]) {
            end += 1;
        }
        if end == start {
            return None;
        }
        self.pos = end;
        // Tokens end at ASCII whitespace, which never splits a UTF-8 sequence.
        Some(Token { text: &self.text[start..end], offset: start })
    }

    /// Whether only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos == self.text.len()
    }

    /// An error at the next token (or at the end of the input), consuming nothing.
    pub fn error_here(&mut self, expected: impl Into<String>) -> ScanError {
        let before = self.clone();
        let found = match self.next_token() {
            Some(token) => Found::token(token.text),
            None => Found::End,
        };
        *self = before;
        ScanError { position: self.position(), expected: expected.into(), found }
    }

    /// An error about a token this scanner has just returned.
    pub fn error_at(&self, token: Token<'_>, expected: impl Into<String>) -> ScanError {
        ScanError {
            position: self.position_of(token.offset),
            expected: expected.into(),
            found: Found::token(token.text),
        }
    }

    /// The next token as a decimal integer, optionally signed.
    ///
    /// Values beyond `i64` saturate to `i64::MIN` or `i64::MAX`: a judge that only asks whether a
    /// coordinate is on the board gives the same answer for them, and nothing overflows.
    #[inline]
    pub fn int(&mut self, expected: &str) -> Result<i64, ScanError> {
        match self.try_int() {
            Some(value) => Ok(value),
            None => Err(self.error_here(expected)),
        }
    }

    /// `N` one-digit numbers, each followed by one whitespace byte (or the end of the input), if
    /// that is what comes next; otherwise `None`, consuming nothing. A fast path for formats whose
    /// numbers are almost always single digits: callers fall back to [`Scanner::try_int`].
    #[inline]
    pub fn digits<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let window = bytes.get(self.pos..)?;
        let mut values = [0; N];
        for (k, value) in values.iter_mut().enumerate() {
            let digit = window.get(2 * k)?.wrapping_sub(b'0');
            if digit > 9 || window.get(2 * k + 1).is_some_and(|&b| !is_space(b)) {
                return None;
            }
            *value = digit;
        }
        self.pos = (self.pos + 2 * N).min(bytes.len());
        Some(values)
    }

    /// Like [`Scanner::int`], but without building an error: `None` consumes nothing, and
    /// [`Scanner::error_here`] then describes what stands there.
    #[inline]
    pub fn try_int(&mut self) -> Option<i64> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        // Most numbers in the official formats are one digit long.
        if let Some(&byte) = bytes.get(self.pos) {
            let digit = byte.wrapping_sub(b'0');
            if digit <= 9 && bytes.get(self.pos + 1).is_none_or(|&b| is_space(b)) {
                self.pos += 1;
                return Some(i64::from(digit));
            }
        }
        let mut end = self.pos;
        let negative = match bytes.get(end) {
            Some(b'-') => {
                end += 1;
                true
            }
            Some(b'+') => {
                end += 1;
                false
            }
            _ => false,
        };
        let digits_start = end;
        let mut value: u64 = 0;
        while let Some(&byte) = bytes.get(end) {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
            end += 1;
        }
        if end == digits_start || bytes.get(end).is_some_and(|&b| !is_space(b)) {
            return None;
        }
        self.pos = end;
        // Up to 18 digits always fit; longer numbers (leading zeros included) saturate.
        let value = if end - digits_start <= 18 {
            value as i64
        } else {
            bytes[digits_start..end]
                .iter()
                .fold(0i64, |v, &b| v.saturating_mul(10).saturating_add(i64::from(b - b'0')))
        };
        Some(if negative { value.saturating_neg() } else { value })
    }

    /// The next token as an integer in `min..=max`; anything else is an error.
    pub fn int_in(&mut self, min: i64, max: i64, expected: &str) -> Result<i64, ScanError> {
        let before = self.clone();
        let value = self.int(expected)?;
        if (min..=max).contains(&value) {
            Ok(value)
        } else {
            *self = before;
            Err(self.error_here(expected))
        }
    }

    /// The next token, which must exist.
    pub fn word(&mut self, expected: &str) -> Result<Token<'a>, ScanError> {
        match self.next_token() {
            Some(token) => Ok(token),
            None => Err(self.error_here(expected)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse_int(text: &str) -> Option<i64> {
        let mut scanner = Scanner::new(text);
        let value = scanner.int("n").ok()?;
        scanner.at_end().then_some(value)
    }

    #[test]
    fn integers_with_signs_and_saturation() {
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("+17"), Some(17));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("999999999999999999"), Some(999_999_999_999_999_999));
        assert_eq!(parse_int("0000000000000000000000012"), Some(12));
        assert_eq!(parse_int("9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int("9223372036854775808"), Some(i64::MAX));
        assert_eq!(parse_int("-99999999999999999999999"), Some(-i64::MAX));
        for bad in ["", "-", "+", "1.0", "1e3", "0x10", "--1", "٣", "+-1", "12a"] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let mut scanner = Scanner::new("1\r\n\n\t  é x");
        assert_eq!(scanner.int("n").unwrap(), 1);
        let error = scanner.int("a row").unwrap_err();
        assert_eq!(error.position, Position { line: 3, column: 4 });
        assert_eq!(error.found, Found::Token("é".into()));
        // A failed read consumes nothing.
        assert_eq!(scanner.position(), Position { line: 3, column: 4 });
        assert_eq!(scanner.next_token().map(|t| t.text), Some("é"));
        assert_eq!(scanner.position(), Position { line: 3, column: 6 });
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        let mut scanner = Scanner::new("1\r0 3\r\n1 x");
        for _ in 0..4 {
            scanner.int("n").unwrap();
        }
        assert_eq!(scanner.int("n").unwrap_err().position, Position { line: 3, column: 3 });
        let mut scanner = Scanner::new("1\r\r\r\n\n x");
        scanner.int("n").unwrap();
        assert_eq!(scanner.int("n").unwrap_err().position, Position { line: 5, column: 2 });
    }

    #[test]
    fn invisible_characters_are_escaped_in_messages() {
        let shown = |text: &str| Scanner::new(text).int("n").unwrap_err().found.to_string();
        assert_eq!(shown("\u{feff}1"), "`\\u{feff}1`");
        assert_eq!(shown("a\0b"), "`a\\u{0}b`");
        assert_eq!(shown("\u{1b}[31m"), "`\\u{1b}[31m`");
        assert_eq!(shown("\u{200b}7"), "`\\u{200b}7`");
        // Printable text, quotes included, is shown as it is.
        assert_eq!(shown("\"é'٣"), "`\"é'٣`");
    }

    #[test]
    fn end_of_input_is_reported_where_the_text_ends() {
        let mut scanner = Scanner::new("5\n6\n");
        scanner.int("n").unwrap();
        scanner.int("n").unwrap();
        let error = scanner.int("a column").unwrap_err();
        assert_eq!(error.to_string(), "3:1: expected a column, found end of input");
        assert!(scanner.at_end());
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "y".repeat(10_000);
        let error = Scanner::new(&long).int("n").unwrap_err();
        assert_eq!(error.found, Found::Token("y".repeat(Shown::MAX_CHARS + 1)));
        assert_eq!(error.found.to_string(), format!("`{}…`", "y".repeat(Shown::MAX_CHARS)));
        let exact = "z".repeat(Shown::MAX_CHARS);
        let error = Scanner::new(&exact).int("n").unwrap_err();
        assert_eq!(error.found.to_string(), format!("`{exact}`"));
    }

    #[test]
    fn range_errors_leave_the_token_in_place() {
        let mut scanner = Scanner::new(" 300 ");
        let error = scanner.int_in(0, 200, "an integer in 0..=200").unwrap_err();
        assert_eq!(error.to_string(), "1:2: expected an integer in 0..=200, found `300`");
        assert_eq!(scanner.next_token().map(|t| t.text), Some("300"));
    }

    #[test]
    fn digits_take_the_fast_path_or_nothing() {
        let mut scanner = Scanner::new(" 1 2\t3\n4\n5 6 77 8");
        assert_eq!(scanner.digits::<4>(), Some([1, 2, 3, 4]));
        assert_eq!(scanner.digits::<4>(), None);
        assert_eq!(scanner.int("n").unwrap(), 5);
        assert_eq!(scanner.digits::<2>(), None);
        assert_eq!(scanner.int("n").unwrap(), 6);
        assert_eq!(scanner.int("n").unwrap(), 77);
        assert_eq!(scanner.digits::<1>(), Some([8]));
        assert!(scanner.at_end());
        assert_eq!(scanner.digits::<1>(), None);
    }

    proptest! {
        #[test]
        fn digits_agree_with_int(text in "[ \n0-9a-]{0,20}") {
            let mut fast = Scanner::new(&text);
            let mut slow = Scanner::new(&text);
            if let Some(values) = fast.digits::<3>() {
                for value in values {
                    prop_assert_eq!(slow.int("n").ok(), Some(i64::from(value)));
                }
                prop_assert_eq!(fast.position(), slow.position());
            }
        }

        #[test]
        fn every_i64_round_trips(value: i64) {
            prop_assert_eq!(parse_int(&value.to_string()), Some(value.max(-i64::MAX)));
        }

        #[test]
        fn tokens_are_the_whitespace_split(text in "[ \t\r\na-z0-9é-]{0,60}") {
            let mut scanner = Scanner::new(&text);
            let mut tokens = Vec::new();
            while let Some(token) = scanner.next_token() {
                prop_assert_eq!(&text[token.offset..token.offset + token.text.len()], token.text);
                tokens.push(token.text);
            }
            let expected: Vec<&str> = text.split_ascii_whitespace().collect();
            prop_assert_eq!(tokens, expected);
        }
    }
}
