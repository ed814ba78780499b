//! A match runner for Duck Chess, which no existing tool can host: UCI engines play game
//! pairs (each opening with both colours), every move judged by arbiter's rules, and the result
//! is reported as engine testers expect it: wins, draws and losses, the Elo difference with its
//! 95% interval, the likelihood of superiority, and an SPRT that can stop the match early.
//!
//! ```no_run
//! use std::time::Duration;
//! use arbiter_duck_match::clock::{Limits, TimeControl};
//! use arbiter_duck_match::elo::Estimate;
//! use arbiter_duck_match::{EngineSpec, Event, MatchConfig, Openings};
//!
//! let mut fairy: EngineSpec = "/usr/games/fairy-stockfish".parse().unwrap();
//! fairy.options = vec![
//!     ("VariantPath".into(), "crates/duck/tests/fixtures/duck-variants.ini".into()),
//!     ("UCI_Variant".into(), "duck".into()),
//! ];
//! let config = MatchConfig {
//!     engines: vec![fairy.clone(), fairy],
//!     schedule: Default::default(),
//!     games: 20,
//!     openings: Openings::Random { plies: 8, seed: 1 },
//!     limits: Limits {
//!         clock: Some(TimeControl::MoveTime(Duration::from_millis(50))),
//!         ..Limits::default()
//!     },
//!     max_plies: arbiter_duck_match::game::MAX_PLIES,
//!     adjudication: Default::default(),
//!     concurrency: 2,
//!     sprt: None,
//!     save: None,
//!     affinity: false,
//!     resume: false,
//!     only: None,
//! };
//! let report = arbiter_duck_match::run(&config, |event| {
//!     if let Event::Finished { line, .. } = event {
//!         println!("game {}: {}", line.game, line.result);
//!     }
//! })
//! .unwrap();
//! let elo = Estimate::pentanomial(report.tally.pairs).unwrap();
//! println!("Elo {:+.1} ± {:.1}", elo.elo, elo.margin());
//! ```
//!
//! The runner knows the rules ([`arbiter_duck`]) and the protocol ([`arbiter_duck_protocol`]),
//! not any engine's search: the engines it hosts, arbiter's own included, are processes.
//!
//! The parts, one concept each, each importing only those listed before it:
//!
//! - [`tally`]: a match's games counted as results and as pairs; [`elo`]: the Elo difference and
//!   the likelihood of superiority from a tally; [`sprt`]: the sequential test that can stop the
//!   match; [`report`]: the summary of two engines as text and JSON; [`schedule`]: which
//!   engines meet when there are more (round robin, gauntlet); [`standings`]: the result of
//!   more, each engine against the field, and the crosstable.
//! - [`clock`]: time controls, time odds and the forfeit margin; [`machine`]: the cores the
//!   engines may be pinned to, and the load that makes timed games unfair.
//! - [`process`]: an [`EngineProcess`](process::EngineProcess), a child process spoken to in
//!   UCI with a deadline on every answer, started from an [`EngineSpec`].
//! - [`opening`]: the openings file and random openings; [`record`]: a game move by move with
//!   what the engines said, as text.
//! - [`adjudication`]: ending a game by the engines' scores.
//! - [`game`]: one game between two engine processes and how it ends, and a
//!   [`Finished`] game of a match.
//! - [`save`]: the games and results on disk; [`compliance`]: checks of an engine's UCI.
//! - [`runner`]: the match: pairings, workers, pairs, counting, stopping.

#![warn(missing_docs)]

pub mod adjudication;
pub mod clock;
pub mod compliance;
pub mod elo;
pub mod game;
pub mod machine;
pub mod opening;
pub mod process;
pub mod record;
pub mod report;
pub mod runner;
pub mod save;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod tally;

pub use game::Finished;
pub use process::EngineSpec;
pub use report::Report;
pub use runner::{Event, MatchConfig, MatchError, Openings, run, run_all};
pub use schedule::Schedule;
pub use standings::Standings;
