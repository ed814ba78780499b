//! `arbiter duck uci`, `arbiter duck bestmove` and `arbiter duck play`: the Duck Chess engine
//! over the Universal Chess Interface, for one position, and in a game at the terminal. The
//! arguments are read here; the protocol and the game loop are the engine crate's.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use arbiter_duck::notation::{ListedMove, parse_moves};
use arbiter_duck::{Game, Move, ParseMoveError, Position};
use arbiter_duck_engine::engine::Engine;
use arbiter_duck_engine::play::{self, PlayError};
use arbiter_duck_engine::search::{Features, Limits, StopFlag};
use arbiter_duck_engine::uci::{self, Player};
use arbiter_duck_protocol::Score;
use serde_json::json;

use crate::input::CliError;
use crate::input::fen_error;

/// Arguments of `arbiter duck uci`.
#[derive(Debug, clap::Args)]
pub struct UciArgs {
    /// Play uniformly random valid moves instead of searching (the weakest opponent, for
    /// measuring strength).
    #[arg(long)]
    random: bool,
    /// The seed of `--random`'s choices.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "random")]
    seed: u64,
    /// Switch off a part of the search, to measure what it is worth (repeat or separate with
    /// commas).
    #[arg(
        long,
        value_enum,
        value_name = "FEATURE",
        value_delimiter = ',',
        conflicts_with = "random"
    )]
    disable: Vec<Feature>,
}

/// A part of the search that `--disable` switches off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Feature {
    /// Cut-offs on transposition table entries.
    TableCutoffs,
    /// Null-move pruning.
    NullMove,
    /// Reverse futility pruning.
    ReverseFutility,
    /// Late-move reductions.
    LateMoveReductions,
    /// Late-move pruning.
    LateMovePruning,
    /// Pruning captures that lose material.
    SeePruning,
    /// Delta pruning in quiescence.
    DeltaPruning,
    /// The extension of moves that attack the captain.
    CheckExtension,
    /// Aspiration windows.
    Aspiration,
    /// Killer moves.
    Killers,
    /// History scores.
    History,
    /// Continuation history.
    ContinuationHistory,
    /// Quiescence search.
    Quiescence,
    /// Internal iterative reduction.
    InternalReduction,
    /// Futility pruning of quiet moves.
    FutilityPruning,
    /// Scaling of the evaluation by the plies since the last capture.
    ProgressScaling,
}

impl Feature {
    fn switch_off(self, features: &mut Features) {
        let flag = match self {
            Feature::TableCutoffs => &mut features.table_cutoffs,
            Feature::NullMove => &mut features.null_move,
            Feature::ReverseFutility => &mut features.reverse_futility,
            Feature::LateMoveReductions => &mut features.late_move_reductions,
            Feature::LateMovePruning => &mut features.late_move_pruning,
            Feature::SeePruning => &mut features.see_pruning,
            Feature::DeltaPruning => &mut features.delta_pruning,
            Feature::CheckExtension => &mut features.check_extension,
            Feature::Aspiration => &mut features.aspiration,
            Feature::Killers => &mut features.killers,
            Feature::History => &mut features.history,
            Feature::ContinuationHistory => &mut features.continuation_history,
            Feature::Quiescence => &mut features.quiescence,
            Feature::InternalReduction => &mut features.internal_reduction,
            Feature::FutilityPruning => &mut features.futility_pruning,
            Feature::ProgressScaling => &mut features.progress_scaling,
        };
        *flag = false;
    }
}

/// Speaks UCI on standard input and output until `quit` or the end of the input.
pub fn uci(args: UciArgs) -> Result<(), CliError> {
    let player = if args.random {
        Player::Random { seed: args.seed }
    } else {
        let mut features = Features::ALL;
        for feature in args.disable {
            feature.switch_off(&mut features);
        }
        Player::Engine(features)
    };
    uci::run(io::stdin().lock(), io::stdout(), player)
        .map_err(|error| CliError::Message(format!("<stdin>: cannot read the commands: {error}")))
}

/// How long the engine thinks.
#[derive(Debug, Clone, clap::Args)]
struct Thinking {
    /// Think this many milliseconds per move.
    #[arg(long, value_name = "MS", default_value_t = 1000, conflicts_with = "depth")]
    time: u64,
    /// Search this many plies instead of for a time.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// The transposition table's size in MiB.
    #[arg(long, value_name = "MB", default_value_t = Engine::DEFAULT_HASH as u64,
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash: u64,
    /// Search on this many threads.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=Engine::MAX_THREADS as u64))]
    threads: u64,
}

impl Thinking {
    /// An engine set up as asked.
    fn engine(&self) -> Engine {
        let mut engine = Engine::new(self.hash as usize);
        if engine.hash() < self.hash as usize {
            eprintln!(
                "warning: --hash {}: cannot allocate that much; using {} MiB",
                self.hash,
                engine.hash()
            );
        }
        engine.set_threads(self.threads as usize);
        engine
    }

