//! Real PGN files: games cut apart as the stream is read, each read token by token and checked
//! move by move in standard SAN, in any of the variants a `Variant` tag names.
//!
//! A stream is cut into games first ([`Splitter`]), holding one game at a time; each game is then
//! read and checked on its own ([`GameText::check`]), so games can be checked in parallel, memory
//! stays bounded by the largest game, and broken syntax in one game leaves the next one readable.
//! Only the mainline's moves are checked; variations are read for their syntax only.
//!
//! ```
//! use arbiter_chess_record::pgn::{Mode, PgnGames};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 (1... c5) 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let games: Vec<_> = PgnGames::new(pgn).collect();
//! assert_eq!(games[0].at.line, 1);
//! let report = games[0].check(Mode::Strict);
//! assert!(report.ok);
//! assert_eq!((report.white.as_str(), report.plies), ("A", 7));
//! ```
//!
//! **Strict mode** reads PGN's export format: each move token must be exactly the canonical SAN
//! of a legal move (`O-O`, not `0-0`; `bxa8=Q`, not `bxa8=q` or `bxa8Q`; `#` on a mate or a
//! variant's win; no glyph glued to the move, as `e4!?`), a move number must be the number of the
//! move it stands before (`12.` before white's twelfth move, `12...` before black's), and the
//! movetext must end with a game termination marker (`1-0`, `0-1`, `1/2-1/2` or `*`). Move
//! numbers may be missing or glued to their move (`12.e4`), as PGN's import format allows.
//!
//! **Lenient mode** reads what real files hold: any token that denotes exactly one legal move
//! (`0-0`, `Pe4`, `e2-e4`, UCI's `g1f3` and `e7e8q`, `bxa8Q`, `Qh4++`, `exd6e.p.`, or `exd6`
//! followed by a lone `e.p.`, `e4!?`), a null move (`--`, `Z0`: the side to move passes), any
//! move numbers, and a game without a termination marker, each with a warning that names the
//! canonical spelling. A token that denotes no legal move, or several, is an error in both
//! modes.

mod batches;
mod compressed;
mod lex;
mod split;

use std::fmt;
use std::io::{self, Read};

use pgn_reader::RawTag;
use shakmaty::Color;

use crate::fault::{Fault, Mistake, Rule};
use crate::reading::read_move;
use crate::record::writes_number;
use crate::shown::{ShownBytes, escaped};
use crate::spelling::{Dialect, SanText};
use crate::token::is_null_move;
use crate::turn::Turn;
use crate::variant::{GameVariant, ParseVariantError, Playable, Start};

pub use arbiter_scan::Place;
pub use batches::{BatchError, for_each_batch};
pub use compressed::{Compression, decompressed};
pub(crate) use lex::{Kind, Lexer, Token};
pub use lex::{MAX_DEPTH, SyntaxError};
pub use split::{GameText, MAX_GAME_BYTES, PgnGames, Piece, Splitter};

/// How strictly games are checked (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// PGN's export format: canonical standard SAN, right move numbers, a termination marker.
    Strict,
    /// What real files hold, with a warning for each departure from the export format.
    Lenient,
}

/// A mistake in a move and where the move is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Where the token starts.
    pub at: Place,
    /// What is wrong with it.
    pub mistake: Mistake,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mistake.fmt(f)
    }
}

/// A problem found in a game: an error, or in lenient mode a warning.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A move is illegal, ambiguous, misspelled or no chess move.
    #[error("{0}")]
    Move(Box<Located>),
    /// The text is not PGN there.
    #[error("PGN syntax: {0}")]
    Syntax(SyntaxError),
    /// The `FEN` tag is not a legal position of the game's variant.
    #[error("bad FEN tag: {message}")]
    Fen {
        /// Where the tag is.
        at: Place,
        /// What is wrong with it.
        message: String,
    },
    /// The `Variant` tag names a variant arbiter does not know.
    #[error("{error}")]
    Variant {
        /// Where the tag is.
        at: Place,
        /// The name.
        error: ParseVariantError,
    },
    /// The movetext does not end with a game termination marker.
    #[error(
        "PGN syntax: expected a game termination marker (1-0, 0-1, 1/2-1/2 or *) at the end of \
         the movetext, found the end of the game"
    )]
    NoResult {
        /// Where the game ends.
        at: Place,
    },
    /// The game is larger than the limit: it was not read.
    #[error("the game is larger than {} MiB, the most a game may hold; it is skipped", limit >> 20)]
    TooLarge {
        /// Where it starts.
        at: Place,
        /// The limit, in bytes.
        limit: usize,
    },
}

