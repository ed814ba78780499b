//! `arbiter arena`: the official skill-arena judge, its rule readings, and `arena trace`.

use std::io::{self, Write};
use std::path::Path;

use arbiter_arena::event::Event;
use arbiter_arena::io::{parse_count, parse_game};
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::{RunError, play, play_with};
use arbiter_scan::Scanner;
use serde::Serialize;

use crate::input::{CliError, FileArg, Input, warn};

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
        #[arg(long, value_name = "N")]
        game: Option<usize>,
    },
    #[command(flatten)]
    Contest(crate::contest::Command<crate::contest::Arena>),
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
        None => judge(args.input.file.as_deref(), args.rules.rules),
        Some(Command::Trace { input, rules, game }) => {
            trace(input.file.as_deref(), rules.rules, game)
        }
        Some(Command::Contest(command)) => crate::contest::run(command),
    }
}

/// A run-time violation, naming the input and the game.
fn run_error(input: &Input, game: usize, error: RunError) -> CliError {
    CliError::Message(format!("{}: game {game}, {error}", input.name))
}

/// The official judge: each game's output is printed as soon as it is known, so the output of
/// the complete games stays when a later game is malformed.
fn judge(path: Option<&Path>, rules: Rules) -> Result<(), CliError> {
    let input = Input::read(path)?;
    let mut scanner = Scanner::new(input.text());
    let count = parse_count(&mut scanner).map_err(|e| input.error(e))?;
    let stdout = io::stdout();
    // Standard output is line-buffered: a game's lines go out in one write, not one each.
    let mut out = io::BufWriter::new(stdout.lock());
    for number in 1..=count {
        let game = parse_game(&mut scanner).map_err(|e| input.error(e))?;
        let outcome = play(&game, rules).map_err(|e| run_error(&input, number, e))?;
        write!(out, "{outcome}")?;
        out.flush()?;
    }
    if !scanner.at_end() {
        let position = scanner.position();
        warn(&input.name, format!("{position}: ignoring input after the last game"));
    }
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

/// `arbiter arena trace`.
fn trace(path: Option<&Path>, rules: Rules, only: Option<usize>) -> Result<(), CliError> {
    let input = Input::read(path)?;
    let mut scanner = Scanner::new(input.text());
    let count = parse_count(&mut scanner).map_err(|e| input.error(e))?;
    if let Some(n) = only.filter(|&n| n == 0 || n > count) {
        return Err(CliError::Message(format!(
            "{}: no game {n} (the input has {count})",
            input.name
        )));
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for number in 1..=count {
        let game = parse_game(&mut scanner).map_err(|e| input.error(e))?;
        if only.is_some_and(|n| n != number) {
            continue;
        }
        let mut failure: Option<io::Error> = None;
        let mut write = |round: u32, event: &Event| {
            if failure.is_none() {
                let line = Line { game: number, round, event };
                let result = serde_json::to_writer(&mut out, &line)
                    .map_err(io::Error::from)
                    .and_then(|()| out.write_all(b"\n"));
                failure = result.err();
            }
        };
        write(0, &Event::start(&game));
        let result = play_with(&game, rules, |round: u32, event: Event| write(round, &event));
        if let Some(error) = failure {
            return Err(error.into());
        }
        result.map_err(|e| run_error(&input, number, e))?;
        if only.is_some() {
            break;
        }
    }
    out.flush()?;
    Ok(())
}
