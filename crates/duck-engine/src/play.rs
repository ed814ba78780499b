//! A game at the terminal (`arbiter duck play`): the board after each move, each side's move
//! typed by a human or searched by the [`Engine`], each move answered with the official verdict
//! line, until a captain is captured, the side to move has no valid move, or the ply cap.
//!
//! ```
//! use arbiter_duck_engine::engine::Engine;
//! use arbiter_duck_engine::play::{self, Controller, Setup};
//! use arbiter_duck_engine::search::Limits;
//!
//! let setup = Setup {
//!     red: Controller::Human,
//!     blue: Controller::Engine,
//!     limits: Limits::depth(1),
//!     max_plies: 300,
//!     save: None,
//!     input_name: "<stdin>".to_owned(),
//! };
//! let mut out = Vec::new();
//! play::play(&mut Engine::new(1), &setup, "e4e5\nquit\n".as_bytes(), &mut out).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("blue plays "));
//! ```

use std::fmt::Write as _;
use std::fs;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use arbiter_duck::draw::render_board;
use arbiter_duck::{Color, Game, Invalid, Move};
use arbiter_duck_protocol::Score;

use crate::engine::Engine;
use crate::search::{Limits, SearchResult, StopFlag};

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Controller {
    /// Moves typed at the terminal.
    Human,
    /// The engine.
    Engine,
}

/// How a game is played.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Who plays red (moves first).
    pub red: Controller,
    /// Who plays blue.
    pub blue: Controller,
    /// How long the engine thinks on each of its moves.
    pub limits: Limits,
    /// The game is a draw after this many plies without a captured captain.
    pub max_plies: u32,
    /// Where the game is saved in the official command format after each move, if anywhere.
    pub save: Option<PathBuf>,
    /// The name of the human's input in messages (`<stdin>`).
    pub input_name: String,
}

impl Setup {
    fn controller(&self, color: Color) -> Controller {
        match color {
            Color::Red => self.red,
            Color::Blue => self.blue,
        }
    }
}

/// Why a game at the terminal stopped short.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The human's moves could not be read.
    #[error("{name}: cannot read the moves: {error}")]
    Read {
        /// The input's name.
        name: String,
        /// Why.
        error: io::Error,
    },
    /// A line of the human's moves is not text, or too long to be a move.
    #[error("{name}:{line}:{column}: expected {expected}, found {found}")]
    Input {
        /// The input's name.
        name: String,
        /// The line, from 1.
        line: usize,
        /// The column, in bytes from 1.
        column: usize,
        /// What was expected there.
        expected: &'static str,
        /// What came instead.
        found: String,
    },
    /// The game could not be saved.
    #[error("{}: cannot save the game: {error}", path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The engine chose a move the rules refuse.
    #[error("the engine chose an invalid move {mv}: {invalid}")]
    InvalidMove {
        /// The move.
        mv: Move,
        /// Why it is invalid.
        invalid: Invalid,
    },
    /// The output could not be written.
    #[error(transparent)]
    Write(#[from] io::Error),
}

/// Plays a game from the start: the board after each move, moves read from `input` (a human's)
/// or searched by `engine`, each with the official verdict line, all written to `out`.
pub fn play(
    engine: &mut Engine,
    setup: &Setup,
    mut input: impl BufRead,
    mut out: impl Write,
) -> Result<(), PlayError> {
    let mut game = Game::new();
    let mut line_number = 0;
    let mut board = Vec::new();
    save(setup, &game)?;
    loop {
        board.clear();
        render_board(&mut board, game.board(), false);
        out.write_all(&board)?;
        let position = game.position();
        if let Some(outcome) = position.outcome_after(game.history().len(), setup.max_plies) {
            writeln!(out, "{outcome}")?;
            break;
        }
        let turn = game.turn();
        let mv = match setup.controller(turn) {
            Controller::Engine => {
                engine.set_position(position.clone());
                let result = engine.go(&setup.limits, &StopFlag::new(), |_| {});
                let Some(mv) = result.best else { break };
                announce(&mut out, turn, mv, &result)?;
                mv
            }
            Controller::Human => {
                match ask(&mut input, &mut out, &mut line_number, &mut game, setup)? {
                    Some(mv) => mv,
                    None => break,
                }
            }
        };
        let played =
            game.play(mv.from, mv.to).map_err(|invalid| PlayError::InvalidMove { mv, invalid })?;
        writeln!(out, "{played}")?;
        out.flush()?;
        save(setup, &game)?;
    }
    out.flush()?;
    Ok(())
}

/// Prints the engine's move with its score.
fn announce(out: &mut impl Write, turn: Color, mv: Move, result: &SearchResult) -> io::Result<()> {
    writeln!(
        out,
        "{turn} plays {mv} ({}), score {}, depth {}",
        mv.uci(),
        Score::from(result.score),
        result.depth
    )
}

