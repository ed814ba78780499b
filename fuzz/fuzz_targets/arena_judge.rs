//! The arena judge (input and simulation) on arbitrary bytes, under the official rules and the
//! statement's: no panic; when both stop at malformed input they stop at the same token (a game
//! the readings play differently may stop one of them earlier, at a backward before round 1);
//! the judge reading a stream in pieces answers exactly as it does reading the whole text.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_arena::io::Games;
use arbiter_arena::rules::Rules;
use arbiter_arena::{JudgeError, judge, judge_games};
use arbiter_scan::Scanner;
use libfuzzer_sys::fuzz_target;

/// Larger inputs add nothing the parser has not seen and only slow the search down: a game of
/// the statement's maximum size takes milliseconds, but the fuzzer wants thousands a second.
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    let text = String::from_utf8_lossy(bytes);
    let mut whole = String::new();
    let official = judge(&text, Rules::official(), |out| whole.push_str(out));
    let statement = judge(&text, Rules::statement(), |_| {});
    if let (Err(JudgeError::Scan(x)), Err(JudgeError::Scan(y))) = (&official, &statement) {
        assert_eq!(x, y);
    }
    let mut streamed = String::new();
    let result = Games::new(Scanner::from_reader(pieces)).map_err(JudgeError::from).and_then(
        |mut games| {
            judge_games(&mut games, Rules::official(), |_, outcome| {
                streamed.push_str(&outcome.to_string());
            })?;
            Ok(games.trailing().is_some())
        },
    );
    assert_eq!(streamed, whole);
    assert_eq!(result, official);
});
