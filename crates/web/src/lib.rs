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
//! places in progress), `connection` (the sockets: caps in all and per client, header timeout,
//! shutdown), [`proxy`] (who the client is, behind a trusted reverse proxy too), `websocket`
//! (a WebSocket's bounds), `health` (`/healthz`, `/readyz`, `/metrics` for the operator) and
//! `metrics` (the figures).
//!
//! A server is configured by a [`Config`]: the names it answers to, the [`limits::Limits`] an
//! operator may set, the proxies it trusts and its public address.

#![warn(missing_docs)]

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
mod health;
pub mod limits;
mod live;
mod metrics;
mod notation;
pub mod proxy;
mod routes;
mod searches;
mod websocket;
mod work;

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::{Extension, Router};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};

pub use guard::{Hosts, PublicUrl};
pub use limits::Limits;
pub use live::Storage;
pub use proxy::Proxies;

use connection::{Held, Hold, PerClient};
use limits::Limit;
use proxy::Client;

/// How a server runs: the names it answers to, its limits, the reverse proxies it trusts to say
/// who their clients are, its public address, and who may read its health and metrics.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The names requests may give in `Host` (the port is the listener's).
    pub hosts: Hosts,
    /// The limits on connections, sockets and games created.
    pub limits: Limits,
    /// The proxies whose forwarding headers are believed (`crate::proxy`).
    pub proxies: Proxies,
    /// The site's address from outside, through its proxy: its name is accepted in `Host`, its
    /// origin in `Origin`, and it begins the links the server gives.
    pub public_url: Option<PublicUrl>,
    /// Serve `/healthz`, `/readyz` and `/metrics` to every client, not only to loopback and the
    /// trusted proxies.
    pub metrics_public: bool,
}

/// What every part of one server shares: its limits, the proxies it trusts, what each client
/// holds open, its metrics.
pub(crate) struct Context {
    pub(crate) limits: Limits,
    pub(crate) proxies: Proxies,
    pub(crate) per_client: Arc<PerClient>,
    pub(crate) metrics: Arc<metrics::Metrics>,
    pub(crate) public_url: Option<PublicUrl>,
    pub(crate) metrics_public: bool,
}

impl Context {
    /// The site's address as `client` reached it, for the links the server gives: the public
    /// URL, else the scheme (as a trusted proxy says) and the `Host` of the request.
    pub(crate) fn site(&self, client: &Client, headers: &HeaderMap) -> Option<String> {
        if let Some(url) = &self.public_url {
            return Some(url.origin());
        }
        let host = headers.get(axum::http::header::HOST)?.to_str().ok()?;
        let scheme = if client.https { "https" } else { "http" };
        Some(format!("{scheme}://{host}"))
    }

    fn new(config: &Config, metrics: Arc<metrics::Metrics>) -> Arc<Context> {
        Arc::new(Context {
            limits: config.limits,
            proxies: config.proxies.clone(),
            per_client: Arc::default(),
            metrics,
            public_url: config.public_url.clone(),
            metrics_public: config.metrics_public,
        })
    }
}

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
    let config = Config::default();
    let context = Context::new(&config, metrics::Metrics::new());
    let games = in_memory(&context);
    build(config.hosts, limits::BODY_TIME, closing, games, context).0
}

/// Live games kept in memory only, for an app served without a data directory.
fn in_memory(context: &Context) -> Arc<live::Live> {
    // An in-memory SQLite database has no file to fail on.
    live::Live::open(&Storage::Memory, context.limits, Arc::clone(&context.metrics))
        .expect("an in-memory SQLite database")
}

/// The app answering to `hosts`, with `body_time` for a request's body to arrive and bodies given
/// up once `closing` turns true, and its searches (to stop them all on shutdown).
fn build(
    hosts: Hosts,
    body_time: Duration,
    closing: watch::Receiver<bool>,
    games: Arc<live::Live>,
    context: Arc<Context>,
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
        .merge(health::router())
        .fallback(|| async { assets::not_found() })
        .layer(compression())
        .layer(Extension(Arc::clone(&searches)))
        .layer(Extension(games))
        .layer(Extension(Arc::clone(&context)))
        .layer(DefaultBodyLimit::max(limits::BODY))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let (room, places, closing) = (Arc::clone(&room), Arc::clone(&places), closing.clone());
            async move { admission::admit(&room, &places, body_time, closing, request, next).await }
        }))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let hosts = hosts.clone();
            async move { guard::check(&hosts, request, next).await }
        }))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let context = Arc::clone(&context);
            async move { identify(&context, request, next).await }
        }));
    (router, searches)
}

