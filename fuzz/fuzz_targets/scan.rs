//! The scanner on arbitrary bytes: a stream read in pieces (bytes that are not UTF-8 replaced as
//! they arrive) reads exactly what the string reads after a lossy conversion: the same tokens,
//! integers, offsets, positions and errors.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_scan::{Scanner, Source};
use libfuzzer_sys::fuzz_target;

/// Everything the scanner reports, alternating the kinds of reads by the input's own bytes.
fn transcript<S: Source>(scanner: &mut Scanner<'_, S>, mode: u8) -> Vec<String> {
    let mut out = Vec::new();
    let mut step = 0u32;
    loop {
        step += 1;
        let position = scanner.position();
        match (mode >> (step % 8)) & 3 {
            0 => match scanner.try_int() {
                Some(value) => out.push(format!("{position} int {value}")),
                None => out.push(scanner.error_here("n").to_string()),
            },
            // `digits` reads only what a stream holds already, so it is left out here; the duck
            // target compares streams and strings on it.
            1 => match scanner.int_in(-5, 5, "a small number") {
                Ok(value) => out.push(format!("{position} small {value}")),
                Err(error) => out.push(error.to_string()),
            },
            2 => out.push(format!("{position} holds {}", scanner.holds_tokens(2))),
            _ => {}
        }
        match scanner.token() {
            Some(token) => {
                let (text, offset) = (token.text.to_owned(), token.offset);
                let cut = scanner.is_cut(offset);
                out.push(format!("{position} {text:?} @{offset} {cut}"));
            }
            None => break,
        }
    }
    out.push(format!("end {} {}", scanner.position(), scanner.at_end()));
    out
}

fuzz_target!(|data: &[u8]| {
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    let mode = bytes.first().copied().unwrap_or(0);
    let text = String::from_utf8_lossy(bytes);
    let whole = transcript(&mut Scanner::new(&text), mode);
    let streamed = transcript(&mut Scanner::from_reader(pieces), mode);
    // `holds_tokens` may differ: a stream cannot know what it has not read.
    let keep = |lines: Vec<String>| -> Vec<String> {
        lines.into_iter().filter(|l| !l.contains(" holds ")).collect()
    };
    assert_eq!(keep(streamed), keep(whole));
});
