//! The live games' load test: many games at once against `arbiter serve`, each between two
//! clients that hold a WebSocket on it and play random valid moves (drawn with
//! [`arbiter_duck`]'s move generation), as two browsers would.
//!
//! Each game has a client address of its own on the loopback network (127.1.0.1, 127.1.0.2, ...):
//! the server's quotas count per client address (20 games created at once, 10 actions a second,
//! 16 WebSockets), so each game stays within them with the server's defaults untouched. A game's
//! two players share its address and one kept-alive HTTP connection, since they move in turn.
//!
//! Each game may also be watched by spectators (`--spectators N`), each a WebSocket of its own
//! from the game's address, opened once every game is set up: the server's memory before and
//! after gives what an idle socket costs it.
//!
//! The run measures the moves acknowledged a second, the time from a move sent to the opponent's
//! socket showing it and to each spectator's (p50, p90, p99, max), the server's memory, and at
//! the end reads the server's database ([`check`]): every acknowledged move must be stored
//! exactly once, in order, and nothing else.
//!
//! Modules: [`http`] (the JSON requests), [`play`] (one game: set up, then played), [`check`]
//! (the database against what was acknowledged), [`server`] (the server started, its memory)
//! and [`report`] (the figures and their table).

pub mod check;
pub mod http;
pub mod play;
pub mod report;
pub mod server;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

pub use check::Check;
pub use report::Report;

/// Why the load could not run, or a game stopped.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A request failed on the way.
    #[error("{0}")]
    Http(String),
    /// A WebSocket failed or showed nothing in time.
    #[error("WebSocket: {0}")]
    Socket(String),
    /// The server refused what the game asked.
    #[error("refused with {0}: {1}")]
    Refused(u16, String),
    /// The rules here and the server's disagree about a move the server accepted.
    #[error("the server accepted a move the rules here refuse: {0}")]
    Diverged(String),
    /// The server could not be started.
    #[error("server: {0}")]
    Server(String),
    /// The database could not be read.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// A file or directory failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// How much load.
#[derive(Debug, Clone)]
pub struct Options {
    /// Games played at once.
    pub games: usize,
    /// Plies after which a game is left, if it has not ended.
    pub moves: usize,
    /// The seed of the random moves (game `i` draws from `seed + i`).
    pub seed: u64,
    /// Games being set up at once.
    pub setting_up: usize,
    /// The mean pause before each move, as a player thinks (each drawn between half and one and
    /// a half times it): zero sends each move as soon as the opponent's has been shown, which
    /// keeps the server saturated.
    pub think: Duration,
    /// Spectators watching each game, each on a WebSocket of its own.
    pub spectators: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 1_000,
            moves: 100,
            seed: 1,
            setting_up: 32,
            think: Duration::ZERO,
            spectators: 0,
        }
    }
}

/// The server under load.
#[derive(Debug, Clone)]
pub struct Target {
    /// Where it listens: an IPv4 loopback address.
    pub addr: SocketAddr,
    /// Its data directory, whose database is checked at the end.
    pub data_dir: PathBuf,
    /// Its process, whose memory is read; `None` reads none.
    pub pid: Option<u32>,
}

/// The client address of game `index`: 127.1.0.1 onwards, 250 to a block.
fn address(index: usize) -> IpAddr {
    let byte = |value: usize| u8::try_from(value % 250).unwrap_or(0);
    IpAddr::V4(Ipv4Addr::new(127, 1 + byte(index / 62_500), byte(index / 250), byte(index) + 1))
}

/// The most games one run can give addresses of their own.
pub const MOST_GAMES: usize = 62_500 * 250;

/// Runs the load on `target`: sets every game up, plays them all at once, then checks the
/// database.
pub async fn run(options: &Options, target: &Target) -> Result<Report, LoadError> {
    if !target.addr.ip().is_loopback() || !target.addr.is_ipv4() {
        return Err(LoadError::Server(format!(
            "{} is not an IPv4 loopback address: the games' clients need addresses of their own \
             on the loopback network",
            target.addr
        )));
    }
    let idle = target.pid.and_then(server::memory);
    let setting_up = Arc::new(Semaphore::new(options.setting_up.max(1)));
    let mut setups = JoinSet::new();
    let started = Instant::now();
    for index in 0..options.games.min(MOST_GAMES) {
        let (setting_up, server) = (Arc::clone(&setting_up), target.addr);
        setups.spawn(async move {
            let _place = setting_up.acquire_owned().await;
            (index, play::set_up(address(index), server, index).await)
        });
    }
    let mut seated = Vec::with_capacity(options.games);
    let mut failures = Vec::new();
    while let Some(done) = setups.join_next().await {
        match done {
            Ok((index, Ok(game))) => seated.push((index, game)),
            Ok((index, Err(error))) => failures.push(format!("game {index}: set-up: {error}")),
            Err(error) => failures.push(format!("a set-up task: {error}")),
        }
    }
    let seated_memory = target.pid.and_then(server::memory);
    // The spectators, once every game is set up: what they add to the server is what idle
    // sockets cost it.
    let mut watched = Vec::with_capacity(seated.len());
    let mut watching = JoinSet::new();
    for (index, mut game) in seated {
        let (setting_up, spectators) = (Arc::clone(&setting_up), options.spectators);
        watching.spawn(async move {
            let _place = setting_up.acquire_owned().await;
            for _ in 0..spectators {
                if let Err(error) = game.watch().await {
                    return (index, game, Some(error));
                }
            }
            (index, game, None)
        });
    }
    while let Some(done) = watching.join_next().await {
        match done {
            Ok((index, game, error)) => {
                if let Some(error) = error {
                    failures.push(format!("game {index}: {error}"));
                }
                watched.push((index, game));
            }
            Err(error) => failures.push(format!("a spectators' task: {error}")),
        }
    }
    let seated = watched;
    // Let the server settle (the spectators' hellos answered) before its memory is read.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let watched_memory = target.pid.and_then(server::memory);
    let set_up = started.elapsed();
    let peak_in_play = Arc::new(AtomicU64::new(0));
    let sampler = target.pid.map(|pid| {
        let peak = Arc::clone(&peak_in_play);
        tokio::spawn(async move {
            loop {
                if let Some(memory) = server::memory(pid) {
                    peak.fetch_max(memory.now_kib, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    });
    let playing = Instant::now();
    let mut games = JoinSet::new();
    for (index, game) in seated {
        let seed = options.seed.wrapping_add(index as u64);
        games.spawn(play::play(game, options.moves, seed, options.think));
    }
    let mut records = Vec::with_capacity(options.games);
    while let Some(done) = games.join_next().await {
        match done {
            Ok(record) => records.push(record),
            Err(error) => failures.push(format!("a game's task: {error}")),
        }
    }
    let played = playing.elapsed();
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    let after = target.pid.and_then(server::memory);
    let check = check::check(&target.data_dir, &records)?;
    for record in &records {
        if let Some(failure) = &record.failure {
            failures.push(format!("game {}: {failure}", record.id));
        }
    }
    Ok(Report::new(
        options,
        &records,
        report::Phases { set_up, played },
        report::Memory {
            idle,
            seated: seated_memory,
            watched: watched_memory,
            in_play_kib: peak_in_play.load(Ordering::Relaxed),
            after,
        },
        check,
        failures,
    ))
}
