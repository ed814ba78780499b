//! The engine's side of the Universal Chess Interface: reads [`GuiCommand`]s line by line and
//! answers with [`EngineMessage`]s, searching on a thread of its own so that `stop` and
//! `isready` are answered during a search.
//!
//! This is where the protocol meets the search, in one direction: [`limits`] turns a `go` into
//! the search's [`Limits`], and [`info`] turns what the search reports into an `info` line.
//!
//! A line that is not a command, a move that is not valid in the position, an unknown option or
//! a value out of range gets an `info string` that says why, and changes nothing. The end of the
//! input is read as `quit`, once a running search with limits has answered (an infinite search
//! and a perft are stopped). `Threads` is capped at the machine's cores, and a `Hash` larger than
//! memory allows falls back to the largest size that can be allocated; both say so in an
//! `info string`. `EvalFile` names a network to evaluate with ([`nnue`]), `<embedded>` the one
//! built in (the default), and empty the classical evaluation; a network that cannot be loaded
//! gets an `info string` that says why, and the evaluation stays as it was.
//!
//! ```
//! use arbiter_duck_engine::uci::{self, Player};
//!
//! // Red's car on e2 faces blue's captain on e10 across an empty file.
//! let input = "uci\nposition fen 4c4/9/9/9/9/9/9/9/4R4/3C5 w\ngo depth 2\nposition startpos moves e1e11\n";
//! let mut output = Vec::new();
//! uci::run(input.as_bytes(), &mut output, Player::default()).unwrap();
//! let output = String::from_utf8(output).unwrap();
//! assert!(output.contains("option name Hash type spin"));
//! assert!(output.lines().any(|line| line.starts_with("info depth 2 ") && line.contains(" score mate 1 ")));
//! assert!(output.contains("bestmove e2e10\n"));
//! assert!(output.contains("info string ignored `position startpos moves e1e11`: column 25: expected a move"));
//! ```

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::Duration;

use arbiter_duck::{Color, Game, Move, Position, perft};
use arbiter_duck_protocol::{
    EngineMessage, Go, GuiCommand, IdField, Info, OptionDecl, OptionKind, Score,
};

use crate::engine::Engine;
use crate::eval::Evaluation;
use crate::nnue;
use crate::random::RandomMover;
use crate::search::{Features, Limits, SearchInfo, StopFlag};
use crate::timeman::Clock;
use crate::tt::Table;
use crate::value;

/// The search's limits for a `go` with `turn` to move (red reads `wtime`, blue `btime`).
pub fn limits(go: &Go, turn: Color) -> Limits {
    let (time, increment) = match turn {
        Color::Red => (go.wtime, go.winc),
        Color::Blue => (go.btime, go.binc),
    };
    let clock = time.map(|time| Clock {
        time: Duration::from_millis(time),
        increment: Duration::from_millis(increment.unwrap_or(0)),
        moves_to_go: go.movestogo,
    });
    Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime.map(Duration::from_millis),
        clock,
        mate: go.mate,
        infinite: go.infinite || go.ponder,
        searchmoves: go.searchmoves.clone(),
    }
}

/// The `info` line of an iteration the search reports.
pub fn info(info: &SearchInfo) -> Info {
    Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: info.multipv,
        score: Some(info.score.into()),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        hashfull: Some(info.hashfull),
        time: Some(info.time.as_millis() as u64),
        pv: info.pv.clone(),
        ..Info::default()
    }
}

impl From<value::Score> for Score {
    /// The score as UCI writes it: `cp N` or `mate N`.
    fn from(score: value::Score) -> Score {
        match score {
            value::Score::Centipawns(cp) => Score::Centipawns(cp),
            value::Score::Mate(moves) => Score::Mate(moves),
        }
    }
}

/// Who answers `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// The search, with these parts of it switched on.
    Engine(Features),
    /// A valid move chosen uniformly at random, from this seed.
    Random {
        /// The seed.
        seed: u64,
    },
}

impl Default for Player {
    /// The search with every feature.
    fn default() -> Player {
        Player::Engine(Features::ALL)
    }
}

/// The engine's name in `id name`.
pub fn name(player: Player) -> String {
    let version = env!("CARGO_PKG_VERSION");
    match player {
        Player::Engine(_) => format!("arbiter {version}"),
        Player::Random { .. } => format!("arbiter random {version}"),
    }
}

/// What plays: kept by the front end between searches, lent to the search thread during one.
enum Brain {
    Search(Box<Engine>),
    Random(RandomMover),
}

