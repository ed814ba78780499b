//! `arbiter duck`: the official Duck Chess judge and its companions.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use arbiter_duck::draw::render_board;
use arbiter_duck::judge::{self, Commands, JudgeError, Listener, Official, Ruling, Sink};
use arbiter_duck::{Invalid, Played, Position, perft};
use arbiter_scan::Scanner;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::{CliError, FileArg, Opened, fen_error};
use crate::output::Output;

/// Arguments of `arbiter duck`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<DuckCommand>,
    /// Input in the official format (Q, then Q lines `x1 y1 x2 y2`); standard input when absent
    /// or `-`. Prints the official output: one line per command.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// One JSON object per command on stdout instead of the official lines.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Subcommand)]
enum DuckCommand {
    /// Judge like `arbiter duck`, and say on stderr why each invalid command is invalid.
    Explain(ExplainArgs),
    /// Count the move sequences of a given length from a position (move generation test); a
    /// captured captain ends a sequence.
    Perft(PerftArgs),
    /// Run the engine over UCI on standard input and output (`setoption name UCI_Variant value
    /// duck`, moves and FEN as fairy-stockfish writes them).
    Uci(crate::duck_engine::UciArgs),
    /// Search one position and print the move as an official command, its score and the
    /// principal variation.
    Bestmove(crate::duck_engine::BestMoveArgs),
    /// Play a game at the terminal: human or engine on each side, the board after each move.
    Play(crate::duck_engine::PlayArgs),
    /// Play a match between two UCI engines: game pairs judged by arbiter's rules, with Elo,
    /// LOS and an optional SPRT.
    Match(Box<crate::duck_match::Args>),
    /// Play the engine against itself and append training positions (the search's score and
    /// the game's result) to a data file; started again on the same file, it continues.
    Selfplay(crate::duck_train::SelfplayArgs),
    /// Train a network for the engine (NNUE) on self-play data files, on the CPU, and write it
    /// as a `.nnue` file with its provenance.
    Train(crate::duck_train::TrainArgs),
    /// Show a network file, or convert one of the first format (`upgrade`).
    Network(crate::duck_train::NetworkArgs),
    #[command(flatten)]
    Contest(crate::contest::Command<arbiter_contest::duck::DuckProblem>),
    /// Check test files strictly, as testlib's validators do: the layout (one space between
    /// numbers, a line feed after every line) and the statement's limits (Q ≤ 1000, 0 ≤ x < 10,
    /// 0 ≤ y < 9). Exit status 0 valid, 3 invalid, with `FILE:LINE:COL: expected ..., found ...`.
    Validate(crate::validate::ValidateArgs),
    /// Write a problem package for a judge system into DIR: statement, samples, the official
    /// data and generated tests covering every corner, validator and solutions.
    Package(crate::package::PackageArgs),
}

#[derive(Debug, clap::Args)]
struct PerftArgs {
    /// Number of plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=8))]
    depth: u32,
    /// The position, in fairy-stockfish's FEN for this game; the starting position when absent.
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Also print the count below each first move, as `x1 y1 x2 y2: count`.
    #[arg(long)]
    divide: bool,
    /// Write the first moves of `--divide` in fairy-stockfish's square notation (`e1e2: count`).
    #[arg(long, requires = "divide")]
    uci: bool,
}

#[derive(Debug, clap::Args)]
struct ExplainArgs {
    #[command(flatten)]
    input: FileArg,
    /// Also draw the board on stderr after each valid move.
    #[arg(long)]
    board: bool,
    /// Colour the board: `auto` colours it when standard error is a terminal and the
    /// environment variable `NO_COLOR` is unset or empty (<https://no-color.org>).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// One JSON object per command on stdout instead of the official lines.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// What `arbiter duck` writes besides (or instead of) the official lines.
#[derive(Debug, Clone, Copy, Default)]
struct Extras {
    /// JSON objects on stdout instead of the official lines.
    json: bool,
    /// An explanation on stderr for each invalid command.
    explain: bool,
    /// The board on stderr after each valid move, coloured or not.
    board: Option<bool>,
}

impl Extras {
    /// Whether anything but the official lines is asked for.
    fn any(self) -> bool {
        self.json || self.explain || self.board.is_some()
    }
}

/// Runs `arbiter duck`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        None => {
            judge_file(FileArg { file: args.file }, Extras { json: args.json, ..Extras::default() })
        }
        Some(DuckCommand::Explain(explain)) => {
            let ansi = match explain.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    io::stderr().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                }
            };
            let extras =
                Extras { json: explain.json, explain: true, board: explain.board.then_some(ansi) };
            judge_file(explain.input, extras)
        }
        Some(DuckCommand::Perft(args)) => perft(args),
        Some(DuckCommand::Uci(args)) => crate::duck_engine::uci(args),
        Some(DuckCommand::Bestmove(args)) => crate::duck_engine::bestmove(args),
        Some(DuckCommand::Play(args)) => crate::duck_engine::play(args),
        Some(DuckCommand::Match(args)) => crate::duck_match::run(*args),
        Some(DuckCommand::Selfplay(args)) => crate::duck_train::selfplay(args),
        Some(DuckCommand::Train(args)) => crate::duck_train::train(args),
        Some(DuckCommand::Network(args)) => crate::duck_train::network(args),
        Some(DuckCommand::Contest(command)) => crate::contest::run(command),
        Some(DuckCommand::Validate(args)) => {
            crate::validate::run(crate::validate::Format::Duck, args)
        }
        Some(DuckCommand::Package(args)) => {
            crate::package::run::<arbiter_contest::duck::DuckProblem>(args)
        }
    }
}

