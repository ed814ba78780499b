//! The engine's searches: a pool of their own beside [`crate::work`]'s, so that a search, which
//! keeps a core busy for all its time, never delays the rule work of other requests.
//!
//! At most [`limits::search_slots`] searches (one per core) run at once and at most
//! [`limits::SEARCH_QUEUE`] more wait for a core; a request beyond them is refused at once with a
//! 429, never queued without bound. A search ends at the first of: its own limits, the time cap
//! (a watchdog raises its stop flag at its time per move, whatever the engine does with its
//! limits), a stop asked for by its id (`POST /api/duck/engine/stop`), or its client going away
//! (the reply's body is dropped, which raises the flag; a search still waiting for a core is then
//! never started).
//!
//! The engines, each with its transposition table, are kept and lent to one search at a time, so
//! that their memory is allocated once: a table allocated per search would be freed into the
//! allocator's arena of whichever blocking thread ran it, and the server's memory would grow with
//! the number of those threads.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use arbiter_duck_engine::engine::Engine;
use arbiter_duck_engine::search::StopFlag;
use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::ApiError;
use crate::limits;

/// The searches of one app: the permits that bound them and the stop flags of those admitted.
#[derive(Debug)]
pub(crate) struct Searches {
    /// One permit per search admitted, running or waiting.
    admitted: Arc<Semaphore>,
    /// One permit per search running.
    running: Arc<Semaphore>,
    /// The stop flag of each search admitted, by id.
    flags: Mutex<HashMap<String, StopFlag>>,
    /// The engines not searching now: at most one per core, since a search holds one.
    engines: Mutex<Vec<Engine>>,
    /// Ids are a counter hashed with random keys, so that one client cannot guess another's.
    ids: RandomState,
    counter: AtomicU64,
}

/// An admitted search: its id, its stop flag, and its place in the pool until it is dropped.
#[derive(Debug)]
pub(crate) struct Ticket {
    searches: Arc<Searches>,
    id: String,
    stop: StopFlag,
    _admitted: OwnedSemaphorePermit,
}

impl Searches {
    /// An empty pool.
    pub(crate) fn new() -> Arc<Searches> {
        let slots = limits::search_slots();
        Arc::new(Searches {
            admitted: Arc::new(Semaphore::new(slots + limits::SEARCH_QUEUE)),
            running: Arc::new(Semaphore::new(slots)),
            flags: Mutex::new(HashMap::new()),
            engines: Mutex::new(Vec::new()),
            ids: RandomState::new(),
            counter: AtomicU64::new(0),
        })
    }

