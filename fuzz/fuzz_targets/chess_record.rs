//! The chess record check, the PGN reader and checker in both modes, and the rewriting tools on
//! arbitrary bytes: no panic, and a canonical rewrite that the check accepts.

#![no_main]

use arbiter_chess_record::fix::{fix_pgn, fix_record, looks_like_pgn};
use arbiter_chess_record::pgn::{Mode, PgnGames};
use arbiter_chess_record::{Dialect, check_record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = check_record(&text);
    let _ = looks_like_pgn(&text);
    for game in PgnGames::new(data) {
        let _ = game.check(Mode::Strict);
        let _ = game.check(Mode::Lenient);
    }
    let _ = fix_pgn(data, Dialect::Standard);
    let _ = fix_pgn(data, Dialect::Contest);
    // Whatever a record is rewritten into must be a valid record.
    if let Ok(fixed) = fix_record(&text, Dialect::Contest) {
        assert!(check_record(&fixed).is_yes(), "{text:?} fixed into {fixed:?}");
    }
    let _ = fix_record(&text, Dialect::Standard);
});
