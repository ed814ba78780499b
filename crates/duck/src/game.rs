//! A game in progress, played with checks: every move is validated and the reason an invalid one
//! is refused is kept. This is the judge's path; [`Position`] underneath is the search's.
//!
//! ```
//! use arbiter_duck::{Game, Invalid, Square};
//!
//! let sq = |x, y| Square::new(x, y).unwrap();
//! let mut game = Game::new();
//! let played = game.play(sq(0, 3), sq(1, 4)).unwrap();
//! assert_eq!(played.to_string(), "red guard;NA;no;no");
//! // Red moved; red may not move again.
//! assert!(matches!(game.play(sq(0, 4), sq(0, 3)), Err(Invalid::NotYours { .. })));
//! // Take the guard's move back.
//! assert_eq!(game.undo().map(|mv| mv.to_string()), Some("0 3 1 4".to_owned()));
//! assert_eq!(game.position(), &arbiter_duck::Position::new());
//! ```

use std::fmt;

use crate::movement::{self, Reach};
use crate::position::Undo;
use crate::{Board, Color, Fen, Move, MoveList, Piece, Position, PositionError, Role, Square};

/// A valid move's result, as the official judge reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Played {
    /// The piece that moved.
    pub piece: Piece,
    /// The piece removed from the game, if any.
    pub captured: Option<Piece>,
    /// Whether a check position arises (never after a captain is captured).
    pub check: bool,
    /// Whether the move captured a captain and so ended the game.
    pub game_over: bool,
}

/// Why a command is invalid. The official output is just `Invalid command`; these say why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Invalid {
    /// A captain has been captured; no move is valid any more.
    #[error("the game is over ({winner} has captured the captain)")]
    GameOver {
        /// The side that captured the other's captain.
        winner: Color,
    },
    /// A coordinate pair lies outside the 10×9 board.
    #[error("({},{}) is off the board", Coordinate(*x), Coordinate(*y))]
    OffBoard {
        /// The row as given.
        x: i64,
        /// The column as given.
        y: i64,
    },
    /// No piece stands on the source square.
    #[error("{square} is empty")]
    Empty {
        /// The source square.
        square: Square,
    },
    /// The source square holds the other side's piece.
    #[error("{square} holds {piece}, but it is {turn}'s turn")]
    NotYours {
        /// The source square.
        square: Square,
        /// What stands there.
        piece: Piece,
        /// The side to move.
        turn: Color,
    },
    /// The destination holds a piece of the side to move.
    #[error("{square} holds your own piece ({piece})")]
    OwnPiece {
        /// The destination.
        square: Square,
        /// What stands there.
        piece: Piece,
    },
    /// The move is not in the piece's pattern.
    #[error("a {} cannot move from {from} to {to}", piece.role)]
    NotInPattern {
        /// The piece asked to move.
        piece: Piece,
        /// Its square.
        from: Square,
        /// The requested destination.
        to: Square,
    },
    /// The move follows the pattern but a piece is in the way.
    #[error("{} {} {square} is occupied by {by}", piece.role, piece.role.blocker_name())]
    Blocked {
        /// The piece asked to move.
        piece: Piece,
        /// The blocking point.
        square: Square,
        /// What stands there.
        by: Piece,
    },
}

/// A move of a list that is not valid where it is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("move {} `{}` is not valid: {invalid}", .index + 1, .mv.uci())]
pub struct MoveError {
    /// Its place in the list, from 0.
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Why it is not valid.
    pub invalid: Invalid,
}

/// Why a game cannot be replayed from a FEN and a list of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ReplayError {
    /// The FEN describes no position.
    #[error("the FEN is not a position: {0}")]
    Position(#[from] PositionError),
    /// A move is not valid where it is played.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A coordinate as given in a command. The judge reads numbers beyond `i64` as its extreme values
/// (`arbiter_scan::Scanner::int`), so those stand for any larger number and are shown as `huge`
/// rather than as a number the input did not contain.
struct Coordinate(i64);

impl fmt::Display for Coordinate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            i64::MAX => f.write_str("huge"),
            value if value <= -i64::MAX => f.write_str("-huge"),
            value => write!(f, "{value}"),
        }
    }
}

