//! The search: iterative deepening of a principal-variation alpha-beta search with aspiration
//! windows, a transposition table, staged move ordering, quiescence on captures, and the usual
//! pruning (reverse futility, null move, futility, late-move reductions and pruning).
//!
//! [`Searcher`] keeps what outlives one search (the transposition table, the move history) and
//! runs [`Searcher::search`] on a [`Position`] within [`Limits`]: a depth, a node count, a time per
//! move, a clock, or until a [`StopFlag`] is raised from another thread. Each finished iteration
//! is reported as a [`SearchInfo`]; the answer is a [`SearchResult`]. The search knows no
//! protocol: a front end turns its own commands into [`Limits`] and writes the reports in its own
//! form (UCI's `info` lines, in `uci`).
//!
//! The static evaluation is the classical one ([`eval`]) or a network's
//! ([`Searcher::set_evaluation`]), whose accumulators each thread keeps along its path.
//!
//! With more than one thread ([`Searcher::set_threads`]) the search is *Lazy SMP*: helper threads
//! search the same root, each with its own move history, and share only the transposition table,
//! where what each finds orders and cuts the others' search. Every other helper searches one ply
//! deeper than the iteration it is on, so that the threads do not all walk the same tree in step.
//! The main thread alone decides: it reports the iterations, keeps the time, and answers; its
//! result is the answer, and the helpers stop when it has one. The node counts add up every
//! thread's nodes, and a node limit holds for them together: every thread stops at it.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::search::{Searcher, Limits, StopFlag};
//! use arbiter_duck_engine::value::Score;
//!
//! // Blue's captain on e10 stands on the file of red's car on e2: take it.
//! let position: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
//! let mut engine = Searcher::new(16);
//! let mut depths = Vec::new();
//! let result = engine.search(&position, &Limits::depth(3), &StopFlag::new(), |info| {
//!     depths.push(info.depth);
//! });
//! assert_eq!(result.best.unwrap().to_string(), "1 4 9 4");
//! assert_eq!(result.score, Score::Mate(1));
//! assert_eq!(depths, [1, 2, 3]);
//! ```
//!
//! # Game-specific decisions
//!
//! - Capturing the captain wins: a side that can capture the other's captain scores a win at
//!   once (`mate 1`), and a side whose captain is gone has lost. Values count the plies to that
//!   capture, so shorter wins score higher.
//! - A captain under attack is this game's check. The side to move in check gets one ply more
//!   (the move that gave it is extended), is never pruned, and in quiescence may not stand pat:
//!   it must answer the threat with any move, not only a capture.
//! - The game has no repetition rule and no move-count rule. A position that repeats one earlier
//!   in the search's own path scores 0: a cycle gains nothing, and the side that can do better
//!   will. Positions of the game before the root are not consulted.
//! - The game has no rule that ends a game without progress, but matches and players stop long
//!   games (a match's ply cap), and a side ahead that shuffles never wins. So the static
//!   evaluation the search uses falls towards 0 as plies pass without a capture: by a half over
//!   128 such plies (the position's capture clock, which a capture resets), half after that. A
//!   line that captures keeps its full value, so a side ahead trades down and presses on. In
//!   fixed-node self-play this won games the engine without it drew at the cap (`--disable
//!   progress-scaling` switches it off).
//! - A side with no valid move scores 0 ([`EndReason::NoMove`](arbiter_duck::EndReason::NoMove), a
//!   draw in matches).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use arbiter_duck::{Move, MoveList, Position};

use crate::eval::{self, Evaluation};
use crate::movepick::{History, MovePicker, Previous, is_capture};
use crate::nnue::Accumulators;
use crate::see;
use crate::timeman::{Budget, Clock};
use crate::tt::{Bound, Table};
use crate::value::{
    self, DRAW, INFINITE, MATE_BOUND, MAX_PLY, Score, Value, from_table, is_decisive, lost_in,
    to_table, won_in,
};

/// What bounds a search. With none of them, the search goes on until it is stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies at most.
    pub depth: Option<u32>,
    /// Search about this many nodes at most (checked every node once the first iteration is done).
    pub nodes: Option<u64>,
    /// Search this long.
    pub movetime: Option<Duration>,
    /// The side to move's clock, to budget the time from.
    pub clock: Option<Clock>,
    /// Stop once a captain capture in this many moves is found.
    pub mate: Option<u32>,
    /// Search until stopped, whatever else is given.
    pub infinite: bool,
    /// Only consider these moves at the root (all when empty).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Search `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search for `movetime`.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits { movetime: Some(movetime), ..Limits::default() }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// The time budget, if the search is timed.
    pub fn budget(&self, overhead: Duration) -> Option<Budget> {
        if self.infinite {
            return None;
        }
        match (self.movetime, &self.clock) {
            (Some(movetime), _) => Some(Budget::for_movetime(movetime)),
            (None, Some(clock)) => Some(Budget::for_clock(clock, overhead)),
            (None, None) => None,
        }
    }
}

/// A flag that stops a search from another thread. Clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises the flag: a search using it returns its best move as soon as it notices (within
    /// about a thousand nodes).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Lowers the flag, for the next search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// The parts of the search that can be switched off, each to measure what it is worth (a match
/// between the engine with and without it) or to test the rest without it. All are on by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features {
    /// Cut off on a transposition table entry deep enough (its move is always tried first).
    pub table_cutoffs: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Reverse futility pruning (static evaluation far above beta at low depth).
    pub reverse_futility: bool,
    /// Late-move reductions.
    pub late_move_reductions: bool,
    /// Late-move pruning of quiet moves at low depth.
    pub late_move_pruning: bool,
    /// Skipping captures that lose material at low depth, and in quiescence.
    pub see_pruning: bool,
    /// Skipping captures in quiescence that cannot lift the value to alpha.
    pub delta_pruning: bool,
    /// One ply more after a move that attacks the captain.
    pub check_extension: bool,
    /// Aspiration windows around the last iteration's value.
    pub aspiration: bool,
    /// Killer moves in the move order.
    pub killers: bool,
    /// History scores in the move order (and in the reductions).
    pub history: bool,
    /// Continuation history: scores of quiet moves as answers to the move before.
    pub continuation_history: bool,
    /// Quiescence search on captures at the horizon (off: the static evaluation).
    pub quiescence: bool,
    /// One ply less for a node the table knows no move for (internal iterative reduction).
    pub internal_reduction: bool,
    /// Skipping quiet moves at low depth when the evaluation is far below alpha.
    pub futility_pruning: bool,
    /// Scaling the static evaluation towards 0 as plies pass without a capture, so that a side
    /// ahead makes progress.
    pub progress_scaling: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features::ALL
    }
}

