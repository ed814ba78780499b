//! The official judge over a stream: the whole input as one record ([`judge_record`]), or one
//! record per line ([`judge_lines`]), read in bounded memory, each answer handed to a
//! [`Listener`].
//!
//! ```
//! use arbiter_chess_record::judge;
//!
//! let mut out = Vec::new();
//! judge::run_record("1. e4 e5 2. Nf3".as_bytes(), &mut out).unwrap();
//! assert_eq!(out, b"Yes\n");
//!
//! let mut out = Vec::new();
//! judge::run_lines("1. e4 e5\n1. e4 e5+\n\n".as_bytes(), &mut out).unwrap();
//! assert_eq!(out, b"Yes\nNo\nYes\n");
//! ```
//!
//! A record is read token by token ([`RecordCheck`]), so a record of any length costs a chunk
//! of memory. [`judge_lines`] reads the lines in batches of at most [`BATCH`] bytes, checks each
//! batch on all cores and hands its answers over before reading the next; a line longer than a
//! batch is read token by token like a record. Before reading input that may not have arrived
//! yet, the judge asks the listener to flush, so that whoever feeds a pipe sees every answer so
//! far.

use std::borrow::Cow;
use std::io::{self, Read, Write};

use arbiter_scan::{Place, ScanError, Scanner, Stream, place_at};
use rayon::prelude::*;

use crate::record::{RecordCheck, Verdict, check_record};
use crate::spelling::Dialect;

/// One record as judged, handed to a [`Listener`].
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// The record's line, from 1, when every line is a record; `None` for a whole input.
    pub line: Option<u64>,
    /// The verdict.
    pub verdict: &'a Verdict,
    /// Where a `No`'s mistake stands (its token, or the end of the last token when the record
    /// stops too early), when the listener wants places ([`Listener::wants_place`]).
    pub place: Option<Place>,
}

/// What is done with each record's answer.
pub trait Listener {
    /// Whether a `No` comes with the place of its mistake: finding a column costs a pass over
    /// the line.
    fn wants_place(&self) -> bool {
        false
    }

