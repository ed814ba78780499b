//! Rewriting records and PGN games into canonical SAN.
//!
//! ```
//! use arbiter_chess_record::{fix::fix_record, Dialect};
//!
//! let fixed = fix_record("1.e4 d5 2. ed5 Qxd5 Ng1f3 Qe4 1-0", Dialect::Standard)?;
//! assert_eq!(fixed, "1. e4 d5 2. exd5 Qxd5 3. Nf3 Qe4+");
//! # Ok::<_, arbiter_chess_record::Mistake>(())
//! ```

use std::ops::Range;

use arbiter_scan::is_space;
use pgn_reader::RawTag;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::fault::Mistake;
use crate::pgn::{GameError, GameText, Kind, Lexer, Located, split_games};
use crate::reading::read_move;
use crate::record::{BOM, Place, RecordWriter, words};
use crate::spelling::Dialect;

/// Rewrites a contest record with every move in its canonical spelling in `dialect`.
///
/// Reading is tolerant: any spelling that denotes one legal move is accepted, move numbers are
/// written afresh (so `12.e4`, `12...` and missing numbers are fine), and results and `e.p.` are
/// dropped. An illegal or ambiguous move is an error, since no spelling can be chosen for it.
pub fn fix_record(record: &str, dialect: Dialect) -> Result<String, Mistake> {
    let mut pos = Chess::default();
    let mut out = RecordWriter::default();
    for token in words(record) {
        let text = strip_move_number(token);
        if text.is_empty() || matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*" | "e.p.") {
            continue;
        }
        let at = Place::of(&pos);
        match read_move(&mut pos, text, dialect) {
            Ok(reading) => out.push(at, reading.canonical.as_str()),
            Err(fault) => {
                return Err(Mistake {
                    ply: at.ply,
                    move_number: at.move_number,
                    side: at.side,
                    token: text.to_owned(),
                    offset: Some((text.as_ptr() as usize).saturating_sub(record.as_ptr() as usize)),
                    fault,
                });
            }
        }
    }
    Ok(out.finish())
}

/// `e4` from `12.e4`, `12...e4` or `e4`; `0-0` stays whole (its zeros are no move number).
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match token[digits..].strip_prefix('.') {
        Some(rest) if digits > 0 => rest.trim_start_matches('.'),
        _ => token,
    }
}

/// Whether `text` is PGN rather than a contest record, judged by PGN's own features: after an
/// optional byte order mark and whitespace it starts with a tag pair (`[`) or an escape line
/// (`%`), or it holds a comment (`{` or `;`), a variation (`(`), an annotation (`$`, `!`, `?`) or a
/// result (`1-0`, `0-1`, `1/2-1/2`, `*` as a token of its own). A contest record has none of
/// these.
///
/// ```
/// use arbiter_chess_record::fix::looks_like_pgn;
///
/// assert!(looks_like_pgn("1. e4 {c} e5 *"));
/// assert!(looks_like_pgn("\u{feff}[White \"A\"]"));
/// assert!(!looks_like_pgn("1. e4 e5 2. Nf3"));
/// ```
pub fn looks_like_pgn(text: &str) -> bool {
    let body = text
        .strip_prefix(BOM)
        .unwrap_or(text)
        .trim_start_matches(|c: char| u8::try_from(c).is_ok_and(is_space));
    body.starts_with(['[', '%'])
        || text.contains(['{', ';', '(', '$', '!', '?'])
        || words(text).any(|word| matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*"))
}

/// A PGN source rewritten, and the problems that kept parts of it as they were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedPgn {
    /// The source with its moves rewritten.
    pub text: String,
    /// Each problem with the number of its game: a move that could not be read (it and the
    /// moves after it in its line are kept as written), broken syntax or a bad `FEN` tag (the
    /// whole game is kept as written).
    pub problems: Vec<(usize, GameError)>,
}

/// Rewrites every move of a PGN source into its canonical spelling in `dialect`, mainline and
/// variations alike; every other byte (tags, comments, `;` comments, `%` lines, NAGs, move
/// numbers, results, line breaks) is kept as it was, so the rewrite is the smallest change.
///
/// Reading is tolerant: any spelling that denotes exactly one legal move is rewritten (`0-0`,
/// `bxa8Q`, `Qh4++`, `e2-e4`, `exd6e.p.`), and a lone `e.p.` after an en passant capture is
/// dropped.
///
/// ```
/// use arbiter_chess_record::{fix::fix_pgn, Dialect};
///
/// let fixed = fix_pgn(b"[White \"A\"]\n\n1. f3 e5 {!} 2. g4 Qh4++ ; mate\n0-1\n", Dialect::Standard);
/// assert_eq!(fixed.text, "[White \"A\"]\n\n1. f3 e5 {!} 2. g4 Qh4# ; mate\n0-1\n");
/// assert!(fixed.problems.is_empty());
/// ```
pub fn fix_pgn(text: &[u8], dialect: Dialect) -> FixedPgn {
    let mut out = Vec::with_capacity(text.len());
    let mut copied = 0;
    let mut problems = Vec::new();
    for game in split_games(text) {
        let (edits, found) = fix_game(&game, dialect);
        for (span, replacement) in edits {
            let (start, end) = (game.offset + span.start, game.offset + span.end);
            out.extend_from_slice(&text[copied..start]);
            out.extend_from_slice(replacement.as_bytes());
            copied = end;
        }
        problems.extend(found.into_iter().map(|problem| (game.index, problem)));
    }
    out.extend_from_slice(&text[copied..]);
    let text = match String::from_utf8(out) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    FixedPgn { text, problems }
}