/// A position played with checks, and the moves that led to it (for undo).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    position: Position,
    history: Vec<(Move, Undo)>,
    keeps_history: bool,
    known: Known,
}

/// What the game keeps from move to move about its position, so that the judge does not look for
/// it again after every command: who has won, and where the captains stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Known {
    /// [`Position::winner`].
    winner: Option<Color>,
    /// Each side's captain's square, by [`Color::index`]; meaningless once the game is over (a
    /// captain may be gone).
    captains: [Square; 2],
}

impl Known {
    /// What is known of `position`, found from scratch.
    fn of(position: &Position) -> Known {
        let board = position.board();
        Known {
            winner: position.winner(),
            captains: Color::ALL.map(|color| board.captain(color).unwrap_or(Square::A1)),
        }
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// The official starting position, red to move.
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// A game from any position.
    pub fn from_position(position: Position) -> Game {
        let known = Known::of(&position);
        Game { position, history: Vec::new(), keeps_history: true, known }
    }

    /// A game from `board` with `turn` to move (see [`Position::from_board`]).
    pub fn from_board(board: Board, turn: Color) -> Result<Game, PositionError> {
        Position::from_board(board, turn).map(Game::from_position)
    }

    /// The game from `fen` (the official start when `None`) after `moves`, which it keeps in its
    /// history; or what goes wrong first: the FEN, or the first move that is not valid.
    ///
    /// ```
    /// use arbiter_duck::{Game, Move};
    ///
    /// let moves: Vec<Move> = ["e4e5", "e7e6", "e5e6"].iter().map(|m| m.parse().unwrap()).collect();
    /// let game = Game::replay(None, moves.iter().copied()).unwrap();
    /// assert_eq!(game.history().len(), 3);
    /// let error = Game::replay(None, moves[1..].iter().copied()).unwrap_err();
    /// assert_eq!(error.to_string(), "move 1 `e7e6` is not valid: (6,4) holds blue soldier, but it is red's turn");
    /// ```
    pub fn replay(
        fen: Option<&Fen>,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, ReplayError> {
        let start = match fen {
            Some(fen) => Position::from_fen(fen)?,
            None => Position::new(),
        };
        Ok(Game::from_position(start).play_moves(moves)?)
    }

    /// This game after `moves`, which it keeps in its history; or the first move that is not
    /// valid.
    pub fn play_moves(mut self, moves: impl IntoIterator<Item = Move>) -> Result<Game, MoveError> {
        for (index, mv) in moves.into_iter().enumerate() {
            if let Err(invalid) = self.play(mv.from, mv.to) {
                return Err(MoveError { index, mv, invalid });
            }
        }
        Ok(self)
    }

    /// The same game, keeping no history from now on: [`undo`](Game::undo) has nothing to take
    /// back. The judge plays this way, so that its memory stays bounded however many commands it
    /// reads.
    pub fn without_history(mut self) -> Game {
        self.history = Vec::new();
        self.keeps_history = false;
        self
    }

    /// The position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        self.position.board()
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The side that captured the other's captain, once the game is over.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.known.winner
    }

    /// The moves played and kept, oldest first.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&(mv, _)| mv)
    }

