//! Learning from the engine, on the server: games analysed on request by background workers
//! (`analyses`), the opening explorer built from the games as they end (`explorer`), and the
//! puzzles with their ratings (`puzzles`). The work is [`arbiter_duck_learn`]'s; what is kept is
//! the store's ([`arbiter_live::learn`]).
//!
//! The workers are threads of their own, [`Settings::workers`] of them (`arbiter serve
//! --analysis-workers N`): each takes the oldest queued analysis from the store, searches it on
//! one thread at the request's fixed nodes, and keeps the result. So at most that many analyses
//! run at once whatever is asked, and a queue past [`MAX_QUEUED`] refuses new requests. An
//! analysis a stopped server left running is queued again when a server starts, and the same
//! positions searched again give the same result. The first worker also reads the games that
//! ended since it last looked into the explorer.

mod analyses;
mod explorer;
mod puzzles;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError, RwLock, Weak};
use std::time::Duration;

use arbiter_duck_engine::search::StopFlag;
use arbiter_duck_learn::explorer::Explorer;
use arbiter_duck_learn::puzzle::Collection;
use arbiter_live::Games;
use axum::Router;
use axum::http::HeaderMap;
use axum::routing::get;

use crate::api::Endpoint;
use crate::assets;
use crate::live::{AnyStore, Live, now_ms};

/// The most analyses waiting at once; past it a request is refused (429) until workers catch up.
pub const MAX_QUEUED: u64 = 1_000;

/// Nodes searched per position unless the request says otherwise.
pub const NODES: u64 = 100_000;

/// The most nodes per position a request may ask for.
pub const MAX_NODES: u64 = 1_000_000;

/// How long an idle worker waits before looking at the store again (another server sharing it
/// may have queued work), and how often the explorer reads the games that ended.
const IDLE: Duration = Duration::from_secs(5);

/// An analysis running this long on a shared store is taken for one its server dropped: queued
/// again when a server starts.
const STALE_MS: u64 = 30 * 60 * 1000;

/// What the learning side of a server is started with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Analyses run at once, each on a thread of its own (0: none are run here).
    pub workers: usize,
    /// Directories of official command lists (self-play games, a match's saves) the explorer
    /// reads at start, beside the live games that end.
    pub explorer_games: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { workers: 1, explorer_games: Vec::new() }
    }
}

/// The settings of the servers started after this call (`arbiter serve` sets them once).
static SETTINGS: Mutex<Option<Settings>> = Mutex::new(None);

/// Sets what the learning side of the servers started from now on runs with.
pub fn configure(settings: Settings) {
    *SETTINGS.lock().unwrap_or_else(PoisonError::into_inner) = Some(settings);
}

fn settings() -> Settings {
    SETTINGS.lock().unwrap_or_else(PoisonError::into_inner).clone().unwrap_or_default()
}

/// What the workers wait on.
struct Queue {
    /// Bumped at each request, so that a waiting worker knows there is work.
    requests: Mutex<u64>,
    wake: Condvar,
    /// Raised when the server goes: the workers end, and a running search stops.
    closed: AtomicBool,
    stop: StopFlag,
}

impl Queue {
    /// Wakes a worker: an analysis was queued.
    fn notify(&self) {
        *self.requests.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.wake.notify_one();
    }

    /// Waits for a request, [`IDLE`] at most.
    fn wait(&self, seen: &mut u64) {
        let requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        let (requests, _) = self
            .wake
            .wait_timeout_while(requests, IDLE, |count| {
                *count == *seen && !self.closed.load(Ordering::Relaxed)
            })
            .unwrap_or_else(PoisonError::into_inner);
        *seen = *requests;
    }
}

/// The learning side of the server.
pub(crate) struct Learn {
    games: Arc<Games<AnyStore>>,
    queue: Arc<Queue>,
    explorer: Arc<RwLock<explorer::Index>>,
    puzzles: Arc<Collection>,
    /// How far the analyses this server runs have come: done and total moves, by id.
    progress: Arc<Mutex<HashMap<String, (usize, usize)>>>,
}

