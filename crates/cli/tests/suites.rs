//! The test suites written in other languages, run by `cargo test` so that one command runs
//! everything: the web app's end-to-end tests in Chromium (`crates/web/e2e`, Node's test runner
//! with playwright-core) on the `arbiter` built for these tests, and the Python package's tests
//! (`python/tests`, pytest) against the installed package.
//!
//! Each suite needs something Cargo does not install: Node with `npm ci` run in `crates/web/e2e`
//! and Chromium at `/usr/bin/chromium` (or `$CHROMIUM`); the package installed with
//! `pip install ./python pytest`. `.ci/run` installs them. Where one is missing its suite is
//! skipped with a message saying what to install.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// One suite at a time: each is long and uses the cores itself; run together, the browser's
/// waits compete with pytest for them.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// Says on stderr that the suite is skipped, and why.
fn skip(suite: &str, reason: &str) {
    eprintln!("{suite} skipped: {reason}");
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
    if !dir.join("node_modules/playwright-core").is_dir() {
        return skip(suite, "run `npm ci` in crates/web/e2e first");
    }
    if !chromium.exists() {
        return skip(suite, "no Chromium at /usr/bin/chromium (apt-get install chromium)");
    }
    if !found("node") {
        return skip(suite, "no node on the PATH");
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
    let installed = Command::new("python3")
        .args(["-c", "import arbiter, pytest"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !installed {
        return skip(suite, "install the package and pytest first: pip install ./python pytest");
    }
    run(suite, &root(), "python3", &["-m", "pytest", "-q", "python/tests"], &[]);
}
