//! The strict validator of a contest record, for problem setters, and the corners of the rules a
//! set of records reaches.
//!
//! The judge ([`crate::check_record`]) reads any whitespace and any token. A test file must be
//! stricter: one line `1. e4 d5 2. exd5 ...` with one space between tokens and a line feed at
//! its end, move numbers counting from 1, black's move missing in the last round only, at most
//! [`MAX_ROUNDS`] rounds, and every move written in one of the statement's shapes: a piece
//! letter, one file or rank to tell two pieces apart, `x` for a capture, the square, a promotion
//! letter, `+`; or `O-O`, `O-O-O`. Whether the moves are legal and correctly written is the
//! judge's question, not the validator's.
//!
//! ```
//! use arbiter_chess_record::validate::validate;
//!
//! assert_eq!(validate(b"1. e4 d5 2. exd5\n").unwrap().len(), 3);
//! let error = validate(b"1. e4 d5 2. e2-e4\n").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "1:13: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, \
//!      Qxc8+), found `e2-e4`"
//! );
//! ```

use arbiter_scan::{Invalid, Shown, Strict};
use shakmaty::{Chess, Move};

use crate::fault::Fault;
use crate::reading::read_move;
use crate::record::{Verdict, check_record};
use crate::spelling::Dialect;

/// The statement's bound on the number of rounds (move numbers) of a record.
pub const MAX_ROUNDS: u32 = 300;

/// What a move token must look like.
const MOVE: &str = "a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+)";

/// Reads `input` strictly and returns its move tokens, or where it breaks the format or a
/// limit.
pub fn validate(input: &[u8]) -> Result<Vec<&str>, Invalid> {
    let mut reader = Strict::new(input);
    let mut moves = Vec::new();
    let mut round = 0u32;
    while !reader.at_eoln() {
        if round > 0 {
            space_or_eoln(&mut reader)?;
        }
        round += 1;
        let start = reader.offset();
        let expected = format!("the move number `{round}.`");
        let number = reader.token(&expected)?;
        if round > MAX_ROUNDS {
            return Err(reader.error_at(
                start,
                format!("at most {MAX_ROUNDS} rounds"),
                format!("`{}`", Shown(number)),
            ));
        }
        if number != format!("{round}.") {
            return Err(reader.error_at(start, expected, format!("`{}`", Shown(number))));
        }
        for side in 0..2 {
            if side == 1 && reader.at_eoln() {
                // Only the last round may lack black's move.
                break;
            }
            if side == 0 {
                reader.space()?;
            } else {
                space_or_eoln(&mut reader)?;
            }
            let start = reader.offset();
            let token = reader.token(MOVE)?;
            if !is_move_shape(token) {
                return Err(reader.error_at(start, MOVE, format!("`{}`", Shown(token))));
            }
            moves.push(token);
        }
    }
    reader.eoln()?;
    reader.eof()?;
    Ok(moves)
}

/// The space before the next token, where the line may also end.
fn space_or_eoln(reader: &mut Strict<'_>) -> Result<(), Invalid> {
    reader
        .space()
        .map_err(|error| Invalid { expected: "a space or a line feed".to_owned(), ..error })
}

/// Whether `token` has one of the statement's move shapes.
fn is_move_shape(token: &str) -> bool {
    let body = token.strip_suffix('+').unwrap_or(token).as_bytes();
    let file = |b: u8| (b'a'..=b'h').contains(&b);
    let rank = |b: u8| (b'1'..=b'8').contains(&b);
    let promotion = |b: u8| matches!(b, b'Q' | b'R' | b'B' | b'N');
    // A promotion letter follows a pawn's arrival on the last rank of either side.
    let pawn_end = |square_rank: u8, rest: &[u8]| match rest {
        [] => true,
        [p] => promotion(*p) && matches!(square_rank, b'1' | b'8'),
        _ => false,
    };
    match body {
        b"O-O" | b"O-O-O" => true,
        [b'K' | b'Q' | b'R' | b'B' | b'N', rest @ ..] => {
            let rest = match rest {
                [from, rest @ ..] if rest.len() >= 2 && (file(*from) || rank(*from)) => {
                    // A disambiguation only when a square still follows it.
                    if rest.len() == 2 || (rest.len() == 3 && rest[0] == b'x') {
                        rest
                    } else {
                        return false;
                    }
                }
                rest => rest,
            };
            matches!(rest, [f, r] | [b'x', f, r] if file(*f) && rank(*r))
        }
        [f, r, rest @ ..] if file(*f) && rank(*r) => pawn_end(*r, rest),
        [from, b'x', f, r, rest @ ..] if file(*from) && file(*f) && rank(*r) => {
            from.abs_diff(*f) == 1 && pawn_end(*r, rest)
        }
        _ => false,
    }
}

