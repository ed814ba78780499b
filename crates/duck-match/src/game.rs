//! One game between two engines, every move judged by arbiter's rules.
//!
//! ```
//! use arbiter_duck::Color;
//! use arbiter_duck_match::game::{GameResult, Termination};
//!
//! let result = GameResult { winner: Some(Color::Red), termination: Termination::CaptainCaptured };
//! assert_eq!(result.score(), "1-0");
//! assert_eq!(result.to_string(), "1-0 (red captures blue's captain)");
//! assert_eq!(result.termination.code(), "captain-captured");
//! ```
//!
//! Before each move the runner sends the side to move `position` (the opening's start and every
//! move since) and `go` with the limits, and reads lines until `bestmove`, skipping `info` lines
//! and anything that is not UCI. The game ends:
//!
//! - when a move captures a captain: the mover wins;
//! - when the side to move has no valid move (every piece blocked): a draw (the
//!   statement does not cover it; docs/rules.md#duck-chess);
//! - after [`Setup::max_plies`] plies (300 by default, the opening's included): a draw, since the
//!   game has no repetition or move-count rule;
//! - when the engine to move faults, which loses: a move the rules refuse (the reason is kept),
//!   `bestmove (none)` while it has a move, a `bestmove` line that cannot be read, no `bestmove`
//!   in the time allowed (see [`clock`](super::clock)), or its process ending.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arbiter_duck::{Color, EndReason, Game, Invalid, Move, Outcome, UciMove};
use arbiter_duck_protocol::{EngineMessage, GuiCommand};

use super::adjudication::{Adjudication, Adjudicator, DrawRule, ResignRule, Verdict};
use super::clock::{Clocks, Limits};
use super::opening::{InvalidOpening, Opening};
use super::process::{EngineProcess, Next};
use super::record::Thought;
use super::tally::Points;

/// The ply cap (docs/rules.md#duck-chess): a game still going after this many plies is a draw.
pub use arbiter_duck::rules::MAX_PLIES;

/// A finished game of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Its number, from 1.
    pub number: u64,
    /// Its pair's number, from 1.
    pub pair: u64,
    /// Its pairing's index among the match's pairings, from 0 (0 in a match of two engines).
    pub pairing: usize,
    /// The pairing's first and second engine, as indices among the match's engines.
    pub engines: [usize; 2],
    /// The engine that played red: 0 for the pairing's first, 1 for its second.
    pub red: usize,
    /// The game.
    pub record: GameRecord,
}

impl Finished {
    /// What the game is worth to the pairing's first engine.
    pub fn points(&self) -> Points {
        match self.record.result.winner {
            None => Points::Draw,
            Some(winner) if (winner == arbiter_duck::Color::Red) == (self.red == 0) => Points::Win,
            Some(_) => Points::Loss,
        }
    }

