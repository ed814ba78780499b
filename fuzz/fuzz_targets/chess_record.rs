//! The contest record check on arbitrary bytes: no panic; the record checked token by token as
//! a stream read in pieces (what `arbiter chess` does) gives the verdict the whole text gives.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_chess_record::{Dialect, RecordCheck, check_record, check_record_in};
use arbiter_scan::Scanner;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    let text = String::from_utf8_lossy(bytes);
    let whole = check_record(&text);
    let mut scanner = Scanner::from_reader(pieces);
    let mut check = RecordCheck::new(Dialect::Contest);
    let mut right = true;
    while let Some(token) = scanner.token() {
        right = check.push(token.text, token.offset);
        if !right {
            break;
        }
    }
    let end = scanner.mark();
    if right {
        assert_eq!(end, text.len(), "the scanner's offsets are the text's");
    }
    assert_eq!(check.finish(end), whole);
    let _ = check_record_in(&text, Dialect::Standard);
});
