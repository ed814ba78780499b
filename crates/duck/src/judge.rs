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
//! // The same from any reader, read in bounded chunks as the commands are judged.
//! let mut out = Vec::new();
//! judge::run_reader(input.as_bytes(), &mut out).unwrap();
//! assert_eq!(out, b"red guard;NA;no;no\nInvalid command\n");
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
//! read as a stream, and a reader is read in bounded chunks ([`arbiter_scan::Stream`]).
//!
//! [`judge`] hands each command's [`Ruling`] to a [`Listener`], which writes what it wants: the
//! official line ([`Official`]), an explanation, a board, JSON. Before reading input that may not
//! have arrived yet, the judge asks the listener to flush, so that a program fed through a pipe
//! sees the answer to each command before it sends the next.

use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;

use arbiter_scan::{Place, ScanError, Scanner, Source, Stream, Text};

use crate::output::INVALID;
use crate::{Game, Invalid, Played, draw};

/// One command as read: the source and destination coordinates `(x, y)`, possibly off the board.
///
/// Every reader of command text goes through [`Command::read`]: the judge's input, and one
/// command alone ([`FromStr`]: the web app's and the live games' commands), so that a text is a
/// command, and the same command, wherever it is read.
///
/// ```
/// use arbiter_duck::judge::Command;
///
/// let command: Command = " 0 3\t1 4 ".parse().unwrap();
/// assert_eq!((command.from, command.to), ((0, 3), (1, 4)));
/// assert_eq!(command.to_string(), "0 3 1 4");
/// // Any integer is read, as the judge reads it: off the board, the command is invalid.
/// let huge: Command = "99999999999999999999 -1 0 0".parse().unwrap();
/// assert_eq!(huge.from, (i64::MAX, -1));
/// let error = "0 3 x 4".parse::<Command>().unwrap_err();
/// assert_eq!(error.to_string(), "1:5: expected the destination row x2 (an integer), found `x`");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Command {
    /// Row and column of the piece to move.
    pub from: (i64, i64),
    /// Row and column to move it to.
    pub to: (i64, i64),
}

impl Command {
    /// Reads a command's four integers with `scanner`. Integers beyond `i64` saturate (a
    /// coordinate that far off the board is off it all the same). On a token that is not an
    /// integer, or the end of the input, the answer is which of the four was missing (0 for
    /// `x1`), the scanner left before that token.
    #[inline]
    pub fn read<S: Source>(scanner: &mut Scanner<'_, S>) -> Result<Command, usize> {
        let mut values = [0; 4];
        for (k, value) in values.iter_mut().enumerate() {
            *value = scanner.try_int().ok_or(k)?;
        }
        Ok(Command { from: (values[0], values[1]), to: (values[2], values[3]) })
    }
}

impl FromStr for Command {
    type Err = ScanError;

    /// One command alone, `x1 y1 x2 y2`: four integers separated by whitespace, which may also
    /// stand around them, and nothing else.
    fn from_str(text: &str) -> Result<Command, ScanError> {
        let mut scanner = Scanner::new(text);
        let command = Command::read(&mut scanner)
            .map_err(|k| scanner.error_here(format!("{} (an integer)", COORDINATES[k])))?;
        if !scanner.at_end() {
            return Err(scanner.error_here("the end of the command"));
        }
        Ok(command)
    }
}

impl fmt::Display for Command {
    /// The official form, `x1 y1 x2 y2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Command { from: (x1, y1), to: (x2, y2) } = self;
        write!(f, "{x1} {y1} {x2} {y2}")
    }
}

/// The commands of an input, read one by one after the count.
#[derive(Debug)]
pub struct Commands<'a, S = Text<'a>> {
    scanner: Scanner<'a, S>,
    announced: u64,
    read: u64,
    failed: bool,
    /// Offset of the first token of the last command read.
    start: usize,
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
        Commands::read_count(Scanner::new(text))
    }
}

impl<R: Read> Commands<'static, Stream<R>> {
    /// Reads the count `Q` at the start of `reader`; the commands are read as they are asked for.
    pub fn from_reader(reader: R) -> Result<Commands<'static, Stream<R>>, ScanError> {
        Commands::read_count(Scanner::from_reader(reader))
    }
}

