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

use arbiter_scan::{Place, is_space};
use shakmaty::{Chess, Color};

use crate::fault::{Fault, Mistake};
use crate::pgn::{
    GameText, Kind, Lexer, Located, Piece, Problem, Splitter, SyntaxError, Tags, Token,
};
use crate::reading::read_move;
use crate::record::{BOM, RecordWriter, words};
use crate::shown::ShownBytes;
use crate::spelling::Dialect;
use crate::token::is_null_move;
use crate::turn::Turn;
use crate::variant::{Playable, Start};

/// Rewrites a contest record with every move in its canonical spelling in `dialect`.
///
/// Reading is tolerant: any spelling that denotes one legal move is accepted, move numbers are
/// written afresh (so `12.e4`, `12...` and missing numbers are fine), and results and `e.p.` are
/// dropped. An illegal or ambiguous move is an error, since no spelling can be chosen for it.
pub fn fix_record(record: &str, dialect: Dialect) -> Result<String, Mistake> {
    // Asked never to stop, it always ends.
    fix_record_while(record, dialect, || true).unwrap_or_else(|| Ok(String::new()))
}

/// [`fix_record`], asking `go_on` before each token whether to go on (so that a long record can
/// be given up, e.g. on Ctrl-C): `None` once it says no.
pub fn fix_record_while(
    record: &str,
    dialect: Dialect,
    mut go_on: impl FnMut() -> bool,
) -> Option<Result<String, Mistake>> {
    let mut pos = Chess::default();
    let mut out = RecordWriter::default();
    for token in words(record) {
        if !go_on() {
            return None;
        }
        let text = strip_move_number(token);
        if text.is_empty() || matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*" | "e.p.") {
            continue;
        }
        let at = Turn::of(&pos);
        match read_move(&mut pos, text, dialect) {
            Ok(reading) => out.push(at, reading.canonical.as_str()),
            Err(fault) => {
                let offset = (text.as_ptr() as usize).saturating_sub(record.as_ptr() as usize);
                return Some(Err(Mistake::new(at, text, Some(offset), fault)));
            }
        }
    }
    Some(Ok(out.finish()))
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
    looks_like_pgn_bytes(text.as_bytes())
}

/// [`looks_like_pgn`] for bytes in any encoding. Any part of a source can be looked at: a part
/// of a record is never taken for PGN.
pub fn looks_like_pgn_bytes(text: &[u8]) -> bool {
    let mut sniffer = PgnSniffer::default();
    sniffer.feed(text) || sniffer.finish()
}

/// [`looks_like_pgn_bytes`] on a source that arrives piece by piece: each byte is looked at
/// once, whatever the pieces, so telling a long source apart takes time linear in its length.
///
/// ```
/// use arbiter_chess_record::fix::PgnSniffer;
///
/// let mut sniffer = PgnSniffer::default();
/// assert!(!sniffer.feed(b"1. e4 e5 1"));
/// assert!(!sniffer.feed(b"-"));
/// assert!(sniffer.feed(b"0\n"));
/// ```
#[derive(Clone, Debug)]
pub struct PgnSniffer {
    /// Bytes fed so far.
    fed: u64,
    /// Whether the bytes fed so far are a prefix of a byte order mark.
    in_bom: bool,
    /// Whether nothing but a byte order mark and whitespace has come yet.
    leading: bool,
    /// The start of the word being read, while it is short enough to be a result.
    word: [u8; RESULT_MAX],
    /// Its length; more than [`RESULT_MAX`] once it is too long.
    word_len: usize,
    /// Whether PGN was recognised: later bytes change nothing.
    found: bool,
}

/// The longest result token, `1/2-1/2`.
const RESULT_MAX: usize = 7;

impl Default for PgnSniffer {
    fn default() -> PgnSniffer {
        PgnSniffer {
            fed: 0,
            in_bom: true,
            leading: true,
            word: [0; RESULT_MAX],
            word_len: 0,
            found: false,
        }
    }
}

