//! Serving connections: each accepted socket is served by hyper on a task of its own, within the
//! limits that keep slow or greedy clients from stalling the server: at most
//! [`Limits::connections_per_client`] connections from one client and [`Limits::connections`] in
//! all, and [`limits::HEADER_TIME`] to send a request's headers (or, between requests, the next
//! one's), after which the connection is closed. Bodies have their own deadline
//! (`crate::admission`).
//!
//! A connection beyond a limit is answered at once, without reading its request, with a 503
//! (the server is full) or a 429 (its client holds enough) whose JSON names the limit, and is
//! closed. A connection upgraded to a WebSocket keeps its place in both counts until the socket
//! closes: the socket takes over the connection's [`Hold`]. A connection from a trusted proxy
//! counts in the total only; its requests count against the client it forwards, for as long as
//! each is handled, and a WebSocket for as long as it is open (`crate::lib`'s `identify`).
//!
//! On shutdown the listener is closed, every engine search is told to stop, idle connections are
//! closed and busy ones finish their request; after [`limits::SHUTDOWN`] (or a second signal)
//! whatever is left, half-sent requests included, is dropped.

use std::collections::HashMap;
use std::io;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::{Extension, Router};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;

use crate::Context;
use crate::limits::{self, Limit, Limits};
use crate::metrics::Metrics;
use crate::proxy::{Client, ClientKey};

/// Connections refused at once: each is answered and closed within [`REFUSAL_TIME`]; beyond
/// them a refused connection is closed unanswered.
const REFUSING: usize = 32;

/// The longest a refused connection is kept to read its request before it is closed (closing
/// with the request unread would reset the connection and lose the answer).
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// What is open per client: connections, or WebSockets.
#[derive(Debug, Default)]
pub(crate) struct PerClient(Mutex<HashMap<ClientKey, usize>>);

/// One thing counted against its client until dropped.
#[derive(Debug)]
pub(crate) struct Counted {
    table: Arc<PerClient>,
    key: ClientKey,
}

