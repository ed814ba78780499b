//! End-to-end tests of `arbiter <game> gen|test|check`: determinism, verdicts and exit statuses,
//! `--save`, testlib's checker interface, and the worked example of `docs/contest.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn arbiter(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(ARBITER)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("contest-cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn gen_is_deterministic_and_judged_without_error() {
    let profiles: [(&str, &[&str]); 3] = [
        (
            "duck",
            &[
                "mixed",
                "short",
                "checks",
                "captains",
                "blocked",
                "invalid",
                "official",
                "long",
                "off-board",
            ],
        ),
        (
            "chess",
            &[
                "mixed",
                "correct",
                "capture",
                "check",
                "disambiguation",
                "pinned",
                "promotion",
                "castling",
                "en-passant",
                "after-end",
                "numbers",
                "beyond",
            ],
        ),
        (
            "arena",
            &["mixed", "small", "skills", "crowded", "ties", "knockback", "backward", "respawn"],
        ),
    ];
    for (game, profiles) in profiles {
        for profile in profiles {
            let first = arbiter(&[game, "gen", "--profile", profile, "--seed", "7"], b"");
            assert_eq!(first.status.code(), Some(0), "{game} {profile}: {}", text(&first.stderr));
            assert!(first.stderr.is_empty(), "{game} {profile}");
            let again = arbiter(&[game, "gen", "--profile", profile, "--seed", "7"], b"");
            assert_eq!(first.stdout, again.stdout, "{game} {profile}");
            let other = arbiter(&[game, "gen", "--profile", profile, "--seed", "8"], b"");
            assert_ne!(first.stdout, other.stdout, "{game} {profile}");
            let judged = arbiter(&[game], &first.stdout);
            assert_eq!(judged.status.code(), Some(0), "{game} {profile}");
            assert!(judged.stderr.is_empty(), "{game} {profile}: {}", text(&judged.stderr));
        }
    }
    // Without a seed, one is drawn and said.
    let drawn = arbiter(&["duck", "gen", "--profile", "short"], b"");
    assert!(text(&drawn.stderr).starts_with("seed "));
}

