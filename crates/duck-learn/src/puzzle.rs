//! Puzzles: a position, the one line that wins from it, its themes and its difficulty; and the
//! collection shipped with arbiter.
//!
//! A puzzle is written as one JSON object a line: `id`, `fen` (the solver to move), `solution`
//! (official commands from that position, the solver's and the replies alternating, the
//! solver's first and last), `themes`, `rating`, and where it was found (`origin`). The shipped
//! collection is such lines, compressed with zstd, built into the binary
//! ([`Collection::shipped`]); `puzzles/PROVENANCE.md` beside this crate says how it was made.
//!
//! ```
//! use arbiter_duck_learn::puzzle::{Collection, Theme};
//!
//! let line = r#"{"id":"a1b2c3d4","fen":"4c4/9/9/9/9/9/9/9/4R4/3C5 w - - 0 1","solution":["1 4 9 4"],"themes":["capture-in-1","one-move"],"rating":700}"#;
//! let collection = Collection::read_lines(line.as_bytes()).unwrap();
//! let puzzle = &collection.puzzles()[0];
//! assert_eq!(puzzle.solution[0].to_string(), "1 4 9 4");
//! assert_eq!(puzzle.themes, [Theme::CaptureIn(1), Theme::OneMove]);
//! assert!(puzzle.position().is_ok());
//! ```

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::str::FromStr;

use arbiter_duck::{FenError, Move, Position};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Eight hexadecimal digits derived from the position ([`Puzzle::id_of`]).
    pub id: String,
    /// The position, the solver to move, in FEN.
    pub fen: String,
    /// The solver's moves and the replies, alternating, the solver's first and last.
    #[serde(with = "crate::wire::commands")]
    pub solution: Vec<Move>,
    /// What it is about.
    pub themes: Vec<Theme>,
    /// How hard it is, on the scale of players' ratings.
    pub rating: u32,
    /// Where it was found, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

/// The game and move a puzzle was found at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The game: `selfplay:SEED:NUMBER` for a game the miner played, else the file's name.
    pub game: String,
    /// The plies played in that game before the puzzle's position.
    pub ply: usize,
}

impl Puzzle {
    /// The puzzle's starting position.
    pub fn position(&self) -> Result<Position, FenError> {
        self.fen.parse()
    }

    /// The number of moves the solver plays.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// The id of a puzzle starting from `fen`: the 64-bit FNV-1a hash of the FEN's board and
    /// side to move (not its counters), its low 32 bits in hexadecimal.
    pub fn id_of(position: &Position) -> String {
        let fen = position.fen().to_string();
        let board_and_turn: String = fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in board_and_turn.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{:08x}", hash as u32)
    }
}

/// What a puzzle is about. Written as text: `capture-in-2`, `material`, `fork`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The solver captures the captain with its N-th move, by force.
    CaptureIn(u8),
    /// The solver wins decisive material by force.
    Material,
    /// A move of the solver attacks two of the opponent's pieces of worth at once.
    Fork,
    /// A fork by a duck.
    DuckFork,
    /// An opponent's piece cannot leave its point without opening its captain to capture, and
    /// the solver takes it.
    Pin,
    /// The opponent takes a piece of the solver's on the way.
    Sacrifice,
    /// The first move captures nothing and does not attack the captain.
    QuietMove,
    /// One move of the solver.
    OneMove,
    /// Two moves of the solver.
    Short,
    /// Three or four moves of the solver.
    Long,
    /// Five moves of the solver or more.
    VeryLong,
}

impl Theme {
    /// The themes a list can be filtered by, with a word on each, for pages and `--help`.
    pub const NAMED: [(&'static str, &'static str); 11] = [
        ("capture-in-N", "the captain captured with the solver's N-th move"),
        ("material", "decisive material won"),
        ("fork", "one move attacks two pieces of worth"),
        ("duck-fork", "a duck's fork"),
        ("pin", "a piece that cannot move without opening its captain, taken"),
        ("sacrifice", "the solver gives up a piece of worth on the way"),
        ("quiet-move", "the first move captures nothing and does not attack the captain"),
        ("one-move", "one move to find"),
        ("short", "two moves"),
        ("long", "three or four moves"),
        ("very-long", "five moves or more"),
    ];

    /// The theme of a solution's length, in moves of the solver.
    pub fn of_length(solver_moves: usize) -> Theme {
        match solver_moves {
            0 | 1 => Theme::OneMove,
            2 => Theme::Short,
            3 | 4 => Theme::Long,
            _ => Theme::VeryLong,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Theme::CaptureIn(moves) => write!(f, "capture-in-{moves}"),
            Theme::Material => f.write_str("material"),
            Theme::Fork => f.write_str("fork"),
            Theme::DuckFork => f.write_str("duck-fork"),
            Theme::Pin => f.write_str("pin"),
            Theme::Sacrifice => f.write_str("sacrifice"),
            Theme::QuietMove => f.write_str("quiet-move"),
            Theme::OneMove => f.write_str("one-move"),
            Theme::Short => f.write_str("short"),
            Theme::Long => f.write_str("long"),
            Theme::VeryLong => f.write_str("very-long"),
        }
    }
}

/// A text that names no theme.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected a theme (capture-in-N, material, fork, duck-fork, pin, sacrifice, quiet-move, one-move, short, long, very-long), found `{0}`"
)]
pub struct ParseThemeError(pub String);

