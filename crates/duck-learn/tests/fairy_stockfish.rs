//! The shipped puzzles checked by another engine: fairy-stockfish 11.1 searches each solver
//! position of a sample of them to a fixed depth with two lines (`support/fairy.rs` says what
//! it must find).
//!
//! Where fairy-stockfish is not installed (`apt-get install fairy-stockfish`), the test says so
//! on stderr and passes.

#[path = "support/fairy.rs"]
mod fairy;

use std::io::{self, Write};
use std::path::Path;

use arbiter_duck_learn::puzzle::Collection;
use fairy::{Engine, FAIRY_STOCKFISH, judge};

/// The puzzles checked: about this many, spread over the collection.
const SAMPLE: usize = 100;

#[test]
fn fairy_stockfish_finds_each_solver_move_the_only_winning_one() {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        // Written straight to stderr: the test harness captures `eprintln!` of passing tests.
        let _ = writeln!(
            io::stderr(),
            "SKIPPED fairy_stockfish_finds_each_solver_move_the_only_winning_one: \
             {FAIRY_STOCKFISH} not found (apt-get install fairy-stockfish)"
        );
        return;
    }
    let collection = Collection::shipped().expect("the shipped collection reads");
    let step = (collection.puzzles().len() / SAMPLE).max(1);
    let mut engine = Engine::start();
    let mut checked = 0;
    let wrong: Vec<String> = collection
        .puzzles()
        .iter()
        .step_by(step)
        .take(SAMPLE)
        .filter_map(|puzzle| {
            checked += 1;
            judge(&mut engine, puzzle).map(|why| format!("{}: {why}", puzzle.id))
        })
        .collect();
    assert!(checked > 0);
    assert!(wrong.is_empty(), "{} of {checked} puzzles:\n{}", wrong.len(), wrong.join("\n"));
}
