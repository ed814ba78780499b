//! Serving connections: each accepted socket is served by hyper on a task of its own, within the
//! limits that keep slow or greedy clients from stalling the server: at most
//! [`limits::CONNECTIONS_PER_ADDRESS`] connections from one client address and
//! [`limits::CONNECTIONS`] in all (a socket beyond them is closed at once), and
//! [`limits::HEADER_TIME`] to send a request's headers (or, between requests, the next one's),
//! after which the connection is closed. Bodies have their own deadline (`crate::admission`).
//!
//! On shutdown the listener is closed, every engine search is told to stop, idle connections are
//! closed and busy ones finish their request; after [`limits::SHUTDOWN`] (or a second signal)
//! whatever is left, half-sent requests included, is dropped.

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::{Extension, Router};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;

use crate::limits;

/// The connections open from each client address.
#[derive(Debug, Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted against its address until dropped.
struct Counted {
    table: Arc<PerAddress>,
    address: IpAddr,
    _place: OwnedSemaphorePermit,
}

impl PerAddress {
    /// Counts one more connection from `address`, unless it has its fill.
    fn enter(
        table: &Arc<PerAddress>,
        address: IpAddr,
        place: OwnedSemaphorePermit,
    ) -> Option<Counted> {
        let mut open = table.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(address).or_insert(0);
        if *count >= limits::CONNECTIONS_PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(Counted { table: Arc::clone(table), address, _place: place })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        // The table holds plain counts: a panic elsewhere cannot leave one half-changed.
        let mut open = self.table.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then shuts down as the module says:
/// `stop_searches` is called at once (it also tells the requests still sending their bodies to
/// give up), and `again` (a second signal) cuts the wait short.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()>,
    stop_searches: impl FnOnce(),
    again: impl Future<Output = ()>,
) -> io::Result<()> {
    // Hyper's `GracefulShutdown` cannot watch a connection that may upgrade: each connection
    // watches this instead, and shuts down gracefully when it turns true.
    let (stopping_sender, stopping_receiver) = watch::channel(false);
    let per_address = Arc::new(PerAddress::default());
    let places = Arc::new(Semaphore::new(limits::CONNECTIONS));
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
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else { continue };
        let Some(counted) = PerAddress::enter(&per_address, peer.ip(), place) else { continue };
        // Small replies go out at once rather than waiting for more to send.
        let _ = stream.set_nodelay(true);
        // Handlers that limit each client (the live games) learn its address.
        let service = TowerToHyperService::new(router.clone().layer(Extension(ConnectInfo(peer))));
        // With upgrades, for the live games' WebSockets; an upgraded socket leaves the counts.
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
            drop(counted);
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
