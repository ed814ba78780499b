//! Real PGN files: games cut apart, read token by token, and checked move by move in standard
//! SAN.
//!
//! The source is cut into games first ([`split_games`]); each game is then read and checked on
//! its own, so games can be read and checked in parallel, and broken syntax in one game leaves
//! the next one readable. Only the mainline's moves are checked; variations are read for their
//! syntax only. Move numbers are read but not checked: PGN's import format lets them be missing,
//! glued to the move (`12.e4`) or written `12...`.
//!
//! ```
//! use arbiter_chess_record::pgn::{Mode, PgnGames};
//!
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 (1... c5) 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let games: Vec<_> = PgnGames::new(pgn.as_bytes()).collect();
//! assert_eq!(games[0].line, 1);
//! let report = games[0].check(Mode::Strict);
//! assert!(report.result.is_ok());
//! assert_eq!((report.white.as_str(), report.plies), ("A", 7));
//! ```
//!
//! Each move is checked as written in the file: in strict mode the token must be exactly the
//! canonical standard SAN of a legal move (`O-O`, not `0-0`; `bxa8=Q`, not `bxa8=q` or `bxa8Q`;
//! `#` on a mate). In lenient mode any token that denotes exactly one legal move is accepted
//! (`0-0`, `Pe4`, `e2-e4`, `bxa8Q`, `Qh4++`, `exd6e.p.`, or `exd6` followed by a lone `e.p.`),
//! with a warning that names the canonical spelling; a token that denotes no legal move, or
//! several, is an error in both modes.

mod lex;
mod split;

use std::fmt;

use pgn_reader::RawTag;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::fault::{Fault, Mistake, Rule};
use crate::reading::read_move;
use crate::record::Place;
use crate::spelling::Dialect;

pub use arbiter_scan::Position;
pub(crate) use lex::{Kind, Lexer, Token};
pub use lex::{MAX_DEPTH, SyntaxError};
pub use split::{GameText, split_games};

/// How strictly moves are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every move must be the canonical standard SAN (`=Q` and `#` included).
    Strict,
    /// Any spelling that denotes one legal move is accepted, with a warning naming the canonical
    /// one.
    Lenient,
}

/// A move token of a game's mainline, as written, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgnMove<'a> {
    /// The token (a glued move number left out).
    pub text: &'a [u8],
    /// Where it starts.
    pub at: Position,
}

/// One game as read from a PGN file, ready to be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame<'a> {
    /// Its number in the file, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// The `White` tag, or `?`.
    pub white: String,
    /// The `Black` tag, or `?`.
    pub black: String,
    /// The `FEN` tag and where it is, when the game does not start from the initial position.
    pub fen: Option<(Position, String)>,
    /// The mainline's move tokens, in order.
    pub moves: Vec<PgnMove<'a>>,
    /// Broken syntax found in the game; the tags and moves before it are kept.
    pub syntax_error: Option<SyntaxError>,
}

/// A mistake in a move and where the move is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Where the token starts.
    pub at: Position,
    /// What is wrong with it.
    pub mistake: Mistake,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mistake.fmt(f)
    }
}

/// The verdict on one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// Its number in the file, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// The `White` tag, or `?`.
    pub white: String,
    /// The `Black` tag, or `?`.
    pub black: String,
    /// How many moves were accepted.
    pub plies: u32,
    /// `Ok`, or the first error.
    pub result: Result<(), GameError>,
    /// Lenient mode: each accepted move that was not spelled canonically.
    pub warnings: Vec<Located>,
}

/// Why a game is rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A move is illegal, ambiguous or (in strict mode) misspelled.
    #[error("{0}")]
    Move(Box<Located>),
    /// The PGN text is broken.
    #[error("PGN syntax: {0}")]
    Syntax(SyntaxError),
    /// The `FEN` tag is not a legal chess position.
    #[error("bad FEN tag: {message}")]
    Fen {
        /// Where the tag is.
        at: Position,
        /// What is wrong with it.
        message: String,
    },
}

impl GameError {
    /// Where the error is.
    pub fn at(&self) -> Position {
        match self {
            GameError::Move(located) => located.at,
            GameError::Syntax(error) => error.at,
            GameError::Fen { at, .. } => *at,
        }
    }
}

