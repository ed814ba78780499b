//! `arbiter chess fix`: a record or a PGN input rewritten into canonical SAN, streamed, every
//! byte that is not a rewritten move written back as it was.

use std::io::{self, Cursor, Read, Write};

use arbiter_chess_record::Dialect;
use arbiter_chess_record::fix::{Edit, PgnSniffer, Rewrite, fix_record, rewrite_game};
use arbiter_chess_record::pgn::{BatchError, Located, Piece, Problem, for_each_batch};
use arbiter_scan::{Place, place_at};
use rayon::prelude::*;

use super::source::{Source, progress_bar};
use crate::input::{CliError, FileArg};
use crate::output::Output;

/// What `arbiter chess fix --help` promises after its options.
const PROMISES: &str = "\
Nothing is lost: every record and game comes out, in order. One that cannot be rewritten (an \
illegal or ambiguous move in a record, broken syntax, an unknown variant, a bad FEN tag, a size \
over --max-game-mib) comes out byte for byte as it was written, reported on stderr as \
FILE:LINE:COL: ...; in a PGN game an illegal or ambiguous move is kept as written with the rest \
of its line. Every move rewritten is canonical SAN standing apart as it stood (a dropped `e.p.` \
glues nothing to its move), so fix adds nothing strict `chess pgn` rejects. Each byte of the \
input is looked at a bounded number of times: time is linear in its length. Exit status: 0 \
everything rewritten, 1 something kept as written, 2 the input cannot be read.";

/// Arguments of `arbiter chess fix`.
#[derive(Debug, clap::Args)]
#[command(after_help = PROMISES)]
pub struct FixArgs {
    #[command(flatten)]
    input: FileArg,
    /// The spelling to write: `standard` (`e8=Q`, `#`) or `contest` (`e8Q`, `+` on mate).
    #[arg(long, default_value = "standard")]
    dialect: Dialect,
    /// The largest game (or record) read, in MiB: a larger one is passed on as written and
    /// reported (exit status 1).
    #[arg(long, value_name = "MIB", default_value_t = 48)]
    max_game_mib: usize,
    /// One JSON object per record or PGN game on stdout, with its edits and problems, instead
    /// of the rewritten text.
    #[arg(long)]
    json: bool,
}

/// A record's JSON object: the record rewritten (null when it could not be) and its problems.
#[derive(serde::Serialize)]
struct RecordJson<'a> {
    file: &'a str,
    fixed: Option<&'a str>,
    problems: &'a [Problem],
}

/// A PGN game's JSON object: the game, where it starts, each move rewritten and the problems
/// that kept something as written.
#[derive(serde::Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    line: u32,
    column: u32,
    edits: &'a [Edit],
    problems: &'a [Problem],
}

/// Rewrites `head`, a whole record: written afresh, or as it was when a move cannot be read.
fn fix_whole_record(
    head: &[u8],
    name: &str,
    args: FixArgs,
    mut out: Output,
) -> Result<(), CliError> {
    let text = String::from_utf8_lossy(head);
    let fixed = fix_record(&text, args.dialect);
    let problem = fixed.as_ref().err().map(|mistake| {
        let at = place_at(&text, mistake.offset.unwrap_or(0));
        Problem::Move(Box::new(Located { at, mistake: mistake.clone() }))
    });
    match (&problem, args.json) {
        (_, true) => {
            let fixed = fixed.as_deref().ok();
            let problems = problem.as_slice();
            write_json(&mut out, &RecordJson { file: name, fixed, problems })?;
        }
        (None, false) => writeln!(out, "{}", fixed.as_deref().unwrap_or_default())?,
        (Some(problem), false) => {
            // Nothing is lost: the record goes on byte for byte as it was written.
            out.write_all(head)?;
            out.note(problem.at(), format_args!("{problem}; record kept as written"));
        }
    }
    out.flush()?;
    if problem.is_some() { Err(CliError::Findings) } else { Ok(()) }
}

