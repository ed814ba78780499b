//! Where the pieces stand.
//!
//! ```
//! use arbiter_duck::{Board, Color, Piece, Role, Square};
//!
//! let board = Board::initial();
//! let sq = Square::new(0, 4).unwrap();
//! assert_eq!(board.piece_at(sq), Some(Piece::new(Color::Red, Role::Captain)));
//! assert_eq!(board.occupied().count(), 32);
//! assert!(!board.is_check());
//! ```

use std::fmt;

use crate::movement::{self, Reach};
use crate::rules::RED_START;
use crate::{Bitboard, Color, Piece, Role, Square, zobrist};

/// The pieces on the 10×9 board, kept both square by square and as sets per side and per role,
/// with their Zobrist key.
///
/// The three mutators [`put`](Board::put), [`remove`](Board::remove) and `move_piece` are the
/// only places that change a square, and they keep the sets and the key in step.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; Square::COUNT],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 7],
    key: u64,
}

impl Board {
    /// A board with no piece.
    pub const fn empty() -> Board {
        Board {
            squares: [None; Square::COUNT],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            key: 0,
        }
    }

    /// The official starting position (`seeds/figures/duck-initial-board.png`).
    pub fn initial() -> Board {
        let mut board = Board::empty();
        for (row, col, role) in RED_START {
            if let Some(sq) = Square::new(row, col) {
                board.put(sq, Piece::new(Color::Red, role));
                board.put(sq.flip_vertical(), Piece::new(Color::Blue, role));
            }
        }
        board
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both sides.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    /// The square of `color`'s captain, if it is still on the board (the first one, should a
    /// position hold several).
    #[inline]
    pub fn captain(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece::new(color, Role::Captain)).first()
    }

    /// The Zobrist key of the pieces (the side to move is not part of it; see
    /// [`Position::key`](crate::Position::key)).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Puts `piece` on `sq`, returning what stood there.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove(sq);
        let bit = Bitboard::from_square(sq);
        self.squares[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] |= bit;
        self.by_role[piece.role.index()] |= bit;
        self.key ^= zobrist::piece_key(piece, sq);
        old
    }

    /// Removes and returns the piece on `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.squares[sq.index()].take()?;
        let bit = !Bitboard::from_square(sq);
        self.by_color[piece.color.index()] &= bit;
        self.by_role[piece.role.index()] &= bit;
        self.key ^= zobrist::piece_key(piece, sq);
        Some(piece)
    }

    /// Moves `piece`, which stands on `from`, to `to`, returning what stood there.
    #[inline(always)]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square, piece: Piece) -> Option<Piece> {
        debug_assert_eq!(self.piece_at(from), Some(piece));
        let captured = self.squares[to.index()];
        let (from_bit, to_bit) = (Bitboard::from_square(from), Bitboard::from_square(to));
        if let Some(captured) = captured {
            self.by_color[captured.color.index()] ^= to_bit;
            self.by_role[captured.role.index()] ^= to_bit;
            self.key ^= zobrist::piece_key(captured, to);
        }
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        self.by_color[piece.color.index()] ^= from_bit | to_bit;
        self.by_role[piece.role.index()] ^= from_bit | to_bit;
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        captured
    }

    /// Whether the piece on `from` may move to `to` by its pattern, ignoring whose piece is on `to`;
    /// `Reach::Never` when `from` is empty.
    #[inline]
    pub fn reach(&self, from: Square, to: Square) -> Reach {
        match self.piece_at(from) {
            Some(piece) => movement::reach(piece.role, from, to, self.occupied()),
            None => Reach::Never,
        }
    }

    /// The squares the piece on `from` can move to: its pattern, minus squares holding its own side.
    #[inline]
    pub fn moves_from(&self, from: Square) -> Bitboard {
        match self.piece_at(from) {
            Some(piece) => {
                movement::targets(piece.role, from, self.occupied()) & !self.by_color(piece.color)
            }
            None => Bitboard::EMPTY,
        }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::initial()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        fmt::Display::fmt(self, f)
    }
}
