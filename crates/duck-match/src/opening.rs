//! Where the games of a match start: openings read from a file, or random ones.
//!
//! ```
//! use arbiter_duck_match::opening::{Opening, parse_openings};
//!
//! let text = "\
//! ## one opening per line
//! e1e2 e10e9
//! 2 0 3 1 4 9 4 8 4
//! 0 1 2 2 9 7 7 6
//! 4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1
//! ";
//! let openings = parse_openings(text).unwrap();
//! assert_eq!(openings.len(), 4);
//! assert_eq!(openings[0].to_string(), "startpos moves e1e2 e10e9");
//! assert_eq!(openings[1].to_string(), "startpos moves d1e2 e10e9");
//! assert_eq!(openings[3].to_string(), "fen 4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1");
//! // What an opening writes reads back as the same opening.
//! assert_eq!(openings[3].to_string().parse::<Opening>(), Ok(openings[3].clone()));
//!
//! let error = parse_openings("e1e2\ne1e2 e10e9 e2e5\n").unwrap_err();
//! assert_eq!(error.to_string(),
//!     "2:12: expected a valid move (a captain cannot move from (1,4) to (4,4)), found `e2e5`");
//!
//! // Random openings are legal, keep the game going, and depend only on the seed and number.
//! let random = Opening::random(7, 3, 8);
//! assert_eq!(random.moves.len(), 8);
//! assert_eq!(random, Opening::random(7, 3, 8));
//! ```
//!
//! # The openings file
//!
//! One opening per line; blank lines and lines starting with `#` are skipped. A line is one of:
//!
//! - a **move list** from the starting position, each move in either notation: the square
//!   notation `e1e2` or the official `x1 y1 x2 y2` (`d1e2 e10e9`, `0 3 1 4 9 4 8 4`, or mixed);
//! - an **official command list** on one line: the count `Q`, then `Q` commands `x1 y1 x2 y2`
//!   (`2 0 3 1 4 9 4 8 4`), as the judge reads it; told apart from a move list by its count of
//!   numbers, `4Q + 1` rather than a multiple of 4;
//! - a **FEN** (it contains `/`), optionally preceded by the word `fen` and followed by `moves`
//!   and a move list played from it: every opening's `Display`, the arguments of UCI's
//!   `position` command, reads back as the same opening;
//! - `startpos`, optionally followed by `moves` and a move list.
//!
//! Every move is played with the rules of the game, and an opening must leave the game going on:
//! no move may capture a captain, and the side to move at the end must have a move. A line that
//! breaks any of this is an error naming its line and column. A match plays the openings in the
//! file's order, each with both colours, and starts again from the first when it needs more.

use std::fmt;
use std::str::FromStr;

use arbiter_duck::{
    EndReason, Fen, Game, Invalid, Move, MoveError, Position, ReplayError, UciMove,
};
use arbiter_scan::{Found, ScanError, Shown, place_at};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

/// The start of a game: a position and the moves played from it before the engines take over.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The position the moves start from; `None` for the official starting position.
    pub fen: Option<Fen>,
    /// The moves, all valid, none ending the game.
    pub moves: Vec<Move>,
}

impl Default for Opening {
    /// The official starting position, no moves.
    fn default() -> Opening {
        Opening { fen: None, moves: Vec::new() }
    }
}

impl Opening {
    /// The position before the opening's moves.
    pub fn start(&self) -> Position {
        match &self.fen {
            // Checked when the opening was made.
            Some(fen) => Position::from_fen(fen).unwrap_or_default(),
            None => Position::new(),
        }
    }