impl Features {
    /// Every feature on.
    pub const ALL: Features = Features {
        table_cutoffs: true,
        null_move: true,
        reverse_futility: true,
        late_move_reductions: true,
        late_move_pruning: true,
        see_pruning: true,
        delta_pruning: true,
        check_extension: true,
        aspiration: true,
        killers: true,
        history: true,
        continuation_history: true,
        quiescence: true,
        internal_reduction: true,
        futility_pruning: true,
        progress_scaling: true,
    };

    /// Nothing that can change the value found at a given depth: no pruning, reduction or
    /// extension, no cut-off on the table, full windows. The value then depends on the depth
    /// alone, whatever the move order.
    pub const EXACT: Features = Features {
        table_cutoffs: false,
        null_move: false,
        reverse_futility: false,
        late_move_reductions: false,
        late_move_pruning: false,
        see_pruning: false,
        delta_pruning: false,
        check_extension: false,
        aspiration: false,
        internal_reduction: false,
        futility_pruning: false,
        progress_scaling: false,
        ..Features::ALL
    };
}

/// What an iteration of the search found, reported when it is done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth of the iteration, in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The value of the position for the side to move.
    pub score: Score,
    /// The nodes searched so far, by every thread.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// The transposition table's fill, in permille.
    pub hashfull: u32,
    /// The time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Which of several lines this is, from 1 (best first); `None` when the search looks for one
    /// line only (MultiPV 1).
    pub multipv: Option<u32>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the game is over or the side to move has no move.
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The value of the position for the side to move.
    pub value: Value,
    /// The same value as a score: centipawns or moves to a captured captain.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The last depth searched to its end.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The nodes searched.
    pub nodes: u64,
    /// The time taken.
    pub time: Duration,
}

/// What outlives one search: a transposition table and move histories (one a thread) that
/// persist from one search to the next (within a game), and the search's settings. Front ends
/// drive it through the engine (`engine::Engine`).
#[derive(Debug)]
pub struct Searcher {
    table: Table,
    history: History,
    /// The helper threads' histories: one for each thread but the main one.
    helpers: Vec<History>,
    move_overhead: Duration,
    features: Features,
    multipv: usize,
    evaluation: Evaluation,
}

/// The deepest iteration.
const MAX_DEPTH: i32 = 64;

impl Searcher {
    /// The default size of the transposition table, in MiB.
    pub const DEFAULT_HASH: usize = 16;

    /// The most search threads.
    pub const MAX_THREADS: usize = 256;

    /// The most principal variations searched at once ([`Searcher::set_multipv`]).
    pub const MAX_MULTIPV: usize = 5;

    /// An engine with a transposition table of `hash_mb` MiB, searching on one thread with the
    /// default evaluation (the built-in network).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mb),
            history: History::new(),
            helpers: Vec::new(),
            move_overhead: Duration::from_millis(10),
            features: Features::ALL,
            multipv: 1,
            evaluation: Evaluation::default(),
        }
    }

    /// Evaluates positions with `evaluation` from the next search on. The transposition table
    /// is emptied: the evaluations and values it holds came from the other one.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.table.clear();
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Searches the best `lines` root moves each to a full value and reports each line
    /// (clamped to 1..=[`MAX_MULTIPV`](Searcher::MAX_MULTIPV)); 1, the default, searches only
    /// the best move, as every search did before MultiPV.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, Searcher::MAX_MULTIPV);
    }

    /// The number of principal variations searched.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Searches on `threads` threads from the next search on (clamped to
    /// 1..=[`MAX_THREADS`](Searcher::MAX_THREADS)). New helpers start with an empty history.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, Searcher::MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        self.helpers.resize_with(helpers, History::new);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Switches parts of the search on or off (all are on by default).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Resizes the transposition table (which empties it); returns the size in use, in MiB,
    /// smaller than asked when memory does not allow that much.
    pub fn set_hash(&mut self, hash_mb: usize) -> usize {
        self.table = Table::new(hash_mb);
        self.table.megabytes()
    }

    /// The size of the transposition table in use, in MiB.
    pub fn hash(&self) -> usize {
        self.table.megabytes()
    }

    /// The time kept per move for communication when playing on a clock.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// Forgets everything learnt: for a new game.
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.clear();
        self.helpers.iter_mut().for_each(History::clear);
    }

    /// Searches `position` within `limits` or until `stop` is raised, calling `on_info` after
    /// each iteration, and returns the best move found.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &StopFlag,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.table.new_search();
        self.history.age();
        self.helpers.iter_mut().for_each(History::age);
        let root_moves = root_moves(position, &limits.searchmoves);
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let Searcher { table, history, helpers, move_overhead, features, multipv, evaluation } =
            self;
        let (table, move_overhead, features) = (&*table, *move_overhead, *features);
        let evaluation = &*evaluation;
        let mut search = Search::new(position, table, history, stop, start);
        search.features = features;
        search.use_evaluation(evaluation);
        search.multipv = *multipv;
        if helpers.is_empty() || position.is_over() || root_moves.is_empty() {
            search.root_moves = root_moves;
            return search.main(limits, move_overhead, max_depth, on_info);
        }
        let done = StopFlag::new();
        let counted = AtomicU64::new(0);
        search.shared = Some(Shared { counted: &counted, reported: 0 });
        std::thread::scope(|scope| {
            let threads: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(index, history)| {
                    let (done, counted, root_moves) = (&done, &counted, &root_moves);
                    scope.spawn(move || {
                        let mut helper = Search::new(position, table, history, done, start);
                        helper.features = features;
                        helper.use_evaluation(evaluation);
                        helper.root_moves = root_moves.clone();
                        helper.node_limit = limits.nodes.unwrap_or(u64::MAX);
                        helper.shared = Some(Shared { counted, reported: 0 });
                        helper.helper(max_depth, index % 2 == 0)
                    })
                })
                .collect();
            search.root_moves = root_moves.clone();
            let mut result = search.main(limits, move_overhead, max_depth, on_info);
            done.stop();
            for thread in threads {
                // A helper that panicked only lost its share of the work.
                result.nodes += thread.join().unwrap_or(0);
            }
            result
        })
    }
}

