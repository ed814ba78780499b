//! Properties of the shrinker: its result still fails, and it is 1-minimal, for failure
//! predicates of every shape (monotone or not) and for each game's shrinking with in-process
//! "solutions" that are wrong on one rule.

use arbiter_arena::rules::Rules;
use arbiter_contest::arena::{ArenaCase, ArenaProblem, ArenaProfile};
use arbiter_contest::chess::{ChessCase, ChessProblem, ChessProfile};
use arbiter_contest::compare::compare;
use arbiter_contest::duck::{DuckCase, DuckProblem, DuckProfile};
use arbiter_contest::problem::Problem;
use arbiter_contest::shrink::{Oracle, ddmin, lower, shortest_prefix};
use arbiter_duck::{Game, Role};
use proptest::prelude::*;

/// A failure predicate in disjunctive normal form over the presence of items: each clause
/// lists items that must be present (`true`) or absent (`false`). Absence makes it non-monotone.
#[derive(Debug, Clone)]
struct Formula(Vec<Vec<(u8, bool)>>);

impl Formula {
    fn holds(&self, items: &[u8]) -> bool {
        self.0
            .iter()
            .any(|clause| clause.iter().all(|&(item, present)| items.contains(&item) == present))
    }
}

fn formula() -> impl Strategy<Value = Formula> {
    prop::collection::vec(prop::collection::vec((0u8..40, prop::bool::weighted(0.8)), 1..10), 1..4)
        .prop_map(Formula)
}

/// The oracle of a failure predicate: the first failing candidate of each batch.
struct Batches<F>(F);

impl<C, F: Fn(&C) -> bool> Oracle<C> for Batches<F> {
    fn first_failing(&mut self, candidates: &[C]) -> Option<usize> {
        candidates.iter().position(|c| (self.0)(c))
    }
}

