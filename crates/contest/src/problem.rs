//! What the contest tools need to know about a game: how to generate its inputs, answer them,
//! explain an answer line, and make a failing input smaller.
//!
//! ```
//! use arbiter_contest::duck::{DuckProblem, DuckProfile};
//! use arbiter_contest::problem::Problem;
//!
//! let problem = DuckProblem::new(DuckProfile::Short, None);
//! let case = problem.generate(1);
//! let mut input = Vec::new();
//! problem.write_input(&case, &mut input);
//! let input = String::from_utf8(input).unwrap();
//! let answer = problem.answer(&input).unwrap();
//! assert_eq!(answer.lines().count(), problem.size(&case));
//! let why = problem.explain(&input, 1).unwrap();
//! assert!(why.what.starts_with("command 1 "));
//! ```

use std::fmt;
use std::io;

use arbiter_scan::Place;

use crate::shrink::Oracle;

/// One of arbiter's games seen as a contest problem.
pub trait Problem: Sync {
    /// A generated input in a form that can be made smaller.
    type Case: Clone + Send + Sync;

    /// The game's name on the command line: `duck`, `chess` or `arena`.
    const NAME: &'static str;

    /// What the size of a case counts, in the plural: `commands`.
    const UNIT: &'static str;

    /// What 1-minimal means for this game, completing "removing ...": e.g. `any one command`.
    const MINIMAL: &'static str;

    /// The case for `seed`, with this problem's profile and size.
    fn generate(&self, seed: u64) -> Self::Case;

    /// Appends the input text of `case` to `out`.
    fn write_input(&self, case: &Self::Case, out: &mut Vec<u8>);

    /// Writes the input text of the case for `seed` to `out` as it is generated, telling
    /// `progress` how many [`Problem::UNIT`]s are done of about how many. A game whose inputs
    /// can be long writes them in constant memory; the others build the case first.
    fn write_generated(
        &self,
        seed: u64,
        out: &mut dyn io::Write,
        progress: &mut dyn FnMut(u64, u64),
    ) -> io::Result<()> {
        let case = self.generate(seed);
        let mut text = Vec::new();
        self.write_input(&case, &mut text);
        let size = self.size(&case) as u64;
        progress(size, size);
        out.write_all(&text)
    }

    /// The size of a case, in [`Problem::UNIT`]s.
    fn size(&self, case: &Self::Case) -> usize;

    /// arbiter's answer to an input text: the official output.
    fn answer(&self, input: &str) -> Result<String, InputError>;

    /// Why line `line` (1-based) of the answer to `input` is what it is.
    fn explain(&self, input: &str, line: usize) -> Result<Explanation, InputError>;

    /// Whether `line` has the form of some line of an answer (whatever its content): a line
    /// that does not is a presentation error rather than a wrong answer.
    fn is_answer_line(&self, line: &str) -> bool;

    /// Makes a failing case smaller while `oracle` says it fails; the result is 1-minimal as
    /// [`Problem::MINIMAL`] says.
    fn shrink(&self, case: Self::Case, oracle: &mut dyn Oracle<Self::Case>) -> Self::Case;
}

/// An input that arbiter cannot answer: malformed, or breaking a guarantee of the statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// A name that is not one of the profiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{name}` (known: {known})")]
pub struct UnknownProfile {
    /// The name given.
    pub name: String,
    /// The known names, comma-separated.
    pub known: String,
}

/// The name of `profile` in a game's table of profiles (name and description per profile).
pub(crate) fn profile_name<P: PartialEq>(
    all: &[(P, &'static str, &'static str)],
    profile: P,
) -> &'static str {
    all.iter().find(|(p, _, _)| *p == profile).map_or("mixed", |(_, name, _)| name)
}

/// The profile called `name` in a game's table of profiles.
pub(crate) fn profile_named<P: Copy>(
    all: &[(P, &'static str, &'static str)],
    name: &str,
) -> Result<P, UnknownProfile> {
    all.iter().find(|(_, n, _)| *n == name).map(|(p, _, _)| *p).ok_or_else(|| UnknownProfile {
        name: name.to_owned(),
        known: all.iter().map(|(_, n, _)| *n).collect::<Vec<_>>().join(", "),
    })
}

/// arbiter's reason for one line of its answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Explanation {
    /// Where the input item explained starts (a command, a token, a game).
    pub place: Option<Place>,
    /// The item, e.g. ``command 3 `0 1 2 2` ``.
    pub what: String,
    /// Why the line is right, in one line.
    pub why: String,
    /// Lines to show before the reason: the board, the events of a round.
    pub context: Vec<String>,
}

impl fmt::Display for Explanation {
    /// `LINE:COL: what: why` (the convention's explanation form, without the file name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(place) = self.place {
            write!(f, "{place}: ")?;
        }
        write!(f, "{}: {}", self.what, self.why)
    }
}

/// Whitespace-separated tokens of `line` joined by single spaces, for matching line forms.
pub(crate) fn normalized(line: &str) -> String {
    line.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}
