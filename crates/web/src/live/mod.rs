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
mod view;

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arbiter_live::postgres::Listener;
use arbiter_live::{
    Action, Filter, GameId, Games, LiveError, New, Page, PostgresStore, Refusal, Seat, SqliteStore,
    StoreError, TimeControl,
};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path as UrlPath, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;

use crate::api::{Body, Endpoint};
use crate::assets;
use crate::connection::{ConnectionHeld, Held, Hold};
use crate::limits::{Limit, Limits};
use crate::metrics::Metrics;
use crate::proxy::Client;
use crate::websocket;
use view::Shown;

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
pub(crate) use arbiter_live::any::AnyStore;

/// The live games and everything watching them.
pub(crate) struct Live {
    games: Arc<Games<AnyStore>>,
    /// The URL of the database shared with other servers, if it is.
    shared: Option<String>,
    hub: socket::Hub,
    limits: Limits,
    metrics: Arc<Metrics>,
    created: quota::Buckets,
    acted: quota::Buckets,
    opened: quota::Buckets,
    sockets: quota::Sockets,
    /// When the games in memory were last looked over for idle ones (ms since the epoch).
    tidied: AtomicU64,
}

impl Live {
    /// The games kept in `storage`, within `limits`, counted in `metrics`.
    pub(crate) fn open(
        storage: &Storage,
        limits: Limits,
        metrics: Arc<Metrics>,
    ) -> Result<Arc<Live>, StoreError> {
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
            limits,
            created: quota::Buckets::new(quota::Rate::create(&limits)),
            acted: quota::Buckets::new(quota::Rate::act()),
            opened: quota::Buckets::new(quota::Rate::open()),
            sockets: quota::Sockets::new(&limits, Arc::clone(&metrics)),
            metrics,
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

    /// Whether the store answers now.
    pub(crate) fn ready(&self) -> Result<(), LiveError> {
        self.games.ready()
    }

    /// The games held in memory, and those a socket here watches.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.games.kept(), self.hub.watched().len())
    }

    /// Sets, on `runtime`, the timer of every ongoing game whose clock runs, as the server
    /// starts ([`Live::resume`]), and hears every change committed to a shared database, by this
    /// server or another, and sends it to this server's sockets of the game; the listener is
    /// `None` when the games are not shared. Drop it before the last handle on the games: it
    /// holds only a weak one.
    pub(crate) fn listen(
        self: &Arc<Live>,
        runtime: tokio::runtime::Handle,
    ) -> Result<Option<Listener>, StoreError> {
        runtime.spawn(Arc::clone(self).resume());
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

impl Live {
    /// Takes up every ongoing game with a time control, as the server starts: each is read back
    /// (a clock found run out ends its game at once) and the timer of its running clock is set,
    /// so that a game ends on time though no page opens it after a restart. The games are
    /// listed first and taken up after, since those that end leave the listing of ongoing ones.
    async fn resume(self: Arc<Live>) {
        let mut timed = Vec::new();
        for page in 0.. {
            let filter = Filter { status: Some("ongoing".to_owned()), player: None };
            let window = Page { offset: page * RESUME_PAGE, limit: RESUME_PAGE };
            let Ok((games, total)) = blocking(&self, move |g| g.list(&filter, window)).await else {
                return;
            };
            timed.extend(
                games
                    .iter()
                    .filter(|game| game.time.is_some())
                    .filter_map(|g| GameId::parse(&g.id)),
            );
            if (page + 1) * RESUME_PAGE >= total {
                break;
            }
        }
        for id in timed {
            socket::publish(Arc::clone(&self), id).await;
        }
    }
}

/// Games listed at a time when the server takes up the ongoing ones.
const RESUME_PAGE: u64 = 200;

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
                    offers, the end, the rematch and the FEN; each move judged (`entries`, as \
                    /api/duck/game) and the board with the points each piece can reach \
                    (`position`)",
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
                    request-takeback|accept-takeback|decline-takeback|offer-rematch|\
                    accept-rematch|decline-rematch, command?, name?}: \
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
            about: "WebSocket: the whole game at once, then each change as a delta from the \
                    version sent before, and the spectators",
            route: get(socket),
        },
    ]
}

/// A failed live request: its status, a reason code for programs and a message for people; for
/// a client refused by a limit, the limit and when to try again.
pub(crate) struct Failure {
    status: StatusCode,
    reason: &'static str,
    message: String,
    limit: Option<Limit>,
    retry: Option<Duration>,
}

