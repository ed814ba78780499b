//! A position built for search: the board, the side to move and two counters, changed in place by
//! [`Position::make`] and restored by [`Position::unmake`] without validating anything.
//!
//! ```
//! use arbiter_duck::{Move, Position};
//!
//! let mut position = Position::new();
//! let moves = position.moves();
//! assert_eq!(moves.len(), 43);
//! let before = position.clone();
//! for &mv in &moves {
//!     let undo = position.make(mv);
//!     position.unmake(mv, undo);
//! }
//! assert_eq!(position, before);
//!
//! // The red soldier on e4 steps up and takes the blue soldier that came to meet it on e6.
//! let mut position: Position = arbiter_duck::fen::INITIAL.parse().unwrap();
//! for mv in ["e4e5", "e7e6", "e5e6"] {
//!     let mv: Move = mv.parse().unwrap();
//!     assert!(position.is_legal(mv));
//!     let _ = position.make(mv);
//! }
//! assert_eq!(position.to_string(), "rhegcgehr/9/d7d/s1s3s1s/4S4/9/S1S3S1S/D7D/9/RHEGCGEHR b - - 0 2");
//! ```
//!
//! # Which positions exist
//!
//! A [`Position`] always has each side's pieces within the starting set (at most 2 cars, 2 horses,
//! 2 elephants, 2 guards, 1 captain, 2 ducks and 5 soldiers: no piece is ever added), which bounds
//! the number of moves (see [`MoveList`]). The side that is not to move always has its captain:
//! only a move can capture a captain, and it is then the captured side's turn. A position in which
//! the side to move has lost its captain is a finished game, won by the other side: it has no
//! moves. Anything else (a second captain, no captain for the side that has just moved, too many
//! pieces of a kind) is a [`PositionError`] when a position is built from a board or a FEN.
//! Nothing else is checked: any piece may stand on any point. These are the positions a FEN may
//! set up, in `duck perft --fen`, UCI's `position fen` and the web app's position editor.

use std::fmt;
use std::str::FromStr;

use crate::fen::{Fen, ParseFenError};
use crate::move_list::MoveList;
use crate::rules::{Outcome, START_COUNTS};
use crate::{Bitboard, Board, Color, Move, Piece, Role, Square, movement, zobrist};

/// Why a board cannot be a [`Position`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum PositionError {
    /// A side has more pieces of a kind than it starts with (pieces are never added).
    #[error("{count} {piece}s, more than the {max} a side starts with")]
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many stand on the board.
        count: u32,
        /// How many a side starts with.
        max: u32,
    },
    /// The side that has just moved has no captain. (Only the side to move can have lost its
    /// captain: the game ends when a captain is captured, with the captured side to move.)
    #[error(
        "no {color} captain, though {color} has just moved; only the side to move can have lost its captain"
    )]
    NoCaptain {
        /// The side without a captain that is not to move.
        color: Color,
    },
}

/// What [`Position::unmake`] needs to take a move back: what it captured and the counter it reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "unmake needs it to restore the position"]
pub struct Undo {
    captured: Option<Piece>,
    halfmoves: u32,
}

impl Undo {
    /// The piece the move captured, if any.
    #[inline]
    pub fn captured(self) -> Option<Piece> {
        self.captured
    }
}

