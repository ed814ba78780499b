//! Game analyses on request: `POST /api/duck/analyses` queues one (a finished live game by its
//! id, or an imported command list), `GET /api/duck/analyses/{id}` says where it stands and,
//! once done, gives the report (`arbiter_duck_learn::report`: per command the evaluation, the
//! engine's best move and line, the mark; each side's accuracy and average loss), and
//! `GET /api/duck/analyses/{id}/export` the game as an official command list with the analysis
//! as comments after it.
//!
//! A live game is analysed only once it is over: an analysis of a game under way would play it
//! for its players.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use std::time::Duration;

use arbiter_duck::{Move, Position};
use arbiter_duck_engine::search::Limits;
use arbiter_duck_engine::value::Score;
use arbiter_duck_learn::analysis::Analyser;
use arbiter_duck_learn::mark::Mark;
use arbiter_duck_learn::probe::Probe;
use arbiter_duck_learn::report::{self, Report};
use arbiter_duck_learn::score::{RedScore, expected};
use arbiter_live::learn::{AnalysisRequest, AnalysisState, StoredAnalysis};
use arbiter_live::{GameId, LiveError, StoreError};
use axum::extract::Path as UrlPath;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use super::{Learn, MAX_NODES, MAX_QUEUED, NODES, Queue, explorer};
use crate::api::{ApiError, Body, Endpoint};
use crate::duck;
use crate::live::{AnyStore, now_ms};
use crate::searches::Searches;

/// The most commands of an imported game: the official statement's limit.
const MAX_COMMANDS: usize = 1_000;

/// The endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/duck/analyses",
            about: "queue the analysis of a finished live game {game} or of an imported game \
                    {commands, fen?}, each position searched to {nodes?} nodes: {id, state, ...} \
                    (the same analysis again for the same request)",
            route: post(request),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/analyses/{id}",
            about: "an analysis: {id, state: queued|running|done|failed, ahead?, progress?, \
                    report?: {commands: [{ply, command, eval, best, mark, ...}], summary}}",
            route: get(show),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/analyses/{id}/export",
            about: "the analysed game as an official command list, the marks and evaluations \
                    as comments after it (text)",
            route: get(export),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/analyses/{id}/try",
            about: "learn from a mistake: judge {move} in place of command {ply} of a done \
                    analysis: {accepted, move_eval, best, best_eval, line, drop}",
            route: post(try_move),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/analyses/game/{id}",
            about: "the analysis of the live game {id}, if one was asked for",
            route: get(of_game),
        },
    ]
}

/// What to analyse.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// A finished live game.
    #[serde(default)]
    game: Option<String>,
    /// An imported game's commands.
    #[serde(default)]
    commands: Option<Vec<String>>,
    /// Where the imported game starts.
    #[serde(default)]
    fen: Option<String>,
    /// Nodes per position (1 to [`MAX_NODES`], [`NODES`] by default).
    #[serde(default)]
    nodes: Option<u64>,
}

/// An analysis as the API shows it.
#[derive(Serialize)]
struct Shown {
    id: String,
    state: AnalysisState,
    game: Option<String>,
    fen: Option<String>,
    commands: Vec<String>,
    nodes: u64,
    created_at: u64,
    finished_at: Option<u64>,
    /// Analyses queued before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    ahead: Option<u64>,
    /// Moves analysed and to analyse, while it runs on this server.
    #[serde(skip_serializing_if = "Option::is_none")]
    progress: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// An error of the store as the API answers it.
fn unavailable(error: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("the store is unavailable: {error}"))
}

/// Runs `job` on the store off the async threads.
async fn on_store<T: Send + 'static>(
    learn: &Learn,
    job: impl FnOnce(&AnyStore) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let games = Arc::clone(&learn.games);
    tokio::task::spawn_blocking(move || job(games.store())).await.map_err(unavailable)?
}

