//! `arbiter <game> package` end to end: the size it reports is the size written, the same bytes
//! on every build, a non-empty directory refused, a Polygon package whose `problem.xml` names
//! only files that exist, and Kattis packages that Kattis' `verifyproblem` accepts (when
//! problemtools and g++ are installed; the test says so and passes when they are not).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const GAMES: [&str; 3] = ["duck", "chess", "arena"];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path for one test's package, not yet created.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("package-cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    dir
}

/// Every file under `dir`, by path relative to it, with its contents.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Runs `arbiter GAME package --format FORMAT DIR`; checks the report against what was written.
fn package(game: &str, format: &str, dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let path = dir.to_str().unwrap();
    let output = common::run(&[game, "package", "--format", format, path], b"");
    assert_eq!(output.status.code(), Some(0), "{game} {format}: {}", text(&output.stderr));
    let written = files(dir);
    let bytes: usize = written.values().map(Vec::len).sum();
    assert_eq!(
        text(&output.stdout),
        format!("{path}: {format} package of {game}, {} files, {bytes} bytes\n", written.len())
    );
    written
}

#[test]
fn the_same_package_twice_and_its_size_reported() {
    for game in GAMES {
        for format in ["kattis", "polygon"] {
            let first = package(game, format, &scratch(&format!("{game}-{format}-1")));
            let second = package(game, format, &scratch(&format!("{game}-{format}-2")));
            assert!(first == second, "{game} {format}: two builds differ");
        }
    }
}

#[test]
fn a_directory_with_files_is_refused() {
    let dir = scratch("occupied");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine\n").unwrap();
    let output =
        common::run(&["duck", "package", "--format", "kattis", dir.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("not empty"), "{}", text(&output.stderr));
    assert_eq!(files(&dir).len(), 1);
    let output = common::run(&["duck", "package", "--format", "zip", "x"], b"");
    assert_eq!(output.status.code(), Some(2));
}

/// The values of attribute `name` in `xml`, in order.
fn attributes<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    xml.match_indices(&key)
        .map(|(at, _)| {
            let rest = &xml[at + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// The text of the first element `tag` in `xml`.
fn element<'a>(xml: &'a str, tag: &str) -> &'a str {
    let open = format!("<{tag}>");
    let start = xml.find(&open).unwrap() + open.len();
    &xml[start..start + xml[start..].find('<').unwrap()]
}

#[test]
fn a_polygon_package_names_files_that_exist() {
    for game in GAMES {
        let dir = scratch(&format!("{game}-polygon"));
        let written = package(game, "polygon", &dir);
        let xml = text(&written["problem.xml"]);
        for path in attributes(&xml, "path") {
            assert!(written.contains_key(path), "{game}: problem.xml names {path}");
        }
        assert_eq!(element(&xml, "input-path-pattern"), "tests/%02d");
        assert_eq!(element(&xml, "answer-path-pattern"), "tests/%02d.a");
        let count: usize = element(&xml, "test-count").parse().unwrap();
        assert_eq!(xml.matches("<test method=\"manual\"").count(), count, "{game}");
        assert!(count >= 15, "{game}: {count} tests");
        let tests: Vec<&String> = written.keys().filter(|p| p.starts_with("tests/")).collect();
        assert_eq!(tests.len(), 2 * count, "{game}: {tests:?}");
        for n in 1..=count {
            assert!(written.contains_key(&format!("tests/{n:02}")), "{game}: test {n}");
            assert!(written.contains_key(&format!("tests/{n:02}.a")), "{game}: answer {n}");
        }
        assert_eq!(xml.matches(" sample=\"true\"").count(), 1, "{game}");
        let tags = attributes(&xml, "tag");
        assert_eq!(tags.iter().filter(|tag| **tag == "main").count(), 1, "{game}: {tags:?}");
        assert!(tags.iter().filter(|tag| **tag == "wrong-answer").count() >= 2, "{game}");
        // Every file but the documents is named by problem.xml or is a section of the statement
        // or a test.
        for path in written.keys() {
            let named = attributes(&xml, "path").contains(&path.as_str())
                || path.starts_with("tests/")
                || path.starts_with("statement-sections/")
                || path.starts_with("documents/")
                || path == "problem.xml";
            assert!(named, "{game}: {path} is not named");
        }
    }
}

/// Whether `program --version` runs.
fn installed(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Builds the Kattis package of `game` and runs `verifyproblem` on it, with arbiter on the
/// `PATH` (the validator and the chess solutions call it). Every part is checked, the statement
/// built to a PDF among them, where LuaLaTeX is installed (CI installs it with the TeX packages
/// problemtools' template uses); elsewhere the statement is left out with `--parts`,
/// verifyproblem's documented way to check the other parts, and the test says so.
fn verify(game: &str) {
    if !installed("verifyproblem") || !installed("g++") {
        println!("skipped: verifyproblem (pip install problemtools) or g++ is not installed");
        return;
    }
    // verifyproblem takes the directory's name as the problem's short name: [a-z0-9]+.
    let dir = scratch(&format!("verify-{game}")).join(game);
    package(game, "kattis", &dir);
    let bin = Path::new(env!("CARGO_BIN_EXE_arbiter")).parent().unwrap().to_owned();
    let path = std::env::join_paths(
        std::iter::once(bin)
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let mut verifyproblem = Command::new("verifyproblem");
    verifyproblem.arg(&dir);
    if !installed("lualatex") {
        println!("the statement is not built: LuaLaTeX (texlive-luatex) is not installed");
        verifyproblem.args(["-p", "config", "data", "submissions", "validators"]);
    }
    let output = verifyproblem.env("PATH", path).output().expect("verifyproblem runs");
    let report = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{game}:\n{report}");
    assert!(report.contains(&format!("{game} tested: 0 errors")), "{game}:\n{report}");
    for verdict in ["accepted", "wrong_answer"] {
        assert!(report.contains(&format!("   {verdict}/")), "{game}: no {verdict}:\n{report}");
    }
}

#[test]
fn duck_passes_verifyproblem() {
    verify("duck");
}

#[test]
fn chess_passes_verifyproblem() {
    verify("chess");
}

#[test]
fn arena_passes_verifyproblem() {
    verify("arena");
}
