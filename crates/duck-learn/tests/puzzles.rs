//! The shipped puzzles: each one reads back as a puzzle of the game
//! (its solution valid move by move, the solver's first and last, its themes those the line
//! shows), and a sample is checked again by the project's own check at the miner's confirming
//! depth: every solver move the only winning one, the line ending with the captain taken or the
//! material won.

use std::collections::HashSet;

use arbiter_duck_learn::mine::{Criteria, Verifier};
use arbiter_duck_learn::puzzle::{Collection, Puzzle, Theme};
use arbiter_duck_learn::themes;

/// The nodes of the miner's confirming search (`arbiter duck puzzles mine --confirm-nodes`).
const CONFIRM_NODES: u64 = 200_000;

fn shipped() -> Collection {
    Collection::shipped().expect("the shipped collection reads")
}

#[test]
fn every_puzzle_is_a_line_of_the_game_with_its_own_themes() {
    let collection = shipped();
    let mut ids = HashSet::new();
    for puzzle in collection.puzzles() {
        assert!(ids.insert(puzzle.id.clone()), "{} twice", puzzle.id);
        let start = puzzle.position().unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
        assert_eq!(Puzzle::id_of(&start), puzzle.id);
        assert_eq!(puzzle.solution.len() % 2, 1, "{}: the solver moves last", puzzle.id);
        let mut position = start.clone();
        for (index, &mv) in puzzle.solution.iter().enumerate() {
            assert!(position.is_legal(mv), "{}: move {} ({mv}) is not valid", puzzle.id, index + 1);
            assert!(
                position.winner().is_none(),
                "{}: the game ended before move {}",
                puzzle.id,
                index + 1
            );
            let _ = position.make(mv);
        }
        assert_eq!(puzzle.themes, themes::themes(&start, &puzzle.solution), "{}", puzzle.id);
        let capture = puzzle.themes.iter().any(|t| matches!(t, Theme::CaptureIn(_)));
        assert_eq!(capture, position.winner() == Some(start.turn()), "{}", puzzle.id);
        assert!((400..=2800).contains(&puzzle.rating), "{}: rating {}", puzzle.id, puzzle.rating);
    }
}

/// Every `step`-th puzzle, about `count` of them.
fn sample(collection: &Collection, count: usize) -> Vec<&Puzzle> {
    let step = (collection.puzzles().len() / count).max(1);
    collection.puzzles().iter().step_by(step).take(count).collect()
}

#[test]
fn a_sample_passes_the_projects_own_check_again() {
    let collection = shipped();
    let mut verifier = Verifier::new(Criteria { nodes: CONFIRM_NODES, ..Criteria::default() });
    let failed: Vec<String> = sample(&collection, 24)
        .into_iter()
        .filter_map(|puzzle| {
            verifier.check(puzzle).err().map(|why| format!("{}: {why}", puzzle.id))
        })
        .collect();
    assert!(failed.is_empty(), "puzzles failing the check:\n{}", failed.join("\n"));
}