    /// The game after the opening's moves, ready for the engines; an error naming the opening
    /// and its first move the rules refuse (or its FEN, if that is no position).
    ///
    /// ```
    /// use arbiter_duck_match::opening::Opening;
    ///
    /// let moves = ["e1e2", "e1e3"].iter().map(|m| m.parse().unwrap()).collect();
    /// let error = Opening { fen: None, moves }.game().unwrap_err();
    /// assert_eq!(error.to_string(), "opening `startpos moves e1e2 e1e3`: move 2 `e1e3` is not \
    ///     valid: (0,4) is empty");
    /// ```
    pub fn game(&self) -> Result<Game, InvalidOpening> {
        Game::replay(self.fen.as_ref(), self.moves.iter().copied())
            .map_err(|error| InvalidOpening { opening: self.to_string(), error })
    }

    /// `plies` random valid moves from the starting position, the same for the same `seed` and
    /// `number`. Each move is drawn uniformly from those that neither capture a captain nor
    /// leave the other side without a move; the opening is shorter in the (rare) position where
    /// no move qualifies.
    pub fn random(seed: u64, number: u64, plies: usize) -> Opening {
        // SplitMix64 mixes its seed, so nearby seeds give unrelated sequences.
        let mut rng = SplitMix64::seed_from_u64(seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut position = Position::new();
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let keeps_going: Vec<Move> = position
                .moves()
                .into_iter()
                .filter(|&mv| {
                    let mut after = position.clone();
                    let _ = after.make(mv);
                    after.outcome().is_none()
                })
                .collect();
            if keeps_going.is_empty() {
                break;
            }
            let mv = keeps_going[(rng.next_u64() % keeps_going.len() as u64) as usize];
            let _ = position.make(mv);
            moves.push(mv);
        }
        Opening { fen: None, moves }
    }
}

impl fmt::Display for Opening {
    /// The arguments of the UCI `position` command: `startpos` or `fen FEN`, then `moves` and
    /// the moves in square notation, if any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.fen {
            Some(fen) => write!(f, "fen {fen}")?,
            None => f.write_str("startpos")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for &mv in &self.moves {
                write!(f, " {}", UciMove(mv))?;
            }
        }
        Ok(())
    }
}

/// An opening whose moves cannot be played: the opening (as UCI's `position` arguments) and
/// why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("opening `{opening}`: {error}")]
pub struct InvalidOpening {
    /// The opening, as UCI's `position` arguments.
    pub opening: String,
    /// The move refused, or the FEN that is no position.
    pub error: ReplayError,
}

/// A line that is not an opening: where it goes wrong (in characters from the start of the
/// line), what was expected there and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("character {}: expected {expected}, found {found}", .index + 1)]
pub struct ParseOpeningError {
    /// Where the problem starts, in characters (0 for the first).
    pub index: usize,
    /// What the format needs there.
    pub expected: String,
    /// What stands there instead.
    pub found: Found,
}

impl FromStr for Opening {
    type Err = ParseOpeningError;

    /// Reads one line of an openings file (see the [module docs](self)).
    fn from_str(line: &str) -> Result<Opening, ParseOpeningError> {
        match read_line(line, 0, line.len()) {
            Ok(Some(opening)) => Ok(opening),
            Ok(None) => Err(ParseOpeningError {
                index: line.chars().count(),
                expected: "an opening".to_owned(),
                found: Found::End,
            }),
            Err(mut error) => Err(ParseOpeningError {
                index: line[..error.start].chars().count(),
                found: error.found(line),
                expected: error.expected,
            }),
        }
    }
}

/// Reads every opening of a file (see the [module docs](self)); an error names the line and
/// column where the first bad line goes wrong.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, ScanError> {
    let mut openings = Vec::new();
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bom = text.len() - body.len();
    let mut start = bom;
    for line in body.split_inclusive('\n') {
        let end = start + line.len();
        match read_line(text, start, end) {
            Ok(Some(opening)) => openings.push(opening),
            Ok(None) => {}
            Err(mut error) => {
                return Err(ScanError {
                    place: place_at(text, error.start),
                    found: error.found(text),
                    expected: error.expected,
                });
            }
        }
        start = end;
    }
    Ok(openings)
}