#[test]
fn gen_sizes_and_rules() {
    let out = arbiter(&["duck", "gen", "--profile", "long", "--size", "5", "--seed", "1"], b"");
    assert_eq!(text(&out.stdout).lines().count(), 6);
    let out = arbiter(&["arena", "gen", "--size", "2,3,4,5,6", "--seed", "1"], b"");
    assert!(text(&out.stdout).starts_with("2\n3 4 5 6\n"), "{}", text(&out.stdout));
    let out = arbiter(&["arena", "gen", "--size", "2,3,4", "--seed", "1"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = arbiter(&["arena", "gen", "--rules", "statement,+nope"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown rule switch `nope`"));
    let out = arbiter(&["chess", "gen", "--profile", "nope"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("pinned"), "{}", text(&out.stderr));
}

#[test]
fn test_passes_a_correct_program() {
    for game in ["duck", "chess", "arena"] {
        let out =
            arbiter(&[game, "test", "--cases", "40", "--seed", "3", "--", ARBITER, game], b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{game}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).starts_with("all 40 cases passed (seed 3, profile mixed"),
            "{}",
            text(&out.stdout)
        );
    }
    let out = arbiter(
        &["duck", "test", "--cases", "5", "--seed", "3", "--json", "--", ARBITER, "duck"],
        b"",
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = serde_json::json!({
        "game": "duck", "seed": 3, "profile": "mixed", "cases": 5, "passed": true, "failure": null
    });
    assert_eq!(report, expected);
}

#[test]
fn test_catches_a_wrong_reading_and_saves_the_case() {
    let dir = scratch("save");
    let save = dir.join("failure");
    let out = arbiter(
        &[
            "arena",
            "test",
            "--profile",
            "ties",
            "--seed",
            "1",
            "--save",
            save.to_str().unwrap(),
            "--",
            ARBITER,
            "arena",
            "--rules",
            "official,+tie-high",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.starts_with("case 1 of 1000 failed: wrong answer\n"), "{report}");
    assert!(
        report.contains(
            "removing any one piece or the last round of any game makes the failure disappear"
        ),
        "{report}"
    );
    assert!(report.contains(" differs:\n  expected: "), "{report}");
    let input = std::fs::read(save.join("failing.in")).unwrap();
    let expected = std::fs::read(save.join("expected.ans")).unwrap();
    let got = std::fs::read(save.join("got.out")).unwrap();
    assert_eq!(arbiter(&["arena"], &input).stdout, expected);
    assert_eq!(arbiter(&["arena", "--rules", "official,+tie-high"], &input).stdout, got);
    assert_ne!(expected, got);
    // The explanation names the saved file.
    assert!(report.contains(&format!("{}:", save.join("failing.in").display())), "{report}");
    // The same as JSON.
    let out = arbiter(
        &[
            "arena",
            "test",
            "--profile",
            "ties",
            "--seed",
            "1",
            "--json",
            "--",
            ARBITER,
            "arena",
            "--rules",
            "official,+tie-high",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["passed"], false);
    assert_eq!(report["failure"]["verdict"], "wrong answer");
    assert_eq!(report["failure"]["input"].as_str().map(str::as_bytes), Some(&input[..]));
    assert!(report["failure"]["explanation"]["why"].is_string());
}

/// The `gen` command a report gives prints the failing case as it was first run, `--size` and
/// `--rules` included.
#[test]
fn the_reported_gen_command_prints_the_case() {
    let dir = scratch("regenerate");
    let seen = dir.join("seen.in");
    // Every run fails, and appends its input: with one job, the first input is the case's own.
    let script = format!("cat >> '{}'; exit 1", seen.display());
    for choice in [
        &["duck", "--profile", "long", "--size", "7"][..],
        &["chess", "--profile", "correct", "--size", "20"],
        &["arena", "--profile", "small", "--size", "1,3,3,2,3", "--rules", "statement"],
    ] {
        let _ = std::fs::remove_file(&seen);
        let mut args = vec![choice[0], "test"];
        args.extend(&choice[1..]);
        args.extend(["--cases", "1", "--jobs", "1", "--seed", "5", "--", "sh", "-c", &script]);
        let out = arbiter(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let report = text(&out.stdout);
        let start = report.find("`arbiter ").expect("a gen command") + "`arbiter ".len();
        let command = &report[start..start + report[start..].find('`').unwrap()];
        let generated = arbiter(&command.split(' ').collect::<Vec<_>>(), b"");
        assert_eq!(generated.status.code(), Some(0), "{command}: {}", text(&generated.stderr));
        let first = std::fs::read(&seen).unwrap();
        assert!(!generated.stdout.is_empty());
        assert!(first.starts_with(&generated.stdout), "{command}");
    }
}

#[test]
fn time_limits_and_runtime_errors() {
    let out = arbiter(
        &["duck", "test", "--time-limit", "200", "--cases", "4", "--", "sh", "-c", "sleep 5"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(report.starts_with("case 1 of 4 failed: time limit exceeded"), "{report}");
    // Nothing is needed to time out: the empty input.
    assert!(report.contains("input (0 commands):\n  0\n"), "{report}");
    let out = arbiter(
        &["chess", "test", "--cases", "4", "--", "sh", "-c", "echo broken >&2; exit 3"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(report.contains("runtime error"), "{report}");
    assert!(report.contains("the program exited with status 3"), "{report}");
    assert!(report.contains("its standard error:\n  broken\n"), "{report}");
    let out = arbiter(&["duck", "test", "--cases", "4", "--", "sh", "-c", "kill -SEGV $$"], b"");
    assert!(text(&out.stdout).contains("killed by signal 11 (SIGSEGV)"), "{}", text(&out.stdout));
}

#[test]
fn programs_that_cannot_start_are_usage_errors() {
    let out = arbiter(&["duck", "test", "--", "/no/such/program"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`/no/such/program` is not an executable file"),
        "{}",
        text(&out.stderr)
    );
    let out = arbiter(&["duck", "test", "--", "no-such-program-anywhere"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = arbiter(&["duck", "test"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_speaks_testlib() {
    let dir = scratch("check");
    let write = |name: &str, content: &str| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let input = write("1.in", "2\n0 3 1 4\n0 1 1 3\n");
    let answer = write("1.ans", "red guard;NA;no;no\nInvalid command\n");
    let right = write("right.out", "red guard;NA;no;no Invalid command");
    let wrong = write("wrong.out", "red guard;NA;no;no\nblue horse;NA;no;no\n");
    let format = write("format.out", "red guard;NA;no;no\nblue horse\n");
    let bad_input = write("bad.in", "2\n0 3 1 4\n");
    let cases = [
        (vec![&input, &right, &answer], 0, "ok 2 lines"),
        (vec![&input, &right], 0, "ok 2 lines"),
        (
            vec![&input, &wrong, &answer],
            1,
            "wrong answer line 2: expected `Invalid command`, found `blue horse;NA;no;no`; input 3:1: command 2 `0 1 1 3`: Invalid command: (0,1) holds red horse, but it is blue's turn",
        ),
        (vec![&input, &format, &answer], 2, "wrong output format line 2: "),
        (vec![&bad_input, &right, &answer], 3, "FAIL INPUT "),
        (vec![&input, &right, &wrong], 3, "FAIL the answer file is not arbiter's answer"),
        (vec![&input], 3, "FAIL expected INPUT OUTPUT [ANSWER], found 1 file"),
    ];
    for (args, code, message) in cases {
        let mut all = vec!["duck", "check"];
        all.extend(args.iter().map(|s| s.as_str()));
        let out = arbiter(&all, b"");
        assert_eq!(out.status.code(), Some(code), "{all:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).starts_with(message), "{all:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty());
    }
    // The output on standard input, as a DOMjudge wrapper passes it.
    let out = arbiter(&["duck", "check", &input, "-"], b"red guard;NA;no;no\nInvalid command\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // chess and the arena with a rule reading.
    let record = write("2.in", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0\n");
    let yes = write("yes.out", "Yes\n");
    let out = arbiter(&["chess", "check", &record, &yes], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("castling is written with the letter O, not zeros; write O-O")
    );
    let arena = write(
        "3.in",
        "1\n1 3 2 2\n0 0 0\n1 1 3 1 0 3 1 1 1 toolihai\n1 3 1 1 1 2 1 1 1 hupraise\n",
    );
    let arena_out = write("3.out", "0\n1\n1 3\n1 1\n");
    let out = arbiter(&["arena", "check", &arena, &arena_out], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out =
        arbiter(&["arena", "check", "--rules", "official,+hup-orig", &arena, &arena_out], b"");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
}

/// The checker's three files are inputs like any other command's: a byte-order mark at the start
/// of each is skipped, on a file or on standard input.
#[test]
fn check_skips_a_byte_order_mark() {
    let dir = scratch("check-bom");
    let write = |name: &str, content: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let input = write("1.in", b"\xEF\xBB\xBF2\n0 3 1 4\n0 1 1 3\n");
    let output = write("1.out", b"\xEF\xBB\xBFred guard;NA;no;no\nInvalid command\n");
    let answer = write("1.ans", b"\xEF\xBB\xBFred guard;NA;no;no\nInvalid command\n");
    let out = arbiter(&["duck", "check", &input, &output, &answer], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "ok 2 lines\n");
    let out =
        arbiter(&["duck", "check", &input, "-", &answer], b"\xEF\xBB\xBFred guard;NA;no;no\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("wrong answer line 2: expected `Invalid command`"));
    // Only at the start: a mark inside the output is a token like any other.
    let late = write("late.out", b"red guard;NA;no;no\n\xEF\xBB\xBFInvalid command\n");
    let out = arbiter(&["duck", "check", &input, &late], b"");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// The worked example of `docs/contest.md`, run as it says; its output must be the one shown.
#[test]
fn the_readme_example_is_real() {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/contest.md"),
    )
    .unwrap();
    let command =
        "$ cargo run --release -p arbiter-cli -- duck test --seed 1 -- target/forgets-duck-point\n";
    let start = readme.find(command).expect("docs/contest.md shows the example") + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let gxx = Command::new("g++").arg("--version").output().is_ok_and(|o| o.status.success());
    if !gxx {
        let _ = writeln!(std::io::stderr().lock(), "skipped: g++ is not installed");
        return;
    }
    let dir = scratch("readme");
    let binary = dir.join("forgets-duck-point");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../contest/tests/fixtures/duck/forgets-duck-point.cpp");
    let status = Command::new("g++")
        .args(["-std=c++11", "-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new(ARBITER)
        .args(["duck", "test", "--seed", "1", "--"])
        .arg(&binary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), shown);
}

/// The code block of `docs/contest.md` that holds `marker`, unindented.
fn readme_script(marker: &str) -> String {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/contest.md"),
    )
    .unwrap();
    let at = readme.find(marker).expect("docs/contest.md shows the script");
    let start = readme[..at].rfind("```shell\n").unwrap() + "```shell\n".len();
    let end = at + readme[at..].find("```").unwrap();
    readme[start..end].lines().map(|l| l.trim_start()).collect::<Vec<_>>().join("\n") + "\n"
}

/// Runs a README wrapper script with `arbiter` on the PATH.
fn wrapper(script: &str, args: &[&str], stdin: &[u8]) -> Output {
    let bin = Path::new(ARBITER).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg("wrapper")
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_readme_wrappers_for_domjudge_and_lemon_work() {
    let dir = scratch("wrappers");
    let input = dir.join("1.in");
    std::fs::write(&input, "1\n0 3 1 4\n").unwrap();
    let answer = dir.join("1.ans");
    std::fs::write(&answer, "red guard;NA;no;no\n").unwrap();
    let (input, answer) = (input.to_str().unwrap(), answer.to_str().unwrap());
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let domjudge = readme_script("# DOMjudge output validator");
    let args = [input, answer, feedback.to_str().unwrap()];
    let right = wrapper(&domjudge, &args, b"red guard;NA;no;no\n");
    assert_eq!(right.status.code(), Some(42), "{}", text(&right.stderr));
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert_eq!(message, "ok 1 line\n");
    let wrong = wrapper(&domjudge, &args, b"Invalid command\n");
    assert_eq!(wrong.status.code(), Some(43));
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert!(message.starts_with("wrong answer line 1: "), "{message}");

    let lemon = readme_script("# Lemon special judge");
    let output = dir.join("1.out");
    let (score, report) = (dir.join("score"), dir.join("report"));
    for (content, expected) in [("red guard;NA;no;no\n", "10\n"), ("Invalid command\n", "0\n")] {
        std::fs::write(&output, content).unwrap();
        let args = [
            input,
            output.to_str().unwrap(),
            answer,
            "10",
            score.to_str().unwrap(),
            report.to_str().unwrap(),
        ];
        let run = wrapper(&lemon, &args, b"");
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        assert_eq!(std::fs::read_to_string(&score).unwrap(), expected);
    }
    assert!(std::fs::read_to_string(&report).unwrap().starts_with("wrong answer"));
}
