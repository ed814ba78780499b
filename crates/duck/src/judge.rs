//! The official text format: a count `Q`, then `Q` commands `x1 y1 x2 y2`; one line out per command.
//!
//! ```
//! use arbiter_duck::judge::{self, Commands};
//!
//! let input = "2\n0 3 1 4\n-1 0 99 99\n";
//! let mut out = Vec::new();
//! let summary = judge::run(input, &mut out).unwrap();
//! assert_eq!(out, b"red guard;NA;no;no\nInvalid command\n");
//! assert_eq!(summary.commands, 2);
//!
//! let commands: Vec<_> = Commands::new(input).unwrap().collect::<Result<_, _>>().unwrap();
//! assert_eq!(commands[1].from, (-1, 0));
//! ```
//!
//! Input handling follows the official judges: any whitespace separates numbers, integer
//! coordinates off the board make an ordinary `Invalid command`, and content after the last
//! announced command is ignored (reported in [`Summary::trailing`]). A token that is not an
//! integer, or an input that ends before `Q` commands, is a [`ScanError`]; the lines of the
//! complete commands before it have been written by then. A huge `Q` costs nothing: commands are
//! read as a stream.

use std::io::{self, Write};

use arbiter_scan::{Position, ScanError, Scanner};

use crate::{Board, Color, Game, Invalid, Square};

/// One command as read: the source and destination coordinates `(x, y)`, possibly off the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Command {
    /// Row and column of the piece to move.
    pub from: (i64, i64),
    /// Row and column to move it to.
    pub to: (i64, i64),
}

/// The commands of an input, read one by one after the count.
#[derive(Debug, Clone)]
pub struct Commands<'a> {
    scanner: Scanner<'a>,
    announced: u64,
    read: u64,
    failed: bool,
}

const COORDINATES: [&str; 4] = [
    "the source row x1",
    "the source column y1",
    "the destination row x2",
    "the destination column y2",
];

impl<'a> Commands<'a> {
    /// Reads the count `Q` at the start of `text`.
    pub fn new(text: &'a str) -> Result<Commands<'a>, ScanError> {
        let mut scanner = Scanner::new(text);
        let announced =
            scanner.int_in(0, i64::MAX, "the number of commands Q (a non-negative integer)")?;
        Ok(Commands { scanner, announced: announced as u64, read: 0, failed: false })
    }

    /// The count `Q` the input announces.
    pub fn announced(&self) -> u64 {
        self.announced
    }

    /// Where content after the last announced command starts, if there is any. Meaningful once
    /// every command has been read.
    pub fn trailing(&mut self) -> Option<Position> {
        if self.scanner.at_end() { None } else { Some(self.scanner.position()) }
    }

    #[inline]
    fn read_command(&mut self) -> Result<Command, ScanError> {
        if let Some([x1, y1, x2, y2]) = self.scanner.digits::<4>() {
            let [x1, y1, x2, y2] = [x1, y1, x2, y2].map(i64::from);
            return Ok(Command { from: (x1, y1), to: (x2, y2) });
        }
        let mut values = [0; 4];
        for (value, name) in values.iter_mut().zip(COORDINATES) {
            *value = match self.scanner.try_int() {
                Some(value) => value,
                None => {
                    let command = self.read + 1;
                    return Err(self
                        .scanner
                        .error_here(format!("{name} of command {command} (an integer)")));
                }
            };
        }
        Ok(Command { from: (values[0], values[1]), to: (values[2], values[3]) })
    }
}

impl Iterator for Commands<'_> {
    type Item = Result<Command, ScanError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.read == self.announced {
            return None;
        }
        let command = self.read_command();
        self.failed = command.is_err();
        self.read += 1;
        Some(command)
    }
}

/// What a complete run read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Number of commands judged.
    pub commands: u64,
    /// Where ignored content after the last command starts, if any.
    pub trailing: Option<Position>,
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The input is malformed here.
    #[error(transparent)]
    Input(#[from] ScanError),
    /// The output could not be written.
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
}

/// Output is built in a buffer of about this size and handed to the writer when it fills.
const CHUNK: usize = 1 << 18;

const INVALID: &[u8] = b"Invalid command\n";

/// Judges every command of `input` and writes the official output to `out`.
pub fn run(input: &str, out: &mut (impl Write + ?Sized)) -> Result<Summary, JudgeError> {
    judge(input, out, |_, _, _, _| ())
}

/// How `explain` annotates the official output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExplainOptions {
    /// Print the board after each valid move.
    pub board: bool,
    /// Colour the board with ANSI escapes (red and blue pieces, for terminals).
    pub ansi: bool,
}

/// Like [`run`], with a `# reason` line after each `Invalid command` and, if asked, the board
/// after each valid move.
pub fn explain(
    input: &str,
    out: &mut (impl Write + ?Sized),
    options: ExplainOptions,
) -> Result<Summary, JudgeError> {
    judge(input, out, |buf, game, _, result| match result {
        Err(invalid) => {
            buf.extend_from_slice(b"# ");
            buf.extend_from_slice(invalid.to_string().as_bytes());
            buf.push(b'\n');
        }
        Ok(()) if options.board => render_board(buf, game.board(), options.ansi),
        Ok(()) => {}
    })
}

/// The judging loop; `annotate` may add lines after each command's official line.
#[inline]
fn judge(
    input: &str,
    out: &mut (impl Write + ?Sized),
    mut annotate: impl FnMut(&mut Vec<u8>, &Game, Command, Result<(), Invalid>),
) -> Result<Summary, JudgeError> {
    let mut commands = Commands::new(input)?;
    let mut game = Game::new().without_history();
    let mut buf = Vec::with_capacity(CHUNK + 256);
    let mut judged = 0;
    let result = loop {
        let command = match commands.next() {
            None => break Ok(()),
            Some(Err(error)) => break Err(error),
            Some(Ok(command)) => command,
        };
        judged += 1;
        match game.play_coords(command.from, command.to) {
            Ok(played) => {
                played.write_line(&mut buf);
                annotate(&mut buf, &game, command, Ok(()));
            }
            Err(invalid) => {
                buf.extend_from_slice(INVALID);
                annotate(&mut buf, &game, command, Err(invalid));
            }
        }
        if buf.len() >= CHUNK {
            out.write_all(&buf)?;
            buf.clear();
        }
    };
    out.write_all(&buf)?;
    result?;
    Ok(Summary { commands: judged, trailing: commands.trailing() })
}

/// Writes `board` as text, blue's side (row 9) on top, row and column numbers on the edges;
/// with `ansi`, red and blue pieces are coloured for terminals.
pub fn render_board(out: &mut Vec<u8>, board: &Board, ansi: bool) {
    let mut text = String::new();
    for row in (0..Square::ROWS).rev() {
        text.push(char::from(b'0' + row));
        text.push(' ');
        for sq in (0..Square::COLS).filter_map(|col| Square::new(row, col)) {
            match (board.piece_at(sq), ansi) {
                (None, _) => text.push('・'),
                (Some(piece), false) => text.push(piece.glyph()),
                (Some(piece), true) => {
                    text.push_str(match piece.color {
                        Color::Red => "\x1b[1;31m",
                        Color::Blue => "\x1b[1;34m",
                    });
                    text.push(piece.glyph());
                    text.push_str("\x1b[0m");
                }
            }
        }
        text.push('\n');
    }
    text.push_str("  ０１２３４５６７８\n");
    out.extend_from_slice(text.as_bytes());
}
