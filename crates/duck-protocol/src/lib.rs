//! The Universal Chess Interface for Duck Chess: what a GUI (or a match runner) sends to an
//! engine, [`GuiCommand`], and what an engine answers, [`EngineMessage`]. Each line is one value;
//! `FromStr` reads a line and `Display` writes it, so both ends of the protocol share one reading
//! and one spelling of every command.
//!
//! Moves are written in fairy-stockfish's square notation ([`UciMove`]: `e1e2`, `e10e9`), and
//! positions in its FEN for this game ([`Fen`]), so arbiter and fairy-stockfish understand each
//! other unchanged.
//!
//! ```
//! use arbiter_duck_protocol::{EngineMessage, Go, GuiCommand, Info, Score};
//!
//! let command: GuiCommand = "position startpos moves d1e2 e10e9".parse().unwrap();
//! assert_eq!(command.to_string(), "position startpos moves d1e2 e10e9");
//!
//! let go: GuiCommand = "go wtime 1000 btime 900 winc 10 binc 10".parse().unwrap();
//! let GuiCommand::Go(limits) = go else { unreachable!() };
//! assert_eq!(limits.btime, Some(900));
//!
//! // Engines add fields of their own (`tbhits`): a reader skips what it does not know.
//! let line = "info depth 7 seldepth 9 score cp -35 nodes 5120 tbhits 0 time 12 pv e1e2 e10e9";
//! let EngineMessage::Info(info) = line.parse().unwrap() else { unreachable!() };
//! assert_eq!(info.score, Some(Score::Centipawns(-35)));
//! assert_eq!(info.pv.len(), 2);
//!
//! let error = "go movetime soon".parse::<GuiCommand>().unwrap_err();
//! assert_eq!(error.to_string(), "column 13: expected the movetime in milliseconds, found `soon`");
//! ```
//!
//! Reading is strict for commands, which an engine must understand exactly or refuse with a
//! reason, and tolerant for engine messages, which come from engines arbiter does not control: an
//! `info` line keeps the fields it knows and skips the others, an `option` line keeps its name and
//! type whatever its details.

#![warn(missing_docs)]

use std::fmt;
use std::str::FromStr;

use arbiter_duck::{Fen, Move, UciMove};

/// A line a GUI sends to an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuiCommand {
    /// `uci`: identify yourself and list your options, then say `uciok`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok` once every earlier command is done.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option's name (it may contain spaces).
        name: String,
        /// Its new value; absent for a button.
        value: Option<String>,
    },
    /// `ucinewgame`: the next position belongs to another game.
    UciNewGame,
    /// `position startpos|fen FEN [moves M1 M2 ...]`.
    Position {
        /// The position the moves start from; `None` for `startpos`. (Boxed: a FEN holds a
        /// whole board, and the other commands are small.)
        fen: Option<Box<Fen>>,
        /// Moves played from there.
        moves: Vec<Move>,
    },
    /// `go ...`: start searching.
    Go(Go),
    /// `stop`: answer `bestmove` now.
    Stop,
    /// `ponderhit`: the move pondered on was played.
    PonderHit,
    /// `quit`.
    Quit,
}

/// The limits of a `go` command. Times are in milliseconds; a negative time, which some GUIs
/// send once a clock has run out, is read as 0.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// Red's remaining time (`wtime`: red plays fairy-stockfish's white).
    pub wtime: Option<u64>,
    /// Blue's remaining time (`btime`).
    pub btime: Option<u64>,
    /// Red's increment per move (`winc`).
    pub winc: Option<u64>,
    /// Blue's increment per move (`binc`).
    pub binc: Option<u64>,
    /// Moves until the next time control (`movestogo`).
    pub movestogo: Option<u32>,
    /// Search this many plies (`depth`).
    pub depth: Option<u32>,
    /// Search this many nodes (`nodes`).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (`mate`).
    pub mate: Option<u32>,
    /// Search exactly this long (`movetime`).
    pub movetime: Option<u64>,
    /// Search until `stop` (`infinite`).
    pub infinite: bool,
    /// Search in pondering mode (`ponder`).
    pub ponder: bool,
    /// Only consider these moves (`searchmoves`).
    pub searchmoves: Vec<Move>,
    /// Count the move sequences of this length instead of searching (`perft`).
    pub perft: Option<u32>,
}

