//! `arbiter chess [FILE]` and `arbiter chess --each-line`: contest records read as streams by
//! [`arbiter_chess_record::judge`], their answers written here.

use std::io::{self, Write};

use arbiter_chess_record::judge::{self, JudgeError, Judged, Listener};
use arbiter_chess_record::{Fault, Mistake, Verdict};
use arbiter_scan::Place;
use serde::Serialize;

use crate::input::{CliError, FileArg, Opened};
use crate::output::Output;

/// What to write for each record.
#[derive(Debug, Clone, Copy)]
pub struct Answers {
    /// Explain each `No` on stderr.
    explain: bool,
    /// JSON objects on stdout instead of `Yes` / `No`.
    json: bool,
}

impl Answers {
    /// `--explain` and `--json` as given.
    pub fn new(explain: bool, json: bool) -> Answers {
        Answers { explain, json }
    }
}

/// The answers of one input, written as [`Answers`] says.
struct Written {
    answers: Answers,
    report: Output,
}

impl Listener for Written {
    /// The place of a mistake is written with `--explain` and `--json`.
    fn wants_place(&self) -> bool {
        self.answers.explain || self.answers.json
    }

    /// Writes `Yes`, `No` or the record's JSON object on stdout, and with `--explain` the
    /// mistake on stderr at its place.
    fn record(&mut self, judged: &Judged<'_>) -> io::Result<()> {
        let Judged { line, verdict, place } = *judged;
        let mistake = match (verdict, place) {
            (Verdict::No(mistake), Some(at)) => Some((mistake.as_ref(), at)),
            _ => None,
        };
        let report = &mut self.report;
        if self.answers.json {
            let object = RecordJson::new(line, verdict, mistake);
            serde_json::to_writer(&mut *report, &object)?;
            report.write_all(b"\n")?;
        } else {
            report.write_all(if verdict.is_yes() { b"Yes\n" } else { b"No\n" })?;
        }
        if let (true, Some((mistake, at))) = (self.answers.explain, mistake) {
            report.note(at, mistake);
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.report.flush()
    }
}

/// One record as `arbiter chess --json` writes it, e.g.
/// `{"ok":false,"plies":2,"error":{"line":1,"column":12,"ply":3,"move_number":2,"side":"white",
/// "token":"Nb1d2","reason":"...","canonical":"Nd2"}}` (`--each-line` adds `"line"` first).
#[derive(Serialize)]
struct RecordJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    ok: bool,
    /// The moves accepted: all of them, or those before the mistake.
    plies: u32,
    error: Option<MistakeJson<'a>>,
}

/// Where a record goes wrong and why, the same fields as a PGN game's error.
#[derive(Serialize)]
struct MistakeJson<'a> {
    line: u32,
    column: u32,
    ply: u32,
    move_number: u32,
    side: &'static str,
    token: &'a str,
    reason: String,
    /// The right spelling of a legal move written wrong.
    canonical: Option<&'a str>,
}

impl<'a> RecordJson<'a> {
    fn new(line: Option<u64>, verdict: &Verdict, mistake: Option<(&'a Mistake, Place)>) -> Self {
        let plies = match verdict {
            Verdict::Yes { plies } => *plies,
            Verdict::No(mistake) => mistake.ply.saturating_sub(1),
        };
        let error = mistake.map(|(mistake, at)| MistakeJson {
            line: at.line,
            column: at.column,
            ply: mistake.ply,
            move_number: mistake.move_number,
            side: if mistake.side.is_white() { "white" } else { "black" },
            token: &mistake.token,
            reason: mistake.fault.to_string(),
            canonical: match &mistake.fault {
                Fault::Misspelled { canonical, .. } => Some(canonical),
                _ => None,
            },
        });
        RecordJson { line, ok: verdict.is_yes(), plies, error }
    }
}

/// The official judge: the whole input is one record; `Yes` or `No` on stdout.
pub fn run_record(file: &FileArg, answers: Answers) -> Result<(), CliError> {
    let input = Opened::open(file.file.as_deref())?;
    let mut written = Written { answers, report: Output::new(&input.name) };
    judge::judge_record(&input.file, &mut written).map_err(|error| failed(&input, error))
}

/// One record per line, checked in parallel, answers in input order.
pub fn run_lines(file: &FileArg, answers: Answers) -> Result<(), CliError> {
    let input = Opened::open(file.file.as_deref())?;
    let mut written = Written { answers, report: Output::new(&input.name) };
    judge::judge_lines(&input.file, &mut written).map_err(|error| failed(&input, error))
}

/// The error that ends a judge of `input`.
fn failed(input: &Opened, error: JudgeError) -> CliError {
    match error {
        JudgeError::Input(error) => input.error(error),
        JudgeError::Read(error) => CliError::Read { source_name: input.name.clone(), error },
        JudgeError::Output(error) => error.into(),
    }
}
