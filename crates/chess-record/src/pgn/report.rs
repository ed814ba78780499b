//! The verdict on a game: the mode it was read in, each problem found with its place, and the
//! report that gathers them.

use std::fmt;

use arbiter_scan::Place;

#[cfg(feature = "serde")]
use crate::fault::Fault;
use crate::fault::Mistake;
use crate::variant::{GameVariant, ParseVariantError};

use super::lex::SyntaxError;

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
    /// `fix` would rewrite more moves of the game than it holds rewrites for one game: the game
    /// is passed on as written.
    #[error(
        "the game needs more than {limit} rewrites, the most fix holds for one game; it is passed on as written"
    )]
    TooManyRewrites {
        /// Where the limit was passed.
        at: Place,
        /// The limit.
        limit: usize,
    },
    /// The result written disagrees: the `Result` tag with the result token, or either with a
    /// mate or stalemate on the board at the end of the mainline. A warning.
    #[error("the result {written} disagrees with {against}")]
    Result {
        /// Where the result is written (the token, else the tag).
        at: Place,
        /// The result as written, and where (`1-0 (the Result tag)`).
        written: String,
        /// What it disagrees with (`the result token 0-1`, `checkmate: white wins`).
        against: String,
    },
    /// The last game of the input stops without a result in the middle of a line (the input
    /// ends without a line break): the input was probably cut off. A warning.
    #[error("the game stops at the end of the input without a result: the input seems cut off")]
    Truncated {
        /// Where the input ends.
        at: Place,
    },
    /// A clock comment that is not `[%clk H:MM:SS]` (seconds may have a fraction). A warning.
    #[error("a clock comment is written [%clk H:MM:SS], found `{found}`")]
    Clock {
        /// Where the comment is.
        at: Place,
        /// The command as written (at most 40 characters).
        found: String,
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
            | Problem::TooLarge { at, .. }
            | Problem::TooManyRewrites { at, .. }
            | Problem::Result { at, .. }
            | Problem::Truncated { at }
            | Problem::Clock { at, .. } => *at,
        }
    }

    /// A short name of its kind: `move`, `syntax`, `fen`, `variant`, `no_result`, `too_large`,
    /// `too_many_rewrites` (from `fix`),
    /// and for warnings on a game's consistency `result`, `truncated`, `clock`.
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::Result { .. } => "result",
            Problem::Truncated { .. } => "truncated",
            Problem::Clock { .. } => "clock",
            Problem::Move(_) => "move",
            Problem::Syntax(_) => "syntax",
            Problem::Fen { .. } => "fen",
            Problem::Variant { .. } => "variant",
            Problem::NoResult { .. } => "no_result",
            Problem::TooLarge { .. } => "too_large",
            Problem::TooManyRewrites { .. } => "too_many_rewrites",
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
    /// Where its first character (of its tags, or of its movetext) stands in the input, in
    /// bytes of the text read (decompressed): where to seek to find it again.
    pub offset: u64,
    /// What the file calls it, to find it again elsewhere: the `Site` tag when it is a URL
    /// (`https://lichess.org/abcd1234`), else the `GameId` tag, else `None`.
    pub id: Option<String>,
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
    /// The `Result` tag, if any, as written: for tables of games (not in the JSON report,
    /// which says what is wrong, not what the game holds).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub result: Option<String>,
}

impl GameReport {
    pub(super) fn new(index: usize, at: Place) -> GameReport {
        GameReport {
            index,
            line: at.line,
            column: at.column,
            offset: 0,
            id: None,
            white: "?".to_owned(),
            black: "?".to_owned(),
            variant: GameVariant::Standard,
            ok: true,
            plies: 0,
            error: None,
            warnings: Vec::new(),
            result: None,
        }
    }

    /// Where the game starts.
    pub fn at(&self) -> Place {
        Place { line: self.line, column: self.column }
    }

    /// The report on a game too large to read, which starts at byte `offset` of the input.
    pub fn too_large(index: usize, at: Place, offset: u64, limit: usize) -> GameReport {
        let mut report = GameReport::new(index, at);
        report.offset = offset;
        report.fail(Problem::TooLarge { at, limit });
        report
    }

    pub(super) fn fail(&mut self, error: Problem) {
        self.ok = false;
        self.error = Some(error);
    }
}