/// A line an engine sends to its GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name NAME` or `id author AUTHOR`.
    Id {
        /// Which one.
        field: IdField,
        /// The rest of the line.
        value: String,
    },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `option name NAME type TYPE ...`.
    Option(OptionDecl),
    /// `info ...`.
    Info(Info),
    /// `bestmove MOVE [ponder [MOVE]]`; `bestmove (none)` when there is no move to play.
    BestMove {
        /// The move, or `None` for `(none)` (also read from `0000`).
        best: Option<Move>,
        /// The reply the engine expects.
        ponder: Option<Move>,
    },
    /// `MOVE: COUNT`, a line of the answer to `go perft` (as Stockfish and fairy-stockfish write
    /// it): the number of move sequences that start with MOVE.
    PerftMove {
        /// The first move.
        mv: Move,
        /// The sequences that start with it.
        nodes: u64,
    },
    /// `Nodes searched: N`, the last line of the answer to `go perft`: the total.
    NodesSearched(u64),
}

/// The two things an engine names in `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdField {
    /// `id name`.
    Name,
    /// `id author`.
    Author,
}

/// One option an engine offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name (it may contain spaces).
    pub name: String,
    /// Its type and values.
    pub kind: OptionKind,
}

/// The type of an option, with its default and range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default D min A max B`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo default D var V1 var V2 ...`.
    Combo {
        /// The default.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default D` (`<empty>` for the empty string).
    String {
        /// The default.
        default: String,
    },
}

/// The score of a position, from the point of view of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// `cp N`: hundredths of a soldier.
    Centipawns(i32),
    /// `mate N`: a captain is captured in N moves; negative when the side to move loses.
    Mate(i32),
}

/// Whether a score is exact or a bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The score is exact.
    #[default]
    Exact,
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// The fields of an `info` line; each is absent unless the line has it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the nominal depth searched, in plies.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv`: which of several principal variations this is, from 1.
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Bound,
    /// `nodes` searched.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: the transposition table's fill, in permille.
    pub hashfull: Option<u32>,
    /// `time` searched, in milliseconds.
    pub time: Option<u64>,
    /// `currmove`: the move being searched.
    pub currmove: Option<Move>,
    /// `currmovenumber`: its number in the move list, from 1.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal variation.
    pub pv: Vec<Move>,
    /// `string`: free text, the rest of the line.
    pub string: Option<String>,
}

/// A line that is not what the protocol allows: where it goes wrong, what was expected there and
/// what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: expected {expected}, found {found}")]
pub struct ParseError {
    /// 1-based column, in characters, of the token in question (one past the end when the line
    /// ends too soon).
    pub column: usize,
    /// What the protocol needs there.
    pub expected: String,
    /// What stands there, quoted, or `end of line`.
    pub found: String,
}

