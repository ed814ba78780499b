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
//!
//! A save directory is shared to reproduce a match, so what it holds is untrusted: every file is
//! opened through [`open_in`], which follows no symbolic link, writes through no hard link and
//! opens no FIFO or device, and the results file is read a bounded line at a time.

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
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

/// The longest line of a results file read back: a game of a million plies fits.
pub const MAX_LINE: u64 = 16 << 20;

/// The error for a file of a save directory that is not opened, and why.
fn refused(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}: {what}; a save directory's files are only opened within it, as regular files \
             of one name",
            path.display()
        ),
    )
}

/// Why the file of `metadata` is not one a save directory may hold, if it is not.
fn unfit(metadata: &fs::Metadata) -> Option<&'static str> {
    if metadata.file_type().is_symlink() {
        return Some("a symbolic link");
    }
    if !metadata.is_file() {
        return Some("not a regular file");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Some("a file with other names (hard links), which writing would change too");
        }
    }
    None
}

/// Opens the file `name` of the save directory `dir` with `options`: refused when it is a
/// symbolic link (never followed out of the directory), a hard link to another name, a FIFO or
/// a device. The check is made again on the open file, so that a link put in its place
/// meanwhile is refused all the same.
pub fn open_in(dir: &Path, name: &str, options: &mut OpenOptions) -> io::Result<File> {
    let path = dir.join(name);
    match fs::symlink_metadata(&path) {
        Ok(metadata) => {
            if let Some(what) = unfit(&metadata) {
                return Err(refused(&path, what));
            }
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(&path).map_err(|error| {
        if fs::symlink_metadata(&path).is_ok_and(|metadata| metadata.file_type().is_symlink()) {
            refused(&path, "a symbolic link")
        } else {
            error
        }
    })?;
    if let Some(what) = unfit(&file.metadata()?) {
        return Err(refused(&path, what));
    }
    Ok(file)
}

/// Writes `contents` to the file `name` of `dir`, created or truncated (see [`open_in`]).
pub fn write_in(dir: &Path, name: &str, contents: &[u8]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    open_in(dir, name, &mut options)?.write_all(contents)
}

/// The whole of the file `name` of `dir` (see [`open_in`]), refused unread over `limit` bytes.
pub fn read_in(dir: &Path, name: &str, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_in(dir, name, OpenOptions::new().read(true))?;
    let length = file.metadata()?.len();
    if length > limit {
        let message = format!(
            "{}: {length} bytes, over the limit of {limit} for this file",
            dir.join(name).display()
        );
        return Err(io::Error::new(io::ErrorKind::FileTooLarge, message));
    }
    let mut bytes = Vec::new();
    file.take(length).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Refuses a save directory that holds a symbolic link, naming the first found: nothing of a
/// directory shared with others may lead out of it.
fn no_links(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_symlink() {
            return Err(refused(&entry.path(), "a symbolic link"));
        }
    }
    Ok(())
}

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
    /// kept (less a last line cut short by a stop) and written on after them. The directory is
    /// refused if it holds a symbolic link; the results file if a line is longer than
    /// [`MAX_LINE`] or it holds more than the `games` of the match.
    pub fn resume(dir: &Path, games: u64) -> io::Result<(Saver, Vec<SavedResult>)> {
        no_links(dir)?;
        let path = dir.join(RESULTS);
        let mut file = open_in(dir, RESULTS, OpenOptions::new().read(true).write(true))?;
        let invalid = |number: usize, message: String| {
            let message = format!("{}:{number}: {message}", path.display());
            io::Error::new(io::ErrorKind::InvalidData, message)
        };
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        let mut whole = 0u64;
        let mut done = Vec::new();
        loop {
            line.clear();
            let read = (&mut reader).take(MAX_LINE + 1).read_until(b'\n', &mut line)?;
            if line.last() != Some(&b'\n') {
                if read as u64 > MAX_LINE {
                    let message = format!("a line longer than {MAX_LINE} bytes");
                    return Err(invalid(done.len() + 1, message));
                }
                // The end, or a match killed while writing a line: that game is played again.
                break;
            }
            if done.len() as u64 == games {
                let message = format!("more games than the match's {games}");
                return Err(invalid(done.len() + 1, message));
            }
            let result: SavedResult = serde_json::from_slice(&line)
                .map_err(|error| invalid(done.len() + 1, error.to_string()))?;
            done.push(result);
            whole += read as u64;
        }
        drop(reader);
        file.set_len(whole)?;
        file.seek(SeekFrom::End(0))?;
        let results = BufWriter::new(file);
        let saver = Saver { dir: dir.to_owned(), digits: games.max(1).to_string().len(), results };
        Ok((saver, done))
    }

    /// Creates `dir` if needed and starts a new results file in it; game files are numbered
    /// with enough digits for `games`. A directory that already has a results file holds a
    /// match, which this would lose: that is an error of kind `AlreadyExists`.
    pub fn create(dir: &Path, games: u64) -> io::Result<Saver> {
        fs::create_dir_all(dir)?;
        let results = open_in(dir, RESULTS, OpenOptions::new().write(true).create_new(true))?;
        let results = BufWriter::new(results);
        Ok(Saver { dir: dir.to_owned(), digits: games.max(1).to_string().len(), results })
    }

    /// The file the standard error of `engine` (0 or 1) of `worker` (from 0) is appended to.
    pub fn stderr_log(dir: &Path, engine: usize, worker: usize) -> io::Result<File> {
        let name = format!("engine{}.worker{}.stderr", engine + 1, worker + 1);
        open_in(dir, &name, OpenOptions::new().create(true).append(true))
    }

    /// The name of game `number`'s command file in the directory.
    fn game_name(&self, number: u64) -> String {
        format!("game-{number:0width$}.txt", width = self.digits)
    }

    /// The path of game `number`'s command file.
    pub fn game_path(&self, number: u64) -> PathBuf {
        self.dir.join(self.game_name(number))
    }

    /// Writes a finished game's files and its results line.
    pub fn save(&mut self, finished: &Finished, line: &ResultLine) -> io::Result<()> {
        let record = &finished.record;
        let name = self.game_name(finished.number);
        let stem = name.trim_end_matches(".txt");
        let dir = &self.dir;
        write_in(dir, &name, commands(&record.moves, record.illegal_move()).as_bytes())?;
        if let Some(fen) = &record.opening.fen {
            write_in(dir, &format!("{stem}.fen"), format!("{fen}\n").as_bytes())?;
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
        write_in(dir, &format!("{stem}.record"), (header + &played.to_string()).as_bytes())?;
        writeln!(self.results, "{}", line.to_json())?;
        self.results.flush()
    }
}