impl Problem {
    /// Where the problem is.
    pub fn at(&self) -> Place {
        match self {
            Problem::Move(located) => located.at,
            Problem::Syntax(error) => error.at,
            Problem::Fen { at, .. }
            | Problem::Variant { at, .. }
            | Problem::NoResult { at }
            | Problem::TooLarge { at, .. } => *at,
        }
    }

    /// A short name of its kind: `move`, `syntax`, `fen`, `variant`, `no_result`, `too_large`.
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::Move(_) => "move",
            Problem::Syntax(_) => "syntax",
            Problem::Fen { .. } => "fen",
            Problem::Variant { .. } => "variant",
            Problem::NoResult { .. } => "no_result",
            Problem::TooLarge { .. } => "too_large",
        }
    }
}

/// The JSON form: `kind`, `line`, `column` and `message`, and for a move also `ply`,
/// `move_number`, `side`, `token`, `reason` and `canonical` (the spelling to write, or null).
#[cfg(feature = "serde")]
impl serde::Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let at = self.at();
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", self.kind())?;
        map.serialize_entry("line", &at.line)?;
        map.serialize_entry("column", &at.column)?;
        map.serialize_entry("message", &self.to_string())?;
        if let Problem::Move(located) = self {
            let mistake = &located.mistake;
            let canonical = match &mistake.fault {
                Fault::Misspelled { canonical, .. } => Some(canonical.as_str()),
                _ => None,
            };
            map.serialize_entry("ply", &mistake.ply)?;
            map.serialize_entry("move_number", &mistake.move_number)?;
            map.serialize_entry("side", &mistake.side.to_string())?;
            map.serialize_entry("token", &mistake.token)?;
            map.serialize_entry("reason", &mistake.fault.to_string())?;
            map.serialize_entry("canonical", &canonical)?;
        }
        map.end()
    }
}

/// The verdict on one game: in JSON (with the `serde` feature) one object with these fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameReport {
    /// Its number in the file, from 1.
    #[cfg_attr(feature = "serde", serde(rename = "game"))]
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: u32,
    /// The column of its first character, from 1.
    pub column: u32,
    /// The `White` tag, or `?`; bytes that are not UTF-8 are written `\xfc`.
    pub white: String,
    /// The `Black` tag, or `?`, written like `white`.
    pub black: String,
    /// The variant it is played in.
    pub variant: GameVariant,
    /// Whether the game has no error (`error` is `None`).
    pub ok: bool,
    /// How many moves of the mainline were read and accepted (null moves included).
    pub plies: u32,
    /// The first error, if any.
    pub error: Option<Problem>,
    /// Lenient mode: each departure from the export format that was accepted.
    pub warnings: Vec<Problem>,
}

impl GameReport {
    fn new(index: usize, at: Place) -> GameReport {
        GameReport {
            index,
            line: at.line,
            column: at.column,
            white: "?".to_owned(),
            black: "?".to_owned(),
            variant: GameVariant::Standard,
            ok: true,
            plies: 0,
            error: None,
            warnings: Vec::new(),
        }
    }

    /// Where the game starts.
    pub fn at(&self) -> Place {
        Place { line: self.line, column: self.column }
    }

    /// The report on a game too large to read.
    pub fn too_large(index: usize, at: Place, limit: usize) -> GameReport {
        let mut report = GameReport::new(index, at);
        report.fail(Problem::TooLarge { at, limit });
        report
    }