    /// Takes back the last move kept in the history, and returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let (mv, undo) = self.history.pop()?;
        self.position.unmake(mv, undo);
        self.known = Known::of(&self.position);
        Some(mv)
    }

    /// `GameOver` once a captain has been captured.
    #[inline]
    fn going_on(&self) -> Result<(), Invalid> {
        match self.winner() {
            Some(winner) => Err(Invalid::GameOver { winner }),
            None => Ok(()),
        }
    }

    /// The piece on `from`, if the side to move may move it at all (the game going on).
    #[inline]
    fn mover(&self, from: Square) -> Result<Piece, Invalid> {
        match self.board().piece_at(from) {
            None => Err(Invalid::Empty { square: from }),
            Some(piece) if piece.color != self.turn() => {
                Err(Invalid::NotYours { square: from, piece, turn: self.turn() })
            }
            Some(piece) => Ok(piece),
        }
    }

    /// Checks a move for the side to move without playing it, returning the piece that would move.
    #[inline]
    pub fn validate(&self, from: Square, to: Square) -> Result<Piece, Invalid> {
        self.going_on()?;
        self.validate_going_on(from, to)
    }

    /// [`validate`](Game::validate) in a game known to go on. Inlined into
    /// [`play`](Game::play), so that the result stays in registers.
    #[inline(always)]
    fn validate_going_on(&self, from: Square, to: Square) -> Result<Piece, Invalid> {
        let piece = self.mover(from)?;
        let board = self.board();
        if let Some(target) = board.piece_at(to)
            && target.color == piece.color
        {
            return Err(Invalid::OwnPiece { square: to, piece: target });
        }
        match movement::reach(piece.role, from, to, board.occupied()) {
            Reach::Yes => Ok(piece),
            Reach::Never => Err(Invalid::NotInPattern { piece, from, to }),
            Reach::Blocked(square) => match board.piece_at(square) {
                Some(by) => Err(Invalid::Blocked { piece, square, by }),
                None => Err(Invalid::NotInPattern { piece, from, to }),
            },
        }
    }

    /// Plays a move of the side to move; an invalid move changes nothing.
    #[inline]
    pub fn play(&mut self, from: Square, to: Square) -> Result<Played, Invalid> {
        self.going_on()?;
        self.play_going_on(from, to)
    }

    /// [`play`](Game::play) in a game known to go on. Inlined into the judge's loop, where the
    /// outcome then stays in registers.
    #[inline(always)]
    fn play_going_on(&mut self, from: Square, to: Square) -> Result<Played, Invalid> {
        let piece = self.validate_going_on(from, to)?;
        let mv = Move::new(from, to);
        let undo = self.position.make_piece(mv, piece);
        if self.keeps_history {
            self.history.push((mv, undo));
        }
        let captured = undo.captured();
        let game_over = captured.is_some_and(|c| c.role == Role::Captain);
        if piece.role == Role::Captain {
            self.known.captains[piece.color.index()] = to;
        }
        if game_over {
            self.known.winner = Some(piece.color);
        }
        let check = !game_over && self.board().is_check_at(self.known.captains);
        Ok(Played { piece, captured, check, game_over })
    }

    /// Plays a command given as raw coordinates, which may lie off the board.
    #[inline]
    pub fn play_coords(&mut self, from: (i64, i64), to: (i64, i64)) -> Result<Played, Invalid> {
        self.going_on()?;
        let square =
            |(x, y): (i64, i64)| Square::from_coords(x, y).ok_or(Invalid::OffBoard { x, y });
        let from = square(from)?;
        match square(to) {
            Ok(to) => self.play_going_on(from, to),
            // The source is judged before the destination: an empty source is the reason given
            // even when the destination is off the board too.
            Err(off_board) => Err(self.mover(from).err().unwrap_or(off_board)),
        }
    }

    /// Every valid move of the side to move; none once the game is over.
    ///
    /// Nothing is illegal because of check: a side may leave its captain attacked.
    pub fn legal_moves(&self) -> MoveList {
        self.position.moves()
    }

    /// Calls `f` with every valid move of the side to move.
    #[inline]
    pub fn for_each_move(&self, f: impl FnMut(Move)) {
        self.position.moves().into_iter().for_each(f);
    }

    /// Number of valid moves of the side to move, without listing them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        self.position.count_moves()
    }
}
