//! A saved game move by move, with what each engine said about its move: the `game-N.record`
//! files of a save directory, written and read back.
//!
//! ```
//! use arbiter_duck_match::record::Record;
//!
//! let text = "\
//! ## game 1: new (red) vs old (blue)
//! opening startpos moves i1i2 i10i9
//! a1a2 {+0.31/12 15234N 98ms 4.9s}
//! a10a9 {-M3/5 40N 2ms 9.95s}
//! result 1-0 resign-score
//! ";
//! let record: Record = text.parse().unwrap();
//! assert_eq!(record.moves.len(), 2);
//! assert_eq!(record.thoughts[0].to_string(), "+0.31/12 15234N 98ms 4.9s");
//! assert_eq!(record.termination, "resign-score");
//! // What a record writes reads back as the same record.
//! assert_eq!(record.to_string().parse::<Record>().unwrap(), record);
//! ```
//!
//! # The format
//!
//! One item per line; blank lines and lines starting with `#` are skipped.
//!
//! - `opening ARGS`, first: where the game started, as the arguments of UCI's `position`
//!   (`startpos moves i1i2 i10i9`, `fen FEN`), the opening's moves included;
//! - one line per move the engines played, in order: the move in square notation, then its
//!   comment in braces (cutechess's PGN comments, one field per word, each optional):
//!   - the score from the mover's side and the depth, `+0.31/12`: hundredths of a soldier
//!     written as soldiers with two decimals, or `+M3` / `-M3` for a captain captured in that
//!     many moves, by the mover or the other side; `?/12` when the engine gave a depth but no
//!     score;
//!   - `15234N`: the nodes searched;
//!   - `98ms`: the time the move took, as the runner measured it;
//!   - `4.9s`: the mover's clock after the move (its increment included), with a clock only;
//! - `illegal MOVE`, when the game ended with a move the rules refuse;
//! - `result SCORE CODE`, last: `1-0`, `0-1` or `1/2-1/2` and how the game ended (the
//!   `termination` codes of the results file).
//!
//! The score and depth are those of the engine's last `info` line with a score (of the first
//! principal variation) before its `bestmove`; the nodes, of its last `info` line with nodes.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use arbiter_duck::{Move, UciMove};
use arbiter_duck_protocol::Score;
use arbiter_scan::{Found, ScanError, place_at};

use super::opening::Opening;

/// What an engine said about one of its moves, and how long it took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Thought {
    /// Its last score, from its own side.
    pub score: Option<Score>,
    /// The depth of that score (or its last depth, without one).
    pub depth: Option<u32>,
    /// The nodes it searched.
    pub nodes: Option<u64>,
    /// How long it took, from `go` written to `bestmove` read.
    pub time: Duration,
    /// Its clock after the move, under a clock.
    pub clock: Option<Duration>,
}

/// Seconds with up to three decimals, the zeros after the point dropped: `4.9`, `10`, `0.125`.
fn seconds(duration: Duration) -> String {
    let text = format!("{}.{:03}", duration.as_secs(), duration.subsec_millis());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

impl fmt::Display for Thought {
    /// The fields of the comment, without the braces: `+0.31/12 15234N 98ms 4.9s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Some(Score::Centipawns(cp)) => {
                let sign = match cp.signum() {
                    1 => "+",
                    -1 => "-",
                    _ => "",
                };
                let cp = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", cp / 100, cp % 100)?;
            }
            Some(Score::Mate(moves)) if moves < 0 => write!(f, "-M{}", moves.unsigned_abs())?,
            Some(Score::Mate(moves)) => write!(f, "+M{moves}")?,
            None if self.depth.is_some() => f.write_str("?")?,
            None => {}
        }
        if let Some(depth) = self.depth {
            write!(f, "/{depth}")?;
        }
        if self.score.is_some() || self.depth.is_some() {
            f.write_str(" ")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, "{nodes}N ")?;
        }
        write!(f, "{}ms", self.time.as_millis())?;
        if let Some(clock) = self.clock {
            write!(f, " {}s", seconds(clock))?;
        }
        Ok(())
    }
}

/// Reads a score: `+0.31`, `-1.05`, `0.00`, `+M3`, `-M3`.
fn score(text: &str) -> Option<Score> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(moves) = rest.strip_prefix('M') {
        let moves: i32 = digits(moves)?.parse().ok()?;
        return Some(Score::Mate(sign * moves));
    }
    let (whole, hundredths) = rest.split_once('.')?;
    if hundredths.len() != 2 {
        return None;
    }
    let whole: i32 = digits(whole)?.parse().ok()?;
    let hundredths: i32 = digits(hundredths)?.parse().ok()?;
    Some(Score::Centipawns(sign * whole.checked_mul(100)?.checked_add(hundredths)?))
}

/// `text` if it is a non-empty run of ASCII digits.
fn digits(text: &str) -> Option<&str> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