    /// The engine of the pairing (0 or 1) that lost by a fault, if one did.
    pub fn faulty_engine(&self) -> Option<usize> {
        let winner = self.record.result.winner?;
        if !self.record.result.termination.is_fault() {
            return None;
        }
        let red_won = winner == arbiter_duck::Color::Red;
        Some(if red_won { 1 - self.red } else { self.red })
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Termination {
    /// The winner captured the loser's captain.
    CaptainCaptured,
    /// The side to move had no valid move: a draw.
    NoMove {
        /// The side that could not move.
        side: Color,
    },
    /// The ply cap was reached: a draw.
    PlyCap {
        /// The cap.
        plies: u32,
    },
    /// The loser resigned: its own score stayed at or below the bound (see
    /// [`adjudication`](super::adjudication)).
    Resign {
        /// The bound, in hundredths of a soldier (the loser scored −`score` or less).
        score: i32,
        /// For how many of its moves in a row.
        moves: u32,
    },
    /// Both sides' scores stayed level: a draw.
    DrawScore {
        /// The bound, in hundredths of a soldier.
        score: i32,
        /// For how many moves of each side in a row.
        moves: u32,
    },
    /// The loser played a move the rules refuse.
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why it is invalid.
        reason: Invalid,
    },
    /// The loser answered `bestmove (none)` though it had a move.
    NoMoveClaimed,
    /// The loser wrote a `bestmove` line that cannot be read.
    Garbage {
        /// The line (cut to a length a message can show).
        line: String,
    },
    /// The loser took too long.
    TimeForfeit {
        /// How long it took, or waited for in vain.
        elapsed: Duration,
        /// How long it was allowed.
        allowed: Duration,
        /// Whether it answered at all.
        answered: bool,
    },
    /// The loser's process ended, or stopped reading its input.
    Crash {
        /// How, in words.
        status: String,
    },
    /// The loser did not answer `isready` before the game.
    NotReady {
        /// What went wrong.
        reason: String,
    },
}

impl Termination {
    /// A short stable name: `captain-captured`, `no-move`, `ply-cap`, `resign-score`,
    /// `draw-score`, `illegal-move`, `no-move-claimed`, `garbage`, `time-forfeit`, `crash` or
    /// `not-ready`.
    pub fn code(&self) -> &'static str {
        match self {
            Termination::CaptainCaptured => "captain-captured",
            Termination::NoMove { .. } => "no-move",
            Termination::PlyCap { .. } => "ply-cap",
            Termination::Resign { .. } => "resign-score",
            Termination::DrawScore { .. } => "draw-score",
            Termination::IllegalMove { .. } => "illegal-move",
            Termination::NoMoveClaimed => "no-move-claimed",
            Termination::Garbage { .. } => "garbage",
            Termination::TimeForfeit { .. } => "time-forfeit",
            Termination::Crash { .. } => "crash",
            Termination::NotReady { .. } => "not-ready",
        }
    }

    /// Every [`code`](Termination::code), and whether it is a [fault](Termination::is_fault).
    pub const CODES: [(&'static str, bool); 11] = [
        ("captain-captured", false),
        ("no-move", false),
        ("ply-cap", false),
        ("resign-score", false),
        ("draw-score", false),
        ("illegal-move", true),
        ("no-move-claimed", true),
        ("garbage", true),
        ("time-forfeit", true),
        ("crash", true),
        ("not-ready", true),
    ];

    /// Whether the loser's engine misbehaved (and should be restarted before its next game).
    pub fn is_fault(&self) -> bool {
        !matches!(
            self,
            Termination::CaptainCaptured
                | Termination::NoMove { .. }
                | Termination::PlyCap { .. }
                | Termination::Resign { .. }
                | Termination::DrawScore { .. }
        )
    }
}

/// A game's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// The side that won; `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
}

impl GameResult {
    fn loss(loser: Color, termination: Termination) -> GameResult {
        GameResult { winner: Some(!loser), termination }
    }

    /// `1-0` (red won), `0-1` (blue won) or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Blue) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl GameResult {
    /// Why the game ended, in words, e.g. `red loses on time: took 212 ms, 150 ms allowed`.
    pub fn reason(&self) -> String {
        let loser = self.winner.map(|winner| !winner);
        match (&self.termination, loser) {
            (Termination::CaptainCaptured, Some(loser)) => {
                format!("{} captures {loser}'s captain", !loser)
            }
            (Termination::NoMove { side }, _) => format!("{side} has no valid move"),
            (Termination::PlyCap { plies }, _) => format!("ply cap of {plies} reached"),
            (Termination::Resign { score, moves }, Some(loser)) => format!(
                "{loser} resigns: its score at or below {} for {moves} moves in a row",
                soldiers(-score)
            ),
            (Termination::DrawScore { score, moves }, _) => format!(
                "both scores within ±{} for {moves} moves each",
                soldiers(*score).trim_start_matches('+')
            ),
            (Termination::IllegalMove { mv, reason }, Some(loser)) => {
                format!("{loser} plays {} ({mv}), invalid: {reason}", UciMove(*mv))
            }
            (Termination::NoMoveClaimed, Some(loser)) => {
                format!("{loser} answers bestmove (none) but has valid moves")
            }
            (Termination::Garbage { line }, Some(loser)) => {
                format!("{loser} answers `{line}`, which is not a move")
            }
            (Termination::TimeForfeit { elapsed, allowed, answered: true }, Some(loser)) => {
                let (elapsed, allowed) = (elapsed.as_millis(), allowed.as_millis());
                format!("{loser} loses on time: took {elapsed} ms, {allowed} ms allowed")
            }
            (Termination::TimeForfeit { allowed, answered: false, .. }, Some(loser)) => {
                format!("{loser} loses on time: no move within {} ms", allowed.as_millis())
            }
            (Termination::Crash { status }, Some(loser)) => format!("{loser}'s engine {status}"),
            (Termination::NotReady { reason }, Some(loser)) => {
                format!("{loser}'s engine is not ready: {reason}")
            }
            (termination, None) => termination.code().to_owned(),
        }
    }
}

