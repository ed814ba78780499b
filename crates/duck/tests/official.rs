//! The official THUPC 2019 data and the statement's sample, byte for byte.

use std::fs;
use std::path::Path;

use arbiter_duck::judge;

fn check(case: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let input = fs::read_to_string(dir.join(format!("{case}.in"))).unwrap();
    let expected = fs::read(dir.join(format!("{case}.ans"))).unwrap();
    let mut out = Vec::new();
    let summary = judge::run(&input, &mut out).unwrap();
    assert_eq!(summary.trailing, None, "{case}");
    assert!(out == expected, "{case}: output differs from the official answer");
}

#[test]
fn sample() {
    check("sample/1");
}

#[test]
fn official_1() {
    check("official/1");
}

#[test]
fn official_2() {
    check("official/2");
}

#[test]
fn official_3() {
    check("official/3");
}

#[test]
fn official_4() {
    check("official/4");
}
