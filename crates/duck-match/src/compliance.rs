//! Whether an engine speaks UCI as the runner needs it (`arbiter duck match --compliance`): a
//! list of checks, each passed or failed with what was seen.
//!
//! The checks, in order, each on the same process unless one failed (the engine is then
//! started afresh, so that one fault does not fail every check after it):
//!
//! 1. `uci`: it answers `uci` with `uciok` (its `id name` is shown);
//! 2. `isready`: it answers `isready` with `readyok` (after any options);
//! 3. `ucinewgame`: after `ucinewgame`, it still answers `isready`;
//! 4. `go movetime`: from `position startpos`, its `bestmove` comes within the movetime (plus
//!    the margin) and is a valid move;
//! 5. `position moves`: from `position startpos moves ...` (six plies), its move is valid in
//!    the position the moves lead to;
//! 6. `go wtime btime`: with blue to move on a clock of its own (`btime`, shorter than red's
//!    `wtime`), it moves within blue's time, a valid move;
//! 7. `stop`: under `go infinite` it gives no `bestmove` until told, and answers `stop` with a
//!    valid `bestmove` within 500 ms (plus the margin);
//! 8. `quit`: its process exits within 500 ms of `quit`.
//!
//! Every answer is awaited at most the timeout; every time is the runner's, from the command
//! written to the answer read, as in a match.

use std::fmt;
use std::fs::File;
use std::time::Duration;

use arbiter_duck::{Fen, Game, Move, UciMove};
use arbiter_duck_protocol::{EngineMessage, Go, GuiCommand};

use super::opening::Opening;
use super::process::{EngineError, EngineProcess, EngineSpec, Next};

/// How long an engine has to answer `stop`, and to exit after `quit`.
const PROMPT: Duration = Duration::from_millis(500);

/// One check and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Its name, e.g. `go movetime`.
    pub name: &'static str,
    /// Whether the engine passed it.
    pub passed: bool,
    /// What was seen, e.g. `bestmove d1e2 in 98 ms`.
    pub detail: String,
}

impl fmt::Display for Check {
    /// `pass  NAME: DETAIL` or `FAIL  NAME: DETAIL`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.passed { "pass" } else { "FAIL" };
        write!(f, "{mark}  {}: {}", self.name, self.detail)
    }
}

/// How the checks are timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The `go movetime` of the checks that use one.
    pub movetime: Duration,
    /// How far past its time an answer may come.
    pub margin: Duration,
    /// How long any answer is awaited at most.
    pub timeout: Duration,
}

/// Runs every check on the engine of `spec`, its standard error going to `stderr` (or nowhere).
pub fn check(spec: &EngineSpec, stderr: impl Fn() -> Option<File>, timing: &Timing) -> Vec<Check> {
    let mut checks = Vec::new();
    let start = || EngineProcess::start(spec, stderr(), timing.timeout);
    let mut engine = match start() {
        Ok(engine) => {
            let name = engine.name.clone();
            checks.push(pass("uci", format!("`uciok`, id name `{name}`")));
            checks.push(pass("isready", "`readyok`".to_owned()));
            engine
        }
        Err(error) => {
            let at_uci = matches!(
                error,
                EngineError::Spawn { .. }
                    | EngineError::Timeout { sent: "uci", .. }
                    | EngineError::Exited { sent: "uci", .. }
            );
            if at_uci {
                checks.push(fail("uci", error.to_string()));
            } else {
                checks.push(pass("uci", "`uciok`".to_owned()));
                checks.push(fail("isready", error.to_string()));
            }
            return checks;
        }
    };
    let opening = Opening::random(1, 0, 6);
    let blue_to_move = Opening::random(1, 1, 1);
    let movetime = millis(timing.movetime);
    let clock_go =
        Go { wtime: Some(5000), btime: Some(1000), winc: Some(0), binc: Some(0), ..Go::default() };
    type Run<'a> = Box<dyn Fn(&mut EngineProcess) -> Result<String, String> + 'a>;
    let runs: Vec<(&'static str, Run<'_>)> = vec![
        (
            "ucinewgame",
            Box::new(|engine: &mut EngineProcess| {
                engine
                    .new_game(timing.timeout)
                    .map(|()| "`readyok` after it".to_owned())
                    .map_err(|error| error.to_string())
            }),
        ),
        (
            "go movetime",
            Box::new(move |engine: &mut EngineProcess| {
                let go = Go { movetime: Some(movetime), ..Go::default() };
                ask(engine, &Opening::default(), go, timing.movetime + timing.margin, None, timing)
            }),
        ),
        (
            "position moves",
            Box::new(|engine: &mut EngineProcess| {
                let go = Go { movetime: Some(movetime), ..Go::default() };
                ask(engine, &opening, go, timing.movetime + timing.margin, None, timing)
            }),
        ),
        (
            "go wtime btime",
            Box::new(|engine: &mut EngineProcess| {
                let allowed = Duration::from_millis(1000) + timing.margin;
                ask(engine, &blue_to_move, clock_go.clone(), allowed, None, timing)
                    .map(|seen| format!("{seen}, blue on 1000 ms"))
            }),
        ),
        (
            "stop",
            Box::new(|engine: &mut EngineProcess| {
                let go = Go { infinite: true, ..Go::default() };
                let stop = Some(Duration::from_millis(200));
                ask(engine, &Opening::default(), go, PROMPT + timing.margin, stop, timing)
                    .map(|seen| format!("{seen} after `stop`"))
            }),
        ),
    ];
    for (name, run) in runs {
        match run(&mut engine) {
            Ok(detail) => checks.push(pass(name, detail)),
            Err(detail) => {
                checks.push(fail(name, detail));
                // Whatever it was still doing must not reach the next check.
                match start() {
                    Ok(fresh) => drop(std::mem::replace(&mut engine, fresh)),
                    Err(error) => {
                        checks.push(fail("restart", error.to_string()));
                        return checks;
                    }
                }
            }
        }
    }
    if engine.quits_within(PROMPT) {
        checks.push(pass("quit", format!("exited within {} ms", PROMPT.as_millis())));
    } else {
        checks.push(fail("quit", format!("still running {} ms after `quit`", PROMPT.as_millis())));
    }
    checks
}

