//! The engine endpoints: `POST /api/duck/engine` searches the position after a game's commands
//! with [`arbiter_duck_engine`] and streams what it finds, one JSON object per line, while it
//! thinks; `POST /api/duck/engine/stop` asks a search for its move now.
//!
//! ```
//! use axum::body::{Body, to_bytes};
//! use axum::http::Request;
//! use serde_json::Value;
//! use tower::ServiceExt;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let request = Request::post("/api/duck/engine")
//!     .header("content-type", "application/json")
//!     .body(Body::from(r#"{"commands": ["0 3 1 4"], "depth": 2}"#))
//!     .unwrap();
//! let response = arbiter_web::app().oneshot(request).await.unwrap();
//! assert_eq!(response.headers()["content-type"], "application/x-ndjson");
//! let text = to_bytes(response.into_body(), 1 << 20).await.unwrap();
//! let lines: Vec<Value> = text
//!     .split(|&byte| byte == b'\n')
//!     .filter(|line| !line.is_empty())
//!     .map(|line| serde_json::from_slice(line).unwrap())
//!     .collect();
//! let events: Vec<&str> = lines.iter().map(|line| line["event"].as_str().unwrap()).collect();
//! assert_eq!(events, ["start", "info", "info", "best"]);
//! assert_eq!(lines[0]["turn"], "blue");
//! assert_eq!(lines[2]["depth"], 2);
//! // Blue's pieces start on rows 6 to 9.
//! assert!(lines[3]["move"]["from"][0].as_u64().unwrap() >= 6);
//! # });
//! ```
//!
//! A search's reply (`application/x-ndjson`) is, line by line:
//! - `start`: `{id, turn, movetime, depth, nodes}`, at once: the id names the search for
//!   `/api/duck/engine/stop`, `turn` is the side it plays, the rest the limits it was given.
//! - `info`, after each iteration: `{depth, seldepth, multipv?, score, bound?, nodes, nps,
//!   hashfull, time, pv, line}`; `line` is the UCI `info` line the engine would print. With
//!   `multipv: N` in the request, each iteration sends N of them, `multipv` 1 to N, best first.
//!
//! With `threat: true` the side to move passes and the other side's search is reported: what it
//! would play if it were its move.
//! - `best`, last: `{move, ponder, score, depth, seldepth, nodes, time, pv}`. For a game that is
//!   over, or a side that has no valid move, it is the only line: `{move: null, reason}`.
//!
//! A move is `{command: "9 4 8 4", uci: "e10e9", from: [9, 4], to: [8, 4]}`. A `score` is
//! `{cp: N}` (hundredths of a soldier) or `{mate: N}` (a captain is captured in N moves), from
//! **red's** point of view (positive: red stands better) whichever side is to move; the UCI `line`
//! keeps UCI's own convention, the side to move's. Times are milliseconds.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use arbiter_duck::{Color, EndReason, Move, Outcome, Position};
use arbiter_duck_engine::engine::Engine;
use arbiter_duck_engine::search::{Limits, SearchInfo, SearchResult, StopFlag};
use arbiter_duck_engine::uci;
use arbiter_duck_protocol::{self as protocol, Info, Score};
use axum::body::{self, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Json};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::api::{ApiError, Body, Endpoint};
use crate::duck::{self, Point, point};
use crate::notation::{self, Notation};
use crate::searches::{Searches, Ticket};
use crate::{limits, work};

/// The engine endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/duck/engine",
            about: "search the position after {commands, movetime?, depth?, nodes?, multipv?, \
                    threat?} and stream JSON lines: start (with the search's id), info after \
                    each iteration (one per line with multipv), best",
            route: post(search),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/engine/stop",
            about: "stop the search {id}: it answers its best move so far",
            route: post(stop),
        },
    ]
}

/// A search: the game, and the limits of the search of the position after it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    commands: Vec<String>,
    /// Milliseconds, at most [`limits::SEARCH_TIME`].
    #[serde(default)]
    movetime: Option<u64>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    nodes: Option<u64>,
    /// How many lines to search and report, 1 to [`Engine::MAX_MULTIPV`] (1 by default).
    #[serde(default)]
    multipv: Option<u32>,
    /// Search what the other side would play if it were its move (the side to move passes):
    /// the threat against the side to move.
    #[serde(default)]
    threat: bool,
    /// The position the game starts from (the official start when absent).
    #[serde(default)]
    fen: Option<String>,
}

/// Which search to stop.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopRequest {
    id: String,
}

/// Whether a search was stopped.
#[derive(Serialize)]
struct StopReply {
    /// False when no search has this id (it has ended, or never was).
    stopped: bool,
}

