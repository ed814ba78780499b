//! `duck test` against real C++ solutions: the two published with the problem, and broken
//! variants of the first, each wrong on one rule. Needs g++; without it the tests say so on
//! standard error and pass.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use arbiter_contest::duck::{DuckCase, DuckProblem, DuckProfile};
use arbiter_contest::problem::Problem;
use arbiter_contest::runner::{self, Program};
use arbiter_contest::stress::{Failure, Judgement, Kind, Settings, TestRun, stress};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/duck").join(name)
}

fn source(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

/// Whether g++ can be run; says so on standard error (past the test harness's capture) if not.
fn have_gxx() -> bool {
    let found = Command::new("g++").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        let _ = writeln!(std::io::stderr().lock(), "skipped: g++ is not installed");
    }
    found
}

/// Compiles `code` once (by content) into the tests' scratch directory.
fn compile(code: &str) -> Program {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    code.hash(&mut hasher);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("duck-solutions");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join(format!("{:016x}", hasher.finish()));
    if !binary.exists() {
        let src = binary.with_extension("cpp");
        std::fs::write(&src, code).unwrap();
        let partial = binary.with_extension("tmp");
        let status = Command::new("g++")
            .args(["-O1", "-w", "-std=c++17", "-o"])
            .arg(&partial)
            .arg(&src)
            .status()
            .unwrap();
        assert!(status.success(), "g++ failed on {}", src.display());
        std::fs::rename(&partial, &binary).unwrap();
    }
    Program::new([binary.into_os_string()]).unwrap()
}

fn settings(cases: u64, seed: u64) -> Settings {
    Settings { cases, seed, time_limit: Duration::from_secs(10), jobs: 2, memory_limit: None }
}

fn test(program: &Program, profile: DuckProfile, cases: u64, seed: u64) -> TestRun<DuckCase> {
    stress(&DuckProblem::new(profile, None), program, &settings(cases, seed), &()).unwrap()
}

/// Runs `program` on `case`: the kind of verdict.
fn kind_of(program: &Program, case: &DuckCase) -> Kind {
    let problem = DuckProblem::new(DuckProfile::Mixed, None);
    let mut input = Vec::new();
    problem.write_input(case, &mut input);
    let expected = problem.answer(std::str::from_utf8(&input).unwrap()).unwrap();
    let mut output = Vec::new();
    let outcome = runner::run(program, &input, Duration::from_secs(10), &mut output).unwrap();
    Judgement::of(&expected, &outcome, &output).kind()
}

/// The shrunk case fails, and removing any one command makes the failure disappear.
fn assert_one_minimal(program: &Program, failure: &Failure<DuckCase>) {
    let kind = failure.judgement.kind();
    assert!(failure.reproduced);
    assert_eq!(kind_of(program, &failure.shrunk), kind);
    for i in 0..failure.shrunk.commands.len() {
        let mut smaller = failure.shrunk.clone();
        smaller.commands.remove(i);
        assert_ne!(
            kind_of(program, &smaller),
            kind,
            "removing command {} keeps the failure",
            i + 1
        );
    }
    assert!(failure.shrunk.commands.len() <= failure.original.commands.len());
}

/// `seed000.cpp` with `old` replaced by `new` (each exactly once).
fn variant(changes: &[(&str, &str)]) -> String {
    let mut code = source("seed000.cpp");
    for (old, new) in changes {
        assert_eq!(code.matches(old).count(), 1, "{old}");
        code = code.replace(old, new);
    }
    code
}

#[test]
fn the_statement_solution_passes() {
    if !have_gxx() {
        return;
    }
    let program = compile(&source("seed000.cpp"));
    let report = test(&program, DuckProfile::Mixed, 1500, 2019);
    assert!(report.failure.is_none(), "{:?}", report.failure.map(|f| f.input));
    assert_eq!(report.cases, 1500);
    let report = test(&program, DuckProfile::Official, 40, 7);
    assert!(report.failure.is_none());
}

#[test]
fn the_editorial_solution_checks_after_a_captain_falls() {
    if !have_gxx() {
        return;
    }
    let program = compile(&source("seed001.cpp"));
    // Games that never end: no difference.
    assert!(test(&program, DuckProfile::Long, 30, 1).failure.is_none());
    // A captain captured while the other is attacked: `yes;yes` where the answer is `no;yes`.
    let failure = test(&program, DuckProfile::Mixed, 1500, 2019).failure.unwrap();
    let Judgement::WrongAnswer(difference) = &failure.judgement else { panic!("{failure:?}") };
    assert!(difference.expected.as_deref().unwrap().ends_with(";no;yes"), "{difference:?}");
    assert!(difference.got.as_deref().unwrap().ends_with(";yes;yes"), "{difference:?}");
    assert_eq!(difference.line, failure.shrunk.commands.len());
    assert_one_minimal(&program, &failure);
}

/// A variant that is wrong on one rule: caught, shrunk to a 1-minimal case, and explained in
/// words that name the rule.
fn caught(name: &str, code: &str, words: &str) {
    let program = compile(code);
    let report = test(&program, DuckProfile::Mixed, 3000, 11);
    let failure = report.failure.unwrap_or_else(|| panic!("{name}: not caught"));
    assert_one_minimal(&program, &failure);
    let explanation = failure.explanation.as_ref().map(|e| e.why.as_str()).unwrap_or_default();
    assert!(explanation.contains(words), "{name}: {explanation}\n{}", failure.input);
}

#[test]
fn broken_variants_are_caught_and_shrunk() {
    if !have_gxx() {
        return;
    }
    caught(
        "ignores the horse leg",
        &variant(&[(
            "\t{{0,1},{1,0},{0,1},{-1,0},{0,-1},{1,0},{0,-1},{-1,0}},//绊马腿",
            "\t{{0}},//绊马腿",
        )]),
        "horse",
    );
    caught(
        "ignores the elephant eye",
        &variant(&[("\t{{1,1},{-1,1},{1,-1},{-1,-1}},//绊象腿", "\t{{0}},//绊象腿")]),
        "elephant",
    );
    caught("forgets the duck's second point", &source("forgets-duck-point.cpp"), "duck");
    caught(
        "looks for check only on behalf of the side that moved",
        &variant(&[
            ("bool check(){int kng[2][2];", "int mover;bool check(){int kng[2][2];"),
            ("For(p,0,1)For(i,0,9)For(j,0,8)", "For(p,0,1)if(p!=mover)For(i,0,9)For(j,0,8)"),
            ("else if(check())", "else if(mover=t2,check())"),
        ]),
        "check, since",
    );
    caught(
        "accepts moves after the end",
        &variant(&[
            ("if(fl||t2==(p&1)", "if(t2==(p&1)"),
            ("bool check(){int kng[2][2];", "bool check(){int kng[2][2]={};"),
        ]),
        "the game is over",
    );
}

#[test]
fn the_readme_example_is_one_line_away_from_the_statement_solution() {
    let forgets = variant(&[(
        "if(!mp[sx+err[7][i][0]][sy+err[7][i][1]]&&!mp[sx+ducke[i][0]][sy+ducke[i][1]])return 1;",
        "if(!mp[sx+err[7][i][0]][sy+err[7][i][1]])return 1;",
    )]);
    assert_eq!(forgets, source("forgets-duck-point.cpp"));
}
