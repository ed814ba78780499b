//! Contestant tools for arbiter's three games: random inputs that reach every rule corner, a
//! stress tester that runs a program on them, shrinks the first failing input and explains the
//! right answer, and a checker with testlib's interface.
//!
//! ```
//! use arbiter_contest::check::{Ruling, check};
//! use arbiter_contest::duck::{DuckProblem, DuckProfile};
//!
//! let problem = DuckProblem::new(DuckProfile::Mixed, None);
//! let input = "2\n0 3 1 4\n0 1 2 2\n";
//! let verdict = check(&problem, input, b"red guard;NA;no;no\nblue horse;NA;no;no\n", None);
//! let Ruling::WrongAnswer(message) = verdict else { panic!("{verdict:?}") };
//! assert!(message.starts_with("line 2: expected `Invalid command`, found `blue horse;NA;no;no`"));
//! ```
//!
//! Modules, one concept each: [`rng`] (seeded draws), [`problem`] (what a game provides),
//! [`setup`] (what a contestant chooses of a game's inputs),
//! [`duck`], [`chess`] and [`arena`] (the three games: generators with profiles, explanations,
//! shrinking), [`runner`] (running a program within limits, with `orphans` killing what it leaves behind), [`compare`] (token comparison),
//! [`shrink`] (delta debugging), [`stress`] (the test loop), [`check`] (the checker), [`package`]
//! (problem packages for judge systems).
//!
//! Rules are never written here: answers come from the judges of the rule crates, and every
//! explanation is built from what those crates return.

#![warn(missing_docs)]

pub mod arena;
pub mod check;
pub mod chess;
pub mod compare;
pub mod duck;
mod orphans;
pub mod package;
pub mod problem;
pub mod rng;
pub mod runner;
pub mod setup;
pub mod shrink;
pub mod stress;

/// `n` followed by `unit`, without the plural `s` when `n` is 1: `1 command`, `3 commands`.
pub fn count(n: usize, unit: &str) -> String {
    match (n, unit.strip_suffix('s')) {
        (1, Some(one)) => format!("1 {one}"),
        _ => format!("{n} {unit}"),
    }
}
