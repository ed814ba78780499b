//! Puzzles on the server: the shipped collection ([`arbiter_duck_learn::puzzle`]) served one at
//! a time, each move of the player judged here against the solution (the page never holds the
//! solution before the attempt ends), and the Glicko-2 ratings.
//!
//! A signed-in player's first attempt at a puzzle rates both the player and the puzzle, kept in
//! the store. A player who is not signed in keeps a rating in the browser: the page sends it
//! with the result and gets it back rated against the puzzle; such attempts do not move the
//! puzzle's rating, which anyone could otherwise push anywhere.

use std::sync::Arc;

use arbiter_duck::{Move, Position};
use arbiter_duck_learn::puzzle::{Puzzle, Theme};
use arbiter_live::learn::{Attempted, PuzzlePoint, PuzzleRated, puzzle_start, rate_attempt};
use arbiter_rating::Rating;
use axum::extract::{Path as UrlPath, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use super::Learn;
use crate::accounts::{Accounts, session};
use crate::api::{ApiError, Body, Endpoint};
use crate::live::{AnyStore, now_ms};

/// Puzzles near the rating asked for, among which `next` draws one.
const NEAREST: usize = 30;

/// The endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "GET",
            path: "/api/duck/puzzles/themes",
            about: "the puzzles' themes with their counts: {count, themes: [{theme, count, about}]}",
            route: get(themes),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/puzzles/next",
            about: "a puzzle near ?rating= (else the player's), of ?theme=, other than ?not=: \
                    {id, fen, turn, themes, rating, deviation, moves}",
            route: get(next),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/puzzles/me",
            about: "the signed-in player's puzzle rating and its history: {signed_in, rating?, \
                    history?}",
            route: get(me),
        },
        Endpoint {
            method: "GET",
            path: "/api/duck/puzzles/{id}",
            about: "one puzzle, without its solution",
            route: get(one),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/puzzles/{id}/move",
            about: "judge the player's {move} after the moves {played} so far: {correct, reply?, \
                    done, solution?}",
            route: post(judge_move),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/puzzles/{id}/result",
            about: "rate an attempt {solved, player?: {rating, deviation, volatility}} (signed in: \
                    the stored rating, with X-CSRF-Token): {rated, player, puzzle, signed_in}",
            route: post(result),
        },
    ]
}

/// A puzzle as the page gets it before solving it.
#[derive(Serialize)]
struct Shown {
    id: String,
    fen: String,
    /// The solver, to move: `red` or `blue`.
    turn: &'static str,
    themes: Vec<Theme>,
    /// Its rating now (its first rating until a signed-in player tries it).
    rating: f64,
    deviation: f64,
    /// The solver's moves in the solution.
    moves: usize,
}

/// Runs `job` on the store off the async threads.
async fn on_store<T: Send + 'static>(
    learn: &Learn,
    job: impl FnOnce(&AnyStore) -> Result<T, arbiter_live::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let games = Arc::clone(&learn.games);
    tokio::task::spawn_blocking(move || job(games.store()))
        .await
        .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))?
        .map_err(|error| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the store is unavailable: {error}"),
            )
        })
}

/// The puzzle `id`: a 400 for an id that cannot be one (8 hexadecimal digits), a 404 for one
/// that is not in the collection.
fn find<'a>(learn: &'a Learn, id: &str) -> Result<&'a Puzzle, ApiError> {
    if id.len() != 8 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::bad_request("expected a puzzle id of 8 hexadecimal digits"));
    }
    learn.puzzles.get(id).ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such puzzle"))
}

/// The puzzle's rating now.
async fn rating_of(learn: &Learn, puzzle: &Puzzle) -> Result<Rating, ApiError> {
    let id = puzzle.id.clone();
    let stored = on_store(learn, move |store| store.puzzle_rating(&id)).await?;
    Ok(stored.map_or(puzzle_start(f64::from(puzzle.rating)), |rated| rated.rating))
}

/// The puzzle as shown.
async fn shown(learn: &Learn, puzzle: &Puzzle) -> Result<Shown, ApiError> {
    let rating = rating_of(learn, puzzle).await?;
    let turn = puzzle.position().map_or("red", |position| position.turn().name());
    Ok(Shown {
        id: puzzle.id.clone(),
        fen: puzzle.fen.clone(),
        turn,
        themes: puzzle.themes.clone(),
        rating: rating.rating.round(),
        deviation: rating.deviation.round(),
        moves: puzzle.solver_moves(),
    })
}

/// A theme and its puzzles.
#[derive(Serialize)]
struct ThemeCount {
    theme: String,
    count: usize,
    about: String,
}

