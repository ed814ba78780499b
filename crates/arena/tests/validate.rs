//! The strict validator: the official data and the sample pass; each malformation and each limit
//! one past its edge is rejected where it happens, with what was expected; each limit at its edge
//! passes.

use std::path::Path;

use arbiter_arena::validate::{CORNERS, corners, validate};

fn fixture(path: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(path);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn the_official_data_and_the_sample_are_valid() {
    for path in ["official/1.in", "sample/1.in"] {
        let input = fixture(path);
        if let Err(error) = validate(&input) {
            panic!("{path}:{error}");
        }
    }
}

#[test]
fn every_fixture_is_valid() {
    for dir in ["rules", "random", "adversarial"] {
        let dir_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir);
        for entry in std::fs::read_dir(dir_path).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "in") {
                let input = std::fs::read(&path).unwrap();
                if let Err(error) = validate(&input) {
                    panic!("{}:{error}", path.display());
                }
            }
        }
    }
}

/// A valid game to break in one place at a time.
const BASE: &str =
    "1\n2 3 2 5\n0 0 1\n0 0 0\n1 1 5 2 0 3 1 1 1 onepunch 3 2\n2 3 4 4 1 2 1 2 3 toolihai\n";

/// `BASE` with its `n`th occurrence (from 0) of `from` replaced by `to`.
fn with(from: &str, to: &str, n: usize) -> String {
    let (at, _) = BASE.match_indices(from).nth(n).unwrap_or_else(|| panic!("{from} #{n}"));
    format!("{}{to}{}", &BASE[..at], &BASE[at + from.len()..])
}

#[test]
fn limits_at_their_edges_are_valid() {
    let big_map = format!(
        "1\n100 100 1 1000\n{}1 1 1000 1000 1 3 1 1 1 rabiribi 2147483647\n",
        format!("{}0\n", "0 ".repeat(99)).repeat(100)
    );
    let mut twenty = String::from("20\n");
    for _ in 0..20 {
        twenty.push_str("1 1 1 1\n0\n1 1 0 0 0 0 2147483647 2147483647 2147483647 toolihai\n");
    }
    for input in [
        BASE.to_owned(),
        big_map,
        twenty,
        with("1 1 5 2", "1 1 1000 1000", 0),
        with("onepunch 3 2", "onepunch 1000 1", 0),
        with("onepunch 3 2", "2dsaigao 0 0 1", 0),
        with("0 3 1 1 1 onepunch 3 2", "0 3 5 9 1 backward 4", 0),
    ] {
        if let Err(error) = validate(input.as_bytes()) {
            panic!("{error}\n{input}");
        }
    }
}