/// The limits at their extremes and the corners of the rules that [`corners`] looks for, in the
/// order of its answer.
pub const CORNERS: [&str; 17] = [
    "empty record",
    "rounds = 300",
    "last round without black's move",
    "answer Yes",
    "answer No",
    "O-O",
    "O-O-O",
    "en passant",
    "promotion",
    "check",
    "capture",
    "disambiguation",
    "No: illegal move",
    "No: ambiguous",
    "No: promotion not written",
    "No: misspelled (x, +, disambiguation)",
    "No: move number or layout",
];

/// Which of [`CORNERS`] the valid record `moves` reaches, judged as the official judge does.
pub fn corners(moves: &[&str]) -> [bool; CORNERS.len()] {
    let mut reached = [false; CORNERS.len()];
    let mut mark = |name: &str| {
        if let Some(i) = CORNERS.iter().position(|&corner| corner == name) {
            reached[i] = true;
        }
    };
    if moves.is_empty() {
        mark("empty record");
    }
    if moves.len().div_ceil(2) == MAX_ROUNDS as usize {
        mark("rounds = 300");
    }
    if moves.len() % 2 == 1 {
        mark("last round without black's move");
    }
    let record: String = moves
        .chunks(2)
        .enumerate()
        .map(|(i, round)| format!("{}. {} ", i + 1, round.join(" ")))
        .collect();
    match check_record(&record) {
        Verdict::Yes { .. } => mark("answer Yes"),
        Verdict::No(mistake) => {
            mark("answer No");
            mark(match mistake.fault {
                Fault::Illegal(_) | Fault::AfterGameEnd(_) => "No: illegal move",
                Fault::Ambiguous { .. } => "No: ambiguous",
                Fault::MissingPromotion { .. } => "No: promotion not written",
                Fault::Misspelled { .. } => "No: misspelled (x, +, disambiguation)",
                _ => "No: move number or layout",
            });
        }
    }
    let mut position = Chess::default();
    for token in moves {
        let Ok(reading) = read_move(&mut position, token, Dialect::Contest) else {
            break;
        };
        match reading.played {
            Move::EnPassant { .. } => mark("en passant"),
            Move::Castle { king, rook } if rook.file() < king.file() => mark("O-O-O"),
            Move::Castle { .. } => mark("O-O"),
            Move::Normal { promotion: Some(_), .. } => mark("promotion"),
            _ => {}
        }
        if reading.played.is_capture() {
            mark("capture");
        }
        if reading.check {
            mark("check");
        }
        let body = token.trim_end_matches('+');
        if body.len() >= 4 && body.as_bytes()[0].is_ascii_uppercase() && !body.starts_with('O') {
            let letters = body.len() - usize::from(body.contains('x'));
            if letters == 4 {
                mark("disambiguation");
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        for good in
            ["e4", "Nf3", "Ngf3", "N1d2", "Nxe5", "Ngxe5", "exd5", "e8Q", "dxc1R+", "O-O-O+"]
        {
            assert!(is_move_shape(good), "{good}");
        }
        for bad in ["e9", "Pe4", "e5Q", "exg5", "e2e4", "Ng1f3", "e8=Q", "0-0", "O-O++", "Nx", "K"]
        {
            assert!(!is_move_shape(bad), "{bad}");
        }
    }
}