    fn limits(&self) -> Limits {
        match self.depth {
            Some(depth) => Limits::depth(depth),
            None => Limits::movetime(Duration::from_millis(self.time)),
        }
    }
}

/// Arguments of `arbiter duck bestmove`.
#[derive(Debug, clap::Args)]
pub struct BestMoveArgs {
    /// The position, in fairy-stockfish's FEN for this game; the start when absent.
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Moves played from there, each `x1 y1 x2 y2` or `e1e2`, separated by spaces or commas.
    #[arg(long, value_name = "MOVES", default_value = "")]
    moves: String,
    #[command(flatten)]
    thinking: Thinking,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Prints the engine's move for a position: the move as an official command, its score and the
/// principal variation.
pub fn bestmove(args: BestMoveArgs) -> Result<(), CliError> {
    let start = match &args.fen {
        Some(fen) => fen.parse().map_err(fen_error)?,
        None => Position::new(),
    };
    let moves = parse_moves(&args.moves).map_err(|error| {
        let ParseMoveError { index, expected, found } = error;
        CliError::Message(format!("--moves:1:{}: expected {expected}, found {found}", index + 1))
    })?;
    let game = Game::from_position(start)
        .play_moves(moves.iter().map(|listed| listed.mv))
        .map_err(|error| {
            let ListedMove { index, text, .. } = moves[error.index];
            CliError::Message(format!(
                "--moves:1:{}: expected a valid move, found `{text}`: {}",
                index + 1,
                error.invalid
            ))
        })?;
    let mut engine = args.thinking.engine();
    engine.set_position(game.position().clone());
    let result = engine.go(&args.thinking.limits(), &StopFlag::new(), |_| {});
    let mut out = io::stdout().lock();
    if args.json {
        let score = match Score::from(result.score) {
            Score::Centipawns(cp) => json!({ "cp": cp }),
            Score::Mate(moves) => json!({ "mate": moves }),
        };
        let value = json!({
            "move": result.best.map(|mv| mv.to_string()),
            "uci": result.best.map(|mv| mv.uci().to_string()),
            "score": score,
            "depth": result.depth,
            "seldepth": result.seldepth,
            "nodes": result.nodes,
            "time_ms": result.time.as_millis() as u64,
            "pv": result.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
            "pv_uci": result.pv.iter().map(|mv| mv.uci().to_string()).collect::<Vec<_>>(),
        });
        writeln!(out, "{value}")?;
    } else {
        match result.best {
            Some(mv) => writeln!(out, "{mv}")?,
            None => writeln!(out, "(none)")?,
        }
        writeln!(
            out,
            "score {} depth {} nodes {} time {}",
            Score::from(result.score),
            result.depth,
            result.nodes,
            result.time.as_millis()
        )?;
        let pv: Vec<String> = result.pv.iter().map(Move::to_string).collect();
        writeln!(out, "pv {}", pv.join(", "))?;
    }
    out.flush()?;
    Ok(())
}

/// Who plays a side in `arbiter duck play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Controller {
    /// Moves typed at the terminal.
    Human,
    /// The engine.
    Engine,
}

impl From<Controller> for play::Controller {
    fn from(controller: Controller) -> play::Controller {
        match controller {
            Controller::Human => play::Controller::Human,
            Controller::Engine => play::Controller::Engine,
        }
    }
}

/// Arguments of `arbiter duck play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Who plays red (moves first).
    #[arg(long, value_enum, default_value_t = Controller::Human)]
    red: Controller,
    /// Who plays blue.
    #[arg(long, value_enum, default_value_t = Controller::Engine)]
    blue: Controller,
    #[command(flatten)]
    thinking: Thinking,
    /// Save the game in the official command format (a count, then one `x1 y1 x2 y2` line per
    /// move), rewritten after each move; `arbiter duck FILE` replays it.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// End the game as a draw after this many moves (plies) without a captured captain.
    #[arg(long, value_name = "PLIES", default_value_t = arbiter_duck::rules::MAX_PLIES)]
    max_plies: u32,
}

/// Plays a game at the terminal: the board after each move, moves typed or searched, each with
/// the official verdict line.
pub fn play(args: PlayArgs) -> Result<(), CliError> {
    let setup = play::Setup {
        red: args.red.into(),
        blue: args.blue.into(),
        limits: args.thinking.limits(),
        max_plies: args.max_plies,
        save: args.save,
        input_name: "<stdin>".to_owned(),
    };
    let mut engine = args.thinking.engine();
    play::play(&mut engine, &setup, io::stdin().lock(), io::stdout().lock()).map_err(|error| {
        match error {
            PlayError::Write(error) => CliError::from(error),
            error => CliError::Message(error.to_string()),
        }
    })
}
