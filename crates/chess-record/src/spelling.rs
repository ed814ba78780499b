//! Canonical spellings of a move: standard SAN and the contest dialect.
//!
//! ```
//! use arbiter_chess_record::{Dialect, SanText};
//! use shakmaty::{san::San, Square, Role};
//!
//! let promotion = San::Normal {
//!     role: Role::Pawn, file: Some(shakmaty::File::D), rank: None, capture: true,
//!     to: Square::E8, promotion: Some(Role::Queen),
//! };
//! assert_eq!(SanText::new(promotion, true, true, Dialect::Contest).as_str(), "dxe8Q+");
//! assert_eq!(SanText::new(promotion, true, true, Dialect::Standard).as_str(), "dxe8=Q#");
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::san::San;
use shakmaty::{CastlingSide, Role, Square};

/// Which spelling of SAN is canonical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// The contest's records (seed 002): promotion without `=` (`e8Q`), and `+`, never `#`, on mate.
    Contest,
    /// Standard SAN as FIDE, PGN and shakmaty write it: `e8=Q`, and `#` on mate.
    Standard,
}

impl Dialect {
    /// The suffix this dialect writes after a move that gives check (`check`) or mates (`mate`).
    ///
    /// Standard SAN marks any win with `#`, a variant's win by its own rule (an exploded king,
    /// the king on the hill) included, even when the move gives no check.
    pub const fn suffix(self, check: bool, mate: bool) -> &'static str {
        match (self, check, mate) {
            (Dialect::Standard, _, true) => "#",
            (_, true, _) => "+",
            _ => "",
        }
    }
}

/// Error when a dialect name is neither `contest` nor `standard`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown dialect `{0}` (expected `contest` or `standard`)")]
pub struct ParseDialectError(String);

impl FromStr for Dialect {
    type Err = ParseDialectError;

    fn from_str(name: &str) -> Result<Dialect, ParseDialectError> {
        match name {
            "contest" => Ok(Dialect::Contest),
            "standard" => Ok(Dialect::Standard),
            _ => Err(ParseDialectError(name.to_owned())),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Contest => "contest",
            Dialect::Standard => "standard",
        })
    }
}

/// The longest spelling is `Qa1xb2=Q#`-like: 16 bytes leave room to spare.
const CAPACITY: usize = 16;

/// The letters of the files and the digits of the ranks, by index: looked up, where shakmaty's
/// `char` methods take a branch per value.
const FILES: [u8; 8] = *b"abcdefgh";
const RANKS: [u8; 8] = *b"12345678";

/// A move spelled out in a [`Dialect`], kept on the stack so that checking a record allocates
/// nothing per move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanText {
    bytes: [u8; CAPACITY],
    len: u8,
}

impl SanText {
    /// Spells `san` in `dialect`, with the suffix for a move that gives `check` or `mate`.
    pub fn new(san: San, check: bool, mate: bool, dialect: Dialect) -> SanText {
        let mut text = SanText { bytes: [0; CAPACITY], len: 0 };
        match san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::Pawn {
                    text.push(role.upper_char());
                }
                if let Some(file) = file {
                    text.push_byte(FILES[file.to_usize()]);
                }
                if let Some(rank) = rank {
                    text.push_byte(RANKS[rank.to_usize()]);
                }
                if capture {
                    text.push_byte(b'x');
                }
                text.push_square(to);
                if let Some(promotion) = promotion {
                    if dialect == Dialect::Standard {
                        text.push('=');
                    }
                    text.push(promotion.upper_char());
                }
            }
            San::Castle(CastlingSide::KingSide) => text.push_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => text.push_str("O-O-O"),
            San::Put { role, to } => {
                if role != Role::Pawn {
                    text.push(role.upper_char());
                }
                text.push('@');
                text.push_square(to);
            }
            San::Null => text.push_str("--"),
        }
        text.push_str(dialect.suffix(check, mate));
        text
    }

    /// The spelling.
    pub fn as_str(&self) -> &str {
        // Only ASCII characters are ever pushed.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    fn push(&mut self, ch: char) {
        // Every char pushed is ASCII.
        if let Ok(byte) = u8::try_from(ch) {
            self.push_byte(byte);
        }
    }

    fn push_byte(&mut self, byte: u8) {
        // No spelling exceeds the capacity; a longer one would be cut rather than overflow.
        if let Some(slot) = self.bytes.get_mut(usize::from(self.len)) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn push_square(&mut self, square: Square) {
        self.push_byte(FILES[square.file().to_usize()]);
        self.push_byte(RANKS[square.rank().to_usize()]);
    }

    fn push_str(&mut self, s: &str) {
        // Every string pushed is ASCII.
        s.bytes().for_each(|byte| self.push_byte(byte));
    }
}

impl fmt::Display for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for SanText {
    fn eq(&self, other: &str) -> bool {
        // Bytes, not `as_str`: this runs once per move and needs no UTF-8 check. A loop over
        // the few bytes of a move costs less than a call to `memcmp`.
        let other = other.as_bytes();
        other.len() == usize::from(self.len) && self.bytes.iter().zip(other).all(|(a, b)| a == b)
    }
}