impl Failure {
    fn new(status: StatusCode, reason: &'static str, message: impl Into<String>) -> Failure {
        Failure { status, reason, message: message.into(), limit: None, retry: None }
    }

    /// A 429: `client` hit `limit`, and may try again after `retry`, if waiting helps.
    fn busy(live: &Live, client: &Client, limit: Limit, retry: Option<Duration>) -> Failure {
        live.metrics.refused(limit);
        tracing::info!(client = %client.addr, limit = limit.name(), "request refused");
        Failure {
            limit: Some(limit),
            retry,
            ..Failure::new(StatusCode::TOO_MANY_REQUESTS, "slow-down", limit.message(&live.limits))
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message, "reason": self.reason });
        if let Some(limit) = self.limit {
            body["limit"] = limit.name().into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(retry) = self.retry {
            // Whole seconds, rounded up: a client that waits that long finds a token.
            let seconds = retry.as_secs() + u64::from(retry.subsec_nanos() > 0);
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
        response
    }
}

impl From<LiveError> for Failure {
    fn from(error: LiveError) -> Failure {
        if let LiveError::Store(StoreError::Unavailable(_)) = error {
            // The database is away (restarting, say): nothing was recorded, and a retry in a
            // moment may succeed.
            let message = format!("{error}: nothing was recorded; try again in a moment");
            return Failure::new(StatusCode::SERVICE_UNAVAILABLE, "store-unavailable", message);
        }
        let message = error.to_string();
        let (status, reason) = match &error {
            LiveError::NotFound => (StatusCode::NOT_FOUND, "no-game"),
            LiveError::NotASeat => (StatusCode::FORBIDDEN, "not-a-seat"),
            LiveError::Refused(refusal) => match refusal {
                Refusal::Malformed(_) => (StatusCode::BAD_REQUEST, "malformed"),
                Refusal::NotYourTurn(_) => (StatusCode::CONFLICT, "not-your-turn"),
                Refusal::Over => (StatusCode::CONFLICT, "over"),
                Refusal::Invalid(_) => (StatusCode::CONFLICT, "invalid-move"),
                Refusal::TimeUp(_) => (StatusCode::CONFLICT, "time-up"),
                Refusal::NothingToAnswer(_) => (StatusCode::CONFLICT, "nothing-to-answer"),
                Refusal::NothingToTakeBack => (StatusCode::CONFLICT, "nothing-to-take-back"),
                Refusal::Joined => (StatusCode::CONFLICT, "joined"),
                Refusal::NotOver => (StatusCode::CONFLICT, "not-over"),
                Refusal::Rematched(_) => (StatusCode::CONFLICT, "rematched"),
            },
            LiveError::Store(_) | LiveError::Random(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "server")
            }
        };
        Failure::new(status, reason, message)
    }
}

