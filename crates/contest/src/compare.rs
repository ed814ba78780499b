//! Comparing a program's output with arbiter's answer token by token, as contest checkers do:
//! any run of whitespace separates tokens, and line breaks carry no meaning.
//!
//! ```
//! use arbiter_contest::compare::compare;
//!
//! assert!(compare("red guard;NA;no;no\nInvalid command\n", b"red  guard;NA;no;no Invalid\r\ncommand").is_none());
//! let difference = compare("Yes\nNo\n", b"Yes\nYes\n").unwrap();
//! assert_eq!((difference.line, difference.expected.as_deref(), difference.got.as_deref()), (2, Some("No"), Some("Yes")));
//! ```
//!
//! A difference is reported by lines, since every answer of these games is a list of lines: the
//! line of the answer that holds the first token that differs, and the line of the output that
//! holds the token found in its place.
//!
//! The output is read as a stream ([`compare_stream`]) and reading stops at the first
//! difference, or once the output has gone on past [`output_bound`] bytes: an endless output
//! (or an endless line, such as `/dev/zero` gives) costs a bounded read and constant memory.

use std::io::{self, Read};

/// The first place where the output differs from the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The 1-based line of the answer holding the first differing token; one past the last line
    /// when the answer ended and the output goes on.
    pub line: usize,
    /// That line of the answer, trimmed; `None` when the answer ended.
    pub expected: Option<String>,
    /// The 1-based line of the output holding the token found instead.
    pub got_line: usize,
    /// That line of the output, trimmed (invalid UTF-8 replaced, at most [`KEPT_LINE`] bytes of
    /// it); `None` when the output ended.
    pub got: Option<String>,
    /// `Some(bytes)` when the output went on past that many bytes before the difference was
    /// complete (a line or a run of whitespace without end): reading stopped there.
    pub cut: Option<u64>,
}

/// The most of an output line kept to show: far more than any answer line of these games.
pub const KEPT_LINE: usize = 4 << 10;

/// The whitespace an output may add to an answer's own: beyond twice the answer's size and this,
/// an output cannot hold the answer in any sensible layout.
pub const OUTPUT_SLACK: u64 = 64 << 10;

/// The most bytes of output worth reading against `expected`: twice its size (room for any
/// spacing and line endings) plus [`OUTPUT_SLACK`].
pub fn output_bound(expected: &str) -> u64 {
    2 * expected.len() as u64 + OUTPUT_SLACK
}

/// C's `isspace`: the separators of `scanf`-style readers and of testlib.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Trims `isspace` bytes from both ends of a line shown in a difference.
fn trimmed(line: &[u8]) -> String {
    let line = String::from_utf8_lossy(line);
    line.trim_matches(|c: char| c.is_ascii() && is_space(c as u8)).to_owned()
}

/// The tokens of the answer (in memory) with the 0-based line each stands on.
struct Tokens<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a [u8]) -> Tokens<'a> {
        Tokens { text, at: 0, line: 0, line_start: 0 }
    }

    /// The next token and its line number.
    fn next(&mut self) -> Option<(&'a [u8], usize)> {
        while self.at < self.text.len() && is_space(self.text[self.at]) {
            if self.text[self.at] == b'\n' {
                self.line += 1;
                self.line_start = self.at + 1;
            }
            self.at += 1;
        }
        if self.at == self.text.len() {
            return None;
        }
        let start = self.at;
        while self.at < self.text.len() && !is_space(self.text[self.at]) {
            self.at += 1;
        }
        Some((&self.text[start..self.at], self.line))
    }

    /// The text of the current line (the one of the last token), trimmed.
    fn current_line(&self) -> String {
        let end = self.text[self.line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.text.len(), |i| self.line_start + i);
        trimmed(&self.text[self.line_start..end])
    }
}

/// What the output stream holds next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Byte(u8),
    End,
    /// The bound is reached: nothing more is read.
    Cut,
}

/// The output, read in chunks, with the line it is on and the start of that line.
struct Stream<R> {
    source: R,
    chunk: Vec<u8>,
    at: usize,
    len: usize,
    /// Bytes consumed so far.
    consumed: u64,
    bound: u64,
    ended: bool,
    /// 0-based line of the next byte.
    line: usize,
    /// The current line so far, at most [`KEPT_LINE`] bytes of it.
    kept: Vec<u8>,
}

impl<R: Read> Stream<R> {
    fn new(source: R, bound: u64) -> Stream<R> {
        Stream {
            source,
            chunk: vec![0; 64 << 10],
            at: 0,
            len: 0,
            consumed: 0,
            bound,
            ended: false,
            line: 0,
            kept: Vec::new(),
        }
    }

