//! `arbiter duck uci`, `arbiter duck bestmove` and `arbiter duck play`: the Duck Chess engine
//! over the Universal Chess Interface, for one position, and in a game at the terminal.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use arbiter_duck::draw::render_board;
use arbiter_duck::notation::{ListedMove, parse_moves};
use arbiter_duck::{Color, Game, Move, ParseMoveError, Position};
use arbiter_duck_engine::protocol::Score;
use arbiter_duck_engine::search::{Engine, Features, Limits, SearchResult, StopFlag};
use arbiter_duck_engine::uci::{self, Player};
use serde_json::json;

use crate::duck::fen_error;
use crate::input::CliError;

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
    let result = engine.search(game.position(), &args.thinking.limits(), &StopFlag::new(), |_| {});
    let mut out = io::stdout().lock();
    if args.json {
        let score = match result.score {
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
            result.score,
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
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut game = Game::new();
    let mut engine = args.thinking.engine();
    let controller = |color: Color| match color {
        Color::Red => args.red,
        Color::Blue => args.blue,
    };
    let mut line_number = 0;
    let mut board = Vec::new();
    save(&args, &game)?;
    loop {
        board.clear();
        render_board(&mut board, game.board(), false);
        out.write_all(&board)?;
        let position = game.position();
        if let Some(outcome) = position.outcome_after(game.history().len(), args.max_plies) {
            writeln!(out, "{outcome}")?;
            break;
        }
        let turn = game.turn();
        let mv = match controller(turn) {
            Controller::Engine => {
                let result =
                    engine.search(position, &args.thinking.limits(), &StopFlag::new(), |_| {});
                let Some(mv) = result.best else { break };
                announce(&mut out, turn, mv, &result)?;
                mv
            }
            Controller::Human => {
                match ask(&mut input, &mut out, &mut line_number, &mut game, &args, controller)? {
                    Some(mv) => mv,
                    None => break,
                }
            }
        };
        let played = game.play(mv.from, mv.to).map_err(|invalid| {
            CliError::Message(format!("the engine chose an invalid move {mv}: {invalid}"))
        })?;
        writeln!(out, "{played}")?;
        out.flush()?;
        save(&args, &game)?;
    }
    out.flush()?;
    Ok(())
}

/// Prints the engine's move with its score.
fn announce(out: &mut impl Write, turn: Color, mv: Move, result: &SearchResult) -> io::Result<()> {
    writeln!(
        out,
        "{turn} plays {mv} ({}), score {}, depth {}",
        mv.uci(),
        result.score,
        result.depth
    )
}

/// Asks the human to move until a valid move comes; `None` at the end of the input or on
/// `quit`. `undo` takes back moves until it is a human's turn again.
fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    line_number: &mut usize,
    game: &mut Game,
    args: &PlayArgs,
    controller: impl Fn(Color) -> Controller,
) -> Result<Option<Move>, CliError> {
    loop {
        write!(out, "{} to move (x1 y1 x2 y2 or e1e2; undo, quit): ", game.turn())?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(|error| {
            CliError::Message(format!("<stdin>: cannot read the moves: {error}"))
        })? == 0
        {
            writeln!(out)?;
            return Ok(None);
        }
        *line_number += 1;
        let entry = line.trim();
        match entry {
            "" => continue,
            "quit" => return Ok(None),
            "undo" => {
                let mut undone = game.undo().is_some();
                while undone && controller(game.turn()) == Controller::Engine {
                    undone = game.undo().is_some();
                }
                if !undone {
                    writeln!(out, "# nothing to take back")?;
                }
                save(args, game)?;
                let mut board = Vec::new();
                render_board(&mut board, game.board(), false);
                out.write_all(&board)?;
                continue;
            }
            _ => {}
        }
        let column = line.len() - line.trim_start().len() + 1;
        match entry.parse::<Move>() {
            Err(error) => writeln!(
                out,
                "# <stdin>:{line_number}:{}: expected {}, found {}",
                column + error.index,
                error.expected,
                error.found
            )?,
            Ok(mv) => match game.validate(mv.from, mv.to) {
                Ok(_) => return Ok(Some(mv)),
                Err(invalid) => {
                    writeln!(out, "# <stdin>:{line_number}:{column}: {entry}: {invalid}")?
                }
            },
        }
    }
}

/// Writes the game so far to `--save`, if given.
fn save(args: &PlayArgs, game: &Game) -> Result<(), CliError> {
    let Some(path) = &args.save else { return Ok(()) };
    let mut text = format!("{}\n", game.history().len());
    for mv in game.history() {
        text.push_str(&format!("{mv}\n"));
    }
    fs::write(path, text).map_err(|error| {
        CliError::Message(format!("{}: cannot save the game: {error}", path.display()))
    })
}
