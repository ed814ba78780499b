//! Duck Chess (鸭棋) as a contest problem: inputs of move commands, the official judge's answer,
//! the reason for each answer line, and shrinking by commands.
//!
//! ```
//! use arbiter_contest::duck::{DuckProblem, DuckProfile};
//! use arbiter_contest::problem::Problem;
//!
//! let problem = DuckProblem::new(DuckProfile::Blocked, Some(30));
//! let case = problem.generate(5);
//! assert!(case.commands.len() <= 30);
//! assert_eq!(case, problem.generate(5));
//! let why = problem.explain("1\n0 1 1 3\n", 1).unwrap();
//! assert_eq!(why.to_string(), "2:1: command 1 `0 1 1 3`: Invalid command: horse leg (0,2) is occupied by red elephant");
//! ```

mod explain;
mod generate;

use std::fmt;
use std::io::{self, Write as _};
use std::str::FromStr;

use arbiter_duck::judge::{self, JudgeError};

use crate::problem::{
    Explanation, InputError, Problem, UnknownProfile, normalized, profile_name, profile_named,
};
use crate::setup::Setup;
use crate::shrink::{Oracle, ddmin};

pub use generate::{generate, generate_each, known_count};

/// One command as written in the input: `x1 y1 x2 y2`, possibly off the board or beyond any
/// machine integer (values past `i64` are read by the judge as its extremes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Command(pub [i128; 4]);

impl Command {
    /// The source as the judge reads it.
    pub fn from(self) -> (i64, i64) {
        (saturate(self.0[0]), saturate(self.0[1]))
    }

    /// The destination as the judge reads it.
    pub fn to(self) -> (i64, i64) {
        (saturate(self.0[2]), saturate(self.0[3]))
    }
}

/// How the judge's reader takes a number beyond `i64`: as the extreme of its sign.
fn saturate(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x1, y1, x2, y2] = self.0;
        write!(f, "{x1} {y1} {x2} {y2}")
    }
}

/// A Duck Chess input: its commands (Q is their number).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DuckCase {
    /// The commands, in order.
    pub commands: Vec<Command>,
}

/// Which corners of the rules the generated inputs aim at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DuckProfile {
    /// Each input drawn from one of the profiles below, except `off-board`.
    Mixed,
    /// Short aggressive games that end early with a captured captain, then commands after the end.
    Short,
    /// Checks given by every kind of piece, by either side, including checks left unanswered.
    Checks,
    /// Captains walking out towards each other, checking and capturing each other.
    Captains,
    /// Moves blocked by a horse leg, an elephant eye, either duck point or a piece in a car's path,
    /// and attacks on a captain blocked the same way.
    Blocked,
    /// Invalid commands of every kind: empty and enemy sources, own pieces on the target, moves
    /// outside the piece's pattern.
    Invalid,
    /// The official data's shape: Q = 1000, about three commands in four random squares.
    Official,
    /// Q = 1000 valid moves and a few random commands in one game that never ends.
    Long,
    /// Coordinates off the board (negative, 10 and 9 and beyond, past 32 and 64 bits). The
    /// statement guarantees coordinates on the board: use this profile to test robustness only.
    OffBoard,
}

impl DuckProfile {
    /// Every profile with its name and a one-line description, for help texts.
    pub const ALL: [(DuckProfile, &'static str, &'static str); 9] = [
        (
            DuckProfile::Mixed,
            "mixed",
            "each input from one of the profiles below except off-board (default)",
        ),
        (
            DuckProfile::Short,
            "short",
            "short aggressive games that end early, then commands after the end",
        ),
        (
            DuckProfile::Checks,
            "checks",
            "checks by every kind of piece, by either side, left unanswered too",
        ),
        (
            DuckProfile::Captains,
            "captains",
            "captains walking out, checking and capturing each other",
        ),
        (
            DuckProfile::Blocked,
            "blocked",
            "moves and attacks blocked by a leg, an eye, a duck point or a car's path",
        ),
        (
            DuckProfile::Invalid,
            "invalid",
            "empty and enemy sources, own pieces on the target, moves off the pattern",
        ),
        (
            DuckProfile::Official,
            "official",
            "Q = 1000, three commands in four random squares, like the official data",
        ),
        (DuckProfile::Long, "long", "Q = 1000 in one game that never ends"),
        (
            DuckProfile::OffBoard,
            "off-board",
            "coordinates off the board and past 32/64 bits (beyond the statement)",
        ),
    ];

