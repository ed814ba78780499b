//! The Duck Chess engine and the tools around it, built on the rules of [`arbiter_duck`].
//!
//! - [`search`]: the [`Engine`](search::Engine) and its [`search`](search::Engine::search), the
//!   API for any front end (UCI, the terminal, the web app): a position, [`Limits`](search::Limits)
//!   and a [`StopFlag`](search::StopFlag) in, a [`SearchResult`](search::SearchResult) out.
//! - [`eval`]: the evaluation written for this game, with tuned weights; [`see`]: static exchange
//!   evaluation; [`movepick`]: move ordering; [`tt`]: the transposition table; [`timeman`]: how
//!   long to think; [`value`]: search values and mate scores.
//! - [`arbiter_duck_protocol`] is the Universal Chess Interface as engines and GUIs speak it for this game: the
//!   commands a GUI sends and the messages an engine answers, each a type that is parsed and
//!   printed in one place, so the engine's front end and the match runner that hosts engines read
//!   and write exactly the same lines; [`uci`] is the engine's side of it.
//! - [`random`]: a player that picks a valid move uniformly at random, the baseline of the
//!   strength table.
//! - [`match_runner`]: matches between UCI engines (`arbiter duck match`): game pairs judged by
//!   the rules, with Elo, LOS and an SPRT.
//!
//! ```
//! use std::time::Duration;
//!
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::search::{Engine, Limits, StopFlag};
//!
//! let mut engine = Engine::new(16); // the transposition table's MiB
//! let stop = StopFlag::new(); // a clone stops the search from another thread
//! let limits = Limits { nodes: Some(20_000), ..Limits::movetime(Duration::from_millis(500)) };
//! let mut iterations = 0;
//! let result = engine.search(&Position::new(), &limits, &stop, |_info| iterations += 1);
//! assert!(Position::new().is_legal(result.best.unwrap()));
//! assert_eq!(result.pv[0], result.best.unwrap());
//! assert!(iterations >= 1 && result.depth >= 1);
//! ```

#![warn(missing_docs)]

pub mod eval;
pub mod movepick;
pub mod random;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod uci;
pub mod value;