/// A line cut into whitespace-separated tokens, each with its byte offset.
struct Tokens<'a> {
    line: &'a str,
    tokens: Vec<(usize, &'a str)>,
    next: usize,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Tokens<'a> {
        let mut tokens = Vec::new();
        let mut start = None;
        for (i, c) in line.char_indices() {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    tokens.push((s, &line[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            tokens.push((s, &line[s..]));
        }
        Tokens { line, tokens, next: 0 }
    }

    fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.next).map(|&(_, token)| token)
    }

    fn next(&mut self) -> Option<&'a str> {
        let token = self.peek()?;
        self.next += 1;
        Some(token)
    }

    /// Byte offset of the next token, or the line's length at its end.
    fn offset(&self) -> usize {
        self.tokens.get(self.next).map_or(self.line.len(), |&(offset, _)| offset)
    }

    /// The text from the next token to the end of the line, trimmed, and consumes it all.
    fn rest(&mut self) -> &'a str {
        let rest = self.line[self.offset()..].trim();
        self.next = self.tokens.len();
        rest
    }

    /// The text of the next tokens up to (not including) the first token in `stop`, as written,
    /// and consumes them.
    fn until(&mut self, stop: &[&str]) -> &'a str {
        let start = self.offset();
        let mut end = start;
        while let Some(&(offset, token)) = self.tokens.get(self.next) {
            if stop.contains(&token) {
                break;
            }
            end = offset + token.len();
            self.next += 1;
        }
        &self.line[start..end]
    }

    /// An error at the next token.
    fn error(&self, expected: impl Into<String>) -> ParseError {
        self.error_at(self.offset(), expected)
    }

    /// An error at the token just read.
    fn error_back(&self, expected: impl Into<String>) -> ParseError {
        let offset = self.tokens.get(self.next.wrapping_sub(1)).map_or(0, |&(offset, _)| offset);
        self.error_at(offset, expected)
    }

    fn error_at(&self, offset: usize, expected: impl Into<String>) -> ParseError {
        let found = match self.tokens.iter().find(|&&(o, _)| o == offset) {
            Some(&(_, token)) => format!("`{}`", shorten(token)),
            None => "end of line".to_owned(),
        };
        ParseError {
            column: self.line[..offset].chars().count() + 1,
            expected: expected.into(),
            found,
        }
    }

    fn end(&self, what: &str) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error(format!("the end of the line after {what}"))),
        }
    }

    /// The next token as a number of type `T`.
    fn number<T: FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        match self.next().map(str::parse) {
            Some(Ok(value)) => Ok(value),
            Some(Err(_)) => Err(self.error_back(what)),
            None => Err(self.error(what)),
        }
    }

    /// The next token as milliseconds; a negative count is 0.
    fn millis(&mut self, what: &str) -> Result<u64, ParseError> {
        let value: i64 = self.number(what)?;
        Ok(value.max(0).unsigned_abs())
    }

    /// The next token as a move in square notation.
    fn mv(&mut self) -> Result<Move, ParseError> {
        match self.next().map(str::parse::<UciMove>) {
            Some(Ok(mv)) => Ok(mv.0),
            Some(Err(error)) => Err(self.error_back(format!("a move such as e1e2 ({error})"))),
            None => Err(self.error("a move such as e1e2")),
        }
    }
}

/// A token cut to a length a message can show.
fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    match token.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &token[..cut]),
        None => token.to_owned(),
    }
}

const COMMANDS: &str = "a UCI command (uci, debug, isready, setoption, ucinewgame, position, go, \
                        stop, ponderhit or quit)";

impl FromStr for GuiCommand {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<GuiCommand, ParseError> {
        let mut tokens = Tokens::new(line);
        let command = match tokens.next() {
            Some("uci") => GuiCommand::Uci,
            Some("isready") => GuiCommand::IsReady,
            Some("ucinewgame") => GuiCommand::UciNewGame,
            Some("stop") => GuiCommand::Stop,
            Some("ponderhit") => GuiCommand::PonderHit,
            Some("quit") => GuiCommand::Quit,
            Some("debug") => match tokens.next() {
                Some("on") => GuiCommand::Debug(true),
                Some("off") => GuiCommand::Debug(false),
                Some(_) => return Err(tokens.error_back("`on` or `off`")),
                None => return Err(tokens.error("`on` or `off`")),
            },
            Some("setoption") => parse_setoption(&mut tokens)?,
            Some("position") => parse_position(&mut tokens)?,
            Some("go") => GuiCommand::Go(parse_go(&mut tokens)?),
            Some(_) => return Err(tokens.error_back(COMMANDS)),
            None => return Err(tokens.error(COMMANDS)),
        };
        tokens.end("the command")?;
        Ok(command)
    }
}

fn parse_setoption(tokens: &mut Tokens<'_>) -> Result<GuiCommand, ParseError> {
    if tokens.next() != Some("name") {
        return Err(tokens.error_back("`name`"));
    }
    let name = tokens.until(&["value"]);
    if name.is_empty() {
        return Err(tokens.error("the option's name"));
    }
    let value = tokens.next().map(|_| tokens.rest().to_owned());
    Ok(GuiCommand::SetOption { name: name.to_owned(), value })
}

fn parse_position(tokens: &mut Tokens<'_>) -> Result<GuiCommand, ParseError> {
    let fen = match tokens.next() {
        Some("startpos") => None,
        Some("fen") => {
            let start = tokens.offset();
            let text = tokens.until(&["moves"]);
            match text.parse::<Fen>() {
                Ok(fen) => Some(Box::new(fen)),
                Err(error) => {
                    let column = tokens.line[..start].chars().count() + 1 + error.index;
                    return Err(ParseError {
                        column,
                        expected: format!("a FEN: {}", error.expected),
                        found: error.found.to_string(),
                    });
                }
            }
        }
        Some(_) => return Err(tokens.error_back("`startpos` or `fen`")),
        None => return Err(tokens.error("`startpos` or `fen`")),
    };
    let mut moves = Vec::new();
    match tokens.next() {
        None => {}
        Some("moves") => {
            while tokens.peek().is_some() {
                moves.push(tokens.mv()?);
            }
        }
        Some(_) => return Err(tokens.error_back("`moves` or the end of the line")),
    }
    Ok(GuiCommand::Position { fen, moves })
}

