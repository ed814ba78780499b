//! The scanner on arbitrary bytes: a stream read in pieces (bytes that are not UTF-8 replaced as
//! they arrive) reads exactly what the string reads after a lossy conversion: the same tokens,
//! integers, offsets, positions and errors.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_scan::{Place, ScanError, Scanner, Source};
use libfuzzer_sys::fuzz_target;

/// One thing the scanner reported, with the position it was at. Kept as values, not text:
/// formatting every token would cost more than scanning it.
#[derive(Debug, PartialEq)]
enum Event {
    Int(Place, Result<i64, ScanError>),
    Small(Place, Result<i64, ScanError>),
    Holds(Place, bool),
    Token { at: Place, text: String, offset: usize, cut: bool },
    End(Place, bool),
}

/// Everything the scanner reports, alternating the kinds of reads by the input's own bytes.
fn transcript<S: Source>(scanner: &mut Scanner<'_, S>, mode: u8) -> Vec<Event> {
    let mut out = Vec::new();
    let mut step = 0u32;
    loop {
        step += 1;
        let at = scanner.place();
        match (mode >> (step % 8)) & 3 {
            0 => {
                let value = scanner.try_int().ok_or_else(|| scanner.error_here("n"));
                out.push(Event::Int(at, value));
            }
            // `digits` reads only what a stream holds already, so it is left out here; the duck
            // target compares streams and strings on it.
            1 => out.push(Event::Small(at, scanner.int_in(-5, 5, "a small number"))),
            2 => out.push(Event::Holds(at, scanner.holds_tokens(2))),
            _ => {}
        }
        match scanner.token() {
            Some(token) => {
                let (text, offset) = (token.text.to_owned(), token.offset);
                let cut = scanner.is_cut(offset);
                out.push(Event::Token { at, text, offset, cut });
            }
            None => break,
        }
    }
    out.push(Event::End(scanner.place(), scanner.at_end()));
    out
}

fuzz_target!(|data: &[u8]| {
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    let mode = bytes.first().copied().unwrap_or(0);
    let text = String::from_utf8_lossy(bytes);
    let whole = transcript(&mut Scanner::new(&text), mode);
    let streamed = transcript(&mut Scanner::from_reader(pieces), mode);
    // `holds_tokens` may differ: a stream cannot know what it has not read.
    let keep = |events: Vec<Event>| -> Vec<Event> {
        events.into_iter().filter(|e| !matches!(e, Event::Holds(..))).collect()
    };
    assert_eq!(keep(streamed), keep(whole));
});