    /// The profile's name.
    pub fn name(self) -> &'static str {
        profile_name(&DuckProfile::ALL, self)
    }
}

impl FromStr for DuckProfile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<DuckProfile, UnknownProfile> {
        profile_named(&DuckProfile::ALL, name)
    }
}

impl fmt::Display for DuckProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Duck Chess for the contest tools: a profile and, optionally, the number of commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuckProblem {
    profile: DuckProfile,
    size: Option<usize>,
}

impl DuckProblem {
    /// Inputs of `profile`; `size` sets Q (for profiles whose games end, the most commands).
    pub fn new(profile: DuckProfile, size: Option<usize>) -> DuckProblem {
        DuckProblem { profile, size }
    }
}

/// The largest Q the contest tools generate: a hundred times the official data's Q = 1000.
/// Generating that many takes about a second, and `test` holds each case with its input, answer
/// and output (a few tens of MB at most per job); a larger Q tests nothing the statement asks
/// for.
pub const MAX_COMMANDS: usize = 100_000;

/// Q as `--size` gives it: at most [`MAX_COMMANDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuckSize(pub usize);

/// A `--size` that is not a number of commands from 0 to [`MAX_COMMANDS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a number of commands from 0 to {MAX_COMMANDS} (a hundred times the official Q)"
)]
pub struct ParseSizeError(String);

impl FromStr for DuckSize {
    type Err = ParseSizeError;

    fn from_str(text: &str) -> Result<DuckSize, ParseSizeError> {
        match text.parse() {
            Ok(q) if q <= MAX_COMMANDS => Ok(DuckSize(q)),
            _ => Err(ParseSizeError(text.to_owned())),
        }
    }
}

impl fmt::Display for DuckSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Setup for DuckProblem {
    type Profile = DuckProfile;
    type Size = DuckSize;
    type Options = ();

    const SIZE_NAME: &'static str = "Q";
    const SIZE_HELP: &'static str = "Number of commands Q, at most 100000 (the most commands for profiles whose games end) [default: per profile]";
    const PROFILES: &'static [(DuckProfile, &'static str, &'static str)] = &DuckProfile::ALL;

    fn choose(profile: DuckProfile, size: Option<DuckSize>, _: &()) -> DuckProblem {
        DuckProblem::new(profile, size.map(|DuckSize(q)| q))
    }
}

impl Problem for DuckProblem {
    type Case = DuckCase;

    const NAME: &'static str = "duck";
    const UNIT: &'static str = "commands";
    const MINIMAL: &'static str = "any one command";

    fn generate(&self, seed: u64) -> DuckCase {
        DuckCase { commands: generate(self.profile, self.size, seed) }
    }

    fn write_input(&self, case: &DuckCase, out: &mut Vec<u8>) {
        let _ = writeln!(out, "{}", case.commands.len());
        for command in &case.commands {
            let _ = writeln!(out, "{command}");
        }
    }

    fn size(&self, case: &DuckCase) -> usize {
        case.commands.len()
    }

    /// Q comes first in the input: where the profile fixes it (`official`, `long`, the long
    /// inputs), the commands are written as they are made; otherwise a first pass over the same
    /// seed counts them (such games end, so their inputs are short).
    fn write_generated(
        &self,
        seed: u64,
        out: &mut dyn io::Write,
        progress: &mut dyn FnMut(u64, u64),
    ) -> io::Result<()> {
        let q = match known_count(self.profile, self.size, seed) {
            Some(q) => q as u64,
            None => {
                let mut q = 0u64;
                generate_each(self.profile, self.size, seed, &mut |_| q += 1);
                q
            }
        };
        writeln!(out, "{q}")?;
        let (mut written, mut failed) = (0u64, None);
        generate_each(self.profile, self.size, seed, &mut |command| {
            if failed.is_none() {
                written += 1;
                if let Err(error) = writeln!(out, "{command}") {
                    failed = Some(error);
                }
                if written.is_multiple_of(1024) {
                    progress(written, q);
                }
            }
        });
        progress(q, q);
        failed.map_or(Ok(()), Err)
    }

    fn answer(&self, input: &str) -> Result<String, InputError> {
        let mut out = Vec::with_capacity(input.len() * 3);
        match judge::run(input, &mut out) {
            Ok(_) => Ok(String::from_utf8_lossy(&out).into_owned()),
            Err(JudgeError::Input(error)) => Err(InputError(error.to_string())),
            Err(JudgeError::Output(error)) => Err(InputError(error.to_string())),
        }
    }