/// Long counts show a progress bar, one step per first move, from this depth on.
const PERFT_PROGRESS_DEPTH: u32 = 7;

/// Prints the perft count (and, with `--divide`, one line per first move), then the speed on
/// stderr.
fn perft(args: PerftArgs) -> Result<(), CliError> {
    let position = match &args.fen {
        Some(fen) => fen.parse().map_err(fen_error)?,
        None => Position::new(),
    };
    let start = Instant::now();
    let progress = if args.depth >= PERFT_PROGRESS_DEPTH && io::stderr().is_terminal() {
        let bar = ProgressBar::new(position.count_moves());
        bar.set_style(
            ProgressStyle::with_template(
                "perft {msg} [{bar:30}] {pos}/{len} first moves, {elapsed} (ETA {eta})",
            )
            .map_err(|error| CliError::Message(error.to_string()))?
            .progress_chars("=> "),
        );
        bar.set_message(args.depth.to_string());
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut out = io::stdout().lock();
    let mut written = Ok(());
    let nodes = perft::divide(&position, args.depth, |mv, nodes| {
        progress.inc(1);
        if args.divide && written.is_ok() {
            written = match args.uci {
                true => writeln!(out, "{}: {nodes}", mv.uci()),
                false => writeln!(out, "{mv}: {nodes}"),
            }
            .and_then(|()| out.flush());
        }
    });
    progress.finish_and_clear();
    written?;
    writeln!(out, "{nodes}")?;
    out.flush()?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {nodes} leaves in {seconds:.3} s ({:.1} M/s)",
        args.depth,
        nodes as f64 / seconds / 1e6
    );
    Ok(())
}

/// The official output's chunks, handed to stdout whole.
struct Chunks<'r>(&'r mut Output);

impl Sink for Chunks<'_> {
    fn take(&mut self, chunk: &mut Vec<u8>) -> io::Result<()> {
        self.0.take(chunk)
    }

    fn deliver(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Writes each ruling: the official line or a JSON object on stdout, and the extras on stderr.
struct Writer<'r> {
    official: Official<Chunks<'r>>,
    extras: Extras,
    /// Whether the input is a regular file, whose reads never wait for a writer.
    regular: bool,
}

impl Writer<'_> {
    /// Writes a ruling with what the extras ask for.
    #[inline(never)]
    fn ruling_with_extras(&mut self, ruling: &Ruling<'_>) -> io::Result<()> {
        if self.extras.json {
            let line = self.official.pending();
            serde_json::to_writer(&mut *line, &ruling.report())?;
            line.push(b'\n');
            self.official.spill()?;
        } else {
            self.official.ruling(ruling)?;
        }
        let board = self.extras.board.filter(|_| ruling.outcome.is_ok());
        let invalid = ruling.outcome.as_ref().err().filter(|_| self.extras.explain);
        if board.is_none() && invalid.is_none() {
            return Ok(());
        }
        if self.official.writer().0.shared() {
            // The message follows its command's line in the one file both streams go to.
            self.official.hand_over()?;
        }
        let at = ruling.place();
        let number = ruling.number;
        let report = &mut *self.official.writer().0;
        if let Some(invalid) = invalid {
            report.note(at, format_args!("command {number}: {invalid}"));
        }
        if let Some(ansi) = board {
            report.note(at, format_args!("command {number}: the board after the move"));
            let mut text = Vec::new();
            render_board(&mut text, ruling.game.board(), ansi);
            report.attach(&text);
        }
        Ok(())
    }
}

impl Listener for Writer<'_> {
    fn ruling(&mut self, ruling: &Ruling<'_>) -> io::Result<()> {
        if !self.extras.any() {
            return self.official.ruling(ruling);
        }
        self.ruling_with_extras(ruling)
    }

    #[inline]
    fn outcome(&mut self, outcome: &Result<Played, Invalid>) -> io::Result<bool> {
        // The official judge, in the loop; everything else out of it, with the whole ruling.
        if !self.extras.any() {
            return self.official.outcome(outcome);
        }
        Ok(false)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.official.flush()
    }

    fn waiting(&mut self) -> io::Result<()> {
        // Nobody waits for the answers to write more of a file: they go out in large chunks.
        if self.regular { Ok(()) } else { self.flush() }
    }
}

/// Judges the input as it is read, and reports errors and ignored input.
fn judge_file(file: FileArg, extras: Extras) -> Result<(), CliError> {
    let input = Opened::open(file.file.as_deref())?;
    let mut report = Output::new(&input.name);
    let commands = match Commands::read_count(Scanner::from_reader(&input.file)) {
        Ok(commands) => commands,
        Err(error) => return Err(input.error(error)),
    };
    let regular = input.file.metadata().is_ok_and(|meta| meta.is_file());
    let mut writer = Writer { official: Official::new(Chunks(&mut report)), extras, regular };
    let result = judge::judge(commands, &mut writer);
    drop(writer);
    match result {
        Ok(summary) => {
            if let Some(position) = summary.trailing {
                let s = if summary.commands == 1 { "" } else { "s" };
                report.warning(
                    position,
                    format_args!(
                        "ignoring input after the last of {} command{s}",
                        summary.commands
                    ),
                );
            }
            report.flush()?;
            Ok(())
        }
        Err(JudgeError::Input(error)) => Err(input.error(error)),
        Err(JudgeError::Output(error)) => Err(error.into()),
    }
}
