//! The strict validator of the official input, for problem setters, and the corners of the rules
//! a set of inputs reaches.
//!
//! The judge ([`crate::judge`]) reads any whitespace and judges coordinates off the board as
//! invalid commands. A test file must be stricter: `Q` alone on the first line, then `Q` lines
//! `x1 y1 x2 y2`, one space between numbers, a line feed after each line, nothing else, and the
//! statement's limits: Q ≤ [`MAX_COMMANDS`], 0 ≤ x < [`Square::ROWS`], 0 ≤ y < [`Square::COLS`].
//!
//! ```
//! use arbiter_duck::validate::validate;
//!
//! assert_eq!(validate(b"1\n0 3 1 4\n").unwrap().len(), 1);
//! let error = validate(b"1\n0 3 1 9\n").unwrap_err();
//! assert_eq!(error.to_string(), "2:7: expected y2 of command 1 \u{2264} 8, found 9");
//! ```

use arbiter_scan::{Invalid, Strict};

use crate::judge::Command;
use crate::{Game, Invalid as InvalidMove, Role, Square};

/// The statement's bound on Q, the number of commands.
pub const MAX_COMMANDS: i64 = 1000;

/// Reads `input` strictly and returns its commands, or where it breaks the format or a limit.
pub fn validate(input: &[u8]) -> Result<Vec<Command>, Invalid> {
    let mut reader = Strict::new(input);
    let count = reader.int_in(0, MAX_COMMANDS, "Q")?;
    reader.eoln()?;
    let rows = i64::from(Square::ROWS) - 1;
    let cols = i64::from(Square::COLS) - 1;
    let mut commands = Vec::with_capacity(count as usize);
    for number in 1..=count {
        let mut coordinate = |name: &str, max: i64, last: bool| {
            let value = reader.int_in(0, max, &format!("{name} of command {number}"))?;
            if last { reader.eoln() } else { reader.space() }.map(|()| value)
        };
        let x1 = coordinate("x1", rows, false)?;
        let y1 = coordinate("y1", cols, false)?;
        let x2 = coordinate("x2", rows, false)?;
        let y2 = coordinate("y2", cols, true)?;
        commands.push(Command { from: (x1, y1), to: (x2, y2) });
    }
    reader.eof()?;
    Ok(commands)
}

/// The limits at their extremes and the corners of the rules that [`corners`] looks for, in the
/// order of its answer.
pub const CORNERS: [&str; 23] = [
    "Q = 0",
    "Q = 1000",
    "x = 0",
    "x = 9",
    "y = 0",
    "y = 8",
    "moved: car",
    "moved: horse",
    "moved: elephant",
    "moved: guard",
    "moved: captain",
    "moved: soldier",
    "moved: duck",
    "capture",
    "check",
    "captain captured",
    "commands after the end",
    "invalid: empty source",
    "invalid: enemy piece",
    "invalid: own piece on target",
    "invalid: off the pattern",
    "invalid: blocked",
    "game never ends",
];

/// Which of [`CORNERS`] the valid input `commands` reaches, judged as the official judge does.
pub fn corners(commands: &[Command]) -> [bool; CORNERS.len()] {
    let mut reached = [false; CORNERS.len()];
    let mut mark = |name: &str| {
        if let Some(i) = CORNERS.iter().position(|&corner| corner == name) {
            reached[i] = true;
        }
    };
    if commands.is_empty() {
        mark("Q = 0");
    }
    if commands.len() as i64 == MAX_COMMANDS {
        mark("Q = 1000");
    }
    let mut game = Game::new();
    for command in commands {
        for (x, y) in [command.from, command.to] {
            if x == 0 {
                mark("x = 0");
            }
            if x == i64::from(Square::ROWS) - 1 {
                mark("x = 9");
            }
            if y == 0 {
                mark("y = 0");
            }
            if y == i64::from(Square::COLS) - 1 {
                mark("y = 8");
            }
        }
        match game.play_coords(command.from, command.to) {
            Ok(played) => {
                mark(&format!("moved: {}", played.piece.role));
                if played.captured.is_some() {
                    mark("capture");
                }
                if played.check {
                    mark("check");
                }
                if played.captured.is_some_and(|piece| piece.role == Role::Captain) {
                    mark("captain captured");
                }
            }
            Err(InvalidMove::GameOver { .. }) => mark("commands after the end"),
            Err(InvalidMove::Empty { .. } | InvalidMove::OffBoard { .. }) => {
                mark("invalid: empty source");
            }
            Err(InvalidMove::NotYours { .. }) => mark("invalid: enemy piece"),
            Err(InvalidMove::OwnPiece { .. }) => mark("invalid: own piece on target"),
            Err(InvalidMove::NotInPattern { .. }) => mark("invalid: off the pattern"),
            Err(InvalidMove::Blocked { .. }) => mark("invalid: blocked"),
        }
    }
    if game.winner().is_none() {
        mark("game never ends");
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_reaches_its_corners() {
        let sample = include_bytes!("../tests/fixtures/sample/1.in");
        let reached = corners(&validate(sample).unwrap());
        let named: Vec<&str> =
            CORNERS.iter().zip(reached).filter(|(_, r)| *r).map(|(c, _)| *c).collect();
        assert!(named.contains(&"captain captured"), "{named:?}");
        assert!(named.contains(&"commands after the end"), "{named:?}");
        assert!(!named.contains(&"Q = 1000"), "{named:?}");
    }
}