/// Writes one JSON object and its line break.
fn write_json(out: &mut Output, object: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, object)?;
    out.write_all(b"\n")
}

/// How much of the input is read before deciding whether it is PGN or a record, at a time.
const SNIFF: usize = 64 << 10;

/// What the start of the input turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pgn,
    /// A record, read whole.
    Record,
    /// A record longer than the limit: only its start was read.
    LongRecord,
}

/// Reads the input until it is known to be PGN (by [`PgnSniffer`], each byte looked at once),
/// a whole record, or a record over `limit` bytes; what was read, and which it is.
fn read_head(source: &mut Source, limit: usize) -> Result<(Vec<u8>, Kind), CliError> {
    let mut head = Vec::new();
    let mut sniffer = PgnSniffer::default();
    loop {
        let before = head.len();
        // One read at a time, so that PGN coming slowly on a pipe is known, and its first
        // game rewritten, without waiting for more.
        head.resize(before + SNIFF, 0);
        let read = loop {
            match source.reader.read(&mut head[before..]) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                read => break read,
            }
        };
        head.truncate(before + read.as_ref().map_or(0, |&n| n));
        read.map_err(|error| CliError::Message(source.error(1, &error)))?;
        if head.len() == before {
            let kind = if sniffer.finish() { Kind::Pgn } else { Kind::Record };
            return Ok((head, kind));
        }
        if sniffer.feed(&head[before..]) {
            // A NUL byte in PGN is found where the games are read.
            return Ok((head, Kind::Pgn));
        }
        if let Some(nul) = head[before..].iter().position(|&b| b == 0) {
            return Err(End::START.after(&head[..before + nul]).nul_byte(&source.name));
        }
        if head.len() > limit {
            return Ok((head, Kind::LongRecord));
        }
    }
}

/// Where the text read so far ends: its line and the characters of that line, as messages
/// count them (lines end at `\n`, a byte that continues a UTF-8 sequence is no character).
#[derive(Clone, Copy, Debug)]
struct End {
    line: usize,
    chars: usize,
}

impl End {
    const START: End = End { line: 1, chars: 0 };

    fn after(self, bytes: &[u8]) -> End {
        let chars = |bytes: &[u8]| bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count();
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(last) => End {
                line: self.line + bytes.iter().filter(|&&b| b == b'\n').count(),
                chars: chars(&bytes[last + 1..]),
            },
            None => End { chars: self.chars + chars(bytes), ..self },
        }
    }

    /// The error for a NUL byte here: no text holds one (it is binary data, or `/dev/zero`),
    /// and reading on would find no end.
    fn nul_byte(self, name: &str) -> CliError {
        CliError::Message(format!(
            "{name}:{}:{}: expected a record or PGN text, found a NUL byte",
            self.line,
            self.chars + 1
        ))
    }
}

/// Copies the rest of a record too long to rewrite, read after `head`, up to a NUL byte (an
/// error: see [`End::nul_byte`]).
fn pass_on(source: &mut Source, head: &[u8], out: &mut Output) -> Result<(), CliError> {
    let mut end = End::START.after(head);
    let mut buf = vec![0; SNIFF];
    loop {
        let n = match source.reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(CliError::Message(source.error(1, &error))),
        };
        let chunk = &buf[..n];
        if let Some(nul) = chunk.iter().position(|&b| b == 0) {
            out.write_all(&chunk[..nul])?;
            return Err(end.after(&chunk[..nul]).nul_byte(&source.name));
        }
        // Passed on as it comes, as a pipe gives it.
        out.write_all(chunk)?;
        out.flush()?;
        end = end.after(chunk);
    }
}

