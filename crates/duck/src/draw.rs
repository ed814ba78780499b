//! The board drawn as text for a terminal: one glyph per piece, blue's side on top, row and column
//! numbers on the edges (`arbiter duck explain --board`, `arbiter duck play`, [`Board`]'s
//! `Display`).
//!
//! ```
//! use arbiter_duck::Board;
//!
//! let drawing = Board::initial().to_string();
//! assert!(drawing.starts_with("9 "));
//! assert!(drawing.ends_with("  ０１２３４５６７８\n"));
//! ```

use std::fmt;

use crate::{Board, Color, Square};

/// Writes `board` as text, blue's side (row 9) on top, row and column numbers on the edges;
/// with `ansi`, red and blue pieces are coloured for terminals.
pub fn render_board(out: &mut Vec<u8>, board: &Board, ansi: bool) {
    let mut text = String::new();
    for row in (0..Square::ROWS).rev() {
        text.push(char::from(b'0' + row));
        text.push(' ');
        for sq in (0..Square::COLS).filter_map(|col| Square::new(row, col)) {
            match (board.piece_at(sq), ansi) {
                (None, _) => text.push('・'),
                (Some(piece), false) => text.push(piece.glyph()),
                (Some(piece), true) => {
                    text.push_str(match piece.color {
                        Color::Red => "\x1b[1;31m",
                        Color::Blue => "\x1b[1;34m",
                    });
                    text.push(piece.glyph());
                    text.push_str("\x1b[0m");
                }
            }
        }
        text.push('\n');
    }
    text.push_str("  ０１２３４５６７８\n");
    out.extend_from_slice(text.as_bytes());
}

impl fmt::Display for Board {
    /// Row 9 (blue's side) on top, one glyph per piece, `・` for an empty point; see
    /// [`render_board`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        render_board(&mut text, self, false);
        f.write_str(&String::from_utf8_lossy(&text))
    }
}
