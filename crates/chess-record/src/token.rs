//! Reading a move token tolerantly: what a writer meant, whatever dialect or slip they used.
//!
//! shakmaty's SAN parser accepts only `e8=Q` for a promotion and ignores a `+` or `#`; this module
//! also accepts `e8Q`, `0-0`, a dash between two squares (`e2-e4`, `Ng1-f3`), an en passant
//! mark (`exd6e.p.`, `exd6ep`) and UCI or long algebraic notation without a piece letter
//! (`g1f3`, `e7e8q`, `g1-f3`, `e4xd5`), and keeps the suffix as written, so that the strict
//! comparison with the canonical spelling can say exactly what differs. A drop (`N@f3`) is read
//! too; whether it is a move depends on the variant. Null moves (`--`, `Z0`) are no move here:
//! [`is_null_move`] tells them.
//!
//! ```
//! use arbiter_chess_record::MoveToken;
//!
//! let token = MoveToken::read("dxe8Q++")?;
//! assert_eq!(token.suffix(), "++");
//! assert!(!token.has_promotion_equals());
//! assert_eq!(token.san().to_string(), "dxe8=Q");
//! # Ok::<_, arbiter_chess_record::ParseMoveTokenError>(())
//! ```

use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, File, Rank, Role, Square};

/// The longest token worth reading: a SAN body is at most 7 bytes (`Qa1xb2Q`).
const MAX_BODY: usize = 12;

/// A move token read tolerantly, with the details of how it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveToken<'a> {
    text: &'a str,
    san: San,
    suffix_len: usize,
    zero_castling: bool,
    promotion_equals: bool,
    dash: bool,
    en_passant_mark: bool,
    squares: Option<UciMove>,
    capture_mark: bool,
}

/// Whether `token` is a null move as PGN files write it: `--` (python-chess, shakmaty),
/// `Z0` (ChessBase), `0000` (UCI) or `@@@@`.
pub fn is_null_move(token: &str) -> bool {
    // The first byte rules out nearly every move before any compare.
    matches!(token.as_bytes().first(), Some(b'-' | b'Z' | b'0' | b'@'))
        && matches!(token.trim_end_matches(['+', '#']), "--" | "Z0" | "0000" | "@@@@")
}

/// Error when a token cannot be read as a move at all (an annotation, a result, `e.p.`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a move in algebraic notation")]
pub struct ParseMoveTokenError;

impl<'a> MoveToken<'a> {
    /// Reads `text`: a SAN body, then any run of `+` and `#`.
    pub fn read(text: &'a str) -> Result<MoveToken<'a>, ParseMoveTokenError> {
        let suffix_len = text.bytes().rev().take_while(|&b| matches!(b, b'+' | b'#')).count();
        let body = &text.as_bytes()[..text.len() - suffix_len];
        match common_san(body) {
            Some(san) => Ok(MoveToken::common(text, san, suffix_len)),
            None => MoveToken::read_any(text, body, suffix_len),
        }
    }

    /// A token whose body has one of the common shapes (see [`common_san`]): nothing in it
    /// but the SAN itself.
    fn common(text: &'a str, san: San, suffix_len: usize) -> MoveToken<'a> {
        MoveToken {
            text,
            san,
            suffix_len,
            zero_castling: false,
            promotion_equals: false,
            dash: false,
            en_passant_mark: false,
            squares: None,
            capture_mark: false,
        }
    }

    /// Reads any token: `body` is `text` without its suffix of `suffix_len` bytes.
    fn read_any(
        text: &'a str,
        body: &[u8],
        suffix_len: usize,
    ) -> Result<MoveToken<'a>, ParseMoveTokenError> {
        let marked = body.strip_suffix(b"e.p.").or_else(|| body.strip_suffix(b"ep"));
        let en_passant_mark = marked.is_some();
        let bytes = marked.unwrap_or(body);
        if bytes.len() > MAX_BODY {
            return Err(ParseMoveTokenError);
        }
        // Most tokens have no dash: they are parsed in place, without a copy.
        let mut buf = [0u8; MAX_BODY];
        let (bytes, dash) = match without_dash(bytes, &mut buf) {
            Some(len) => (&buf[..len], true),
            None => (bytes, false),
        };
        // Only a body starting with a square can name two: most tokens are rejected at once.
        let squares = match bytes {
            [b'a'..=b'h', b'1'..=b'8', _, _, ..] => two_squares(bytes),
            _ => None,
        };
        // Looked for once: this runs once per move.
        let promotion_equals = bytes.contains(&b'=');
        let capture_mark = squares.is_some() && bytes.contains(&b'x');
        let (san, zero_castling) = match squares {
            // Read as SAN only for the spelling's details; the squares find the move.
            Some(UciMove::Normal { from, to, promotion }) => (
                San::Normal {
                    role: Role::Pawn,
                    file: Some(from.file()),
                    rank: Some(from.rank()),
                    capture: capture_mark,
                    to,
                    promotion,
                },
                false,
            ),
            _ => match bytes {
                b"0-0" => (San::Castle(CastlingSide::KingSide), true),
                b"0-0-0" => (San::Castle(CastlingSide::QueenSide), true),
                _ => (parse_body(bytes, promotion_equals)?, false),
            },
        };
        // A null move is no move (see `is_null_move`).
        if matches!(san, San::Null) {
            return Err(ParseMoveTokenError);
        }
        Ok(MoveToken {
            text,
            san,
            suffix_len,
            zero_castling,
            promotion_equals,
            dash,
            en_passant_mark,
            squares,
            capture_mark,
        })
    }

    /// The token as written.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The move as SAN (suffix left out).
    pub fn san(&self) -> San {
        self.san
    }

    /// The run of `+` and `#` after the move, as written.
    pub fn suffix(&self) -> &'a str {
        &self.text[self.text.len() - self.suffix_len..]
    }