/// Rewrites a record or a PGN input (told apart by [`PgnSniffer`] on as much of the
/// input as it takes). Every record and game comes out, in order: rewritten, or as it was
/// written when it cannot be (a move that cannot be read, broken syntax, a game or record over
/// the size limit), each such problem reported on stderr. Exit status 0 when everything was
/// rewritten, 1 when something was kept as written, 2 when the input cannot be read.
pub fn run(args: FixArgs) -> Result<(), CliError> {
    let mut source = Source::open(args.input.file.as_deref())?;
    let limit = args.max_game_mib.saturating_mul(1 << 20);
    let (head, kind) = read_head(&mut source, limit)?;
    let mut out = Output::new(&source.name);
    match kind {
        Kind::Pgn => {}
        Kind::Record => return fix_whole_record(&head, &source.name, args, out),
        Kind::LongRecord => {
            let problem = Problem::TooLarge { at: Place { line: 1, column: 1 }, limit };
            if args.json {
                let problems = std::slice::from_ref(&problem);
                write_json(&mut out, &RecordJson { file: &source.name, fixed: None, problems })?;
            } else {
                // Passed on as it is, streamed: it is not held in memory.
                out.write_all(&head)?;
                pass_on(&mut source, &head, &mut out)?;
                out.note(
                    problem.at(),
                    format_args!(
                        "the record is larger than {} MiB, the most a record may hold; kept as \
                         written",
                        args.max_game_mib
                    ),
                );
            }
            out.flush()?;
            return Err(CliError::Findings);
        }
    }
    let rest = source.take_reader();
    source.reader = Box::new(Cursor::new(head).chain(rest));
    let progress = progress_bar(&source);
    let name = source.name.clone();
    let read = source.read.clone();
    let dialect = args.dialect;
    let mut problems = 0usize;
    let outcome = for_each_batch(source.take_reader(), limit, true, |batch| {
        let fixed: Vec<Option<Rewrite>> = batch
            .par_iter()
            .map(|piece| match piece {
                Piece::Game(game) => Some(rewrite_game(game, dialect)),
                _ => None,
            })
            .collect();
        for (piece, fixed) in batch.iter().zip(fixed) {
            match (piece, fixed) {
                (Piece::Game(game), Some(fixed)) => {
                    problems += fixed.problems.len();
                    if args.json {
                        let at = game.at;
                        write_json(
                            &mut out,
                            &GameJson {
                                file: &name,
                                game: game.index,
                                line: at.line,
                                column: at.column,
                                edits: &fixed.edits,
                                problems: &fixed.problems,
                            },
                        )?;
                        continue;
                    }
                    fixed.write(game, &mut out)?;
                    for problem in &fixed.problems {
                        let kept = match problem {
                            Problem::Move(_) => "kept as written, with the rest of its line",
                            _ => "game kept as written",
                        };
                        out.note(
                            problem.at(),
                            format_args!("game {}: {problem}; {kept}", game.index),
                        );
                    }
                }
                (Piece::Raw(bytes), _) if !args.json => out.write_all(bytes)?,
                (Piece::TooLarge { index, at, limit, .. }, _) => {
                    problems += 1;
                    let problem = Problem::TooLarge { at: *at, limit: *limit };
                    if args.json {
                        write_json(
                            &mut out,
                            &GameJson {
                                file: &name,
                                game: *index,
                                line: at.line,
                                column: at.column,
                                edits: &[],
                                problems: &[problem],
                            },
                        )?;
                    } else {
                        out.note(*at, format_args!("game {index}: {problem}; kept as written"));
                    }
                }
                _ => {}
            }
        }
        // Each batch goes out at once: on a slow input, a game as soon as it is read whole.
        match &progress {
            Some(bar) => {
                bar.set_position(read.load(std::sync::atomic::Ordering::Relaxed));
                bar.suspend(|| out.flush())
            }
            None => out.flush(),
        }
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    out.flush()?;
    match outcome {
        Ok(()) => {}
        Err(BatchError::Write(error)) => return Err(error.into()),
        Err(BatchError::Read(line, error)) => {
            return Err(CliError::Message(source.error(line, &error)));
        }
    }
    if problems > 0 {
        return Err(CliError::Findings);
    }
    Ok(())
}
