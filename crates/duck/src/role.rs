//! The seven kinds of pieces.
//!
//! ```
//! use arbiter_duck::Role;
//!
//! let names: Vec<_> = Role::ALL.iter().map(|r| r.name()).collect();
//! assert_eq!(names, ["car", "horse", "elephant", "guard", "captain", "soldier", "duck"]);
//! let letters: String = Role::ALL.iter().map(|r| r.letter()).collect();
//! assert_eq!(letters, "rhegcsd");
//! ```

use std::fmt;

/// A kind of piece, with the official English names. The order is the official numbering 1..=7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// 车: slides along a row or a column without jumping.
    Car = 0,
    /// 马: the xiangqi horse, lame when its leg is occupied.
    Horse = 1,
    /// 象: two diagonal steps, blocked by a piece on its eye.
    Elephant = 2,
    /// 士: one diagonal step.
    Guard = 3,
    /// 将: one orthogonal step; losing it loses the game.
    Captain = 4,
    /// 兵: one step in any of the eight directions.
    Soldier = 5,
    /// 鸭: a (2,3) leap, blocked by either of two intermediate points.
    Duck = 6,
}

impl Role {
    /// Every role, in the official order.
    pub const ALL: [Role; 7] = [
        Role::Car,
        Role::Horse,
        Role::Elephant,
        Role::Guard,
        Role::Captain,
        Role::Soldier,
        Role::Duck,
    ];

    /// The official English name, e.g. `elephant`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Car => "car",
            Role::Horse => "horse",
            Role::Elephant => "elephant",
            Role::Guard => "guard",
            Role::Captain => "captain",
            Role::Soldier => "soldier",
            Role::Duck => "duck",
        }
    }

    /// The letter of fairy-stockfish's FEN for this game, in lower case: `r` car, `h` horse,
    /// `e` elephant, `g` guard, `c` captain, `s` soldier, `d` duck.
    pub const fn letter(self) -> char {
        match self {
            Role::Car => 'r',
            Role::Horse => 'h',
            Role::Elephant => 'e',
            Role::Guard => 'g',
            Role::Captain => 'c',
            Role::Soldier => 's',
            Role::Duck => 'd',
        }
    }

    /// The role whose [`letter`](Role::letter) is `letter` (lower case).
    pub fn from_letter(letter: char) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.letter() == letter)
    }

    /// Calls `f` with each role in the official order, each call with a constant role: inlined
    /// code that dispatches on the role (such as [`movement::targets`](crate::movement::targets))
    /// then compiles to that role's code alone.
    #[inline(always)]
    pub fn each(mut f: impl FnMut(Role)) {
        f(Role::Car);
        f(Role::Horse);
        f(Role::Elephant);
        f(Role::Guard);
        f(Role::Captain);
        f(Role::Soldier);
        f(Role::Duck);
    }

    /// The position in [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