/// What stands in `text` at bytes `start..end`: the end of the line when that is empty.
fn found(text: &str, start: usize, end: usize) -> Found {
    let part = &text[start..end];
    if part.is_empty() || part == "\n" || part == "\r\n" {
        return Found::End;
    }
    Found::Token(part.chars().take(Shown::MAX_CHARS + 1).collect())
}

/// A problem at bytes `start..end` of the text being read.
struct LineError {
    start: usize,
    end: usize,
    expected: String,
    /// What was found, when it is not simply the text at `start..end`.
    found: Option<Found>,
}

impl LineError {
    fn found(&mut self, text: &str) -> Found {
        self.found.take().unwrap_or_else(|| found(text, self.start, self.end))
    }
}

/// A whitespace-separated token and its byte range in the whole text.
#[derive(Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

/// Reads the line at bytes `start..end` of `text`: `None` for a blank line or a comment.
fn read_line(text: &str, start: usize, end: usize) -> Result<Option<Opening>, LineError> {
    let line = &text[start..end];
    let tokens: Vec<Token<'_>> = line
        .split_ascii_whitespace()
        .map(|token| {
            let offset = start + (token.as_ptr() as usize - line.as_ptr() as usize);
            Token { text: token, start: offset, end: offset + token.len() }
        })
        .collect();
    let Some(first) = tokens.first() else { return Ok(None) };
    if first.text.starts_with('#') {
        return Ok(None);
    }
    // Where an error about a missing token points: just after the last one.
    let line_end = tokens.last().map_or(start, |token| token.end);
    let error = |token: Option<&Token<'_>>, expected: &str| {
        let (start, end) = token.map_or((line_end, line_end), |t| (t.start, t.end));
        LineError { start, end, expected: expected.to_owned(), found: None }
    };
    let (fen, moves) = if first.text == "startpos" {
        (None, after_keyword(&tokens[1..], &error)?)
    } else if first.text == "fen" || first.text.contains('/') {
        // `fen FEN`, as UCI's `position` command and this type's `Display` write it, or the
        // FEN alone.
        let fen_at = usize::from(first.text == "fen");
        let keyword = tokens.iter().position(|t| t.text == "moves").unwrap_or(tokens.len());
        if keyword <= fen_at {
            return Err(error(tokens.get(keyword), "a FEN"));
        }
        let fen_start = tokens[fen_at].start;
        let fen_end = tokens[keyword - 1].end;
        let fen_text = &text[fen_start..fen_end];
        let fen = fen_text.parse::<Fen>().map_err(|e| LineError {
            start: fen_start + byte_offset(fen_text, e.index),
            end: fen_end,
            expected: format!("a FEN: {}", e.expected),
            found: Some(e.found),
        })?;
        if let Err(e) = Position::from_fen(&fen) {
            return Err(LineError {
                start: fen_start,
                end: fen_end,
                expected: format!("a position of the game ({e})"),
                found: None,
            });
        }
        (Some(fen), after_keyword(&tokens[keyword..], &error)?)
    } else {
        (None, move_list(&tokens, &error)?)
    };
    let opening = Opening { fen, moves: moves.iter().map(|&(mv, _)| mv).collect() };
    let ends_the_game = |token| Err(error(Some(token), "a move that does not end the game"));
    let game = match Game::from_position(opening.start()).play_moves(opening.moves.iter().copied())
    {
        // Only the move before can have ended a game that went on until then.
        Err(MoveError { index, invalid: Invalid::GameOver { .. }, .. }) if index > 0 => {
            return ends_the_game(&moves[index - 1].1);
        }
        Err(MoveError { index, invalid, .. }) => {
            return Err(error(Some(&moves[index].1), &format!("a valid move ({invalid})")));
        }
        Ok(game) => game,
    };
    // The first move is refused in a game already over, so a last move ends it if it is over.
    if let Some((_, last)) = moves.last()
        && game.winner().is_some()
    {
        return ends_the_game(last);
    }
    if let Some(outcome) = game.position().outcome() {
        let expected = match (outcome.winner, outcome.reason) {
            (_, EndReason::NoMove { side }) => format!("an opening after which {side} has a move"),
            (Some(winner), _) => {
                format!("an opening where the game goes on ({} has no captain)", !winner)
            }
            (None, _) => format!("an opening where the game goes on (not: {outcome})"),
        };
        return Err(error(None, &expected));
    }
    Ok(Some(opening))
}

