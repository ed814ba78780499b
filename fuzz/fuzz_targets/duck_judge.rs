//! The Duck Chess judge and its explaining variant on arbitrary bytes: no panic, and one output
//! line per complete command.

#![no_main]

use arbiter_duck::judge::{self, ExplainOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut out = Vec::new();
    let result = judge::run(&text, &mut out);
    if let Ok(summary) = result {
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count() as u64, summary.commands);
    }
    let options = ExplainOptions { board: true, ansi: data.first().is_some_and(|b| b & 1 == 1) };
    let _ = judge::explain(&text, &mut Vec::new(), options);
});
