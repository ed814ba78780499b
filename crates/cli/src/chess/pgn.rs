//! `arbiter chess pgn`: one verdict per game of PGN files, in parallel, in bounded memory.

use std::io::{self, Write};
use std::path::PathBuf;

use arbiter_chess_record::Shown;
use arbiter_chess_record::pgn::{BatchError, GameReport, Mode, Piece, for_each_batch};
use rayon::prelude::*;

use super::source::{Source, progress_bar};
use crate::input::CliError;
use crate::output::Output;

/// Arguments of `arbiter chess pgn`.
#[derive(Debug, clap::Args)]
pub struct PgnArgs {
    /// PGN files, plain or compressed (gzip, bzip2, zstd); standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// PGN's export format: canonical standard SAN, right move numbers, a result (the default).
    #[arg(long, conflicts_with = "lenient")]
    strict: bool,
    /// Accept what real files hold (any spelling of one legal move, UCI moves, null moves, no
    /// result), warning with the canonical form.
    #[arg(long)]
    lenient: bool,
    /// One JSON object per game on stdout instead of text; summaries on stderr.
    #[arg(long)]
    json: bool,
    /// The largest game read, in MiB: a larger one is reported and skipped.
    #[arg(long, value_name = "MIB", default_value_t = 48)]
    max_game_mib: usize,
}

/// What the games of one input came to.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    bad: usize,
    warnings: usize,
}

impl Tally {
    fn add(&mut self, report: &GameReport) {
        self.games += 1;
        self.bad += usize::from(!report.ok);
        self.warnings += report.warnings.len();
    }
}

/// Checks every game of every input; an input that cannot be read is reported once the others
/// are done, and makes the exit status 2.
pub fn run(args: PgnArgs) -> Result<(), CliError> {
    let mode = if args.lenient { Mode::Lenient } else { Mode::Strict };
    let limit = args.max_game_mib.saturating_mul(1 << 20);
    let mut failures: Vec<CliError> = Vec::new();
    let mut any_bad = false;
    let files: Vec<Option<PathBuf>> =
        if args.files.is_empty() { vec![None] } else { args.files.into_iter().map(Some).collect() };
    for path in &files {
        let mut source = match Source::open(path.as_deref()) {
            Ok(source) => source,
            Err(error) => {
                failures.push(error);
                continue;
            }
        };
        let progress = progress_bar(&source);
        let mut tally = Tally::default();
        let name = source.name.clone();
        let mut out = Output::new(&name);
        let read = source.read.clone();
        let outcome = for_each_batch(source.take_reader(), limit, false, |batch| {
            let check = |piece: &Piece| match piece {
                Piece::Game(game) => Some(game.check(mode)),
                Piece::TooLarge { index, at, offset, limit } => {
                    Some(GameReport::too_large(*index, *at, *offset, *limit))
                }
                Piece::Raw(_) => None,
            };
            // On one thread the batch is checked here: handed to rayon's pool, it would leave
            // the pool's worker spinning idle while each batch is written out.
            let reports: Vec<GameReport> = if rayon::current_num_threads() > 1 {
                batch.par_iter().filter_map(check).collect()
            } else {
                batch.iter().filter_map(check).collect()
            };
            for report in &reports {
                tally.add(report);
                if args.json {
                    serde_json::to_writer(&mut out, &Json { file: &name, report })?;
                    out.write_all(b"\n")?;
                } else {
                    write_game(&mut out, &name, report)?;
                }
            }
            // Each batch is told at once: on a slow input, a game as soon as it is read whole.
            match &progress {
                Some(bar) => {
                    bar.set_position(read.load(std::sync::atomic::Ordering::Relaxed));
                    bar.set_message(format!("{} games", tally.games));
                    bar.suspend(|| out.flush())
                }
                None => out.flush(),
            }
        });
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        match outcome {
            Ok(()) => {}
            Err(BatchError::Write(error)) => return Err(error.into()),
            Err(BatchError::Read(line, error)) => {
                failures.push(CliError::Message(source.error(line, &error)));
            }
        }
        any_bad |= tally.bad > 0;
        let summary = format!(
            "{name}: {} {}: {} ok, {} with errors, {} {}",
            tally.games,
            plural(tally.games, "game", "games"),
            tally.games - tally.bad,
            tally.bad,
            tally.warnings,
            plural(tally.warnings, "warning", "warnings"),
        );
        if args.json {
            out.attach(format!("{summary}\n").as_bytes());
        } else {
            writeln!(out, "{summary}")?;
        }
        out.flush()?;
    }
    // Inputs that could not be read are told last, after everything that was read; the last
    // one is the error that ends the command with status 2.
    let last = failures.pop();
    if !failures.is_empty() {
        let mut messages = Output::new("");
        for failure in &failures {
            messages.attach(format!("{failure}\n").as_bytes());
        }
        messages.flush()?;
    }
    match last {
        Some(failure) => Err(failure),
        None if any_bad => Err(CliError::Findings),
        None => Ok(()),
    }
}

/// One game's JSON object: its file, then the report's fields.
#[derive(serde::Serialize)]
struct Json<'a> {
    file: &'a str,
    #[serde(flatten)]
    report: &'a GameReport,
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// One line per warning, then the verdict, each starting with the place it is about,
/// `FILE:LINE:COL:` (for a game that is fine, where it starts).
fn write_game(out: &mut impl Write, name: &str, report: &GameReport) -> io::Result<()> {
    let game = GameName(report);
    for warning in &report.warnings {
        writeln!(out, "{name}:{}: warning: {game}: {warning}", warning.at())?;
    }
    match &report.error {
        None => writeln!(out, "{name}:{}: {game}: ok", report.at()),
        Some(error) => writeln!(out, "{name}:{}: {game}: {error}", error.at()),
    }
}

/// How a game is named in its lines, `game 12 (White - Black)`: written straight into the
/// output, where a `String` made first would cost an allocation and a copy for every game.
struct GameName<'a>(&'a GameReport);

impl std::fmt::Display for GameName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let report = self.0;
        write!(f, "game {} ({} - {})", report.index, Shown(&report.white), Shown(&report.black))
    }
}