/// The byte offset of the `index`-th character of `text`.
fn byte_offset(text: &str, index: usize) -> usize {
    text.char_indices().nth(index).map_or(text.len(), |(offset, _)| offset)
}

type ErrorAt<'e> = dyn Fn(Option<&Token<'_>>, &str) -> LineError + 'e;

/// After a position: nothing, or `moves` and a move list.
fn after_keyword<'a>(
    tokens: &[Token<'a>],
    error: &ErrorAt<'_>,
) -> Result<Vec<(Move, Token<'a>)>, LineError> {
    match tokens.first() {
        None => Ok(Vec::new()),
        Some(token) if token.text == "moves" => move_list(&tokens[1..], error),
        Some(token) => Err(error(Some(token), "`moves` or the end of the line")),
    }
}

/// A move list (either notation, mixed) or an official command list; each move with the token
/// that names it (its first token, for the official form).
fn move_list<'a>(
    tokens: &[Token<'a>],
    error: &ErrorAt<'_>,
) -> Result<Vec<(Move, Token<'a>)>, LineError> {
    let numeric = |t: &Token<'_>| t.text.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    let mut rest = tokens;
    if tokens.iter().all(numeric) && tokens.len() % 4 == 1 {
        let count = (tokens.len() - 1) / 4;
        if tokens[0].text.parse::<usize>().ok() != Some(count) {
            let expected = format!("the number of commands Q ({count} follow)");
            return Err(error(Some(&tokens[0]), &expected));
        }
        rest = &tokens[1..];
    }
    let mut moves = Vec::new();
    while let Some(first) = rest.first() {
        if !numeric(first) {
            let mv = first.text.parse::<UciMove>().map_err(|e| {
                error(Some(first), &format!("a move such as e1e2 or 0 3 1 4 ({})", e.expected))
            })?;
            moves.push((mv.0, *first));
            rest = &rest[1..];
            continue;
        }
        let mut coordinates = [0u8; 4];
        const NAMES: [(&str, u8); 4] = [
            ("the source row x1 (0-9)", 10),
            ("the source column y1 (0-8)", 9),
            ("the destination row x2 (0-9)", 10),
            ("the destination column y2 (0-8)", 9),
        ];
        for (i, (name, limit)) in NAMES.into_iter().enumerate() {
            let token = rest.get(i);
            coordinates[i] = match token.map(|t| t.text.parse::<u8>()) {
                Some(Ok(value)) if value < limit => value,
                _ => return Err(error(token, name)),
            };
        }
        let text = coordinates.map(|c| c.to_string()).join(" ");
        let mv = text.parse::<Move>().map_err(|e| error(Some(first), e.expected))?;
        moves.push((mv, *first));
        rest = &rest[4..];
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse_openings(text).unwrap_err().to_string()
    }

    #[test]
    fn every_form_reads() {
        let text = "\u{feff}startpos\n\n   # indented comment\nstartpos moves d1e2\r\n\
                    0 3 1 4 e10e9\n1 0 3 1 4\n\
                    rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR b moves e10e9\n\
                    \t4c4/9/9/9/9/9/9/9/9/4C4 b - - 3 7";
        let openings = parse_openings(text).unwrap();
        let shown: Vec<String> = openings.iter().map(Opening::to_string).collect();
        assert_eq!(
            shown,
            [
                "startpos",
                "startpos moves d1e2",
                "startpos moves d1e2 e10e9",
                "startpos moves d1e2",
                "fen rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR b - - 0 1 \
                 moves e10e9",
                "fen 4c4/9/9/9/9/9/9/9/9/4C4 b - - 3 7",
            ]
        );
        assert_eq!(openings[2].game().unwrap().position().turn(), arbiter_duck::Color::Red);
        // What an opening writes is a line that reads back as the same opening.
        let written = shown.join("\n");
        assert_eq!(parse_openings(&written).unwrap(), openings);
        assert_eq!(parse_openings("# nothing\n\n").unwrap(), []);
    }

    #[test]
    fn a_bad_line_is_named_with_its_column() {
        let cases = [
            (
                "e1e2 e10e11",
                "1:6: expected a move such as e1e2 or 0 3 1 4 (a rank 1-10), found `e10e11`",
            ),
            ("e1e2 e1e3", "1:6: expected a valid move ((0,4) is empty), found `e1e3`"),
            ("0 3 1", "1:6: expected the destination column y2 (0-8), found end of input"),
            ("0 3 1 9", "1:7: expected the destination column y2 (0-8), found `9`"),
            ("3 0 3 1 4 9 4 8 4", "1:1: expected the number of commands Q (2 follow), found `3`"),
            ("-1 0 0 0", "1:1: expected the source row x1 (0-9), found `-1`"),
            ("\n\nstartpos e1e2", "3:10: expected `moves` or the end of the line, found `e1e2`"),
            ("4c4/9/9 w", "1:8: expected a FEN: `/` and rank 7 (a FEN has 10 ranks), found ` `"),
            ("4c4/9/9/9/9/9/9/9/9/9 b", "1:1: expected a position of the game (no red captain"),
            (
                "4c4/9/9/9/9/9/9/9/9/9 w",
                "1:24: expected an opening where the game goes on (red has no captain), found end of input",
            ),
            ("e1e2 e10e9 moves", "1:12: expected a move such as e1e2 or 0 3 1 4"),
            ("fen", "1:4: expected a FEN, found end of input"),
            ("fen moves e1e2", "1:5: expected a FEN, found `moves`"),
            ("fen 4c4/9 w", "1:10: expected a FEN: `/` and rank 8"),
            (
                "ch7/hS7/S8/9/9/9/9/9/9/2R1C4 w moves c1c10",
                "1:43: expected an opening after which blue has a move, found end of input",
            ),
        ];
        for (text, message) in cases {
            let error = error(text);
            assert!(error.starts_with(message), "{text:?}: {error}");
        }
    }

    #[test]
    fn an_opening_may_not_end_the_game() {
        let line = "a1a2 a10a9 a2d2 a9a10 d2d10 a10a9 d10e10";
        assert_eq!(error(line), "1:35: expected a move that does not end the game, found `d10e10`");
        let opening: Opening = "a1a2 a10a9 a2d2 a9a10 d2d10 a10a9".parse().unwrap();
        assert_eq!(opening.moves.len(), 6);
        let error = "a1a2 e1e9".parse::<Opening>().unwrap_err();
        assert_eq!(error.index, 5);
        assert!("   ".parse::<Opening>().is_err());
    }

    #[test]
    fn random_openings_are_valid_and_seeded() {
        for number in 0..50 {
            let opening = Opening::random(1, number, 12);
            assert_eq!(opening.moves.len(), 12);
            let game = opening.game().unwrap();
            assert_eq!(game.position().outcome(), None);
            assert_eq!(game.history().count(), 12, "every move was valid");
            // Written and read back, it is the same opening.
            let text = opening.to_string();
            let again: Opening = text["startpos moves ".len()..].parse().unwrap();
            assert_eq!(again, opening);
        }
        assert_ne!(Opening::random(1, 0, 12), Opening::random(1, 1, 12));
        assert_ne!(Opening::random(1, 0, 12), Opening::random(2, 0, 12));
        assert_eq!(Opening::random(1, 0, 0), Opening::default());
    }
}