/// A Duck Chess position: the board, the side to move, and the FEN's two counters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The official starting position, red to move, move 1.
    pub fn new() -> Position {
        Position { board: Board::initial(), turn: Color::Red, halfmoves: 0, fullmoves: 1 }
    }

    /// The position with `board` and `turn` to move (counters 0 and 1), if it is one (see the
    /// [module docs](self)).
    pub fn from_board(board: Board, turn: Color) -> Result<Position, PositionError> {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let count = board.by_piece(piece).count();
                let max = START_COUNTS[role.index()];
                if count > max {
                    return Err(PositionError::TooMany { piece, count, max });
                }
            }
        }
        if board.captain(!turn).is_none() {
            return Err(PositionError::NoCaptain { color: !turn });
        }
        Ok(Position { board, turn, halfmoves: 0, fullmoves: 1 })
    }

    /// The position a FEN describes, if it is one.
    pub fn from_fen(fen: &Fen) -> Result<Position, PositionError> {
        let mut position = Position::from_board(fen.board.clone(), fen.turn)?;
        position.halfmoves = fen.halfmoves;
        position.fullmoves = fen.fullmoves;
        Ok(position)
    }

    /// The FEN of this position.
    pub fn fen(&self) -> Fen {
        Fen {
            board: self.board.clone(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture (the FEN's halfmove clock; this game has no rule that uses
    /// it, but a position can only repeat one seen within that many plies).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, one more after each blue move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist key: the board's key and the side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board.key() ^ zobrist::turn_key(self.turn)
    }

    /// The Zobrist key computed from every square, which the incremental [`key`](Position::key)
    /// must always equal (for tests).
    pub fn key_from_scratch(&self) -> u64 {
        Square::all()
            .filter_map(|sq| self.board.piece_at(sq).map(|piece| zobrist::piece_key(piece, sq)))
            .fold(zobrist::turn_key(self.turn), |key, k| key ^ k)
    }

    /// The side that has captured the other's captain, once the game is over.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.board.by_piece(Piece::new(self.turn, Role::Captain)).is_empty().then_some(!self.turn)
    }

    /// Whether the game is over (a captain has been captured). A side without a move is not a
    /// finished game in this sense; see [`Position::outcome`].
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// How the game has ended (a captain captured), or that the side to move cannot move (a
    /// draw); `None` while it goes on. The ply cap needs the game's length: see
    /// [`outcome_after`](Position::outcome_after).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner() {
            return Some(Outcome::captain_captured(winner));
        }
        (!self.has_moves()).then_some(Outcome::no_move(self.turn))
    }

    /// [`outcome`](Position::outcome) in a game that has gone on for `plies` plies, which is a
    /// draw once they reach `max_plies` (see [`rules::MAX_PLIES`](crate::rules::MAX_PLIES)).
    pub fn outcome_after(&self, plies: usize, max_plies: u32) -> Option<Outcome> {
        self.outcome().or_else(|| Outcome::ply_cap(plies, max_plies))
    }

    /// Whether the side to move's captain is attacked: this game's "check" for the side to move.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.board.captain_attacked(self.turn)
    }

    /// Whether `mv` is a valid move here: the game goes on, the side to move has a piece on its
    /// source, its destination holds no piece of that side, and the piece's pattern reaches it.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        !self.is_over()
            && self.board.piece_at(mv.from).is_some_and(|piece| {
                piece.color == self.turn
                    && !self.board.by_color(self.turn).contains(mv.to)
                    && movement::reaches(piece.role, mv.from, mv.to, self.board.occupied())
            })
    }

    /// Plays `mv`, which must be valid here (a move of [`moves`](Position::moves), or one that
    /// [`is_legal`](Position::is_legal) accepts); nothing is checked. Returns what
    /// [`unmake`](Position::unmake) needs.
    ///
    /// # Panics
    ///
    /// When no piece stands on `mv.from`. Any other invalid move leaves a position that breaks
    /// the rules (but not memory safety).
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let piece = self.board.piece_at(mv.from).expect("make: the source square is empty");
        self.make_piece(mv, piece)
    }

    /// [`make`](Position::make) for `piece`, known to stand on `mv.from`.
    #[inline(always)]
    pub(crate) fn make_piece(&mut self, mv: Move, piece: Piece) -> Undo {
        let captured = self.board.move_piece(mv.from, mv.to, piece);
        let undo = Undo { captured, halfmoves: self.halfmoves };
        self.halfmoves = if captured.is_some() { 0 } else { self.halfmoves.saturating_add(1) };
        self.pass_turn();
        undo
    }

    /// Takes back `mv`, the last move made, with what [`make`](Position::make) returned.
    ///
    /// # Panics
    ///
    /// When no piece stands on `mv.to`, which cannot happen right after `make(mv)`.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let piece = self.board.piece_at(mv.to).expect("unmake: the destination square is empty");
        self.unmake_piece(mv, undo, piece);
    }

    /// [`unmake`](Position::unmake) for `piece`, known to stand on `mv.to`.
    #[inline(always)]
    pub(crate) fn unmake_piece(&mut self, mv: Move, undo: Undo, piece: Piece) {
        self.take_back_turn();
        self.board.move_piece(mv.to, mv.from, piece);
        if let Some(captured) = undo.captured {
            self.board.put(mv.to, captured);
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Passes the turn without moving (a null move, for the search's null-move pruning; the rules
    /// have no such move). Take it back with [`unmake_null`](Position::unmake_null).
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo { captured: None, halfmoves: self.halfmoves };
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.pass_turn();
        undo
    }

    /// Takes back a [`make_null`](Position::make_null).
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.take_back_turn();
        self.halfmoves = undo.halfmoves;
    }

    // The move number wraps rather than overflows (a FEN may start it anywhere), so that unmake
    // restores it exactly.
    #[inline]
    fn pass_turn(&mut self) {
        if self.turn == Color::Blue {
            self.fullmoves = self.fullmoves.wrapping_add(1);
        }
        self.turn = !self.turn;
    }

    #[inline]
    fn take_back_turn(&mut self) {
        self.turn = !self.turn;
        if self.turn == Color::Blue {
            self.fullmoves = self.fullmoves.wrapping_sub(1);
        }
    }

    /// Every valid move of the side to move, by role (in the official order), then source square,
    /// then destination (square index order); none once the game is over. Nothing is illegal
    /// because of check.
    #[inline]
    pub fn moves(&self) -> MoveList {
        self.generate(!self.board.by_color(self.turn))
    }

    /// The valid moves that capture a piece.
    #[inline]
    pub fn captures(&self) -> MoveList {
        self.generate(self.board.by_color(!self.turn))
    }

    /// The valid moves that capture nothing.
    #[inline]
    pub fn quiets(&self) -> MoveList {
        self.generate(!self.board.occupied())
    }

    /// [`Position::captures`], written over `list`: a caller that keeps a list (a search, a node
    /// at a time) fills it in place rather than copying a new one in.
    #[inline]
    pub fn captures_into(&self, list: &mut MoveList) {
        self.generate_into(self.board.by_color(!self.turn), list);
    }

    /// [`Position::quiets`], written over `list` (see [`Position::captures_into`]).
    #[inline]
    pub fn quiets_into(&self, list: &mut MoveList) {
        self.generate_into(!self.board.occupied(), list);
    }

    /// The valid moves whose destination is in `allowed`.
    #[inline]
    fn generate(&self, allowed: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(allowed, &mut list);
        list
    }

    /// The valid moves whose destination is in `allowed`, written over `list`, with the fastest
    /// instructions this CPU has (as perft counts them: see [`crate::perft`]).
    #[inline]
    fn generate_into(&self, allowed: Bitboard, list: &mut MoveList) {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = movement::pext::Bmi2::detect_with_bit_counts() {
            // SAFETY: the CPU has the features `generate_bmi2` is compiled for.
            return unsafe { self.generate_bmi2(allowed, list, bmi2) };
        }
        self.generate_with(allowed, list, movement::targets);
    }

    /// [`Position::generate_into`] for CPUs with a fast BMI2, and BMI1 and LZCNT: a piece's
    /// targets are table lookups indexed by `pext`, a set's squares found an instruction each.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn generate_bmi2(&self, allowed: Bitboard, list: &mut MoveList, bmi2: movement::pext::Bmi2) {
        self.generate_with(allowed, list, |role, from, occupied| {
            bmi2.targets(role, from, occupied)
        });
    }

    /// [`Position::generate_into`] with `targets` in place of [`movement::targets`] (the same
    /// sets by other instructions).
    #[inline(always)]
    fn generate_with(
        &self,
        allowed: Bitboard,
        list: &mut MoveList,
        targets: impl Fn(Role, Square, Bitboard) -> Bitboard,
    ) {
        list.clear();
        if self.is_over() {
            return;
        }
        let (occupied, own) = (self.board.occupied(), self.board.by_color(self.turn));
        Role::each(|role| {
            for from in (own & self.board.by_role(role)).squares() {
                for to in (targets(role, from, occupied) & allowed).squares() {
                    list.push(Move { from, to });
                }
            }
        });
    }

    /// The number of valid moves, without listing them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        self.count_moves_inline()
    }

    /// [`Position::count_moves`], compiled into its caller, e.g. a perft compiled for more
    /// instructions than the portable build.
    #[inline(always)]
    pub(crate) fn count_moves_inline(&self) -> u64 {
        self.count_moves_with(movement::targets)
    }

    /// [`Position::count_moves`] with `targets` in place of [`movement::targets`] (the same sets
    /// by other instructions, such as `movement::pext::Bmi2::targets`).
    #[inline(always)]
    pub(crate) fn count_moves_with(
        &self,
        targets: impl Fn(Role, Square, Bitboard) -> Bitboard,
    ) -> u64 {
        if self.is_over() {
            return 0;
        }
        let (occupied, own) = (self.board.occupied(), self.board.by_color(self.turn));
        // A call per role rather than `Role::each` with a closure: the compiler may leave a large
        // closure out of line, and then it no longer compiles each role's code alone.
        let count = self.count_role_moves(&targets, Role::Car, occupied, own)
            + self.count_role_moves(&targets, Role::Horse, occupied, own)
            + self.count_role_moves(&targets, Role::Elephant, occupied, own)
            + self.count_role_moves(&targets, Role::Guard, occupied, own)
            + self.count_role_moves(&targets, Role::Captain, occupied, own)
            + self.count_role_moves(&targets, Role::Soldier, occupied, own)
            + self.count_role_moves(&targets, Role::Duck, occupied, own);
        u64::from(count)
    }

    /// The number of valid moves of the side to move's pieces of `role`.
    #[inline(always)]
    fn count_role_moves(
        &self,
        targets: &impl Fn(Role, Square, Bitboard) -> Bitboard,
        role: Role,
        occupied: Bitboard,
        own: Bitboard,
    ) -> u32 {
        let mut count = 0;
        for from in (own & self.board.by_role(role)).squares() {
            count += (targets(role, from, occupied) & !own).count();
        }
        count
    }

    /// Whether the side to move has a valid move.
    pub fn has_moves(&self) -> bool {
        if self.is_over() {
            return false;
        }
        let (occupied, own) = (self.board.occupied(), self.board.by_color(self.turn));
        own.into_iter().any(|from| {
            self.board
                .piece_at(from)
                .is_some_and(|p| !(movement::targets(p.role, from, occupied) & !own).is_empty())
        })
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.fen(), f)
    }
}