/// The keywords of `go`, which end a `searchmoves` list.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(tokens: &mut Tokens<'_>) -> Result<Go, ParseError> {
    let mut go = Go::default();
    while let Some(keyword) = tokens.next() {
        match keyword {
            "wtime" => go.wtime = Some(tokens.millis("red's time wtime in milliseconds")?),
            "btime" => go.btime = Some(tokens.millis("blue's time btime in milliseconds")?),
            "winc" => go.winc = Some(tokens.millis("red's increment winc in milliseconds")?),
            "binc" => go.binc = Some(tokens.millis("blue's increment binc in milliseconds")?),
            "movestogo" => go.movestogo = Some(tokens.number("the number of moves movestogo")?),
            "depth" => go.depth = Some(tokens.number("the depth in plies")?),
            "nodes" => go.nodes = Some(tokens.number("the number of nodes")?),
            "mate" => go.mate = Some(tokens.number("the number of moves to mate")?),
            "movetime" => go.movetime = Some(tokens.millis("the movetime in milliseconds")?),
            "perft" => go.perft = Some(tokens.number("the perft depth in plies")?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while tokens.peek().is_some_and(|token| !GO_KEYWORDS.contains(&token)) {
                    go.searchmoves.push(tokens.mv()?);
                }
            }
            _ => {
                return Err(
                    tokens.error_back(format!("a limit of go ({})", GO_KEYWORDS.join(", ")))
                );
            }
        }
    }
    Ok(go)
}

impl fmt::Display for GuiCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiCommand::Uci => f.write_str("uci"),
            GuiCommand::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            GuiCommand::IsReady => f.write_str("isready"),
            GuiCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            GuiCommand::UciNewGame => f.write_str("ucinewgame"),
            GuiCommand::Position { fen, moves } => {
                match fen {
                    None => f.write_str("position startpos")?,
                    Some(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for &mv in moves {
                        write!(f, " {}", UciMove(mv))?;
                    }
                }
                Ok(())
            }
            GuiCommand::Go(go) => write!(f, "{go}"),
            GuiCommand::Stop => f.write_str("stop"),
            GuiCommand::PonderHit => f.write_str("ponderhit"),
            GuiCommand::Quit => f.write_str("quit"),
        }
    }
}

impl fmt::Display for Go {
    /// `go` and its limits, in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let numbers = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime),
            ("perft", self.perft.map(u64::from)),
        ];
        for (keyword, value) in numbers {
            if let Some(value) = value {
                write!(f, " {keyword} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for &mv in &self.searchmoves {
                write!(f, " {}", UciMove(mv))?;
            }
        }
        Ok(())
    }
}

const MESSAGES: &str =
    "an engine message (id, uciok, readyok, option, info, bestmove or a line of perft)";

