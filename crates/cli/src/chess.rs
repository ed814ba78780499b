//! `arbiter chess`: the official record check, and the PGN tools around it.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arbiter_chess_record::fix::{fix_pgn, fix_record};
use arbiter_chess_record::pgn::{GameError, GameReport, Mode, PgnGame, PgnGames};
use arbiter_chess_record::{Dialect, Mistake, Verdict, check_record};
use rayon::prelude::*;
use serde_json::json;

use crate::input::{CliError, FileArg, Input, warn};

/// Arguments of `arbiter chess`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    input: FileArg,
    /// On `No`, say on stderr which token is wrong, where, which rule it breaks and how to
    /// write it.
    #[arg(long)]
    explain: bool,
    /// Check every line as a record of its own, one answer per line, on all cores.
    #[arg(long)]
    each_line: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Validate the games of PGN files: one line per game, then a summary.
    Pgn(PgnArgs),
    /// Rewrite a record or a PGN file into canonical SAN.
    Fix(FixArgs),
}

/// Arguments of `arbiter chess pgn`.
#[derive(Debug, clap::Args)]
struct PgnArgs {
    /// PGN files (`-` for standard input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Require canonical standard SAN for every move (the default).
    #[arg(long, conflicts_with = "lenient")]
    strict: bool,
    /// Accept any spelling that denotes one legal move, warning with the canonical one.
    #[arg(long)]
    lenient: bool,
    /// One JSON object per game on stdout instead of text.
    #[arg(long)]
    json: bool,
}

/// Arguments of `arbiter chess fix`.
#[derive(Debug, clap::Args)]
struct FixArgs {
    #[command(flatten)]
    input: FileArg,
    /// The spelling to write: `standard` (`e8=Q`, `#`) or `contest` (`e8Q`, `+` on mate).
    #[arg(long, default_value = "standard")]
    dialect: Dialect,
}

/// Runs `arbiter chess`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Some(Command::Pgn(pgn)) => run_pgn(pgn),
        Some(Command::Fix(fix)) => run_fix(fix),
        None if args.each_line => run_lines(&args.input),
        None => run_record(&args.input, args.explain),
    }
}

/// The official judge: the whole input is one record; `Yes` or `No` on stdout.
fn run_record(file: &FileArg, explain: bool) -> Result<(), CliError> {
    let input = Input::read(file.file.as_deref())?;
    let verdict = check_record(&input.text);
    if let (true, Verdict::No(mistake)) = (explain, &verdict) {
        eprintln!("{}:{}", input.name, located(&input.text, mistake));
    }
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{verdict}")?;
    stdout.flush()?;
    Ok(())
}

/// `LINE:COL: mistake`, the position of the token in `text`.
fn located(text: &str, mistake: &Mistake) -> String {
    let offset = mistake.offset.unwrap_or(0).min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    format!("{line}:{column}: {mistake}")
}

/// One record per line, checked in parallel, answers in input order.
fn run_lines(file: &FileArg) -> Result<(), CliError> {
    let input = Input::read(file.file.as_deref())?;
    let lines: Vec<&str> = input.text.lines().collect();
    let answers: Vec<bool> = lines
        .par_iter()
        .map(|line| check_record(line).is_yes())
        .collect();
    let mut out = BufWriter::new(io::stdout().lock());
    for yes in answers {
        out.write_all(if yes { b"Yes\n" } else { b"No\n" })?;
    }
    out.flush()?;
    Ok(())
}

/// Games are read sequentially and checked in parallel, this many at a time.
const BATCH: usize = 2048;

/// Inputs smaller than this get no progress bar.
const PROGRESS_BYTES: u64 = 8 << 20;