proptest! {
    #[test]
    fn ddmin_keeps_the_failure_and_is_one_minimal(
        extra in prop::collection::btree_set(0u8..40, 0..40),
        formula in formula(),
    ) {
        // The items: random ones, made to satisfy the first clause.
        let first = &formula.0[0];
        let mut items: Vec<u8> = extra
            .into_iter()
            .chain(first.iter().filter(|l| l.1).map(|l| l.0))
            .filter(|&i| !first.iter().any(|&(item, present)| item == i && !present))
            .collect();
        items.sort_unstable();
        items.dedup();
        prop_assume!(formula.holds(&items));
        let mut oracle = Batches(|c: &Vec<u8>| formula.holds(c));
        let result = ddmin(items.clone(), |c| c.to_vec(), &mut oracle);
        prop_assert!(formula.holds(&result));
        for i in 0..result.len() {
            let mut smaller = result.clone();
            smaller.remove(i);
            prop_assert!(!formula.holds(&smaller), "{:?} without {}", result, result[i]);
        }
        // Its items keep their order.
        prop_assert!(result.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn prefixes_and_values_stop_where_one_less_passes(
        fails in prop::collection::vec(any::<bool>(), 1..80),
    ) {
        // The whole sequence fails; a shorter prefix of k items fails when `fails[k]`.
        let len = fails.len();
        let failing = |k: &usize| *k == len || fails[*k];
        let mut oracle = Batches(failing);
        let k = shortest_prefix(len, |k| k, &mut oracle);
        prop_assert!(failing(&k));
        prop_assert!(k == 0 || !failing(&(k - 1)));
        // A value lowered from `len` stops on a failing value whose predecessor passes.
        let mut oracle = Batches(failing);
        let v = lower(len as u64, 0, |v| v as usize, &mut oracle) as usize;
        prop_assert!(failing(&v));
        prop_assert!(v == 0 || !failing(&(v - 1)));
    }
}

/// A Duck Chess "solution" that never plays a horse: it answers `Invalid command` to every horse
/// move, and leaves the turn unchanged.
fn horseless(input: &str) -> String {
    let mut out = String::new();
    let Ok(commands) = arbiter_duck::judge::Commands::new(input) else { return out };
    let mut game = Game::new();
    for command in commands.flatten() {
        let horse = arbiter_duck::Square::from_coords(command.from.0, command.from.1)
            .and_then(|sq| game.board().piece_at(sq))
            .is_some_and(|p| p.role == Role::Horse);
        if horse {
            out.push_str("Invalid command\n");
            continue;
        }
        match game.play_coords(command.from, command.to) {
            Ok(played) => out.push_str(&format!("{played}\n")),
            Err(_) => out.push_str("Invalid command\n"),
        }
    }
    out
}

fn duck_fails(case: &DuckCase) -> bool {
    let problem = DuckProblem::new(DuckProfile::Mixed, None);
    let mut input = Vec::new();
    problem.write_input(case, &mut input);
    let input = String::from_utf8(input).unwrap();
    let expected = problem.answer(&input).unwrap();
    compare(&expected, horseless(&input).as_bytes()).is_some()
}

/// An arena "solution" that reads the rules one way where the judge reads them another.
fn arena_fails(case: &ArenaCase) -> bool {
    let problem = ArenaProblem::new(ArenaProfile::Mixed, None, Rules::official());
    let mut input = Vec::new();
    problem.write_input(case, &mut input);
    let input = String::from_utf8(input).unwrap();
    let Ok(expected) = problem.answer(&input) else { return false };
    let rules = "official,+hup-alive,+tie-high".parse().unwrap();
    let Ok(got) = ArenaProblem::new(ArenaProfile::Mixed, None, rules).answer(&input) else {
        return false;
    };
    compare(&expected, got.as_bytes()).is_some()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn duck_cases_shrink_to_one_minimal_failures(seed in any::<u64>()) {
        let problem = DuckProblem::new(DuckProfile::Mixed, Some(60));
        let case = problem.generate(seed);
        prop_assume!(duck_fails(&case));
        let mut oracle = Batches(duck_fails);
        let shrunk = problem.shrink(case.clone(), &mut oracle);
        prop_assert!(duck_fails(&shrunk));
        prop_assert!(shrunk.commands.len() <= case.commands.len());
        for i in 0..shrunk.commands.len() {
            let mut smaller = shrunk.clone();
            smaller.commands.remove(i);
            prop_assert!(!duck_fails(&smaller), "removing command {} keeps the failure", i + 1);
        }
    }

    #[test]
    fn arena_cases_shrink_to_one_minimal_failures(seed in any::<u64>()) {
        let problem = ArenaProblem::new(ArenaProfile::Mixed, None, Rules::official());
        let case = problem.generate(seed);
        prop_assume!(arena_fails(&case));
        let mut oracle = Batches(arena_fails);
        let shrunk = problem.shrink(case, &mut oracle);
        prop_assert!(arena_fails(&shrunk));
        for g in 0..shrunk.games.len() {
            let mut fewer_rounds = shrunk.clone();
            fewer_rounds.games[g].rounds -= 1;
            prop_assert!(fewer_rounds.games[g].rounds == 0 || !arena_fails(&fewer_rounds));
            for i in 0..shrunk.games[g].pieces.len() {
                let mut fewer = shrunk.clone();
                fewer.games[g].pieces.remove(i);
                prop_assert!(
                    fewer.games[g].pieces.is_empty() || !arena_fails(&fewer),
                    "piece {}", i + 1
                );
            }
        }
    }

    #[test]
    fn chess_records_shrink_to_their_failing_move(seed in any::<u64>()) {
        use arbiter_chess_record::{Fault, Rule, Verdict, check_record};
        // A "solution" that says Yes when the record's first mistake is a missing `+`.
        let fails = |case: &ChessCase| {
            matches!(check_record(&case.tokens.join(" ")), Verdict::No(m)
                if matches!(m.fault, Fault::Misspelled { rule: Rule::MissingCheck, .. }))
        };
        let problem = ChessProblem::new(ChessProfile::Check, None);
        let case = problem.generate(seed);
        prop_assume!(fails(&case));
        let mut oracle = Batches(fails);
        let shrunk = problem.shrink(case, &mut oracle);
        prop_assert!(fails(&shrunk));
        prop_assert!(!fails(&shrunk.without_last_move()));
        // It ends after a move, as the statement's records do.
        prop_assert!(shrunk.tokens.last().is_some_and(|t| !t.ends_with('.')), "{:?}", shrunk);
    }
}