impl Learn {
    /// The learning side over `live`'s store, its workers started.
    pub(crate) fn new(live: &Live) -> Arc<Learn> {
        let settings = settings();
        // Read once per process. A collection that cannot be read is a broken build; the
        // puzzles are then empty and the rest serves on.
        static SHIPPED: OnceLock<Arc<Collection>> = OnceLock::new();
        let puzzles =
            Arc::clone(SHIPPED.get_or_init(|| Arc::new(Collection::shipped().unwrap_or_default())));
        let learn = Arc::new(Learn {
            games: Arc::clone(live.games()),
            queue: Arc::new(Queue {
                requests: Mutex::new(0),
                wake: Condvar::new(),
                closed: AtomicBool::new(false),
                stop: StopFlag::new(),
            }),
            explorer: Arc::new(RwLock::new(explorer::Index::new(Explorer::new()))),
            puzzles,
            progress: Arc::new(Mutex::new(HashMap::new())),
        });
        for number in 0..settings.workers.max(1) {
            let worker = Worker {
                games: Arc::downgrade(&learn.games),
                queue: Arc::clone(&learn.queue),
                explorer: Arc::clone(&learn.explorer),
                progress: Arc::clone(&learn.progress),
                analyses: settings.workers > 0,
                first: number == 0,
                explorer_games: settings.explorer_games.clone(),
            };
            let spawned = std::thread::Builder::new()
                .name(format!("learn-{number}"))
                .spawn(move || worker.run());
            if let Err(error) = spawned {
                eprintln!("arbiter serve: cannot start an analysis worker: {error}");
            }
        }
        learn
    }
}

impl Drop for Learn {
    fn drop(&mut self) {
        self.queue.closed.store(true, Ordering::Relaxed);
        self.queue.stop.stop();
        self.queue.wake.notify_all();
    }
}

/// A worker thread.
struct Worker {
    /// The games, held only while the worker works: once the server has let them go, their
    /// store closes (a SQLite file then folds its write-ahead log in) and the worker ends.
    games: Weak<Games<AnyStore>>,
    queue: Arc<Queue>,
    explorer: Arc<RwLock<explorer::Index>>,
    progress: Arc<Mutex<HashMap<String, (usize, usize)>>>,
    /// Whether it runs analyses (with `--analysis-workers 0` the one thread only feeds the
    /// explorer).
    analyses: bool,
    /// Whether it requeues the analyses a stopped server left and feeds the explorer.
    first: bool,
    explorer_games: Vec<PathBuf>,
}

impl Worker {
    fn run(self) {
        if self.first {
            let Some(games) = self.games.upgrade() else { return };
            let store = games.store();
            let before = if arbiter_live::Store::shared(store) {
                now_ms().saturating_sub(STALE_MS)
            } else {
                u64::MAX
            };
            if let Err(error) = store.requeue_analyses(before) {
                eprintln!("arbiter serve: cannot queue again the analyses left running: {error}");
            }
            explorer::read_directories(&self.explorer, &self.explorer_games, &self.queue.closed);
        }
        let mut seen = 0;
        while !self.queue.closed.load(Ordering::Relaxed) {
            let Some(games) = self.games.upgrade() else { return };
            let worked = self.work(games.store());
            drop(games);
            if !worked {
                self.queue.wait(&mut seen);
            }
        }
    }

    /// One round: the explorer caught up, then one analysis run if one waits. Whether one ran.
    fn work(&self, store: &AnyStore) -> bool {
        if self.first {
            explorer::catch_up(&self.explorer, store);
        }
        if self.analyses {
            match store.claim_analysis(now_ms()) {
                Ok(Some(analysis)) => {
                    analyses::run(store, &self.queue, &self.progress, &self.explorer, analysis);
                    return true;
                }
                Ok(None) => {}
                Err(error) => eprintln!("arbiter serve: cannot take an analysis: {error}"),
            }
        }
        false
    }
}

/// The pages.
pub(crate) fn pages() -> Router {
    Router::new().route(
        "/duck/puzzles",
        get(|headers: HeaderMap| async move { assets::serve("puzzles.html", &headers) }),
    )
}

/// The endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    let mut all = analyses::endpoints();
    all.extend(explorer::endpoints());
    all.extend(puzzles::endpoints());
    all
}
