//! End-to-end tests of `arbiter <game> gen|test|check` on hostile files and programs: endless and
//! binary files, huge sizes, flooding and forking programs. Each command must end quickly, in
//! bounded memory, and leave no process behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The most memory any of these commands may hold, in KiB.
const MEMORY_KIB: i64 = 64 << 10;

/// How one bounded run of arbiter ended.
struct Run {
    /// Exit status, `None` when killed by a signal (`timeout` kills with SIGKILL after its time).
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The peak resident memory of arbiter (and whatever it waited for), in KiB.
    peak_kib: i64,
    elapsed: Duration,
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("contest-limits").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs arbiter under `timeout -s KILL 60` with `args`, standard input from `/dev/null`, and
/// measures its peak memory with `wait4` (which reports the largest of the process and the
/// children it waited for: `timeout` and arbiter).
#[expect(clippy::zombie_processes, reason = "wait4 reaps the child, with its resource usage")]
fn bounded(dir: &Path, args: &[&str]) -> Run {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let start = Instant::now();
    let child = Command::new("timeout")
        .args(["-s", "KILL", "60", ARBITER])
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for; both pointers are valid.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    let elapsed = start.elapsed();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let read = |path: &Path| String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    Run { code, stdout: read(&out), stderr: read(&err), peak_kib: usage.ru_maxrss, elapsed }
}

/// `timeout` gives 124 or 137 when the time ran out.
fn assert_in_time(run: &Run, what: &str) {
    assert!(!matches!(run.code, None | Some(124 | 137)), "{what}: ran out of time: {}", run.stderr);
    assert!(run.peak_kib < MEMORY_KIB, "{what}: {} KiB", run.peak_kib);
}

#[test]
fn check_reads_an_endless_file_in_bounded_memory() {
    let dir = scratch("check-endless");
    let input = dir.join("1.in");
    std::fs::write(&input, "2\n0 3 1 4\n0 1 1 3\n").unwrap();
    let answer = dir.join("1.ans");
    std::fs::write(&answer, "red guard;NA;no;no\nInvalid command\n").unwrap();
    let (input, answer) = (input.to_str().unwrap(), answer.to_str().unwrap());
    for game in ["duck", "chess", "arena"] {
        // An endless OUTPUT is the contestant's presentation error.
        let run = bounded(&dir, &[game, "check", input, "/dev/zero"]);
        assert_in_time(&run, game);
        if game == "duck" {
            assert_eq!(run.code, Some(2), "{}", run.stderr);
            assert!(run.stderr.starts_with("wrong output format line 1: "), "{}", run.stderr);
            assert!(run.stderr.contains("in an output that goes on past"), "{}", run.stderr);
        }
        // An endless INPUT or ANSWER is the setup's failure.
        let run = bounded(&dir, &[game, "check", "/dev/zero", answer]);
        assert_in_time(&run, game);
        assert_eq!(run.code, Some(3), "{game}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("FAIL INPUT /dev/zero: larger than 4 MiB"),
            "{}",
            run.stderr
        );
    }
    let run = bounded(&dir, &["duck", "check", input, answer, "/dev/zero"]);
    assert_in_time(&run, "ANSWER");
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("FAIL the answer file is not arbiter's answer"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_reads_a_large_output_in_bounded_memory() {
    let dir = scratch("check-large");
    let input = dir.join("1.in");
    std::fs::write(&input, "1\n0 1 1 3\n").unwrap();
    // 100 MB of a right line, again and again: a wrong answer at line 2, found at once.
    // Written by a shell: a child's peak memory counts its parent's at the fork, so this test
    // process must stay small.
    let output = dir.join("1.out");
    let written = Command::new("sh")
        .args([
            "-c",
            "yes 'Invalid command' | head -c 100000000 > \"$0\"",
            output.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(written.success());
    let run = bounded(&dir, &["duck", "check", input.to_str().unwrap(), output.to_str().unwrap()]);
    assert_in_time(&run, "100 MB");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "wrong answer line 2: expected the end of the output, found `Invalid command`"
        ),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_file(&output);
}

#[test]
fn an_unreadable_output_is_a_failure_not_the_contestants() {
    let dir = scratch("check-unreadable");
    let input = dir.join("1.in");
    std::fs::write(&input, "1\n0 1 1 3\n").unwrap();
    // A directory opens but cannot be read: an I/O error of the machine.
    let run = bounded(&dir, &["duck", "check", input.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(run.stderr.starts_with("FAIL OUTPUT "), "{}", run.stderr);
    let _ = run.stdout;
    let _ = run.elapsed;
}

#[test]
fn gen_sizes_have_a_bound_and_the_largest_streams() {
    let dir = scratch("gen-size");
    let run = bounded(&dir, &["duck", "gen", "--size", "18446744073709551615"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("is not a number of commands from 0 to 100000"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let run =
        bounded(&dir, &["duck", "gen", "--profile", "long", "--size", "100000", "--seed", "1"]);
    assert_in_time(&run, "gen --size 100000");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("100000\n"));
    assert_eq!(run.stdout.lines().count(), 100_001);
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
    // No progress bar when standard error is not a terminal.
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn a_program_that_floods_its_output_is_stopped_early() {
    let dir = scratch("test-flood");
    let args = ["test", "--cases", "6", "--jobs", "2", "--seed", "1", "--", "yes", "1 2 3"];
    for game in ["duck", "arena"] {
        let mut all = vec![game];
        all.extend(args);
        let run = bounded(&dir, &all);
        assert_in_time(&run, game);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(
            run.stdout.starts_with("case 1 of 6 failed: output limit exceeded"),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("(twice arbiter's answer and 64 KiB) and was killed"));
        assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
    }
}

/// Whether a process whose command line holds `marker` is running.
fn running(marker: &str) -> bool {
    Command::new("pgrep").args(["-f", marker]).output().is_ok_and(|out| out.status.success())
}

#[test]
fn a_helper_that_leaves_the_session_dies_with_the_run() {
    let dir = scratch("test-setsid");
    let script = "setsid sleep 1000.5151 & while :; do :; done";
    let run = bounded(
        &dir,
        &[
            "duck",
            "test",
            "--cases",
            "3",
            "--jobs",
            "2",
            "--time-limit",
            "300",
            "--",
            "sh",
            "-c",
            script,
        ],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.starts_with("case 1 of 3 failed: time limit exceeded"), "{}", run.stdout);
    assert!(!running("sleep 1000.5151"), "a helper outlived `test`");
}

#[test]
fn memory_limits_judge_the_peak_resident_memory() {
    let dir = scratch("test-memory");
    // Allocates and touches 300 MB.
    let hungry = "b = b'x' * (300 << 20)";
    let run = bounded(
        &dir,
        &[
            "duck",
            "test",
            "--cases",
            "2",
            "--jobs",
            "2",
            "--time-limit",
            "20000",
            "--memory-limit",
            "64",
            "--json",
            "--",
            "python3",
            "-c",
            hungry,
        ],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let failure = &report["failure"];
    assert_eq!(failure["verdict"], "memory limit exceeded", "{report}");
    assert!(failure["peak_memory_kib"].as_u64().unwrap() > 64 << 10, "{report}");
    assert!(failure["time_ms"].as_u64().is_some(), "{report}");
    // arbiter's own judge is a solution of the problem: well within 64 MiB.
    let run = bounded(
        &dir,
        &[
            "duck",
            "test",
            "--cases",
            "50",
            "--seed",
            "1",
            "--memory-limit",
            "64",
            "--",
            ARBITER,
            "duck",
        ],
    );
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("all 50 cases passed"), "{}", run.stdout);
}
