//! Every example of the README and of the manual in `docs/` runs as written, with the built
//! `arbiter`, and prints what the page shows; every relative link between those pages leads to
//! a file (and heading) that exists. How examples are found is written in `docs/README.md`
//! ("Examples in these pages"); in short: `$ ` commands and their output in `console` blocks,
//! `arbiter` and `g++` lines in `sh` blocks, nothing from `text` blocks.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The pages whose examples run: `README.md` and every `.md` file under `docs/`, as paths from
/// the repository root.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_owned()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("docs/ entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// What an example does.
#[derive(Debug, PartialEq)]
enum Kind {
    /// From a `console` block: the output it must print.
    Prints(Vec<String>),
    /// From a `sh` block: it must exit with status 0 or 1.
    Runs,
    /// A `g++` line of a `sh` block: it builds the program named after `-o`.
    Builds(String),
}

/// One example: a command line and what it must do.
#[derive(Debug)]
struct Example {
    /// The line of the page it is on, for messages.
    line: usize,
    command: String,
    kind: Kind,
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

/// The program a `g++` line of a `sh` block builds, if it is one.
fn built_program(line: &str) -> Option<String> {
    let mut words = line.trim().strip_prefix("g++ ")?.split_whitespace();
    words.by_ref().find(|word| *word == "-o")?;
    words.next().map(str::to_owned)
}

/// The examples of `page`.
fn examples(page: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut block: Option<&str> = None;
    for (number, line) in page.lines().enumerate() {
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
                    examples.push(Example {
                        line: number,
                        command,
                        kind: Kind::Prints(Vec::new()),
                    });
                } else if let Some(Example { kind: Kind::Prints(lines), .. }) = examples.last_mut()
                {
                    lines.push(line.to_owned());
                }
            }
            Some("sh") => {
                if let Some(program) = built_program(line) {
                    let command = line.trim().to_owned();
                    examples.push(Example { line: number, command, kind: Kind::Builds(program) });
                } else if let Some(command) = sh_command(line) {
                    examples.push(Example { line: number, command, kind: Kind::Runs });
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

/// A directory of its own for the examples of `name`, that sees `examples/` and `crates/` as
/// the repository root does and has an empty `target/`, so that what an example writes (a
/// program it builds included) stays inside it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target")).expect("scratch directory");
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

/// Whether g++ can be started: where it cannot, a program an example builds is missing, and
/// the examples that run it are skipped (the contest tools' tests do the same).
fn gxx_installed() -> bool {
    Command::new("g++").arg("--version").output().is_ok_and(|out| out.status.success())
}

/// Runs every example of `pages` in a scratch directory of their own: the failures, each
/// naming its page and line.
fn run_pages(name: &str, pages: &[String]) -> Vec<String> {
    let dir = scratch(name);
    let gxx = gxx_installed();
    let mut failures = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(root().join(page)).expect(page);
        let examples = examples(&text);
        let mut missing: Vec<String> = Vec::new();
        for example in &examples {
            if let Kind::Builds(program) = &example.kind
                && !gxx
            {
                eprintln!("{page}:{}: skipped: g++ is not installed", example.line);
                missing.push(program.clone());
                continue;
            }
            if missing.iter().any(|program| example.command.contains(program.as_str())) {
                eprintln!("{page}:{}: skipped: it runs a program g++ did not build", example.line);
                continue;
            }
            let (status, output) = run(&example.command, &dir);
            let lines: Vec<&str> = output.lines().collect();
            match &example.kind {
                Kind::Prints(expected) if !matches(expected, &lines) => failures.push(format!(
                    "{page}:{}: `{}` printed\n{output}instead of\n{}\n",
                    example.line,
                    example.command,
                    expected.join("\n")
                )),
                Kind::Runs if !matches!(status, Some(0 | 1)) => failures.push(format!(
                    "{page}:{}: `{}` exited with {status:?}:\n{output}",
                    example.line, example.command
                )),
                Kind::Builds(_) if status != Some(0) => failures.push(format!(
                    "{page}:{}: `{}` exited with {status:?}:\n{output}",
                    example.line, example.command
                )),
                _ => {}
            }
        }
    }
    std::fs::remove_dir_all(&dir).expect("scratch directory removed");
    failures
}

#[test]
fn every_readme_example_runs_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    // The README has an example for every tool; finding few means the format was misread.
    let found = examples(&readme).len();
    assert!(found >= 12, "only {found} examples found in README.md");
    let failures = run_pages("readme", &["README.md".to_owned()]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ci_runs_exactly_the_readme_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut lines = readme.lines();
    lines.find(|line| line.starts_with("# run the whole test suite")).expect("the test command");
    let command = lines.next().expect("the command after its comment");
    assert!(command.starts_with("cargo test --workspace"), "{command}");
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(ci.lines().any(|line| line == command), ".ci/run does not run `{command}`");
    // Nothing in CI opts out of a suite: there, every suite runs.
    assert!(!ci.contains("ARBITER_SKIP_SUITES"), ".ci/run skips a suite");
}

#[test]
fn every_docs_example_runs_as_written() {
    let docs: Vec<String> = pages().into_iter().filter(|page| page != "README.md").collect();
    let found: usize = docs
        .iter()
        .map(|page| examples(&std::fs::read_to_string(root().join(page)).expect(page)).len())
        .sum();
    // The manual has examples for every command; finding few means the format was misread.
    assert!(found >= 30, "only {found} examples found in docs/");
    let failures = run_pages("docs", &docs);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of the headings of `page`, numbered as GitHub numbers repeated ones.
fn anchors(page: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    let mut in_block = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !in_block) else { continue };
        let base = anchor(heading.trim_start_matches('#'));
        let mut name = base.clone();
        let mut n = 0;
        while !anchors.insert(name.clone()) {
            n += 1;
            name = format!("{base}-{n}");
        }
    }
    anchors
}

/// The targets of the links of `page` outside code: inline `[text](target)`, images, and
/// reference definitions `[name]: target`, each with its line.
fn links(page: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    let mut in_block = false;
    for (number, line) in page.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Code spans are not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            links.push((number + 1, rest[..end].to_owned()));
        }
        if let Some(definition) = line.trim_start().strip_prefix('[')
            && let Some((_, target)) = definition.split_once("]: ")
        {
            links.push((number + 1, target.trim().to_owned()));
        }
    }
    links
}