    /// Admits one more search, or refuses it with a 429 when every core is taken and the queue
    /// is full.
    pub(crate) fn admit(self: &Arc<Searches>) -> Result<Ticket, ApiError> {
        let permit = Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the engine is busy: {} searches are running and {} waiting, the most the \
                     server takes; try again in a moment",
                    limits::search_slots(),
                    limits::SEARCH_QUEUE
                ),
            )
        })?;
        let number = self.counter.fetch_add(1, Ordering::Relaxed);
        let id = format!("{:016x}", self.ids.hash_one(number));
        let stop = StopFlag::new();
        self.flags().insert(id.clone(), stop.clone());
        Ok(Ticket { searches: Arc::clone(self), id, stop, _admitted: permit })
    }

    /// Raises the stop flag of the search `id`; false when no such search is admitted (it has
    /// ended, or never was).
    pub(crate) fn stop(&self, id: &str) -> bool {
        self.flags().get(id).map(StopFlag::stop).is_some()
    }

    /// The searches running now (not those waiting).
    pub(crate) fn running(&self) -> usize {
        limits::search_slots().saturating_sub(self.running.available_permits())
    }

    /// Raises the stop flag of every search admitted, running or waiting (the server is
    /// shutting down).
    pub(crate) fn stop_all(&self) {
        self.flags().values().for_each(StopFlag::stop);
    }

    /// The stop flag of the search `id`, while it is admitted.
    #[cfg(test)]
    pub(crate) fn flag(&self, id: &str) -> Option<StopFlag> {
        self.flags().get(id).cloned()
    }

    /// Waits until no search is admitted, running or waiting; then no id is known, and at most
    /// one engine per core is kept.
    #[cfg(test)]
    pub(crate) async fn idle(&self) {
        let places = limits::search_slots() + limits::SEARCH_QUEUE;
        // The semaphore is never closed.
        let all = self.admitted.acquire_many(places as u32).await;
        drop(all);
        assert!(self.flags().is_empty());
        assert!(self.engines().len() <= limits::search_slots());
    }

    fn flags(&self) -> MutexGuard<'_, HashMap<String, StopFlag>> {
        // The map is always whole: a panic elsewhere cannot leave it half-changed.
        self.flags.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn engines(&self) -> MutexGuard<'_, Vec<Engine>> {
        // Engines are pushed and popped whole.
        self.engines.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Ticket {
    /// The search's id, for `POST /api/duck/engine/stop`.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The search's stop flag.
    pub(crate) fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// Waits for a free core, unless `cancelled` completes first (then `None`), and runs `job`
    /// on a blocking thread with an engine that has forgotten its earlier searches and the stop
    /// flag, raising the flag after `cap` if the job is still running then. `None` also when the
    /// job panicked.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        cap: Duration,
        cancelled: impl Future<Output = ()>,
        job: impl FnOnce(&mut Engine, &StopFlag) -> T + Send + 'static,
    ) -> Option<T> {
        let running = Arc::clone(&self.searches.running);
        let _permit = tokio::select! {
            // The semaphore is never closed.
            permit = running.acquire_owned() => permit.ok()?,
            () = cancelled => return None,
        };
        let stop = self.stop.clone();
        let watchdog = tokio::spawn({
            let stop = self.stop.clone();
            async move {
                tokio::time::sleep(cap).await;
                stop.stop();
            }
        });
        let engine = self.searches.engines().pop();
        let outcome = tokio::task::spawn_blocking(move || {
            // A search's answer depends on its request alone, not on the searches before it.
            let mut engine = engine.map_or_else(
                || Engine::new(limits::SEARCH_HASH_MB),
                |mut engine| {
                    engine.new_game();
                    engine
                },
            );
            let found = job(&mut engine, &stop);
            (engine, found)
        })
        .await;
        watchdog.abort();
        // An engine whose search panicked is dropped; the next search makes a new one.
        let (engine, found) = outcome.ok()?;
        self.searches.engines().push(engine);
        Some(found)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.stop.stop();
        self.searches.flags().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_one_search_per_core_and_the_queue_then_refuses() {
        let searches = Searches::new();
        let tickets: Vec<Ticket> = (0..limits::search_slots() + limits::SEARCH_QUEUE)
            .map(|_| searches.admit().unwrap())
            .collect();
        let refused = searches.admit().unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.message.starts_with("the engine is busy"), "{}", refused.message);

        // Ids differ, and a stop reaches exactly the search named.
        let mut ids: Vec<&str> = tickets.iter().map(Ticket::id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), tickets.len());
        assert!(searches.stop(tickets[1].id()));
        let stopped: Vec<bool> = tickets.iter().map(|t| t.stop_flag().is_stopped()).collect();
        assert_eq!(stopped.iter().filter(|&&s| s).count(), 1);
        assert!(stopped[1]);
        assert!(!searches.stop("0123456789abcdef"));

        // A ticket dropped frees its place, and its id is forgotten.
        let mut tickets = tickets;
        let gone = tickets.pop().unwrap();
        let (id, flag) = (gone.id().to_owned(), gone.stop_flag().clone());
        drop(gone);
        assert!(flag.is_stopped());
        assert!(!searches.stop(&id));
        assert!(searches.admit().is_ok());
    }
}