/// The analysis as shown, with its place in the queue or its progress.
fn shown(
    store: &AnyStore,
    progress: &Mutex<HashMap<String, (usize, usize)>>,
    analysis: StoredAnalysis,
) -> Result<Shown, StoreError> {
    let ahead = match analysis.state {
        AnalysisState::Queued => Some(store.queue_length(analysis.created_at)?.1),
        _ => None,
    };
    let progress = match analysis.state {
        AnalysisState::Running => progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&analysis.id)
            .map(|&(done, total)| [done, total]),
        _ => None,
    };
    let report = analysis.result.as_deref().and_then(|text| serde_json::from_str(text).ok());
    Ok(Shown {
        id: analysis.id,
        state: analysis.state,
        game: analysis.request.game_id,
        fen: analysis.request.fen,
        commands: analysis.request.commands,
        nodes: analysis.request.nodes,
        created_at: analysis.created_at,
        finished_at: analysis.finished_at,
        ahead,
        progress,
        report,
        error: analysis.error,
    })
}

/// The key of an imported game: the 64-bit FNV-1a hash of its FEN, commands and nodes.
fn import_key(fen: Option<&str>, commands: &[String], nodes: u64) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator no command holds, so that ["1 2", "3"] and ["1", "2 3"] differ.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    eat(fen.unwrap_or("").as_bytes());
    for command in commands {
        eat(command.as_bytes());
    }
    eat(&nodes.to_le_bytes());
    format!("import:{hash:016x}")
}

/// An analysis id as a request names it: 10 letters and digits, else a 400.
fn analysis_id(text: &str) -> Result<String, ApiError> {
    if text.len() == 10 && text.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(text.to_owned())
    } else {
        Err(ApiError::bad_request(format!(
            "analysis id `{}`: expected 10 letters and digits",
            text.chars().take(40).collect::<String>()
        )))
    }
}

/// A fresh analysis id: 10 letters and digits.
fn new_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes).map_err(unavailable)?;
    Ok(bytes.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect())
}

/// `POST /api/duck/analyses`.
async fn request(
    Extension(learn): Extension<Arc<Learn>>,
    Body(request): Body<Request>,
) -> Result<Response, ApiError> {
    let nodes = request.nodes.unwrap_or(NODES);
    if !(1..=MAX_NODES).contains(&nodes) {
        return Err(ApiError::bad_request(format!(
            "nodes {nodes}: expected 1 to {MAX_NODES} nodes per position"
        )));
    }
    let id = new_id()?;
    let shown = match (request.game, request.commands) {
        (Some(game), None) => {
            if request.fen.is_some() {
                return Err(ApiError::bad_request("a live game starts from the start: no fen"));
            }
            let games = Arc::clone(&learn.games);
            let progress = Arc::clone(&learn.progress);
            tokio::task::spawn_blocking(move || {
                let game_id = GameId::parse(&game)
                    .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such game"))?;
                let view = games.view(&game_id, now_ms()).map_err(|error| match error {
                    LiveError::NotFound => ApiError::new(StatusCode::NOT_FOUND, "no such game"),
                    other => unavailable(other),
                })?;
                if view.end.is_none() {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "the game is under way: it is analysed once it is over",
                    ));
                }
                let request = AnalysisRequest {
                    key: format!("game:{game}"),
                    game_id: Some(game),
                    fen: None,
                    commands: view.commands,
                    nodes,
                };
                queue(games.store(), &progress, &request, &id)
            })
            .await
            .map_err(unavailable)??
        }
        (None, Some(commands)) => {
            if commands.len() > MAX_COMMANDS {
                return Err(ApiError::too_large(format!(
                    "{} commands: an analysis takes games of at most {MAX_COMMANDS} (the \
                     official limit)",
                    commands.len()
                )));
            }
            // Checked now, so that a request the worker cannot read is refused at once.
            duck::start(request.fen.as_deref())?;
            duck::read_commands(&commands)?;
            let request = AnalysisRequest {
                key: import_key(request.fen.as_deref(), &commands, nodes),
                game_id: None,
                fen: request.fen,
                commands,
                nodes,
            };
            let progress = Arc::clone(&learn.progress);
            on_store(&learn, move |store| queue(store, &progress, &request, &id)).await?
        }
        _ => {
            return Err(ApiError::bad_request(
                "expected either {game} (a finished live game) or {commands, fen?}",
            ));
        }
    };
    if shown.state == AnalysisState::Queued {
        learn.queue.notify();
    }
    Ok((StatusCode::ACCEPTED, Json(shown)).into_response())
}