impl PgnSniffer {
    /// Reads the next bytes of the source; whether what was read so far is PGN (a result
    /// cut by the end of `bytes` is known only once the next byte comes, or at [`finish`]).
    ///
    /// [`finish`]: PgnSniffer::finish
    pub fn feed(&mut self, bytes: &[u8]) -> bool {
        if self.found {
            return true;
        }
        let start = self.fed;
        self.fed += bytes.len() as u64;
        if memchr::memchr3(b'{', b';', b'(', bytes).is_some()
            || memchr::memchr3(b'$', b'!', b'?', bytes).is_some()
        {
            self.found = true;
            return true;
        }
        for (i, &byte) in bytes.iter().enumerate() {
            let at = start + i as u64;
            if self.leading {
                self.lead(at, byte);
            }
            if is_space(byte) {
                self.found |= self.word_len <= RESULT_MAX
                    && matches!(&self.word[..self.word_len], b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
                self.word_len = 0;
            } else {
                if self.word_len < RESULT_MAX {
                    self.word[self.word_len] = byte;
                }
                self.word_len = self.word_len.saturating_add(1).min(RESULT_MAX + 1);
            }
            if self.found {
                return true;
            }
        }
        false
    }

    /// The source has ended: whether it is PGN.
    pub fn finish(&mut self) -> bool {
        self.feed(b" ")
    }

    /// Follows the start of the source: a byte order mark, whitespace, then `[` or `%` for PGN.
    fn lead(&mut self, at: u64, byte: u8) {
        let bom = BOM.as_bytes();
        if self.in_bom {
            match usize::try_from(at).ok().and_then(|at| bom.get(at)) {
                Some(&expected) if expected == byte => return,
                // A byte order mark cut short: its first byte is what the source starts with.
                _ if at > 0 && at < bom.len() as u64 => {
                    self.in_bom = false;
                    self.leading = false;
                    return;
                }
                _ => self.in_bom = false,
            }
        }
        if !is_space(byte) {
            self.leading = false;
            self.found |= matches!(byte, b'[' | b'%');
        }
    }

    /// How many bytes have been fed: the work done, each byte looked at once.
    pub fn fed(&self) -> u64 {
        self.fed
    }
}

/// A PGN source rewritten, and the problems that kept parts of it as they were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedPgn {
    /// The source with its moves rewritten: every other byte as it was.
    pub text: Vec<u8>,
    /// Each problem with the number of its game (see [`FixedGame::problems`]).
    pub problems: Vec<(usize, Problem)>,
}

/// Rewrites every move of a PGN source into its canonical spelling in `dialect`, mainline and
/// variations alike; every other byte (tags, comments, `;` comments, `%` lines, NAGs, move
/// numbers, results, line breaks, text in any encoding) is kept as it was, so the rewrite is the
/// smallest change. Games are read one by one ([`Splitter`], [`fix_game`]); a stream can be
/// rewritten the same way piece by piece, in bounded memory.
///
/// Reading is tolerant: any spelling that denotes exactly one legal move is rewritten (`0-0`,
/// `bxa8Q`, `Qh4++`, `e2-e4`, `g1f3`, `exd6e.p.`), and a lone `e.p.` after an en passant capture
/// is dropped. Null moves (`--`, `Z0`) are kept as written.
///
/// ```
/// use arbiter_chess_record::{fix::fix_pgn, Dialect};
///
/// let fixed = fix_pgn(b"[White \"M\xfcller\"]\n\n1. f3 e5 {!} 2. g4 Qh4++ ; mate\n0-1\n", Dialect::Standard);
/// assert_eq!(fixed.text, b"[White \"M\xfcller\"]\n\n1. f3 e5 {!} 2. g4 Qh4# ; mate\n0-1\n");
/// assert!(fixed.problems.is_empty());
/// ```
pub fn fix_pgn(text: &[u8], dialect: Dialect) -> FixedPgn {
    // Asked never to stop, it always ends.
    fix_pgn_while(text, dialect, || true).unwrap_or_default()
}

/// [`fix_pgn`], asking `go_on` before each game whether to go on (so that a long source can be
/// given up, e.g. on Ctrl-C): `None` once it says no.
pub fn fix_pgn_while(
    text: &[u8],
    dialect: Dialect,
    mut go_on: impl FnMut() -> bool,
) -> Option<FixedPgn> {
    let mut fixed = FixedPgn { text: Vec::with_capacity(text.len()), problems: Vec::new() };
    // Reading from memory never fails, and no game is too large.
    let pieces = Splitter::new(text).with_limit(usize::MAX).with_raw().with_nul_bytes();
    for piece in pieces.flatten() {
        if !go_on() {
            return None;
        }
        match piece {
            Piece::Game(game) => {
                let FixedGame { bytes, problems, .. } = fix_game(&game, dialect);
                fixed.text.extend_from_slice(&bytes);
                fixed.problems.extend(problems.into_iter().map(|problem| (game.index, problem)));
            }
            Piece::Raw(bytes) => fixed.text.extend_from_slice(&bytes),
            Piece::TooLarge { .. } => {}
        }
    }
    Some(fixed)
}

