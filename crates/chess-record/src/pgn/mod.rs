//! Real PGN files: games read with pgn-reader's visitor, checked move by move in standard SAN.
//!
//! The source is cut into games first ([`split_games`]); each game is then read by pgn-reader
//! and checked on its own, so games can be read and checked in parallel. Only the mainline is
//! checked: variations are skipped by the reader.
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
//! pgn-reader parses each move with shakmaty's SAN parser, which already normalises a few
//! spellings (`0-0` reads as `O-O`); the strict check compares what remains with the canonical
//! spelling. A token the reader cannot read as SAN at all (`e8Q`, `Qh4++`) would be skipped by
//! it; such a token is found in the game's text and reported as a syntax error of that game.

mod split;

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::Suffix;
use shakmaty::{CastlingMode, Chess};

use crate::fault::{Fault, Mistake};
use crate::reading::read_token;
use crate::record::Place;
use crate::spelling::{Dialect, SanText};
use crate::token::MoveToken;

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

/// One game as read from a PGN file, ready to be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Its number in the file, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// The `White` tag, or `?`.
    pub white: String,
    /// The `Black` tag, or `?`.
    pub black: String,
    /// The `FEN` tag, when the game does not start from the initial position.
    pub fen: Option<String>,
    /// The mainline moves, as parsed.
    pub moves: Vec<SanPlus>,
    /// A syntax error that stopped the reader inside this game.
    pub syntax_error: Option<String>,
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
    pub warnings: Vec<Mistake>,
}

/// Why a game is rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A move is illegal, ambiguous or (in strict mode) misspelled.
    #[error("{0}")]
    Move(Box<Mistake>),
    /// The PGN text is broken.
    #[error("PGN syntax: {0}")]
    Syntax(String),
    /// The `FEN` tag is not a legal chess position.
    #[error("bad FEN tag: {0}")]
    Fen(String),
}

impl PgnGame {
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
        if let Some(error) = &self.syntax_error {
            return Err(GameError::Syntax(error.clone()));
        }
        let mut pos = match &self.fen {
            None => Chess::default(),
            Some(fen) => Fen::from_ascii(fen.as_bytes())
                .map_err(|error| GameError::Fen(error.to_string()))?
                .into_position(CastlingMode::Standard)
                .map_err(|error| GameError::Fen(error.to_string()))?,
        };
        for san_plus in &self.moves {
            // The move as the reader saw it, spelled back on the stack: no allocation per move.
            let suffix = san_plus.suffix;
            let check = suffix.is_some();
            let mate = suffix == Some(Suffix::Checkmate);
            let written = SanText::new(san_plus.san, check, mate, Dialect::Standard);
            let text = written.as_str();
            let at = Place::of(&pos);
            let mistake = |fault| Mistake {
                ply: at.ply,
                move_number: at.move_number,
                side: at.side,
                token: text.to_owned(),
                offset: None,
                fault,
            };
            let token = MoveToken::from_san_plus(text, *san_plus);
            let reading = read_token(&mut pos, &token, Dialect::Standard)
                .map_err(|fault| GameError::Move(Box::new(mistake(fault))))?;
            if let Some(rule) = reading.rule {
                let fault = Fault::Misspelled { canonical: reading.canonical.to_string(), rule };
                match mode {
                    Mode::Strict => return Err(GameError::Move(Box::new(mistake(fault)))),
                    Mode::Lenient => report.warnings.push(mistake(fault)),
                }
            }
            report.plies += 1;
        }
        Ok(())
    }
}

impl GameText<'_> {
    /// Reads the game with pgn-reader; a token it would skip is a syntax error of the game.
    pub fn read(&self) -> PgnGame {
        let mut collector = Collector { index: self.index, line: self.line };
        let mut game = match Reader::new(self.text).read_game(&mut collector) {
            Ok(Some(game)) => game,
            Ok(None) => collector.empty(),
            Err(error) => {
                let mut game = collector.empty();
                game.syntax_error = Some(error.to_string());
                game
            }
        };
        if let (None, Some((line, token))) = (&game.syntax_error, self.unreadable_token()) {
            game.syntax_error = Some(format!("line {line}: `{token}` is not a move in SAN"));
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

impl Iterator for PgnGames<'_> {
    type Item = PgnGame;

    fn next(&mut self) -> Option<PgnGame> {
        self.games.next().map(|game| game.read())
    }
}

/// The visitor that gathers a game's tags and mainline.
struct Collector {
    index: usize,
    line: usize,
}

impl Collector {
    fn empty(&self) -> PgnGame {
        PgnGame {
            index: self.index,
            line: self.line,
            white: "?".to_owned(),
            black: "?".to_owned(),
            fen: None,
            moves: Vec::new(),
            syntax_error: None,
        }
    }
}

impl Visitor for Collector {
    type Tags = PgnGame;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, PgnGame> {
        ControlFlow::Continue(self.empty())
    }

    fn tag(&mut self, game: &mut PgnGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<PgnGame> {
        let value = || value.decode_utf8_lossy().into_owned();
        match name {
            b"White" => game.white = value(),
            b"Black" => game.black = value(),
            b"FEN" => game.fen = Some(value()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, game: PgnGame) -> ControlFlow<PgnGame, PgnGame> {
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut PgnGame, san_plus: SanPlus) -> ControlFlow<PgnGame> {
        game.moves.push(san_plus);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: PgnGame) -> PgnGame {
        game
    }
}
