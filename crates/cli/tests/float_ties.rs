//! The official reference program of the arena against `arbiter arena test`: with the switch
//! `float-ties` it passes every generated case; without it a near-tie makes a case fail, and the
//! explanation says so and names the switch.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The official program built with `g++ -O2` into the target directory, or `None` without g++.
fn official() -> Option<PathBuf> {
    let gxx = Command::new("g++").arg("--version").output().is_ok_and(|o| o.status.success());
    if !gxx {
        let _ = writeln!(std::io::stderr().lock(), "skipped: g++ is not installed");
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("float-ties");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("official");
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../contest/tests/fixtures/arena/official.cpp");
    let status =
        Command::new("g++").args(["-O2", "-o"]).arg(&binary).arg(&source).status().unwrap();
    assert!(status.success(), "g++ failed on {}", source.display());
    Some(binary)
}

#[test]
fn the_official_program_passes_with_float_ties_and_fails_on_a_near_tie_without() {
    let Some(official) = official() else { return };
    let official = official.to_str().unwrap();
    let run = |args: &[&str]| {
        Command::new(ARBITER).args(["arena", "test"]).args(args).arg("--").arg(official).output()
    };
    // The official program builds a table of a million logarithms at each start: a generous
    // time limit keeps a loaded machine from failing a case, and a few hundred cases keep the
    // suite short (docs/contest.md gives the run of thousands).
    let passed = run(&[
        "--rules",
        "official,+float-ties",
        "--cases",
        "400",
        "--seed",
        "7",
        "--time-limit",
        "20000",
    ])
    .unwrap();
    assert_eq!(passed.status.code(), Some(0), "{}{}", text(&passed.stdout), text(&passed.stderr));
    assert!(text(&passed.stdout).starts_with("all 400 cases passed"), "{}", text(&passed.stdout));

    let failed =
        run(&["--profile", "ties", "--cases", "300", "--seed", "1", "--time-limit", "20000"])
            .unwrap();
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stdout));
    let report = text(&failed.stdout) + &text(&failed.stderr);
    assert!(report.contains("turns on a near-tie"), "{report}");
    assert!(report.contains("`--rules official,+float-ties`"), "{report}");
}

/// `check` takes `--rules` too: the official answer of the rule case `eps-neartie` is accepted
/// with `float-ties`, and without it the wrong answer names the switch.
#[test]
fn check_passes_the_rules_and_names_the_switch() {
    let case = concat!(env!("CARGO_MANIFEST_DIR"), "/../arena/tests/fixtures/rules/eps-neartie");
    let (input, official) = (format!("{case}.in"), format!("{case}.ref.out"));
    let check = |rules: &str| {
        Command::new(ARBITER)
            .args(["arena", "check", "--rules", rules, &input, &official])
            .output()
            .unwrap()
    };
    let accepted = check("official,+float-ties");
    assert_eq!(accepted.status.code(), Some(0), "{}", text(&accepted.stderr));
    let rejected = check("official");
    assert_eq!(rejected.status.code(), Some(1));
    let message = text(&rejected.stderr);
    assert!(message.starts_with("wrong answer line 2: expected `1 2`, found `1 1`"), "{message}");
    assert!(
        message.contains("turns on a near-tie") && message.contains("+float-ties"),
        "{message}"
    );
}