impl Search<'_> {
    /// The main thread's iterative deepening: reports each iteration, keeps the time, answers.
    fn main(
        &mut self,
        limits: &Limits,
        move_overhead: Duration,
        max_depth: i32,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let search = self;
        let start = search.start;
        let budget = limits.budget(move_overhead);
        search.maximum = budget.map(|b| b.maximum);
        search.node_limit = limits.nodes.unwrap_or(u64::MAX);

        let mut result = SearchResult {
            best: None,
            ponder: None,
            value: DRAW,
            score: Score::Centipawns(0),
            pv: Vec::new(),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };
        let over = search.position.is_over();
        if over || search.root_moves.is_empty() {
            result.value = if over { lost_in(0) } else { DRAW };
            result.score = value::score(result.value);
            return result;
        }

        let mut previous = DRAW;
        // MultiPV: the values of the other lines at the last iteration, for their windows.
        let mut others: Vec<Value> = Vec::new();
        for depth in 1..=max_depth {
            if depth > 1 && search.stop.is_stopped() {
                break;
            }
            let value = search.iteration(depth, previous);
            if search.aborted {
                // An unfinished iteration still proved its best root move at least as good.
                if let Some(&best) = search.root_pv.first()
                    && Some(best) != result.best
                {
                    result.best = Some(best);
                    result.pv = search.root_pv.clone();
                    result.value = search.root_value;
                }
                break;
            }
            previous = value;
            result.best = search.root_pv.first().copied();
            result.pv = search.root_pv.clone();
            result.value = value;
            result.depth = depth as u32;
            result.seldepth = search.seldepth as u32;
            let lines = search.other_lines(depth, &others);
            if search.aborted {
                // The best line is searched to its end, but not the others: nothing to report.
                break;
            }
            let elapsed = start.elapsed();
            // This iteration's report of one line (`multipv` its rank when several are asked).
            let report = |value, pv, multipv| SearchInfo {
                depth: depth as u32,
                seldepth: search.seldepth as u32,
                score: value::score(value),
                nodes: search.all_nodes(),
                nps: nps(search.all_nodes(), elapsed),
                hashfull: search.table.hashfull(),
                time: elapsed,
                pv,
                multipv,
            };
            if search.multipv > 1 {
                // Every line, best first (a later line may come out better than the first when
                // pruning cut the first short): the best is the answer.
                let mut all = vec![(value, result.pv.clone())];
                all.extend(lines);
                all.sort_by_key(|line| std::cmp::Reverse(line.0));
                (result.value, result.pv) = all[0].clone();
                result.best = result.pv.first().copied();
                previous = result.value;
                others = all[1..].iter().map(|line| line.0).collect();
                for (index, (value, pv)) in all.into_iter().enumerate() {
                    on_info(&report(value, pv, Some(index as u32 + 1)));
                }
            } else {
                on_info(&report(value, result.pv.clone(), None));
            }
            if let Some(moves) = limits.mate
                && value >= MATE_BOUND
                && (value::MATE - value + 1) / 2 <= moves as i32
            {
                break;
            }
            if budget.is_some_and(|b| !b.starts_iteration(elapsed)) || search.node_limit_reached() {
                break;
            }
            // A won or lost game seen well past its end: deeper iterations find nothing new.
            if is_decisive(value) && depth > 2 * (value::MATE - value.abs()) + 2 {
                break;
            }
        }
        if result.best.is_none() {
            // Stopped before the first iteration could finish: any valid move.
            result.best = search.root_moves.first().copied();
            result.pv = result.best.into_iter().collect();
        }
        result.ponder = result.pv.get(1).copied();
        result.score = value::score(result.value);
        result.nodes = search.nodes;
        result.seldepth = result.seldepth.max(result.depth);
        result.time = start.elapsed();
        result
    }

    /// A helper thread's iterative deepening, until the main thread is done (or the deepest
    /// iteration is searched): `ahead` searches each iteration one ply deeper. Returns the nodes
    /// searched.
    fn helper(mut self, max_depth: i32, ahead: bool) -> u64 {
        let mut previous = DRAW;
        for depth in 1..=max_depth {
            let value = self.iteration((depth + i32::from(ahead)).min(max_depth), previous);
            if self.aborted || self.stop.is_stopped() {
                break;
            }
            previous = value;
        }
        self.nodes
    }

    /// One iteration of `depth` plies, in aspiration windows around `previous` (the value of the
    /// iteration before) that widen until the value falls inside. When the search is aborted
    /// the value means nothing.
    fn iteration(&mut self, depth: i32, previous: Value) -> Value {
        self.root_depth = depth;
        self.seldepth = 0;
        let mut delta: Value = 18;
        let aspiration = self.features.aspiration && depth >= 4 && !is_decisive(previous);
        let (mut alpha, mut beta) = if aspiration {
            ((previous - delta).max(-INFINITE), (previous + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search(alpha, beta, depth, 0);
            if self.aborted {
                return value;
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
            } else {
                return value;
            }
            delta += delta / 2 + 5;
        }
    }

    /// MultiPV: after the iteration of `depth` found the best line, the next best lines (up to
    /// `multipv - 1` of them), each searched on the root moves no earlier line starts with, in a
    /// window around its value at the iteration before (`previous`, best first). Empty when the
    /// search was stopped during one of them: a line not searched to its end has no value.
    fn other_lines(&mut self, depth: i32, previous: &[Value]) -> Vec<(Value, Vec<Move>)> {
        let mut lines: Vec<(Value, Vec<Move>)> = Vec::new();
        if self.multipv <= 1 {
            return lines;
        }
        let all = std::mem::take(&mut self.root_moves);
        let (best_pv, best_value, seldepth) =
            (self.root_pv.clone(), self.root_value, self.seldepth);
        let mut excluded: Vec<Move> = best_pv.first().copied().into_iter().collect();
        for index in 0..self.multipv - 1 {
            self.root_moves = all.iter().copied().filter(|mv| !excluded.contains(mv)).collect();
            if self.root_moves.is_empty() {
                break;
            }
            self.root_pv.clear();
            let value = self.iteration(depth, previous.get(index).copied().unwrap_or(DRAW));
            if self.aborted {
                lines.clear();
                break;
            }
            let Some(&first) = self.root_pv.first() else { break };
            excluded.push(first);
            lines.push((value, self.root_pv.clone()));
        }
        self.root_moves = all;
        (self.root_pv, self.root_value, self.seldepth) = (best_pv, best_value, seldepth);
        lines
    }

    /// The nodes of every thread: what they have counted so far, and what this one has not yet.
    fn all_nodes(&self) -> u64 {
        match &self.shared {
            Some(shared) => shared.counted.load(Ordering::Relaxed) + self.nodes - shared.reported,
            None => self.nodes,
        }
    }
}

/// The moves the root may play: every valid move, or those of `searchmoves` that are valid.
fn root_moves(position: &Position, searchmoves: &[Move]) -> Vec<Move> {
    let moves = position.moves();
    if searchmoves.is_empty() {
        return moves.to_vec();
    }
    moves.iter().copied().filter(|mv| searchmoves.contains(mv)).collect()
}

/// Nodes per second.
fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

/// What the search keeps for each ply of its path.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    /// The key of the position at this ply.
    key: u64,
    /// Its static evaluation (when not in check).
    eval: Option<Value>,
    /// The two quiet moves that last cut off at this ply.
    killers: [Option<Move>; 2],
    /// Plies since the last null move (or since the root).
    plies_from_null: usize,
    /// The move that led here.
    moved: Previous,
}

