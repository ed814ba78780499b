//! The two sides.
//!
//! ```
//! use arbiter_duck::Color;
//!
//! assert_eq!(!Color::Red, Color::Blue);
//! assert_eq!(Color::Blue.to_string(), "blue");
//! ```

use std::fmt;
use std::ops::Not;

/// A side: red moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The side that starts on rows 0..=3 and moves first.
    Red = 0,
    /// The side that starts on rows 6..=9.
    Blue = 1,
}

impl Color {
    /// Both sides, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// The official English name: `red` or `blue`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }

    /// 0 for red, 1 for blue.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