impl FromStr for EngineMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<EngineMessage, ParseError> {
        let mut tokens = Tokens::new(line);
        let message = match tokens.next() {
            Some("uciok") => EngineMessage::UciOk,
            Some("readyok") => EngineMessage::ReadyOk,
            Some("id") => {
                let field = match tokens.next() {
                    Some("name") => IdField::Name,
                    Some("author") => IdField::Author,
                    Some(_) => return Err(tokens.error_back("`name` or `author`")),
                    None => return Err(tokens.error("`name` or `author`")),
                };
                EngineMessage::Id { field, value: tokens.rest().to_owned() }
            }
            Some("bestmove") => {
                let best = match tokens.peek() {
                    Some("(none)" | "0000") => {
                        tokens.next();
                        None
                    }
                    _ => Some(tokens.mv()?),
                };
                let ponder = match tokens.next() {
                    // Some engines write `ponder` with no move when they have none to suggest.
                    Some("ponder") if tokens.peek().is_none() => None,
                    Some("ponder") => Some(tokens.mv()?),
                    Some(_) => return Err(tokens.error_back("`ponder` or the end of the line")),
                    None => None,
                };
                EngineMessage::BestMove { best, ponder }
            }
            Some("info") => EngineMessage::Info(parse_info(&mut tokens)?),
            Some("option") => EngineMessage::Option(parse_option(&mut tokens)?),
            Some("Nodes") => {
                if tokens.next() != Some("searched:") {
                    return Err(tokens.error_back("`searched:`"));
                }
                EngineMessage::NodesSearched(tokens.number("the number of nodes")?)
            }
            Some(token)
                if token.ends_with(':') && token[..token.len() - 1].parse::<UciMove>().is_ok() =>
            {
                let mv = token[..token.len() - 1]
                    .parse::<UciMove>()
                    .map_err(|_| tokens.error_back(MESSAGES))?;
                EngineMessage::PerftMove {
                    mv: mv.0,
                    nodes: tokens.number("the number of move sequences")?,
                }
            }
            Some(_) => return Err(tokens.error_back(MESSAGES)),
            None => return Err(tokens.error(MESSAGES)),
        };
        tokens.end("the message")?;
        Ok(message)
    }
}

/// The keywords of `info` this module reads; any other word is skipped with what follows it up
/// to the next of these.
const INFO_KEYWORDS: [&str; 13] = [
    "depth",
    "seldepth",
    "multipv",
    "score",
    "nodes",
    "nps",
    "hashfull",
    "time",
    "currmove",
    "currmovenumber",
    "pv",
    "string",
    "lowerbound",
];

fn parse_info(tokens: &mut Tokens<'_>) -> Result<Info, ParseError> {
    let mut info = Info::default();
    while let Some(keyword) = tokens.next() {
        match keyword {
            "depth" => info.depth = Some(tokens.number("the depth")?),
            "seldepth" => info.seldepth = Some(tokens.number("the selective depth")?),
            "multipv" => info.multipv = Some(tokens.number("the multipv number")?),
            "nodes" => info.nodes = Some(tokens.number("the number of nodes")?),
            "nps" => info.nps = Some(tokens.number("the nodes per second")?),
            "hashfull" => info.hashfull = Some(tokens.number("the hash fill in permille")?),
            "time" => info.time = Some(tokens.number("the time in milliseconds")?),
            "currmove" => info.currmove = Some(tokens.mv()?),
            "currmovenumber" => info.currmovenumber = Some(tokens.number("the move number")?),
            "score" => {
                info.score = Some(match tokens.next() {
                    Some("cp") => Score::Centipawns(tokens.number("a score in centipawns")?),
                    Some("mate") => Score::Mate(tokens.number("a number of moves to mate")?),
                    Some(_) => return Err(tokens.error_back("`cp` or `mate`")),
                    None => return Err(tokens.error("`cp` or `mate`")),
                });
            }
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            "pv" => {
                while tokens.peek().is_some_and(|token| token.parse::<UciMove>().is_ok()) {
                    info.pv.push(tokens.mv()?);
                }
            }
            "string" => info.string = Some(tokens.rest().to_owned()),
            _ => {
                // A field of another engine (`tbhits`, `cpuload`, `refutation`, ...).
                while tokens
                    .peek()
                    .is_some_and(|token| !INFO_KEYWORDS.contains(&token) && token != "upperbound")
                {
                    tokens.next();
                }
            }
        }
    }
    Ok(info)
}

