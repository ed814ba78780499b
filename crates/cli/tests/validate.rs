//! `arbiter <game> validate` end to end: the official data is valid (exit 0, nothing printed);
//! an invalid file gets one line `FILE:LINE:COL: expected ..., found ...` and exit status 3;
//! `--coverage` prints the table.

mod common;

const CRATES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_official_data_is_valid() {
    let duck: Vec<String> = (1..=4)
        .map(|n| format!("{CRATES}/duck/tests/fixtures/official/{n}.in"))
        .chain([format!("{CRATES}/duck/tests/fixtures/sample/1.in")])
        .collect();
    let chess = vec![format!("{CRATES}/chess-record/tests/fixtures/sample/1.in")];
    let arena = vec![
        format!("{CRATES}/arena/tests/fixtures/official/1.in"),
        format!("{CRATES}/arena/tests/fixtures/sample/1.in"),
    ];
    for (game, files) in [("duck", duck), ("chess", chess), ("arena", arena)] {
        let mut args = vec![game, "validate"];
        args.extend(files.iter().map(String::as_str));
        let output = common::run(&args, b"");
        assert_eq!(output.status.code(), Some(0), "{game}: {}", text(&output.stderr));
        assert!(output.stdout.is_empty() && output.stderr.is_empty(), "{game}");
    }
}

#[test]
fn an_invalid_file_is_named_with_its_place_and_exit_status_3() {
    let cases: [(&str, &[u8], &str); 3] = [
        ("duck", b"1001\n", "<stdin>:1:1: expected Q \u{2264} 1000, found 1001\n"),
        ("chess", b"1. e4 e5\r\n", "<stdin>:1:9: expected a space or a line feed, found `\\r`\n"),
        (
            "arena",
            b"1\n1 1 1 1\n0\n1 1 2 3 0 0 1 1 1 toolihai\n",
            "<stdin>:4:7: expected b \u{2264} a = 2 (piece 1), found 3\n",
        ),
    ];
    for (game, input, message) in cases {
        let output = common::run(&[game, "validate"], input);
        assert_eq!(output.status.code(), Some(3), "{game}");
        assert_eq!(text(&output.stderr), message, "{game}");
        assert!(output.stdout.is_empty(), "{game}");
    }
    // Several files: each invalid one has its line, the valid ones none.
    let dir = std::env::temp_dir().join(format!("arbiter-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (good, bad) = (dir.join("good.in"), dir.join("bad.in"));
    std::fs::write(&good, "1\n0 0 1 0\n").unwrap();
    std::fs::write(&bad, "1\n0 0 1 0").unwrap();
    let output =
        common::run(&["duck", "validate", good.to_str().unwrap(), bad.to_str().unwrap()], b"");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        text(&output.stderr),
        format!("{}:2:8: expected a line feed, found end of input\n", bad.display())
    );
}

#[test]
fn coverage_is_a_table_of_extremes_and_corners() {
    let files: Vec<String> =
        (1..=4).map(|n| format!("{CRATES}/duck/tests/fixtures/official/{n}.in")).collect();
    let mut args = vec!["duck", "validate", "--coverage"];
    args.extend(files.iter().map(String::as_str));
    let output = common::run(&args, b"");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let table = text(&output.stdout);
    let row = |corner: &str| -> Vec<String> {
        let line = table.lines().find(|line| line.starts_with(corner)).expect(corner);
        line[corner.len()..].split_whitespace().map(str::to_owned).collect()
    };
    assert_eq!(row("Q = 0"), ["0", "-"]);
    assert_eq!(row("Q = 1000"), ["3", &files[1]]);
    assert_eq!(row("captain captured"), ["3", &files[0]]);
    assert_eq!(row("game never ends"), ["1", &files[3]]);
    assert!(table.ends_with("4 valid files reach 22 of 23 corners\n"), "{table}");

    let output = common::run(
        &["arena", "validate", "--coverage", "-"],
        b"1\n1 1 1 1\n0\n1 1 0 0 0 0 1 1 1 hupraise\n",
    );
    let table = text(&output.stdout);
    assert!(
        table
            .lines()
            .any(|line| line.starts_with("cast: hupraise") && line.ends_with("1  <stdin>")),
        "{table}"
    );
    assert!(table.lines().any(|line| line.starts_with("K = 1 ")), "{table}");
}