    fn explain(&self, input: &str, line: usize) -> Result<Explanation, InputError> {
        explain::explain(input, line)
    }

    fn is_answer_line(&self, line: &str) -> bool {
        let line = normalized(line);
        if line == "Invalid command" {
            return true;
        }
        let fields: Vec<&str> = line.split(';').collect();
        let piece = |text: &str| {
            let mut words = text.split(' ');
            matches!(
                (words.next(), words.next(), words.next()),
                (Some("red" | "blue"), Some(role), None)
                    if arbiter_duck::Role::ALL.iter().any(|r| r.name() == role)
            )
        };
        matches!(fields[..], [moved, captured, check, over]
            if piece(moved) && (captured == "NA" || piece(captured))
                && matches!(check, "yes" | "no") && matches!(over, "yes" | "no"))
    }

    fn shrink(&self, case: DuckCase, oracle: &mut dyn Oracle<DuckCase>) -> DuckCase {
        let commands = ddmin(case.commands, |c| DuckCase { commands: c.to_vec() }, oracle);
        DuckCase { commands }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_inputs_are_written_as_they_are_made() {
        use std::cell::Cell;
        use std::rc::Rc;
        /// Counts the lines written so far.
        struct Lines(Rc<Cell<u64>>);
        impl io::Write for Lines {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                self.0.set(self.0.get() + lines);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let lines = Rc::new(Cell::new(0));
        let mut out = Lines(Rc::clone(&lines));
        let problem = DuckProblem::new(DuckProfile::Long, Some(5000));
        let mut reports = 0;
        problem
            .write_generated(1, &mut out, &mut |done, total| {
                assert_eq!(total, 5000);
                // Q, then every command made so far, are out before the next is made.
                assert_eq!(lines.get(), done + 1);
                reports += 1;
            })
            .unwrap();
        assert!(reports >= 4, "{reports}");
        // The same text as the case built in memory.
        let (mut streamed, mut built) = (Vec::new(), Vec::new());
        problem.write_generated(1, &mut streamed, &mut |_, _| {}).unwrap();
        problem.write_input(&problem.generate(1), &mut built);
        assert!(streamed == built);
        for profile in [DuckProfile::Mixed, DuckProfile::Short, DuckProfile::Invalid] {
            let problem = DuckProblem::new(profile, Some(200));
            let (mut streamed, mut built) = (Vec::new(), Vec::new());
            problem.write_generated(7, &mut streamed, &mut |_, _| {}).unwrap();
            problem.write_input(&problem.generate(7), &mut built);
            assert!(streamed == built, "{profile}");
        }
    }

    #[test]
    fn sizes_have_a_bound() {
        assert_eq!("100000".parse::<DuckSize>(), Ok(DuckSize(MAX_COMMANDS)));
        assert!("100001".parse::<DuckSize>().is_err());
        assert!("18446744073709551615".parse::<DuckSize>().is_err());
        assert!("-1".parse::<DuckSize>().is_err());
    }

    #[test]
    fn answer_lines_have_the_official_forms() {
        let problem = DuckProblem::new(DuckProfile::Mixed, None);
        for line in ["Invalid command", "red horse;NA;no;no", " blue  captain;red duck;yes;yes "] {
            assert!(problem.is_answer_line(line), "{line}");
        }
        for line in
            ["Invalid", "red horse;NA;no", "green horse;NA;no;no", "red horse;NA;maybe;no", ""]
        {
            assert!(!problem.is_answer_line(line), "{line}");
        }
    }

    #[test]
    fn profiles_round_trip_by_name() {
        for (profile, name, _) in DuckProfile::ALL {
            assert_eq!(name.parse::<DuckProfile>().unwrap(), profile);
            assert_eq!(profile.to_string(), name);
        }
        assert!("nope".parse::<DuckProfile>().unwrap_err().to_string().contains("off-board"));
    }

    #[test]
    fn huge_coordinates_are_written_as_given() {
        let case = DuckCase { commands: vec![Command([-1, 0, 99_999_999_999_999_999_999, 4])] };
        let mut text = Vec::new();
        DuckProblem::new(DuckProfile::OffBoard, None).write_input(&case, &mut text);
        assert_eq!(text, b"1\n-1 0 99999999999999999999 4\n");
        assert_eq!(case.commands[0].to(), (i64::MAX, 4));
    }
}