/// One line of play: the position now, the one before its last move (where a variation
/// starts), whether its last move took en passant, and whether a move of it could not be read.
#[derive(Clone)]
struct Line {
    pos: Chess,
    before: Chess,
    en_passant: bool,
    broken: bool,
}

impl Line {
    fn new(pos: Chess) -> Line {
        Line { before: pos.clone(), pos, en_passant: false, broken: false }
    }
}

/// A byte range of a game's text and what replaces it.
type Edit = (Range<usize>, String);

/// The edits that fix one game, and the problems that kept something as it was. A game with
/// broken syntax or a bad `FEN` tag gets no edit.
fn fix_game(game: &GameText<'_>, dialect: Dialect) -> (Vec<Edit>, Vec<GameError>) {
    let tokens = match Lexer::new(game.text, game.line).collect::<Result<Vec<_>, _>>() {
        Ok(tokens) => tokens,
        Err(error) => return (Vec::new(), vec![GameError::Syntax(error)]),
    };
    let mut start = Chess::default();
    for token in &tokens {
        if let Kind::Tag { name: b"FEN", value } = token.kind {
            let fen = RawTag(value).decode();
            let position = Fen::from_ascii(&fen).map_err(|e| e.to_string()).and_then(|fen| {
                fen.into_position(CastlingMode::Standard).map_err(|e| e.to_string())
            });
            match position {
                Ok(position) => start = position,
                Err(message) => {
                    return (Vec::new(), vec![GameError::Fen { at: token.at, message }]);
                }
            }
        }
    }
    let mut edits = Vec::new();
    let mut problems = Vec::new();
    let mut line = Line::new(start);
    // Bounded by the lexer's nesting limit.
    let mut outer: Vec<Line> = Vec::new();
    for token in &tokens {
        match token.kind {
            Kind::Open => {
                // A variation replaces the last move: it starts from the position before it.
                let variation = Line { broken: line.broken, ..Line::new(line.before.clone()) };
                outer.push(std::mem::replace(&mut line, variation));
            }
            Kind::Close => {
                if let Some(up) = outer.pop() {
                    line = up;
                }
            }
            Kind::Move(written) => {
                let en_passant = std::mem::take(&mut line.en_passant);
                if line.broken {
                    continue;
                }
                if matches!(written, b"e.p." | b"ep") && en_passant {
                    // The mark goes, with the blanks before it on its line.
                    let blanks = game.text[..token.span.start]
                        .iter()
                        .rev()
                        .take_while(|&&b| b == b' ' || b == b'\t')
                        .count();
                    edits.push((token.span.start - blanks..token.span.end, String::new()));
                    continue;
                }
                let at = Place::of(&line.pos);
                let before = line.pos.clone();
                let token_text = String::from_utf8_lossy(written);
                match read_move(&mut line.pos, &token_text, dialect) {
                    Ok(reading) => {
                        line.before = before;
                        line.en_passant = reading.played.is_en_passant();
                        if reading.rule.is_some() {
                            edits.push((token.span.clone(), reading.canonical.to_string()));
                        }
                    }
                    Err(fault) => {
                        line.broken = true;
                        let mistake = Mistake {
                            ply: at.ply,
                            move_number: at.move_number,
                            side: at.side,
                            token: token_text.into_owned(),
                            offset: None,
                            fault,
                        };
                        let located = Located { at: token.at, mistake };
                        problems.push(GameError::Move(Box::new(located)));
                    }
                }
            }
            _ => {}
        }
    }
    (edits, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_stripped_but_castling_zeros_are_not() {
        assert_eq!(strip_move_number("12.e4"), "e4");
        assert_eq!(strip_move_number("12...e5"), "e5");
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("0-0"), "0-0");
        assert_eq!(strip_move_number("1-0"), "1-0");
    }

    #[test]
    fn fixing_keeps_the_location_of_an_illegal_move() {
        let mistake = fix_record("1. e4 e5 2. Ke3", Dialect::Contest).unwrap_err();
        assert_eq!((mistake.ply, mistake.offset), (3, Some(12)));
        assert!(fix_record("1. 0-0", Dialect::Contest).is_err());
        assert_eq!(
            fix_record("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 e.p. *", Dialect::Contest).as_deref(),
            Ok("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O")
        );
    }
}
