//! What anyone may read of a player: their profile (ratings per category with their history,
//! counts of wins, draws and losses), their games with filters, and the leaderboards.

use std::collections::BTreeMap;
use std::sync::Arc;

use arbiter_live::accounts::{DAY_MS, GameFilter, Outcome, Point, Rated, UserName};
use arbiter_rating::{Category, Rating};
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use super::{Accounts, Refusal};
use crate::api::Endpoint;
use crate::live::now_ms;

/// Games listed per page of a profile.
const PER_PAGE: u64 = 20;

/// Players listed on a leaderboard.
const LEADERS: u64 = 100;

/// A leaderboard lists the players rated in the category within these last days.
pub(crate) const ACTIVE_DAYS: u64 = 30;

pub(super) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "GET",
            path: "/api/users/{name}",
            about: "a player's profile: ratings per category {rating, deviation, volatility, \
                    games, provisional}, their history after each rated game, and win/draw/loss \
                    counts",
            route: get(profile),
        },
        Endpoint {
            method: "GET",
            path: "/api/users/{name}/games",
            about: "a player's games, newest first, 20 a page: \
                    ?result=win|draw|loss&category=bullet|blitz|rapid|classical&opponent=NAME&page=N",
            route: get(games),
        },
        Endpoint {
            method: "GET",
            path: "/api/leaderboard/{category}",
            about: "the best-rated players of a category with a rated game in the last 30 days",
            route: get(leaderboard),
        },
    ]
}

/// A rating as a profile shows it.
#[derive(Serialize)]
struct Shown {
    #[serde(flatten)]
    rating: Rating,
    games: u64,
    provisional: bool,
}

impl Shown {
    fn of(rated: Option<&Rated>) -> Shown {
        let (rating, games) = rated.map_or((Rating::START, 0), |r| (r.rating, r.games));
        Shown { rating, games, provisional: rating.is_provisional() }
    }
}

/// The account named `name`: a 400 if it cannot be a name, a 404 if nobody has it.
async fn account(
    accounts: &Accounts,
    name: String,
) -> Result<arbiter_live::accounts::User, Refusal> {
    UserName::parse(&name).map_err(|error| Refusal::bad(error.to_string()))?;
    let found = accounts.store(move |store| store.user(&name)).await?;
    found
        .map(|(user, _)| user)
        .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "no-user", "no player has that name"))
}

async fn profile(
    Extension(accounts): Extension<Arc<Accounts>>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, Refusal> {
    let user = account(&accounts, name).await?;
    let id = user.id;
    let (ratings, counts, history) = accounts
        .store(move |store| Ok((store.ratings(id)?, store.counts(id)?, store.history(id)?)))
        .await?;
    let shown: BTreeMap<&str, Shown> = Category::ALL
        .iter()
        .map(|category| {
            let rated = ratings.iter().find(|(c, _)| c == category).map(|(_, r)| r);
            (category.name(), Shown::of(rated))
        })
        .collect();
    let mut by_category: BTreeMap<&str, Vec<Point>> =
        Category::ALL.iter().map(|c| (c.name(), Vec::new())).collect();
    for point in history {
        by_category.entry(point.category.name()).or_default().push(point);
    }
    Ok(Json(serde_json::json!({
        "name": user.name,
        "created_at": user.created_at,
        "ratings": shown,
        "counts": counts,
        "history": by_category,
    })))
}

/// The query of a player's games.
#[derive(Deserialize)]
struct GamesQuery {
    result: Option<String>,
    category: Option<String>,
    opponent: Option<String>,
    page: Option<u64>,
}

async fn games(
    Extension(accounts): Extension<Arc<Accounts>>,
    Path(name): Path<String>,
    query: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, Refusal> {
    let Query(query) = query.map_err(|rejection| Refusal::bad(rejection.body_text()))?;
    let result = match query.result.as_deref().filter(|r| !r.is_empty()) {
        None => None,
        Some(text) => {
            Some(Outcome::parse(text).ok_or_else(|| Refusal::bad("result is win, draw or loss"))?)
        }
    };
    let category = match query.category.as_deref().filter(|c| !c.is_empty()) {
        None => None,
        Some(text) => {
            Some(text.parse::<Category>().map_err(|error| Refusal::bad(error.to_string()))?)
        }
    };
    let page = query.page.unwrap_or(1).clamp(1, 1_000_000);
    let filter = GameFilter { result, category, opponent: query.opponent };
    let user = account(&accounts, name).await?;
    let (games, total) = accounts
        .store(move |store| store.player_games(user.id, &filter, (page - 1) * PER_PAGE, PER_PAGE))
        .await?;
    Ok(Json(serde_json::json!({
        "games": games,
        "total": total,
        "page": page,
        "pages": total.div_ceil(PER_PAGE).max(1),
    })))
}

async fn leaderboard(
    Extension(accounts): Extension<Arc<Accounts>>,
    Path(category): Path<String>,
) -> Result<Json<serde_json::Value>, Refusal> {
    let category: Category =
        category.parse().map_err(|error: arbiter_rating::category::UnknownCategory| {
            Refusal::bad(error.to_string())
        })?;
    let since = now_ms().saturating_sub(ACTIVE_DAYS * DAY_MS);
    let players = accounts.store(move |store| store.leaderboard(category, since, LEADERS)).await?;
    Ok(Json(serde_json::json!({ "category": category, "players": players })))
}
