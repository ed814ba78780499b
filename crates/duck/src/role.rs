//! The seven kinds of pieces.
//!
//! ```
//! use arbiter_duck::Role;
//!
//! let names: Vec<_> = Role::ALL.iter().map(|r| r.name()).collect();
//! assert_eq!(names, ["car", "horse", "elephant", "guard", "captain", "soldier", "duck"]);
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
