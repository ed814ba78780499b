//! arbiter's local web app: a Duck Chess board, a skill arena viewer and a chess record checker,
//! served by [axum] with every page and script embedded in the binary.
//!
//! ```
//! use axum::body::Body;
//! use axum::http::Request;
//! use tower::ServiceExt;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let request = Request::post("/api/duck/move")
//!     .header("content-type", "application/json")
//!     .body(Body::from(r#"{"commands": [], "command": "0 3 1 4"}"#))
//!     .unwrap();
//! let response = arbiter_web::app().oneshot(request).await.unwrap();
//! assert_eq!(response.status(), 200);
//! # });
//! ```
//!
//! The pages know no rule: they draw what the JSON API under `/api/` tells them (the points a
//! piece can reach, the result of a command, the events of an arena round, the boards of a
//! record) and send back what the player did, as lichess's chessground does. The API is listed
//! by `GET /api/` and documented in docs/web.md. The server keeps no game between requests: a
//! Duck game travels as its list of commands, an arena game as its input; all it holds is the
//! stop flag of each engine search under way.
//!
//! Modules: [`api`] (what an endpoint is, the error type, the body reader), `duck`, `arena` and
//! `chess` (the endpoints of each game), `engine` (the Duck engine's searches, streamed as JSON
//! lines), `analysis` (a whole game evaluated for the analysis board's graph), `notation` (a move
//! as the board labels it), `routes` (the list of every endpoint, the router and the index built from it),
//! `assets` (the embedded files), [`limits`] (what a request may cost), `work` (the pool that
//! runs rule work off the async threads), `searches` (the engine's own pool, with its queue and
//! the searches' stop flags), [`guard`] (the cross-site rules: which `Host` and `Origin` are
//! served), `admission` (a request's body read within its deadline before it takes one of the
//! places in progress) and `connection` (the sockets: per-address cap, header timeout,
//! shutdown).

#![warn(missing_docs)]

mod accounts;
mod admission;
mod analysis;
pub mod api;
mod arena;
mod assets;
mod chess;
mod connection;
mod duck;
mod engine;
pub mod guard;
mod learn;
pub mod limits;
mod live;
mod lobby;
mod notation;
mod routes;
mod searches;
mod work;

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::routing::get;
use axum::{Extension, Router};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};

pub use guard::Hosts;
pub use learn::{Settings as LearnSettings, configure as configure_learning};
pub use live::Storage;

/// The pages, each an embedded HTML file.
const PAGES: [(&str, &str); 4] = [
    ("/", "index.html"),
    ("/duck", "duck.html"),
    ("/arena", "arena.html"),
    ("/chess", "chess.html"),
];

/// The whole app: pages, assets and API, with the request limits of [`limits`], answering to the
/// loopback names on any port (see [`Hosts`]).
pub fn app() -> Router {
    // Never shut down: the sender is dropped at once.
    let (_, closing) = watch::channel(false);
    build(Hosts::loopback(), limits::BODY_TIME, closing, in_memory()).0
}

/// [`app`] with the live games and the accounts kept in `storage`: for the stores' tests.
#[doc(hidden)]
pub fn app_on(storage: &Storage) -> io::Result<Router> {
    let games = live::Live::open(storage).map_err(|error| io::Error::other(error.to_string()))?;
    let (_, closing) = watch::channel(false);
    Ok(build(Hosts::loopback(), limits::BODY_TIME, closing, games).0)
}

/// Live games kept in memory only, for an app served without a data directory.
fn in_memory() -> Arc<live::Live> {
    // An in-memory SQLite database has no file to fail on.
    live::Live::open(&Storage::Memory).expect("an in-memory SQLite database")
}

/// The app answering to `hosts`, with `body_time` for a request's body to arrive and bodies given
/// up once `closing` turns true, and its searches (to stop them all on shutdown).
fn build(
    hosts: Hosts,
    body_time: Duration,
    closing: watch::Receiver<bool>,
    games: Arc<live::Live>,
) -> (Router, Arc<searches::Searches>) {
    let mut router = Router::new();
    for (path, file) in PAGES {
        router = router.route(
            path,
            get(move |headers: HeaderMap| async move { assets::serve(file, &headers) }),
        );
    }
    let places = Arc::new(Semaphore::new(limits::IN_FLIGHT));
    let room = Arc::new(admission::body_room());
    let searches = searches::Searches::new();
    let router = router
        .route("/assets/{*path}", get(assets::file))
        .merge(routes::router())
        .merge(live::pages())
        .merge(accounts::pages())
        .merge(lobby::pages())
        .merge(learn::pages())
        .fallback(|| async { assets::not_found() })
        .layer(compression())
        .layer(Extension(Arc::clone(&searches)))
        .layer(Extension(accounts::Accounts::new(&games, false)))
        .layer(Extension(lobby::Lobby::new(&games)))
        .layer(Extension(learn::Learn::new(&games)))
        .layer(Extension(games))
        .layer(DefaultBodyLimit::max(limits::BODY))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let (room, places, closing) = (Arc::clone(&room), Arc::clone(&places), closing.clone());
            async move { admission::admit(&room, &places, body_time, closing, request, next).await }
        }))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let hosts = hosts.clone();
            async move { guard::check(&hosts, request, next).await }
        }));
    (router, searches)
}

