//! What one client (one IP address) may do with the live games, so that no client can fill the
//! store or flood a game: a 429 beyond it.
//!
//! | limit | value |
//! | --- | --- |
//! | games created | 20 at once, then one more every 30 s |
//! | game actions (moves, offers, ...) | 20 at once, then 10 a second |
//! | open WebSockets | 16 |

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// A token bucket: `burst` at once, refilled at `per_second`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    burst: f64,
    per_second: f64,
}

/// Games a client may create.
pub(crate) const CREATE: Rate = Rate { burst: 20.0, per_second: 1.0 / 30.0 };

/// Actions (moves, offers, resignations) a client may send.
pub(crate) const ACT: Rate = Rate { burst: 20.0, per_second: 10.0 };

/// WebSockets one client may hold open.
pub(crate) const SOCKETS: usize = 16;

/// Clients remembered before the buckets that are full again are forgotten.
const REMEMBERED: usize = 10_000;

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of one rate, per client.
#[derive(Debug, Default)]
pub(crate) struct Buckets(Mutex<HashMap<IpAddr, Bucket>>);

impl Buckets {
    /// Takes one token for `client` at `rate`; `false` when it has none left.
    pub(crate) fn take(&self, client: IpAddr, rate: Rate) -> bool {
        let now = Instant::now();
        let mut buckets = self.0.lock().unwrap_or_else(PoisonError::into_inner);
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
            return false;
        }
        bucket.tokens -= 1.0;
        true
    }
}

/// The WebSockets open per client.
#[derive(Debug, Default)]
pub(crate) struct Sockets(Mutex<HashMap<IpAddr, usize>>);

/// One open WebSocket, counted until dropped.
pub(crate) struct Socket {
    sockets: Arc<Sockets>,
    client: IpAddr,
}

impl Sockets {
    /// Counts one more socket of `client`, unless it holds [`SOCKETS`] already.
    pub(crate) fn open(sockets: &Arc<Sockets>, client: IpAddr) -> Option<Socket> {
        let mut open = sockets.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(client).or_insert(0);
        if *count >= SOCKETS {
            return None;
        }
        *count += 1;
        Some(Socket { sockets: Arc::clone(sockets), client })
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        let mut open = self.sockets.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_runs_dry_and_sockets_are_capped() {
        let buckets = Buckets::default();
        let client = IpAddr::from([127, 0, 0, 1]);
        let rate = Rate { burst: 3.0, per_second: 0.001 };
        assert!((0..3).all(|_| buckets.take(client, rate)));
        assert!(!buckets.take(client, rate));
        assert!(buckets.take(IpAddr::from([127, 0, 0, 2]), rate));
        let sockets = Arc::new(Sockets::default());
        let held: Vec<_> = (0..SOCKETS).map(|_| Sockets::open(&sockets, client).unwrap()).collect();
        assert!(Sockets::open(&sockets, client).is_none());
        drop(held);
        assert!(Sockets::open(&sockets, client).is_some());
    }
}
