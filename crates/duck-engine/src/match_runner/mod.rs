//! A match runner for Duck Chess, which no existing tool can host: two UCI engines play game
//! pairs (each opening with both colours), every move judged by arbiter's rules, and the result
//! is reported as engine testers expect it: wins, draws and losses, the Elo difference with its
//! 95% interval, the likelihood of superiority, and an SPRT that can stop the match early.
//!
//! ```no_run
//! use std::time::Duration;
//! use arbiter_duck_engine::match_runner::{self, Event, MatchConfig, Openings};
//! use arbiter_duck_engine::match_runner::clock::{Limits, TimeControl};
//! use arbiter_duck_engine::match_runner::elo::Estimate;
//!
//! let mut fairy: match_runner::EngineSpec = "/usr/games/fairy-stockfish".parse().unwrap();
//! fairy.options = vec![
//!     ("VariantPath".into(), "crates/duck/tests/fixtures/duck-variants.ini".into()),
//!     ("UCI_Variant".into(), "duck".into()),
//! ];
//! let config = MatchConfig {
//!     engines: [fairy.clone(), fairy],
//!     games: 20,
//!     openings: Openings::Random { plies: 8, seed: 1 },
//!     limits: Limits {
//!         clock: Some(TimeControl::MoveTime(Duration::from_millis(50))),
//!         ..Limits::default()
//!     },
//!     max_plies: match_runner::game::MAX_PLIES,
//!     concurrency: 2,
//!     sprt: None,
//!     save: None,
//! };
//! let report = match_runner::run(&config, |event| {
//!     if let Event::Finished { line, .. } = event {
//!         println!("game {}: {}", line.game, line.result);
//!     }
//! })
//! .unwrap();
//! let elo = Estimate::pentanomial(report.tally.pairs).unwrap();
//! println!("Elo {:+.1} ± {:.1}", elo.elo, elo.margin());
//! ```
//!
//! The parts, one concept each: [`engine`] (an engine process spoken to in UCI, with deadlines),
//! [`opening`] (the openings file and random openings), [`clock`] (time controls and the
//! forfeit margin), [`game`] (one game and how it ends), [`tally`], [`elo`] and [`sprt`] (the
//! statistics), [`report`] (the summary as text and JSON), [`save`] (the games and results on disk) and [`runner`] (the match: workers,
//! pairs, counting, stopping).

pub mod clock;
pub mod elo;
pub mod engine;
pub mod game;
pub mod opening;
pub mod report;
pub mod runner;
pub mod save;
pub mod sprt;
pub mod tally;

pub use engine::EngineSpec;
pub use game::Finished;
pub use report::Report;
pub use runner::{Event, MatchConfig, MatchError, Openings, run};
