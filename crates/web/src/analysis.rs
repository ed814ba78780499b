//! The evaluation of a whole game, for the analysis board's graph: `POST
//! /api/duck/engine/evaluate` searches the position after every command of a game briefly, one
//! after the other on one of the engine's places (the pool, its queue and its 429 are the
//! searches'), and marks the mistakes.
//!
//! A point is `{ply, score, winner, best, mistake}`: `score` from red's point of view as the
//! engine's replies give it (null for a finished game, whose `winner` is then named), `best` the
//! move the engine prefers there, and `mistake` whether the command that led to it, not the
//! engine's best, left the side that played it more than [`MISTAKE`] centipawns worse off than
//! the best move would have (a capture of the captain found or missed counts as 100 soldiers).
//! The two positions compared, after the command played and after the best move, are searched
//! alike with the same side to move, so that the swing of whose turn it is (large in this game,
//! at a short search) is not taken for a mistake. The whole evaluation keeps the time cap of one search: what it has not
//! reached by then is left out, and `complete` is false.

use std::sync::Arc;
use std::time::Duration;

use arbiter_duck::judge::Command;
use arbiter_duck::{Color, Game, Position};
use arbiter_duck_engine::search::Limits;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use crate::api::{ApiError, Body, Endpoint};
use crate::duck::{self, Point as BoardPoint};
use crate::engine::{MoveView, RedScore, line_views};
use crate::searches::Searches;
use crate::{limits, work};

/// The endpoint.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![Endpoint {
        method: "POST",
        path: "/api/duck/engine/evaluate",
        about: "evaluate the position after every command of {commands, nodes?} with a short \
                search each: {points: [{ply, score, winner, best, mistake}], complete}",
        route: post(evaluate),
    }]
}

/// A drop of the mover's score, in centipawns, beyond which its command is marked a mistake: a
/// soldier and a half.
pub(crate) const MISTAKE: i32 = 150;

/// The nodes searched per position unless the request says otherwise.
const NODES: u64 = 8_000;

/// The most nodes per position a request may ask for.
const MAX_NODES: u64 = 200_000;

/// The most positions evaluated in one request; a longer game gets its first ones.
const MAX_POINTS: usize = 1_000;

/// The deepest search per position (the node count usually ends it first).
const DEPTH: u32 = 16;

/// The game to evaluate.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvaluateRequest {
    commands: Vec<String>,
    /// Nodes per position, 1 to [`MAX_NODES`] ([`NODES`] by default).
    #[serde(default)]
    nodes: Option<u64>,
    /// The position the game starts from (the official start when absent).
    #[serde(default)]
    fen: Option<String>,
}

/// What the engine thinks of one position of the game.
#[derive(Serialize, Debug, PartialEq, Eq)]
struct GraphPoint {
    /// The number of commands played to reach it.
    ply: usize,
    /// Red's view; null when the game is over.
    score: Option<RedScore>,
    /// The side that has won, once the game is over.
    winner: Option<&'static str>,
    /// The move the engine would play.
    best: Option<MoveView>,
    /// Whether the command leading here lost its side more than [`MISTAKE`].
    mistake: bool,
    /// The side to move (none once the game is over).
    #[serde(skip)]
    turn: Option<Color>,
    /// The value, red's, of the position after `best`: what the command played here is
    /// measured against.
    #[serde(skip)]
    after_best: Option<i32>,
    /// The command that led here, as `[from, to]` points, when it was played.
    #[serde(skip)]
    played: Played,
}

/// Every position evaluated.
#[derive(Serialize)]
struct EvaluateReply {
    points: Vec<GraphPoint>,
    /// False when the time cap or the position limit left positions out.
    complete: bool,
}

