//! Duck Chess (鸭棋, THUPC 2019): a xiangqi-like game on a 10×9 board whose cannon is replaced by a
//! duck. (Not the chess variant of the same English name in which a duck blocks squares.)
//!
//! The rules of movement are written once, in [`movement`]; the [`Board`] applies them to
//! positions, the [`Game`] adds turns and the end of the game, and [`judge`] reads and writes the
//! official text format.
//!
//! ```
//! use arbiter_duck::judge;
//!
//! let mut out = Vec::new();
//! judge::run("3\n0 0 7 0\n0 3 1 4\n9 4 8 4\n", &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(),
//!     "Invalid command\nred guard;NA;no;no\nblue captain;NA;no;no\n");
//! ```

pub mod bitboard;
pub mod board;
pub mod color;
pub mod game;
pub mod generate;
pub mod judge;
pub mod movement;
pub mod moves;
pub mod piece;
pub mod role;
pub mod square;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::Color;
pub use game::{Game, Invalid, Played, PositionError};
pub use moves::Move;
pub use piece::Piece;
pub use role::Role;
pub use square::Square;
