//! The official output line of a command: `piece;captured or NA;check;over`, e.g.
//! `blue car;NA;yes;no`, or `Invalid command`. The judge writes one per command, so each line is
//! copied from tables built at compile time.
//!
//! ```
//! use arbiter_duck::{Game, Square};
//!
//! let sq = |x, y| Square::new(x, y).unwrap();
//! let played = Game::new().play(sq(0, 3), sq(1, 4)).unwrap();
//! let mut line = Vec::new();
//! played.write_line(&mut line);
//! assert_eq!(line, b"red guard;NA;no;no\n");
//! assert_eq!(played.to_string(), "red guard;NA;no;no");
//! ```

use std::fmt;

use crate::{Color, Piece, Played, Role};

/// The line of an invalid command, with its newline.
pub const INVALID: &[u8] = b"Invalid command\n";

impl Played {
    /// The official output line without its newline, e.g. `blue car;NA;yes;no`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        self.write_line(out);
        out.pop();
    }

    /// The official output line with its newline.
    ///
    /// The judge writes one per command, so the whole line comes from a table, copied with a
    /// fixed size (no call to `memcpy`), then trimmed.
    #[inline]
    pub fn write_line(&self, out: &mut Vec<u8>) {
        let captured = self.captured.map_or(0, |p| 1 + piece_index(p));
        let ending = usize::from(self.check) | usize::from(self.game_over) << 1;
        let line = &LINES[piece_index(self.piece)][captured][ending];
        let start = out.len();
        out.extend_from_slice(&line.bytes);
        out.truncate(start + usize::from(line.len));
    }
}

/// A short byte string in a fixed-size array, long enough for the longest line
/// (`blue elephant;blue elephant;yes;yes` and its newline).
#[derive(Debug, Clone, Copy)]
struct Snippet {
    bytes: [u8; 40],
    len: u8,
}

impl Snippet {
    const EMPTY: Snippet = Snippet { bytes: [0; 40], len: 0 };

    const fn push(mut self, text: &str) -> Snippet {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            self.bytes[self.len as usize] = text[i];
            self.len += 1;
            i += 1;
        }
        self
    }
}

const fn piece_index(piece: Piece) -> usize {
    piece.color.index() * 7 + piece.role.index()
}

/// Every line: `[piece];[captured or NA];[check];[over]` and the newline, indexed by piece, by
/// captured piece (index 0 is `NA`) and by `check | over << 1`.
static LINES: [[[Snippet; 4]; 15]; 14] = {
    const ENDINGS: [&str; 4] = [";no;no\n", ";yes;no\n", ";no;yes\n", ";yes;yes\n"];
    let mut table = [[[Snippet::EMPTY; 4]; 15]; 14];
    let mut p = 0;
    while p < 14 {
        let piece = Piece::new(Color::ALL[p / 7], Role::ALL[p % 7]);
        let mut c = 0;
        while c < 15 {
            let captured = if c == 0 {
                "NA"
            } else {
                Piece::new(Color::ALL[(c - 1) / 7], Role::ALL[(c - 1) % 7]).name()
            };
            let mut e = 0;
            while e < 4 {
                table[p][c][e] =
                    Snippet::EMPTY.push(piece.name()).push(";").push(captured).push(ENDINGS[e]);
                e += 1;
            }
            c += 1;
        }
        p += 1;
    }
    table
};

impl fmt::Display for Played {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = Vec::with_capacity(40);
        self.write_to(&mut line);
        f.write_str(&String::from_utf8_lossy(&line))
    }
}
