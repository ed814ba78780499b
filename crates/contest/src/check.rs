//! The checker: a program's output against arbiter's answer, with testlib's verdicts.
//!
//! ```
//! use arbiter_contest::check::{Ruling, check};
//! use arbiter_contest::duck::{DuckProblem, DuckProfile};
//!
//! let problem = DuckProblem::new(DuckProfile::Mixed, None);
//! let input = "1\n0 1 1 3\n";
//! assert_eq!(check(&problem, input, b"Invalid command\n", None), Ruling::Accepted("1 line".into()));
//! let verdict = check(&problem, input, b"red horse;NA;no;no\n", None);
//! assert_eq!(verdict.exit_code(), 1);
//! assert_eq!(verdict.to_string(), "wrong answer line 1: expected `Invalid command`, found \
//!     `red horse;NA;no;no`; input 2:1: command 1 `0 1 1 3`: Invalid command: horse leg (0,2) \
//!     is occupied by red elephant");
//! assert_eq!(check(&problem, input, b"invalid command\n", None).exit_code(), 2);
//! ```
//!
//! Like testlib's checkers, the output is compared token by token (any whitespace separates
//! tokens); the verdict line starts with testlib's words (`ok`, `wrong answer`, `wrong output
//! format`, `FAIL`), which judges such as Hydro read from the checker's standard error, and the
//! exit status is testlib's: 0 accepted, 1 wrong answer, 2 presentation error, 3 failure.
//!
//! A presentation error is an output whose first differing line does not have the form of any
//! answer line of the game (`Invalid command` or `piece;captured;yes|no;yes|no` for Duck Chess,
//! `Yes` or `No` for chess records, integers for the arena), that is not UTF-8 text or holds a NUL
//! byte, or an output that goes on past [`output_bound`] bytes without the difference's line
//! ending (an endless or binary file). An output that ends early or goes on after the answer is a
//! wrong answer, as in testlib's `wcmp`. Reading stops at the first difference: what follows it is
//! not looked at. A file that cannot be read to that point is a failure ([`Unreadable`]), never
//! the contestant's fault. The answer file, when given, must hold arbiter's answer: a problem
//! whose reference answers disagree with arbiter is a failure of the setup, not of the
//! contestant.

use std::fmt;
use std::io::{self, Read};

use arbiter_scan::Shown;

use crate::compare::{Difference, compare_stream, output_bound};
use crate::count;
use crate::problem::{InputError, Problem};

/// A checker's ruling on an output: testlib's verdict with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ruling {
    /// The output holds arbiter's answer.
    Accepted(String),
    /// The output differs from the answer.
    WrongAnswer(String),
    /// The output differs, and where it does, it is not in the answer's format.
    PresentationError(String),
    /// The input or the answer file cannot be used.
    Failure(Unusable),
}

/// Why a checker cannot judge: the setup is wrong, not the contestant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unusable {
    /// arbiter cannot answer the test's input: malformed, or breaking a guarantee of the
    /// statement.
    #[error("input: {0}")]
    Input(InputError),
    /// The answer file does not hold arbiter's answer: the first difference.
    #[error("the answer file is not arbiter's answer: {0}")]
    Answer(String),
    /// The files given cannot be used (too few, unreadable), as the caller words it.
    #[error("{0}")]
    Files(String),
}

impl Ruling {
    /// testlib's exit status: 0, 1, 2 or 3.
    pub fn exit_code(&self) -> u8 {
        match self {
            Ruling::Accepted(_) => 0,
            Ruling::WrongAnswer(_) => 1,
            Ruling::PresentationError(_) => 2,
            Ruling::Failure(_) => 3,
        }
    }
}

impl fmt::Display for Ruling {
    /// testlib's result line: `ok ...`, `wrong answer ...`, `wrong output format ...`, `FAIL ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruling::Accepted(message) => write!(f, "ok {message}"),
            Ruling::WrongAnswer(message) => write!(f, "wrong answer {message}"),
            Ruling::PresentationError(message) => write!(f, "wrong output format {message}"),
            Ruling::Failure(message) => write!(f, "FAIL {message}"),
        }
    }
}

