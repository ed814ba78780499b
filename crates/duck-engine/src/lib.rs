//! The Duck Chess engine, built on the rules of [`arbiter_duck`].
//!
//! The layers point one way: the rules ← the search ← the front ends. Nothing below a front end
//! knows a protocol.
//!
//! - The search and what it is made of: [`nnue`], the neural network evaluation, the default,
//!   with a network built in; [`eval`], the evaluation written for this game, with tuned
//!   weights, kept for comparison; [`see`], static exchange evaluation; [`movepick`], move
//!   ordering; [`tt`], the transposition table; [`timeman`], how long to think; [`value`],
//!   search values and the [`Score`](value::Score) reported; [`search`], the
//!   [`Searcher`](search::Searcher) and its [`Limits`](search::Limits),
//!   [`SearchInfo`](search::SearchInfo) and [`SearchResult`](search::SearchResult).
//! - [`engine`]: the [`Engine`](engine::Engine) every front end drives: a position, options,
//!   [`go`](engine::Engine::go) with a callback for each iteration, stopped through a
//!   [`StopFlag`](search::StopFlag).
//! - [`file`]: opening the files users name (networks): regular files only, never waiting on
//!   a FIFO, their length checked before they are read.
//! - [`random`]: a player that picks a valid move uniformly at random, the baseline of the
//!   strength table.
//! - Front ends: [`uci`], the Universal Chess Interface, which turns a `go` into limits and the
//!   search's reports into `info` lines, in the protocol's text forms of
//!   [`arbiter_duck_protocol`] (shared with the match runner, `arbiter_duck_match`, which hosts
//!   engines as processes and does not use this crate); [`play`], a game at the terminal.
//!
//! ```
//! use std::time::Duration;
//!
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::engine::Engine;
//! use arbiter_duck_engine::search::{Limits, StopFlag};
//!
//! let mut engine = Engine::new(16); // the transposition table's MiB
//! engine.set_position(Position::new());
//! let stop = StopFlag::new(); // a clone stops the search from another thread
//! let limits = Limits { nodes: Some(20_000), ..Limits::movetime(Duration::from_millis(500)) };
//! let mut iterations = 0;
//! let result = engine.go(&limits, &stop, |_info| iterations += 1);
//! assert!(Position::new().is_legal(result.best.unwrap()));
//! assert_eq!(result.pv[0], result.best.unwrap());
//! assert!(iterations >= 1 && result.depth >= 1);
//! ```

#![warn(missing_docs)]

pub mod engine;
pub mod eval;
pub mod file;
pub mod movepick;
pub mod nnue;
pub mod play;
pub mod random;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod uci;
pub mod value;
