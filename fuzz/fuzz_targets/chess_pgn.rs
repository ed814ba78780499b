//! `chess pgn`'s library path on arbitrary bytes: the games are cut as the command cuts them (a
//! stream read in pieces, decompressed when its first bytes say so), then read and checked in
//! strict and lenient mode. No panic; every game is reported with a place inside the input; a
//! game that is fine in strict mode is fine in lenient mode; and the stream gives the reports
//! that the text held in memory gives.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_chess_record::pgn::{Compression, MAX_GAME_BYTES, Mode, PgnGames, check_games};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    // A line ends at LF, CR LF or a lone CR: at most one line per such byte, plus the first.
    let lines = 1 + bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    let mut strict_reports = Vec::new();
    for game in PgnGames::new(bytes) {
        let strict = game.check(Mode::Strict);
        let lenient = game.check(Mode::Lenient);
        assert!(strict.line >= 1 && strict.line as usize <= lines, "game at line {}", strict.line);
        if let Some(error) = &strict.error {
            assert!(error.at().line as usize <= lines, "error at {}", error.at());
        }
        assert_eq!(strict.ok, strict.error.is_none());
        if strict.ok {
            assert!(lenient.ok, "strict accepts what lenient rejects: {:?}", lenient.error);
        }
        strict_reports.push(strict);
    }
    let compressed = Compression::detect(&bytes[..bytes.len().min(4)]) != Compression::None;
    let Ok(reports) = check_games(pieces, Mode::Strict, MAX_GAME_BYTES) else { return };
    let streamed: Vec<_> = reports.collect();
    if !compressed {
        let streamed: Vec<_> = streamed.into_iter().map(|r| r.expect("memory reads")).collect();
        assert_eq!(streamed, strict_reports);
    }
});
