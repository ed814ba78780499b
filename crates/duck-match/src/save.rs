//! A match's record on disk (`--save DIR`): each game in the official command format, a results
//! file with one JSON object per game, and the engines' standard error.
//!
//! ```
//! use arbiter_duck_match::save::commands;
//! use arbiter_duck::Move;
//!
//! let moves: Vec<Move> = ["d1e2", "e10e9"].iter().map(|m| m.parse().unwrap()).collect();
//! assert_eq!(commands(&moves, None), "2\n0 3 1 4\n9 4 8 4\n");
//! ```
//!
//! The directory holds:
//!
//! - `game-N.txt` for game N: the count `Q`, then the `Q` moves as `x1 y1 x2 y2`, from the
//!   starting position, the opening's moves included, so that `arbiter duck game-N.txt` replays
//!   the game and prints its official result lines. A game lost by a refused move ends with that
//!   move, which the judge answers `Invalid command`. When the opening is a FEN, the moves start
//!   from that position instead, which the command format cannot express: `game-N.fen` beside
//!   it holds the FEN, and the results file says so (`"fen"`).
//! - `game-N.record`: the same game move by move, each engine move with its score, depth,
//!   nodes, time taken and clock left (see [`record`](super::record)), which
//!   [`Record`]'s `FromStr` reads back.
//! - `results.jsonl`: one line per game, in the order the games finished (see [`ResultLine`]).
//! - `engine1.worker1.stderr` ...: the standard error of each engine (1 or 2) of each worker
//!   (one per concurrent game), appended across restarts.

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use arbiter_duck::{Color, Move, UciMove};
use serde::Serialize;

use super::game::Finished;
use super::record::Record;

/// The official command format for `moves`, and the refused move that ended the game if any.
pub fn commands(moves: &[Move], illegal: Option<Move>) -> String {
    let all: Vec<&Move> = moves.iter().chain(illegal.as_ref()).collect();
    let mut text = format!("{}\n", all.len());
    for mv in all {
        let _ = writeln!(text, "{mv}");
    }
    text
}

/// One game in the results file, and in the match's `--json` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultLine {
    /// The game's number, from 1.
    pub game: u64,
    /// The pair it belongs to (the opening's number), from 1.
    pub pair: u64,
    /// The name of the engine playing red.
    pub red: String,
    /// The name of the engine playing blue.
    pub blue: String,
    /// Which engine played red: 1 for the first given, 2 for the second, and so on.
    pub red_engine: usize,
    /// Which engine played blue, numbered as `red_engine`.
    pub blue_engine: usize,
    /// The opening, as the arguments of UCI's `position`.
    pub opening: String,
    /// The FEN the game started from, when the opening is one.
    pub fen: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `red`, `blue`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// How the game ended (see [`Termination::code`](super::game::Termination::code)).
    pub termination: &'static str,
    /// Why, in words.
    pub reason: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Every valid move in square notation, the opening's included.
    pub moves: Vec<String>,
    /// The refused move that ended the game, if one did.
    pub illegal_move: Option<String>,
}

impl ResultLine {
    /// The line for a finished game of a match between engines named `names`.
    pub fn new(finished: &Finished, names: &[String]) -> ResultLine {
        let record = &finished.record;
        let red = finished.engines[finished.red];
        let blue = finished.engines[1 - finished.red];
        let name = |engine: usize| names.get(engine).cloned().unwrap_or_default();
        ResultLine {
            game: finished.number,
            pair: finished.pair,
            red: name(red),
            blue: name(blue),
            red_engine: red + 1,
            blue_engine: blue + 1,
            opening: record.opening.to_string(),
            fen: record.opening.fen.as_ref().map(ToString::to_string),
            result: record.result.score(),
            winner: record.result.winner.map(Color::name),
            termination: record.result.termination.code(),
            reason: record.result.reason(),
            plies: record.plies(),
            moves: record.moves.iter().map(|&mv| UciMove(mv).to_string()).collect(),
            illegal_move: record.illegal_move().map(|mv| UciMove(mv).to_string()),
        }
    }

