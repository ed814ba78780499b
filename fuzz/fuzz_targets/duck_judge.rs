//! The Duck Chess judge on arbitrary bytes: no panic; one output line per complete command; the
//! judge reading a stream in pieces answers exactly as it does reading the whole text; the
//! explaining judge and each ruling's report never fail.

#![no_main]

#[path = "common.rs"]
mod common;

use arbiter_duck::judge::{self, Commands, ExplainOptions, Listener, Ruling};
use libfuzzer_sys::fuzz_target;

/// Takes every ruling's report and place, as `duck explain --json` does.
struct Reports(u64);

impl Listener for Reports {
    fn ruling(&mut self, ruling: &Ruling<'_>) -> std::io::Result<()> {
        let report = ruling.report();
        assert_eq!(report.command, ruling.number);
        assert_eq!(report.valid, report.reason.is_none());
        assert!(ruling.place().line >= 1);
        self.0 += 1;
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let (pieces, bytes) = common::Pieces::from_fuzz(data);
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    let whole = judge::run(&text, &mut out);
    if let Ok(summary) = &whole {
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count() as u64, summary.commands);
    }
    let mut streamed_out = Vec::new();
    let streamed = judge::run_reader(pieces, &mut streamed_out);
    assert_eq!(streamed_out, out);
    match (&whole, &streamed) {
        (Ok(x), Ok(y)) => assert_eq!(x, y),
        (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string()),
        _ => panic!("{whole:?} read whole, {streamed:?} streamed"),
    }
    let options = ExplainOptions { board: true, ansi: data.first().is_some_and(|b| b & 1 == 1) };
    let _ = judge::explain(&text, &mut Vec::new(), options);
    if let Ok(commands) = Commands::new(&text) {
        let mut reports = Reports(0);
        if let Ok(summary) = judge::judge(commands, &mut reports) {
            assert_eq!(summary.commands, reports.0);
        }
    }
});
