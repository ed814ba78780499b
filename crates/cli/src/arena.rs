//! `arbiter arena`: the official skill-arena judge, its rule readings, and `arena trace`.

use std::io::{self, Write};
use std::path::Path;

use arbiter_arena::event::Event;
use arbiter_arena::io::Games;
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::play_with;
use arbiter_arena::{Answer, JudgeError, judge_games, run_error};
use arbiter_scan::{Found, ScanError, Scanner, Stream};
use serde::Serialize;

use crate::input::{CliError, FileArg, Opened};
use crate::output::Output;

/// Arguments of `arbiter arena`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    rules: RulesArg,
    /// One JSON object per game on stdout instead of the official output.
    #[arg(long)]
    json: bool,
}

/// Subcommands of `arbiter arena`.
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Writes every event of the games as JSON lines (schema: arbiter_arena::event).
    Trace {
        #[command(flatten)]
        input: FileArg,
        #[command(flatten)]
        rules: RulesArg,
        /// Trace only game N (1-based).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        game: Option<u32>,
    },
    #[command(flatten)]
    Contest(crate::contest::Command<arbiter_contest::arena::ArenaProblem>),
    /// Check test files strictly, as testlib's validators do: the layout (one space between
    /// numbers, a line feed after every line) and every limit of the statement. Exit status 0
    /// valid, 3 invalid, with `FILE:LINE:COL: expected ..., found ...`.
    Validate(crate::validate::ValidateArgs),
    /// Write a problem package for a judge system into DIR: statement, samples, the official
    /// data and generated tests covering every corner, validator and solutions.
    Package(crate::package::PackageArgs),
}

/// The `--rules` option shared by the judge and the trace.
#[derive(Debug, Clone, clap::Args)]
struct RulesArg {
    /// Rule reading: `official` (default) or `statement`, then `,+NAME` / `,-NAME` switches,
    /// e.g. `official,+shadow-any` (reproduces the published sample) or
    /// `statement,-rabi-enemy`.
    #[arg(long, value_name = "RULES", default_value = "official", value_parser = parse_rules)]
    rules: Rules,
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse().map_err(|error: arbiter_arena::rules::RulesError| error.to_string())
}

/// Runs `arbiter arena`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        None => judge(args.input.file.as_deref(), args.rules.rules, args.json),
        Some(Command::Trace { input, rules, game }) => {
            trace(input.file.as_deref(), rules.rules, game)
        }
        Some(Command::Contest(command)) => crate::contest::run(command),
        Some(Command::Validate(args)) => crate::validate::run(crate::validate::Format::Arena, args),
        Some(Command::Package(args)) => {
            crate::package::run::<arbiter_contest::arena::ArenaProblem>(args)
        }
    }
}

type InputGames = Games<'static, Stream<std::fs::File>>;

/// Opens the input and reads T.
fn open(path: Option<&Path>) -> Result<(Opened, InputGames), CliError> {
    let input = Opened::open(path)?;
    let reader = input
        .file
        .try_clone()
        .map_err(|error| CliError::Read { source_name: input.name.clone(), error })?;
    match Games::new(Scanner::from_reader(reader)) {
        Ok(games) => Ok((input, games)),
        Err(error) => Err(input.error(error)),
    }
}

/// A judge error of `input`.
fn judge_error(input: &Opened, error: JudgeError) -> CliError {
    match error {
        JudgeError::Scan(error) => input.error(error),
        run @ JudgeError::Run { .. } => CliError::Message(format!("{}:{run}", input.name)),
    }
}

/// Warns about content after the last game.
fn warn_trailing(report: &mut Output, games: &mut InputGames) {
    if let Some(position) = games.trailing() {
        report.warning(position, "ignoring input after the last game");
    }
}

/// The official judge: each game's output is written out as soon as it is known, so the output
/// of the complete games stays when a later game is malformed.
fn judge(path: Option<&Path>, rules: Rules, json: bool) -> Result<(), CliError> {
    let (input, mut games) = open(path)?;
    let mut report = Output::new(&input.name);
    let mut failure = None;
    let result = judge_games(&mut games, rules, |number, outcome| {
        if failure.is_some() {
            return;
        }
        let written = if json {
            serde_json::to_writer(&mut report, &Answer::new(number, outcome))
                .map_err(io::Error::from)
                .and_then(|()| report.write_all(b"\n"))
        } else {
            write!(report, "{outcome}")
        };
        // Out before the next game is read, which may wait for input.
        failure = written.and_then(|()| report.flush()).err();
    });
    if let Some(error) = failure {
        return Err(error.into());
    }
    result.map_err(|error| judge_error(&input, error))?;
    warn_trailing(&mut report, &mut games);
    report.flush()?;
    Ok(())
}

/// One JSON line of the trace.
#[derive(Serialize)]
struct Line<'a> {
    game: usize,
    round: u32,
    #[serde(flatten)]
    event: &'a Event,
}

/// `arbiter arena trace`: every game is read (so that malformed input and trailing content are
/// reported as by the judge); the chosen ones are played and traced.
fn trace(path: Option<&Path>, rules: Rules, only: Option<u32>) -> Result<(), CliError> {
    let (input, mut games) = open(path)?;
    let count = games.announced();
    let only = only.map(|n| n as usize);
    if let Some(n) = only.filter(|&n| n > count) {
        let error = ScanError {
            place: games.count_place(),
            expected: format!("the number of games T, at least {n} to trace game {n}"),
            found: Found::token(&count.to_string()),
        };
        return Err(input.error(error));
    }
    let mut report = Output::new(&input.name);
    while let Some(game) = games.next() {
        let (number, game) = game.map_err(|error| input.error(error))?;
        if only.is_some_and(|n| n != number) {
            continue;
        }
        let mut failure: Option<io::Error> = None;
        let mut write = |round: u32, event: &Event| {
            if failure.is_none() {
                let line = Line { game: number, round, event };
                let result = serde_json::to_writer(&mut report, &line)
                    .map_err(io::Error::from)
                    .and_then(|()| report.write_all(b"\n"));
                failure = result.err();
            }
        };
        write(0, &Event::start_under(&game, rules));
        let result = play_with(&game, rules, |round: u32, event: Event| write(round, &event));
        if let Some(error) = failure {
            return Err(error.into());
        }
        result.map_err(|error| judge_error(&input, run_error(&games, number, error)))?;
        report.flush()?;
    }
    warn_trailing(&mut report, &mut games);
    report.flush()?;
    Ok(())
}