fn run_pgn(args: PgnArgs) -> Result<(), CliError> {
    let mode = if args.lenient {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut games, mut bad, mut warnings) = (0usize, 0usize, 0usize);
    for path in &args.files {
        let (name, source, size) = open(path)?;
        let read = Arc::new(AtomicU64::new(0));
        let progress = progress_bar(size);
        let mut reader = PgnGames::new(Counting {
            inner: source,
            read: Arc::clone(&read),
        });
        let mut read_batch = || -> Vec<PgnGame> { reader.by_ref().take(BATCH).collect() };
        let mut batch = read_batch();
        while !batch.is_empty() {
            // Reading the next batch overlaps with checking this one.
            let (reports, next) = rayon::join(
                || {
                    batch
                        .par_iter()
                        .map(|game| game.check(mode))
                        .collect::<Vec<GameReport>>()
                },
                &mut read_batch,
            );
            for report in &reports {
                games += 1;
                bad += usize::from(report.result.is_err());
                warnings += report.warnings.len();
                if args.json {
                    writeln!(out, "{}", game_json(&name, report))?;
                } else {
                    write_game(&mut out, &name, report)?;
                }
            }
            if let Some(bar) = &progress {
                bar.set_position(read.load(Ordering::Relaxed));
            }
            batch = next;
        }
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
    }
    let summary = format!(
        "{games} games: {} ok, {bad} with errors, {warnings} warnings",
        games - bad
    );
    if args.json {
        out.flush()?;
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}")?;
        out.flush()?;
    }
    if bad > 0 {
        // A validator's status says whether everything passed; 2 stays for unusable input.
        std::process::exit(1);
    }
    Ok(())
}

/// Opens a PGN file (or standard input for `-`), with its size when known.
fn open(path: &PathBuf) -> Result<(String, Box<dyn Read + Send>, u64), CliError> {
    if path.as_os_str() == "-" {
        return Ok(("<stdin>".to_owned(), Box::new(io::stdin()), 0));
    }
    let name = path.display().to_string();
    let read_error = |error| CliError::Read {
        source_name: name.clone(),
        error,
    };
    let file = File::open(path).map_err(read_error)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    Ok((
        name,
        Box::new(io::BufReader::with_capacity(1 << 16, file)),
        size,
    ))
}

/// A progress bar on stderr, only for large inputs and only when stderr is a terminal.
fn progress_bar(size: u64) -> Option<indicatif::ProgressBar> {
    if size < PROGRESS_BYTES || !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(size);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// Counts the bytes read, for the progress bar.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

fn write_game(out: &mut impl Write, name: &str, report: &GameReport) -> io::Result<()> {
    let game = format!(
        "{name}:game {} ({} - {})",
        report.index, report.white, report.black
    );
    for warning in &report.warnings {
        writeln!(out, "{game}: warning: {warning}")?;
    }
    match &report.result {
        Ok(()) => writeln!(out, "{game}: ok"),
        Err(error) => writeln!(out, "{game}: {error}"),
    }
}

fn game_json(name: &str, report: &GameReport) -> serde_json::Value {
    let error = match &report.result {
        Ok(()) => serde_json::Value::Null,
        Err(GameError::Move(mistake)) => mistake_json(mistake),
        Err(error) => json!({ "message": error.to_string() }),
    };
    json!({
        "file": name,
        "game": report.index,
        "white": report.white,
        "black": report.black,
        "ok": report.result.is_ok(),
        "plies": report.plies,
        "error": error,
        "warnings": report.warnings.iter().map(mistake_json).collect::<Vec<_>>(),
    })
}

fn mistake_json(mistake: &Mistake) -> serde_json::Value {
    let canonical = match &mistake.fault {
        arbiter_chess_record::Fault::Misspelled { canonical, .. } => json!(canonical),
        _ => serde_json::Value::Null,
    };
    json!({
        "ply": mistake.ply,
        "move_number": mistake.move_number,
        "side": mistake.side.to_string(),
        "token": mistake.token,
        "reason": mistake.fault.to_string(),
        "canonical": canonical,
    })
}

fn run_fix(args: FixArgs) -> Result<(), CliError> {
    let input = Input::read(args.input.file.as_deref())?;
    let mut out = BufWriter::new(io::stdout().lock());
    // A PGN file starts with a tag; a contest record with a move number.
    if input.text.trim_start().starts_with('[') {
        let fixed = fix_pgn(input.text.as_bytes(), args.dialect);
        out.write_all(fixed.text.as_bytes())?;
        out.flush()?;
        for (game, error) in &fixed.syntax_errors {
            warn(
                &input.name,
                format_args!("game {game}: PGN syntax: {error}"),
            );
        }
        for (game, mistake) in &fixed.mistakes {
            warn(
                &input.name,
                format_args!("game {game}: {mistake}; copied as written"),
            );
        }
        if !fixed.mistakes.is_empty() || !fixed.syntax_errors.is_empty() {
            std::process::exit(1);
        }
        return Ok(());
    }
    match fix_record(&input.text, args.dialect) {
        Ok(record) => {
            writeln!(out, "{record}")?;
            out.flush()?;
            Ok(())
        }
        Err(mistake) => Err(CliError::Message(format!(
            "{}:{}",
            input.name,
            located(&input.text, &mistake)
        ))),
    }
}