/// Replies compressed (gzip or brotli) as the request's `Accept-Encoding` allows, but for the
/// engine's streamed lines: a compressor holds back what it is given until it has enough, and a
/// search's lines must arrive as they are found.
fn compression() -> CompressionLayer<impl Predicate> {
    let predicate =
        DefaultPredicate::new().and(NotForContentType::const_new("application/x-ndjson"));
    CompressionLayer::new().compress_when(predicate)
}

/// Serves the app on `listener`, answering to `hosts` on the listener's port, until the first
/// Ctrl-C (SIGINT) or SIGTERM; then shuts down within [`limits::SHUTDOWN`].
pub async fn serve(listener: TcpListener, hosts: Hosts) -> io::Result<()> {
    serve_until(listener, hosts, connection::signal()).await
}

/// Serves the app on `listener`, answering to `hosts` on the listener's port, until `shutdown`
/// completes; then stops every engine search and closes the connections within
/// [`limits::SHUTDOWN`] (sooner at a second Ctrl-C or SIGTERM).
pub async fn serve_until(
    listener: TcpListener,
    hosts: Hosts,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    serve_with(listener, hosts, limits::BODY_TIME, shutdown).await
}

/// [`serve_until`] with `body_time` for each request's body to arrive.
#[doc(hidden)]
pub async fn serve_with(
    listener: TcpListener,
    hosts: Hosts,
    body_time: Duration,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    serve_games(listener, hosts, body_time, in_memory(), shutdown).await
}

/// [`serve_with`] with the live games `games`.
async fn serve_games(
    listener: TcpListener,
    hosts: Hosts,
    body_time: Duration,
    games: Arc<live::Live>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let hosts = hosts.on_port(listener.local_addr()?.port());
    let (closing_sender, closing) = watch::channel(false);
    let (router, searches) = build(hosts, body_time, closing, games);
    let stop = move || {
        searches.stop_all();
        closing_sender.send_replace(true);
    };
    connection::serve(listener, router, shutdown, stop, connection::signal()).await
}

/// Binds `host:port`, calls `ready` with the address bound (the port chosen by the system when
/// `port` is 0), and serves until Ctrl-C or SIGTERM, on a runtime of its own. Requests must name
/// the server by a loopback name, by `host`, or by one of `allowed`, with the port bound.
pub fn run(
    host: &str,
    port: u16,
    allowed: &[String],
    ready: impl FnOnce(SocketAddr),
) -> io::Result<()> {
    run_games(host, port, allowed, &Storage::Memory, ready)
}

/// [`run`] with the live games kept in `storage`.
pub fn run_games(
    host: &str,
    port: u16,
    allowed: &[String],
    storage: &Storage,
    ready: impl FnOnce(SocketAddr),
) -> io::Result<()> {
    let games = live::Live::open(storage).map_err(|error| {
        let place = match storage {
            Storage::Memory => "memory".to_owned(),
            Storage::Directory(dir) => dir.display().to_string(),
            // Never the URL itself: it may hold a password.
            Storage::Postgres(_) => "the PostgreSQL database".to_owned(),
        };
        io::Error::other(format!("cannot open the games in {place}: {error}"))
    })?;
    // The last handle on the games is let go here, off the runtime: a PostgreSQL client runs a
    // runtime of its own, which may not be dropped on an async thread.
    let kept = Arc::clone(&games);
    // Few threads: each one that allocates gets an allocator arena of its own, which keeps
    // the memory it once held; rule work and searches are bounded by cores anyway.
    let cores = limits::search_slots();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .max_blocking_threads(2 * cores + 2)
        .enable_all()
        .build()?;
    // Changes other servers commit to a shared database reach this one's sockets.
    let listener = games.listen(runtime.handle().clone()).map_err(|error| {
        io::Error::other(format!("cannot listen to the games' changes: {error}"))
    })?;
    let mut hosts = Hosts::loopback();
    hosts.allow(&host_name(host));
    for name in allowed {
        hosts.allow(name);
    }
    let served = runtime.block_on(async {
        let listener = TcpListener::bind((host, port)).await?;
        ready(listener.local_addr()?);
        serve_games(listener, hosts, limits::BODY_TIME, games, connection::signal()).await
    });
    // Rule work and stopped searches still on blocking threads are not waited for.
    runtime.shutdown_timeout(Duration::from_millis(200));
    drop(listener);
    drop(kept);
    served
}

/// `host` as it appears in a `Host` header: an IPv6 address in brackets.
fn host_name(host: &str) -> String {
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(v6)) => format!("[{v6}]"),
        _ => host.to_owned(),
    }
}