/// A change of option asked for while a search ran, applied when it ends.
#[derive(Debug, Clone)]
enum Change {
    Hash(usize),
    Threads(usize),
    MoveOverhead(Duration),
    MultiPv(usize),
    Clear,
    Evaluation(Evaluation),
}

/// Where messages go: shared with the search thread, one whole line at a time.
struct Out<W>(Arc<Mutex<W>>);

impl<W> Clone for Out<W> {
    fn clone(&self) -> Out<W> {
        Out(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    fn send(&self, message: &EngineMessage) {
        let mut out = match self.0.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A GUI that has gone away cannot be told anything; the loop ends at the end of input.
        let _ = writeln!(out, "{message}").and_then(|()| out.flush());
    }

    fn info_string(&self, text: impl Into<String>) {
        self.send(&EngineMessage::Info(Info { string: Some(text.into()), ..Info::default() }));
    }
}

struct Running<'scope> {
    stop: StopFlag,
    /// Whether the search goes on until stopped.
    endless: bool,
    /// Whether the end of the input stops it: an endless search, and a perft (which may run for
    /// years).
    stopped_at_end: bool,
    handle: ScopedJoinHandle<'scope, Brain>,
}

/// The front end's state.
struct Front<'scope, 'env, W> {
    scope: &'scope Scope<'scope, 'env>,
    out: Out<W>,
    player: Player,
    position: Position,
    brain: Option<Brain>,
    running: Option<Running<'scope>>,
    pending: Vec<Change>,
}

const HASH: &str = "Hash";
const THREADS: &str = "Threads";
const MOVE_OVERHEAD: &str = "Move Overhead";
const VARIANT: &str = "UCI_Variant";
const MULTIPV: &str = "MultiPV";
const CLEAR_HASH: &str = "Clear Hash";
const EVAL_FILE: &str = "EvalFile";
const MAX_MOVE_OVERHEAD: i64 = 5000;

/// The options offered.
fn options() -> Vec<OptionDecl> {
    vec![
        OptionDecl {
            name: HASH.to_owned(),
            kind: OptionKind::Spin {
                default: Engine::DEFAULT_HASH as i64,
                min: 1,
                max: Table::MAX_MEGABYTES as i64,
            },
        },
        OptionDecl { name: CLEAR_HASH.to_owned(), kind: OptionKind::Button },
        // Accepted up to the most the search runs, but capped at the machine's cores (with an
        // `info string`): threads beyond the cores only slow the search.
        OptionDecl {
            name: THREADS.to_owned(),
            kind: OptionKind::Spin { default: 1, min: 1, max: Engine::MAX_THREADS as i64 },
        },
        OptionDecl {
            name: MOVE_OVERHEAD.to_owned(),
            kind: OptionKind::Spin { default: 10, min: 0, max: MAX_MOVE_OVERHEAD },
        },
        OptionDecl {
            name: MULTIPV.to_owned(),
            kind: OptionKind::Spin { default: 1, min: 1, max: Engine::MAX_MULTIPV as i64 },
        },
        // A network file, `<embedded>` (the default) for the network built in, empty for the
        // classical evaluation.
        OptionDecl {
            name: EVAL_FILE.to_owned(),
            kind: OptionKind::String { default: nnue::EMBEDDED.to_owned() },
        },
        OptionDecl {
            name: VARIANT.to_owned(),
            kind: OptionKind::Combo { default: "duck".to_owned(), vars: vec!["duck".to_owned()] },
        },
    ]
}

/// Speaks UCI on `input` and `output` until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write + Send, player: Player) -> io::Result<()> {
    let out = Out(Arc::new(Mutex::new(output)));
    thread::scope(|scope| {
        let mut front = Front {
            scope,
            out,
            player,
            position: Position::new(),
            brain: Some(new_brain(player)),
            running: None,
            pending: Vec::new(),
        };
        let mut lines = Lines { input, buffer: Vec::new(), first: true };
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(error) => {
                    front.finish(true);
                    return Err(error);
                }
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match line.parse::<GuiCommand>() {
                Ok(GuiCommand::Quit) => {
                    front.finish(true);
                    return Ok(());
                }
                Ok(command) => front.command(command),
                Err(error) => {
                    front.out.info_string(format!("ignored `{}`: {error}", shorten(line)))
                }
            }
        }
        // The end of the input: let a search with limits answer, stop an endless one.
        front.finish_at_end();
        Ok(())
    })
}

/// The longest line read as a command; the rest of a longer one is skipped (no command is near
/// this long, and a GUI gone wrong must not make the engine hold its output).
const MAX_LINE: usize = 1 << 20;