    fn peek(&mut self) -> io::Result<Next> {
        if self.consumed >= self.bound {
            return Ok(Next::Cut);
        }
        while self.at == self.len {
            if self.ended {
                return Ok(Next::End);
            }
            match self.source.read(&mut self.chunk) {
                Ok(0) => self.ended = true,
                Ok(n) => (self.at, self.len) = (0, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Next::Byte(self.chunk[self.at]))
    }

    /// Consumes the byte [`Stream::peek`] returned.
    fn bump(&mut self) {
        let byte = self.chunk[self.at];
        self.at += 1;
        self.consumed += 1;
        if byte == b'\n' {
            self.line += 1;
            self.kept.clear();
        } else if self.kept.len() < KEPT_LINE {
            self.kept.push(byte);
        }
    }

    /// Skips whitespace: the first byte of the next token, or the end, or the bound.
    fn skip_space(&mut self) -> io::Result<Next> {
        loop {
            match self.peek()? {
                Next::Byte(b) if is_space(b) => self.bump(),
                next => return Ok(next),
            }
        }
    }

    /// Reads the next token against `want`: whether it is exactly `want`. On `false`, the
    /// stream stands inside (or at the end of) the token that differs.
    fn token_is(&mut self, want: &[u8]) -> io::Result<bool> {
        let mut i = 0;
        loop {
            match self.peek()? {
                Next::Byte(b) if !is_space(b) => {
                    if want.get(i) != Some(&b) {
                        return Ok(false);
                    }
                    self.bump();
                    i += 1;
                }
                _ => return Ok(i == want.len()),
            }
        }
    }

    /// Reads on to the end of the current line: that line, trimmed, and whether the bound
    /// stopped the reading first.
    fn rest_of_line(&mut self) -> io::Result<(String, bool)> {
        loop {
            match self.peek()? {
                Next::Byte(b'\n') | Next::End => return Ok((trimmed(&self.kept), false)),
                Next::Byte(_) => self.bump(),
                Next::Cut => return Ok((trimmed(&self.kept), true)),
            }
        }
    }
}

/// Compares `got` with `expected` token by token; `None` when they hold the same tokens.
pub fn compare(expected: &str, got: &[u8]) -> Option<Difference> {
    // Reading a slice cannot fail.
    compare_stream(expected, got, u64::MAX).unwrap_or_default()
}

/// Compares the output read from `got` with `expected` token by token, reading at most `bound`
/// bytes (see [`output_bound`]) and stopping at the first difference; `None` when they hold the
/// same tokens. An error is one of reading `got`.
pub fn compare_stream(
    expected: &str,
    got: impl Read,
    bound: u64,
) -> io::Result<Option<Difference>> {
    let mut want = Tokens::new(expected.as_bytes());
    let mut have = Stream::new(got, bound);
    loop {
        let token = want.next();
        let next = have.skip_space()?;
        let (line, expected_line) = match token {
            Some((_, line)) => (line + 1, Some(want.current_line())),
            None => (want.line + usize::from(!ends_with_newline(expected)) + 1, None),
        };
        let difference = |got_line: usize, got: Option<String>, cut: bool| Difference {
            line,
            expected: expected_line.clone(),
            got_line: got_line + 1,
            got,
            cut: cut.then_some(bound),
        };
        match (token, next) {
            (None, Next::End) => return Ok(None),
            (_, Next::Cut) => return Ok(Some(difference(have.line, None, true))),
            (Some(_), Next::End) => return Ok(Some(difference(have.line, None, false))),
            (Some((token, _)), Next::Byte(_)) if have.token_is(token)? => continue,
            (_, Next::Byte(_)) => {
                let got_line = have.line;
                let (got, cut) = have.rest_of_line()?;
                return Ok(Some(difference(got_line, Some(got), cut)));
            }
        }
    }
}

fn ends_with_newline(text: &str) -> bool {
    text.trim_end_matches([' ', '\t', '\r']).ends_with('\n') || text.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_never_matters() {
        assert_eq!(compare("1 2\n3 4\n", b"1\n2\n\n3\t4"), None);
        assert_eq!(compare("", b"  \n\r\n"), None);
        assert_eq!(compare("Yes\n", b"\xef\xbb\xbfYes\n").map(|d| d.line), Some(1));
    }

    #[test]
    fn a_short_output_names_the_missing_line() {
        let difference = compare("a\nb\nc\n", b"a\nb\n").unwrap();
        assert_eq!(difference.line, 3);
        assert_eq!(difference.expected.as_deref(), Some("c"));
        assert_eq!(difference.got, None);
    }

    #[test]
    fn extra_output_is_a_difference_after_the_last_line() {
        let difference = compare("a\nb\n", b"a\nb\nc d\n").unwrap();
        assert_eq!((difference.line, difference.expected), (3, None));
        assert_eq!((difference.got_line, difference.got.as_deref()), (3, Some("c d")));
    }

    #[test]
    fn the_lines_of_the_differing_tokens_are_shown() {
        let difference =
            compare("red car;NA;no;no\nInvalid command\n", b"red car;NA;no;no\nInvalid commands\n");
        let difference = difference.unwrap();
        assert_eq!(difference.line, 2);
        assert_eq!(difference.got.as_deref(), Some("Invalid commands"));
    }

    #[test]
    fn an_endless_output_is_cut_at_the_bound() {
        // One endless line of NUL bytes: the first token differs, its line never ends.
        let difference = compare_stream("Yes\n", io::repeat(0), 1 << 20).unwrap().unwrap();
        assert_eq!((difference.line, difference.cut), (1, Some(1 << 20)));
        assert_eq!(difference.got.map(|line| line.len()), Some(KEPT_LINE));
        // The answer, then whitespace without end.
        let output = b"Yes\n".chain(io::repeat(b'\n'));
        let difference = compare_stream("Yes\n", output, 100).unwrap().unwrap();
        assert_eq!((difference.expected, difference.got, difference.cut), (None, None, Some(100)));
    }

    #[test]
    fn reading_stops_at_the_first_difference() {
        // Endless output after a wrong token: the line ends, so nothing more is read.
        let output = b"No\n".chain(io::repeat(b'x'));
        let difference = compare_stream("Yes\n", output, u64::MAX).unwrap().unwrap();
        assert_eq!((difference.line, difference.got.as_deref()), (1, Some("No")));
    }

    #[test]
    fn a_read_error_is_an_error_not_a_difference() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        assert!(compare_stream("Yes\n", Broken, u64::MAX).is_err());
    }
}
