//! Problem packages: the same bytes on every build, every test valid and answered by arbiter, a
//! name for every file that says what it covers, the solutions tagged and each wrong one a
//! change of the accepted one.

use arbiter_contest::arena::ArenaProblem;
use arbiter_contest::chess::ChessProblem;
use arbiter_contest::duck::DuckProblem;
use arbiter_contest::package::contents::{self, Origin};
use arbiter_contest::package::select::slug;
use arbiter_contest::package::{Code, Format, Packaged, Verdict, build};

/// The checks of this file for game `G`.
fn check_game<G: Packaged>() {
    for format in [Format::Kattis, Format::Polygon] {
        let first = build::<G>(format);
        let second = build::<G>(format);
        assert_eq!(first, second, "{} {format}: two builds differ", G::NAME);
        assert!(first.size().files > 10, "{} {format}", G::NAME);
    }
    let contents = contents::gather::<G>();
    let answerer = G::for_check(&G::options());
    assert!(!contents.samples.is_empty());
    assert!(contents.secret.len() >= 15, "{}: {} secret tests", G::NAME, contents.secret.len());
    for test in contents.samples.iter().chain(&contents.secret) {
        assert!(G::corners(test.input.as_bytes()).is_ok(), "{}: {} invalid", G::NAME, test.name);
        assert_eq!(test.answer, answerer.answer(&test.input).unwrap(), "{}", test.name);
        assert!(G::usable(&test.input) || matches!(test.origin, Origin::Official(_)));
    }
    // Generated tests are named for what they reach, and the command recorded prints them.
    let generated: Vec<_> = contents
        .secret
        .iter()
        .filter_map(|test| match &test.origin {
            Origin::Generated(args) => Some((test, args)),
            _ => None,
        })
        .collect();
    assert!(generated.len() >= 10, "{}", G::NAME);
    for (test, args) in &generated {
        assert!(test.name.contains(args.split(' ').nth(1).unwrap()), "{}: {args}", test.name);
        if let Some(&corner) = test.new_corners.first() {
            assert!(test.name.ends_with(&slug(corner)), "{}", test.name);
        }
    }
    let seeds = contents.seeds();
    assert_eq!(seeds.lines().count(), generated.len());
    // Every corner but those no valid input of a profile reaches is covered.
    let missed: Vec<&str> =
        contents.coverage.iter().filter(|(_, first)| first.is_none()).map(|(n, _)| *n).collect();
    assert!(missed.len() <= 1, "{}: {missed:?}", G::NAME);
    let verdicts: Vec<Verdict> = contents.solutions.iter().map(|s| s.verdict).collect();
    assert_eq!(verdicts.iter().filter(|v| **v == Verdict::Accepted).count(), 1);
    assert!(verdicts.iter().filter(|v| **v == Verdict::WrongAnswer).count() >= 2);
}

#[test]
fn duck_package() {
    check_game::<DuckProblem>();
}

#[test]
fn chess_package() {
    check_game::<ChessProblem>();
}

#[test]
fn arena_package() {
    check_game::<ArenaProblem>();
}

/// Each wrong C++ solution is the accepted one with one change (a few lines at most), after a
/// comment naming the rule it breaks.
#[test]
fn wrong_solutions_differ_from_the_accepted_one_in_one_place() {
    for solutions in [DuckProblem::solutions(), ArenaProblem::solutions()] {
        let Code::Cpp(accepted) = &solutions[0].code else { panic!("C++") };
        assert_eq!(solutions[0].verdict, Verdict::Accepted);
        for wrong in &solutions[1..] {
            let Code::Cpp(code) = &wrong.code else { panic!("C++") };
            let (comment, body) = code.split_once("\n// The ").unwrap();
            assert!(comment.starts_with("// Wrong answer on purpose: "), "{}", wrong.name);
            let body = body.split_once('\n').unwrap().1;
            let old: Vec<&str> = accepted.lines().collect();
            let new: Vec<&str> = body.lines().collect();
            let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
            let suffix = old.iter().rev().zip(new.iter().rev()).take_while(|(a, b)| a == b).count();
            let changed = old.len().max(new.len()) - prefix - suffix;
            assert!(changed <= 2, "{}: {changed} lines changed", wrong.name);
            assert_ne!(body, accepted.as_str(), "{}", wrong.name);
        }
    }
}
