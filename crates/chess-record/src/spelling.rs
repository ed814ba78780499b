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
use shakmaty::{CastlingSide, Role};

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

/// The letters of the files, the digits of the ranks and the letters of the pieces, by index
/// (shakmaty numbers the pieces from 1): looked up, where shakmaty's `char` methods take a
/// branch per value.
const FILES: [u8; 8] = *b"abcdefgh";
const RANKS: [u8; 8] = *b"12345678";
const ROLES: [u8; 7] = *b"?PNBRQK";

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
        // Written in local variables, not through `self`: this runs once per move.
        let mut bytes = [0; CAPACITY];
        let mut len = 0u8;
        // No spelling exceeds the capacity; a longer one would be cut rather than overflow.
        let mut push = |byte: u8| {
            if let Some(slot) = bytes.get_mut(usize::from(len)) {
                *slot = byte;
                len += 1;
            }
        };
        let letter = |role: Role| ROLES[usize::from(role)];
        match san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::Pawn {
                    push(letter(role));
                }
                if let Some(file) = file {
                    push(FILES[file.to_usize()]);
                }
                if let Some(rank) = rank {
                    push(RANKS[rank.to_usize()]);
                }
                if capture {
                    push(b'x');
                }
                push(FILES[to.file().to_usize()]);
                push(RANKS[to.rank().to_usize()]);
                if let Some(promotion) = promotion {
                    if dialect == Dialect::Standard {
                        push(b'=');
                    }
                    push(letter(promotion));
                }
            }
            San::Castle(CastlingSide::KingSide) => b"O-O".iter().for_each(|&b| push(b)),
            San::Castle(CastlingSide::QueenSide) => b"O-O-O".iter().for_each(|&b| push(b)),
            San::Put { role, to } => {
                if role != Role::Pawn {
                    push(letter(role));
                }
                push(b'@');
                push(FILES[to.file().to_usize()]);
                push(RANKS[to.rank().to_usize()]);
            }
            San::Null => b"--".iter().for_each(|&b| push(b)),
        }
        dialect.suffix(check, mate).bytes().for_each(push);
        SanText { bytes, len }
    }

    /// The spelling.
    pub fn as_str(&self) -> &str {
        // Only ASCII characters are ever pushed.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use shakmaty::san::SanPlus;
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::random::RandomGames;

    /// The standard dialect spells every legal move of the positions of random games as
    /// shakmaty does, and the contest dialect differs only in `=` and `#`.
    #[test]
    fn standard_spellings_are_shakmatys() {
        let mut games = RandomGames::new(5);
        let mut promotions = 0;
        for _ in 0..30 {
            let mut pos = Chess::default();
            for m in games.next_moves() {
                for candidate in pos.legal_moves() {
                    let san = San::from_move(&pos, candidate);
                    let mut after = pos.clone();
                    let expected = SanPlus::from_move_and_play_unchecked(&mut after, candidate);
                    let check = after.is_check();
                    let mate = after.is_checkmate();
                    let standard = SanText::new(san, check, mate, Dialect::Standard);
                    assert_eq!(standard.as_str(), expected.to_string());
                    let contest = SanText::new(san, check, mate, Dialect::Contest);
                    assert_eq!(
                        contest.as_str(),
                        standard.as_str().replace('=', "").replace('#', "+")
                    );
                    promotions += usize::from(candidate.is_promotion());
                }
                pos.play_unchecked(m);
            }
        }
        assert!(promotions > 0, "{promotions}");
    }
}
