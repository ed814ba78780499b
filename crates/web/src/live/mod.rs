//! Live games by link: the pages `/duck/game/ID` (a game, played or watched) and `/duck/games`
//! (the archive, and "Play a friend"), the endpoints under `/api/live/`, and the games' WebSockets
//! (`socket`). The games themselves, their rules, clocks and store are [`arbiter_live`]'s; this
//! module only carries requests to them and their changes to every page watching.
//!
//! A seat is held by its token, sent in the body of each action; the token is never in a reply
//! but the creator's own (the creation's, which also holds the invitation's token) and never in
//! what a socket is sent. Every action is answered only once it is committed.
//!
//! With a PostgreSQL store, several servers share the games: each one hears, by a
//! [`Listener`], every change the others commit, and sends it to its own sockets.

pub(crate) mod presence;
mod quota;
mod socket;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arbiter_live::postgres::Listener;
use arbiter_live::{
    Action, Filter, GameId, Games, LiveError, New, Page, PostgresStore, Refusal, Seat, SqliteStore,
    Store, StoreError, TimeControl,
};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path as UrlPath, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;

use crate::api::{Body, Endpoint};
use crate::assets;

/// Games listed per page of the archive.
const PER_PAGE: u64 = 20;

/// How long a game nobody watches may go unused before it is dropped from memory (10 minutes);
/// it stays in the store and is read back at its next use.
const IDLE_MS: u64 = 10 * 60 * 1000;

/// How often, at most, the games in memory are looked over for idle ones (each minute).
const TIDY_MS: u64 = 60 * 1000;

/// Where the live games are kept.
#[derive(Debug, Clone)]
pub enum Storage {
    /// In memory, gone at exit.
    Memory,
    /// In SQLite, in this data directory (created if missing).
    Directory(PathBuf),
    /// In the PostgreSQL database at this URL, which other servers may share.
    Postgres(String),
}

/// The store of every game, whichever it is.
pub(crate) type AnyStore = Box<dyn Store>;

/// The live games and everything watching them.
pub(crate) struct Live {
    games: Arc<Games<AnyStore>>,
    /// The URL of the database shared with other servers, if it is.
    shared: Option<String>,
    hub: socket::Hub,
    created: quota::Buckets,
    acted: quota::Buckets,
    sockets: Arc<quota::Sockets>,
    /// When the games in memory were last looked over for idle ones (ms since the epoch).
    tidied: AtomicU64,
}

impl Live {
    /// The games kept in `storage`.
    pub(crate) fn open(storage: &Storage) -> Result<Arc<Live>, StoreError> {
        let store: AnyStore = match storage {
            Storage::Memory => Box::new(SqliteStore::memory()?),
            Storage::Directory(dir) => Box::new(SqliteStore::open(dir)?),
            Storage::Postgres(url) => Box::new(PostgresStore::open(url)?),
        };
        let shared = match storage {
            Storage::Postgres(url) => Some(url.clone()),
            Storage::Memory | Storage::Directory(_) => None,
        };
        Ok(Arc::new(Live {
            games: Arc::new(Games::new(store)),
            shared,
            hub: socket::Hub::default(),
            created: quota::Buckets::default(),
            acted: quota::Buckets::default(),
            sockets: Arc::new(quota::Sockets::default()),
            tidied: AtomicU64::new(now_ms()),
        }))
    }

    /// The games, for what is kept beside them (the accounts) and what makes games (the lobby).
    pub(crate) fn games(&self) -> &Arc<Games<AnyStore>> {
        &self.games
    }

    /// The seats with a player's page open.
    pub(crate) fn presence(&self) -> &presence::Presence {
        &self.hub.presence
    }

    /// Sends the game `id` as it now stands to the sockets watching it.
    pub(crate) async fn publish(self: &Arc<Live>, id: GameId) {
        socket::publish(Arc::clone(self), id).await;
    }

    /// Drops from memory, at most once every [`TIDY_MS`], the games unused for [`IDLE_MS`] that
    /// no socket watches, off the async threads; the request that finds it due does not wait.
    fn tidy(&self) {
        let now = now_ms();
        let last = self.tidied.load(Ordering::Relaxed);
        if now.saturating_sub(last) < TIDY_MS
            || self
                .tidied
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let watched = self.hub.watched();
        let games = Arc::clone(&self.games);
        tokio::task::spawn_blocking(move || {
            games.forget_idle(now, IDLE_MS, |id| watched.contains(id));
        });
    }

    /// Hears every change committed to a shared database, by this server or another, and sends
    /// it to this server's sockets of the game, on `runtime`; `None` when the games are not
    /// shared. Drop the listener before the last handle on the games: it holds only a weak one.
    pub(crate) fn listen(
        self: &Arc<Live>,
        runtime: tokio::runtime::Handle,
    ) -> Result<Option<Listener>, StoreError> {
        let Some(url) = &self.shared else { return Ok(None) };
        let live = Arc::downgrade(self);
        let listener = Listener::start(url, move |change| {
            if let Some(live) = live.upgrade() {
                socket::heard(&live, change, &runtime);
            }
        })?;
        Ok(Some(listener))
    }
}