/// Asks the human to move until a valid move comes; `None` at the end of the input or on
/// `quit`. `undo` takes back moves until it is a human's turn again.
fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    line_number: &mut usize,
    game: &mut Game,
    setup: &Setup,
) -> Result<Option<Move>, PlayError> {
    let name = &setup.input_name;
    loop {
        write!(out, "{} to move (x1 y1 x2 y2 or e1e2; undo, quit): ", game.turn())?;
        out.flush()?;
        let mut bytes = Vec::new();
        let read = read_line(input, &mut bytes)
            .map_err(|error| PlayError::Read { name: name.clone(), error })?;
        if read == LineRead::End {
            writeln!(out)?;
            return Ok(None);
        }
        *line_number += 1;
        let input_error = |column: usize, expected: &'static str, found: String| PlayError::Input {
            name: name.clone(),
            line: *line_number,
            column,
            expected,
            found,
        };
        if read == LineRead::TooLong {
            return Err(input_error(MAX_LINE + 1, LONG_LINE, "a longer line".to_owned()));
        }
        let line = std::str::from_utf8(&bytes).map_err(|error| {
            let byte = bytes[error.valid_up_to()];
            input_error(error.valid_up_to() + 1, "text in UTF-8", format!("the byte 0x{byte:02X}"))
        })?;
        let entry = line.trim();
        match entry {
            "" => continue,
            "quit" => return Ok(None),
            "undo" => {
                let mut undone = game.undo().is_some();
                while undone && setup.controller(game.turn()) == Controller::Engine {
                    undone = game.undo().is_some();
                }
                if !undone {
                    writeln!(out, "# nothing to take back")?;
                }
                save(setup, game)?;
                let mut board = Vec::new();
                render_board(&mut board, game.board(), false);
                out.write_all(&board)?;
                continue;
            }
            _ => {}
        }
        let column = line.len() - line.trim_start().len() + 1;
        match entry.parse::<Move>() {
            Err(error) => writeln!(
                out,
                "# {name}:{line_number}:{}: expected {}, found {}",
                column + error.index,
                error.expected,
                error.found
            )?,
            Ok(mv) => match game.validate(mv.from, mv.to) {
                Ok(_) => return Ok(Some(mv)),
                Err(invalid) => {
                    writeln!(out, "# {name}:{line_number}:{column}: {entry}: {invalid}")?
                }
            },
        }
    }
}

/// The longest line of the human's moves, in bytes (without its newline): far more than any
/// entry, and little enough that an endless line (`/dev/zero`) costs no memory to speak of.
pub const MAX_LINE: usize = 65_536;

/// What is expected where a line runs past [`MAX_LINE`].
const LONG_LINE: &str = "a move (at most 65536 bytes a line)";

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineRead {
    /// The end of the input: no more lines.
    End,
    /// A line, now in the buffer without its newline.
    Line,
    /// A line longer than [`MAX_LINE`] bytes; the buffer holds its start.
    TooLong,
}

/// Reads the next line of `input` into `line` (cleared first, without the newline), holding no
/// more than [`MAX_LINE`] bytes of it: the input is read a buffer at a time, never a whole line.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<LineRead> {
    line.clear();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(if line.is_empty() { LineRead::End } else { LineRead::Line });
        }
        let newline = available.iter().position(|&byte| byte == b'\n');
        let content = &available[..newline.unwrap_or(available.len())];
        if line.len() + content.len() > MAX_LINE {
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(content);
        let used = newline.map_or(available.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(LineRead::Line);
        }
    }
}

/// Writes the game so far to the setup's save file, if any.
fn save(setup: &Setup, game: &Game) -> Result<(), PlayError> {
    let Some(path) = &setup.save else { return Ok(()) };
    let mut text = format!("{}\n", game.history().len());
    for mv in game.history() {
        let _ = writeln!(text, "{mv}");
    }
    fs::write(path, text).map_err(|error| PlayError::Save { path: path.clone(), error })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human_against_engine() -> Setup {
        Setup {
            red: Controller::Human,
            blue: Controller::Engine,
            limits: Limits::depth(1),
            max_plies: 300,
            save: None,
            input_name: "<stdin>".to_owned(),
        }
    }

    fn play_on(input: &[u8]) -> Result<String, PlayError> {
        let mut out = Vec::new();
        play(&mut Engine::new(1), &human_against_engine(), input, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn lines_are_read_up_to_the_limit_and_no_further() {
        let mut line = Vec::new();
        let exact = [vec![b'a'; MAX_LINE], b"\nb".to_vec()].concat();
        let mut input = &exact[..];
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::Line);
        assert_eq!(line.len(), MAX_LINE);
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::Line);
        assert_eq!(line, b"b");
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::End);
        let long = vec![0; MAX_LINE + 1];
        let mut input = io::BufReader::with_capacity(100, &long[..]);
        assert_eq!(read_line(&mut input, &mut line).unwrap(), LineRead::TooLong);
        assert!(line.len() <= MAX_LINE);
    }

    #[test]
    fn a_line_too_long_is_an_error_at_its_place() {
        let input = [b"\n".to_vec(), vec![0; 1 << 20]].concat();
        let error = play_on(&input).unwrap_err();
        assert_eq!(
            error.to_string(),
            "<stdin>:2:65537: expected a move (at most 65536 bytes a line), found a longer line"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_an_error_at_their_place() {
        let error = play_on(b"zz\n  e4\xFCe5\n").unwrap_err();
        assert_eq!(error.to_string(), "<stdin>:2:5: expected text in UTF-8, found the byte 0xFC");
        // A move without a newline at the end of the input still counts.
        assert!(play_on(b"e4e5").unwrap().contains("blue plays "));
    }
}