impl PerClient {
    /// Counts one more for `key`, unless it holds `most` already.
    pub(crate) fn enter(table: &Arc<PerClient>, key: ClientKey, most: usize) -> Option<Counted> {
        let mut open = table.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= most {
            if *count == 0 {
                open.remove(&key);
            }
            return None;
        }
        *count += 1;
        Some(Counted { table: Arc::clone(table), key })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        // The table holds plain counts: a panic elsewhere cannot leave one half-changed.
        let mut open = self.table.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// A place among the connections, counted in the metrics until dropped.
#[derive(Debug)]
struct Place {
    _permit: OwnedSemaphorePermit,
    metrics: Arc<Metrics>,
}

impl Place {
    fn new(permit: OwnedSemaphorePermit, metrics: &Arc<Metrics>) -> Place {
        metrics.connections.increment(1.0);
        Place { _permit: permit, metrics: Arc::clone(metrics) }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.metrics.connections.decrement(1.0);
    }
}

/// What a connection or a request holds of the limits: a place among the connections and its
/// client's count (either may be absent). A WebSocket takes it over for its life.
#[derive(Debug, Default)]
pub(crate) struct Hold {
    _place: Option<Place>,
    _client: Option<Counted>,
}

impl Hold {
    /// A request's hold: its forwarded client's count.
    pub(crate) fn client(counted: Counted) -> Hold {
        Hold { _place: None, _client: Some(counted) }
    }
}

/// A hold shared between a connection (or a request) and what it serves: a WebSocket takes it
/// out, and it is let go with the last of them otherwise.
#[derive(Debug, Clone, Default)]
pub(crate) struct Held(Arc<Mutex<Option<Hold>>>);

impl Held {
    pub(crate) fn new(hold: Hold) -> Held {
        Held(Arc::new(Mutex::new(Some(hold))))
    }

    /// Takes the hold out, to keep it as long as a WebSocket lives.
    pub(crate) fn take(&self) -> Option<Hold> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// The connection's own hold, in each of its requests' extensions.
#[derive(Debug, Clone)]
pub(crate) struct ConnectionHeld(pub(crate) Held);

/// Serves `router` on `listener` until `shutdown` completes, then shuts down as the module says:
/// `stop_searches` is called at once (it also tells the requests still sending their bodies to
/// give up), and `again` (a second signal) cuts the wait short.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    context: Arc<Context>,
    shutdown: impl Future<Output = ()>,
    stop_searches: impl FnOnce(),
    again: impl Future<Output = ()>,
) -> io::Result<()> {
    // Hyper's `GracefulShutdown` cannot watch a connection that may upgrade: each connection
    // watches this instead, and shuts down gracefully when it turns true.
    let (stopping_sender, stopping_receiver) = watch::channel(false);
    let places = Arc::new(Semaphore::new(context.limits.connections));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits::HEADER_TIME);
    let mut connections = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before it was accepted:
                    // the listener itself is fine, so wait a little instead of spinning.
                    if !is_per_connection(&error) {
                        tracing::warn!(%error, "cannot accept a connection");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&places).try_acquire_owned() else {
            refuse(stream, Client::direct(peer.ip()), Limit::Connections, &context, &refusing);
            continue;
        };
        let place = Place::new(permit, &context.metrics);
        // A trusted proxy's connection carries many clients: each of its requests is counted
        // against the client it forwards.
        let counted = if context.proxies.trusts(peer.ip()) {
            None
        } else {
            let client = Client::direct(peer.ip());
            let most = context.limits.connections_per_client;
            match PerClient::enter(&context.per_client, client.key, most) {
                Some(counted) => Some(counted),
                None => {
                    drop(place);
                    refuse(stream, client, Limit::ConnectionsPerClient, &context, &refusing);
                    continue;
                }
            }
        };
        let held = Held::new(Hold { _place: Some(place), _client: counted });
        // Small replies go out at once rather than waiting for more to send.
        let _ = stream.set_nodelay(true);
        // Handlers learn the peer's address, and a WebSocket takes over the connection's hold.
        let service = TowerToHyperService::new(
            router
                .clone()
                .layer(Extension(ConnectInfo(peer)))
                .layer(Extension(ConnectionHeld(held.clone()))),
        );
        // With upgrades, for the live games' WebSockets.
        let connection = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
        let mut stopping = stopping_receiver.clone();
        // Forget the connections that have ended, so that the set stays as small as those open.
        while connections.try_join_next().is_some() {}
        connections.spawn(async move {
            let mut connection = pin!(connection);
            // A connection's error (a timeout, a reset) concerns that client alone.
            tokio::select! {
                _ = connection.as_mut() => {}
                () = async { let _ = stopping.wait_for(|&stopping| stopping).await; } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(held);
        });
    }
    drop(listener);
    stop_searches();
    stopping_sender.send_replace(true);
    tokio::select! {
        () = async { while connections.join_next().await.is_some() {} } => {}
        () = tokio::time::sleep(limits::SHUTDOWN) => {}
        () = again => {}
    }
    // Whatever is left is dropped, its socket closed.
    connections.abort_all();
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Answers `stream`, refused by `limit`, with a 503 or a 429 that names it, and closes it; at
/// most [`REFUSING`] at once, the others are closed unanswered.
fn refuse(
    mut stream: TcpStream,
    client: Client,
    limit: Limit,
    context: &Context,
    refusing: &Arc<Semaphore>,
) {
    context.metrics.refused(limit);
    tracing::info!(client = %client.addr, limit = limit.name(), "connection refused");
    let Ok(permit) = Arc::clone(refusing).try_acquire_owned() else { return };
    let answer = refusal(limit, &context.limits);
    tokio::spawn(async move {
        let _permit = permit;
        let _ = tokio::time::timeout(REFUSAL_TIME, async {
            stream.write_all(answer.as_bytes()).await?;
            stream.shutdown().await?;
            let mut sink = [0; 1024];
            while stream.read(&mut sink).await? > 0 {}
            io::Result::Ok(())
        })
        .await;
    });
}

/// The answer to a request refused by `limit`: a 503 or a 429 naming it, with `Retry-After`.
pub(crate) fn refused(limit: Limit, limits: &Limits) -> axum::response::Response {
    use axum::response::IntoResponse;
    let status = match limit {
        Limit::Connections => axum::http::StatusCode::SERVICE_UNAVAILABLE,
        _ => axum::http::StatusCode::TOO_MANY_REQUESTS,
    };
    let body = serde_json::json!({
        "error": limit.message(limits),
        "reason": "slow-down",
        "limit": limit.name(),
    });
    (status, [(axum::http::header::RETRY_AFTER, "1")], axum::Json(body)).into_response()
}

/// The whole answer to a connection refused by `limit`.
fn refusal(limit: Limit, limits: &Limits) -> String {
    let status = match limit {
        Limit::Connections => "503 Service Unavailable",
        _ => "429 Too Many Requests",
    };
    let body = serde_json::json!({
        "error": limit.message(limits),
        "reason": "slow-down",
        "limit": limit.name(),
    })
    .to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Whether an `accept` error concerns only the connection being accepted.
fn is_per_connection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::Interrupted
    )
}

/// Completes at the first Ctrl-C (SIGINT) or, on Unix, SIGTERM.
pub(crate) async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = match signal(SignalKind::terminate()) {
            Ok(terminate) => terminate,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