/// Checks `output` against arbiter's answer to `input`; `answer`, the problem's reference answer
/// file, is checked to hold that same answer.
pub fn check<P: Problem>(problem: &P, input: &str, output: &[u8], answer: Option<&[u8]>) -> Ruling {
    match check_streams(problem, input, output, answer) {
        Ok(ruling) => ruling,
        // Reading a slice cannot fail.
        Err(error) => Ruling::Failure(Unusable::Files(error.to_string())),
    }
}

/// A file the checker could not read to its end: a failure of the machine (an I/O error, no
/// memory), never of the contestant.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// The program's output.
    #[error("OUTPUT: cannot read: {0}")]
    Output(io::Error),
    /// The reference answer.
    #[error("ANSWER: cannot read: {0}")]
    Answer(io::Error),
}

/// [`check`] on streams: each is read only up to its first difference from arbiter's answer, and
/// never past [`output_bound`] bytes, so that an endless or binary file costs little time and
/// constant memory.
pub fn check_streams<P: Problem>(
    problem: &P,
    input: &str,
    output: impl Read,
    answer: Option<impl Read>,
) -> Result<Ruling, Unreadable> {
    let expected = match problem.answer(input) {
        Ok(expected) => expected,
        Err(error) => return Ok(Ruling::Failure(Unusable::Input(error))),
    };
    let bound = output_bound(&expected);
    if let Some(answer) = answer
        && let Some(difference) =
            compare_stream(&expected, answer, bound).map_err(Unreadable::Answer)?
    {
        return Ok(Ruling::Failure(Unusable::Answer(describe(&difference))));
    }
    let Some(difference) = compare_stream(&expected, output, bound).map_err(Unreadable::Output)?
    else {
        return Ok(Ruling::Accepted(count(expected.lines().count(), "lines")));
    };
    let mut message = describe(&difference);
    if difference.expected.is_some()
        && let Ok(explanation) = problem.explain(input, difference.line)
    {
        message.push_str("; input ");
        message.push_str(&explanation.to_string());
    }
    // Bytes that are not text (replaced by U+FFFD) or NUL never make an answer line either; they
    // are named here so that no game's line test has to know of them.
    let malformed = difference.cut.is_some()
        || difference
            .got
            .as_deref()
            .is_some_and(|line| line.contains(['\u{fffd}', '\0']) || !problem.is_answer_line(line));
    Ok(if malformed { Ruling::PresentationError(message) } else { Ruling::WrongAnswer(message) })
}

