//! `arbiter chess [FILE]` and `arbiter chess --each-line`: contest records read as streams.
//!
//! A record is read token by token ([`RecordCheck`]), so a record of any length costs a chunk
//! of memory. `--each-line` reads the lines in batches of at most [`BATCH`] bytes, checks each
//! batch on all cores and writes its answers before reading the next; a line longer than a batch
//! is read token by token like a record.

use std::io::{self, Read, Write};

use arbiter_chess_record::{Dialect, Fault, Mistake, RecordCheck, Verdict, check_record};
use arbiter_scan::{Place, ScanError, Scanner, Stream, place_at};
use rayon::prelude::*;
use serde::Serialize;

use crate::input::{CliError, FileArg, Opened};
use crate::report::Report;

/// What to write for each record.
#[derive(Debug, Clone, Copy)]
pub struct Answers {
    /// Explain each `No` on stderr.
    explain: bool,
    /// JSON objects on stdout instead of `Yes` / `No`.
    json: bool,
}

impl Answers {
    /// `--explain` and `--json` as given.
    pub fn new(explain: bool, json: bool) -> Answers {
        Answers { explain, json }
    }

    /// Whether the place of a mistake is written.
    fn placed(self) -> bool {
        self.explain || self.json
    }

    /// Writes the answer for the record on line `line` (`None` for a whole input): `Yes`, `No`
    /// or its JSON object on stdout, and with `--explain` the mistake on stderr at `place`.
    fn write(
        self,
        report: &mut Report,
        line: Option<u64>,
        verdict: &Verdict,
        place: impl FnOnce() -> Place,
    ) -> io::Result<()> {
        let mistake = match verdict {
            Verdict::No(mistake) if self.placed() => Some((mistake, place())),
            _ => None,
        };
        if self.json {
            let object = RecordJson::new(line, verdict, mistake.map(|(m, at)| (m.as_ref(), at)));
            serde_json::to_writer(&mut *report, &object)?;
            report.write_all(b"\n")?;
        } else {
            report.write_all(if verdict.is_yes() { b"Yes\n" } else { b"No\n" })?;
        }
        if let (true, Some((mistake, at))) = (self.explain, mistake) {
            report.note(at, mistake);
        }
        Ok(())
    }
}

/// One record as `arbiter chess --json` writes it, e.g.
/// `{"ok":false,"plies":2,"error":{"line":1,"column":12,"ply":3,"move_number":2,"side":"white",
/// "token":"Nb1d2","reason":"...","canonical":"Nd2"}}` (`--each-line` adds `"line"` first).
#[derive(Serialize)]
struct RecordJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    ok: bool,
    /// The moves accepted: all of them, or those before the mistake.
    plies: u32,
    error: Option<MistakeJson<'a>>,
}

/// Where a record goes wrong and why, the same fields as a PGN game's error.
#[derive(Serialize)]
struct MistakeJson<'a> {
    line: u32,
    column: u32,
    ply: u32,
    move_number: u32,
    side: &'static str,
    token: &'a str,
    reason: String,
    /// The right spelling of a legal move written wrong.
    canonical: Option<&'a str>,
}

impl<'a> RecordJson<'a> {
    fn new(line: Option<u64>, verdict: &Verdict, mistake: Option<(&'a Mistake, Place)>) -> Self {
        let plies = match verdict {
            Verdict::Yes { plies } => *plies,
            Verdict::No(mistake) => mistake.ply.saturating_sub(1),
        };
        let error = mistake.map(|(mistake, at)| MistakeJson {
            line: at.line,
            column: at.column,
            ply: mistake.ply,
            move_number: mistake.move_number,
            side: if mistake.side.is_white() { "white" } else { "black" },
            token: &mistake.token,
            reason: mistake.fault.to_string(),
            canonical: match &mistake.fault {
                Fault::Misspelled { canonical, .. } => Some(canonical),
                _ => None,
            },
        });
        RecordJson { line, ok: verdict.is_yes(), plies, error }
    }
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

/// The official judge: the whole input is one record; `Yes` or `No` on stdout.
pub fn run_record(file: &FileArg, answers: Answers) -> Result<(), CliError> {
    let input = Opened::open(file.file.as_deref())?;
    let mut scanner = Scanner::from_reader(&input.file);
    let (verdict, at) = check_stream(&mut scanner).map_err(|error| input.error(error))?;
    let mut report = Report::new(&input.name);
    answers.write(&mut report, None, &verdict, || at)?;
    report.flush()?;
    Ok(())
}

/// Lines are checked in batches of at most this many bytes, each on all cores.
const BATCH: usize = 1 << 20;

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

/// One record per line, checked in parallel, answers in input order.
pub fn run_lines(file: &FileArg, answers: Answers) -> Result<(), CliError> {
    let input = Opened::open(file.file.as_deref())?;
    let mut report = Report::new(&input.name);
    let mut lines = Lines::new(&input.file);
    let read_error = |error| CliError::Read { source_name: input.name.clone(), error };
    loop {
        let first = lines.line + 1;
        match lines.next().map_err(read_error)? {
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
                            Ok(text) => std::borrow::Cow::Borrowed(text),
                            Err(_) => String::from_utf8_lossy(line),
                        };
                        let verdict = check_record(&text);
                        // A mistake is placed only when its place is written.
                        let column = match &verdict {
                            Verdict::No(mistake) if answers.placed() => {
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
                    answers.write(&mut report, Some(number), verdict, || at)?;
                }
            }
            Next::Long => {
                let mut one = OneLine { lines: &mut lines, done: false };
                let mut scanner = Scanner::from_reader(&mut one);
                let (verdict, at) = check_stream(&mut scanner).map_err(|mut error| {
                    error.place.line = clamp(first);
                    input.error(error)
                })?;
                drop(scanner);
                let at = Place { line: clamp(first), column: at.column };
                answers.write(&mut report, Some(first), &verdict, || at)?;
                // The answer goes out before the rest of the line (after its first mistake)
                // is skipped, which takes as long as the line goes on.
                report.flush()?;
                io::copy(&mut one, &mut io::sink()).map_err(read_error)?;
                lines.searched = lines.start;
                lines.line += 1;
            }
        }
        // Out before the next batch is read, which may wait for input.
        report.flush()?;
    }
    Ok(())
}

fn clamp(line: u64) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}
