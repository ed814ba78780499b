//! Duck Chess (鸭棋, THUPC 2019): a xiangqi-like game on a 10×9 board whose cannon is replaced by a
//! duck. (Not the chess variant of the same English name in which a duck blocks squares.)
//!
//! The game is defined once: [`rules`] holds the start layout, the piece counts and how a game
//! ends (one [`Outcome`], the ply cap [`rules::MAX_PLIES`] included), and [`movement`] how each
//! piece moves. Every other module builds on those two, and no module imports one that imports
//! it back. From the bottom up:
//!
//! - [`color`], [`role`], [`piece`], [`square`], [`bitboard`]: the vocabulary.
//! - [`rules`]: start layout, piece counts, [`Outcome`] and [`EndReason`], [`rules::MAX_PLIES`].
//! - [`movement`]: the rules of movement; [`attacks`] reads them backwards.
//! - [`board`], [`zobrist`]: where the pieces stand, with an incremental hash key.
//! - [`position`], [`move_list`], [`perft`]: the search's position:
//!   [`make`](Position::make)/[`unmake`](Position::unmake) without validation, moves generated
//!   into a fixed-capacity [`MoveList`] (all, captures or quiet moves),
//!   [`outcome`](Position::outcome), and the standard perft count.
//! - [`game`]: the checked game, which says why an invalid move is refused, and replays a FEN and
//!   a list of moves ([`Game::replay`]) with a typed [`ReplayError`].
//! - Notation: [`moves`] (the [`Move`] and the official command `x1 y1 x2 y2`), [`uci`]
//!   (fairy-stockfish's square notation `e1e2`), [`notation`] (either of the two, one move or a
//!   list of them), [`fen`] (positions as fairy-stockfish writes them).
//! - The official judge: [`judge`] reads the text format and hands each command's ruling to a
//!   listener; [`output`] holds the official output line; [`draw`] draws a board for a terminal.
//! - [`bench_input`]: deterministic inputs for benchmarks and stress tests.
//!
//! # Rule decisions
//!
//! Where the statement is silent, arbiter decides as follows (the official judge data agree):
//!
//! - Red moves first. An invalid command changes nothing, and the same side moves next.
//! - A command is invalid when the game is over, when its source holds no piece of the side to
//!   move, when its destination holds a piece of that side, or when the move breaks the piece's
//!   pattern (a blocked horse leg, elephant eye, either of the duck's two points, a car that would
//!   jump).
//! - Integer coordinates off the board (negative, ≥ 10 or ≥ 9, or huge) make an ordinary invalid
//!   command, as the editorial lists "moving off the board" among invalid moves.
//! - There is no palace, no river and no rule about facing captains; a side may leave or put its
//!   own captain under attack.
//! - After a valid move that does not end the game, "check" is `yes` when *either* side has a piece
//!   that could capture the other side's captain in one move. Capturing a captain prints
//!   `no;yes`, and every later command is invalid.
//! - A side whose pieces are all blocked has no valid move; the statement does not say what
//!   happens then. [`Position::outcome`] reports it as [`EndReason::NoMove`], a draw.
//! - A position set up from a board or a FEN must be one the game can reach in this sense: each
//!   side has at most the pieces it starts with, the side that has just moved has its captain,
//!   and a side to move without its captain has lost (the game is over, with no moves). Anything
//!   else is a [`PositionError`], never a panic.
//!
//! ```
//! use arbiter_duck::judge;
//!
//! let mut out = Vec::new();
//! judge::run("3\n0 0 7 0\n0 3 1 4\n9 4 8 4\n", &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(),
//!     "Invalid command\nred guard;NA;no;no\nblue captain;NA;no;no\n");
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod bench_input;
pub mod bitboard;
pub mod board;
pub mod color;
pub mod draw;
pub mod fen;
pub mod game;
pub mod judge;
pub mod move_list;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod output;
pub mod perft;
pub mod piece;
pub mod position;
pub mod role;
pub mod rules;
pub mod square;
mod text;
pub mod uci;
pub mod validate;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::Color;
pub use fen::{Fen, ParseFenError};
pub use game::{Game, Invalid, MoveError, Played, ReplayError};
pub use move_list::MoveList;
pub use moves::{Move, ParseMoveError};
pub use piece::Piece;
pub use position::{FenError, Position, PositionError, Undo};
pub use role::Role;
pub use rules::{EndReason, Outcome};
pub use square::Square;
pub use uci::UciMove;