/// Finds the request's client (`crate::proxy`) for the handlers, the limits and the logs; counts
/// a client a trusted proxy forwards against its connections while the request lasts (a
/// WebSocket takes the count over); and times the request.
async fn identify(context: &Context, mut request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    let client = match peer {
        Some(peer) => context.proxies.client_of(peer, request.headers()),
        None => Client::direct(IpAddr::V4(Ipv4Addr::UNSPECIFIED)),
    };
    if client.forwarded {
        let most = context.limits.connections_per_client;
        let Some(counted) = PerClient::enter(&context.per_client, client.key, most) else {
            context.metrics.refused(Limit::ConnectionsPerClient);
            tracing::info!(client = %client.addr, limit = Limit::ConnectionsPerClient.name(),
                "request refused");
            return connection::refused(Limit::ConnectionsPerClient, &context.limits);
        };
        request.extensions_mut().insert(Held::new(Hold::client(counted)));
    }
    request.extensions_mut().insert(client);
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let took = started.elapsed();
    context.metrics.request(method.as_str(), took);
    tracing::debug!(
        client = %client.addr,
        %method,
        path,
        status = response.status().as_u16(),
        ms = took.as_secs_f64() * 1e3,
        "request"
    );
    response
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
    let context = Context::new(&Config::default(), metrics::Metrics::new());
    let games = in_memory(&context);
    serve_games(listener, hosts, body_time, games, context, shutdown).await
}

/// [`serve_until`] with `config`: its names, limits, proxies and public address.
pub async fn serve_config(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let context = Context::new(&config, metrics::Metrics::new());
    let games = in_memory(&context);
    serve_games(listener, config.hosts, limits::BODY_TIME, games, context, shutdown).await
}

/// [`serve_with`] with the live games `games`.
async fn serve_games(
    listener: TcpListener,
    hosts: Hosts,
    body_time: Duration,
    games: Arc<live::Live>,
    context: Arc<Context>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut hosts = hosts.on_port(listener.local_addr()?.port());
    if let Some(url) = &context.public_url {
        hosts.public(url.clone());
    }
    context.metrics.keep_up();
    let (closing_sender, closing) = watch::channel(false);
    let (router, searches) = build(hosts, body_time, closing, games, Arc::clone(&context));
    let stop = move || {
        searches.stop_all();
        closing_sender.send_replace(true);
    };
    connection::serve(listener, router, context, shutdown, stop, connection::signal()).await
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
    let mut config = Config::default();
    for name in allowed {
        config.hosts.allow(name);
    }
    run_config(host, port, config, storage, ready)
}

/// [`run_games`] with `config`, which gives the names allowed besides `host` and the loopback
/// ones. The soft limit on open files is raised to the hard one first, and the connections
/// allowed are cut to what it leaves room for (with a warning).
pub fn run_config(
    host: &str,
    port: u16,
    mut config: Config,
    storage: &Storage,
    ready: impl FnOnce(SocketAddr),
) -> io::Result<()> {
    if let Some(files) = raise_file_limit() {
        let room = files.saturating_sub(limits::SPARE_FILES).max(1);
        if config.limits.connections > room {
            tracing::warn!(
                asked = config.limits.connections,
                allowed = room,
                open_files = files,
                "--max-connections is more than the limit on open files leaves room for \
                 (raise it with ulimit -n or LimitNOFILE=): connections capped"
            );
            config.limits.connections = room;
        }
    }
    let context = Context::new(&config, metrics::Metrics::new());
    let games = live::Live::open(storage, context.limits, Arc::clone(&context.metrics));
    let games = games.map_err(|error| {
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
    let mut hosts = config.hosts;
    hosts.allow(&host_name(host));
    let served = runtime.block_on(async {
        let listener = TcpListener::bind((host, port)).await?;
        let bound = listener.local_addr()?;
        tracing::info!(
            address = %bound,
            public_url = context.public_url.as_ref().map(ToString::to_string),
            max_connections = context.limits.connections,
            "listening"
        );
        ready(bound);
        let body_time = limits::BODY_TIME;
        serve_games(listener, hosts, body_time, games, context, connection::signal()).await
    });
    // Rule work and stopped searches still on blocking threads are not waited for.
    runtime.shutdown_timeout(Duration::from_millis(200));
    drop(listener);
    drop(kept);
    served
}

/// Raises the soft limit on open files to the hard one: the new soft limit, if it can be read.
fn raise_file_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `getrlimit` and `setrlimit` read and write the struct given, nothing else.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// `host` as it appears in a `Host` header: an IPv6 address in brackets.
fn host_name(host: &str) -> String {
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(v6)) => format!("[{v6}]"),
        _ => host.to_owned(),
    }
}