impl<'a, S: Source> Commands<'a, S> {
    /// Reads the count `Q` with `scanner`.
    pub fn read_count(mut scanner: Scanner<'a, S>) -> Result<Commands<'a, S>, ScanError> {
        let announced =
            scanner.int_in(0, i64::MAX, "the number of commands Q (a non-negative integer)")?;
        Ok(Commands { scanner, announced: announced as u64, read: 0, failed: false, start: 0 })
    }

    /// The count `Q` the input announces.
    pub fn announced(&self) -> u64 {
        self.announced
    }

    /// Where content after the last announced command starts, if there is any. Meaningful once
    /// every command has been read; reads on to the first token or the end of the input.
    pub fn trailing(&mut self) -> Option<Place> {
        if self.scanner.at_end() { None } else { Some(self.scanner.place()) }
    }

    /// Where the last command read starts: the place of its first token.
    pub fn place(&self) -> Place {
        self.scanner.place_of(self.start)
    }

    /// Whether every announced command has been read (or reading stopped at an error).
    fn done(&self) -> bool {
        self.failed || self.read == self.announced
    }

    /// The next command if it is already read from the source and made of one-digit numbers,
    /// as almost every command is.
    #[inline]
    fn next_buffered(&mut self) -> Option<Command> {
        let start = self.scanner.skip_space_buffered();
        let [x1, y1, x2, y2] = self.scanner.digits::<4>()?.map(i64::from);
        self.start = start;
        self.read += 1;
        Some(Command { from: (x1, y1), to: (x2, y2) })
    }

    /// Whether reading the next command might wait for input.
    fn may_wait(&self) -> bool {
        !self.scanner.holds_tokens(4)
    }

    /// The next command, read in full however it is written.
    #[cold]
    fn next_slow(&mut self) -> Result<Command, ScanError> {
        self.read += 1;
        self.start = self.scanner.mark();
        Command::read(&mut self.scanner).map_err(|k| {
            self.failed = true;
            let (name, command) = (COORDINATES[k], self.read);
            self.scanner.error_here(format!("{name} of command {command} (an integer)"))
        })
    }
}

impl<S: Source> Iterator for Commands<'_, S> {
    type Item = Result<Command, ScanError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done() {
            return None;
        }
        Some(self.next_buffered().map_or_else(|| self.next_slow(), Ok))
    }
}

/// What a complete run read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Number of commands judged.
    pub commands: u64,
    /// Where ignored content after the last command starts, if any.
    pub trailing: Option<Place>,
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

/// One command as judged, handed to a [`Listener`].
pub struct Ruling<'r> {
    /// Its number, from 1.
    pub number: u64,
    /// The command as read.
    pub command: Command,
    /// The move it made, or why it is invalid.
    pub outcome: Result<Played, Invalid>,
    /// The game after the command.
    pub game: &'r Game,
    commands: &'r dyn Placed,
}

/// Finds where the command being judged starts, without knowing the input's source type.
trait Placed {
    fn place(&self) -> Place;
}

impl<S: Source> Placed for Commands<'_, S> {
    fn place(&self) -> Place {
        Commands::place(self)
    }
}

impl Ruling<'_> {
    /// Where the command starts in the input: the place of its first token. Counted only when
    /// asked for.
    pub fn place(&self) -> Place {
        self.commands.place()
    }

    /// The ruling as plain data (e.g. for JSON).
    pub fn report(&self) -> Report {
        let (valid, piece, captured, check, over, reason) = match &self.outcome {
            Ok(played) => (
                true,
                Some(played.piece.name()),
                played.captured.map(|p| p.name()),
                played.check,
                played.game_over,
                None,
            ),
            Err(invalid) => {
                (false, None, None, false, self.game.winner().is_some(), Some(invalid.to_string()))
            }
        };
        let Command { from: (x1, y1), to: (x2, y2) } = self.command;
        Report {
            command: self.number,
            from: [x1, y1],
            to: [x2, y2],
            valid,
            piece,
            captured,
            check,
            over,
            reason,
        }
    }
}

/// A ruling as plain data: one object per command in `arbiter duck --json`, e.g.
/// `{"command":1,"from":[0,3],"to":[1,4],"valid":true,"piece":"red guard","captured":null,
/// "check":false,"over":false}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The command's number, from 1.
    pub command: u64,
    /// Source row and column as given (possibly off the board).
    pub from: [i64; 2],
    /// Destination row and column as given.
    pub to: [i64; 2],
    /// Whether the command was a valid move.
    pub valid: bool,
    /// The piece that moved, e.g. `red guard`.
    pub piece: Option<&'static str>,
    /// The piece captured, if any.
    pub captured: Option<&'static str>,
    /// Whether a check position arises (the official `yes`/`no`).
    pub check: bool,
    /// Whether the game is over after the command.
    pub over: bool,
    /// Why the command is invalid.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reason: Option<String>,
}

/// What is done with each ruling.
pub trait Listener {
    /// Takes the ruling of one command.
    fn ruling(&mut self, ruling: &Ruling<'_>) -> io::Result<()>;

    /// Takes the outcome of one command, if that is all this listener needs of it; `Ok(false)`
    /// asks for the whole [`Ruling`] instead. The judge's loop then builds no ruling for a
    /// listener that writes the official lines alone.
    #[inline]
    fn outcome(&mut self, outcome: &Result<Played, Invalid>) -> io::Result<bool> {
        let _ = outcome;
        Ok(false)
    }

    /// Writes out everything held back: the judge has finished (or stopped at an error).
    fn flush(&mut self) -> io::Result<()>;

    /// The judge is about to read input that may not have arrived yet: what was held back
    /// should be written out now, so that whoever sends the input sees every answer so far.
    fn waiting(&mut self) -> io::Result<()> {
        self.flush()
    }
}

/// Output is built in a buffer of about this size and handed to the sink when it fills.
pub const CHUNK: usize = 1 << 18;

/// The room a chunk's buffer needs: a chunk is handed over once it holds [`CHUNK`] bytes, so
/// it holds at most that plus one line less a byte.
pub const CHUNK_CAPACITY: usize = CHUNK + 256;

/// Where the official output goes: any writer, or something that takes whole chunks.
pub trait Sink {
    /// Takes the bytes of `chunk`, leaving it empty. A sink that keeps the buffer itself may
    /// leave another in its place, with room for [`CHUNK_CAPACITY`] bytes.
    fn take(&mut self, chunk: &mut Vec<u8>) -> io::Result<()>;

