//! The openings file of `duck match` on arbitrary text: no panic; an error names a line of the
//! text; every opening read is written back as a line that reads to the same opening, and its
//! moves are played by the rules to a game that is still going on.

#![no_main]

use arbiter_duck_match::opening::parse_openings;
use libfuzzer_sys::fuzz_target;

/// Each line is read and played; longer files add nothing the reader has not seen.
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    // A line ends at LF, CR LF or a lone CR: at most one line per such byte, plus the first.
    let lines = 1 + data.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    match parse_openings(&text) {
        Ok(openings) => {
            for opening in openings {
                // `Display` writes the argument of UCI's `position` command (`startpos moves ...`,
                // `fen FEN moves ...`), which is a line of the file.
                let written = opening.to_string();
                let again = parse_openings(&written).expect("a written opening reads");
                assert_eq!(again, [opening.clone()], "{written}");
                let game = opening.game().expect("a parsed opening plays");
                assert!(game.position().outcome().is_none(), "{written} ends the game");
            }
        }
        Err(error) => assert!(error.place.line as usize <= lines, "{error}"),
    }
});