    fn fail(&mut self, error: Problem) {
        self.ok = false;
        self.error = Some(error);
    }
}

/// The tags that decide how a game is read, as they were found.
#[derive(Debug, Default)]
pub(crate) struct Tags {
    pub(crate) white: Option<String>,
    pub(crate) black: Option<String>,
    fen: Option<(Place, Vec<u8>)>,
    variant: Option<(Place, Vec<u8>)>,
}

impl Tags {
    /// Reads the tag section: tags and comments, up to the first token of any other kind, which
    /// starts the movetext and is returned with the tags (`None` at the end of the game).
    pub(crate) fn read_section<'a>(
        lexer: &mut Lexer<'a>,
    ) -> (Tags, Option<Result<Token<'a>, SyntaxError>>) {
        let mut tags = Tags::default();
        let first = loop {
            match lexer.next() {
                Some(Ok(Token { kind: Kind::Tag { name, value }, at, .. })) => {
                    tags.read(name, value, at);
                }
                Some(Ok(Token { kind: Kind::Comment, .. })) => {}
                other => break other,
            }
        };
        (tags, first)
    }

    /// Takes a tag pair into account.
    fn read(&mut self, name: &[u8], value: &[u8], at: Place) {
        let text = || escaped(&RawTag(value).decode());
        match name {
            b"White" => self.white = Some(text()),
            b"Black" => self.black = Some(text()),
            b"FEN" => self.fen = Some((at, RawTag(value).decode().into_owned())),
            b"Variant" => self.variant = Some((at, RawTag(value).decode().into_owned())),
            _ => {}
        }
    }

    /// The game's variant.
    pub(crate) fn variant(&self) -> Result<GameVariant, Problem> {
        let Some((at, name)) = &self.variant else {
            return Ok(GameVariant::Standard);
        };
        match std::str::from_utf8(name) {
            Ok(name) => name.parse().map_err(|error| Problem::Variant { at: *at, error }),
            Err(_) => Err(Problem::Variant { at: *at, error: ParseVariantError(escaped(name)) }),
        }
    }

    /// The position the game starts from.
    pub(crate) fn start(&self) -> Result<Start, Problem> {
        let variant = self.variant()?;
        let fen = self.fen.as_ref().map(|(_, fen)| fen.as_slice());
        variant.start(fen).map_err(|error| Problem::Fen {
            at: self.fen.as_ref().map_or(Place { line: 1, column: 1 }, |(at, _)| *at),
            message: error.to_string(),
        })
    }
}

impl GameText {
    /// Reads and checks the game.
    pub fn check(&self, mode: Mode) -> GameReport {
        let mut report = GameReport::new(self.index, self.at);
        let mut lexer = Lexer::new(self.text(), self.at.line);
        let (mut tags, first) = Tags::read_section(&mut lexer);
        report.white = tags.white.take().unwrap_or_else(|| "?".to_owned());
        report.black = tags.black.take().unwrap_or_else(|| "?".to_owned());
        if let Ok(variant) = tags.variant() {
            report.variant = variant;
        }
        let mut movetext = Movetext { lexer, first, mode, report };
        let result = match tags.start() {
            Ok(Start::Chess(pos)) => movetext.check(pos),
            Ok(Start::Variant(pos)) => movetext.check(pos),
            Err(problem) => Err(problem),
        };
        let mut report = movetext.report;
        if let Err(problem) = result {
            report.fail(problem);
        }
        report
    }
}

/// The movetext of a game being checked, and the report being written.
struct Movetext<'a> {
    lexer: Lexer<'a>,
    /// The token that ended the tags.
    first: Option<Result<Token<'a>, SyntaxError>>,
    mode: Mode,
    report: GameReport,
}

/// A move number read and not yet matched with its move.
struct Number<'a> {
    text: &'a [u8],
    at: Place,
}

/// The last move of the mainline: where its token ends, and its turn and spelling, for a glyph
/// glued to it or a lone `e.p.` after it.
struct LastMove<'a> {
    end: usize,
    at: Place,
    turn: Turn,
    token: &'a [u8],
    canonical: SanText,
    en_passant: bool,
}