/// The lines of the GUI's input: bytes that are not UTF-8 read as U+FFFD (the line is then
/// ignored with a message, like any line that is not a command), a byte order mark at the very
/// start is skipped, and a line is cut at [`MAX_LINE`] bytes.
struct Lines<R> {
    input: R,
    buffer: Vec<u8>,
    first: bool,
}

impl<R: BufRead> Lines<R> {
    fn next_line(&mut self) -> io::Result<Option<String>> {
        self.buffer.clear();
        let read =
            Read::take(&mut self.input, MAX_LINE as u64).read_until(b'\n', &mut self.buffer)?;
        if read == 0 {
            return Ok(None);
        }
        if self.buffer.last() != Some(&b'\n') && read == MAX_LINE {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            while Read::take(&mut self.input, MAX_LINE as u64).read_until(b'\n', &mut rest)?
                == MAX_LINE
                && rest.last() != Some(&b'\n')
            {
                rest.clear();
            }
        }
        let mut bytes = &self.buffer[..];
        if std::mem::take(&mut self.first) {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
    }
}

fn new_brain(player: Player) -> Brain {
    match player {
        Player::Engine(features) => {
            let mut engine = Engine::new(Engine::DEFAULT_HASH);
            engine.set_features(features);
            Brain::Search(Box::new(engine))
        }
        Player::Random { seed } => Brain::Random(RandomMover::new(seed)),
    }
}

/// A line cut to a length a message can quote.
fn shorten(line: &str) -> String {
    const MAX: usize = 60;
    match line.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

impl<'scope, W: Write + Send + 'scope> Front<'scope, '_, W> {
    fn command(&mut self, command: GuiCommand) {
        self.reap();
        match command {
            GuiCommand::Uci => {
                let out = &self.out;
                out.send(&EngineMessage::Id { field: IdField::Name, value: name(self.player) });
                out.send(&EngineMessage::Id {
                    field: IdField::Author,
                    value: "the arbiter developers".to_owned(),
                });
                for option in options() {
                    out.send(&EngineMessage::Option(option));
                }
                out.send(&EngineMessage::UciOk);
            }
            GuiCommand::Debug(_) => {}
            GuiCommand::IsReady => self.out.send(&EngineMessage::ReadyOk),
            GuiCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            GuiCommand::UciNewGame => self.change(Change::Clear),
            GuiCommand::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            GuiCommand::Go(go) => self.go(go),
            GuiCommand::Stop => self.finish(true),
            GuiCommand::PonderHit => {
                // Pondering is searching without limits: the ponder move was played, so answer.
                self.finish(true);
            }
            GuiCommand::Quit => self.finish(true),
        }
    }

    /// Takes the brain back from a search that has ended by itself.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|running| running.handle.is_finished()) {
            self.finish(false);
        }
    }