    /// Sends on what was taken (a writer's `flush`).
    fn deliver(&mut self) -> io::Result<()>;
}

impl<W: Write + ?Sized> Sink for W {
    fn take(&mut self, chunk: &mut Vec<u8>) -> io::Result<()> {
        self.write_all(chunk)?;
        chunk.clear();
        Ok(())
    }

    fn deliver(&mut self) -> io::Result<()> {
        self.flush()
    }
}

/// The official output: one line per command, handed to `W` in large chunks.
#[derive(Debug)]
pub struct Official<W> {
    out: W,
    buf: Vec<u8>,
}

impl<W: Sink> Official<W> {
    /// The official output, handed to `out`.
    pub fn new(out: W) -> Official<W> {
        Official { out, buf: Vec::with_capacity(CHUNK_CAPACITY) }
    }

    /// The lines not yet handed over, to which more may be appended.
    pub fn pending(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Hands the pending lines over once they fill a chunk.
    #[inline]
    pub fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Hands every pending line over (without flushing the sink).
    pub fn hand_over(&mut self) -> io::Result<()> {
        self.out.take(&mut self.buf)
    }

    /// The sink.
    pub fn writer(&mut self) -> &mut W {
        &mut self.out
    }
}

impl<W: Sink> Listener for Official<W> {
    fn ruling(&mut self, ruling: &Ruling<'_>) -> io::Result<()> {
        self.outcome(&ruling.outcome).map(drop)
    }

    // In the judge's loop, where the outcome can stay in registers.
    #[inline(always)]
    fn outcome(&mut self, outcome: &Result<Played, Invalid>) -> io::Result<bool> {
        match outcome {
            Ok(played) => played.write_line(&mut self.buf),
            Err(_) => self.buf.extend_from_slice(INVALID),
        }
        self.spill()?;
        Ok(true)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.hand_over()?;
        self.out.deliver()
    }
}

/// Judges every command of `input` and writes the official output to `out`.
pub fn run(input: &str, out: &mut (impl Write + ?Sized)) -> Result<Summary, JudgeError> {
    judge(Commands::new(input)?, &mut Official::new(out))
}

/// Like [`run`], reading `input` in bounded chunks and writing each answer out before waiting
/// for more input.
pub fn run_reader(
    input: impl Read,
    out: &mut (impl Write + ?Sized),
) -> Result<Summary, JudgeError> {
    judge(Commands::from_reader(input)?, &mut Official::new(out))
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
/// after each valid move, all in one text (`arbiter duck explain` puts them on stderr instead).
pub fn explain(
    input: &str,
    out: &mut (impl Write + ?Sized),
    options: ExplainOptions,
) -> Result<Summary, JudgeError> {
    struct Annotated<W> {
        official: Official<W>,
        options: ExplainOptions,
    }
    impl<W: Sink> Listener for Annotated<W> {
        fn ruling(&mut self, ruling: &Ruling<'_>) -> io::Result<()> {
            self.official.ruling(ruling)?;
            let buf = self.official.pending();
            match &ruling.outcome {
                Err(invalid) => {
                    buf.extend_from_slice(b"# ");
                    buf.extend_from_slice(invalid.to_string().as_bytes());
                    buf.push(b'\n');
                }
                Ok(_) if self.options.board => {
                    draw::render_board(buf, ruling.game.board(), self.options.ansi);
                }
                Ok(_) => {}
            }
            Ok(())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.official.flush()
        }
    }
    judge(Commands::new(input)?, &mut Annotated { official: Official::new(out), options })
}

/// Judges every command, handing each ruling to `listener`; tells it before any read that may
/// wait for input, and flushes it at the end, error or not.
pub fn judge<S: Source>(
    mut commands: Commands<'_, S>,
    listener: &mut impl Listener,
) -> Result<Summary, JudgeError> {
    let mut game = Game::new().without_history();
    let result = loop {
        // Not `done()`: the loop stops at the first error, so reading has not failed here.
        if commands.read == commands.announced {
            break Ok(());
        }
        let command = match commands.next_buffered() {
            Some(command) => command,
            None => {
                if commands.may_wait() {
                    listener.waiting()?;
                }
                match commands.next_slow() {
                    Ok(command) => command,
                    Err(error) => break Err(error),
                }
            }
        };
        let outcome = game.play_coords(command.from, command.to);
        if !listener.outcome(&outcome)? {
            let ruling = Ruling {
                number: commands.read,
                command,
                outcome,
                game: &game,
                commands: &commands,
            };
            listener.ruling(&ruling)?;
        }
    };
    listener.flush()?;
    result?;
    Ok(Summary { commands: commands.read, trailing: commands.trailing() })
}