impl<'a> Movetext<'a> {
    /// Notes a departure from the export format: an error in strict mode, a warning in
    /// lenient mode.
    fn departure(&mut self, problem: Problem) -> Result<(), Problem> {
        match self.mode {
            Mode::Strict => Err(problem),
            Mode::Lenient => {
                self.report.warnings.push(problem);
                Ok(())
            }
        }
    }

    fn check<P: Playable>(&mut self, mut pos: P) -> Result<(), Problem> {
        let strict = self.mode == Mode::Strict;
        let text = self.lexer.text();
        // Checked once: a token of a game that is UTF-8 is UTF-8 when it starts and ends on a
        // character's boundary, which `str::get` tells at once.
        let utf8 = std::str::from_utf8(text).ok();
        let mut number: Option<Number<'a>> = None;
        let mut last: Option<LastMove<'a>> = None;
        let mut ended = false;
        let mut first = self.first.take();
        // The lexer is read directly, not as an iterator: the first error ends the reading.
        loop {
            let token = match first.take() {
                Some(token) => token.map_err(Problem::Syntax)?,
                None => match self.lexer.next_token().map_err(Problem::Syntax)? {
                    Some(token) => token,
                    None => break,
                },
            };
            if token.depth > 0 && !matches!(token.kind, Kind::Open) {
                continue;
            }
            match token.kind {
                Kind::Tag { .. } | Kind::Comment | Kind::Close => {}
                Kind::Number(text) => {
                    if strict && let Some(before) = &number {
                        let found = format!("`{}`", ShownBytes(text));
                        return Err(move_expected(before, token.at, &found));
                    }
                    number = Some(Number { text, at: token.at });
                }
                Kind::Open | Kind::Result => {
                    if strict && let Some(before) = &number {
                        let found = format!("`{}`", ShownBytes(&text[token.span.clone()]));
                        return Err(move_expected(before, token.at, &found));
                    }
                    number = None;
                    ended |= token.kind == Kind::Result;
                }
                Kind::Nag => {
                    let glyph = &text[token.span.clone()];
                    if let Some(last) = last.as_ref().filter(|last| last.end == token.span.start)
                        && matches!(glyph.first(), Some(b'!' | b'?'))
                    {
                        let fault = Fault::Misspelled {
                            canonical: last.canonical.to_string(),
                            rule: Rule::GluedAnnotation,
                        };
                        let token = format!("{}{}", ShownBytes(last.token), ShownBytes(glyph));
                        let mistake = Mistake::new(last.turn, &token, None, fault);
                        self.departure(moved(last.at, mistake))?;
                    }
                }
                Kind::Move(text) => {
                    let turn = Turn::of(&pos);
                    if let Some(number) = number.take()
                        && strict
                    {
                        check_number(&number, turn)?;
                    }
                    let at = token.at;
                    // Spelled out only for a message: most moves need none.
                    let mistake = |fault| {
                        let shown = ShownBytes(text).to_string();
                        moved(at, Mistake::new(turn, &shown, None, fault))
                    };
                    let token_text = match utf8 {
                        Some(whole) => whole.get(token.span.clone()),
                        None => std::str::from_utf8(text).ok(),
                    };
                    if let (Some("e.p." | "ep"), Some(before)) = (token_text, &last)
                        && before.en_passant
                    {
                        let fault = Fault::Misspelled {
                            canonical: before.canonical.to_string(),
                            rule: Rule::EnPassantMark,
                        };
                        let shown = ShownBytes(text).to_string();
                        self.departure(moved(at, Mistake::new(before.turn, &shown, None, fault)))?;
                        last = None;
                        continue;
                    }
                    let Some(token_text) = token_text else {
                        return Err(mistake(Fault::NotAMove));
                    };
                    if is_null_move(token_text) {
                        // Passing in check would leave the king to be taken: no reading of
                        // the file can go on from there.
                        let Some(passed) = pos.pass() else {
                            return Err(mistake(Fault::NullMove));
                        };
                        self.departure(mistake(Fault::NullMove))?;
                        pos = passed;
                        self.report.plies += 1;
                        last = None;
                        continue;
                    }
                    let reading =
                        read_move(&mut pos, token_text, Dialect::Standard).map_err(mistake)?;
                    if let Some(rule) = reading.rule {
                        let canonical = reading.canonical.to_string();
                        self.departure(mistake(Fault::Misspelled { canonical, rule }))?;
                    }
                    self.report.plies += 1;
                    last = Some(LastMove {
                        end: token.span.end,
                        at,
                        turn,
                        token: text,
                        canonical: reading.canonical,
                        en_passant: reading.played.is_en_passant(),
                    });
                }
            }
        }
        // Where the game ends is found only for a message: it reads the game's text again.
        if let (Some(before), true) = (&number, strict) {
            return Err(move_expected(before, self.lexer.end_place(), &"the end of the game"));
        }
        if !ended {
            self.departure(Problem::NoResult { at: self.lexer.end_place() })?;
        }
        Ok(())
    }
}