impl PgnGame<'_> {
    /// Checks the game's mainline.
    pub fn check(&self, mode: Mode) -> GameReport {
        let mut report = GameReport {
            index: self.index,
            line: self.line,
            white: self.white.clone(),
            black: self.black.clone(),
            plies: 0,
            result: Ok(()),
            warnings: Vec::new(),
        };
        report.result = self.check_into(mode, &mut report);
        report
    }

    fn check_into(&self, mode: Mode, report: &mut GameReport) -> Result<(), GameError> {
        let mut pos = start_position(self.fen.as_ref())?;
        // The last move, when it was an en passant capture: a lone `e.p.` may follow it.
        let mut en_passant: Option<(Place, String)> = None;
        for &PgnMove { text, at } in &self.moves {
            let place = Place::of(&pos);
            let located = |place: Place, token: &str, fault| Located {
                at,
                mistake: mistake(place, token, fault),
            };
            let Ok(token) = std::str::from_utf8(text) else {
                let token = String::from_utf8_lossy(text);
                return Err(GameError::Move(Box::new(located(place, &token, Fault::NotAMove))));
            };
            if let ("e.p." | "ep", Some((capture, canonical))) = (token, en_passant.take()) {
                let fault = Fault::Misspelled { canonical, rule: Rule::EnPassantMark };
                let note = located(capture, token, fault);
                match mode {
                    Mode::Strict => return Err(GameError::Move(Box::new(note))),
                    Mode::Lenient => report.warnings.push(note),
                }
                continue;
            }
            let reading = read_move(&mut pos, token, Dialect::Standard)
                .map_err(|fault| GameError::Move(Box::new(located(place, token, fault))))?;
            if let Some(rule) = reading.rule {
                let fault = Fault::Misspelled { canonical: reading.canonical.to_string(), rule };
                let note = located(place, token, fault);
                match mode {
                    Mode::Strict => return Err(GameError::Move(Box::new(note))),
                    Mode::Lenient => report.warnings.push(note),
                }
            }
            if reading.played.is_en_passant() {
                en_passant = Some((place, reading.canonical.to_string()));
            }
            report.plies += 1;
        }
        // Syntax is reported after the moves before it: a wrong move earlier in the game is the
        // first error.
        match &self.syntax_error {
            Some(error) => Err(GameError::Syntax(error.clone())),
            None => Ok(()),
        }
    }
}

/// The position a game starts from: the initial one, or its `FEN` tag's.
fn start_position(fen: Option<&(Position, String)>) -> Result<Chess, GameError> {
    let Some((at, fen)) = fen else {
        return Ok(Chess::default());
    };
    let error = |message: String| GameError::Fen { at: *at, message };
    Fen::from_ascii(fen.as_bytes())
        .map_err(|e| error(e.to_string()))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| error(e.to_string()))
}

/// The mistake of `token`, played at `place`.
fn mistake(place: Place, token: &str, fault: Fault) -> Mistake {
    Mistake {
        ply: place.ply,
        move_number: place.move_number,
        side: place.side,
        token: token.to_owned(),
        offset: None,
        fault,
    }
}

impl<'a> GameText<'a> {
    /// Reads the game's tags and mainline; broken syntax ends the reading, keeping what came
    /// before it.
    pub fn read(&self) -> PgnGame<'a> {
        let mut game = PgnGame {
            index: self.index,
            line: self.line,
            white: "?".to_owned(),
            black: "?".to_owned(),
            fen: None,
            // Most games are shorter than this: a few growths at most.
            moves: Vec::with_capacity(128),
            syntax_error: None,
        };
        for token in Lexer::new(self.text, self.line) {
            match token {
                Ok(Token { kind: Kind::Tag { name, value }, at, .. }) => {
                    let value = || RawTag(value).decode_utf8_lossy().into_owned();
                    match name {
                        b"White" => game.white = value(),
                        b"Black" => game.black = value(),
                        b"FEN" => game.fen = Some((at, value())),
                        _ => {}
                    }
                }
                Ok(Token { kind: Kind::Move(text), at, depth: 0, .. }) => {
                    game.moves.push(PgnMove { text, at });
                }
                Ok(_) => {}
                Err(error) => game.syntax_error = Some(error),
            }
        }
        game
    }
}

/// The games of a PGN source, in order; a syntax error ends its game, not the file.
pub struct PgnGames<'a> {
    games: std::vec::IntoIter<GameText<'a>>,
}

impl<'a> PgnGames<'a> {
    /// Reads games from the whole text of a PGN source.
    pub fn new(text: &'a [u8]) -> PgnGames<'a> {
        PgnGames { games: split_games(text).into_iter() }
    }
}

impl<'a> Iterator for PgnGames<'a> {
    type Item = PgnGame<'a>;

    fn next(&mut self) -> Option<PgnGame<'a>> {
        self.games.next().map(|game| game.read())
    }
}
