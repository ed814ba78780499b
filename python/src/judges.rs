//! The official judges, text in, text out: Duck Chess (`judge_duck`, with `explain`), the skill
//! arena (`judge_arena`, with its rule readings) and the record check (`judge_chess`, in
//! [`crate::record`]).

use std::borrow::Cow;

use arbiter_arena::io::Games;
use arbiter_arena::rules::{Rules, RulesError};
use arbiter_arena::sim::play;
use arbiter_arena::{JudgeError as ArenaError, run_error};
use arbiter_duck::judge::{self, ExplainOptions, JudgeError as DuckError, Summary};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::errors::{input_error, scan_error, warn};
use crate::interrupt::{Checked, Signals};
use arbiter_scan::Scanner;

/// Judges a Duck Chess game in the official format (a count `Q`, then `Q` commands
/// `x1 y1 x2 y2`) and returns the official output, one line per command.
///
/// With `explain`, a line `# reason` follows each `Invalid command`; with `board` (which implies
/// `explain`), the board is drawn after each valid move too. Raises InputError for malformed input (its `output` holds the lines of
/// the complete commands before the error); text after the last command is ignored with an
/// InputWarning.
#[pyfunction]
#[pyo3(signature = (input, *, explain = false, board = false))]
pub fn judge_duck(py: Python<'_>, input: String, explain: bool, board: bool) -> PyResult<String> {
    let mut out = Checked::new(Vec::new());
    let result = py.detach(|| {
        if explain || board {
            judge::explain(&input, &mut out, ExplainOptions { board, ansi: false })
        } else {
            judge::run(&input, &mut out)
        }
    });
    let out = out.into_inner();
    let output = String::from_utf8_lossy(&out).into_owned();
    match result {
        Ok(Summary { commands, trailing }) => {
            if let Some(at) = trailing {
                let plural = if commands == 1 { "" } else { "s" };
                let message =
                    format!("{at}: ignoring input after the last of {commands} command{plural}");
                warn(py, &message)?;
            }
            Ok(output)
        }
        Err(DuckError::Input(error)) => Err(scan_error(py, &error, output)),
        // Only a signal handler's exception (Ctrl-C) can stop a write to memory.
        Err(DuckError::Output(error)) => match error.downcast::<PyErr>() {
            Ok(raised) => Err(raised),
            Err(error) => Err(PyOSError::new_err(error.to_string())),
        },
    }
}

/// Judges skill-arena games in the official format and returns the official output.
///
/// `rules` picks the reading: `official` (the official program's behaviour) or `statement`
/// (the statement's text), then `,+NAME` / `,-NAME` switches, e.g. `official,+shadow-any`,
/// which reproduces the published sample. Raises ValueError for unknown rules, InputError for
/// malformed input (its `output` holds the output of the complete games before the error);
/// text after the last game is ignored with an InputWarning.
#[pyfunction]
#[pyo3(signature = (input, rules = Cow::Borrowed("official")), text_signature = "(input, rules='official')")]
pub fn judge_arena(py: Python<'_>, input: String, rules: Cow<'_, str>) -> PyResult<String> {
    let rules: Rules =
        rules.parse().map_err(|error: RulesError| PyValueError::new_err(error.to_string()))?;
    let mut output = String::new();
    let mut signals = Signals::new();
    let result = py.detach(|| judge_games(&input, rules, &mut output, &mut signals));
    signals.raised()?;
    match result {
        Ok(false) => Ok(output),
        Ok(true) => {
            warn(py, "ignoring input after the last game")?;
            Ok(output)
        }
        Err(ArenaError::Scan(error)) => Err(scan_error(py, &error, output)),
        Err(error @ ArenaError::Run { .. }) => {
            Err(input_error(py, error.to_string(), None, output))
        }
    }
}

/// `arbiter_arena::judge`, game by game, as long as `signals` let it go on: the games played
/// so far go into `output`; whether input was left over after the last game.
fn judge_games(
    text: &str,
    rules: Rules,
    output: &mut String,
    signals: &mut Signals,
) -> Result<bool, ArenaError> {
    let mut games = Games::new(Scanner::new(text))?;
    while let Some(game) = games.next() {
        if !signals.go_on() {
            return Ok(false);
        }
        let (number, game) = game?;
        let outcome = play(&game, rules).map_err(|error| run_error(&games, number, error))?;
        output.push_str(&outcome.to_string());
    }
    Ok(games.trailing().is_some())
}