fn pass(name: &'static str, detail: String) -> Check {
    Check { name, passed: true, detail }
}

fn fail(name: &'static str, detail: String) -> Check {
    Check { name, passed: false, detail }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Sends the position of `opening` and `go`, sends `stop` after `stop_after` if given, and
/// reads the `bestmove`: what was seen, or what is wrong with it.
fn ask(
    engine: &mut EngineProcess,
    opening: &Opening,
    go: Go,
    allowed: Duration,
    stop_after: Option<Duration>,
    timing: &Timing,
) -> Result<String, String> {
    let game = opening.game().map_err(|error| error.to_string())?;
    let fen: Option<Box<Fen>> = opening.fen.clone().map(Box::new);
    let position = GuiCommand::Position { fen, moves: opening.moves.clone() };
    engine.drain();
    let shown = format!("`{position}`, `{}`", GuiCommand::Go(go.clone()));
    let exited = |engine: &mut EngineProcess| format!("the engine {}", engine.exit_status());
    engine.send(&position).map_err(|_| exited(engine))?;
    let mut sent = engine.send(&GuiCommand::Go(go)).map_err(|_| exited(engine))?;
    if let Some(wait) = stop_after {
        // Under `go infinite` nothing may come back before `stop`.
        let until = sent + wait;
        loop {
            match engine.next_line(until) {
                Next::Line(line) if is_bestmove(&line.text) => {
                    return Err(format!("`{}` before `stop`, after {shown}", line.text.trim()));
                }
                Next::Line(_) => {}
                Next::Timeout => break,
                Next::Closed => return Err(exited(engine)),
            }
        }
        sent = engine.send(&GuiCommand::Stop).map_err(|_| exited(engine))?;
    }
    let deadline = sent + allowed.min(timing.timeout);
    loop {
        let line = match engine.next_line(deadline) {
            Next::Line(line) => line,
            Next::Timeout => {
                let what = if stop_after.is_some() { "`stop`" } else { "`go`" };
                return Err(format!(
                    "no bestmove within {} ms after {what} ({shown})",
                    allowed.as_millis()
                ));
            }
            Next::Closed => return Err(exited(engine)),
        };
        let best = match line.text.parse::<EngineMessage>() {
            Ok(EngineMessage::BestMove { best, .. }) => best,
            Ok(_) => continue,
            Err(_) if is_bestmove(&line.text) => {
                let text = arbiter_scan::Shown(&line.text).to_string();
                return Err(format!("`{text}` is not a move, after {shown}"));
            }
            Err(_) => continue,
        };
        let took = line.at.saturating_duration_since(sent);
        return match best {
            None => Err(format!("`bestmove (none)` with valid moves, after {shown}")),
            Some(mv) => legal(&game, mv)
                .map(|()| format!("bestmove {} in {} ms", UciMove(mv), took.as_millis()))
                .map_err(|reason| {
                    format!("bestmove {} is not valid ({reason}), after {shown}", UciMove(mv))
                }),
        };
    }
}

fn is_bestmove(text: &str) -> bool {
    text.split_whitespace().next() == Some("bestmove")
}

/// Whether `mv` is valid in `game`.
fn legal(game: &Game, mv: Move) -> Result<(), String> {
    let mut game = game.clone();
    game.play(mv.from, mv.to).map(|_| ()).map_err(|invalid| invalid.to_string())
}