/// A move of the engine's.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub(crate) struct MoveView {
    /// The official command, `x1 y1 x2 y2`.
    command: String,
    /// fairy-stockfish's square notation, `e10e9`.
    uci: String,
    pub(crate) from: Point,
    pub(crate) to: Point,
    /// As the player sees it on the board, when the position it is played in is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    notation: Option<Notation>,
}

impl From<Move> for MoveView {
    fn from(mv: Move) -> MoveView {
        MoveView {
            command: mv.to_string(),
            uci: mv.uci().to_string(),
            from: point(mv.from),
            to: point(mv.to),
            notation: None,
        }
    }
}

/// The moves of `line`, played from `position`, each with its readable notation.
pub(crate) fn line_views(position: &Position, line: &[Move]) -> Vec<MoveView> {
    let mut written = notation::line(position, line).into_iter();
    line.iter().map(|&mv| MoveView { notation: written.next(), ..MoveView::from(mv) }).collect()
}

/// A score from red's point of view: `{"cp": 35}` or `{"mate": -3}`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RedScore {
    Cp(i32),
    Mate(i32),
}

impl RedScore {
    /// `score`, which is from the point of view of `turn`, the side to move, seen by red.
    pub(crate) fn new(score: Score, turn: Color) -> RedScore {
        let sign = match turn {
            Color::Red => 1,
            Color::Blue => -1,
        };
        match score {
            Score::Centipawns(cp) => RedScore::Cp(sign * cp),
            Score::Mate(moves) => RedScore::Mate(sign * moves),
        }
    }
}

/// One line of a search's reply.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Line {
    Start {
        id: String,
        turn: &'static str,
        movetime: u64,
        depth: Option<u32>,
        nodes: Option<u64>,
    },
    Info(InfoLine),
    Best(BestLine),
    /// The search failed; nothing else follows.
    Error {
        error: String,
    },
}

/// What an iteration found.
#[derive(Serialize)]
struct InfoLine {
    depth: Option<u32>,
    seldepth: Option<u32>,
    /// Which line this is, from 1, when several are searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    multipv: Option<u32>,
    score: Option<RedScore>,
    /// `lower` or `upper` when the score is only a bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<&'static str>,
    nodes: Option<u64>,
    nps: Option<u64>,
    hashfull: Option<u32>,
    time: Option<u64>,
    pv: Vec<MoveView>,
    /// The UCI `info` line.
    line: String,
}

impl InfoLine {
    fn new(info: &SearchInfo, position: &Position) -> InfoLine {
        let turn = position.turn();
        let info: Info = uci::info(info);
        InfoLine {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score.map(|score| RedScore::new(score, turn)),
            bound: match info.bound {
                protocol::Bound::Exact => None,
                protocol::Bound::Lower => Some("lower"),
                protocol::Bound::Upper => Some("upper"),
            },
            nodes: info.nodes,
            nps: info.nps,
            hashfull: info.hashfull,
            time: info.time,
            pv: line_views(position, &info.pv),
            line: info.to_string(),
        }
    }
}

/// The move found, or why there is none.
#[derive(Serialize)]
struct BestLine {
    #[serde(rename = "move")]
    best: Option<MoveView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    search: Option<Searched>,
}

/// What the whole search found.
#[derive(Serialize)]
struct Searched {
    ponder: Option<MoveView>,
    score: RedScore,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    time: u64,
    pv: Vec<MoveView>,
}

impl BestLine {
    fn new(result: SearchResult, position: &Position) -> BestLine {
        let turn = position.turn();
        let pv = line_views(position, &result.pv);
        // The best move is the line's first, written in the same position.
        let best = result.best.map(|best| match pv.first() {
            Some(first) if result.pv.first() == Some(&best) => first.clone(),
            _ => line_views(position, &[best]).remove(0),
        });
        BestLine {
            best,
            reason: result.best.is_none().then(|| "the engine found no move".to_owned()),
            search: Some(Searched {
                ponder: result.ponder.map(MoveView::from),
                score: RedScore::new(result.score.into(), turn),
                depth: result.depth,
                seldepth: result.seldepth,
                nodes: result.nodes,
                time: result.time.as_millis() as u64,
                pv,
            }),
        }
    }

    /// The answer for a position with no move to search.
    fn none(outcome: Outcome) -> BestLine {
        let reason = match (outcome.winner, outcome.reason) {
            (Some(winner), EndReason::CaptainCaptured) => {
                format!("the game is over: {winner} has captured the {} captain", !winner)
            }
            (_, EndReason::NoMove { side }) => {
                format!("{side} has no valid move: every {side} piece is blocked")
            }
            // A position alone knows no ply cap; said plainly should one come.
            _ => format!("the game is over: {outcome}"),
        };
        BestLine { best: None, reason: Some(reason), search: None }
    }
}

