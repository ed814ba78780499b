use std::io::{self, Read};

use proptest::prelude::*;

use super::*;

fn parse_int(text: &str) -> Option<i64> {
    let mut scanner = Scanner::new(text);
    let value = scanner.int("n").ok()?;
    scanner.at_end().then_some(value)
}

/// A reader that hands out its bytes in pieces of the given sizes (cycling), the way a pipe
/// delivers what a writer wrote in several writes.
struct Pieces<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl<'a> Pieces<'a> {
    fn new(bytes: &'a [u8], sizes: &[usize]) -> Pieces<'a> {
        let sizes =
            if sizes.is_empty() { vec![1] } else { sizes.iter().map(|&s| s.max(1)).collect() };
        Pieces { bytes, sizes, next: 0 }
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

/// Everything a scanner reports reading `text` as: each token (or integer) with its place,
/// then the error or the end, with the place of the end.
fn transcript<S: Source>(scanner: &mut Scanner<'_, S>, ints: bool) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let place = scanner.place();
        if ints {
            match scanner.try_int() {
                Some(value) => out.push(format!("{place} {value}")),
                None => {
                    out.push(scanner.error_here("n").to_string());
                    if scanner.token().is_none() {
                        break;
                    }
                }
            }
        } else {
            match scanner.token() {
                Some(token) => out.push(format!("{place} {} @{}", token.text, token.offset)),
                None => break,
            }
        }
    }
    out.push(format!("end {}", scanner.place()));
    out
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
fn places_count_lines_and_characters() {
    let mut scanner = Scanner::new("1\r\n\n\t  é x");
    assert_eq!(scanner.int("n").unwrap(), 1);
    let error = scanner.int("a row").unwrap_err();
    assert_eq!(error.place, Place { line: 3, column: 4 });
    assert_eq!(error.found, Found::Token("é".into()));
    // A failed read consumes nothing.
    assert_eq!(scanner.place(), Place { line: 3, column: 4 });
    assert_eq!(scanner.next_token().map(|t| t.text), Some("é"));
    assert_eq!(scanner.place(), Place { line: 3, column: 6 });
}

#[test]
fn a_lone_carriage_return_ends_a_line() {
    let mut scanner = Scanner::new("1\r0 3\r\n1 x");
    for _ in 0..4 {
        scanner.int("n").unwrap();
    }
    assert_eq!(scanner.int("n").unwrap_err().place, Place { line: 3, column: 3 });
    let mut scanner = Scanner::new("1\r\r\r\n\n x");
    scanner.int("n").unwrap();
    assert_eq!(scanner.int("n").unwrap_err().place, Place { line: 5, column: 2 });
}

#[test]
fn invisible_characters_are_escaped_in_messages() {
    let shown = |text: &str| Scanner::new(text).int("n").unwrap_err().found.to_string();
    assert_eq!(shown(" \u{feff}1"), "`\\u{feff}1`");
    assert_eq!(shown("a\0b"), "`a\\u{0}b`");
    assert_eq!(shown("\u{1b}[31m"), "`\\u{1b}[31m`");
    assert_eq!(shown("\u{200b}7"), "`\\u{200b}7`");
    // Printable text, quotes included, is shown as it is.
    assert_eq!(shown("\"é'٣"), "`\"é'٣`");
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    for text in ["\u{feff}7 x", "\u{feff}\n7 x"] {
        let line = if text.contains('\n') { 2 } else { 1 };
        let mut scanner = Scanner::new(text);
        assert_eq!(scanner.place(), Place { line, column: 1 });
        assert_eq!(scanner.int("n"), Ok(7));
        assert_eq!(scanner.place(), Place { line, column: 3 });
        let mut stream = Scanner::from_reader(Pieces::new(text.as_bytes(), &[1]));
        assert_eq!(stream.int("n"), Ok(7));
        assert_eq!(stream.place(), Place { line, column: 3 });
    }
    // Anywhere else it is part of a token.
    let error = Scanner::new("1 \u{feff}2").int_in(0, 0, "n").unwrap_err();
    assert_eq!(error.to_string(), "1:1: expected n, found `1`");
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
fn tokens_longer_than_the_limit_are_cut_and_named() {
    let long = format!("{} 5", "0".repeat(MAX_TOKEN_BYTES + 1));
    let message = format!(
        "1:1: expected an integer, found a token of more than {MAX_TOKEN_BYTES} bytes (`{}…`)",
        "0".repeat(Shown::MAX_CHARS)
    );
    let mut text = Scanner::new(&long);
    assert_eq!(text.int("an integer").unwrap_err().to_string(), message);
    let mut stream = Scanner::from_reader(long.as_bytes());
    assert_eq!(stream.int("an integer").unwrap_err().to_string(), message);
    // The cut token is returned as its start; the rest of it is skipped.
    let token = stream.token().unwrap();
    assert_eq!(token.text.len(), MAX_TOKEN_BYTES);
    let offset = token.offset;
    assert!(stream.is_cut(offset));
    assert_eq!(stream.int("n"), Ok(5));
    // A token of exactly the limit is whole.
    let exact = format!("{}7", "0".repeat(MAX_TOKEN_BYTES - 1));
    assert_eq!(Scanner::from_reader(exact.as_bytes()).int("n"), Ok(7));
}

#[test]
fn a_stream_of_one_endless_token_stops_at_the_limit() {
    // /dev/zero: NUL is not whitespace, so the input is one token that never ends.
    let mut zeros = Scanner::from_reader(io::repeat(0));
    let error = zeros.int("n").unwrap_err();
    assert!(matches!(error.found, Found::LongToken(_)), "{error}");
    assert_eq!(error.place, Place::START);
}

#[test]
fn long_runs_of_whitespace_are_read_in_bounded_memory() {
    // 5 MB of line breaks, then a token: the place still counts every line.
    let lines = 5_000_000;
    let reader = io::repeat(b'\n').take(lines).chain(&b"  x"[..]);
    let mut scanner = Scanner::from_reader(reader);
    let error = scanner.int("n").unwrap_err();
    assert_eq!(error.to_string(), format!("{}:3: expected n, found `x`", lines + 1));
}

#[test]
fn bytes_that_are_not_utf8_become_replacement_characters() {
    let bytes = b"1 \xff2 \xe2\x82 \xe2\x82\xac x";
    let mut stream = Scanner::from_reader(Pieces::new(bytes, &[1]));
    assert_eq!(stream.int("n"), Ok(1));
    assert_eq!(stream.token().map(|t| t.text.to_owned()), Some("\u{fffd}2".to_owned()));
    assert_eq!(stream.token().map(|t| t.text.to_owned()), Some("\u{fffd}".to_owned()));
    // A character split between two reads is whole.
    assert_eq!(stream.token().map(|t| t.text.to_owned()), Some("€".to_owned()));
    assert_eq!(stream.place(), Place { line: 1, column: 10 });
    // An incomplete character at the very end is replaced too.
    let mut end = Scanner::from_reader(&b"1 \xe2\x82"[..]);
    end.int("n").unwrap();
    assert_eq!(end.token().map(|t| t.text.to_owned()), Some("\u{fffd}".to_owned()));
}

#[test]
fn a_read_error_is_reported_where_reading_stopped() {
    struct Failing(bool);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(io::Error::other("disk on fire"));
            }
            buf[..4].copy_from_slice(b"1\n2 ");
            Ok(4)
        }
    }
    let mut scanner = Scanner::from_reader(Failing(false));
    assert_eq!(scanner.int("n"), Ok(1));
    assert_eq!(scanner.int("n"), Ok(2));
    let error = scanner.int("n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "2:3: expected n, found an error reading the input (disk on fire)"
    );
    assert!(scanner.read_error().is_some());
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

#[test]
fn digits_read_nothing_and_holds_tokens_says_when_a_read_would_wait() {
    // The reader hands out "1 2" first: the last digit might go on, so nothing is certain yet.
    let mut scanner = Scanner::from_reader(Pieces::new(b"1 2 3 4\n", &[3, 100]));
    assert!(scanner.holds_tokens(1));
    assert!(!scanner.holds_tokens(2));
    assert_eq!(scanner.digits::<2>(), None);
    assert_eq!(scanner.int("n"), Ok(1));
    assert_eq!(scanner.int("n"), Ok(2));
    assert!(scanner.holds_tokens(2));
    // A third token may still come: only reading can tell.
    assert!(!scanner.holds_tokens(3));
    assert_eq!(scanner.digits::<2>(), Some([3, 4]));
}

#[test]
fn a_marked_place_is_kept_after_its_bytes_are_dropped() {
    let text = format!("1\n  2{}3", " ".repeat(300_000));
    let mut scanner = Scanner::from_reader(Pieces::new(text.as_bytes(), &[7000]));
    scanner.int("n").unwrap();
    let offset = scanner.mark();
    scanner.int("n").unwrap();
    scanner.int("n").unwrap();
    assert_eq!(scanner.place_of(offset), Place { line: 2, column: 3 });
    assert_eq!(scanner.place(), Place { line: 2, column: 300_005 });
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
            prop_assert_eq!(fast.place(), slow.place());
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

    /// A stream read in pieces of any sizes reads exactly what the string reads: the same
    /// tokens, integers, errors and places.
    #[test]
    fn a_stream_reads_like_the_string(
        text in "\u{feff}?[ \t\r\n0-9a-zé+-]{0,80}",
        sizes in prop::collection::vec(1usize..12, 1..5),
        ints: bool,
    ) {
        let whole = transcript(&mut Scanner::new(&text), ints);
        let mut stream = Scanner::from_reader(Pieces::new(text.as_bytes(), &sizes));
        prop_assert_eq!(transcript(&mut stream, ints), whole);
    }
}