/// Why a text is not a position: not a FEN, or a FEN of no position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN describes no position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a FEN (see [`Fen`]).
    fn from_str(text: &str) -> Result<Position, FenError> {
        Ok(Position::from_fen(&text.parse()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_starts_with_sixteen_pieces() {
        assert_eq!(START_COUNTS, [2, 2, 2, 2, 1, 5, 2]);
        let board = Board::initial();
        for color in Color::ALL {
            for role in Role::ALL {
                let count = board.by_piece(Piece::new(color, role)).count();
                assert_eq!(count, START_COUNTS[role.index()], "{color} {role}");
            }
        }
    }

    #[test]
    fn positions_outside_the_game_are_errors() {
        let sq = |x, y| Square::new(x, y).unwrap();
        let captain = |color| Piece::new(color, Role::Captain);
        let mut board = Board::empty();
        board.put(sq(0, 4), captain(Color::Red));
        assert_eq!(
            Position::from_board(board.clone(), Color::Red),
            Err(PositionError::NoCaptain { color: Color::Blue })
        );
        // Blue to move without its captain: red has won.
        let finished = Position::from_board(board.clone(), Color::Blue).unwrap();
        assert_eq!(finished.winner(), Some(Color::Red));
        assert_eq!(finished.outcome(), Some(Outcome::captain_captured(Color::Red)));
        assert!(finished.moves().is_empty());
        assert_eq!(finished.count_moves(), 0);
        board.put(sq(9, 4), captain(Color::Blue));
        board.put(sq(9, 5), captain(Color::Blue));
        let error = Position::from_board(board, Color::Red).unwrap_err();
        assert_eq!(error, PositionError::TooMany { piece: captain(Color::Blue), count: 2, max: 1 });
        assert_eq!(error.to_string(), "2 blue captains, more than the 1 a side starts with");
    }

    #[test]
    fn counters_at_their_limits_neither_overflow_nor_drift() {
        let fen = "4c4/9/9/9/9/9/9/9/9/4C4 b - - 4294967295 4294967295";
        let start: Position = fen.parse().unwrap();
        let mut position = start.clone();
        let mv = position.moves()[0];
        let undo = position.make(mv);
        assert_eq!((position.halfmoves(), position.fullmoves()), (u32::MAX, 0));
        let null = position.make_null();
        position.unmake_null(null);
        position.unmake(mv, undo);
        assert_eq!(position, start);
    }

    #[test]
    fn a_side_with_every_piece_blocked_has_no_move() {
        // The red captain on a1 is boxed in by its elephants on a2 and b1, whose eyes b3 and c2
        // hold blue soldiers that no red piece can reach.
        let stuck: Position = "4c4/9/9/9/9/9/9/1s7/E1s6/CE7 w - - 0 1".parse().unwrap();
        assert!(!stuck.has_moves());
        assert_eq!(stuck.outcome(), Some(Outcome::no_move(Color::Red)));
        assert!(stuck.moves().is_empty());
        let blue_to_move: Position = "4c4/9/9/9/9/9/9/1s7/E1s6/CE7 b - - 0 1".parse().unwrap();
        assert_eq!(blue_to_move.outcome(), None);
    }
}
