//! `arbiter chess`: the official record check, and the PGN tools around it.

use std::fs;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use arbiter_chess_record::fix::{fix_pgn, fix_record, looks_like_pgn};
use arbiter_chess_record::pgn::{GameError, GameReport, Located, Mode, split_games};
use arbiter_chess_record::{Dialect, Mistake, Shown, Verdict, check_record};
use arbiter_scan::position_at;
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
    #[command(flatten)]
    Contest(crate::contest::Command<crate::contest::Chess>),
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
        Some(Command::Contest(command)) => crate::contest::run(command),
        None if args.each_line => run_lines(&args.input, args.explain),
        None => run_record(&args.input, args.explain),
    }
}

/// The official judge: the whole input is one record; `Yes` or `No` on stdout.
fn run_record(file: &FileArg, explain: bool) -> Result<(), CliError> {
    let input = Input::read(file.file.as_deref())?;
    let verdict = check_record(input.text());
    if let (true, Verdict::No(mistake)) = (explain, &verdict) {
        eprintln!("{}:{}", input.name, located(input.text(), mistake));
    }
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{verdict}")?;
    stdout.flush()?;
    Ok(())
}

/// `LINE:COL: mistake`, the position of the token in `text`.
fn located(text: &str, mistake: &Mistake) -> String {
    format!("{}: {mistake}", position_at(text, mistake.offset.unwrap_or(0)))
}

/// One record per line, checked in parallel, answers in input order.
fn run_lines(file: &FileArg, explain: bool) -> Result<(), CliError> {
    let input = Input::read(file.file.as_deref())?;
    let lines: Vec<&str> = input.text().lines().collect();
    let verdicts: Vec<Verdict> = lines.par_iter().map(|line| check_record(line)).collect();
    let mut out = BufWriter::new(io::stdout().lock());
    for (number, verdict) in verdicts.iter().enumerate() {
        if let (true, Verdict::No(mistake)) = (explain, verdict) {
            // Each record is one line: its line number is its place in the file.
            let column = position_at(lines[number], mistake.offset.unwrap_or(0)).column;
            out.flush()?;
            eprintln!("{}:{}:{column}: {mistake}", input.name, number + 1);
        }
        out.write_all(if verdict.is_yes() { b"Yes\n" } else { b"No\n" })?;
    }
    out.flush()?;
    Ok(())
}

/// Games are read and checked in parallel, this many at a time, and reported in order.
const BATCH: usize = 2048;

/// Inputs smaller than this get no progress bar.
const PROGRESS_BYTES: u64 = 8 << 20;

/// Checks every game of every file; a file that cannot be read is reported and skipped, and
/// makes the exit status 2 once the other files are done.
fn run_pgn(args: PgnArgs) -> Result<(), CliError> {
    let mode = if args.lenient { Mode::Lenient } else { Mode::Strict };
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut games, mut bad, mut warnings, mut unreadable) = (0usize, 0usize, 0usize, 0usize);
    for path in &args.files {
        let (name, bytes) = match read_bytes(path) {
            Ok(file) => file,
            Err(error) => {
                out.flush()?;
                eprintln!("{error}");
                unreadable += 1;
                continue;
            }
        };
        let progress = progress_bar(bytes.len() as u64);
        let split = split_games(&bytes);
        for batch in split.chunks(BATCH) {
            // Each game is read and checked on its own, so the whole batch runs in parallel.
            let reports: Vec<GameReport> =
                batch.par_iter().map(|game| game.read().check(mode)).collect();
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
            if let (Some(bar), Some(last)) = (&progress, batch.last()) {
                bar.set_position((last.offset + last.text.len()) as u64);
            }
        }
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
    }
    let mut summary = format!(
        "{games} {}: {} ok, {bad} with errors, {warnings} {}",
        plural(games, "game", "games"),
        games - bad,
        plural(warnings, "warning", "warnings"),
    );
    if unreadable > 0 {
        summary += &format!(", {unreadable} {} not read", plural(unreadable, "file", "files"));
    }
    if args.json {
        out.flush()?;
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}")?;
        out.flush()?;
    }
    if unreadable > 0 {
        let files = plural(unreadable, "file", "files");
        return Err(CliError::Message(format!("{unreadable} {files} could not be read")));
    }
    if bad > 0 {
        return Err(CliError::Findings);
    }
    Ok(())
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The bytes of a PGN file, or of standard input for `-`, with the name messages use.
fn read_bytes(path: &Path) -> Result<(String, Vec<u8>), CliError> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin { "<stdin>".to_owned() } else { path.display().to_string() };
    let bytes = if stdin {
        let mut bytes = Vec::new();
        io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        fs::read(path)
    };
    match bytes {
        Ok(bytes) => Ok((name, bytes)),
        Err(error) => Err(CliError::Read { source_name: name, error }),
    }
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