/// The client, as the proxy in front says or its connection's peer (`crate::proxy`); the
/// unspecified address where none is known (in-process tests).
pub(crate) fn client(found: Option<Extension<Client>>) -> Client {
    found.map_or(Client::direct(IpAddr::V4(Ipv4Addr::UNSPECIFIED)), |Extension(client)| client)
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
    context: Option<Extension<Arc<crate::Context>>>,
    found: Option<Extension<Client>>,
    headers: HeaderMap,
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
    let client = client(found);
    if let Err(wait) = live.created.take(client.key) {
        return Err(Failure::busy(&live, &client, Limit::Games, Some(wait)));
    }
    let new = New { name: request.name, seat, time };
    let started = Instant::now();
    let created = blocking(&live, move |games| games.create(new, now_ms())).await?;
    live.metrics.commits.record(started.elapsed().as_secs_f64());
    let path = format!("/duck/game/{}", created.id);
    // The links as the players will use them: the site's public address, else the address the
    // creator reached it by.
    let site = context.and_then(|Extension(context)| context.site(&client, &headers));
    let body = serde_json::json!({
        "id": created.id,
        "seat": created.seat,
        "token": created.token,
        "invite": created.invite,
        "url": site.as_ref().map(|site| format!("{site}{path}")),
        "invite_url": site.as_ref().map(|site| format!("{site}{path}#seat={}", created.invite)),
        "path": path,
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
) -> Result<Json<Shown>, Failure> {
    let id = game_id(&id)?;
    let show = socket::shower(&live, &id);
    let viewed = blocking(&live, move |games| games.view(&id, now_ms()).map(show)).await?;
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
    found: Option<Extension<Client>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<ActRequest>,
) -> Result<Json<Shown>, Failure> {
    let id = game_id(&id)?;
    let client = client(found);
    if let Err(wait) = live.acted.take(client.key) {
        return Err(Failure::busy(&live, &client, Limit::Actions, Some(wait)));
    }
    let key = id.clone();
    let moved = matches!(request.action, Action::Move { .. });
    let started = Instant::now();
    let (show, change) = (socket::shower(&live, &id), socket::changer(&live, &id));
    // Refused or not, the game may have changed (a clock found run out): everyone is told, from
    // the same thread as the action, before it is answered.
    let outcome = blocking(&live, move |games| {
        let acted = games.act(&key, &request.token, request.action, now_ms());
        let committed = started.elapsed();
        Ok((acted.map(show), committed, change()))
    })
    .await;
    let (acted, committed) = match outcome {
        Ok((acted, committed, left)) => {
            socket::set_timer(&live, &id, left);
            (acted.map_err(Failure::from), committed)
        }
        Err(failure) => {
            socket::publish(Arc::clone(&live), id).await;
            (Err(failure), started.elapsed())
        }
    };
    if acted.is_ok() {
        live.metrics.commits.record(committed.as_secs_f64());
        if moved {
            live.metrics.moves.increment(1);
        }
    }
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

/// What an open WebSocket holds of the limits, let go when it closes: its place in the
/// client's sockets, and its connection's places (among all connections and its client's), or,
/// through a proxy, its request's place in its client's connections.
pub(crate) struct SocketHold {
    _socket: quota::Socket,
    _connection: Option<Hold>,
    _request: Option<Hold>,
}

impl SocketHold {
    /// Takes over the connection's places (`connection`, or through a proxy `request`'s) for the
    /// socket holding `socket`.
    fn new(
        socket: quota::Socket,
        connection: Option<Extension<ConnectionHeld>>,
        request: Option<Extension<Held>>,
    ) -> SocketHold {
        SocketHold {
            _socket: socket,
            _connection: connection.and_then(|Extension(ConnectionHeld(held))| held.take()),
            _request: request.and_then(|Extension(held)| held.take()),
        }
    }
}

impl Live {
    /// A place for a new WebSocket of `client`, among its own and all sockets, within how fast
    /// one client may open them: refused with the limit that was hit.
    fn socket_place(&self, client: &Client) -> Result<quota::Socket, Failure> {
        let counted = match self.sockets.open(client.key) {
            Ok(counted) => counted,
            // A socket closed elsewhere frees a place: worth trying again soon.
            Err(Limit::Sockets) => {
                let retry = Some(Duration::from_secs(1));
                return Err(Failure::busy(self, client, Limit::Sockets, retry));
            }
            Err(limit) => return Err(Failure::busy(self, client, limit, None)),
        };
        if let Err(wait) = self.opened.take(client.key) {
            return Err(Failure::busy(self, client, Limit::SocketOpens, Some(wait)));
        }
        Ok(counted)
    }

    /// Everything a WebSocket other than a game's (the lobby's) holds while it is open, taken
    /// under the same limits as a game's: see [`Live::socket_place`].
    pub(crate) fn socket_hold(
        &self,
        client: &Client,
        connection: Option<Extension<ConnectionHeld>>,
        request: Option<Extension<Held>>,
    ) -> Result<SocketHold, Failure> {
        Ok(SocketHold::new(self.socket_place(client)?, connection, request))
    }
}

async fn socket(
    Extension(live): Extension<Arc<Live>>,
    found: Option<Extension<Client>>,
    connection: Option<Extension<ConnectionHeld>>,
    request: Option<Extension<Held>>,
    UrlPath(id): UrlPath<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Failure> {
    let id = game_id(&id)?;
    let upgrade = upgrade.map_err(|rejection| {
        Failure::new(StatusCode::BAD_REQUEST, "not-a-websocket", rejection.body_text())
    })?;
    let client = client(found);
    // Counted before the game is read: a client churning sockets is refused before it costs a
    // read of the store.
    let counted = live.socket_place(&client)?;
    let key = id.clone();
    blocking(&live, move |games| games.view(&key, now_ms())).await?;
    let hold = SocketHold::new(counted, connection, request);
    Ok(websocket::bounded(upgrade)
        .on_upgrade(move |ws| socket::serve(live, id, websocket::Bounded::new(ws), hold)))
}