/// Hundredths of a soldier as soldiers, signed: `-3.00`, `+0.20`, `0.00`.
fn soldiers(cp: i32) -> String {
    let sign = match cp.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    };
    let cp = cp.unsigned_abs();
    format!("{sign}{}.{:02}", cp / 100, cp % 100)
}

impl fmt::Display for GameResult {
    /// The score and the reason, e.g. `0-1 (red loses on time: took 212 ms, 150 ms allowed)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.score(), self.reason())
    }
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Where it started.
    pub opening: Opening,
    /// Every valid move, the opening's included.
    pub moves: Vec<Move>,
    /// What the engines said about each of their valid moves, the moves after the opening's.
    pub thoughts: Vec<Thought>,
    /// How it ended.
    pub result: GameResult,
}

impl GameRecord {
    /// The number of plies played, the opening's included.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The refused move that ended the game, if one did.
    pub fn illegal_move(&self) -> Option<Move> {
        match self.result.termination {
            Termination::IllegalMove { mv, .. } => Some(mv),
            _ => None,
        }
    }
}

/// What a game is played with.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// Where it starts.
    pub opening: &'a Opening,
    /// The limits of each move.
    pub limits: &'a Limits,
    /// The ply cap.
    pub max_plies: u32,
    /// When the engines' scores end the game.
    pub adjudication: &'a Adjudication,
    /// Set to abandon the game between two moves.
    pub stop: &'a AtomicBool,
}

/// Plays a game, `red` against `blue`; `None` if [`Setup::stop`] was set before it ended; an
/// error if the opening cannot be played.
///
/// The engines must be ready (see [`EngineProcess::new_game`]).
pub fn play(
    red: &mut EngineProcess,
    blue: &mut EngineProcess,
    setup: &Setup<'_>,
) -> Result<Option<GameRecord>, InvalidOpening> {
    let mut game = setup.opening.game()?;
    let mut moves = setup.opening.moves.clone();
    let mut thoughts = Vec::new();
    let mut clocks = Clocks::with_odds(setup.limits, [red.clock, blue.clock]);
    let mut adjudicator = Adjudicator::new(setup.adjudication);
    let start_fen = setup.opening.fen.clone().map(Box::new);
    let result = loop {
        if setup.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // A captured captain ends the game where the capture is played, below.
        if let Some(Outcome { winner, reason }) =
            game.position().outcome_after(moves.len(), setup.max_plies)
        {
            let termination = match reason {
                EndReason::CaptainCaptured => Termination::CaptainCaptured,
                EndReason::NoMove { side } => Termination::NoMove { side },
                EndReason::PlyCap { plies } => Termination::PlyCap { plies },
            };
            break GameResult { winner, termination };
        }
        let side = game.turn();
        let engine = if side == Color::Red { &mut *red } else { &mut *blue };
        let position = GuiCommand::Position { fen: start_fen.clone(), moves: moves.clone() };
        let (mv, thought) = match ask(engine, &position, &mut clocks, side, &game) {
            Ok(answer) => answer,
            Err(termination) => break GameResult::loss(side, termination),
        };
        match game.play(mv.from, mv.to) {
            Ok(played) => {
                moves.push(mv);
                thoughts.push(thought);
                if played.game_over {
                    break GameResult {
                        winner: Some(side),
                        termination: Termination::CaptainCaptured,
                    };
                }
                match adjudicator.after_move(side, thought.score, moves.len()) {
                    Some(Verdict::Resign { loser, rule: ResignRule { score, moves } }) => {
                        break GameResult::loss(loser, Termination::Resign { score, moves });
                    }
                    Some(Verdict::Draw(DrawRule { score, moves, .. })) => {
                        let termination = Termination::DrawScore { score, moves };
                        break GameResult { winner: None, termination };
                    }
                    None => {}
                }
            }
            Err(reason) => break GameResult::loss(side, Termination::IllegalMove { mv, reason }),
        }
    };
    Ok(Some(GameRecord { opening: setup.opening.clone(), moves, thoughts, result }))
}