/// Progress scaling: the static evaluation falls by a half over this many plies without a
/// capture, and stays at half after.
const PROGRESS_PLIES: u32 = 128;

/// The reduction of late moves, by depth and move number.
static REDUCTIONS: LazyLock<[[u8; 64]; 64]> = LazyLock::new(|| {
    let mut table = [[0; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (moves, reduction) in row.iter_mut().enumerate().skip(1) {
            let r = 0.8 + (depth as f64).ln() * (moves as f64).ln() / 2.3;
            *reduction = r as u8;
        }
    }
    table
});

fn reduction(depth: i32, moves: usize) -> i32 {
    i32::from(REDUCTIONS[(depth as usize).min(63)][moves.min(63)])
}

/// One search in progress.
struct Search<'a> {
    position: Position,
    table: &'a Table,
    history: &'a mut History,
    stop: &'a StopFlag,
    features: Features,
    start: Instant,
    maximum: Option<Duration>,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    root_depth: i32,
    root_moves: Vec<Move>,
    root_pv: Vec<Move>,
    root_value: Value,
    /// How many principal variations to search (MultiPV).
    multipv: usize,
    frames: Box<[Frame; MAX_PLY + 2]>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// With several threads, the count of their nodes they share.
    shared: Option<Shared<'a>>,
    /// With a network, its accumulators along the path; the classical evaluation without.
    network: Option<Accumulators<'a>>,
}

/// The nodes of every thread of a search, counted together: each thread adds its own every
/// [`NODE_STEP`] nodes or so, and `reported` of this thread's are added.
struct Shared<'a> {
    counted: &'a AtomicU64,
    reported: u64,
}

/// How often the search looks at the clock and the stop flag, and adds its nodes to the count
/// shared by the threads: every this many nodes (a power of two).
const NODE_STEP: u64 = 1024;

