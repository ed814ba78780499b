//! Rewriting records and PGN games into canonical SAN.
//!
//! ```
//! use arbiter_chess_record::{fix::fix_record, Dialect};
//!
//! let fixed = fix_record("1.e4 d5 2. ed5 Qxd5 Ng1f3 Qe4 1-0", Dialect::Standard)?;
//! assert_eq!(fixed, "1. e4 d5 2. exd5 Qxd5 3. Nf3 Qe4+");
//! # Ok::<_, arbiter_chess_record::Mistake>(())
//! ```

use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

use crate::fault::Mistake;
use crate::pgn::split_games;
use crate::reading::read_move;
use crate::record::{Place, RecordWriter, words};
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

/// A PGN source rewritten: the text, and the moves that could not be read (game number and
/// mistake). Moves after such a mistake in the same line are copied as they were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedPgn {
    /// The rewritten games.
    pub text: String,
    /// Each move that could not be rewritten, with its game number.
    pub mistakes: Vec<(usize, Mistake)>,
    /// Each syntax error, with its game number.
    pub syntax_errors: Vec<(usize, String)>,
}

/// Rewrites every game of a PGN source into canonical SAN in `dialect`, keeping tags, comments,
/// NAGs, variations and results. A game with a token pgn-reader cannot read is copied unchanged,
/// since rewriting it would lose that token.
pub fn fix_pgn(text: &[u8], dialect: Dialect) -> FixedPgn {
    let mut rewriter = Rewriter { dialect, games: 0, fixed: FixedPgn::default() };
    for game in split_games(text) {
        rewriter.games = game.index;
        if let Some((line, token)) = game.unreadable_token() {
            let error =
                format!("line {line}: `{token}` is not a move in SAN; game copied as it was");
            rewriter.fixed.syntax_errors.push((game.index, error));
            rewriter.fixed.text.push_str(&String::from_utf8_lossy(game.text));
            if !rewriter.fixed.text.ends_with("\n\n") {
                rewriter.fixed.text.push_str(if rewriter.fixed.text.ends_with('\n') {
                    "\n"
                } else {
                    "\n\n"
                });
            }
            continue;
        }
        if let Err(error) = Reader::new(game.text).read_game(&mut rewriter) {
            rewriter.fixed.syntax_errors.push((game.index, error.to_string()));
        }
    }
    rewriter.fixed
}

struct Rewriter {
    dialect: Dialect,
    games: usize,
    fixed: FixedPgn,
}

/// One line of play: the position now, the one before its last move (where a variation
/// starts), and whether a move of this line could not be read.
#[derive(Clone)]
struct Line {
    pos: Chess,
    before: Chess,
    broken: bool,
}

struct Movetext {
    line: Line,
    outer: Vec<Line>,
    tokens: Vec<String>,
    need_number: bool,
}

struct Tags {
    lines: Vec<String>,
    start: Result<Chess, String>,
}

impl Visitor for Rewriter {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Tags> {
        ControlFlow::Continue(Tags { lines: Vec::new(), start: Ok(Chess::default()) })
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let name = String::from_utf8_lossy(name);
        // The raw value keeps its escapes, so it is written back exactly as read.
        let raw = String::from_utf8_lossy(value.as_bytes());
        tags.lines.push(format!("[{name} \"{raw}\"]"));
        if name == "FEN" {
            tags.start = Fen::from_ascii(&value.decode())
                .map_err(|error| error.to_string())
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Standard).map_err(|error| error.to_string())
                });
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<(), Movetext> {
        for line in &tags.lines {
            self.fixed.text.push_str(line);
            self.fixed.text.push('\n');
        }
        if !tags.lines.is_empty() {
            self.fixed.text.push('\n');
        }
        let (pos, broken) = match tags.start {
            Ok(pos) => (pos, false),
            Err(error) => {
                self.fixed.syntax_errors.push((self.games, format!("bad FEN tag: {error}")));
                (Chess::default(), true)
            }
        };
        ControlFlow::Continue(Movetext {
            line: Line { before: pos.clone(), pos, broken },
            outer: Vec::new(),
            tokens: Vec::new(),
            need_number: true,
        })
    }

    fn san(&mut self, text: &mut Movetext, san_plus: SanPlus) -> ControlFlow<()> {
        let line = &mut text.line;
        let at = Place::of(&line.pos);
        // The move number and its move form one token, so that wrapping never parts them.
        let mut token = match (at.side, text.need_number) {
            (Color::White, _) => format!("{}. ", at.move_number),
            (Color::Black, true) => format!("{}... ", at.move_number),
            (Color::Black, false) => String::new(),
        };
        text.need_number = false;
        let written = san_plus.to_string();
        if line.broken {
            token.push_str(&written);
            text.tokens.push(token);
            return ControlFlow::Continue(());
        }
        let before = line.pos.clone();
        match read_move(&mut line.pos, &written, self.dialect) {
            Ok(reading) => {
                line.before = before;
                token.push_str(reading.canonical.as_str());
                text.tokens.push(token);
            }
            Err(fault) => {
                line.broken = true;
                let mistake = Mistake {
                    ply: at.ply,
                    move_number: at.move_number,
                    side: at.side,
                    token: written.clone(),
                    offset: None,
                    fault,
                };
                self.fixed.mistakes.push((self.games, mistake));
                token.push_str(&written);
                text.tokens.push(token);
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, text: &mut Movetext, nag: Nag) -> ControlFlow<()> {
        text.tokens.push(nag.to_string());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<()> {
        text.tokens.push(format!("{{{}}}", String::from_utf8_lossy(comment.as_bytes())));
        text.need_number = true;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, text: &mut Movetext) -> ControlFlow<(), Skip> {
        // A variation replaces the last move: it starts from the position before it.
        let start = text.line.before.clone();
        let line = Line { pos: start.clone(), before: start, broken: text.line.broken };
        text.outer.push(std::mem::replace(&mut text.line, line));
        text.tokens.push("(".to_owned());
        text.need_number = true;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, text: &mut Movetext) -> ControlFlow<()> {
        if let Some(line) = text.outer.pop() {
            text.line = line;
            text.tokens.push(")".to_owned());
            text.need_number = true;
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, text: &mut Movetext, outcome: Outcome) -> ControlFlow<()> {
        text.tokens.push(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, text: Movetext) {
        // Close variations left open, then wrap at 79 columns as PGN export does.
        let closing = std::iter::repeat_n(")".to_owned(), text.outer.len());
        let mut column = 0;
        for token in text.tokens.into_iter().chain(closing) {
            let glue = !(token == ")" || column == 0 || self.fixed.text.ends_with('('));
            if column > 0 && column + usize::from(glue) + token.len() > 79 {
                self.fixed.text.push('\n');
                column = 0;
            } else if glue {
                self.fixed.text.push(' ');
                column += 1;
            }
            column += token.len();
            self.fixed.text.push_str(&token);
        }
        self.fixed.text.push_str("\n\n");
    }
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