fn parse_option(tokens: &mut Tokens<'_>) -> Result<OptionDecl, ParseError> {
    if tokens.next() != Some("name") {
        return Err(tokens.error_back("`name`"));
    }
    let name = tokens.until(&["type"]).to_owned();
    if name.is_empty() {
        return Err(tokens.error("the option's name"));
    }
    if tokens.next() != Some("type") {
        return Err(tokens.error("`type`"));
    }
    let kind = tokens.next();
    let (mut default, mut min, mut max, mut vars) = (None, None, None, Vec::new());
    const FIELDS: [&str; 4] = ["default", "min", "max", "var"];
    while let Some(field) = tokens.next() {
        let value = tokens.until(&FIELDS).to_owned();
        match field {
            "default" => default = Some(value),
            "min" => min = Some(value),
            "max" => max = Some(value),
            "var" => vars.push(value),
            _ => return Err(tokens.error_back("`default`, `min`, `max` or `var`")),
        }
    }
    let number = |value: &Option<String>, what: &str| -> Result<i64, ParseError> {
        value.as_deref().and_then(|v| v.parse().ok()).ok_or_else(|| ParseError {
            column: tokens.line.chars().count() + 1,
            expected: format!("a spin option's {what} as an integer"),
            found: value.as_deref().map_or("nothing".to_owned(), |v| format!("`{}`", shorten(v))),
        })
    };
    let kind = match kind {
        Some("check") => OptionKind::Check { default: default.as_deref() == Some("true") },
        Some("spin") => OptionKind::Spin {
            default: number(&default, "default")?,
            min: number(&min, "min")?,
            max: number(&max, "max")?,
        },
        Some("combo") => OptionKind::Combo { default: default.unwrap_or_default(), vars },
        Some("button") => OptionKind::Button,
        Some("string") => OptionKind::String {
            default: match default.as_deref() {
                None | Some("<empty>") => String::new(),
                Some(text) => text.to_owned(),
            },
        },
        _ => {
            return Err(ParseError {
                column: tokens.line.chars().count() + 1,
                expected: "an option type (check, spin, combo, button or string)".to_owned(),
                found: kind.map_or("nothing".to_owned(), |k| format!("`{}`", shorten(k))),
            });
        }
    };
    Ok(OptionDecl { name, kind })
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::Id { field: IdField::Name, value } => write!(f, "id name {value}"),
            EngineMessage::Id { field: IdField::Author, value } => write!(f, "id author {value}"),
            EngineMessage::UciOk => f.write_str("uciok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::Option(option) => write!(f, "{option}"),
            EngineMessage::Info(info) => write!(f, "{info}"),
            EngineMessage::BestMove { best, ponder } => {
                match best {
                    Some(best) => write!(f, "bestmove {}", UciMove(*best))?,
                    None => f.write_str("bestmove (none)")?,
                }
                match ponder {
                    Some(ponder) => write!(f, " ponder {}", UciMove(*ponder)),
                    None => Ok(()),
                }
            }
            EngineMessage::PerftMove { mv, nodes } => write!(f, "{}: {nodes}", UciMove(*mv)),
            EngineMessage::NodesSearched(nodes) => write!(f, "Nodes searched: {nodes}"),
        }
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|var| write!(f, " var {var}"))
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