/// One game rewritten.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedGame {
    /// The game's bytes (with the blank lines before it) with its moves rewritten.
    pub bytes: Vec<u8>,
    /// Each move rewritten, in the order of the text.
    pub edits: Vec<Edit>,
    /// What kept parts of it as they were: a move that could not be read (it and the moves
    /// after it in its line are kept as written), broken syntax, an unknown variant or a bad
    /// `FEN` tag (the whole game is kept as written).
    pub problems: Vec<Problem>,
}

/// A move token rewritten: where it stands, as written and as rewritten. In JSON (with the
/// `serde` feature) an object with these fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Edit {
    /// The line of the token, from 1.
    pub line: u32,
    /// Its column, from 1.
    pub column: u32,
    /// The token as written; bytes that are not UTF-8 are written `\xfc`.
    pub written: String,
    /// Its canonical spelling; empty for a lone `e.p.` or a stray move number taken out.
    pub canonical: String,
}

/// One line of play: the position now, the one before its last move (where a variation
/// starts), whether its last move took en passant, and whether a move of it could not be read.
#[derive(Clone)]
struct Line<P> {
    pos: P,
    before: P,
    en_passant: bool,
    broken: bool,
}

impl<P: Playable> Line<P> {
    fn new(pos: P) -> Line<P> {
        Line { before: pos.clone(), pos, en_passant: false, broken: false }
    }
}

/// Rewrites one game (see [`fix_pgn`]).
pub fn fix_game(game: &GameText, dialect: Dialect) -> FixedGame {
    let rewrite = rewrite_game(game, dialect);
    let mut bytes = Vec::with_capacity(game.bytes.len() + 64);
    // Writing into memory fails never.
    let _ = rewrite.write(game, &mut bytes);
    FixedGame { bytes, edits: rewrite.edits, problems: rewrite.problems }
}

/// One game's rewrite, without a copy of its text: the moves to replace, written over the
/// game's own bytes by [`Rewrite::write`], so that rewriting a large game costs no second one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewrite {
    /// Each move rewritten, in the order of the text.
    pub edits: Vec<Edit>,
    /// The bytes of the game's text ([`GameText::text`]) each edit replaces.
    pub spans: Vec<Range<usize>>,
    /// What kept parts of the game as they were (see [`FixedGame::problems`]).
    pub problems: Vec<Problem>,
}

impl Rewrite {
    /// Writes `game` (the one rewritten) with its moves rewritten.
    pub fn write(&self, game: &GameText, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let text = game.text();
        out.write_all(&game.bytes[..game.bytes.len() - text.len()])?;
        let mut copied = 0;
        for (edit, span) in self.edits.iter().zip(&self.spans) {
            out.write_all(&text[copied..span.start])?;
            out.write_all(edit.canonical.as_bytes())?;
            copied = span.end;
        }
        out.write_all(&text[copied..])
    }
}

/// Rewrites one game (see [`fix_pgn`]) without copying it: [`Rewrite::write`] writes it.
pub fn rewrite_game(game: &GameText, dialect: Dialect) -> Rewrite {
    let text = game.text();
    let mut lexer = Lexer::new(text, game.at.line);
    let (tags, first) = Tags::read_section(&mut lexer, &mut ());
    let mut fixer = Fixer { text, rewrite: Rewrite::default(), dialect };
    let result = match tags.start() {
        Ok(Start::Chess(pos)) => fixer.fix(pos, first, lexer),
        Ok(Start::Variant(pos)) => fixer.fix(pos, first, lexer),
        Err(problem) => Err(problem),
    };
    match result {
        Ok(()) => fixer.rewrite,
        // The game cannot be read: it is kept whole, as written.
        Err(problem) => Rewrite { problems: vec![problem], ..Rewrite::default() },
    }
}

/// The most rewrites `fix` holds for one game (each about a hundred bytes): a game that needs
/// more is passed on as written, so that memory stays bounded whatever the game (a 48 MiB game
/// of wrongly written moves would need millions).
pub const MAX_REWRITES: usize = 20_000;

/// A game being rewritten: its text and the rewrite so far.
struct Fixer<'a> {
    text: &'a [u8],
    rewrite: Rewrite,
    dialect: Dialect,
}