    /// Waits for the running search, if any (stopping it first when `stop`, or when it would
    /// never end by itself), and takes the brain back.
    fn finish(&mut self, stop: bool) {
        let Some(running) = self.running.take() else { return };
        if stop {
            running.stop.stop();
        }
        match running.handle.join() {
            Ok(brain) => self.brain = Some(brain),
            Err(_) => {
                self.out.info_string("the search failed; starting afresh");
                self.brain = Some(new_brain(self.player));
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for change in pending {
            self.change(change);
        }
    }

    /// At the end of the input: a search with limits answers in its own time, an endless one
    /// (`infinite`, `ponder`, or no limit at all) and a perft are stopped.
    fn finish_at_end(&mut self) {
        let stop = self.running.as_ref().is_some_and(|running| running.stopped_at_end);
        self.finish(stop);
    }

    /// Applies `change` now, or after the running search.
    fn change(&mut self, change: Change) {
        let Some(Brain::Search(engine)) = self.brain.as_mut() else {
            if self.running.is_some() {
                self.pending.push(change);
            }
            return;
        };
        match change {
            Change::Hash(megabytes) => {
                let in_use = engine.set_hash(megabytes);
                if in_use < megabytes {
                    self.out.info_string(format!(
                        "option Hash: {megabytes} MiB cannot be allocated; using {in_use} MiB"
                    ));
                }
            }
            Change::Threads(threads) => engine.set_threads(threads),
            Change::MoveOverhead(overhead) => engine.set_move_overhead(overhead),
            Change::MultiPv(lines) => engine.set_multipv(lines),
            Change::Clear => engine.new_game(),
            Change::Evaluation(evaluation) => engine.set_evaluation(evaluation),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let spin = |min: i64, max: i64| -> Result<i64, String> {
            let value = value.ok_or_else(|| format!("option {name} needs a value"))?;
            match value.parse::<i64>() {
                Ok(number) if (min..=max).contains(&number) => Ok(number),
                _ => Err(format!(
                    "option {name}: expected an integer {min}..{max}, found `{}`",
                    shorten(value)
                )),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => spin(1, Table::MAX_MEGABYTES as i64)
                .map(|mb| self.change(Change::Hash(mb as usize))),
            "threads" => spin(1, Engine::MAX_THREADS as i64).map(|asked| {
                let cores = thread::available_parallelism().map_or(Engine::MAX_THREADS, usize::from);
                let threads = threads_on(asked as usize, cores);
                if threads < asked as usize {
                    self.out.info_string(format!(
                        "option Threads: {asked} threads on {cores} cores only slow the search; using {threads}"
                    ));
                }
                self.change(Change::Threads(threads))
            }),
            "move overhead" => spin(0, MAX_MOVE_OVERHEAD)
                .map(|ms| self.change(Change::MoveOverhead(Duration::from_millis(ms as u64)))),
            "multipv" => spin(1, Engine::MAX_MULTIPV as i64)
                .map(|lines| self.change(Change::MultiPv(lines as usize))),
            "clear hash" => {
                self.change(Change::Clear);
                Ok(())
            }
            "evalfile" => self.eval_file(value.unwrap_or_default()),
            "uci_variant" => match value {
                Some("duck") => Ok(()),
                other => Err(format!(
                    "option {name}: expected `duck`, the only variant, found `{}`",
                    other.map_or("nothing".to_owned(), shorten)
                )),
            },
            _ => Err(format!(
                "no option `{}` (options: {HASH}, {CLEAR_HASH}, {THREADS}, {MOVE_OVERHEAD}, {MULTIPV}, {EVAL_FILE}, {VARIANT})",
                shorten(name)
            )),
        };
        if let Err(message) = result {
            self.out.info_string(message);
        }
    }

    /// `EvalFile`: empty (or `<empty>`) for the classical evaluation, else a network to load, a
    /// file or [`nnue::EMBEDDED`]. A network that cannot be loaded leaves the evaluation as it
    /// was.
    fn eval_file(&mut self, value: &str) -> Result<(), String> {
        let evaluation = if value.is_empty() || value == "<empty>" {
            self.out.info_string("EvalFile: the classical evaluation");
            Evaluation::Classical
        } else {
            let model = nnue::load(value).map_err(|error| {
                format!("option {EVAL_FILE}: {error}; the evaluation is unchanged")
            })?;
            let network = model.network();
            let provenance = match network.provenance.as_str() {
                "" => String::new(),
                text => format!(": {}", shorten(text)),
            };
            self.out.info_string(format!(
                "EvalFile: the network {value}, {}{provenance}",
                network.shape_text()
            ));
            Evaluation::Network(Arc::new(model))
        };
        self.change(Change::Evaluation(evaluation));
        Ok(())
    }

    /// Sets up the position, or says why not and keeps the current one.
    fn set_position(&mut self, fen: Option<&arbiter_duck::Fen>, moves: &[Move]) {
        match position_after(fen, moves) {
            Ok(position) => self.position = position,
            Err(message) => self.out.info_string(format!("position unchanged: {message}")),
        }
    }

    fn go(&mut self, go: Go) {
        if self.running.as_ref().is_some_and(|running| running.endless) {
            self.out.info_string("ignored go: searching until stop");
            return;
        }
        if let Some(depth) = go.perft.filter(|&depth| depth > MAX_PERFT_DEPTH) {
            self.out.info_string(format!(
                "ignored go perft {depth}: the deepest perft is {MAX_PERFT_DEPTH}"
            ));
            return;
        }
        // Like Stockfish, a new search waits for one with limits to answer.
        self.finish(false);
        let Some(brain) = self.brain.take() else { return };
        let endless = is_endless(&go);
        let stopped_at_end = endless || go.perft.is_some();
        let stop = StopFlag::new();
        let out = self.out.clone();
        let position = self.position.clone();
        let thread_stop = stop.clone();
        let spawned =
            thread::Builder::new().name("search".to_owned()).spawn_scoped(self.scope, move || {
                let stop = thread_stop;
                think(brain, &position, &go, &stop, &out)
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { stop, endless, stopped_at_end, handle }),
            Err(error) => {
                self.out.info_string(format!("cannot start a search thread: {error}"));
                // The brain went with the closure; start a new one.
                self.brain = Some(new_brain(self.player));
            }
        }
    }
}

/// The search threads to run when `asked` for on a machine with `cores` cores: no more than the
/// cores, since threads beyond them take turns on a core and only make each search answer late.
fn threads_on(asked: usize, cores: usize) -> usize {
    asked.min(cores).max(1)
}

/// Whether a `go` searches until stopped: `infinite`, `ponder`, or no limit at all.
fn is_endless(go: &Go) -> bool {
    go.perft.is_none()
        && (go.infinite
            || go.ponder
            || (go.depth.is_none()
                && go.nodes.is_none()
                && go.movetime.is_none()
                && go.mate.is_none()
                && go.wtime.is_none()
                && go.btime.is_none()))
}

/// The position `fen` (or the start) after `moves`, or why the moves cannot be played.
pub fn position_after(fen: Option<&arbiter_duck::Fen>, moves: &[Move]) -> Result<Position, String> {
    match Game::replay(fen, moves.iter().copied()) {
        Ok(game) => Ok(game.position().clone()),
        Err(error) => Err(error.to_string()),
    }
}

/// Runs one `go` on the search thread and prints its answer; gives the brain back.
fn think(
    mut brain: Brain,
    position: &Position,
    go: &Go,
    stop: &StopFlag,
    out: &Out<impl Write>,
) -> Brain {
    if let Some(depth) = go.perft {
        perft(position, depth, stop, out);
        return brain;
    }
    let endless = is_endless(go);
    let (best, ponder) = match &mut brain {
        Brain::Search(engine) => {
            let limits = limits(go, position.turn());
            if position.outcome().is_some() {
                game_over(position, out);
                (None, None)
            } else {
                engine.set_position(position.clone());
                let result = engine.go(&limits, stop, |info| {
                    out.send(&EngineMessage::Info(self::info(info)));
                });
                (result.best, result.ponder)
            }
        }
        Brain::Random(mover) => {
            if position.outcome().is_some() {
                game_over(position, out);
            }
            (mover.choose(position), None)
        }
    };
    if endless {
        // `infinite` and `ponder` answer only when told to stop.
        while !stop.is_stopped() {
            thread::sleep(Duration::from_millis(1));
        }
    }
    out.send(&EngineMessage::BestMove { best, ponder });
    brain
}

/// The `info` for a position without a move: lost (captain captured) or without a valid move.
fn game_over(position: &Position, out: &Out<impl Write>) {
    let value = if position.is_over() { value::lost_in(0) } else { value::DRAW };
    out.send(&EngineMessage::Info(Info {
        depth: Some(0),
        score: Some(value::score(value).into()),
        ..Info::default()
    }));
}

/// The deepest `go perft`: deeper counts would take years, and the count recurses once a ply.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// `go perft`: the count below each move, then the total; `stop` ends it within a few thousand
/// nodes, and the counts of the first moves finished so far stand.
fn perft(position: &Position, depth: u32, stop: &StopFlag, out: &Out<impl Write>) {
    // Stopped, it reports the first moves counted so far and their sum.
    let mut total = 0;
    let counted = perft::divide_until(
        position,
        depth,
        || stop.is_stopped(),
        |mv, nodes| {
            total += nodes;
            out.send(&EngineMessage::PerftMove { mv, nodes });
        },
    );
    out.send(&EngineMessage::NodesSearched(counted.unwrap_or(total)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_capped_at_the_cores() {
        assert_eq!(threads_on(256, 2), 2);
        assert_eq!(threads_on(2, 2), 2);
        assert_eq!(threads_on(1, 8), 1);
        assert_eq!(threads_on(3, 0), 1);
    }

    #[test]
    fn multipv_writes_each_line_with_its_number() {
        let input = "setoption name MultiPV value 3\nposition startpos\ngo depth 3\nisready\n";
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, Player::default()).unwrap();
        let output = String::from_utf8(output).unwrap();
        let numbers: Vec<_> = output
            .lines()
            .filter(|line| line.starts_with("info depth 3 "))
            .map(|line| line.split(' ').nth(6).unwrap_or(""))
            .collect();
        assert_eq!(numbers, ["1", "2", "3"], "{output}");
        let input = "setoption name MultiPV value 6\nisready\n";
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, Player::default()).unwrap();
        let output = String::from_utf8(output).unwrap();
        assert!(
            output.starts_with("info string option MultiPV: expected an integer 1..5"),
            "{output}"
        );
    }

    #[test]
    fn a_perft_too_deep_is_refused_and_the_engine_goes_on() {
        let input = "go perft 5000\nisready\n";
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, Player::default()).unwrap();
        let output = String::from_utf8(output).unwrap();
        assert_eq!(output, "info string ignored go perft 5000: the deepest perft is 20\nreadyok\n");
    }
}