/// A line as sent: JSON and a newline.
fn encode(line: &Line) -> Bytes {
    // Plain structs of strings and numbers always serialize.
    let mut bytes = serde_json::to_vec(line).expect("a reply line serializes");
    bytes.push(b'\n');
    bytes.into()
}

/// Lines a reply may hold before they are read: an iteration per depth (at most
/// [`limits::SEARCH_DEPTH`]) and line searched, the start and the answer, and room to spare.
const LINES: usize = Engine::MAX_MULTIPV * 2 * limits::SEARCH_DEPTH as usize + 8;

/// Reads the limits of `request`: a time per move within the cap (the default when none is
/// given), and optionally a depth and a node count.
fn read_limits(request: &SearchRequest) -> Result<(Limits, Duration), ApiError> {
    let movetime = request.movetime.unwrap_or(limits::SEARCH_TIME_DEFAULT);
    if movetime == 0 || movetime > limits::SEARCH_TIME {
        return Err(ApiError::bad_request(format!(
            "movetime {movetime}: expected 1 to {} milliseconds (the server searches at most {} \
             s per move)",
            limits::SEARCH_TIME,
            limits::SEARCH_TIME / 1000
        )));
    }
    if let Some(depth) = request.depth
        && !(1..=limits::SEARCH_DEPTH).contains(&depth)
    {
        return Err(ApiError::bad_request(format!(
            "depth {depth}: expected 1 to {} plies",
            limits::SEARCH_DEPTH
        )));
    }
    if request.nodes == Some(0) {
        return Err(ApiError::bad_request("nodes 0: expected at least 1 node"));
    }
    if let Some(lines) = request.multipv
        && !(1..=Engine::MAX_MULTIPV as u32).contains(&lines)
    {
        return Err(ApiError::bad_request(format!(
            "multipv {lines}: expected 1 to {} lines",
            Engine::MAX_MULTIPV
        )));
    }
    let movetime = Duration::from_millis(movetime);
    let bounds = Limits {
        movetime: Some(movetime),
        depth: request.depth,
        nodes: request.nodes,
        ..Limits::default()
    };
    Ok((bounds, movetime))
}

/// A reply of JSON lines.
fn lines_reply(body: body::Body) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "application/x-ndjson"),
        (header::CACHE_CONTROL, "no-cache"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    (headers, body).into_response()
}