impl<'a> Fixer<'a> {
    /// Replaces `span` of the text with `replacement`, the token at `at` (which may start
    /// after the span: blanks before a lone `e.p.` go with it).
    fn edit(&mut self, span: Range<usize>, at: Place, written: &[u8], replacement: &str) {
        // In the order of the text, which a move number's edit, made when its move is read, may
        // come before.
        let index = self.rewrite.spans.partition_point(|earlier| earlier.start < span.start);
        self.rewrite.spans.insert(index, span);
        self.rewrite.edits.insert(
            index,
            Edit {
                line: at.line,
                column: at.column,
                written: ShownBytes(written).to_string(),
                canonical: replacement.to_owned(),
            },
        );
    }

    /// `span` with the blanks after it on its line.
    fn with_blanks_after(&self, span: Range<usize>) -> Range<usize> {
        let blanks = self.text[span.end..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        span.start..span.end + blanks
    }

    fn fix<P: Playable>(
        &mut self,
        start: P,
        first: Option<Result<Token<'a>, Box<SyntaxError>>>,
        mut lexer: Lexer<'a>,
    ) -> Result<(), Problem> {
        let mut line = Line::new(start);
        // Bounded by the lexer's nesting limit.
        let mut outer: Vec<Line<P>> = Vec::new();
        let mut first = first;
        // The move number waiting for its move: its span, place and text.
        let mut number: Option<(Range<usize>, Place, &'a [u8])> = None;
        while let Some(token) = first.take().or_else(|| lexer.next()) {
            let token = token.map_err(|error| Problem::Syntax(*error))?;
            if self.rewrite.edits.len() > MAX_REWRITES {
                return Err(Problem::TooManyRewrites { at: token.at, limit: MAX_REWRITES });
            }
            let numbered = number.take();
            if let Some((span, place, written)) = &numbered
                && matches!(token.kind, Kind::Result | Kind::Open | Kind::Close)
            {
                // A number with no move after it (`43. *`) goes.
                self.edit(self.with_blanks_after(span.clone()), *place, written, "");
            }
            match token.kind {
                Kind::Number(written) => match numbered {
                    // A second number before the move (`2. .Nf3`, `2. 3. Nf3`), which no
                    // reading accepts: the stray goes, with the blanks after it.
                    Some(first) => {
                        self.edit(
                            self.with_blanks_after(token.span.clone()),
                            token.at,
                            written,
                            "",
                        );
                        number = Some(first);
                    }
                    None => number = Some((token.span.clone(), token.at, written)),
                },
                // A comment between a number and its move leaves the number waiting.
                Kind::Comment | Kind::Nag => number = numbered,
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
                        // The mark goes, with the blanks before it on its line; they stay when
                        // something is glued to its end (`e.p.!?`), which would else be glued
                        // to the move.
                        let glued = self
                            .text
                            .get(token.span.end)
                            .is_some_and(|&b| !is_space(b) && b != b')');
                        let blanks = match glued {
                            true => 0,
                            false => self.text[..token.span.start]
                                .iter()
                                .rev()
                                .take_while(|&&b| b == b' ' || b == b'\t')
                                .count(),
                        };
                        let span = token.span.start - blanks..token.span.end;
                        self.edit(span, token.at, written, "");
                        continue;
                    }
                    let at = Turn::of(&line.pos);
                    if let Some((span, place, number)) = numbered
                        && !at.is_numbered_by(number)
                    {
                        // A wrong number is the move's own for white; black's move may go
                        // without one.
                        let (span, own) = match at.side {
                            Color::White => (span, at.number()),
                            Color::Black => (self.with_blanks_after(span), String::new()),
                        };
                        self.edit(span, place, number, &own);
                    }
                    let shown = ShownBytes(written).to_string();
                    let problem = |fault| {
                        let mistake = Mistake::new(at, &shown, None, fault);
                        Problem::Move(Box::new(Located { at: token.at, mistake }))
                    };
                    let Ok(written) = std::str::from_utf8(written) else {
                        line.broken = true;
                        self.rewrite.problems.push(problem(Fault::NotAMove));
                        continue;
                    };
                    if is_null_move(written) {
                        match line.pos.pass() {
                            Some(passed) => {
                                line.before = std::mem::replace(&mut line.pos, passed);
                            }
                            None => {
                                line.broken = true;
                                self.rewrite.problems.push(problem(Fault::NullMove));
                            }
                        }
                        continue;
                    }
                    let before = line.pos.clone();
                    match read_move(&mut line.pos, written, self.dialect) {
                        Ok(reading) => {
                            line.before = before;
                            line.en_passant = reading.played.is_en_passant();
                            if reading.rule.is_some() {
                                let span = token.span.clone();
                                let written = &self.text[span.clone()];
                                self.edit(span, token.at, written, reading.canonical.as_str());
                            }
                        }
                        Err(fault) => {
                            line.broken = true;
                            self.rewrite.problems.push(problem(fault));
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some((span, place, written)) = number {
            self.edit(self.with_blanks_after(span), place, written, "");
        }
        Ok(())
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
    fn a_game_needing_too_many_rewrites_is_passed_on_as_written() {
        let mut pgn = String::from("[Round \"1\"]\n\n");
        for _ in 0..MAX_REWRITES / 2 + 1 {
            pgn.push_str("Ng1f3 Ng8f6 Nf3g1 Nf6g8 ");
        }
        pgn.push_str("*\n\n");
        let out = fix_pgn(pgn.as_bytes(), Dialect::Standard);
        assert_eq!(out.text, pgn.as_bytes());
        assert!(
            matches!(out.problems[..], [(1, Problem::TooManyRewrites { limit: MAX_REWRITES, .. })]),
            "{:?}",
            out.problems.first()
        );
    }

    #[test]
    fn stray_and_wrong_move_numbers_are_made_right() {
        for (written, fixed) in [
            ("1. e4 e5 2. .Nf3 Nc6 *", "1. e4 e5 2. Nf3 Nc6 *"),
            ("1. e4 e5 2. 3. Nf3 Nc6 *", "1. e4 e5 2. Nf3 Nc6 *"),
            ("1. e4 .e5 2. Nf3 Nc6 *", "1. e4 e5 2. Nf3 Nc6 *"),
            ("1. e4 e5 3. Nf3 2. Nc6 *", "1. e4 e5 2. Nf3 Nc6 *"),
            ("1. e4 1... e5 2. Nf3 2... Nc6 *", "1. e4 1... e5 2. Nf3 2... Nc6 *"),
            ("1. e4 e5 2. *", "1. e4 e5 *"),
        ] {
            let pgn = format!("[Round \"1\"]\n\n{written}\n\n");
            let out = fix_pgn(pgn.as_bytes(), Dialect::Standard);
            assert_eq!(out.text, format!("[Round \"1\"]\n\n{fixed}\n\n").into_bytes(), "{written}");
            let game = PgnGames::new(&out.text).next().unwrap();
            assert!(game.check(Mode::Strict).ok, "{written}");
        }
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

    /// `looks_like_pgn_bytes` as it was first written, on the whole text at once.
    fn looks_like_pgn_whole(text: &[u8]) -> bool {
        let body = text.strip_prefix(BOM.as_bytes()).unwrap_or(text);
        let start = body.iter().position(|&b| !is_space(b)).map(|i| body[i]);
        matches!(start, Some(b'[' | b'%'))
            || memchr::memchr3(b'{', b';', b'(', text).is_some()
            || memchr::memchr3(b'$', b'!', b'?', text).is_some()
            || text
                .split(|&b| is_space(b))
                .any(|word| matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*"))
    }

    #[test]
    fn sniffing_looks_at_each_byte_once() {
        // A token with no space in it, read as `chess fix` reads its input: the work grows
        // as the input, not as its square (reading it again whole at each piece did).
        for n in [4 << 20, 8 << 20] {
            let token = vec![b'a'; n];
            let mut sniffer = PgnSniffer::default();
            for piece in token.chunks(64 << 10) {
                assert!(!sniffer.feed(piece));
            }
            assert!(!sniffer.finish());
            assert_eq!(sniffer.fed(), n as u64 + 1);
        }
    }

    #[test]
    fn a_lone_en_passant_mark_takes_no_glyph_along() {
        let pgn = b"1. e4 a6 2. e5 d5 3. exd6 e.p.!? cxd6 *\n";
        let fixed = fix_pgn(pgn, Dialect::Standard);
        assert_eq!(fixed.text, b"1. e4 a6 2. e5 d5 3. exd6 !? cxd6 *\n");
        assert!(fixed.problems.is_empty());
        let game = PgnGames::new(&fixed.text).next().expect("a game");
        assert!(game.check(Mode::Strict).ok);
        let closed = fix_pgn(b"1. e4 a6 2. e5 d5 3. Nf3 (3. exd6 e.p.) *\n", Dialect::Standard);
        assert_eq!(closed.text, b"1. e4 a6 2. e5 d5 3. Nf3 (3. exd6) *\n");
        assert!(closed.problems.is_empty());
    }

    /// The characters `bench/chess_mutate.py` spoils tokens with.
    const ALPHABET: &[u8] = b"KQRBNabcdefgh12345678x=+#O-0.";

    /// One move token of `movetext` spoilt as `bench/chess_mutate.py` spoils it.
    fn mutate(movetext: &str, choice: u64) -> String {
        let mut tokens: Vec<String> = movetext.split(' ').map(str::to_owned).collect();
        let moves: Vec<usize> = (0..tokens.len()).filter(|&i| !tokens[i].ends_with('.')).collect();
        let Some(&i) = moves.get((choice % 1000) as usize % moves.len().max(1)) else {
            return movetext.to_owned();
        };
        let token = &mut tokens[i];
        let at = (choice / 1000 % 97) as usize;
        let letter = ALPHABET[(choice / 100_000) as usize % ALPHABET.len()] as char;
        match choice / 10_000_000 % 3 {
            0 if token.len() > 1 => {
                token.remove(at % token.len());
            }
            1 => token.insert(at % (token.len() + 1), letter),
            _ => {
                let j = at % token.len();
                token.replace_range(j..j + 1, &letter.to_string());
            }
        }
        tokens.join(" ")
    }

    use crate::pgn::{Mode, PgnGames};
    use crate::random::{RandomGames, record};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// A source tells apart the same whatever pieces it comes in.
        #[test]
        fn sniffing_by_pieces_agrees_with_the_whole(
            text in proptest::collection::vec(
                prop_oneof![Just(0xefu8), Just(0xbb), Just(0xbf), Just(b' '), Just(b'\n'),
                    Just(b'['), Just(b'%'), Just(b'1'), Just(b'-'), Just(b'0'), Just(b'/'),
                    Just(b'2'), Just(b'*'), Just(b'e'), Just(b'{')],
                0..40),
            cut in 1usize..8,
        ) {
            let mut sniffer = PgnSniffer::default();
            let mut found = false;
            for piece in text.chunks(cut) {
                found |= sniffer.feed(piece);
            }
            found |= sniffer.finish();
            prop_assert_eq!(found, looks_like_pgn_whole(&text));
            prop_assert_eq!(looks_like_pgn_bytes(&text), looks_like_pgn_whole(&text));
        }

        /// Valid, misspelt, spoilt and broken games alike: as many games come out as went in, a
        /// game that cannot be read comes out byte for byte, a move that cannot be read is kept
        /// with the rest of its line, and a game rewritten without a problem is one strict
        /// reading accepts.
        #[test]
        fn every_game_comes_out_and_each_rewrite_is_strict(
            seed in any::<u64>(),
            kinds in proptest::collection::vec((0u8..4, any::<u64>()), 1..5),
        ) {
            let mut games = RandomGames::new(seed);
            let mut pgn = String::new();
            for (i, &(kind, choice)) in kinds.iter().enumerate() {
                let moves = games.next_moves();
                let dialect = if kind == 1 { Dialect::Contest } else { Dialect::Standard };
                let mut movetext = record(&moves, dialect);
                match kind {
                    2 => movetext = mutate(&movetext, choice),
                    3 => movetext.push_str(" ("),
                    _ => {}
                }
                pgn.push_str(&format!("[Round \"{i}\"]\n\n{movetext} *\n\n"));
            }
            let fixed = fix_pgn(pgn.as_bytes(), Dialect::Standard);
            let before: Vec<_> = PgnGames::new(pgn.as_bytes()).collect();
            let after: Vec<_> = PgnGames::new(&fixed.text).collect();
            prop_assert_eq!(before.len(), kinds.len());
            prop_assert_eq!(after.len(), before.len());
            for (was, is) in before.iter().zip(&after) {
                let problems: Vec<_> =
                    fixed.problems.iter().filter(|(game, _)| *game == was.index).collect();
                match problems.first() {
                    None => prop_assert!(
                        is.check(Mode::Strict).ok,
                        "{}", String::from_utf8_lossy(&is.bytes)
                    ),
                    Some((_, Problem::Move(located))) => {
                        // The line from the move on: the game's one line of movetext.
                        let line = was.text().split(|&b| b == b'\n').nth(2).unwrap_or_default();
                        let column = located.at.column as usize - 1;
                        prop_assert!(is.bytes.ends_with(&[&line[column..], b"\n\n"].concat()));
                    }
                    Some(_) => prop_assert_eq!(&was.bytes, &is.bytes),
                }
            }
        }
    }
}
