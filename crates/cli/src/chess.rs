//! `arbiter chess`: the official record check, and the PGN tools around it.

mod fix;
mod pgn;
mod source;
mod stream;

use std::io::{self, BufWriter, Write};

use arbiter_chess_record::{Mistake, Verdict, check_record};
use arbiter_scan::position_at;
use rayon::prelude::*;

use crate::input::{CliError, FileArg, Input};

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
    Pgn(pgn::PgnArgs),
    /// Rewrite a record or a PGN file into canonical SAN.
    Fix(fix::FixArgs),
}

/// Runs `arbiter chess`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Some(Command::Pgn(args)) => pgn::run(args),
        Some(Command::Fix(args)) => fix::run(args),
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
