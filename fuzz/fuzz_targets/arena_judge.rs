//! The arena judge on arbitrary bytes, under the official rules and the statement's: no panic,
//! and when both stop at malformed input they stop at the same token (a game the readings play
//! differently may stop one of them earlier, at a backward before round 1).

#![no_main]

use arbiter_arena::judge;
use arbiter_arena::rules::Rules;
use libfuzzer_sys::fuzz_target;

/// Larger inputs add nothing the parser has not seen and only slow the search down: a game of
/// the statement's maximum size takes milliseconds, but the fuzzer wants thousands a second.
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let official = judge(&text, Rules::official(), |_| {});
    let statement = judge(&text, Rules::statement(), |_| {});
    if let (Err(arbiter_arena::JudgeError::Scan(x)), Err(arbiter_arena::JudgeError::Scan(y))) =
        (&official, &statement)
    {
        assert_eq!(x, y);
    }
});