    /// The line as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The file of a save directory with one line per game played ([`ResultLine`]).
pub const RESULTS: &str = "results.jsonl";

/// The save directory, open for writing.
#[derive(Debug)]
pub struct Saver {
    dir: PathBuf,
    digits: usize,
    results: BufWriter<File>,
}

/// A game of an earlier run of the match, as its results line tells it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct SavedResult {
    /// The game's number, from 1.
    pub game: u64,
    /// Its pair's number, from 1.
    pub pair: u64,
    /// The engine that played red, from 1.
    pub red_engine: usize,
    /// The engine that played blue, from 1 (absent from files of two-engine matches written
    /// before there could be more: then the other one).
    #[serde(default)]
    pub blue_engine: Option<usize>,
    /// `red`, `blue`, or none for a draw.
    pub winner: Option<String>,
    /// How the game ended.
    pub termination: String,
}

impl Saver {
    /// Opens `dir` to go on with a match saved there: the games of its results file, which is
    /// kept (less a last line cut short by a stop) and written on after them.
    pub fn resume(dir: &Path, games: u64) -> io::Result<(Saver, Vec<SavedResult>)> {
        let path = dir.join(RESULTS);
        let text = fs::read_to_string(&path)?;
        // A match killed while writing leaves a line without its end: that game is played again.
        let whole = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
        let mut done = Vec::new();
        for (number, line) in whole.lines().enumerate() {
            let result: SavedResult = serde_json::from_str(line).map_err(|error| {
                let message = format!("{}:{}: {error}", path.display(), number + 1);
                io::Error::new(io::ErrorKind::InvalidData, message)
            })?;
            done.push(result);
        }
        fs::write(&path, whole)?;
        let results = BufWriter::new(OpenOptions::new().append(true).open(&path)?);
        let saver = Saver { dir: dir.to_owned(), digits: games.max(1).to_string().len(), results };
        Ok((saver, done))
    }

    /// Creates `dir` if needed and starts a new results file in it; game files are numbered
    /// with enough digits for `games`. A directory that already has a results file holds a
    /// match, which this would lose: that is an error of kind `AlreadyExists`.
    pub fn create(dir: &Path, games: u64) -> io::Result<Saver> {
        fs::create_dir_all(dir)?;
        let results = BufWriter::new(File::create_new(dir.join(RESULTS))?);
        Ok(Saver { dir: dir.to_owned(), digits: games.max(1).to_string().len(), results })
    }

    /// The file the standard error of `engine` (0 or 1) of `worker` (from 0) is appended to.
    pub fn stderr_log(dir: &Path, engine: usize, worker: usize) -> io::Result<File> {
        let name = format!("engine{}.worker{}.stderr", engine + 1, worker + 1);
        OpenOptions::new().create(true).append(true).open(dir.join(name))
    }

    /// The path of game `number`'s command file.
    pub fn game_path(&self, number: u64) -> PathBuf {
        self.dir.join(format!("game-{number:0width$}.txt", width = self.digits))
    }

    /// Writes a finished game's files and its results line.
    pub fn save(&mut self, finished: &Finished, line: &ResultLine) -> io::Result<()> {
        let record = &finished.record;
        let path = self.game_path(finished.number);
        fs::write(&path, commands(&record.moves, record.illegal_move()))?;
        if let Some(fen) = &record.opening.fen {
            fs::write(path.with_extension("fen"), format!("{fen}\n"))?;
        }
        let played = Record {
            opening: record.opening.clone(),
            moves: record.moves[record.opening.moves.len()..].to_vec(),
            thoughts: record.thoughts.clone(),
            illegal: record.illegal_move(),
            result: record.result.score().to_owned(),
            termination: record.result.termination.code().to_owned(),
        };
        let header = format!("# game {}: {} (red) vs {} (blue)\n", line.game, line.red, line.blue);
        fs::write(path.with_extension("record"), header + &played.to_string())?;
        writeln!(self.results, "{}", line.to_json())?;
        self.results.flush()
    }
}