    /// Takes the answer for one record.
    fn record(&mut self, judged: &Judged<'_>) -> io::Result<()>;

    /// Writes out everything held back: the judge is about to wait for input, or has finished.
    fn flush(&mut self) -> io::Result<()>;
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The input cannot be read as a record here: a token too long to be read whole, or a read
    /// that failed within a record.
    #[error(transparent)]
    Input(#[from] ScanError),
    /// Reading the input failed between records.
    #[error("cannot read input: {0}")]
    Read(io::Error),
    /// The answers could not be written.
    #[error("cannot write output: {0}")]
    Output(io::Error),
}

/// The official output: `Yes` or `No`, one line per record.
#[derive(Debug)]
pub struct Official<W>(pub W);

impl<W: Write> Listener for Official<W> {
    fn record(&mut self, judged: &Judged<'_>) -> io::Result<()> {
        self.0.write_all(if judged.verdict.is_yes() { b"Yes\n" } else { b"No\n" })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Judges the whole of `input` as one record and writes the official answer to `out`.
pub fn run_record(input: impl Read, out: impl Write) -> Result<(), JudgeError> {
    judge_record(input, &mut Official(out))
}

/// Judges every line of `input` as a record and writes the official answers to `out`.
pub fn run_lines(input: impl Read, out: impl Write) -> Result<(), JudgeError> {
    judge_lines(input, &mut Official(out))
}

/// What the scanner is told a record's token is.
const RECORD_TOKEN: &str = "a move number or a move";

/// Checks the record read by `scanner` token by token; a token too long to be read whole is an
/// error of the input. A `No` comes with the place of its mistake: its token, or the end of the
/// last token when the record stops too early.
fn check_stream<R: Read>(
    scanner: &mut Scanner<'static, Stream<R>>,
) -> Result<(Verdict, Place), ScanError> {
    let mut check = RecordCheck::new(Dialect::Contest);
    let mut end = 0;
    while let Some(token) = scanner.token() {
        let offset = token.offset;
        end = offset + token.text.len();
        let right = check.push(token.text, offset);
        if scanner.is_cut(offset) {
            return Err(scanner.error_at_last(RECORD_TOKEN));
        }
        if !right {
            let at = scanner.place_of(offset);
            return Ok((check.finish(end), at));
        }
        // The end of the last token places a record that stops too early.
        scanner.remember(end);
    }
    Ok((check.finish(end), scanner.place_of(end)))
}

/// Hands `verdict` to `listener`, with `place` when it is a `No` whose place is wanted.
fn hand_over(
    listener: &mut impl Listener,
    line: Option<u64>,
    verdict: &Verdict,
    place: impl FnOnce() -> Place,
) -> Result<(), JudgeError> {
    let place = (!verdict.is_yes() && listener.wants_place()).then(place);
    listener.record(&Judged { line, verdict, place }).map_err(JudgeError::Output)
}

/// The official judge: the whole input is one record.
pub fn judge_record(input: impl Read, listener: &mut impl Listener) -> Result<(), JudgeError> {
    let mut scanner = Scanner::from_reader(input);
    let (verdict, at) = check_stream(&mut scanner)?;
    hand_over(listener, None, &verdict, || at)?;
    listener.flush().map_err(JudgeError::Output)
}

/// Lines are checked in batches of at most this many bytes, each on all cores.
pub const BATCH: usize = 1 << 20;

/// Bytes asked of the reader at a time beyond a batch.
const CHUNK: usize = 1 << 16;

/// The lines of an input, read in batches.
struct Lines<R> {
    reader: R,
    /// The buffer, zeroed once, never again: a pipe may give a few bytes per read.
    buf: Vec<u8>,
    /// Bytes of `buf` read.
    filled: usize,
    /// Bytes of `buf` already handed out.
    start: usize,
    /// How far `buf` has been searched for a line break.
    searched: usize,
    exhausted: bool,
    /// The number of the last line handed out.
    line: u64,
}

/// What comes next in the input.
enum Next<'a> {
    /// Whole lines (each with its line break, the last one possibly without).
    Lines(&'a [u8]),
    /// A line longer than a batch, to be read with [`OneLine`].
    Long,
    /// The end of the input.
    End,
}

impl<R: Read> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            buf: Vec::new(),
            filled: 0,
            start: 0,
            searched: 0,
            exhausted: false,
            line: 0,
        }
    }

    /// Reads once into the buffer; returns the number of bytes read. A file fills a batch in one
    /// read; a pipe gives what it holds.
    fn read(&mut self) -> io::Result<usize> {
        let want = BATCH.saturating_sub(self.filled).max(CHUNK);
        if self.buf.len() < self.filled + want {
            self.buf.resize(self.filled + want, 0);
        }
        let read = loop {
            match self.reader.read(&mut self.buf[self.filled..self.filled + want]) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                result => break result?.min(want),
            }
        };
        self.filled += read;
        if read == 0 {
            self.exhausted = true;
        }
        Ok(read)
    }

    /// Forgets the first `count` bytes.
    fn drop_front(&mut self, count: usize) {
        self.buf.copy_within(count..self.filled, 0);
        self.filled -= count;
        self.start -= count.min(self.start);
        self.searched -= count.min(self.searched);
    }

    /// The next batch of whole lines, reading until one line is whole, the batch is full or the
    /// input ends.
    fn next(&mut self) -> io::Result<Next<'_>> {
        self.drop_front(self.start);
        let at_start = self.line == 0 && self.filled == 0;
        loop {
            let unsearched = &self.buf[self.searched..self.filled];
            if let Some(last) = unsearched.iter().rposition(|&b| b == b'\n') {
                self.searched += last + 1;
                break;
            }
            self.searched = self.filled;
            if self.exhausted || self.filled >= BATCH {
                break;
            }
            self.read()?;
        }
        if at_start && self.buf[..self.filled].starts_with(BOM) {
            self.drop_front(BOM.len());
        }
        let end = if self.exhausted && self.searched == self.filled {
            self.filled
        } else {
            self.buf[..self.searched].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
        };
        if end > 0 {
            self.start = end;
            return Ok(Next::Lines(&self.buf[..end]));
        }
        Ok(if self.filled == 0 { Next::End } else { Next::Long })
    }
}

const BOM: &[u8] = "\u{feff}".as_bytes();

/// The rest of one line of [`Lines`] as a reader: it ends after the line break.
struct OneLine<'a, R> {
    lines: &'a mut Lines<R>,
    done: bool,
}

impl<R: Read> Read for OneLine<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.done || out.is_empty() {
            return Ok(0);
        }
        let lines = &mut *self.lines;
        if lines.start == lines.filled {
            lines.filled = 0;
            lines.start = 0;
            lines.searched = 0;
            if lines.exhausted || lines.read()? == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let available = &lines.buf[lines.start..lines.filled];
        let (len, whole) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        let given = len.min(out.len());
        out[..given].copy_from_slice(&available[..given]);
        lines.start += given;
        self.done = whole && given == len;
        Ok(given)
    }
}