/// `POST /api/duck/engine/evaluate`.
async fn evaluate(
    Extension(searches): Extension<Arc<Searches>>,
    Body(request): Body<EvaluateRequest>,
) -> Result<Json<EvaluateReply>, ApiError> {
    let nodes = request.nodes.unwrap_or(NODES);
    if !(1..=MAX_NODES).contains(&nodes) {
        return Err(ApiError::bad_request(format!(
            "nodes {nodes}: expected 1 to {MAX_NODES} nodes per position"
        )));
    }
    let positions = work::run(move || {
        let start = duck::start(request.fen.as_deref())?;
        let commands = duck::read_commands(&request.commands)?;
        Ok(positions(start, &commands))
    })
    .await?;
    let total = positions.len();
    let ticket = searches.admit()?;
    let cap = Duration::from_millis(limits::SEARCH_TIME);
    let limits = Limits { depth: Some(DEPTH), nodes: Some(nodes), ..Limits::default() };
    let points = ticket
        .run(cap, std::future::pending(), move |engine, stop| {
            let mut points = Vec::new();
            for (ply, (position, played)) in positions.into_iter().enumerate() {
                if stop.is_stopped() {
                    break;
                }
                if let Some(outcome) = position.outcome() {
                    let winner = outcome.winner.map(Color::name);
                    points.push(GraphPoint {
                        ply,
                        score: None,
                        winner,
                        best: None,
                        mistake: false,
                        turn: None,
                        after_best: None,
                        played,
                    });
                    continue;
                }
                let turn = position.turn();
                engine.set_position(position.clone());
                let result = engine.go(&limits, stop, |_| {});
                // The position after the best move, searched as the one after the command played
                // will be (the same side to move), so that the two compare without the swing
                // of whose turn it is.
                let after_best = result.best.map(|best| {
                    let mut next = position.clone();
                    let _undo = next.make(best);
                    if next.outcome().is_some() {
                        return if turn == Color::Red { WON } else { -WON };
                    }
                    engine.set_position(next);
                    let reply = engine.go(&limits, stop, |_| {});
                    value_of(RedScore::new(reply.score.into(), !turn))
                });
                if stop.is_stopped() {
                    // Cut short by the cap: not as good as the others.
                    break;
                }
                let score = RedScore::new(result.score.into(), turn);
                let best = result.best.and_then(|best| line_views(&position, &[best]).pop());
                points.push(GraphPoint {
                    ply,
                    score: Some(score),
                    winner: None,
                    best,
                    mistake: false,
                    turn: Some(turn),
                    after_best,
                    played,
                });
            }
            points
        })
        .await
        .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the evaluation failed"))?;
    let mut points = points;
    mark_mistakes(&mut points);
    let complete = points.len() == total && total <= MAX_POINTS;
    Ok(Json(EvaluateReply { points, complete }))
}

/// The command that led to a position, as its two points, when it was played.
type Played = Option<(BoardPoint, BoardPoint)>;

/// The positions of the game, from the start, one after each command (an invalid command leaves
/// the position as it was), each with the command that led to it when it was played, at most
/// [`MAX_POINTS`].
fn positions(start: Position, commands: &[Command]) -> Vec<(Position, Played)> {
    let mut game = Game::from_position(start);
    let mut positions = vec![(game.position().clone(), None)];
    for command in commands.iter().take(MAX_POINTS - 1) {
        // An invalid command changes nothing: its point is the position before it.
        let played = game.play_coords(command.from, command.to).is_ok().then(|| {
            let point = |(x, y): (i64, i64)| [x as u8, y as u8];
            (point(command.from), point(command.to))
        });
        positions.push((game.position().clone(), played));
    }
    positions
}

/// The value of a captain captured, in centipawns.
const WON: i32 = 10_000;

/// A score in centipawns: a captain captured (or to be) counts as [`WON`], sooner more.
fn value_of(score: RedScore) -> i32 {
    match score {
        RedScore::Cp(cp) => cp.clamp(-9_000, 9_000),
        RedScore::Mate(moves) if moves > 0 => WON - moves,
        RedScore::Mate(moves) => -WON - moves,
    }
}

/// A point's value from red's point of view, in centipawns.
fn red_value(point: &GraphPoint) -> i32 {
    match (point.score, point.winner) {
        (Some(score), _) => value_of(score),
        (None, Some("red")) => WON,
        (None, Some(_)) => -WON,
        (None, None) => 0,
    }
}

/// Marks each point whose command, other than the engine's best, left the side that played it
/// more than [`MISTAKE`] worse off than the best would have.
fn mark_mistakes(points: &mut [GraphPoint]) {
    for index in 1..points.len() {
        let (before, after) = (&points[index - 1], &points[index]);
        let (Some(mover), Some(best_value), Some(played)) =
            (before.turn, before.after_best, after.played)
        else {
            continue;
        };
        if before.best.as_ref().is_some_and(|best| (best.from, best.to) == played) {
            continue;
        }
        let drop = match mover {
            Color::Red => best_value - red_value(after),
            Color::Blue => red_value(after) - best_value,
        };
        points[index].mistake = drop > MISTAKE;
    }
}