/// `GET /api/duck/puzzles/themes`.
async fn themes(Extension(learn): Extension<Arc<Learn>>) -> Json<serde_json::Value> {
    let mut counts: std::collections::BTreeMap<Theme, usize> = std::collections::BTreeMap::new();
    for puzzle in learn.puzzles.puzzles() {
        for &theme in &puzzle.themes {
            *counts.entry(theme).or_default() += 1;
        }
    }
    let about = |theme: Theme| match theme {
        Theme::CaptureIn(moves) => format!("the captain captured with the solver's move {moves}"),
        other => Theme::NAMED
            .iter()
            .find(|(name, _)| *name == other.to_string())
            .map_or(String::new(), |(_, about)| (*about).to_owned()),
    };
    let themes: Vec<ThemeCount> = counts
        .into_iter()
        .map(|(theme, count)| ThemeCount { theme: theme.to_string(), count, about: about(theme) })
        .collect();
    Json(serde_json::json!({ "count": learn.puzzles.puzzles().len(), "themes": themes }))
}

/// What `next` is asked.
#[derive(Deserialize)]
struct NextQuery {
    #[serde(default)]
    theme: Option<String>,
    #[serde(default)]
    rating: Option<f64>,
    #[serde(default)]
    not: Option<String>,
}

/// A random index below `n`.
fn random_below(n: usize) -> usize {
    let mut bytes = [0u8; 8];
    // Without the system's randomness the first of the nearest is as good a puzzle.
    if getrandom::fill(&mut bytes).is_err() {
        return 0;
    }
    (u64::from_le_bytes(bytes) % n.max(1) as u64) as usize
}

/// `GET /api/duck/puzzles/next`.
async fn next(
    Extension(learn): Extension<Arc<Learn>>,
    Extension(accounts): Extension<Arc<Accounts>>,
    headers: HeaderMap,
    Query(query): Query<NextQuery>,
) -> Result<Json<Shown>, Response> {
    let theme: Option<Theme> =
        query.theme.filter(|text| !text.is_empty()).map(|text| text.parse()).transpose().map_err(
            |error: arbiter_duck_learn::puzzle::ParseThemeError| {
                ApiError::bad_request(error.to_string()).into_response()
            },
        )?;
    let target = match query.rating {
        Some(rating) if rating.is_finite() => rating,
        _ => match accounts.session(&headers).await.map_err(IntoResponse::into_response)? {
            Some((_, session)) => {
                let user = session.user.id;
                let rated = on_store(&learn, move |store| store.player_puzzle_rating(user))
                    .await
                    .map_err(IntoResponse::into_response)?;
                rated.map_or(Rating::START.rating, |r| r.rating.rating)
            }
            None => Rating::START.rating,
        },
    };
    let mut near: Vec<&Puzzle> = learn
        .puzzles
        .puzzles()
        .iter()
        .filter(|p| theme.is_none_or(|theme| p.themes.contains(&theme)))
        .filter(|p| query.not.as_deref() != Some(p.id.as_str()))
        .collect();
    if near.is_empty() {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "no puzzle of that theme").into_response());
    }
    near.sort_by(|a, b| {
        let distance = |p: &Puzzle| (f64::from(p.rating) - target).abs();
        distance(a).total_cmp(&distance(b)).then(a.id.cmp(&b.id))
    });
    near.truncate(NEAREST);
    let puzzle = near[random_below(near.len())];
    shown(&learn, puzzle).await.map(Json).map_err(IntoResponse::into_response)
}

/// `GET /api/duck/puzzles/{id}`.
async fn one(
    Extension(learn): Extension<Arc<Learn>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Shown>, ApiError> {
    let puzzle = find(&learn, &id)?;
    shown(&learn, puzzle).await.map(Json)
}

/// A move to judge.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The moves of the solution played so far (the player's and the replies).
    #[serde(default)]
    played: Vec<String>,
    /// The player's move.
    #[serde(rename = "move")]
    mv: String,
}

/// The verdict on a move.
#[derive(Serialize)]
struct Verdict {
    /// Whether it is the solution's move.
    correct: bool,
    /// The reply to it, when the solution goes on.
    reply: Option<String>,
    /// Whether the attempt is over (solved, or failed).
    done: bool,
    /// The whole solution, once the attempt is over.
    solution: Option<Vec<String>>,
}

/// `POST /api/duck/puzzles/{id}/move`.
async fn judge_move(
    Extension(learn): Extension<Arc<Learn>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<MoveRequest>,
) -> Result<Json<Verdict>, ApiError> {
    let puzzle = find(&learn, &id)?;
    let read = |text: &str| {
        text.parse::<Move>()
            .map_err(|error| ApiError::bad_request(format!("move `{text}`: {error}")))
    };
    let played: Vec<Move> =
        request.played.iter().map(|text| read(text)).collect::<Result<_, _>>()?;
    let mv = read(&request.mv)?;
    if played.len() % 2 == 1
        || played.len() >= puzzle.solution.len()
        || played[..] != puzzle.solution[..played.len()]
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "`played` is not the start of the solution up to one of the solver's moves",
        ));
    }
    let mut position: Position = puzzle
        .position()
        .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))?;
    for &done in &played {
        let _ = position.make(done);
    }
    if !position.is_legal(mv) {
        return Err(ApiError::bad_request(format!("{mv} is not a valid move here")));
    }
    let solution = || Some(puzzle.solution.iter().map(Move::to_string).collect());
    let at = played.len();
    if mv != puzzle.solution[at] {
        return Ok(Json(Verdict { correct: false, reply: None, done: true, solution: solution() }));
    }
    let reply = puzzle.solution.get(at + 1).map(Move::to_string);
    let done = reply.is_none();
    Ok(Json(Verdict { correct: true, reply, done, solution: if done { solution() } else { None } }))
}

