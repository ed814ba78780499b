//! The cost of each evaluation, for counting instructions (not timed: run it under a counter).
//!
//! ```text
//! cargo bench -p arbiter-duck-engine --bench search --no-run
//! valgrind --tool=cachegrind --cache-sim=no target/release/deps/search-* search EVAL DEPTH
//! valgrind --tool=cachegrind --cache-sim=no target/release/deps/search-* walk EVAL DEPTH
//! ```
//!
//! `search` searches each bench position to `DEPTH` (11 by default) and prints the nodes of each
//! and their sum: the cost per node of the whole search, whose tree depends on the evaluation.
//! `walk` plays every line `DEPTH` plies deep (3 by default) from each bench position and
//! evaluates every node, as the search would (a network's accumulators updated by each move):
//! the same nodes for every evaluation, so the cost of the evaluation alone (`none` walks
//! without evaluating, to subtract). `EVAL` is `classical`, `random:H` (a network of H hidden
//! units with random weights) or the path of a `.nnue` file.

use std::process::ExitCode;
use std::sync::Arc;

use arbiter_duck::Position;
use arbiter_duck_engine::eval;
use arbiter_duck_engine::eval::Evaluation;
use arbiter_duck_engine::nnue::{self, Accumulators, Model, Network};
use arbiter_duck_engine::search::{Limits, Searcher, StopFlag};
use arbiter_duck_engine::value::Value;

/// The start, and positions of one game (moves from the start), where pieces meet: those of
/// `bench/duck_engine.py`.
const POSITIONS: [&str; 5] = [
    "",
    "e4e5 e7e6 e5e6 c7d6",
    "e4e5 e7e6 e5e6 c7d6 b1c3 d6e6 c3d5 h10g8",
    "c4c5 g7g6 h1g3 b10c8 g4f5 c8d6 a3d5 i8f6 c5c6",
    "i1i2 a10a9 a1a2 i10i9 a2d2 b10c8 i4h5 c7d6 i2f2 c8b6 a4b4 i9f9",
];

fn evaluation(name: &str) -> Result<Evaluation, String> {
    if name == "classical" || name == "none" {
        return Ok(Evaluation::Classical);
    }
    let model = match name.strip_prefix("random:") {
        Some(hidden) => {
            let hidden = hidden.parse().map_err(|_| format!("not a hidden size: {hidden}"))?;
            Model::new(Network::random(hidden, 1)).map_err(|error| error.to_string())?
        }
        None => nnue::load(name).map_err(|error| error.to_string())?,
    };
    Ok(Evaluation::Network(Arc::new(model)))
}

/// The bench position after `moves`.
fn position(moves: &str) -> Position {
    let mut position = Position::new();
    for mv in moves.split_whitespace() {
        let _ = position.make(mv.parse().expect("a bench move"));
    }
    position
}

/// Searches each bench position to `depth`; returns the nodes.
fn search(evaluation: &Evaluation, depth: u32) -> u64 {
    let mut total = 0;
    for moves in POSITIONS {
        let mut searcher = Searcher::new(Searcher::DEFAULT_HASH);
        searcher.set_evaluation(evaluation.clone());
        let limits = Limits::depth(depth);
        let result = searcher.search(&position(moves), &limits, &StopFlag::new(), |_| {});
        println!("{:>10} nodes  {moves}", result.nodes);
        total += result.nodes;
    }
    total
}

/// How a walk evaluates its nodes.
enum Walker<'a> {
    /// Not at all: the cost of the walk alone.
    None,
    Classical,
    Network(Accumulators<'a>),
}

/// Evaluates every node `depth` plies deep from `position` (at `ply`); returns the nodes and
/// the sum of their values (so that no evaluation is optimised away).
fn walk(position: &mut Position, walker: &mut Walker, depth: u32, ply: usize) -> (u64, i64) {
    let value: Value = match walker {
        Walker::None => 0,
        Walker::Classical => eval::evaluate(position),
        Walker::Network(accumulators) => accumulators.evaluate(ply, position),
    };
    let (mut nodes, mut sum) = (1, i64::from(value));
    if depth == 0 {
        return (nodes, sum);
    }
    for mv in position.moves() {
        let piece = position.piece_at(mv.from).expect("a piece to move");
        let undo = position.make(mv);
        if let Walker::Network(accumulators) = walker {
            accumulators.make(ply, piece, mv, undo.captured(), position.board());
        }
        let (below, values) = walk(position, walker, depth - 1, ply + 1);
        position.unmake(mv, undo);
        nodes += below;
        sum += values;
    }
    (nodes, sum)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).filter(|arg| arg != "--bench").collect();
    let mode = args.first().map_or("search", String::as_str);
    let name = args.get(1).map_or("classical", String::as_str);
    let evaluation = match evaluation(name) {
        Ok(evaluation) => evaluation,
        Err(error) => {
            eprintln!("search: {error}");
            return ExitCode::from(2);
        }
    };
    let default_depth = if mode == "walk" { 3 } else { 11 };
    let Some(depth) = args.get(2).map_or(Some(default_depth), |depth| depth.parse().ok()) else {
        eprintln!("search: the depth is a number");
        return ExitCode::from(2);
    };
    match mode {
        "search" => {
            let total = search(&evaluation, depth);
            println!("{total:>10} nodes  search, {name}, depth {depth}");
        }
        "walk" => {
            let (mut nodes, mut sum) = (0, 0);
            for moves in POSITIONS {
                let mut position = position(moves);
                let mut walker = match &evaluation {
                    _ if name == "none" => Walker::None,
                    Evaluation::Classical => Walker::Classical,
                    Evaluation::Network(model) => {
                        Walker::Network(Accumulators::new(model, &position))
                    }
                };
                let (walked, values) = walk(&mut position, &mut walker, depth, 0);
                nodes += walked;
                sum += values;
            }
            println!("{nodes:>10} nodes  walk, {name}, depth {depth} (values sum to {sum})");
        }
        _ => {
            eprintln!("search: the mode is `search` or `walk`, not `{mode}`");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