    /// Whether castling was written with zeros (`0-0`).
    pub fn is_zero_castling(&self) -> bool {
        self.zero_castling
    }

    /// Whether a `=` stood before the promotion piece.
    pub fn has_promotion_equals(&self) -> bool {
        self.promotion_equals
    }

    /// Whether a dash stood between the source and the destination square (`e2-e4`).
    pub fn has_dash(&self) -> bool {
        self.dash
    }

    /// Whether the move ended with an en passant mark (`e.p.` or `ep`).
    pub fn has_en_passant_mark(&self) -> bool {
        self.en_passant_mark
    }

    /// The source and destination squares, when the token names both and no piece letter: UCI
    /// (`g1f3`, `e7e8q`) or long algebraic notation (`g1-f3`, `e4xd5`).
    pub fn squares(&self) -> Option<UciMove> {
        self.squares
    }

    /// Whether an `x` marks a capture between the two squares of [`squares`](Self::squares).
    pub fn has_capture_mark(&self) -> bool {
        self.capture_mark
    }
}

impl<'a> TryFrom<&'a str> for MoveToken<'a> {
    type Error = ParseMoveTokenError;

    fn try_from(text: &'a str) -> Result<MoveToken<'a>, ParseMoveTokenError> {
        MoveToken::read(text)
    }
}

/// The SAN of a body in one of the shapes nearly every move has, read directly: a pawn's move
/// (`e4`) or capture (`exd5`), a piece's move or capture (`Nf3`, `Nxf3`), or either with the
/// file or the rank it comes from (`Nbd2`, `R1xe2`). `None` for any other body, which
/// [`MoveToken::read_any`] reads: this is its answer for these shapes, without its searches
/// for dashes, marks and squares.
pub(crate) fn common_san(body: &[u8]) -> Option<San> {
    let file = |byte: u8| File::from_char(char::from(byte));
    let rank = |byte: u8| Rank::from_char(char::from(byte));
    let square = |f: u8, r: u8| Some(Square::from_coords(file(f)?, rank(r)?));
    let piece = |byte: u8| match byte {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    };
    // The file or the rank a piece comes from.
    let hints = |byte: u8| match (file(byte), rank(byte)) {
        (None, None) => None,
        hints => Some(hints),
    };
    let normal = |role, (file, rank), capture, to| San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    };
    match *body {
        [f, r] => Some(normal(Role::Pawn, (None, None), false, square(f, r)?)),
        [p, f, r] => Some(normal(piece(p)?, (None, None), false, square(f, r)?)),
        [from, b'x', f, r] => match piece(from) {
            Some(role) => Some(normal(role, (None, None), true, square(f, r)?)),
            None => Some(normal(Role::Pawn, (Some(file(from)?), None), true, square(f, r)?)),
        },
        [p, hint, f, r] => Some(normal(piece(p)?, hints(hint)?, false, square(f, r)?)),
        [p, hint, b'x', f, r] => Some(normal(piece(p)?, hints(hint)?, true, square(f, r)?)),
        _ => None,
    }
}