/// Whether `target`, a link written in `page`, leads to an existing file and heading.
fn resolves(page: &str, target: &str) -> Result<(), String> {
    let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
    let base = Path::new(page).parent().expect("a page is in a folder");
    let path = if file.is_empty() { root().join(page) } else { root().join(base).join(file) };
    if !path.exists() {
        return Err(format!("no file {}", path.display()));
    }
    if !fragment.is_empty() && path.extension().is_some_and(|ext| ext == "md") {
        let text = std::fs::read_to_string(&path).expect("a linked page");
        if !anchors(&text).contains(fragment) {
            return Err(format!("no heading #{fragment} in {}", path.display()));
        }
    }
    Ok(())
}

#[test]
fn every_relative_link_leads_somewhere() {
    let mut broken = Vec::new();
    let mut pages = pages();
    pages.extend(["BENCHMARKS.md", "FUZZING.md"].map(str::to_owned));
    for page in &pages {
        let text = std::fs::read_to_string(root().join(page)).expect(page);
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if let Err(why) = resolves(page, &target) {
                broken.push(format!("{page}:{line}: ({target}): {why}"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Source files that may refer to the manual, as paths from the repository root.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | ".git") {
                sources(&path, found);
            }
        } else if [".rs", ".py", ".sh", ".md"].iter().any(|ext| name.ends_with(ext)) {
            found.push(path);
        }
    }
}

/// Code and scripts refer to the rule decisions as `docs/rules.md#heading`: each such
/// reference leads to a heading that exists.
#[test]
fn every_reference_into_the_manual_leads_somewhere() {
    let mut files = Vec::new();
    for dir in ["crates", "bench", "python", "fuzz"] {
        sources(&root().join(dir), &mut files);
    }
    // This file's own tests name made-up references.
    files.retain(|file| !file.ends_with("crates/cli/tests/readme.rs"));
    let mut broken = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        for (number, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("docs/") {
                rest = &rest[at..];
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || "/._-#".contains(c)))
                    .unwrap_or(rest.len());
                let target = rest[..end].trim_end_matches('.');
                rest = &rest[end..];
                if !target.contains(".md") {
                    continue;
                }
                if let Err(why) = resolves("README.md", target) {
                    broken.push(format!("{}:{}: {target}: {why}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_example_finder_reads_each_kind_of_block() {
    let readme = "```sh\ncargo test --workspace\ncargo run --release -p arbiter-cli -- duck x.in\n\
        printf '1\\n' | arbiter duck # a comment\ng++ -O2 -o target/p p.cpp\n```\n\
        ```text\narbiter duck [FILE]\n```\n\
        ```console\n$ arbiter chess r.txt\nYes\n...\n$ echo | arbiter chess\n```\n";
    let found: Vec<(String, Kind)> =
        examples(readme).into_iter().map(|e| (e.command, e.kind)).collect();
    assert_eq!(
        found,
        [
            ("arbiter duck x.in".to_owned(), Kind::Runs),
            ("printf '1\\n' | arbiter duck # a comment".to_owned(), Kind::Runs),
            ("g++ -O2 -o target/p p.cpp".to_owned(), Kind::Builds("target/p".to_owned())),
            (
                "arbiter chess r.txt".to_owned(),
                Kind::Prints(vec!["Yes".to_owned(), "...".to_owned()])
            ),
            ("echo | arbiter chess".to_owned(), Kind::Prints(vec![])),
        ]
    );
    let lines = |text: &'static str| text.lines().map(str::to_owned).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(matches(&lines("a\n..."), &["a"]));
    assert!(!matches(&lines("a\nd"), &["a", "b", "d"]));
}

#[test]
fn the_link_finder_reads_links_and_headings() {
    let page = "# A title\n## `duck` — the judge, 鸭棋\n## A title\nSee [x](docs/a.md#b) and \
        `[not](a link)`.\n[ref]: crates/x\n```text\n[no](link)\n```\n";
    assert_eq!(links(page), [(4, "docs/a.md#b".to_owned()), (5, "crates/x".to_owned())]);
    let anchors = anchors(page);
    for anchor in ["a-title", "duck--the-judge-鸭棋", "a-title-1"] {
        assert!(anchors.contains(anchor), "{anchor} in {anchors:?}");
    }
}