impl<'a> Search<'a> {
    fn new(
        position: &Position,
        table: &'a Table,
        history: &'a mut History,
        stop: &'a StopFlag,
        start: Instant,
    ) -> Search<'a> {
        let mut frames = Box::new([Frame::default(); MAX_PLY + 2]);
        frames[0].plies_from_null = usize::MAX / 2;
        Search {
            position: position.clone(),
            table,
            history,
            stop,
            features: Features::ALL,
            start,
            maximum: None,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root_depth: 0,
            root_moves: Vec::new(),
            root_pv: Vec::new(),
            root_value: DRAW,
            multipv: 1,
            frames,
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            shared: None,
            network: None,
        }
    }

    /// Evaluates with `evaluation`: a network's accumulators start from the root position.
    fn use_evaluation(&mut self, evaluation: &'a Evaluation) {
        self.network = match evaluation {
            Evaluation::Classical => None,
            Evaluation::Network(model) => Some(Accumulators::new(model, &self.position)),
        };
    }

    /// The static evaluation of the position at `ply`, for the side to move: every evaluation
    /// of the search comes from here.
    #[inline]
    fn evaluate(&mut self, ply: usize) -> Value {
        match &mut self.network {
            None => eval::evaluate(&self.position),
            Some(accumulators) => accumulators.evaluate(ply, &self.position),
        }
    }

    /// `eval`, a static evaluation of the position at hand, as the search uses it: scaled
    /// towards 0 by the plies since the last capture (when progress scaling is on).
    #[inline]
    fn scaled(&self, eval: Value) -> Value {
        if self.features.progress_scaling {
            let quiet = self.position.halfmoves().min(PROGRESS_PLIES) as Value;
            eval * (2 * PROGRESS_PLIES as Value - quiet) / (2 * PROGRESS_PLIES as Value)
        } else {
            eval
        }
    }

    /// Whether the nodes of every thread reached the limit.
    fn node_limit_reached(&self) -> bool {
        self.all_nodes() >= self.node_limit
    }

    /// Whether to stop now: the flag, the node limit or the time (looked at every
    /// [`NODE_STEP`] nodes). The first iteration always finishes, so that there is a move to play.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.root_depth <= 1 {
            return false;
        }
        if self.node_limit_reached() {
            self.aborted = true;
        } else if self.nodes & (NODE_STEP - 1) == 0 {
            if let Some(shared) = &mut self.shared {
                shared.counted.fetch_add(self.nodes - shared.reported, Ordering::Relaxed);
                shared.reported = self.nodes;
            }
            self.aborted = self.stop.is_stopped()
                || self.maximum.is_some_and(|maximum| self.start.elapsed() >= maximum);
        }
        self.aborted
    }

    /// Whether the position at `ply` repeats one earlier in the search path.
    fn is_repetition(&self, ply: usize) -> bool {
        let frame = &self.frames[ply];
        let reach = (self.position.halfmoves() as usize).min(frame.plies_from_null).min(ply);
        (4..=reach).step_by(2).any(|back| self.frames[ply - back].key == frame.key)
    }

    /// The move that led to `ply`, for the continuation history (none when it is off).
    fn previous(&self, ply: usize) -> Previous {
        if self.features.continuation_history { self.frames[ply].moved } else { None }
    }

    /// Ends the principal variation at `ply` with a capture of the other captain.
    fn capture_captain_pv(&mut self, ply: usize) {
        let board = self.position.board();
        let us = self.position.turn();
        if let Some(captain) = board.captain(!us)
            && let Some(from) = board.attackers(captain, us, board.occupied()).first()
        {
            self.pv[ply][0] = Some(Move::new(from, captain));
            self.pv_len[ply] = 1;
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = Some(mv);
        let child = self.pv_len[ply + 1];
        for i in 0..child {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child + 1;
    }

    /// Makes `mv` and sets up the frame of the next ply.
    #[inline]
    fn make(&mut self, mv: Move, ply: usize) -> arbiter_duck::Undo {
        let moved = self.position.piece_at(mv.from).map(|piece| (piece, mv.to));
        let undo = self.position.make(mv);
        if let Some(accumulators) = &mut self.network
            && let Some((piece, _)) = moved
        {
            accumulators.make(ply, piece, mv, undo.captured(), self.position.board());
        }
        let key = self.position.key();
        self.table.prefetch(key);
        let plies_from_null = self.frames[ply].plies_from_null + 1;
        let next = &mut self.frames[ply + 1];
        next.key = key;
        next.plies_from_null = plies_from_null;
        next.moved = moved;
        undo
    }

    /// Passes the turn (a null move) and sets up the frame of the next ply.
    fn make_null(&mut self, ply: usize) -> arbiter_duck::Undo {
        let undo = self.position.make_null();
        if let Some(accumulators) = &mut self.network {
            accumulators.make_null(ply);
        }
        let next = &mut self.frames[ply + 1];
        next.key = self.position.key();
        next.plies_from_null = 0;
        next.moved = None;
        undo
    }

    fn search(&mut self, mut alpha: Value, mut beta: Value, mut depth: i32, ply: usize) -> Value {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = 0;
        if depth <= 0 {
            if !self.features.quiescence {
                self.nodes += 1;
                return self.horizon(ply);
            }
            return self.quiescence(alpha, beta, ply);
        }
        if self.should_stop() {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        let us = self.position.turn();
        if root {
            self.frames[0].key = self.position.key();
        } else {
            if self.position.is_over() {
                return lost_in(ply);
            }
            if self.position.board().captain_attacked(!us) {
                self.capture_captain_pv(ply);
                return won_in(ply + 1);
            }
            if self.is_repetition(ply) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(ply);
            }
            alpha = alpha.max(lost_in(ply));
            beta = beta.min(won_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.position.in_check();
        let key = self.frames[ply].key;
        let hit = self.table.probe(key);
        let table_move = hit.and_then(|hit| hit.mv);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth
            && self.features.table_cutoffs
        {
            let value = from_table(hit.value, ply);
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable {
                return value;
            }
        }

        // The static evaluation (stored in the table as it is) and the estimate the pruning uses,
        // sharpened by the table's value when its bound allows.
        let static_eval =
            (!in_check).then(|| hit.map_or_else(|| self.evaluate(ply), |hit| hit.eval));
        // A node no search has been through is probably not worth its full depth (and the move
        // order has no table move to start from).
        if self.features.internal_reduction && depth >= 4 && table_move.is_none() {
            depth -= 1;
        }
        let eval = static_eval.map(|eval| {
            let mut eval = self.scaled(eval);
            if let Some(hit) = hit
                && self.features.table_cutoffs
            {
                let value = from_table(hit.value, ply);
                let better = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => value > eval,
                    Bound::Upper => value < eval,
                };
                if better && !is_decisive(value) {
                    eval = value;
                }
            }
            eval
        });
        self.frames[ply].eval = eval;
        let improving = match (eval, ply.checked_sub(2).and_then(|p| self.frames[p].eval)) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        self.frames[ply + 1].killers = [None, None];

        if let Some(eval) = eval
            && !pv_node
        {
            // Reverse futility: far enough above beta that a shallow search will not fall below.
            let margin = 90 * depth - 40 * i32::from(improving);
            if self.features.reverse_futility
                && depth <= 7
                && eval - margin >= beta
                && !is_decisive(beta)
            {
                return (eval + beta) / 2;
            }
            // Null move: passing still holds beta, so a real move would too.
            if self.features.null_move
                && depth >= 3
                && eval >= beta
                && self.frames[ply].plies_from_null > 0
                && !is_decisive(beta)
            {
                let r = 3 + depth / 3 + ((eval - beta) / 200).min(3);
                let undo = self.make_null(ply);
                let value = -self.search(-beta, -beta + 1, depth - r, ply + 1);
                self.position.unmake_null(undo);
                if self.aborted {
                    return DRAW;
                }
                if value >= beta {
                    return if is_decisive(value) { beta } else { value };
                }
            }
        }

        let original_alpha = alpha;
        let killers = if self.features.killers { self.frames[ply].killers } else { [None; 2] };
        let previous = self.previous(ply);
        let mut picker = MovePicker::new(table_move, killers).after(previous);
        let mut best_value = -INFINITE;
        let mut best_move = None;
        let mut tried = 0;
        let mut seen = 0;
        let mut quiets = MoveList::new();
        while let Some(mv) = picker.next(&self.position, self.history) {
            if root && !self.root_moves.contains(&mv) {
                continue;
            }
            seen += 1;
            let capture = is_capture(&self.position, mv);
            let mut futile = false;
            if !root && !in_check && best_value > -MATE_BOUND {
                if !capture {
                    // Late-move pruning: at low depth, the last quiet moves rarely matter.
                    let limit = (3 + depth * depth) as usize / (2 - usize::from(improving));
                    if self.features.late_move_pruning && depth <= 5 && quiets.len() >= limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility: the move would have to gain a lot to lift the value to alpha
                    // (skipped below unless it attacks the captain, known once it is made).
                    futile = self.features.futility_pruning
                        && alpha < MATE_BOUND
                        && eval.is_some_and(|eval| {
                            let lmr_depth = (depth - 1 - reduction(depth, tried + 1)).max(0);
                            lmr_depth < 6 && eval + 170 + 130 * lmr_depth <= alpha
                        });
                } else if self.features.see_pruning
                    && depth <= 5
                    && !see::see_ge(self.position.board(), mv, -120 * depth)
                {
                    continue;
                }
            }
            let quiet_score = match self.position.piece_at(mv.from) {
                Some(piece) if !capture => self.history.score(mv, piece, previous),
                _ => 0,
            };
            // A futile move is made on the board alone, to see whether it attacks the captain:
            // most are skipped, and the search's own bookkeeping of a move is then wasted.
            if futile {
                let undo = self.position.make(mv);
                let gives_check = self.position.in_check();
                self.position.unmake(mv, undo);
                if !gives_check {
                    continue;
                }
            }
            let undo = self.make(mv, ply);
            let gives_check = self.position.in_check();
            tried += 1;
            let extension = i32::from(
                self.features.check_extension && gives_check && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + extension;
            let mut value;
            if tried == 1 {
                value = -self.search(-beta, -alpha, new_depth, ply + 1);
            } else {
                let mut r = 0;
                if self.features.late_move_reductions
                    && depth >= 3
                    && !capture
                    && !in_check
                    && !gives_check
                {
                    r = reduction(depth, tried);
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    r -= i32::from(killers.contains(&Some(mv)));
                    r -= (quiet_score / 8000).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                value = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1);
                if value > alpha && r > 0 {
                    value = -self.search(-alpha - 1, -alpha, new_depth, ply + 1);
                }
                if value > alpha && value < beta {
                    value = -self.search(-beta, -alpha, new_depth, ply + 1);
                }
            }
            self.position.unmake(mv, undo);
            if self.aborted {
                return DRAW;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if root {
                        self.root_pv =
                            self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
                        self.root_value = value;
                    }
                    if value >= beta {
                        if !capture {
                            self.reward_quiet(ply, depth, mv, &quiets, previous);
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if !capture {
                quiets.push(mv);
            }
        }
        if tried == 0 {
            // No valid move at all is a draw; moves that were all pruned leave alpha.
            return if seen == 0 { DRAW } else { alpha };
        }
        let bound = Bound::of(best_value, original_alpha, beta);
        self.table.store(
            key,
            best_move,
            to_table(best_value, ply),
            static_eval.unwrap_or(0),
            depth,
            bound,
        );
        best_value
    }

    /// A quiet move cut off: it becomes a killer and gains history; the quiet moves tried before
    /// it lose some.
    fn reward_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        mv: Move,
        tried: &[Move],
        previous: Previous,
    ) {
        if !self.features.history && !self.features.killers {
            return;
        }
        let killers = &mut self.frames[ply].killers;
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if !self.features.history {
            return;
        }
        let us = self.position.turn();
        let bonus = (depth * depth * 16).min(1600);
        for (quiet, bonus) in tried.iter().map(|&other| (other, -bonus)).chain([(mv, bonus)]) {
            self.history.update(us, quiet, bonus);
            if let Some(previous) = previous
                && let Some(piece) = self.position.piece_at(quiet.from)
            {
                self.history.update_continuation(previous, piece, quiet.to, bonus);
            }
        }
    }

    /// The value at the horizon without quiescence: the game's end, or the static evaluation.
    fn horizon(&mut self, ply: usize) -> Value {
        let us = self.position.turn();
        if self.position.is_over() {
            lost_in(ply)
        } else if self.position.board().captain_attacked(!us) {
            won_in(ply + 1)
        } else {
            self.evaluate(ply)
        }
    }

    fn quiescence(&mut self, mut alpha: Value, beta: Value, ply: usize) -> Value {
        if self.should_stop() {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        self.pv_len[ply] = 0;
        let us = self.position.turn();
        if self.position.is_over() {
            return lost_in(ply);
        }
        if self.position.board().captain_attacked(!us) {
            self.capture_captain_pv(ply);
            return won_in(ply + 1);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(ply);
        }
        let pv_node = beta - alpha > 1;
        let in_check = self.position.in_check();
        let key = self.position.key();
        let hit = self.table.probe(key);
        if let Some(hit) = hit
            && !pv_node
            && self.features.table_cutoffs
        {
            let value = from_table(hit.value, ply);
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable {
                return value;
            }
        }
        let original_alpha = alpha;
        let mut best_value;
        let stand_pat;
        // The static evaluation as it is, for the table.
        let mut raw = 0;
        if in_check {
            // The captain is attacked: every move is a candidate answer, standing pat is not.
            stand_pat = None;
            best_value = -INFINITE;
        } else {
            raw = hit.map_or_else(|| self.evaluate(ply), |hit| hit.eval);
            let eval = self.scaled(raw);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best_value = eval;
            stand_pat = Some(eval);
        }
        let table_move = hit.and_then(|hit| hit.mv);
        let mut picker = if in_check {
            MovePicker::new(table_move, [None, None])
        } else {
            MovePicker::captures(table_move)
        };
        let mut best_move = None;
        let mut seen = 0;
        while let Some(mv) = picker.next(&self.position, self.history) {
            seen += 1;
            if let Some(stand_pat) = stand_pat {
                let board = self.position.board();
                // Delta pruning: even the piece taken would not lift the value to alpha.
                if self.features.delta_pruning
                    && stand_pat + see::victim_value(board, mv.to) + 200 <= alpha
                {
                    continue;
                }
                if self.features.see_pruning && !see::see_ge(board, mv, 0) {
                    continue;
                }
            }
            let undo = self.make(mv, ply);
            let value = -self.quiescence(-beta, -alpha, ply + 1);
            self.position.unmake(mv, undo);
            if self.aborted {
                return DRAW;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }
        if in_check && seen == 0 {
            return DRAW;
        }
        let bound = Bound::of(best_value, original_alpha, beta);
        self.table.store(key, best_move, to_table(best_value, ply), raw, 0, bound);
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Model;

    fn search(fen: &str, limits: &Limits) -> SearchResult {
        let position: Position = fen.parse().unwrap();
        Searcher::new(4).search(&position, limits, &StopFlag::new(), |_| {})
    }

    /// Blue's captain on a10 is shut in by its own elephant on a9: red's car reaching rank 10
    /// cannot be escaped, blocked or taken.
    const MATE_IN_TWO: &str = "c8/e8/9/9/9/9/9/9/9/4C3R w";

    #[test]
    fn takes_the_captain_at_once() {
        for depth in 1..=4 {
            let result = search("4c4/9/9/9/9/9/9/9/4R4/3C5 w", &Limits::depth(depth));
            assert_eq!(result.best, Some("e2e10".parse().unwrap()));
            assert_eq!(result.score, Score::Mate(1));
            assert_eq!(result.value, won_in(1));
        }
    }

    #[test]
    fn finds_a_forced_capture_in_two() {
        for depth in 3..=6 {
            let result = search(MATE_IN_TWO, &Limits::depth(depth));
            assert_eq!(result.best, Some("i1i10".parse().unwrap()), "depth {depth}");
            assert_eq!(result.score, Score::Mate(2));
            assert_eq!(result.pv.len(), 3);
        }
    }

    #[test]
    fn mate_scores_agree_along_the_line() {
        let mut position: Position = MATE_IN_TWO.parse().unwrap();
        let _ = position.make("i1i10".parse().unwrap());
        let mut engine = Searcher::new(4);
        let blue = engine.search(&position, &Limits::depth(4), &StopFlag::new(), |_| {});
        assert_eq!(blue.score, Score::Mate(-1));
        assert_eq!(blue.value, lost_in(2));
        // Whatever blue answers, red takes the captain next.
        for reply in position.moves() {
            let undo = position.make(reply);
            let red = engine.search(&position, &Limits::depth(2), &StopFlag::new(), |_| {});
            assert_eq!(red.score, Score::Mate(1), "after {}", reply.uci());
            position.unmake(reply, undo);
        }
    }

    #[test]
    fn a_side_without_a_move_or_captain_has_no_best_move() {
        let lost = search("9/9/9/9/9/9/9/9/4R4/3C5 b", &Limits::depth(3));
        assert_eq!((lost.best, lost.score), (None, Score::Mate(0)));
        let stuck = search("4c4/9/9/9/9/9/9/1s7/E1s6/CE7 w", &Limits::depth(3));
        assert_eq!((stuck.best, stuck.score), (None, Score::Centipawns(0)));
        // Blue, to move, can box red in: the only piece red could move is then blocked too.
        let result = search("4c4/9/9/9/9/9/9/1s7/E1s6/CE7 b", &Limits::depth(2));
        assert!(result.best.is_some());
    }

    #[test]
    fn a_position_repeated_in_the_path_is_seen() {
        let position: Position = "4c4/9/9/9/9/9/9/9/9/3C5 w".parse().unwrap();
        let table = Table::new(1);
        let mut history = History::new();
        let stop = StopFlag::new();
        let mut search = Search::new(&position, &table, &mut history, &stop, Instant::now());
        search.frames[0].key = position.key();
        let moves = ["d1d2", "e10e9", "d2d1", "e9e10"];
        for (ply, mv) in moves.iter().enumerate() {
            assert!(!search.is_repetition(ply), "ply {ply}");
            let _ = search.make(mv.parse().unwrap(), ply);
        }
        assert!(search.is_repetition(4));
    }

    #[test]
    fn without_pruning_the_value_does_not_depend_on_the_move_order() {
        // Positions of a game, where pieces meet.
        let mut position = Position::new();
        let line = ["e4e5", "e7e6", "e5e6", "c7d6", "b1c3", "d6e6", "c3d5", "h10g8", "d5e7"];
        let mut positions = vec![position.clone()];
        for mv in line {
            let _ = position.make(mv.parse().unwrap());
            positions.push(position.clone());
        }
        let ordered = Features::EXACT;
        let unordered = Features { killers: false, history: false, ..Features::EXACT };
        let mut nodes = (0, 0);
        for position in &positions {
            let mut with_table = Searcher::new(8);
            with_table.set_features(ordered);
            let mut without = Searcher::new(0);
            without.set_features(unordered);
            let stop = StopFlag::new();
            let a = with_table.search(position, &Limits::depth(3), &stop, |_| {});
            let b = without.search(position, &Limits::depth(3), &stop, |_| {});
            assert_eq!(a.value, b.value, "{position}");
            nodes.0 += a.nodes;
            nodes.1 += b.nodes;
        }
        // Ordering only changes the work.
        assert!(nodes.0 < nodes.1, "{nodes:?}");
    }

    #[test]
    fn helper_threads_do_not_change_the_value_without_pruning() {
        // Helpers share only the table, and without cut-offs on it a table orders moves only.
        let mut position = Position::new();
        let mut positions = vec![position.clone()];
        for mv in ["e4e5", "e7e6", "e5e6", "c7d6", "b1c3", "d6e6", "c3d5"] {
            let _ = position.make(mv.parse().unwrap());
            positions.push(position.clone());
        }
        for position in &positions {
            let mut alone = Searcher::new(8);
            alone.set_features(Features::EXACT);
            let mut shared = Searcher::new(8);
            shared.set_features(Features::EXACT);
            shared.set_threads(3);
            let stop = StopFlag::new();
            let a = alone.search(position, &Limits::depth(3), &stop, |_| {});
            let b = shared.search(position, &Limits::depth(3), &stop, |_| {});
            assert_eq!(a.value, b.value, "{position}");
            assert!(position.is_legal(b.best.unwrap()), "{position}");
            assert_eq!(b.depth, 3);
        }
    }

    #[test]
    fn threads_find_the_forced_capture_and_stop_together() {
        let mut engine = Searcher::new(4);
        engine.set_threads(4);
        assert_eq!(engine.threads(), 4);
        for depth in 3..=6 {
            let position: Position = MATE_IN_TWO.parse().unwrap();
            let result = engine.search(&position, &Limits::depth(depth), &StopFlag::new(), |_| {});
            assert_eq!(result.best, Some("i1i10".parse().unwrap()), "depth {depth}");
            assert_eq!(result.score, Score::Mate(2));
        }
        // An endless search stopped from the main thread's report returns: every helper ended.
        let stop = StopFlag::new();
        let raise = stop.clone();
        let limits = Limits { infinite: true, ..Limits::default() };
        let mut depths = Vec::new();
        let result = engine.search(&Position::new(), &limits, &stop, |info| {
            depths.push(info.depth);
            if info.depth >= 5 {
                raise.stop();
            }
        });
        assert_eq!(depths, [1, 2, 3, 4, 5]);
        assert!(Position::new().is_legal(result.best.unwrap()));
    }

    #[test]
    fn a_node_limit_counts_every_thread() {
        let mut engine = Searcher::new(4);
        engine.set_threads(2);
        let limits = Limits::nodes(200_000);
        let result = engine.search(&Position::new(), &limits, &StopFlag::new(), |_| {});
        assert!(result.best.is_some());
        // Each thread stops once the nodes counted together and its own not yet counted reach
        // the limit, so past it go at most the other thread's uncounted step and a first
        // iteration (which always finishes), whatever the scheduling.
        let first = search(arbiter_duck::fen::INITIAL, &Limits::depth(1)).nodes;
        assert!(result.nodes <= 200_001 + first + NODE_STEP, "{}", result.nodes);
    }

    #[test]
    fn threads_are_clamped() {
        let mut engine = Searcher::new(1);
        assert_eq!(engine.threads(), 1);
        engine.set_threads(0);
        assert_eq!(engine.threads(), 1);
        engine.set_threads(1000);
        assert_eq!(engine.threads(), Searcher::MAX_THREADS);
        engine.set_threads(2);
        assert_eq!(engine.threads(), 2);
    }

    #[test]
    fn a_node_limit_stops_the_search() {
        let result = search(arbiter_duck::fen::INITIAL, &Limits::nodes(20_000));
        assert!(result.best.is_some());
        // The first iteration always finishes; after it the limit holds within one node.
        assert!(result.nodes <= 20_001 || result.depth <= 1, "{}", result.nodes);
    }

    #[test]
    fn searchmoves_restrict_the_root() {
        let only: Move = "a1a2".parse().unwrap();
        let limits = Limits { searchmoves: vec![only], ..Limits::depth(3) };
        let result = search(arbiter_duck::fen::INITIAL, &limits);
        assert_eq!(result.best, Some(only));
    }

    #[test]
    fn one_thread_searches_the_same_nodes_at_a_given_depth() {
        // The search on one thread is deterministic: a change in these counts is a change in
        // what the search does, not only in how it is organised. With either evaluation; the
        // default is the network.
        let mut played = Position::new();
        for mv in ["e4e5", "e7e6", "b1c3"] {
            let _ = played.make(mv.parse().unwrap());
        }
        let classical = [(Position::new(), 10, 11_158), (played.clone(), 9, 6_977)];
        let network = [(Position::new(), 10, 55_387), (played, 9, 13_582)];
        assert!(matches!(Evaluation::default(), Evaluation::Network(_)));
        for (evaluation, counts) in
            [(Evaluation::Classical, classical), (Evaluation::default(), network)]
        {
            for (position, depth, nodes) in counts {
                let mut engine = Searcher::new(16);
                engine.set_evaluation(evaluation.clone());
                let result =
                    engine.search(&position, &Limits::depth(depth), &StopFlag::new(), |_| {});
                assert_eq!(result.nodes, nodes, "{position} at depth {depth}");
            }
        }
    }

    /// A score as a number that orders scores: a win sooner is higher, a loss sooner lower.
    fn order(score: Score) -> i64 {
        match score {
            Score::Centipawns(cp) => i64::from(cp),
            Score::Mate(moves) if moves > 0 => 1_000_000 - i64::from(moves),
            Score::Mate(moves) => -1_000_000 - i64::from(moves),
        }
    }

    #[test]
    fn multipv_reports_distinct_lines_best_first() {
        let mut played = Position::new();
        for mv in ["e4e5", "e7e6", "b1c3"] {
            let _ = played.make(mv.parse().unwrap());
        }
        let mut engine = Searcher::new(16);
        engine.set_multipv(3);
        let mut reports = Vec::new();
        let result = engine.search(&played, &Limits::depth(6), &StopFlag::new(), |info| {
            reports.push(info.clone())
        });
        for depth in 1..=6 {
            let lines: Vec<_> = reports.iter().filter(|info| info.depth == depth).collect();
            let numbers: Vec<_> = lines.iter().map(|info| info.multipv).collect();
            assert_eq!(numbers, [Some(1), Some(2), Some(3)], "depth {depth}");
            let firsts: Vec<_> = lines.iter().map(|info| info.pv[0]).collect();
            assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
            let values: Vec<_> = lines.iter().map(|info| order(info.score)).collect();
            assert!(values.windows(2).all(|pair| pair[0] >= pair[1]), "depth {depth}: {values:?}");
            assert!(lines.iter().all(|info| played.is_legal(info.pv[0])));
        }
        let last = &reports[reports.len() - 3];
        assert_eq!((result.best, result.score), (Some(last.pv[0]), last.score));
    }

    #[test]
    fn multipv_1_searches_as_before() {
        // The same nodes and answer as `one_thread_searches_the_same_nodes_at_a_given_depth`.
        let mut engine = Searcher::new(16);
        engine.set_multipv(1);
        let mut reports = Vec::new();
        let result =
            engine.search(&Position::new(), &Limits::depth(10), &StopFlag::new(), |info| {
                reports.push(info.multipv)
            });
        assert_eq!(result.nodes, 55_387);
        let mut default = Searcher::new(16);
        let before = default.search(&Position::new(), &Limits::depth(10), &StopFlag::new(), |_| {});
        assert_eq!((result.best, result.pv, result.score), (before.best, before.pv, before.score));
        assert!(reports.iter().all(Option::is_none));
        // More lines than moves: every move, once.
        engine.set_multipv(Searcher::MAX_MULTIPV + 10);
        assert_eq!(engine.multipv(), Searcher::MAX_MULTIPV);
        let position: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let mut firsts = Vec::new();
        engine.search(&position, &Limits::depth(2), &StopFlag::new(), |info| {
            if info.depth == 2 {
                firsts.push(info.pv[0]);
            }
        });
        assert_eq!(firsts.len(), Searcher::MAX_MULTIPV.min(position.moves().len()));
        assert_eq!(firsts[0], "e2e10".parse().unwrap());
    }

    /// Walks every line `depth` plies deep from the search's position, with a null move at each
    /// node, checking that the search's evaluation is the network's from scratch at every node.
    fn walk(search: &mut Search, network: &crate::nnue::Network, depth: usize, ply: usize) -> u64 {
        let expected = network.evaluate_scratch(&search.position);
        assert_eq!(search.evaluate(ply), expected, "{} at ply {ply}", search.position);
        if depth == 0 || search.position.is_over() {
            return 1;
        }
        let mut nodes = 1;
        for mv in search.position.moves() {
            let undo = search.make(mv, ply);
            nodes += walk(search, network, depth - 1, ply + 1);
            search.position.unmake(mv, undo);
        }
        let undo = search.make_null(ply);
        nodes += walk(search, network, depth - 1, ply + 1);
        search.position.unmake_null(undo);
        nodes
    }

    #[test]
    fn the_network_is_updated_at_every_node_as_it_evaluates_from_scratch() {
        use crate::nnue::features::FeatureSet;
        let networks = [
            crate::nnue::Network::random(40, 11),
            crate::nnue::Network::random_shaped(FeatureSet::Captain, 40, 4, 12),
        ];
        for network in networks {
            let evaluation = Evaluation::Network(Arc::new(Model::new(network.clone()).unwrap()));
            // Positions where pieces meet, so that captures are among the moves.
            let mut position: Position = arbiter_duck::fen::INITIAL.parse().unwrap();
            for mv in ["e4e5", "e7e6", "e5e6", "c7d6", "b1c3", "d6e6"] {
                let _ = position.make(mv.parse().unwrap());
            }
            let table = Table::new(1);
            let mut history = History::new();
            let stop = StopFlag::new();
            let mut search = Search::new(&position, &table, &mut history, &stop, Instant::now());
            search.use_evaluation(&evaluation);
            assert!(walk(&mut search, &network, 3, 0) > 10_000);
            assert_eq!(search.position, position);
        }
    }

    #[test]
    fn a_random_network_searches_to_a_depth() {
        let model = Model::new(crate::nnue::Network::random(128, 3)).unwrap();
        let mut engine = Searcher::new(4);
        engine.set_evaluation(Evaluation::Network(Arc::new(model)));
        let result = engine.search(&Position::new(), &Limits::depth(7), &StopFlag::new(), |_| {});
        assert_eq!(result.depth, 7);
        assert!(Position::new().is_legal(result.best.unwrap()));
        // A capture of the captain is seen whatever the evaluation.
        let result = search_with(&mut engine, "4c4/9/9/9/9/9/9/9/4R4/3C5 w", &Limits::depth(3));
        assert_eq!(result.score, Score::Mate(1));
        // On several threads too.
        engine.set_threads(3);
        let result = engine.search(&Position::new(), &Limits::depth(6), &StopFlag::new(), |_| {});
        assert!(Position::new().is_legal(result.best.unwrap()));
    }

    fn search_with(engine: &mut Searcher, fen: &str, limits: &Limits) -> SearchResult {
        let position: Position = fen.parse().unwrap();
        engine.search(&position, limits, &StopFlag::new(), |_| {})
    }

    #[test]
    fn progress_scaling_fades_an_advantage_that_captures_nothing() {
        // Red is a car up with nothing to capture: the same position 120 plies after the last
        // capture is worth about half as much, unless the scaling is off.
        let value = |halfmoves: u32, features: Features| {
            let mut engine = Searcher::new(4);
            engine.set_features(features);
            let fen = format!("4c4/9/9/9/9/9/9/9/9/R3C4 w - - {halfmoves} 40");
            search_with(&mut engine, &fen, &Limits::depth(3)).value
        };
        let (fresh, stale) = (value(0, Features::ALL), value(120, Features::ALL));
        assert!(fresh > 300, "{fresh}");
        assert!(stale > 0 && stale * 10 < fresh * 6, "{stale} against {fresh}");
        let off = Features { progress_scaling: false, ..Features::ALL };
        assert_eq!(value(120, off), value(0, off));
    }

    #[test]
    fn a_raised_flag_still_gives_a_move() {
        let stop = StopFlag::new();
        stop.stop();
        let limits = Limits { infinite: true, ..Limits::default() };
        let result = Searcher::new(1).search(&Position::new(), &limits, &stop, |_| {});
        assert!(Position::new().is_legal(result.best.unwrap()));
        assert_eq!(result.depth, 1);
    }
}
