//! What one client may do with the live games, so that no client can fill the store, flood a
//! game or make its watchers be told again and again: a 429 beyond it, naming the limit, with
//! `Retry-After` where waiting helps. A client is a [`ClientKey`] (`crate::proxy`); the values
//! are in [`crate::limits`], some set by the operator ([`Limits`]).
//!
//! | limit | default |
//! | --- | --- |
//! | games created | 20 at once, then one more every 30 s |
//! | game actions (moves, offers, ...) | 20 at once, then 10 a second |
//! | open WebSockets | 16 |
//! | open WebSockets, all clients | 7/8 of `--max-connections`: the rest is kept for pages and moves |
//! | WebSockets opened | 20 at once, then one a second |

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::connection::{Counted, PerClient};
use crate::limits::{self, Limit, Limits};
use crate::metrics::Metrics;
use crate::proxy::ClientKey;

/// A token bucket: `burst` at once, refilled at `per_second`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    burst: f64,
    per_second: f64,
}

impl Rate {
    /// `burst` at once, then one more every `every`.
    pub(crate) fn every(burst: u32, every: Duration) -> Rate {
        Rate { burst: f64::from(burst), per_second: 1.0 / every.as_secs_f64().max(1e-3) }
    }

    /// Games a client may create.
    pub(crate) fn create(limits: &Limits) -> Rate {
        Rate::every(limits.games_at_once, limits.new_game_every)
    }

    /// Actions (moves, offers, resignations) a client may send.
    pub(crate) fn act() -> Rate {
        Rate {
            burst: f64::from(limits::ACTIONS_AT_ONCE),
            per_second: f64::from(limits::ACTIONS_PER_SECOND),
        }
    }

    /// WebSockets a client may open.
    pub(crate) fn open() -> Rate {
        Rate::every(limits::SOCKET_OPENS, limits::SOCKET_OPEN_EVERY)
    }
}

/// Clients remembered before the buckets that are full again are forgotten.
const REMEMBERED: usize = 10_000;

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of one rate, per client.
#[derive(Debug)]
pub(crate) struct Buckets {
    rate: Rate,
    buckets: Mutex<HashMap<ClientKey, Bucket>>,
}

impl Buckets {
    /// Buckets of `rate`.
    pub(crate) fn new(rate: Rate) -> Buckets {
        Buckets { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one token for `client`; when it has none left, the time until it has one.
    pub(crate) fn take(&self, client: ClientKey) -> Result<(), Duration> {
        let (now, rate) = (Instant::now(), self.rate);
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= REMEMBERED {
            buckets.retain(|_, b| {
                b.tokens + now.duration_since(b.at).as_secs_f64() * rate.per_second < rate.burst
            });
        }
        let bucket = buckets.entry(client).or_insert(Bucket { tokens: rate.burst, at: now });
        let refill = now.duration_since(bucket.at).as_secs_f64() * rate.per_second;
        bucket.tokens = (bucket.tokens + refill).min(rate.burst);
        bucket.at = now;
        if bucket.tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate.per_second));
        }
        bucket.tokens -= 1.0;
        Ok(())
    }
}

/// The WebSockets open, per client and in all.
#[derive(Debug)]
pub(crate) struct Sockets {
    open: Arc<PerClient>,
    most: usize,
    all: Arc<AtomicUsize>,
    most_in_all: usize,
    metrics: Arc<Metrics>,
}

/// One open WebSocket, counted against its client, in all and in the metrics until dropped.
#[derive(Debug)]
pub(crate) struct Socket {
    _counted: Counted,
    all: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
}

/// The WebSockets open at once in all: 7/8 of the connections, so that when watchers fill the
/// server its pages and moves are still served.
pub(crate) fn sockets_in_all(limits: &Limits) -> usize {
    (limits.connections - limits.connections / 8).max(1)
}

impl Sockets {
    /// At most [`Limits::sockets_per_client`] sockets per client, [`sockets_in_all`] in all.
    pub(crate) fn new(limits: &Limits, metrics: Arc<Metrics>) -> Sockets {
        Sockets {
            open: Arc::default(),
            most: limits.sockets_per_client,
            all: Arc::default(),
            most_in_all: sockets_in_all(limits),
            metrics,
        }
    }

    /// Counts one more socket of `client`, unless it or the server holds its fill already:
    /// then the limit hit.
    pub(crate) fn open(&self, client: ClientKey) -> Result<Socket, Limit> {
        let counted =
            PerClient::enter(&self.open, client, self.most).ok_or(Limit::SocketsPerClient)?;
        let taken = self.all.fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
            (open < self.most_in_all).then_some(open + 1)
        });
        if taken.is_err() {
            return Err(Limit::Sockets);
        }
        self.metrics.sockets.increment(1.0);
        let (all, metrics) = (Arc::clone(&self.all), Arc::clone(&self.metrics));
        Ok(Socket { _counted: counted, all, metrics })
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.all.fetch_sub(1, Ordering::AcqRel);
        self.metrics.sockets.decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_runs_dry_and_sockets_are_capped() {
        let client = ClientKey::of([127, 0, 0, 1].into());
        let buckets = Buckets::new(Rate { burst: 3.0, per_second: 0.001 });
        assert!((0..3).all(|_| buckets.take(client).is_ok()));
        let wait = buckets.take(client).unwrap_err();
        assert!(wait > Duration::from_secs(900) && wait <= Duration::from_secs(1000), "{wait:?}");
        assert!(buckets.take(ClientKey::of([127, 0, 0, 2].into())).is_ok());
        let limits = Limits { sockets_per_client: 4, connections: 8, ..Limits::default() };
        let sockets = Sockets::new(&limits, Metrics::new());
        let held: Vec<_> = (0..4).map(|_| sockets.open(client).unwrap()).collect();
        assert_eq!(sockets.open(client).err(), Some(Limit::SocketsPerClient));
        drop(held);
        let one = sockets.open(client).unwrap();
        // 7 of the 8 connections may be sockets.
        let others: Vec<_> =
            (0..6).map(|n| sockets.open(ClientKey::of([127, 0, 1, n].into())).unwrap()).collect();
        let over = sockets.open(ClientKey::of([127, 0, 2, 1].into()));
        assert_eq!(over.err(), Some(Limit::Sockets));
        drop((one, others));
    }
}
