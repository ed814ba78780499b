//! A piece: a side and a role.

use std::fmt;

use crate::{Color, Role};

/// A piece of one side.
///
/// ```
/// use arbiter_duck::{Color, Piece, Role};
///
/// assert_eq!(Piece::new(Color::Blue, Role::Captain).to_string(), "blue captain");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The official description, `[color] [type]`, as a static string.
    pub const fn name(self) -> &'static str {
        const NAMES: [[&str; 7]; 2] = [
            [
                "red car",
                "red horse",
                "red elephant",
                "red guard",
                "red captain",
                "red soldier",
                "red duck",
            ],
            [
                "blue car",
                "blue horse",
                "blue elephant",
                "blue guard",
                "blue captain",
                "blue soldier",
                "blue duck",
            ],
        ];
        NAMES[self.color.index()][self.role.index()]
    }

    /// The FEN letter: the role's [`letter`](Role::letter), upper case for red.
    pub const fn letter(self) -> char {
        match self.color {
            Color::Red => self.role.letter().to_ascii_uppercase(),
            Color::Blue => self.role.letter(),
        }
    }

    /// The piece whose FEN [`letter`](Piece::letter) is `letter`.
    pub fn from_letter(letter: char) -> Option<Piece> {
        let color = if letter.is_ascii_uppercase() { Color::Red } else { Color::Blue };
        Role::from_letter(letter.to_ascii_lowercase()).map(|role| Piece::new(color, role))
    }

    /// A single Chinese character for boards: red and blue use the traditional pairs of glyphs, so
    /// the two sides stay apart without colour.
    pub const fn glyph(self) -> char {
        const GLYPHS: [[char; 7]; 2] = [
            ['俥', '傌', '相', '仕', '帥', '兵', '鸭'],
            ['車', '馬', '象', '士', '將', '卒', '鴨'],
        ];
        GLYPHS[self.color.index()][self.role.index()]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_read_back() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                assert_eq!(Piece::from_letter(piece.letter()), Some(piece));
            }
        }
        assert_eq!(Piece::new(Color::Red, Role::Duck).letter(), 'D');
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::from_letter('é'), None);
    }

    #[test]
    fn names_are_color_then_role() {
        for color in Color::ALL {
            for role in Role::ALL {
                assert_eq!(Piece::new(color, role).name(), format!("{color} {role}"));
            }
        }
    }
}