/// Queues `request` unless the queue is full (the same request already kept is answered as it
/// stands).
fn queue(
    store: &AnyStore,
    progress: &Mutex<HashMap<String, (usize, usize)>>,
    request: &AnalysisRequest,
    id: &str,
) -> Result<Shown, ApiError> {
    if let Some(kept) = store.analysis_by_key(&request.key).map_err(unavailable)? {
        return shown(store, progress, kept).map_err(unavailable);
    }
    let (queued, _) = store.queue_length(0).map_err(unavailable)?;
    if queued >= MAX_QUEUED {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{queued} analyses are waiting already: ask again later"),
        ));
    }
    let kept = store.request_analysis(request, id, now_ms()).map_err(unavailable)?;
    shown(store, progress, kept).map_err(unavailable)
}

/// `GET /api/duck/analyses/{id}`.
async fn show(
    Extension(learn): Extension<Arc<Learn>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Shown>, ApiError> {
    let id = analysis_id(&id)?;
    let progress = Arc::clone(&learn.progress);
    let found = on_store(&learn, move |store| {
        let analysis = store.analysis(&id).map_err(unavailable)?;
        analysis.map(|a| shown(store, &progress, a).map_err(unavailable)).transpose()
    })
    .await?;
    found.map(Json).ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such analysis"))
}

/// `GET /api/duck/analyses/game/{id}`.
async fn of_game(
    Extension(learn): Extension<Arc<Learn>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Shown>, ApiError> {
    let id = GameId::parse(&id)
        .ok_or_else(|| ApiError::bad_request("expected a game id of 10 letters and digits"))?;
    let progress = Arc::clone(&learn.progress);
    let found = on_store(&learn, move |store| {
        let key = format!("game:{}", id.as_str());
        let analysis = store.analysis_by_key(&key).map_err(unavailable)?;
        analysis.map(|a| shown(store, &progress, a).map_err(unavailable)).transpose()
    })
    .await?;
    found.map(Json).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "this game has not been analysed (POST /api/duck/analyses)",
        )
    })
}

/// `GET /api/duck/analyses/{id}/export`.
async fn export(
    Extension(learn): Extension<Arc<Learn>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let id = analysis_id(&id)?;
    let found = on_store(&learn, move |store| store.analysis(&id).map_err(unavailable)).await?;
    let analysis = found.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such analysis"))?;
    let report: Report = analysis
        .result
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "the analysis is not done"))?;
    let text = report::annotated(&report, analysis.request.fen.as_deref());
    let name = format!("attachment; filename=\"analysis-{}.txt\"", analysis.id);
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, name),
        ],
        text,
    )
        .into_response())
}

/// A try in place of a marked move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Try {
    /// The command's number in the game, from 1.
    ply: usize,
    /// The move tried, in either notation.
    #[serde(rename = "move")]
    mv: String,
}

/// The verdict on a try.
#[derive(Serialize)]
struct Tried {
    /// Whether it is within [`TRY_LOSS`] of the best move.
    accepted: bool,
    /// The try's score, from red's side.
    move_eval: RedScore,
    /// The engine's best move (stored), its score and line.
    best: String,
    best_eval: Option<RedScore>,
    line: Vec<String>,
    /// The expected score the try loses against the best move.
    drop: f64,
}

/// The most expected score a try may lose against the best move and be accepted: less than an
/// inaccuracy.
const TRY_LOSS: f64 = Mark::INACCURACY;