/// Judges every line as a record of its own: checked in parallel, a batch at a time, answers
/// in input order.
pub fn judge_lines(input: impl Read, listener: &mut impl Listener) -> Result<(), JudgeError> {
    let placed = listener.wants_place();
    let mut lines = Lines::new(input);
    loop {
        let first = lines.line + 1;
        match lines.next().map_err(JudgeError::Read)? {
            Next::End => break,
            Next::Lines(batch) => {
                let batch = batch.strip_suffix(b"\n").unwrap_or(batch);
                let records: Vec<&[u8]> = batch.split(|&b| b == b'\n').collect();
                let checked: Vec<(Verdict, u32)> = records
                    .par_iter()
                    .map(|&line| {
                        let line = line.strip_suffix(b"\r").unwrap_or(line);
                        // Valid text is checked in place; other bytes become U+FFFD.
                        let text = match std::str::from_utf8(line) {
                            Ok(text) => Cow::Borrowed(text),
                            Err(_) => String::from_utf8_lossy(line),
                        };
                        let verdict = check_record(&text);
                        // A mistake is placed only when its place is wanted.
                        let column = match &verdict {
                            Verdict::No(mistake) if placed => {
                                place_at(&text, mistake.offset.unwrap_or(0)).column
                            }
                            _ => 1,
                        };
                        (verdict, column)
                    })
                    .collect();
                lines.line += records.len() as u64;
                for (number, (verdict, column)) in (first..).zip(&checked) {
                    let at = Place { line: clamp(number), column: *column };
                    hand_over(listener, Some(number), verdict, || at)?;
                }
            }
            Next::Long => {
                let mut one = OneLine { lines: &mut lines, done: false };
                let mut scanner = Scanner::from_reader(&mut one);
                let (verdict, at) = check_stream(&mut scanner).map_err(|mut error| {
                    error.place.line = clamp(first);
                    error
                })?;
                drop(scanner);
                let at = Place { line: clamp(first), column: at.column };
                hand_over(listener, Some(first), &verdict, || at)?;
                // The answer goes out before the rest of the line (after its first mistake)
                // is skipped, which takes as long as the line goes on.
                listener.flush().map_err(JudgeError::Output)?;
                io::copy(&mut one, &mut io::sink()).map_err(JudgeError::Read)?;
                lines.searched = lines.start;
                lines.line += 1;
            }
        }
        // Out before the next batch is read, which may wait for input.
        listener.flush().map_err(JudgeError::Output)?;
    }
    Ok(())
}

fn clamp(line: u64) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer as `LINE: Yes` or `LINE: No at L:C`.
    #[derive(Default)]
    struct Collected(Vec<String>);

    impl Listener for Collected {
        fn wants_place(&self) -> bool {
            true
        }

        fn record(&mut self, judged: &Judged<'_>) -> io::Result<()> {
            let line = judged.line.map_or("all".to_owned(), |line| line.to_string());
            let place = judged.place.map_or(String::new(), |at| format!(" at {at}"));
            self.0.push(format!("{line}: {}{place}", judged.verdict));
            Ok(())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn lines(input: &[u8]) -> Vec<String> {
        let mut collected = Collected::default();
        judge_lines(input, &mut collected).unwrap();
        collected.0
    }

    #[test]
    fn lines_are_records_placed_on_their_own_line() {
        let input = "\u{feff}1. e4 e5\r\n1. e4 e5+\n\n1. e4  Nc3";
        assert_eq!(lines(input.as_bytes()), ["1: Yes", "2: No at 2:7", "3: Yes", "4: No at 4:8"]);
    }

    #[test]
    fn a_line_longer_than_a_batch_is_read_as_a_stream() {
        let long = format!("1. e4 {}e5 Nf6\n", " ".repeat(BATCH));
        let input = format!("1. e4\n{long}1. d4\n");
        let answers = lines(input.as_bytes());
        assert_eq!(answers[0], "1: Yes");
        assert_eq!(answers[1], format!("2: No at 2:{}", BATCH + 10));
        assert_eq!(answers[2], "3: Yes");
    }

    #[test]
    fn a_whole_input_is_one_record() {
        let mut collected = Collected::default();
        judge_record("1. e4\n e5 2.".as_bytes(), &mut collected).unwrap();
        assert_eq!(collected.0, ["all: No at 2:7"]);
    }
}