/// Milliseconds since the Unix epoch: the clocks' time.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
}

/// The pages: a game and the archive.
pub(crate) fn pages() -> Router {
    Router::new()
        .route(
            "/duck/game/{id}",
            get(|headers: HeaderMap| async move { assets::serve("game.html", &headers) }),
        )
        .route(
            "/duck/games",
            get(|headers: HeaderMap| async move { assets::serve("games.html", &headers) }),
        )
}

/// The live games' endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/live/games",
            about: "create a game {name?, color?: red|blue|random, time?: \"5+3\"|\"none\"}: its \
                    id, the creator's seat and token, and the invitation's token",
            route: post(create),
        },
        Endpoint {
            method: "GET",
            path: "/api/live/archive",
            about: "the games, newest first, 20 a page: ?status=ongoing|over&player=PART&page=N",
            route: get(list),
        },
        Endpoint {
            method: "GET",
            path: "/api/live/games/{id}",
            about: "a game as everyone sees it: players, clocks, commands with their times, \
                    offers, the end and the FEN",
            route: get(view),
        },
        Endpoint {
            method: "POST",
            path: "/api/live/games/{id}/seat",
            about: "the seat {token} holds: red or blue (403 if none)",
            route: post(seat),
        },
        Endpoint {
            method: "POST",
            path: "/api/live/games/{id}/act",
            about: "{token, action: join|move|resign|offer-draw|accept-draw|decline-draw|\
                    request-takeback|accept-takeback|decline-takeback, command?, name?}: \
                    answered with the game once committed; 403 without the seat's token, 409 \
                    when the game refuses",
            route: post(act),
        },
        Endpoint {
            method: "GET",
            path: "/api/live/games/{id}/export",
            about: "the game as the official input (Q, then the commands) and its position as \
                    FEN",
            route: get(export),
        },
        Endpoint {
            method: "GET",
            path: "/api/live/games/{id}/socket",
            about: "WebSocket: the game at once and at every change, with the spectators",
            route: get(socket),
        },
    ]
}

/// A failed live request: its status, a reason code for programs and a message for people.
struct Failure {
    status: StatusCode,
    reason: &'static str,
    message: String,
}

impl Failure {
    fn new(status: StatusCode, reason: &'static str, message: impl Into<String>) -> Failure {
        Failure { status, reason, message: message.into() }
    }

    fn busy(what: &str) -> Failure {
        Failure::new(
            StatusCode::TOO_MANY_REQUESTS,
            "slow-down",
            format!("too many {what}: wait a little"),
        )
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "reason": self.reason });
        (self.status, Json(body)).into_response()
    }
}

impl From<LiveError> for Failure {
    fn from(error: LiveError) -> Failure {
        let message = error.to_string();
        let (status, reason) = match &error {
            LiveError::NotFound => (StatusCode::NOT_FOUND, "no-game"),
            LiveError::NotASeat => (StatusCode::FORBIDDEN, "not-a-seat"),
            LiveError::Refused(refusal) => match refusal {
                Refusal::Malformed => (StatusCode::BAD_REQUEST, "malformed"),
                Refusal::NotYourTurn(_) => (StatusCode::CONFLICT, "not-your-turn"),
                Refusal::Over => (StatusCode::CONFLICT, "over"),
                Refusal::Invalid(_) => (StatusCode::CONFLICT, "invalid-move"),
                Refusal::TimeUp(_) => (StatusCode::CONFLICT, "time-up"),
                Refusal::NothingToAnswer(_) => (StatusCode::CONFLICT, "nothing-to-answer"),
                Refusal::NothingToTakeBack => (StatusCode::CONFLICT, "nothing-to-take-back"),
                Refusal::Joined => (StatusCode::CONFLICT, "joined"),
            },
            LiveError::Store(_) | LiveError::Random(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "server")
            }
        };
        Failure::new(status, reason, message)
    }
}

/// The client's address, or the unspecified one where none is known (in-process tests).
pub(crate) fn client(connected: Option<Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    connected.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |Extension(ConnectInfo(addr))| addr.ip())
}

/// The id in a path; a 400 if it cannot be one (an id that can be, but names no game, is a 404
/// where it is looked up).
fn game_id(text: &str) -> Result<GameId, Failure> {
    GameId::parse(text).ok_or_else(|| {
        Failure::new(StatusCode::BAD_REQUEST, "malformed", "a game id is 10 letters and digits")
    })
}

/// Runs `job` on the live games off the async threads (it writes to the store).
async fn blocking<T: Send + 'static>(
    live: &Arc<Live>,
    job: impl FnOnce(&Games<AnyStore>) -> Result<T, LiveError> + Send + 'static,
) -> Result<T, Failure> {
    live.tidy();
    let games = Arc::clone(&live.games);
    tokio::task::spawn_blocking(move || job(&games))
        .await
        .map_err(|_| Failure::new(StatusCode::INTERNAL_SERVER_ERROR, "server", "the job failed"))?
        .map_err(Failure::from)
}