/// Asks `engine`, playing `side`, for its move: the move and what the engine said about it,
/// or the fault that loses the game.
fn ask(
    engine: &mut EngineProcess,
    position: &GuiCommand,
    clocks: &mut Clocks,
    side: Color,
    game: &Game,
) -> Result<(Move, Thought), Termination> {
    let crash = |engine: &mut EngineProcess| Termination::Crash { status: engine.exit_status() };
    engine.drain();
    if engine.send(position).is_err() {
        return Err(crash(engine));
    }
    let mut go = clocks.go_for(side);
    go.depth = engine.depth.or(go.depth);
    go.nodes = engine.nodes.or(go.nodes);
    let Ok(sent) = engine.send(&GuiCommand::Go(go)) else {
        return Err(crash(engine));
    };
    let allowed = clocks.allowed(side);
    let deadline = sent + allowed;
    let mut thought = Thought::default();
    loop {
        let line = match engine.next_line(deadline) {
            Next::Line(line) => line,
            Next::Timeout => {
                let elapsed = Instant::now() - sent;
                return Err(Termination::TimeForfeit { elapsed, allowed, answered: false });
            }
            Next::Closed => return Err(crash(engine)),
        };
        let best = match line.text.parse::<EngineMessage>() {
            Ok(EngineMessage::BestMove { best, .. }) => best,
            Ok(EngineMessage::Info(info)) => {
                // The first principal variation's score is the engine's opinion of its move.
                if info.score.is_some() && info.multipv.is_none_or(|pv| pv == 1) {
                    thought.score = info.score;
                    thought.depth = info.depth;
                } else if thought.score.is_none() && info.depth.is_some() {
                    thought.depth = info.depth;
                }
                thought.nodes = info.nodes.or(thought.nodes);
                continue;
            }
            Ok(_) => continue,
            Err(_) if line.text.split_whitespace().next() == Some("bestmove") => {
                let shown = arbiter_scan::Shown(&line.text).to_string();
                return Err(Termination::Garbage { line: shown });
            }
            // Not UCI (a banner, a debugging print): engines write such lines, GUIs skip them.
            Err(_) => continue,
        };
        let elapsed = line.at.saturating_duration_since(sent);
        if let Err(flag) = clocks.spend(side, elapsed) {
            let (elapsed, allowed) = (flag.elapsed, flag.allowed);
            return Err(Termination::TimeForfeit { elapsed, allowed, answered: true });
        }
        // Whole milliseconds, as the record keeps them.
        thought.time = whole_millis(elapsed);
        thought.clock = clocks.remaining(side).map(whole_millis);
        return match best {
            Some(mv) => Ok((mv, thought)),
            // The side to move always has a move here: the runner adjudicates before asking.
            None => {
                debug_assert!(game.position().has_moves());
                Err(Termination::NoMoveClaimed)
            }
        };
    }
}

/// `duration` cut to whole milliseconds.
fn whole_millis(duration: Duration) -> Duration {
    Duration::from_millis(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
}