/// Reads seconds with up to three decimals exactly.
fn read_seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || (!fraction.is_empty() && digits(fraction).is_none()) {
        return None;
    }
    let whole: u64 = digits(whole)?.parse().ok()?;
    let millis: u64 = format!("{fraction:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(millis).map(Duration::from_millis)
}

impl FromStr for Thought {
    type Err = String;

    /// Reads the fields of a comment (see the [module docs](self)); the error names the word.
    fn from_str(text: &str) -> Result<Thought, String> {
        let mut thought = Thought::default();
        let mut time = None;
        for word in text.split_ascii_whitespace() {
            let read = if let Some(millis) = word.strip_suffix("ms") {
                digits(millis).and_then(|ms| ms.parse().ok()).map(|ms| {
                    time = Some(Duration::from_millis(ms));
                })
            } else if let Some(clock) = word.strip_suffix('s') {
                read_seconds(clock).map(|clock| thought.clock = Some(clock))
            } else if let Some(nodes) = word.strip_suffix('N') {
                digits(nodes).and_then(|n| n.parse().ok()).map(|n| thought.nodes = Some(n))
            } else {
                let (value, depth) = match word.split_once('/') {
                    Some((value, depth)) => {
                        (value, Some(digits(depth).and_then(|d| d.parse().ok())))
                    }
                    None => (word, None),
                };
                let score = if value == "?" && depth.is_some() {
                    Some(None)
                } else {
                    score(value).map(Some)
                };
                match (score, depth) {
                    (Some(score), None) => {
                        thought.score = score;
                        Some(())
                    }
                    (Some(score), Some(Some(depth))) => {
                        thought.score = score;
                        thought.depth = Some(depth);
                        Some(())
                    }
                    _ => None,
                }
            };
            if read.is_none() {
                return Err(format!("`{word}`"));
            }
        }
        thought.time = time.ok_or_else(|| "no time taken (`98ms`)".to_owned())?;
        Ok(thought)
    }
}

/// A game as its record file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Where it started, the opening's moves included.
    pub opening: Opening,
    /// The engines' valid moves after the opening.
    pub moves: Vec<Move>,
    /// What the engine said about each of [`moves`](Record::moves).
    pub thoughts: Vec<Thought>,
    /// The refused move that ended the game, if one did.
    pub illegal: Option<Move>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How the game ended (a [`Termination::code`](super::game::Termination::code)).
    pub termination: String,
}

impl fmt::Display for Record {
    /// The record file (see the [module docs](self)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "opening {}", self.opening)?;
        for (mv, thought) in self.moves.iter().zip(&self.thoughts) {
            writeln!(f, "{} {{{thought}}}", UciMove(*mv))?;
        }
        if let Some(mv) = self.illegal {
            writeln!(f, "illegal {}", UciMove(mv))?;
        }
        writeln!(f, "result {} {}", self.result, self.termination)
    }
}

impl FromStr for Record {
    type Err = ScanError;

