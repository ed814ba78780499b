//! Who attacks a square: the movement table read backwards.
//!
//! A piece attacks a square when it could move there in one move, whatever stands there. The
//! queries take the occupancy as a parameter, so that a static exchange evaluation can take the
//! pieces that have already captured off the board and ask again: a horse leg, an elephant eye,
//! either of the duck's two points or a car's line that such a piece blocked then opens up.
//!
//! ```
//! use arbiter_duck::{Bitboard, Color, Position, Square};
//!
//! // Red cars on a1 and a2 behind each other, a blue soldier on a5, the captains on e1 and e10.
//! let position: Position = "4c4/9/9/9/9/s8/9/9/R8/R3C4 w - - 0 1".parse().unwrap();
//! let board = position.board();
//! let sq = |name| Square::from_name(name).unwrap();
//! let occupied = board.occupied();
//! assert_eq!(board.attackers(sq("a5"), Color::Red, occupied), Bitboard::from_square(sq("a2")));
//! // Once the car on a2 has captured, the one on a1 sees through.
//! let after = occupied.without(sq("a2"));
//! assert_eq!(board.attackers(sq("a5"), Color::Red, after), Bitboard::from_square(sq("a1")));
//! assert!(!board.captain_attacked(Color::Red));
//! ```

use crate::{Bitboard, Board, Color, Square, movement};

impl Board {
    /// The pieces of `by` that could move to `to` if exactly the squares of `occupied` held pieces:
    /// only `by`'s pieces standing on `occupied` count, and every square of `occupied` blocks.
    /// Whose piece stands on `to` does not matter.
    #[inline]
    pub fn attackers(&self, to: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(by) & occupied;
        let mut found = Bitboard::EMPTY;
        for role in movement::SLIDERS {
            for from in movement::sources(role, to) & theirs & self.by_role(role) {
                if movement::reaches_from_source(role, from, to, occupied) {
                    found = found.with(from);
                }
            }
        }
        for from in movement::leaper_sources(to) & theirs {
            if let Some(piece) = self.piece_at(from)
                && movement::reaches(piece.role, from, to, occupied)
            {
                found = found.with(from);
            }
        }
        found
    }

    /// Whether some piece of `by` could move to `to` (capturing whatever stands there, if it is
    /// not `by`'s own).
    #[inline]
    pub fn attacked(&self, to: Square, by: Color) -> bool {
        !self.by_color(by).contains(to) && self.attacked_with(to, by, self.occupied())
    }

    /// Whether [`attackers`](Board::attackers) is not empty, stopping at the first attacker found.
    #[inline]
    pub fn attacked_with(&self, to: Square, by: Color, occupied: Bitboard) -> bool {
        self.any_attacker(to, self.by_color(by) & occupied, occupied)
    }

    /// Whether one of the pieces on `theirs` (all of one side) could move to `to` with `occupied`
    /// in the way. Inlined into the judge's check detection, which runs after every valid move.
    ///
    /// Few pieces can attack a given square at all (a slider on its lines, a leaper near it), and
    /// these are found with one mask before any of them is looked at: most squares have none.
    #[inline(always)]
    fn any_attacker(&self, to: Square, theirs: Bitboard, occupied: Bitboard) -> bool {
        let sliders =
            movement::SLIDERS.iter().fold(Bitboard::EMPTY, |set, &r| set | self.by_role(r));
        let candidates = theirs & movement::attacker_squares(to, sliders);
        for from in candidates {
            if let Some(piece) = self.piece_at(from)
                && movement::reaches_from_source(piece.role, from, to, occupied)
            {
                return true;
            }
        }
        false
    }

    /// Whether `color`'s captain is on the board and some piece of the other side could capture
    /// it: this game's "check" for one side.
    #[inline]
    pub fn captain_attacked(&self, color: Color) -> bool {
        self.captain(color)
            .is_some_and(|sq| self.any_attacker(sq, self.by_color(!color), self.occupied()))
    }

    /// Whether this is a check position: either side has a piece that could capture the other
    /// side's captain in one move. Never once a captain is gone: the game is over then.
    #[inline]
    pub fn is_check(&self) -> bool {
        match (self.captain(Color::Red), self.captain(Color::Blue)) {
            (Some(red), Some(blue)) => self.is_check_at([red, blue]),
            _ => false,
        }
    }

    /// [`is_check`](Board::is_check) with both captains on the board, on `captains` (by
    /// [`Color::index`]), as the game knows them.
    ///
    /// Always inlined: the judge asks after every valid move, and the call would cost more than
    /// the common answer.
    #[inline(always)]
    pub(crate) fn is_check_at(&self, captains: [Square; 2]) -> bool {
        let occupied = self.occupied();
        let [red, blue] = captains;
        self.any_attacker(red, self.by_color(Color::Blue), occupied)
            || self.any_attacker(blue, self.by_color(Color::Red), occupied)
    }
}
