//! The test suites written in other languages, run by `cargo test` so that one command runs
//! everything: the web app's end-to-end tests in Chromium (`crates/web/e2e`, Node's test runner
//! with playwright-core) on the `arbiter` built for these tests, and the Python package's tests
//! (`python/tests`, pytest) against the installed package.
//!
//! Each suite needs something Cargo does not install: Node with `npm ci` run in `crates/web/e2e`
//! and Chromium at `/usr/bin/chromium` (or `$CHROMIUM`); the package installed with
//! `pip install ./python pytest`. `.ci/run` installs them. Where one is missing its test fails,
//! saying what to install, so that "the tests pass" means the same on every machine; a machine
//! that cannot run a suite names it in `ARBITER_SKIP_SUITES` (`browser`, `python`, or both
//! separated by commas), and only then is it skipped, with a line on stderr.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// One suite at a time: each is long and uses the cores itself; run together, the browser's
/// waits compete with pytest for them.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The variable that lists the suites a machine does not run.
const SKIP: &str = "ARBITER_SKIP_SUITES";

/// Whether `key` (`browser`, `python`) is among the suites [`SKIP`] lists.
fn opted_out(key: &str) -> bool {
    std::env::var(SKIP).is_ok_and(|list| names(&list, key))
}

/// Whether the comma-separated `list` names `key`.
fn names(list: &str, key: &str) -> bool {
    list.split(',').any(|item| item.trim() == key)
}

/// The suite cannot run here: skipped with a line on stderr when the machine opted out of it,
/// else a failure saying what to install and how to opt out.
fn cannot_run(suite: &str, key: &str, reason: &str) {
    if opted_out(key) {
        eprintln!("{suite} skipped ({SKIP} names `{key}`): {reason}");
        return;
    }
    panic!(
        "{suite} cannot run: {reason}. Install what it needs, or run without it: \
         {SKIP}={key} cargo test --workspace --locked"
    );
}

/// Runs `program args` in `dir`, its output passed through, and fails the test when it fails.
fn run(suite: &str, dir: &Path, program: &str, args: &[&str], envs: &[(&str, &Path)]) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .status()
        .unwrap_or_else(|error| panic!("{suite}: {program} did not start: {error}"));
    assert!(status.success(), "{suite} failed ({status}); its output is above");
}

fn found(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|output| output.status.success())
}

#[test]
fn browser_end_to_end_tests() {
    let suite = "the browser tests (crates/web/e2e)";
    let dir = root().join("crates/web/e2e");
    let chromium = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    let skip = |reason: &str| cannot_run(suite, "browser", reason);
    if opted_out("browser") {
        return skip("the machine opted out");
    }
    if !dir.join("node_modules/playwright-core").is_dir() {
        return skip("run `npm ci` in crates/web/e2e first");
    }
    if !chromium.exists() {
        return skip("no Chromium at /usr/bin/chromium (apt-get install chromium)");
    }
    if !found("node") {
        return skip("no node on the PATH");
    }
    let arbiter = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    run(
        suite,
        &dir,
        "node",
        &["--test", "--test-concurrency=1", "tests/"],
        &[("ARBITER", arbiter), ("CHROMIUM", &chromium)],
    );
}

#[test]
fn python_package_tests() {
    let suite = "the Python package's tests (python/tests)";
    if opted_out("python") {
        return cannot_run(suite, "python", "the machine opted out");
    }
    let installed = Command::new("python3")
        .args(["-c", "import arbiter, pytest"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !installed {
        return cannot_run(
            suite,
            "python",
            "install the package and pytest first: pip install ./python pytest",
        );
    }
    run(suite, &root(), "python3", &["-m", "pytest", "-q", "python/tests"], &[]);
}

#[test]
fn the_opt_out_names_suites_exactly() {
    assert!(names("browser,python", "python"));
    assert!(names("browser, python", "browser"));
    assert!(!names("browsers", "browser"));
    assert!(!names("", "browser"));
}

/// A suite that cannot run fails, naming the opt-out; opted out, it passes. Each suite is run
/// alone by this test binary in a child process, on a machine made to lack what it needs.
#[test]
fn a_suite_that_cannot_run_fails_unless_opted_out() {
    let this = std::env::current_exe().unwrap();
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("suites-empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    for (test, key) in [("browser_end_to_end_tests", "browser"), ("python_package_tests", "python")]
    {
        let run = |skip: Option<&str>| {
            let mut command = Command::new(&this);
            command
                .args(["--exact", test, "--nocapture", "--test-threads=1"])
                // No Chromium, and no node nor python3 on the PATH.
                .env("CHROMIUM", empty.join("chromium"))
                .env("PATH", &empty)
                .env_remove(SKIP);
            if let Some(list) = skip {
                command.env(SKIP, list);
            }
            command.output().unwrap()
        };
        let failed = run(None);
        let output = String::from_utf8_lossy(&failed.stdout).into_owned()
            + &String::from_utf8_lossy(&failed.stderr);
        assert!(!failed.status.success(), "{test} passed without running: {output}");
        let opt_out = format!("{SKIP}={key} cargo test --workspace --locked");
        assert!(output.contains(&opt_out), "{output}");
        let skipped = run(Some(&format!("other,{key}")));
        let output = String::from_utf8_lossy(&skipped.stderr).into_owned();
        assert!(skipped.status.success(), "{test}: {output}");
        assert!(output.contains("skipped (ARBITER_SKIP_SUITES names"), "{output}");
    }
}