    /// Reads a record file (see the [module docs](self)); an error names its line and column.
    fn from_str(text: &str) -> Result<Record, ScanError> {
        let error = |offset: usize, expected: &str, found: &str| ScanError {
            place: place_at(text, offset),
            expected: expected.to_owned(),
            found: if found.is_empty() { Found::End } else { Found::Token(found.to_owned()) },
        };
        let mut opening = None;
        let mut record = Record {
            opening: Opening::default(),
            moves: Vec::new(),
            thoughts: Vec::new(),
            illegal: None,
            result: String::new(),
            termination: String::new(),
        };
        let mut ended = false;
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            let start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let body = line.trim_start();
            let at = start + (line.len() - body.len());
            if body.is_empty() || body.starts_with('#') {
                continue;
            }
            if ended {
                return Err(error(at, "nothing after the `result` line", body));
            }
            let (word, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
            let rest_at = at + (body.len() - rest.len());
            if opening.is_none() {
                if word != "opening" {
                    return Err(error(at, "`opening` and the start of the game", word));
                }
                let parsed = rest.trim().parse::<Opening>().map_err(|e| {
                    error(rest_at, &format!("an opening: {}", e.expected), rest.trim())
                })?;
                opening = Some(parsed);
                continue;
            }
            match word {
                "result" => {
                    let mut words = rest.split_ascii_whitespace();
                    let score = words.next().unwrap_or("");
                    if !["1-0", "0-1", "1/2-1/2"].contains(&score) {
                        return Err(error(rest_at, "a result: 1-0, 0-1 or 1/2-1/2", score));
                    }
                    let code = words.next().unwrap_or("");
                    if code.is_empty() || !code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                    {
                        return Err(error(
                            rest_at,
                            "how the game ended, e.g. captain-captured",
                            code,
                        ));
                    }
                    if let Some(extra) = words.next() {
                        return Err(error(rest_at, "the end of the line", extra));
                    }
                    record.result = score.to_owned();
                    record.termination = code.to_owned();
                    ended = true;
                }
                "illegal" => {
                    let mv = rest.trim();
                    let mv = mv
                        .parse::<UciMove>()
                        .map_err(|_| error(rest_at, "a move such as e1e2", mv))?;
                    record.illegal = Some(mv.0);
                }
                _ if record.illegal.is_some() => {
                    return Err(error(at, "the `result` line after the illegal move", word));
                }
                _ => {
                    let mv = word.parse::<UciMove>().map_err(|_| {
                        error(at, "a move such as e1e2, `illegal` or `result`", word)
                    })?;
                    let comment = rest.trim();
                    let inner =
                        comment.strip_prefix('{').and_then(|c| c.strip_suffix('}')).ok_or_else(
                            || error(rest_at, "a comment in braces after the move", comment),
                        )?;
                    let thought = inner.parse::<Thought>().map_err(|found| {
                        error(rest_at, "a comment such as {+0.31/12 15234N 98ms 4.9s}", &found)
                    })?;
                    record.moves.push(mv.0);
                    record.thoughts.push(thought);
                }
            }
        }
        if !ended {
            let expected = if opening.is_none() { "`opening`" } else { "the `result` line" };
            return Err(error(text.len(), expected, ""));
        }
        record.opening = opening.unwrap_or_default();
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn comments_write_and_read_back() {
        let cases = [
            (
                Thought {
                    score: Some(Score::Centipawns(31)),
                    depth: Some(12),
                    nodes: Some(15234),
                    time: ms(98),
                    clock: Some(ms(4900)),
                },
                "+0.31/12 15234N 98ms 4.9s",
            ),
            (
                Thought {
                    score: Some(Score::Centipawns(-5)),
                    depth: None,
                    nodes: None,
                    time: ms(0),
                    clock: None,
                },
                "-0.05 0ms",
            ),
            (
                Thought {
                    score: Some(Score::Centipawns(0)),
                    depth: Some(1),
                    nodes: Some(3),
                    time: ms(7),
                    clock: Some(ms(0)),
                },
                "0.00/1 3N 7ms 0s",
            ),
            (
                Thought {
                    score: Some(Score::Centipawns(-1234)),
                    depth: Some(9),
                    nodes: None,
                    time: ms(1),
                    clock: Some(ms(10_125)),
                },
                "-12.34/9 1ms 10.125s",
            ),
            (
                Thought {
                    score: Some(Score::Mate(3)),
                    depth: Some(5),
                    nodes: None,
                    time: ms(2),
                    clock: None,
                },
                "+M3/5 2ms",
            ),
            (
                Thought {
                    score: Some(Score::Mate(-2)),
                    depth: None,
                    nodes: None,
                    time: ms(2),
                    clock: None,
                },
                "-M2 2ms",
            ),
            (
                Thought { score: None, depth: Some(4), nodes: Some(10), time: ms(2), clock: None },
                "?/4 10N 2ms",
            ),
            (Thought { time: ms(50), ..Thought::default() }, "50ms"),
        ];
        for (thought, text) in cases {
            assert_eq!(thought.to_string(), text);
            assert_eq!(text.parse::<Thought>(), Ok(thought), "{text}");
        }
        for bad in ["", "+0.3/1 1ms", "1ms 0.5.5s", "x", "+0.31/ 1ms", "?/ 1ms", "? 1ms", "-1N 1ms"]
        {
            assert!(bad.parse::<Thought>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_bad_record_is_named_with_its_line_and_column() {
        let cases = [
            ("", "1:1: expected `opening`, found end of input"),
            ("a1a2 {1ms}\n", "1:1: expected `opening` and the start of the game, found `a1a2`"),
            ("opening startpos\n", "2:1: expected the `result` line, found end of input"),
            ("opening startpos\na1a2\n", "2:5: expected a comment in braces after the move"),
            (
                "opening startpos\na1a2 {fast}\n",
                "2:6: expected a comment such as {+0.31/12 15234N 98ms 4.9s}, found ``fast``",
            ),
            (
                "opening startpos\nresult 2-0 x\n",
                "2:8: expected a result: 1-0, 0-1 or 1/2-1/2, found `2-0`",
            ),
            ("opening startpos\nresult 1-0\nresult 1-0 x\n", "2:8: expected how the game ended"),
            (
                "opening startpos\nresult 1-0 x\na1a2 {1ms}\n",
                "3:1: expected nothing after the `result` line",
            ),
            (
                "opening startpos\nillegal a1a9\na1a2 {1ms}\n",
                "3:1: expected the `result` line after the illegal move",
            ),
        ];
        for (text, message) in cases {
            let error = text.parse::<Record>().unwrap_err().to_string();
            assert!(error.starts_with(message), "{text:?}: {error}");
        }
    }
}