impl FromStr for Theme {
    type Err = ParseThemeError;

    fn from_str(text: &str) -> Result<Theme, ParseThemeError> {
        let theme = match text {
            "material" => Theme::Material,
            "fork" => Theme::Fork,
            "duck-fork" => Theme::DuckFork,
            "pin" => Theme::Pin,
            "sacrifice" => Theme::Sacrifice,
            "quiet-move" => Theme::QuietMove,
            "one-move" => Theme::OneMove,
            "short" => Theme::Short,
            "long" => Theme::Long,
            "very-long" => Theme::VeryLong,
            _ => {
                return text
                    .strip_prefix("capture-in-")
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .map(Theme::CaptureIn)
                    .ok_or_else(|| ParseThemeError(text.to_owned()));
            }
        };
        Ok(theme)
    }
}

impl Serialize for Theme {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Theme {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Theme, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a collection could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    /// The bytes could not be read or decompressed.
    #[error("cannot read the puzzles: {0}")]
    Io(#[from] io::Error),
    /// A line is not a puzzle.
    #[error("line {line}: expected a puzzle, found {error}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        error: serde_json::Error,
    },
}

/// The shipped puzzles: zstd-compressed JSON lines.
const SHIPPED: &[u8] = include_bytes!("../puzzles/puzzles.jsonl.zst");

/// A list of puzzles, in the order of their ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collection {
    puzzles: Vec<Puzzle>,
}

impl Collection {
    /// The collection built into arbiter.
    pub fn shipped() -> Result<Collection, CollectionError> {
        Collection::read_zstd(SHIPPED)
    }

    /// Reads zstd-compressed JSON lines.
    pub fn read_zstd(bytes: impl Read) -> Result<Collection, CollectionError> {
        Collection::read_lines(io::BufReader::new(zstd::Decoder::new(bytes)?))
    }

    /// Reads JSON lines, one puzzle each (blank lines are skipped).
    pub fn read_lines(reader: impl BufRead) -> Result<Collection, CollectionError> {
        let mut puzzles = Vec::new();
        for (index, line) in reader.lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let puzzle = serde_json::from_str(&line)
                .map_err(|error| CollectionError::Line { line: index + 1, error })?;
            puzzles.push(puzzle);
        }
        Ok(Collection::new(puzzles))
    }

    /// The puzzles, ordered by id, one per id (the first kept).
    pub fn new(mut puzzles: Vec<Puzzle>) -> Collection {
        puzzles.sort_by(|a, b| a.id.cmp(&b.id));
        puzzles.dedup_by(|later, first| later.id == first.id);
        Collection { puzzles }
    }

    /// Every puzzle.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.binary_search_by(|p| p.id.as_str().cmp(id)).ok().map(|i| &self.puzzles[i])
    }

    /// Writes the puzzles as JSON lines.
    pub fn write_lines(&self, mut out: impl Write) -> io::Result<()> {
        for puzzle in &self.puzzles {
            serde_json::to_writer(&mut out, puzzle)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Writes the puzzles as zstd-compressed JSON lines (level 19: written once, read often).
    pub fn write_zstd(&self, out: impl Write) -> io::Result<()> {
        let mut encoder = zstd::Encoder::new(out, 19)?;
        self.write_lines(&mut encoder)?;
        encoder.finish()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_read_back_as_written() {
        for theme in [
            Theme::CaptureIn(3),
            Theme::Material,
            Theme::Fork,
            Theme::DuckFork,
            Theme::Pin,
            Theme::Sacrifice,
            Theme::QuietMove,
            Theme::OneMove,
            Theme::Short,
            Theme::Long,
            Theme::VeryLong,
        ] {
            assert_eq!(theme.to_string().parse::<Theme>(), Ok(theme));
        }
        assert!("capture-in-0".parse::<Theme>().is_err());
        assert!("mate".parse::<Theme>().is_err());
    }

    #[test]
    fn a_collection_survives_compression() {
        let puzzle = Puzzle {
            id: Puzzle::id_of(&Position::new()),
            fen: Position::new().fen().to_string(),
            solution: vec!["e4e5".parse().unwrap()],
            themes: vec![Theme::Material],
            rating: 1500,
            origin: Some(Origin { game: "selfplay:1:2".into(), ply: 0 }),
        };
        let collection = Collection::new(vec![puzzle.clone(), puzzle.clone()]);
        assert_eq!(collection.puzzles().len(), 1);
        let mut bytes = Vec::new();
        collection.write_zstd(&mut bytes).unwrap();
        let back = Collection::read_zstd(bytes.as_slice()).unwrap();
        assert_eq!(back, collection);
        assert_eq!(back.get(&puzzle.id), Some(&puzzle));
        let error = Collection::read_lines("{}\n".as_bytes()).unwrap_err();
        assert!(error.to_string().starts_with("line 1: expected a puzzle"), "{error}");
    }

    #[test]
    fn the_shipped_collection_reads() {
        let shipped = Collection::shipped().unwrap();
        for puzzle in shipped.puzzles() {
            let position = puzzle.position().unwrap();
            assert_eq!(Puzzle::id_of(&position), puzzle.id);
            assert_eq!(puzzle.solution.len() % 2, 1, "{}", puzzle.id);
        }
    }
}