/// A move problem at `at`.
fn moved(at: Place, mistake: Mistake) -> Problem {
    Problem::Move(Box::new(Located { at, mistake }))
}

/// The error when a move number is followed by something else than a move.
fn move_expected(number: &Number<'_>, at: Place, found: &dyn fmt::Display) -> Problem {
    Problem::Syntax(SyntaxError {
        at,
        expected: format!("a move after the move number `{}`", ShownBytes(number.text)).into(),
        found: found.to_string(),
    })
}

/// Strict mode: the number before a move must be the move's own, `12.` for white and `12...` for
/// black.
fn check_number(number: &Number<'_>, turn: Turn) -> Result<(), Problem> {
    // Slice patterns and no number written out: this runs once per move.
    let digits = match (turn.side, number.text) {
        (Color::White, [digits @ .., b'.']) | (Color::Black, [digits @ .., b'.', b'.', b'.']) => {
            digits
        }
        _ => return Err(wrong_number(number, turn)),
    };
    if writes_number(digits, turn.move_number) { Ok(()) } else { Err(wrong_number(number, turn)) }
}

/// The error when `number` is not the number of the move at `turn`.
#[cold]
fn wrong_number(number: &Number<'_>, turn: Turn) -> Problem {
    let dots = turn.side.fold_wb(".", "...");
    let expected = format!("{}{dots}", turn.move_number);
    Problem::Syntax(SyntaxError {
        at: number.at,
        expected: format!("the move number `{expected}` before {}'s move", turn.side).into(),
        found: format!("`{}`", ShownBytes(number.text)),
    })
}

/// Reads and checks every game of a PGN stream, compressed or not, one after the other; a game
/// larger than `limit` bytes is reported as such and skipped.
///
/// ```
/// use arbiter_chess_record::pgn::{check_games, Mode, MAX_GAME_BYTES};
///
/// let pgn = &b"1. e4 e5 *\n\n1. d4 d5 2. Ke3 *\n"[..];
/// let reports: Vec<_> = check_games(pgn, Mode::Strict, MAX_GAME_BYTES)?.collect::<Result<_, _>>()?;
/// assert_eq!(reports.iter().map(|r| r.ok).collect::<Vec<_>>(), [true, false]);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn check_games<'a, R: Read + Send + 'a>(
    reader: R,
    mode: Mode,
    limit: usize,
) -> io::Result<impl Iterator<Item = io::Result<GameReport>> + 'a> {
    let (_, reader) = decompressed(reader)?;
    Ok(Splitter::new(reader).with_limit(limit).filter_map(move |piece| match piece {
        Ok(Piece::Game(game)) => Some(Ok(game.check(mode))),
        Ok(Piece::TooLarge { index, at, limit }) => {
            Some(Ok(GameReport::too_large(index, at, limit)))
        }
        Ok(Piece::Raw(_)) => None,
        Err(error) => Some(Err(error)),
    }))
}