/// The body of `POST /api/live/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    #[serde(default)]
    name: String,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    time: Option<String>,
}

async fn create(
    Extension(live): Extension<Arc<Live>>,
    connected: Option<Extension<ConnectInfo<SocketAddr>>>,
    Body(request): Body<CreateRequest>,
) -> Result<Response, Failure> {
    let bad = |message: String| Failure::new(StatusCode::BAD_REQUEST, "malformed", message);
    let seat = match request.color.as_deref() {
        None | Some("random") => None,
        Some(name) => Some(Seat::parse(name).ok_or_else(|| {
            bad(format!("color is red, blue or random, not `{}`", arbiter_scan::Shown(name)))
        })?),
    };
    let time = match request.time.as_deref().map(str::trim) {
        None | Some("" | "none") => None,
        Some(text) => Some(text.parse::<TimeControl>().map_err(|error| bad(error.to_string()))?),
    };
    if !live.created.take(client(connected), quota::CREATE) {
        return Err(Failure::busy("games created"));
    }
    let new = New { name: request.name, seat, time };
    let created = blocking(&live, move |games| games.create(new, now_ms())).await?;
    let body = serde_json::json!({
        "id": created.id,
        "seat": created.seat,
        "token": created.token,
        "invite": created.invite,
        "path": format!("/duck/game/{}", created.id),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The query of the archive.
#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    player: Option<String>,
    page: Option<u64>,
}

async fn list(
    Extension(live): Extension<Arc<Live>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, Failure> {
    let Query(query) = query.map_err(|rejection| {
        Failure::new(StatusCode::BAD_REQUEST, "malformed", rejection.body_text())
    })?;
    let page = query.page.unwrap_or(1).clamp(1, 1_000_000);
    let filter = Filter { status: query.status, player: query.player };
    let window = Page { offset: (page - 1) * PER_PAGE, limit: PER_PAGE };
    let (games, total) = blocking(&live, move |games| games.list(&filter, window)).await?;
    Ok(Json(serde_json::json!({
        "games": games,
        "total": total,
        "page": page,
        "pages": total.div_ceil(PER_PAGE).max(1),
    })))
}

async fn view(
    Extension(live): Extension<Arc<Live>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<arbiter_live::View>, Failure> {
    let id = game_id(&id)?;
    let viewed = blocking(&live, move |games| games.view(&id, now_ms())).await?;
    Ok(Json(viewed))
}

/// The body of `POST /api/live/games/{id}/seat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    token: String,
}

async fn seat(
    Extension(live): Extension<Arc<Live>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<SeatRequest>,
) -> Result<Json<serde_json::Value>, Failure> {
    let id = game_id(&id)?;
    let seat = blocking(&live, move |games| games.seat(&id, &request.token, now_ms())).await?;
    Ok(Json(serde_json::json!({ "seat": seat })))
}

/// The body of `POST /api/live/games/{id}/act`: the token and the action, flattened.
#[derive(Deserialize)]
struct ActRequest {
    token: String,
    #[serde(flatten)]
    action: Action,
}

async fn act(
    Extension(live): Extension<Arc<Live>>,
    connected: Option<Extension<ConnectInfo<SocketAddr>>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<ActRequest>,
) -> Result<Json<arbiter_live::View>, Failure> {
    let id = game_id(&id)?;
    if !live.acted.take(client(connected), quota::ACT) {
        return Err(Failure::busy("actions"));
    }
    let key = id.clone();
    let acted =
        blocking(&live, move |games| games.act(&key, &request.token, request.action, now_ms()))
            .await;
    // Refused or not, the game may have changed (a clock found run out): everyone is told.
    socket::publish(Arc::clone(&live), id).await;
    acted.map(Json)
}

async fn export(
    Extension(live): Extension<Arc<Live>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<serde_json::Value>, Failure> {
    let id = game_id(&id)?;
    let (official, fen) = blocking(&live, move |games| games.export(&id, now_ms())).await?;
    Ok(Json(serde_json::json!({ "official": official, "fen": fen })))
}

async fn socket(
    Extension(live): Extension<Arc<Live>>,
    connected: Option<Extension<ConnectInfo<SocketAddr>>>,
    UrlPath(id): UrlPath<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Failure> {
    let id = game_id(&id)?;
    let key = id.clone();
    blocking(&live, move |games| games.view(&key, now_ms())).await?;
    let upgrade = upgrade.map_err(|rejection| {
        Failure::new(StatusCode::BAD_REQUEST, "not-a-websocket", rejection.body_text())
    })?;
    let Some(counted) = quota::Sockets::open(&live.sockets, client(connected)) else {
        return Err(Failure::busy("open WebSockets"));
    };
    Ok(upgrade.max_message_size(4096).on_upgrade(move |ws| socket::serve(live, id, ws, counted)))
}
