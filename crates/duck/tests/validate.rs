//! The strict validator: the official data and the sample pass; each malformation and each limit
//! one past its edge is rejected where it happens, with what was expected; each limit at its edge
//! passes.

use arbiter_duck::validate::{MAX_COMMANDS, validate};

const DATA: [&[u8]; 5] = [
    include_bytes!("fixtures/sample/1.in"),
    include_bytes!("fixtures/official/1.in"),
    include_bytes!("fixtures/official/2.in"),
    include_bytes!("fixtures/official/3.in"),
    include_bytes!("fixtures/official/4.in"),
];

#[test]
fn the_official_data_and_the_sample_are_valid() {
    for input in DATA {
        validate(input).unwrap();
    }
}

/// An input of `count` copies of the command `0 0 1 0`.
fn commands(count: i64) -> String {
    format!("{count}\n{}", "0 0 1 0\n".repeat(count as usize))
}

#[test]
fn limits_at_their_edges_are_valid() {
    for input in [
        "0\n".to_owned(),
        commands(MAX_COMMANDS),
        "1\n0 0 9 8\n".to_owned(),
        "2\n9 8 0 0\n0 8 9 0\n".to_owned(),
    ] {
        validate(input.as_bytes()).unwrap();
    }
}

#[test]
fn malformations_are_rejected_where_they_are() {
    let too_many = commands(MAX_COMMANDS + 1);
    let cases: Vec<(&[u8], &str)> = vec![
        (too_many.as_bytes(), "1:1: expected Q \u{2264} 1000, found 1001"),
        (b"-1\n", "1:1: expected Q \u{2265} 0, found -1"),
        (b"1\n10 0 1 0\n", "2:1: expected x1 of command 1 \u{2264} 9, found 10"),
        (b"1\n0 9 1 0\n", "2:3: expected y1 of command 1 \u{2264} 8, found 9"),
        (b"1\n0 0 -1 0\n", "2:5: expected x2 of command 1 \u{2265} 0, found -1"),
        (b"1\n0 0 1 9\n", "2:7: expected y2 of command 1 \u{2264} 8, found 9"),
        (b"1\n0 0  1 0\n", "2:5: expected an integer (x2 of command 1), found ` `"),
        (b"1\n0 0 1 0 \n", "2:8: expected a line feed, found ` `"),
        (b"1\n0\t0 1 0\n", "2:2: expected a space, found `\\t`"),
        (b"1\r\n0 0 1 0\r\n", "1:2: expected a line feed, found `\\r`"),
        (b"1\n0 0 1 0", "2:8: expected a line feed, found end of input"),
        (b"\xef\xbb\xbf1\n0 0 1 0\n", "1:1: expected an integer (Q), found `\\u{feff}`"),
        (b"1\n0 0 1 0\n0 0 1 0\n", "3:1: expected the end of the input, found `0`"),
        (b"1\n0 0 1 0\n\n", "3:1: expected the end of the input, found `\\n`"),
        (b"2\n0 0 1 0\n", "3:1: expected an integer (x1 of command 2), found end of input"),
        (b"1 0 0 1 0\n", "1:2: expected a line feed, found ` `"),
        (b"01\n0 0 1 0\n", "1:1: expected an integer (Q), found `01`"),
        (b"1\n0 0 1 +0\n", "2:7: expected an integer (y2 of command 1), found `+0`"),
        (b"1\n0 0 1 x\n", "2:7: expected an integer (y2 of command 1), found `x`"),
        (b"\n1\n0 0 1 0\n", "1:1: expected an integer (Q), found `\\n`"),
        (b"1\n0 0 1 0\n\x00", "3:1: expected the end of the input, found `\\u{0}`"),
    ];
    for (input, message) in cases {
        let error = validate(input).expect_err(&String::from_utf8_lossy(input));
        assert_eq!(error.to_string(), message, "{:?}", String::from_utf8_lossy(input));
    }
}
