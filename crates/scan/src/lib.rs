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
//! Positions are computed only when asked for, so the hot path is a byte loop that counts line
//! breaks and nothing else.

use std::fmt;

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
    /// A token, shortened to [`Found::MAX_SHOWN`] characters.
    Token(String),
}

impl Found {
    /// Longest token text kept in an error message.
    pub const MAX_SHOWN: usize = 40;

    fn token(text: &str) -> Found {
        match text.char_indices().nth(Self::MAX_SHOWN) {
            Some((cut, _)) => Found::Token(format!("{}...", &text[..cut])),
            None => Found::Token(text.to_owned()),
        }
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("end of input"),
            Found::Token(text) => write!(f, "`{text}`"),
        }
    }
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
    line: u32,
    line_start: usize,
}

#[inline]
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    pub fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            text,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// Skips whitespace, counting line breaks.
    #[inline]
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.pos) {
            if !is_space(byte) {
                break;
            }
            self.pos += 1;
            if byte == b'\n' {
                self.line += 1;
                self.line_start = self.pos;
            }
        }
    }

    /// The position of byte `offset`, which must not lie before the current line.
    fn position_of(&self, offset: usize) -> Position {
        let column = self.text[self.line_start..offset].chars().count() + 1;
        Position {
            line: self.line,
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
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
        Some(Token {
            text: &self.text[start..end],
            offset: start,
        })
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
        ScanError {
            position: self.position(),
            expected: expected.into(),
            found,
        }
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
        match self.next_token() {
            Some(token) => parse_int(token.text).ok_or_else(|| self.error_at(token, expected)),
            None => Err(ScanError {
                position: self.position_of(self.pos),
                expected: expected.to_owned(),
                found: Found::End,
            }),
        }
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

/// Parses `[+-]?[0-9]+`, saturating at the ends of `i64`.
#[inline]
fn parse_int(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let (negative, digits) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &byte in digits {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.saturating_mul(10).saturating_add(i64::from(digit));
    }
    Some(if negative {
        value.saturating_neg()
    } else {
        value
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn integers_with_signs_and_saturation() {
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("+17"), Some(17));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("-99999999999999999999999"), Some(-i64::MAX));
        for bad in ["", "-", "+", "1.0", "1e3", "0x10", "--1", "٣"] {
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
        assert_eq!(scanner.position(), Position { line: 3, column: 6 });
    }

    #[test]
    fn end_of_input_is_reported_where_the_text_ends() {
        let mut scanner = Scanner::new("5\n6\n");
        scanner.int("n").unwrap();
        scanner.int("n").unwrap();
        let error = scanner.int("a column").unwrap_err();
        assert_eq!(
            error.to_string(),
            "3:1: expected a column, found end of input"
        );
        assert!(scanner.at_end());
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "y".repeat(10_000);
        let error = Scanner::new(&long).int("n").unwrap_err();
        assert_eq!(
            error.found,
            Found::Token(format!("{}...", "y".repeat(Found::MAX_SHOWN)))
        );
    }

    #[test]
    fn range_errors_leave_the_token_in_place() {
        let mut scanner = Scanner::new(" 300 ");
        let error = scanner.int_in(0, 200, "an integer in 0..=200").unwrap_err();
        assert_eq!(
            error.to_string(),
            "1:2: expected an integer in 0..=200, found `300`"
        );
        assert_eq!(scanner.next_token().map(|t| t.text), Some("300"));
    }

    proptest! {
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
