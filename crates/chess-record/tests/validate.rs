//! The strict validator of records: the sample passes; each malformation and each limit one past
//! its edge is rejected where it happens, with what was expected; each limit at its edge passes.

use arbiter_chess_record::validate::{CORNERS, MAX_ROUNDS, corners, validate};

/// A record of `rounds` rounds of knights going out and back, with black's last move or not.
fn record(rounds: u32, last_black: bool) -> String {
    let moves = [["Nf3", "Nf6"], ["Ng1", "Ng8"]];
    let mut text = String::new();
    for round in 1..=rounds {
        let [white, black] = moves[(round as usize - 1) % 2];
        if round > 1 {
            text.push(' ');
        }
        text.push_str(&format!("{round}. {white}"));
        if round < rounds || last_black {
            text.push_str(&format!(" {black}"));
        }
    }
    text.push('\n');
    text
}

#[test]
fn the_sample_is_valid() {
    let sample = include_bytes!("fixtures/sample/1.in");
    assert_eq!(validate(sample).unwrap().len(), 29);
}

#[test]
fn limits_at_their_edges_are_valid() {
    validate(b"\n").unwrap();
    validate(record(MAX_ROUNDS, true).as_bytes()).unwrap();
    validate(record(MAX_ROUNDS, false).as_bytes()).unwrap();
    validate(b"1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Nf6 6. Bc4 Bf5 7. O-O e6\n")
        .unwrap();
}

#[test]
fn malformations_are_rejected_where_they_are() {
    let too_long = record(MAX_ROUNDS + 1, false);
    let column = too_long.find("301.").unwrap() + 1;
    let past_the_bound = format!("1:{column}: expected at most 300 rounds, found `301.`");
    let cases: Vec<(&[u8], &str)> = vec![
        (too_long.as_bytes(), &past_the_bound),
        (
            b"1.  e4\n",
            "1:4: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found ` `",
        ),
        (
            b"1. e4 \n",
            "1:7: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `\\n`",
        ),
        (b"1.\te4\n", "1:3: expected a space, found `\\t`"),
        (b"1. e4 e5\r\n", "1:9: expected a space or a line feed, found `\\r`"),
        (b"1. e4 e5", "1:9: expected a space or a line feed, found end of input"),
        (b"\xef\xbb\xbf1. e4\n", "1:1: expected the move number `1.`, found `\\u{feff}`"),
        (b"1. e4\n2. e5\n", "2:1: expected the end of the input, found `2`"),
        (b"1. e4\n\n", "2:1: expected the end of the input, found `\\n`"),
        (b"2. e4\n", "1:1: expected the move number `1.`, found `2.`"),
        (b"1. e4 e5 3. Nf3\n", "1:10: expected the move number `2.`, found `3.`"),
        (b"1.e4\n", "1:1: expected the move number `1.`, found `1.e4`"),
        (
            b"1. e4 2. e5\n",
            "1:7: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `2.`",
        ),
        (b"1. e4 e5 2.\n", "1:12: expected a space, found `\\n`"),
        (
            b"1. e2e4\n",
            "1:4: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `e2e4`",
        ),
        (
            b"1. e4 e5 2. 0-0\n",
            "1:13: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `0-0`",
        ),
        (
            b"1. e4 e5 2. Qh5#\n",
            "1:13: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `Qh5#`",
        ),
        (
            b"1. e8=Q\n",
            "1:4: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `e8=Q`",
        ),
        (
            b"1. e4 {good}\n",
            "1:7: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `{good}`",
        ),
        (b"1. e4 e5 1-0\n", "1:10: expected the move number `2.`, found `1-0`"),
        (b" 1. e4\n", "1:1: expected the move number `1.`, found ` `"),
        (
            b"1. \xc3\xa94\n",
            "1:4: expected a move as the statement writes one (e4, Nf3, Ngf3, exd5, e8Q, O-O, Qxc8+), found `\u{e9}`",
        ),
    ];
    for (input, message) in cases {
        let error = validate(input).expect_err(&String::from_utf8_lossy(input));
        assert_eq!(error.to_string(), message, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn corners_of_the_sample() {
    let sample = include_bytes!("fixtures/sample/1.in");
    let reached = corners(&validate(sample).unwrap());
    let named: Vec<&str> =
        CORNERS.iter().zip(reached).filter(|(_, reached)| *reached).map(|(c, _)| *c).collect();
    for corner in ["answer Yes", "O-O-O", "en passant", "promotion", "check", "disambiguation"] {
        assert!(named.contains(&corner), "{corner} not in {named:?}");
    }
    assert!(!named.contains(&"answer No"));
}