/// One line per warning, then the verdict, each starting with the place it is about:
/// `FILE:LINE:COL:` (`FILE:LINE:` for a game that is fine, at its first line).
fn write_game(out: &mut impl Write, name: &str, report: &GameReport) -> io::Result<()> {
    let game =
        format!("game {} ({} - {})", report.index, Shown(&report.white), Shown(&report.black));
    for warning in &report.warnings {
        writeln!(out, "{name}:{}: {game}: warning: {warning}", warning.at)?;
    }
    match &report.result {
        Ok(()) => writeln!(out, "{name}:{}: {game}: ok", report.line),
        Err(error) => writeln!(out, "{name}:{}: {game}: {error}", error.at()),
    }
}

fn game_json(name: &str, report: &GameReport) -> serde_json::Value {
    let error = match &report.result {
        Ok(()) => serde_json::Value::Null,
        Err(GameError::Move(located)) => located_json(located),
        Err(error) => json!({
            "line": error.at().line,
            "column": error.at().column,
            "message": error.to_string(),
        }),
    };
    json!({
        "file": name,
        "game": report.index,
        "line": report.line,
        "white": report.white,
        "black": report.black,
        "ok": report.result.is_ok(),
        "plies": report.plies,
        "error": error,
        "warnings": report.warnings.iter().map(located_json).collect::<Vec<_>>(),
    })
}

fn located_json(located: &Located) -> serde_json::Value {
    let mistake = &located.mistake;
    let canonical = match &mistake.fault {
        arbiter_chess_record::Fault::Misspelled { canonical, .. } => json!(canonical),
        _ => serde_json::Value::Null,
    };
    json!({
        "line": located.at.line,
        "column": located.at.column,
        "ply": mistake.ply,
        "move_number": mistake.move_number,
        "side": mistake.side.to_string(),
        "token": mistake.token,
        "reason": mistake.fault.to_string(),
        "canonical": canonical,
    })
}

/// Rewrites a record or a PGN source (told apart by [`looks_like_pgn`]). Exit status 0 when
/// everything was rewritten, 1 when some game or move could not be (it is reported on stderr and
/// kept as written in a PGN source), 2 when the input cannot be read.
fn run_fix(args: FixArgs) -> Result<(), CliError> {
    let input = Input::read(args.input.file.as_deref())?;
    let mut out = BufWriter::new(io::stdout().lock());
    if looks_like_pgn(input.text()) {
        let fixed = fix_pgn(input.text().as_bytes(), args.dialect);
        out.write_all(fixed.text.as_bytes())?;
        out.flush()?;
        for (game, problem) in &fixed.problems {
            let kept = match problem {
                GameError::Move(_) => "kept as written, with the rest of its line",
                _ => "game kept as written",
            };
            warn(&input.name, format_args!("{}: game {game}: {problem}; {kept}", problem.at()));
        }
        if !fixed.problems.is_empty() {
            return Err(CliError::Findings);
        }
        return Ok(());
    }
    match fix_record(input.text(), args.dialect) {
        Ok(record) => {
            writeln!(out, "{record}")?;
            out.flush()?;
            Ok(())
        }
        Err(mistake) => {
            warn(&input.name, located(input.text(), &mistake));
            Err(CliError::Findings)
        }
    }
}