/// Raises a search's stop flag when the reply it feeds is dropped: the client has gone away.
struct StopOnDrop(StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// `POST /api/duck/engine`.
async fn search(
    Extension(searches): Extension<Arc<Searches>>,
    Body(request): Body<SearchRequest>,
) -> Result<Response, ApiError> {
    let (bounds, movetime) = read_limits(&request)?;
    let lines = request.multipv.unwrap_or(1) as usize;
    let threat = request.threat;
    let mut position = work::run(move || {
        let start = duck::start(request.fen.as_deref())?;
        let commands = duck::read_commands(&request.commands)?;
        let (game, _) = duck::play_all(start, &commands);
        Ok(game.position().clone())
    })
    .await?;
    if let Some(outcome) = position.outcome() {
        let line = encode(&Line::Best(BestLine::none(outcome)));
        return Ok(lines_reply(body::Body::from(line)));
    }
    if threat {
        // The side to move passes: what the other side then finds is what it threatens.
        let _passed = position.make_null();
    }
    let ticket = searches.admit()?;
    let (sender, receiver) = mpsc::channel(LINES);
    let start = Line::Start {
        id: ticket.id().to_owned(),
        turn: position.turn().name(),
        movetime: movetime.as_millis() as u64,
        depth: bounds.depth,
        nodes: bounds.nodes,
    };
    // The channel is empty: there is room.
    let _ = sender.try_send(encode(&start));
    let guard = StopOnDrop(ticket.stop_flag().clone());
    tokio::spawn(think(ticket, position, bounds, lines, movetime, sender));
    let lines = stream::unfold((receiver, guard), |(mut receiver, guard)| async move {
        let line = receiver.recv().await?;
        Some((Ok::<_, Infallible>(line), (receiver, guard)))
    });
    Ok(lines_reply(body::Body::from_stream(lines)))
}

/// Runs the search of `ticket` once a core is free, sending a line per iteration and the answer
/// to `sender`.
async fn think(
    ticket: Ticket,
    position: Position,
    bounds: Limits,
    lines: usize,
    cap: Duration,
    sender: mpsc::Sender<Bytes>,
) {
    let infos = sender.clone();
    let gone = sender.clone();
    let searched = position.clone();
    let result = ticket
        .run(cap, async move { gone.closed().await }, move |engine, stop| {
            engine.set_position(searched.clone());
            engine.set_multipv(lines);
            engine.go(&bounds, stop, |info| {
                // The channel has room for every iteration unless the client has stopped
                // reading; a line is then better dropped than waited for.
                let _ = infos.try_send(encode(&Line::Info(InfoLine::new(info, &searched))));
            })
        })
        .await;
    let line = match result {
        Some(result) => Line::Best(BestLine::new(result, &position)),
        None if sender.is_closed() => return,
        None => Line::Error { error: "the search failed".to_owned() },
    };
    let _ = sender.send(encode(&line)).await;
}

/// `POST /api/duck/engine/stop`.
async fn stop(
    Extension(searches): Extension<Arc<Searches>>,
    Body(request): Body<StopRequest>,
) -> Json<StopReply> {
    Json(StopReply { stopped: searches.stop(&request.id) })
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;
    use serde_json::Value;

    use super::*;

    #[test]
    fn scores_are_seen_by_red() {
        assert_eq!(RedScore::new(Score::Centipawns(35), Color::Red), RedScore::Cp(35));
        assert_eq!(RedScore::new(Score::Centipawns(35), Color::Blue), RedScore::Cp(-35));
        assert_eq!(RedScore::new(Score::Mate(2), Color::Blue), RedScore::Mate(-2));
        assert_eq!(RedScore::new(Score::Mate(-1), Color::Blue), RedScore::Mate(1));
        assert_eq!(serde_json::to_string(&RedScore::Mate(-3)).unwrap(), r#"{"mate":-3}"#);
    }

    #[test]
    fn moves_are_given_in_both_notations() {
        let mv: Move = "e10e9".parse().unwrap();
        let view = MoveView::from(mv);
        assert_eq!(
            view,
            MoveView {
                command: "9 4 8 4".to_owned(),
                uci: "e10e9".to_owned(),
                from: [9, 4],
                to: [8, 4],
                notation: None,
            }
        );
    }

    #[test]
    fn limits_are_checked() {
        let request = |movetime, depth, nodes| SearchRequest {
            commands: Vec::new(),
            movetime,
            depth,
            nodes,
            multipv: None,
            threat: false,
            fen: None,
        };
        let (bounds, cap) = read_limits(&request(None, None, None)).unwrap();
        assert_eq!(cap, Duration::from_millis(limits::SEARCH_TIME_DEFAULT));
        assert_eq!((bounds.movetime, bounds.depth, bounds.nodes), (Some(cap), None, None));
        let (bounds, _) = read_limits(&request(Some(10_000), Some(64), Some(5))).unwrap();
        assert_eq!((bounds.depth, bounds.nodes), (Some(64), Some(5)));
        for (movetime, depth, nodes, message) in [
            (Some(10_001), None, None, "movetime 10001: expected 1 to 10000 milliseconds"),
            (Some(0), None, None, "movetime 0: expected 1 to 10000"),
            (None, Some(0), None, "depth 0: expected 1 to 64 plies"),
            (None, Some(65), None, "depth 65: expected 1 to 64 plies"),
            (None, None, Some(0), "nodes 0: expected at least 1 node"),
        ] {
            let error = read_limits(&request(movetime, depth, nodes)).unwrap_err();
            assert!(error.message.starts_with(message), "{}", error.message);
        }
    }

    #[tokio::test]
    async fn a_client_that_goes_away_stops_its_search_or_its_wait() {
        let searches = Searches::new();
        // A 10 s search on every core, and one more waiting for a core.
        let mut replies = Vec::new();
        for _ in 0..=limits::search_slots() {
            let request = SearchRequest {
                commands: Vec::new(),
                movetime: Some(limits::SEARCH_TIME),
                depth: None,
                nodes: None,
                multipv: None,
                threat: false,
                fen: None,
            };
            let reply = search(Extension(Arc::clone(&searches)), Body(request)).await.unwrap();
            let mut lines = reply.into_body().into_data_stream();
            let start: Value =
                serde_json::from_slice(&lines.next().await.unwrap().unwrap()).unwrap();
            let id = start["id"].as_str().unwrap();
            let flag = searches.flag(id).unwrap();
            replies.push((lines, flag));
        }
        // The searches on the cores are under way: each has sent an iteration.
        for (lines, _) in &mut replies[..limits::search_slots()] {
            let info: Value =
                serde_json::from_slice(&lines.next().await.unwrap().unwrap()).unwrap();
            assert_eq!(info["event"], "info");
        }
        assert!(replies.iter().all(|(_, flag)| !flag.is_stopped()));

        // The clients go away: every flag is raised then and there, the waiting search's too.
        let flags: Vec<StopFlag> = replies.into_iter().map(|(_, flag)| flag).collect();
        assert!(flags.iter().all(StopFlag::is_stopped));
        // And every place in the pool comes free, each id forgotten.
        searches.idle().await;
    }
}
