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
    /// That line of the output, trimmed (invalid UTF-8 replaced); `None` when the output ended.
    pub got: Option<String>,
}

/// C's `isspace`: the separators of `scanf`-style readers and of testlib.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The tokens of a text with the 0-based line each stands on and the byte range of that line.
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
        let line = String::from_utf8_lossy(&self.text[self.line_start..end]);
        line.trim_matches(|c: char| c.is_ascii() && is_space(c as u8)).to_owned()
    }
}

/// Compares `got` with `expected` token by token; `None` when they hold the same tokens.
pub fn compare(expected: &str, got: &[u8]) -> Option<Difference> {
    let mut want = Tokens::new(expected.as_bytes());
    let mut have = Tokens::new(got);
    loop {
        match (want.next(), have.next()) {
            (None, None) => return None,
            (Some((a, _)), Some((b, _))) if a == b => continue,
            (Some((_, line)), Some((_, got_line))) => {
                return Some(Difference {
                    line: line + 1,
                    expected: Some(want.current_line()),
                    got_line: got_line + 1,
                    got: Some(have.current_line()),
                });
            }
            (Some((_, line)), None) => {
                return Some(Difference {
                    line: line + 1,
                    expected: Some(want.current_line()),
                    got_line: have.line + 1,
                    got: None,
                });
            }
            (None, Some((_, got_line))) => {
                return Some(Difference {
                    line: want.line + usize::from(!ends_with_newline(expected)) + 1,
                    expected: None,
                    got_line: got_line + 1,
                    got: Some(have.current_line()),
                });
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
}
