//! arbiter's player ratings: [Glicko-2](glicko2) exactly as Mark Glickman describes it in
//! "Example of the Glicko-2 system", and the time-control [categories](Category) rated apart
//! (bullet, blitz, rapid, classical).
//!
//! ```
//! use arbiter_rating::{Category, Glicko2, Rating, Score};
//!
//! // Two newcomers play a 3+2 game: a blitz game, and red wins.
//! assert_eq!(Category::of(180_000, 2_000), Category::Blitz);
//! let (red, blue) = Glicko2::ARBITER.game(Rating::START, Rating::START, Score::Win);
//! assert!(red.rating > 1500.0 && blue.rating < 1500.0);
//! assert!(red.is_provisional() && red.deviation < 350.0);
//! ```
//!
//! Nothing here knows of games, accounts or stores: the server decides which games are rated
//! and keeps the ratings; this crate only computes them.

#![warn(missing_docs)]

pub mod category;
pub mod glicko2;

pub use category::Category;
pub use glicko2::{Glicko2, Outcome, Rating, Score};
