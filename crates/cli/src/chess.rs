//! `arbiter chess`: the official record check, and the PGN tools around it.

mod convert;
mod fix;
mod pgn;
mod source;

use crate::input::{CliError, FileArg};
use crate::records::Answers;

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
    /// One JSON object per record on stdout instead of `Yes` / `No`.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Validate the games of PGN files: one line per game, then a summary.
    Pgn(pgn::PgnArgs),
    /// Rewrite a record or a PGN file into canonical SAN.
    Fix(fix::FixArgs),
    /// PGN files into a Parquet dataset, a row per game with typed columns, or a dataset back
    /// into PGN.
    Convert(convert::ConvertArgs),
    #[command(flatten)]
    Contest(crate::contest::Command<arbiter_contest::chess::ChessProblem>),
    /// Check test files strictly, as testlib's validators do: one line, one space between
    /// tokens, a final line feed, move numbers from 1, at most 300 rounds, moves in the
    /// statement's shapes. Exit status 0 valid, 3 invalid, with `FILE:LINE:COL: expected ...`.
    Validate(crate::validate::ValidateArgs),
    /// Write a problem package for a judge system into DIR: statement, samples, the official
    /// data and generated tests covering every corner, validator and solutions.
    Package(crate::package::PackageArgs),
}

/// Runs `arbiter chess`.
pub fn run(args: Args) -> Result<(), CliError> {
    let answers = Answers::new(args.explain, args.json);
    match args.command {
        Some(Command::Pgn(args)) => pgn::run(args),
        Some(Command::Fix(args)) => fix::run(args),
        Some(Command::Convert(args)) => convert::run(args),
        Some(Command::Contest(command)) => crate::contest::run(command),
        Some(Command::Validate(args)) => crate::validate::run(crate::validate::Format::Chess, args),
        Some(Command::Package(args)) => {
            crate::package::run::<arbiter_contest::chess::ChessProblem>(args)
        }
        None if args.each_line => crate::records::run_lines(&args.input, answers),
        None => crate::records::run_record(&args.input, answers),
    }
}