/// `line N: expected `...`, found `...``.
pub fn describe(difference: &Difference) -> String {
    let expected = match &difference.expected {
        Some(line) => format!("`{line}`"),
        None => "the end of the output".to_owned(),
    };
    let found = match (&difference.got, difference.cut) {
        (Some(line), None) => format!("`{}`", Shown(line)),
        (None, None) => "the end of the output".to_owned(),
        (Some(line), Some(bound)) => {
            format!("`{}`, in an output that goes on past {bound} bytes", Shown(line))
        }
        (None, Some(bound)) => {
            format!("only whitespace, in an output that goes on past {bound} bytes")
        }
    };
    format!("line {}: expected {expected}, found {found}", difference.line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duck::{DuckProblem, DuckProfile};

    const INPUT: &str = "2\n0 3 1 4\n9 4 8 4\n";
    const ANSWER: &[u8] = b"red guard;NA;no;no\nblue captain;NA;no;no\n";

    fn duck() -> DuckProblem {
        DuckProblem::new(DuckProfile::Mixed, None)
    }

    #[test]
    fn verdicts_and_exit_codes() {
        assert_eq!(check(&duck(), INPUT, ANSWER, Some(ANSWER)), Ruling::Accepted("2 lines".into()));
        let wrong = check(&duck(), INPUT, b"red guard;NA;no;no\nInvalid command\n", None);
        assert_eq!(wrong.exit_code(), 1, "{wrong}");
        assert!(wrong.to_string().starts_with(
            "wrong answer line 2: expected `blue captain;NA;no;no`, found `Invalid command`; input 3:1: command 2 `9 4 8 4`: blue captain moves"
        ), "{wrong}");
        let format = check(&duck(), INPUT, b"red guard;NA;no;no\nblue captain NA no no\n", None);
        assert_eq!(format.exit_code(), 2, "{format}");
        let short = check(&duck(), INPUT, b"red guard;NA;no;no\n", None);
        assert_eq!(short.exit_code(), 1, "{short}");
        assert!(short.to_string().contains("found the end of the output"), "{short}");
        let long = check(
            &duck(),
            INPUT,
            b"red guard;NA;no;no\nblue captain;NA;no;no\nInvalid command\n",
            None,
        );
        assert!(
            long.to_string().starts_with(
                "wrong answer line 3: expected the end of the output, found `Invalid command`"
            ),
            "{long}"
        );
    }

    #[test]
    fn bad_inputs_and_answers_are_failures() {
        let bad = check(&duck(), "2\n0 3 1 4\n", ANSWER, None);
        assert_eq!(bad.exit_code(), 3, "{bad}");
        assert!(matches!(bad, Ruling::Failure(Unusable::Input(_))), "{bad}");
        assert!(
            bad.to_string().starts_with("FAIL input: 3:1: expected the source row x1 of command 2"),
            "{bad}"
        );
        let wrong_answer_file =
            check(&duck(), INPUT, ANSWER, Some(b"Invalid command\nInvalid command\n"));
        assert_eq!(wrong_answer_file.exit_code(), 3, "{wrong_answer_file}");
        assert!(matches!(wrong_answer_file, Ruling::Failure(Unusable::Answer(_))));
    }

    #[test]
    fn bytes_that_are_not_text_are_a_presentation_error() {
        let verdict = check(&duck(), INPUT, b"red guard;NA;no;no\n\xff\xfe\n", None);
        assert_eq!(verdict.exit_code(), 2, "{verdict}");
        let verdict = check(&duck(), INPUT, b"red guard;NA;no;no\nblue\0 captain;NA;no;no\n", None);
        assert_eq!(verdict.exit_code(), 2, "{verdict}");
    }

    #[test]
    fn endless_files_are_read_only_to_their_bound() {
        let endless = || io::repeat(0);
        let ruling = check_streams(&duck(), INPUT, endless(), None::<&[u8]>).unwrap();
        assert_eq!(ruling.exit_code(), 2, "{ruling}");
        assert!(ruling.to_string().contains("in an output that goes on past"), "{ruling}");
        // An endless answer file is the setup's failure, whatever the output.
        let ruling = check_streams(&duck(), INPUT, ANSWER, Some(endless())).unwrap();
        assert!(matches!(ruling, Ruling::Failure(Unusable::Answer(_))), "{ruling}");
        // The right answer, then blank lines without end.
        let ruling =
            check_streams(&duck(), INPUT, ANSWER.chain(io::repeat(b'\n')), None::<&[u8]>).unwrap();
        assert_eq!(ruling.exit_code(), 2, "{ruling}");
    }

    #[test]
    fn a_file_that_cannot_be_read_is_a_failure_of_the_machine() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::ErrorKind::OutOfMemory.into())
            }
        }
        let error = check_streams(&duck(), INPUT, Broken, None::<&[u8]>).unwrap_err();
        assert!(matches!(error, Unreadable::Output(_)), "{error}");
        let error = check_streams(&duck(), INPUT, ANSWER, Some(Broken)).unwrap_err();
        assert!(matches!(error, Unreadable::Answer(_)), "{error}");
    }
}
