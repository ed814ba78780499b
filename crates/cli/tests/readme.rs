//! Every example of the README runs as written, with the built `arbiter`, and prints what the
//! README shows. How examples are found is written in the README itself ("Examples in this
//! README"); in short: `$ ` commands and their output in `console` blocks, `arbiter` lines in
//! `sh` blocks, nothing from `text` blocks.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// One example: a command line and, from a `console` block, the output it must print.
#[derive(Debug)]
struct Example {
    /// The README line it is on, for messages.
    line: usize,
    command: String,
    expected: Option<Vec<String>>,
}

/// The command `line` of a `sh` block stands for, if it runs `arbiter`.
fn sh_command(line: &str) -> Option<String> {
    let line = line.trim();
    let line = match line.strip_prefix("cargo run --release -p arbiter-cli -- ") {
        Some(rest) => format!("arbiter {rest}"),
        None => line.to_owned(),
    };
    let runs_arbiter = line.starts_with("arbiter ")
        || line.split('|').skip(1).any(|stage| stage.trim_start().starts_with("arbiter "));
    runs_arbiter.then_some(line)
}

/// The examples of `readme`.
fn examples(readme: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut block: Option<&str> = None;
    for (number, line) in readme.lines().enumerate() {
        let number = number + 1;
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(fence.trim()),
            };
            continue;
        }
        match block {
            Some("console") => {
                if let Some(command) = line.strip_prefix("$ ") {
                    let command = sh_command(command).unwrap_or_else(|| command.to_owned());
                    examples.push(Example { line: number, command, expected: Some(Vec::new()) });
                } else if let Some(Example { expected: Some(lines), .. }) = examples.last_mut() {
                    lines.push(line.to_owned());
                }
            }
            Some("sh") => {
                if let Some(command) = sh_command(line) {
                    examples.push(Example { line: number, command, expected: None });
                }
            }
            _ => {}
        }
    }
    examples
}

/// Whether `actual` matches `expected`, where a line `...` matches any number of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|line| line == first) && matches(rest, &actual[1..])
        }
    }
}

/// A directory that sees `examples/` and `crates/` as the repository root does.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    for name in ["examples", "crates"] {
        std::os::unix::fs::symlink(root().join(name), dir.join(name)).expect("symlink");
    }
    dir
}

/// Runs `command` with `sh` in `dir`, `arbiter` on the `PATH`: its status and what it printed
/// on stdout and stderr together.
fn run(command: &str, dir: &Path) -> (Option<i32>, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_arbiter")).parent().expect("bin dir").to_owned();
    let path = std::env::join_paths(
        std::iter::once(bin)
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");
    let output = dir.join(".output");
    let file = std::fs::File::create(&output).expect("output file");
    // A guard against an example that never ends (those belong in `text` blocks).
    let status = Command::new("timeout")
        .args(["120", "sh", "-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(file.try_clone().expect("output file"))
        .stderr(file)
        .status()
        .expect("sh runs");
    (status.code(), std::fs::read_to_string(&output).expect("output"))
}

#[test]
fn every_readme_example_runs_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = examples(&readme);
    // The README has examples for every command; finding few means the format was misread.
    assert!(examples.len() >= 15, "only {} examples found", examples.len());
    let dir = scratch();
    let mut failures = Vec::new();
    for example in &examples {
        let (status, output) = run(&example.command, &dir);
        let lines: Vec<&str> = output.lines().collect();
        match &example.expected {
            Some(expected) if !matches(expected, &lines) => failures.push(format!(
                "README.md:{}: `{}` printed\n{output}instead of\n{}\n",
                example.line,
                example.command,
                expected.join("\n")
            )),
            None if !matches!(status, Some(0 | 1)) => failures.push(format!(
                "README.md:{}: `{}` exited with {status:?}:\n{output}",
                example.line, example.command
            )),
            _ => {}
        }
    }
    std::fs::remove_dir_all(&dir).expect("scratch directory removed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_example_finder_reads_each_kind_of_block() {
    let readme = "```sh\ncargo test --workspace\ncargo run --release -p arbiter-cli -- duck x.in\n\
        printf '1\\n' | arbiter duck # a comment\n```\n```text\narbiter duck [FILE]\n```\n\
        ```console\n$ arbiter chess r.txt\nYes\n...\n$ echo | arbiter chess\n```\n";
    let found: Vec<(String, Option<Vec<String>>)> =
        examples(readme).into_iter().map(|e| (e.command, e.expected)).collect();
    assert_eq!(
        found,
        [
            ("arbiter duck x.in".to_owned(), None),
            ("printf '1\\n' | arbiter duck # a comment".to_owned(), None),
            ("arbiter chess r.txt".to_owned(), Some(vec!["Yes".to_owned(), "...".to_owned()])),
            ("echo | arbiter chess".to_owned(), Some(vec![])),
        ]
    );
    let lines = |text: &'static str| text.lines().map(str::to_owned).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(matches(&lines("a\n..."), &["a"]));
    assert!(!matches(&lines("a\nd"), &["a", "b", "d"]));
}