/// `POST /api/duck/analyses/{id}/try`: the try is searched alone from the position before the
/// command, at the analysis's nodes, and compared with the stored best move's score.
async fn try_move(
    Extension(learn): Extension<Arc<Learn>>,
    Extension(searches): Extension<Arc<Searches>>,
    UrlPath(id): UrlPath<String>,
    Body(tried): Body<Try>,
) -> Result<Json<Tried>, ApiError> {
    let id = analysis_id(&id)?;
    let found = on_store(&learn, move |store| store.analysis(&id).map_err(unavailable)).await?;
    let analysis = found.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such analysis"))?;
    let report: Report = analysis
        .result
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "the analysis is not done"))?;
    let entry = tried
        .ply
        .checked_sub(1)
        .and_then(|index| report.commands.get(index))
        .filter(|entry| entry.valid)
        .ok_or_else(|| {
            ApiError::bad_request(format!("no valid command {} in the game", tried.ply))
        })?;
    let (best, best_eval, line) = (
        entry.best.clone().unwrap_or_default(),
        entry.best_eval,
        entry.line.clone().unwrap_or_default(),
    );
    // The position before the command.
    let start = duck::start(analysis.request.fen.as_deref())?;
    let commands = duck::read_commands(&analysis.request.commands[..tried.ply - 1])?;
    let (_, moves) = report::judge(&start, commands);
    let mut position = start;
    for &mv in &moves {
        let _ = position.make(mv);
    }
    let mv: Move = tried
        .mv
        .parse()
        .map_err(|error| ApiError::bad_request(format!("move `{}`: {error}", tried.mv)))?;
    if !position.is_legal(mv) {
        return Err(ApiError::bad_request(format!("{mv} is not a valid move here")));
    }
    let turn = position.turn();
    let nodes = analysis.request.nodes;
    let ticket = searches.admit()?;
    let cap = Duration::from_millis(crate::limits::SEARCH_TIME);
    let score = ticket
        .run(cap, std::future::pending(), move |engine, stop| {
            let mut after = position.clone();
            let _ = after.make(mv);
            if after.is_over() {
                return Score::Mate(1);
            }
            engine.set_position(position);
            let limits = Limits { nodes: Some(nodes), searchmoves: vec![mv], ..Limits::default() };
            engine.go(&limits, stop, |_| {}).score
        })
        .await
        .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))?;
    let move_eval = RedScore::new(score, turn);
    let drop =
        best_eval.map_or(0.0, |best| (expected(best.for_side(turn)) - expected(score)).max(0.0));
    Ok(Json(Tried {
        accepted: mv.to_string() == best || drop < TRY_LOSS,
        move_eval,
        best,
        best_eval,
        line,
        drop: (drop * 1000.0).round() / 1000.0,
    }))
}

/// Runs `analysis` on this worker's thread and keeps its result; a search stopped by the
/// server's end leaves it running, to be queued again at the next start.
pub(super) fn run(
    store: &AnyStore,
    queue: &Queue,
    progress: &Mutex<HashMap<String, (usize, usize)>>,
    explorer: &RwLock<explorer::Index>,
    analysis: StoredAnalysis,
) {
    let id = analysis.id.clone();
    let request = &analysis.request;
    let judged = duck::start(request.fen.as_deref()).and_then(|start| {
        let commands = duck::read_commands(&request.commands)?;
        Ok((start.clone(), report::judge(&start, commands)))
    });
    let (start, (steps, moves)) = match judged {
        Ok(judged) => judged,
        Err(error) => {
            finish(store, &id, Err(&error.message));
            return;
        }
    };
    let total = moves.len();
    let record = |done: usize| {
        progress.lock().unwrap_or_else(PoisonError::into_inner).insert(id.clone(), (done, total));
    };
    record(0);
    let probe = Probe::with_stop(request.nodes, queue.stop.clone());
    let analysed = Analyser::with_probe(probe).analyse(&start, &moves, |done, _| record(done));
    progress.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
    if queue.closed.load(Ordering::Relaxed) {
        return;
    }
    match analysed {
        Ok(analysis) => {
            let report = Report::new(&steps, &analysis);
            if start == Position::new() {
                explorer::evaluations(explorer, &moves, &analysis);
            }
            match serde_json::to_string(&report) {
                Ok(text) => finish(store, &id, Ok(&text)),
                Err(error) => finish(store, &id, Err(&error.to_string())),
            }
        }
        Err(error) => finish(store, &id, Err(&error.to_string())),
    }
}

/// Keeps an analysis's end; a store that fails here leaves it running, to be queued again at
/// the next start.
fn finish(store: &AnyStore, id: &str, outcome: Result<&str, &str>) {
    if let Err(error) = store.finish_analysis(id, outcome, now_ms()) {
        eprintln!("arbiter serve: cannot keep analysis {id}: {error}");
    }
}