/// A rating as the browser keeps it.
#[derive(Deserialize, Serialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct Kept {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

/// An attempt's end.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultRequest {
    solved: bool,
    /// The rating of a player who is not signed in, as the browser keeps it (a newcomer's when
    /// absent).
    #[serde(default)]
    player: Option<Kept>,
}

/// A rating with its counts, as answered.
#[derive(Serialize)]
struct RatedView {
    rating: f64,
    deviation: f64,
    volatility: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempts: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<u64>,
}

impl RatedView {
    fn of(rating: Rating, counts: Option<&PuzzleRated>) -> RatedView {
        RatedView {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            attempts: counts.map(|c| c.attempts),
            solved: counts.map(|c| c.solved),
        }
    }
}

/// `POST /api/duck/puzzles/{id}/result`.
async fn result(
    Extension(learn): Extension<Arc<Learn>>,
    Extension(accounts): Extension<Arc<Accounts>>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<ResultRequest>,
) -> Result<Response, Response> {
    let puzzle = find(&learn, &id).map_err(IntoResponse::into_response)?;
    let start = puzzle_start(f64::from(puzzle.rating));
    let signed_in = accounts.session(&headers).await.map_err(IntoResponse::into_response)?;
    if let Some((_, session)) = signed_in {
        if !session::carries_csrf(&headers, &session.csrf) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "a signed-in player's result must carry the session's token in X-CSRF-Token",
            )
            .into_response());
        }
        let (user, puzzle_id, solved) = (session.user.id, puzzle.id.clone(), request.solved);
        let attempted: Attempted = on_store(&learn, move |store| {
            store.attempt_puzzle(user, &puzzle_id, start, solved, now_ms())
        })
        .await
        .map_err(IntoResponse::into_response)?;
        let body = serde_json::json!({
            "rated": attempted.rated,
            "signed_in": true,
            "player": RatedView::of(attempted.player.rating, Some(&attempted.player)),
            "puzzle": RatedView::of(attempted.puzzle.rating, Some(&attempted.puzzle)),
        });
        return Ok(Json(body).into_response());
    }
    let kept = request.player.map_or(Rating::START, |kept| Rating {
        rating: kept.rating,
        deviation: kept.deviation,
        volatility: kept.volatility,
    });
    let valid = kept.rating.is_finite()
        && (0.0..=5000.0).contains(&kept.rating)
        && (1.0..=350.0).contains(&kept.deviation)
        && (0.0..=1.0).contains(&kept.volatility)
        && kept.volatility > 0.0;
    if !valid {
        return Err(ApiError::bad_request(
            "player: a rating 0–5000, a deviation 1–350 and a volatility in (0, 1]",
        )
        .into_response());
    }
    let puzzle_rating = rating_of(&learn, puzzle).await.map_err(IntoResponse::into_response)?;
    let (player, _) = rate_attempt(kept, puzzle_rating, request.solved);
    let body = serde_json::json!({
        "rated": true,
        "signed_in": false,
        "player": RatedView::of(player, None),
        "puzzle": RatedView::of(puzzle_rating, None),
    });
    Ok(Json(body).into_response())
}

/// The signed-in player's puzzle rating and history.
#[derive(Serialize)]
struct Me {
    signed_in: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<RatedView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<Vec<PuzzlePoint>>,
}

/// `GET /api/duck/puzzles/me`.
async fn me(
    Extension(learn): Extension<Arc<Learn>>,
    Extension(accounts): Extension<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Json<Me>, Response> {
    let Some((_, session)) =
        accounts.session(&headers).await.map_err(IntoResponse::into_response)?
    else {
        return Ok(Json(Me { signed_in: false, name: None, rating: None, history: None }));
    };
    let user = session.user.id;
    let (rated, history) = on_store(&learn, move |store| {
        Ok((store.player_puzzle_rating(user)?, store.puzzle_history(user)?))
    })
    .await
    .map_err(IntoResponse::into_response)?;
    let rating =
        rated.map_or(RatedView::of(Rating::START, None), |r| RatedView::of(r.rating, Some(&r)));
    Ok(Json(Me {
        signed_in: true,
        name: Some(session.user.name),
        rating: Some(rating),
        history: Some(history),
    }))
}