impl fmt::Display for Info {
    /// `info` and the fields present, in the order engines usually write them; `string` last,
    /// since it takes the rest of the line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let before_score = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (keyword, value) in before_score {
            if let Some(value) = value {
                write!(f, " {keyword} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        match self.bound {
            Bound::Exact => {}
            Bound::Lower => f.write_str(" lowerbound")?,
            Bound::Upper => f.write_str(" upperbound")?,
        }
        let after_score = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time),
        ];
        for (keyword, value) in after_score {
            if let Some(value) = value {
                write!(f, " {keyword} {value}")?;
            }
        }
        if let Some(mv) = self.currmove {
            write!(f, " currmove {}", UciMove(mv))?;
        }
        if let Some(number) = self.currmovenumber {
            write!(f, " currmovenumber {number}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for &mv in &self.pv {
                write!(f, " {}", UciMove(mv))?;
            }
        }
        if let Some(string) = &self.string {
            write!(f, " string {string}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> GuiCommand {
        line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn message(line: &str) -> EngineMessage {
        line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn commands_read_and_write_the_same_line() {
        for line in [
            "uci",
            "debug on",
            "isready",
            "setoption name Hash value 64",
            "setoption name VariantPath value /usr/share/duck variants.ini",
            "setoption name Clear Hash",
            "ucinewgame",
            "position startpos",
            "position startpos moves d1e2 e10e9",
            "position fen 4c4/9/9/9/9/9/9/9/9/4C4 b - - 3 7 moves e10e9",
            "go wtime 1000 btime 900 winc 10 binc 20 movestogo 30",
            "go ponder movetime 50",
            "go depth 6 nodes 100000",
            "go infinite searchmoves d1e2 a1a2",
            "go perft 3",
            "stop",
            "ponderhit",
            "quit",
        ] {
            assert_eq!(command(line).to_string(), line);
        }
    }

    #[test]
    fn commands_keep_what_they_carry() {
        let GuiCommand::Position { fen: Some(fen), moves } =
            command("position fen 4c4/9/9/9/9/9/9/9/9/4C4 b - - 3 7 moves e10e9")
        else {
            panic!("not a FEN position");
        };
        assert_eq!((fen.halfmoves, fen.fullmoves), (3, 7));
        assert_eq!(moves[0].to_string(), "9 4 8 4");
        let GuiCommand::Go(go) = command("go wtime -15 btime 10 searchmoves d1e2 depth 3") else {
            panic!("not go");
        };
        assert_eq!((go.wtime, go.depth, go.searchmoves.len()), (Some(0), Some(3), 1));
        let GuiCommand::SetOption { name, value } =
            command("setoption  name UCI_Variant  value  duck")
        else {
            panic!("not setoption");
        };
        assert_eq!((name.as_str(), value.as_deref()), ("UCI_Variant", Some("duck")));
    }

    #[test]
    fn bad_commands_say_where_and_what() {
        let cases = [
            ("", "column 1: expected a UCI command"),
            ("joho debug on", "column 1: expected a UCI command"),
            ("debug maybe", "column 7: expected `on` or `off`, found `maybe`"),
            ("isready now", "column 9: expected the end of the line after the command"),
            ("position", "column 9: expected `startpos` or `fen`, found end of line"),
            ("position startpos moves e1e2 e11e9", "column 30: expected a move such as e1e2"),
            ("position startpos e1e2", "column 19: expected `moves` or the end of the line"),
            ("position fen 4c4/9/9 w", "column 21: expected a FEN: "),
            ("go depth", "column 9: expected the depth in plies, found end of line"),
            ("go depth -1", "column 10: expected the depth in plies, found `-1`"),
            ("go sometime 5", "column 4: expected a limit of go"),
            ("setoption value 3", "column 11: expected `name`, found `value`"),
            ("setoption name", "column 15: expected the option's name, found end of line"),
        ];
        for (line, start) in cases {
            let error = line.parse::<GuiCommand>().unwrap_err().to_string();
            assert!(error.starts_with(start), "{line:?}: {error}");
        }
    }

    #[test]
    fn messages_read_and_write_the_same_line() {
        for line in [
            "id name arbiter 0.1.0",
            "id author the arbiter developers",
            "uciok",
            "readyok",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Ponder type check default false",
            "option name UCI_Variant type combo default duck var duck",
            "option name Clear Hash type button",
            "option name VariantPath type string default <empty>",
            "info depth 5 seldepth 8 multipv 1 score cp 23 lowerbound nodes 1234 nps 99000 \
             hashfull 7 time 12 pv d1e2 e10e9",
            "info depth 9 score mate -3 nodes 10 time 1",
            "info currmove d1e2 currmovenumber 1",
            "info string NNUE evaluation using nn.bin enabled",
            "bestmove d1e2",
            "bestmove d1e2 ponder e10e9",
            "bestmove (none)",
            "e10e9: 1849",
            "Nodes searched: 80066",
        ] {
            assert_eq!(message(line).to_string(), line);
        }
    }

    #[test]
    fn messages_of_other_engines_are_read_tolerantly() {
        // Lines as fairy-stockfish 11.1 writes them.
        let EngineMessage::Info(info) = message(
            "info depth 1 seldepth 1 multipv 1 score cp 163 nodes 43 nps 21500 tbhits 0 time 2 \
             pv e4f6",
        ) else {
            panic!("not info");
        };
        assert_eq!((info.depth, info.nodes, info.time), (Some(1), Some(43), Some(2)));
        assert_eq!(info.pv.len(), 1);
        let EngineMessage::Option(option) = message(
            "option name UCI_Variant type combo default chess var 3check var duck var xiangqi",
        ) else {
            panic!("not option");
        };
        assert!(matches!(option.kind, OptionKind::Combo { ref vars, .. } if vars.len() == 3));
        assert_eq!(message("bestmove 0000"), EngineMessage::BestMove { best: None, ponder: None });
        // Tabs, trailing blanks and a dangling `ponder` without its move.
        let d1e2 = "d1e2".parse::<UciMove>().unwrap().0;
        let alone = EngineMessage::BestMove { best: Some(d1e2), ponder: None };
        for line in ["bestmove\td1e2\t", "bestmove d1e2 ponder", "bestmove d1e2\tponder \t "] {
            assert_eq!(message(line), alone, "{line:?}");
        }
        assert_eq!(
            message("bestmove\td1e2\tponder\te10e9\t"),
            EngineMessage::BestMove {
                best: Some(d1e2),
                ponder: Some("e10e9".parse::<UciMove>().unwrap().0)
            }
        );
        assert!("bestmove d1e2 ponder e1".parse::<EngineMessage>().is_err());
        assert!("bestmove e1".parse::<EngineMessage>().is_err());
        assert!("Fairy-Stockfish 11.1 LB by Fabian Fichter".parse::<EngineMessage>().is_err());
    }

    mod properties {
        use super::*;
        use arbiter_duck::Square;
        use proptest::prelude::*;

        fn any_move() -> impl Strategy<Value = Move> {
            (0..Square::COUNT, 0..Square::COUNT).prop_map(|(a, b)| {
                Move::new(Square::from_index(a).unwrap(), Square::from_index(b).unwrap())
            })
        }

        fn any_go() -> impl Strategy<Value = Go> {
            (
                proptest::option::of(0..u64::MAX),
                proptest::option::of(0..u64::MAX),
                proptest::option::of(any::<u32>()),
                proptest::option::of(0..10_000u64),
                any::<bool>(),
                proptest::collection::vec(any_move(), 0..4),
            )
                .prop_map(|(wtime, nodes, depth, movetime, infinite, searchmoves)| {
                    Go {
                        wtime: wtime.map(|t| t >> 1),
                        nodes,
                        depth,
                        movetime,
                        infinite,
                        searchmoves,
                        ..Go::default()
                    }
                })
        }

        fn any_info() -> impl Strategy<Value = Info> {
            (
                proptest::option::of(any::<u32>()),
                proptest::option::of(prop_oneof![
                    any::<i32>().prop_map(Score::Centipawns),
                    any::<i32>().prop_map(Score::Mate)
                ]),
                prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)],
                proptest::option::of(any::<u64>()),
                proptest::collection::vec(any_move(), 0..8),
                proptest::option::of("[a-z0-9]([a-z0-9 ]{0,20}[a-z0-9])?"),
            )
                .prop_map(|(depth, score, bound, nodes, pv, string)| Info {
                    depth,
                    score,
                    bound: if score.is_some() { bound } else { Bound::Exact },
                    nodes,
                    pv,
                    string,
                    ..Info::default()
                })
        }

        proptest! {
            #[test]
            fn go_round_trips(go in any_go()) {
                let line = GuiCommand::Go(go.clone()).to_string();
                prop_assert_eq!(line.parse::<GuiCommand>(), Ok(GuiCommand::Go(go)));
            }

            #[test]
            fn info_round_trips(info in any_info()) {
                let line = EngineMessage::Info(info.clone()).to_string();
                prop_assert_eq!(line.parse::<EngineMessage>(), Ok(EngineMessage::Info(info)));
            }

            #[test]
            fn position_round_trips(moves in proptest::collection::vec(any_move(), 0..10)) {
                let command = GuiCommand::Position { fen: None, moves };
                prop_assert_eq!(command.to_string().parse::<GuiCommand>(), Ok(command));
            }

            #[test]
            fn any_text_is_read_without_panicking(line in "\\PC{0,80}") {
                let _ = line.parse::<GuiCommand>();
                let _ = line.parse::<EngineMessage>();
            }

            #[test]
            fn protocol_words_in_any_order_are_read_without_panicking(
                words in proptest::collection::vec(prop_oneof![
                    Just("go"), Just("position"), Just("fen"), Just("moves"), Just("startpos"),
                    Just("info"), Just("pv"), Just("score"), Just("cp"), Just("option"),
                    Just("name"), Just("type"), Just("spin"), Just("default"), Just("-5"),
                    Just("e1e2"), Just("setoption"), Just("value"), Just("bestmove"),
                    Just("searchmoves"), Just("string"), Just("99999999999999999999"),
                ], 0..12)
            ) {
                let line = words.join(" ");
                let _ = line.parse::<GuiCommand>();
                let _ = line.parse::<EngineMessage>();
            }
        }
    }
}
