//! arbiter's live Duck Chess games: games owned by a server, played by two people who each hold a
//! seat by a secret token, watched by anyone with the game's address, and kept in a store so that
//! no acknowledged move is ever lost.
//!
//! The server judges every move with [`arbiter_duck`]'s rules and keeps the clocks; a client only
//! says what its seat does. Every change is committed to the [`Store`] before it is acknowledged:
//! [`Games`] applies an action to a copy of the game, commits the copy, and only then makes it the
//! game everyone sees, so a failed commit changes nothing.
//!
//! ```
//! use arbiter_live::{Action, Games, New, Seat, SqliteStore};
//!
//! let games = Games::new(SqliteStore::memory().unwrap());
//! let created = games.create(New::default(), 0).unwrap();
//! let (red, blue) = match created.seat {
//!     Seat::Red => (created.token.clone(), created.invite.clone()),
//!     Seat::Blue => (created.invite.clone(), created.token.clone()),
//! };
//! let view = games.act(&created.id, &red, Action::Move { command: "0 3 1 4".into() }, 10).unwrap();
//! assert_eq!(view.commands, ["0 3 1 4"]);
//! // Out of turn: refused, and nothing changes.
//! assert!(games.act(&created.id, &red, Action::Move { command: "1 4 0 3".into() }, 20).is_err());
//! # let _ = blue;
//! ```
//!
//! Modules, from the bottom up: [`seat`] (the two seats, game ids and seat tokens), [`clock`]
//! (time controls and the clocks), [`game`] (the game's state machine: moves, offers, the end),
//! [`store`] (what is kept and the [`Store`] trait), [`sqlite`] (the store in SQLite, with its
//! migrations), [`postgres`] (the store in PostgreSQL, shared by several servers, through a pool
//! of connections, and the [`Listener`](postgres::Listener) that hears their changes) and
//! [`games`] (the authority: every game served, each action serialised per game and committed
//! before it is answered).

#![warn(missing_docs)]

pub mod clock;
pub mod game;
pub mod games;
pub mod postgres;
pub mod seat;
pub mod sqlite;
pub mod store;

pub use clock::{Clocks, TimeControl};
pub use game::{Action, End, LiveGame, New, Refusal, View};
pub use games::{Created, Games, LiveError};
pub use postgres::PostgresStore;
pub use seat::{GameId, Seat, Token};
pub use sqlite::SqliteStore;
pub use store::{Filter, Page, Store, StoreError, Summary};