#[test]
fn malformations_are_rejected_where_they_are() {
    let cases: Vec<(String, &str)> = vec![
        (with("1\n2 3", "21\n2 3", 0), "1:1: expected T ≤ 20, found 21"),
        (with("1\n2 3", "0\n2 3", 0), "1:1: expected T ≥ 1, found 0"),
        (with("2 3 2 5", "101 3 2 5", 0), "2:1: expected N ≤ 100, found 101"),
        (with("2 3 2 5", "2 0 2 5", 0), "2:3: expected M ≥ 1, found 0"),
        (with("2 3 2 5", "2 3 201 5", 0), "2:5: expected K ≤ 200, found 201"),
        (with("2 3 2 5", "2 3 2 1001", 0), "2:7: expected R ≤ 1000, found 1001"),
        (with("0 0 1\n", "0 0 2\n", 0), "3:5: expected the map cell (1, 3) ≤ 1, found 2"),
        (
            with("1 1 5 2", "1 3 5 2", 0),
            "5:1: expected a free cell for piece 1, found an obstacle at (1, 3)",
        ),
        (with("1 1 5 2", "3 1 5 2", 0), "5:1: expected x of piece 1 ≤ 2, found 3"),
        (with("1 1 5 2", "1 1 1001 2", 0), "5:5: expected a of piece 1 ≤ 1000, found 1001"),
        (with("1 1 5 2", "1 1 5 6", 0), "5:7: expected b ≤ a = 5 (piece 1), found 6"),
        (with("5 2 0 3", "5 2 2 3", 0), "5:9: expected c of piece 1 ≤ 1, found 2"),
        (with("5 2 0 3", "5 2 0 4", 0), "5:11: expected d of piece 1 ≤ 3, found 4"),
        (with("0 3 1 1 1", "0 3 0 1 1", 0), "5:13: expected f of piece 1 ≥ 1, found 0"),
        (
            with("onepunch 3 2", "onepunch 1001 2", 0),
            "5:28: expected v (the boost) of onepunch (piece 1) ≤ 1000, found 1001",
        ),
        (
            with("onepunch 3 2", "onepunch 3 0", 0),
            "5:30: expected l (its duration) of onepunch (piece 1) ≥ 1, found 0",
        ),
        (
            with("onepunch 3 2", "firework 0", 0),
            "5:28: expected l (the freeze's duration) of firework (piece 1) ≥ 1, found 0",
        ),
        (
            with("onepunch 3 2", "rabiribi -1", 0),
            "5:28: expected v (the sector's size) of rabiribi (piece 1) ≥ 0, found -1",
        ),
        (
            with("onepunch 3 2", "backward 5", 0),
            "5:19: expected a backward that stays within the game (game 1, piece 1), found backward 5 cast at round 1",
        ),
        (
            with("onepunch 3 2", "fly", 0),
            "5:19: expected a skill name (toolihai, faceking, onepunch, rabiribi, firework, viuganda, 2dsaigao, gugugugu, backward, hupraise), found `fly`",
        ),
        (with("onepunch 3 2", "onepunch 3", 0), "5:29: expected a space, found `\\n`"),
        (with("onepunch 3 2", "onepunch 3 2 1", 0), "5:31: expected a line feed, found ` `"),
        (with("toolihai\n", "toolihai", 0), "6:27: expected a line feed, found end of input"),
        (with("toolihai\n", "toolihai \n", 0), "6:27: expected a line feed, found ` `"),
        (
            with("0 0 1\n", "0  0 1\n", 0),
            "3:3: expected an integer (the map cell (1, 2)), found ` `",
        ),
        (with("0 0 1\n", "0\t0 1\n", 0), "3:2: expected a space, found `\\t`"),
        (with("0 0 1\n", "0 0 1\r\n", 0), "3:6: expected a line feed, found `\\r`"),
        (format!("\u{feff}{BASE}"), "1:1: expected an integer (T), found `\\u{feff}`"),
        (format!("{BASE}\n"), "7:1: expected the end of the input, found `\\n`"),
        (format!("{BASE}1"), "7:1: expected the end of the input, found `1`"),
        (with("0 0 1\n", "0 0 1\n0 0 0\n", 0), "5:1: expected x of piece 1 ≥ 1, found 0"),
    ];
    for (input, message) in cases {
        let error = validate(input.as_bytes()).expect_err(&input);
        assert_eq!(error.to_string(), message, "{input:?}");
    }
}

#[test]
fn corners_of_the_official_data() {
    let games = validate(&fixture("official/1.in")).unwrap();
    let reached = corners(&games);
    let named: Vec<&str> =
        CORNERS.iter().zip(reached).filter(|(_, reached)| *reached).map(|(c, _)| *c).collect();
    for corner in CORNERS {
        // The official data reaches every rule corner but the near-ties and the smallest boards.
        let expected = !matches!(
            corner,
            "N = 1"
                | "N = 100"
                | "M = 1"
                | "M = 100"
                | "K = 1"
                | "K = 200"
                | "R = 1"
                | "R = 1000"
                | "a = 0"
                | "near-tie: float-ties decides otherwise"
        );
        assert_eq!(named.contains(&corner), expected, "{corner}");
    }
}

#[test]
fn a_near_tie_is_a_corner() {
    let input = b"1\n1 1 2 1\n0\n1 1 229 92 1 3 1 1 2 toolihai\n1 1 974 938 0 1 1 1 1 toolihai\n";
    let reached = corners(&validate(input).unwrap());
    let at = CORNERS.iter().position(|c| c.starts_with("near-tie")).unwrap();
    assert!(reached[at]);
}