/// Writes into `buf` the body (at most [`MAX_BODY`] bytes) with the dash of long algebraic
/// notation (`e2-e4`, `Ng1-f3`) taken out, and returns its length; `None` when there is no such
/// dash. Only a dash between two squares counts: `O-O` and `0-0` keep theirs.
fn without_dash(bytes: &[u8], buf: &mut [u8; MAX_BODY]) -> Option<usize> {
    let square = |s: &[u8]| matches!(s, [b'a'..=b'h', b'1'..=b'8', ..]);
    let at = bytes.iter().position(|&b| b == b'-')?;
    if at < 2 || !square(&bytes[at - 2..]) || !square(&bytes[at + 1..]) {
        return None;
    }
    let (head, tail) = (&bytes[..at], &bytes[at + 1..]);
    buf.get_mut(..head.len())?.copy_from_slice(head);
    buf.get_mut(head.len()..head.len() + tail.len())?.copy_from_slice(tail);
    Some(head.len() + tail.len())
}

/// The move of a body that names two squares and no piece: `g1f3`, `e7e8q`, `e4xd5`, `e7e8=Q`
/// (any dash already taken out).
fn two_squares(bytes: &[u8]) -> Option<UciMove> {
    let square = |s: &[u8]| match s {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Square::from_ascii(&[*file, *rank]).ok(),
        _ => None,
    };
    let from = square(bytes.get(..2)?)?;
    let rest = &bytes[2..];
    let rest = rest.strip_prefix(b"x").unwrap_or(rest);
    let to = square(rest.get(..2)?)?;
    let promotion = match &rest[2..] {
        [] => None,
        [piece] | [b'=', piece] => Some(Role::from_char(char::from(*piece).to_ascii_lowercase())?),
        _ => return None,
    };
    Some(UciMove::Normal { from, to, promotion })
}

/// Parses a SAN body, inserting the `=` that the contest dialect leaves out (`e8Q` → `e8=Q`).
fn parse_body(bytes: &[u8], equals: bool) -> Result<San, ParseMoveTokenError> {
    let dialect_promotion = match bytes {
        [.., b'1'..=b'8', piece] => b"QRBNKqrbnk".contains(piece),
        _ => false,
    };
    if dialect_promotion && !equals {
        let mut buf = [0u8; MAX_BODY + 1];
        let (head, piece) = bytes.split_at(bytes.len() - 1);
        buf[..head.len()].copy_from_slice(head);
        buf[head.len()] = b'=';
        buf[head.len() + 1..=bytes.len()].copy_from_slice(piece);
        San::from_ascii(&buf[..=bytes.len()]).map_err(|_| ParseMoveTokenError)
    } else {
        San::from_ascii(bytes).map_err(|_| ParseMoveTokenError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte a common body can hold, and a neighbour of each range.
    const BYTES: &[u8] = b"abcdefghi12345678x0NBRQKPO-=+#";

    /// Wherever the direct reading of the common shapes answers, the general reading gives the
    /// same token: every body of up to five bytes from [`BYTES`] (24 million), with each suffix.
    #[test]
    fn common_shapes_read_as_any_token() {
        let mut common = 0;
        let mut body = Vec::new();
        for len in 1..=5u32 {
            for mut index in 0..BYTES.len().pow(len) {
                body.clear();
                for _ in 0..len {
                    body.push(BYTES[index % BYTES.len()]);
                    index /= BYTES.len();
                }
                let Some(san) = common_san(&body) else {
                    continue;
                };
                common += 1;
                for suffix in ["", "+", "#", "+#"] {
                    let text = format!("{}{suffix}", std::str::from_utf8(&body).unwrap_or("?"));
                    let token = MoveToken::common(&text, san, suffix.len());
                    assert_eq!(
                        Ok(token),
                        MoveToken::read_any(&text, &body, suffix.len()),
                        "{text}"
                    );
                    assert_eq!(Ok(token), MoveToken::read(&text), "{text}");
                }
            }
        }
        // e4, exd5, Nf3, Nxf3, Nbd2, N1d2, Nbxd2, N1xd2 for every square, file and rank.
        assert_eq!(common, 64 * (1 + 8 + 5 * 2 + 5 * 16 * 2), "{common}");
    }
}
