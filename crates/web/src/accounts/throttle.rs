//! How often sign-in may be tried, per account and per client, so that passwords cannot be
//! guessed in bulk: a token bucket per key, and a 429 that says when to try again.
//!
//! | limit | value |
//! | --- | --- |
//! | sign-in attempts per account name (existing or not) | 5 at once, then one a minute |
//! | sign-in attempts per client address | 20 at once, then one every 15 s |
//! | accounts made per client address | 5 at once, then one every 10 minutes |
//!
//! A password change counts as a sign-in attempt of its account: it checks the password too.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A token bucket's shape: `burst` at once, refilled at one every `every`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    pub(crate) burst: f64,
    pub(crate) every: Duration,
}

/// Sign-in attempts per account name.
pub(crate) const PER_ACCOUNT: Rate = Rate { burst: 5.0, every: Duration::from_secs(60) };

/// Sign-in attempts per client.
pub(crate) const PER_CLIENT: Rate = Rate { burst: 20.0, every: Duration::from_secs(15) };

/// Accounts made per client.
pub(crate) const SIGN_UPS: Rate = Rate { burst: 5.0, every: Duration::from_secs(600) };

/// Keys remembered before the full buckets are forgotten.
const REMEMBERED: usize = 100_000;

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of one rate, per key.
#[derive(Debug)]
pub(crate) struct Throttle<K> {
    rate: Rate,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq> Throttle<K> {
    /// Buckets of `rate`.
    pub(crate) fn new(rate: Rate) -> Throttle<K> {
        Throttle { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes a token for `key` at `now`, or says how long until there is one.
    pub(crate) fn take(&self, key: K, now: Instant) -> Result<(), Duration> {
        let per_second = 1.0 / self.rate.every.as_secs_f64();
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= REMEMBERED {
            let burst = self.rate.burst;
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_second < burst
            });
        }
        let bucket = buckets.entry(key).or_insert(Bucket { tokens: self.rate.burst, at: now });
        let refill = now.saturating_duration_since(bucket.at).as_secs_f64() * per_second;
        bucket.tokens = (bucket.tokens + refill).min(self.rate.burst);
        bucket.at = now;
        if bucket.tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second));
        }
        bucket.tokens -= 1.0;
        Ok(())
    }
}

/// Whole seconds to wait for `wait`, at least one: a `Retry-After` value.
pub(crate) fn seconds(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_runs_dry_and_says_when_it_has_a_token_again() {
        let throttle = Throttle::new(Rate { burst: 2.0, every: Duration::from_secs(60) });
        let start = Instant::now();
        assert!(throttle.take("ann", start).is_ok());
        assert!(throttle.take("ann", start).is_ok());
        let wait = throttle.take("ann", start).unwrap_err();
        assert_eq!(seconds(wait), 60);
        // Another key has its own bucket.
        assert!(throttle.take("bob", start).is_ok());
        let later = start + Duration::from_secs(45);
        assert_eq!(seconds(throttle.take("ann", later).unwrap_err()), 15);
        assert!(throttle.take("ann", start + Duration::from_secs(61)).is_ok());
        assert!(throttle.take("ann", start + Duration::from_secs(62)).is_err());
    }
}
