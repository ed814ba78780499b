//! `chess pgn`'s library path on arbitrary bytes: the games are cut as the command cuts them,
//! then read and checked in strict and lenient mode. No panic; every game is reported with a
//! place inside the input, and a game that is fine in strict mode is fine in lenient mode.

#![no_main]

use arbiter_chess_record::pgn::{Mode, PgnGames, split_games};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A line ends at LF, CR LF or a lone CR: at most one line per such byte, plus the first.
    let lines = 1 + data.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    for game in split_games(data) {
        let game = game.read();
        let strict = game.check(Mode::Strict);
        let lenient = game.check(Mode::Lenient);
        assert!(strict.line >= 1 && strict.line <= lines, "game at line {}", strict.line);
        if let Err(error) = &strict.result {
            assert!(error.at().line as usize <= lines, "error at {}", error.at());
        }
        if strict.result.is_ok() {
            assert!(lenient.result.is_ok(), "strict accepts what lenient rejects");
        }
    }
    // The iterator over a whole source reads the same games.
    assert_eq!(PgnGames::new(data).count(), split_games(data).len());
});
