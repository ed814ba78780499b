//! `chess fix`'s library path on arbitrary bytes: a record or a PGN source rewritten in both
//! dialects. No panic; a rewritten record is accepted by the check of its dialect, and
//! rewriting is idempotent.

#![no_main]

use arbiter_chess_record::fix::{fix_pgn, fix_record, looks_like_pgn_bytes};
use arbiter_chess_record::{Dialect, check_record, check_record_in};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if looks_like_pgn_bytes(data) {
        for dialect in [Dialect::Standard, Dialect::Contest] {
            let fixed = fix_pgn(data, dialect);
            if fixed.problems.is_empty() {
                let again = fix_pgn(&fixed.text, dialect);
                assert_eq!(again.text, fixed.text, "fixing twice changes the text");
            }
        }
        return;
    }
    for dialect in [Dialect::Standard, Dialect::Contest] {
        if let Ok(fixed) = fix_record(&text, dialect) {
            assert!(check_record_in(&fixed, dialect).is_yes(), "{text:?} fixed into {fixed:?}");
            assert_eq!(fix_record(&fixed, dialect).as_ref(), Ok(&fixed));
        }
    }
    if let Ok(fixed) = fix_record(&text, Dialect::Contest) {
        assert!(check_record(&fixed).is_yes());
    }
});
