//! The contestant tools' checker on arbitrary input and output files, for the three games: no
//! panic; the verdict is one of testlib's four; arbiter's own answer, given as the output and as
//! the answer file, is accepted; and the checker's verdict on any output agrees with the token
//! comparison it is built on.

#![no_main]

use arbiter_arena::rules::Rules;
use arbiter_contest::arena::{ArenaProblem, ArenaProfile};
use arbiter_contest::check::{Ruling, check};
use arbiter_contest::chess::{ChessProblem, ChessProfile};
use arbiter_contest::compare::compare;
use arbiter_contest::duck::{DuckProblem, DuckProfile};
use arbiter_contest::problem::Problem;
use libfuzzer_sys::fuzz_target;

/// An arena game of the statement's maximum size takes milliseconds; larger inputs only slow the
/// search down.
const MAX_INPUT: usize = 16 * 1024;

fn check_one<P: Problem>(problem: &P, input: &str, output: &[u8]) {
    let verdict = check(problem, input, output, None);
    assert!(verdict.exit_code() <= 3);
    match problem.answer(input) {
        Ok(answer) => {
            let accepted = check(problem, input, answer.as_bytes(), Some(answer.as_bytes()));
            assert!(matches!(accepted, Ruling::Accepted(_)), "{accepted}");
            let same = compare(&answer, output).is_none();
            assert_eq!(matches!(verdict, Ruling::Accepted(_)), same, "{verdict}");
        }
        Err(_) => assert!(matches!(verdict, Ruling::Failure(_)), "{verdict}"),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some((&game, rest)) = data.split_first() else { return };
    // The input file, then a NUL byte, then the program's output.
    let (input, output) = match rest.iter().position(|&b| b == 0) {
        Some(cut) => (&rest[..cut], &rest[cut + 1..]),
        None => (rest, &[][..]),
    };
    let input = String::from_utf8_lossy(input);
    match game % 4 {
        0 => check_one(&DuckProblem::new(DuckProfile::Mixed, None), &input, output),
        1 => check_one(&ChessProblem::new(ChessProfile::Mixed, None), &input, output),
        2 => {
            let problem = ArenaProblem::new(ArenaProfile::Mixed, None, Rules::official());
            check_one(&problem, &input, output);
        }
        _ => {
            let problem = ArenaProblem::new(ArenaProfile::Mixed, None, Rules::statement());
            check_one(&problem, &input, output);
        }
    }
});
