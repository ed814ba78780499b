//! An analysis as it is handed out: one entry per command of the game (the invalid ones
//! included, as the judge rules them), then each side's account; and the same as an annotated
//! official command list. `arbiter duck analyse --json` writes the entries as JSON lines, the
//! server keeps and serves the whole [`Report`].
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck::judge::Command;
//! use arbiter_duck_learn::analysis::Analyser;
//! use arbiter_duck_learn::report::{self, Report};
//!
//! let commands = [((3, 4), (4, 4)), ((9, 9), (9, 9)), ((6, 4), (5, 4))];
//! let commands = commands.map(|(from, to)| Command { from, to });
//! let (steps, moves) = report::judge(&Position::new(), commands);
//! assert_eq!(steps[1].reason.as_deref(), Some("(9,9) is off the board"));
//! let analysis = Analyser::new(1_000).analyse(&Position::new(), &moves, |_, _| {}).unwrap();
//! let report = Report::new(&steps, &analysis);
//! assert_eq!(report.commands.len(), 3);
//! assert!(!report.commands[1].valid);
//! assert_eq!(report.commands[2].ply, 3);
//! let text = report::annotated(&report, None);
//! assert!(text.starts_with("3\n3 4 4 4\n9 9 9 9\n6 4 5 4\n"));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use arbiter_duck::judge::Command;
use arbiter_duck::{Color, Game, Move, Position};
use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, MoveAnalysis, SideSummary};
use crate::mark::Mark;
use crate::score::RedScore;

/// A command of a game as the judge ruled it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The command as written, `x1 y1 x2 y2`.
    pub command: String,
    /// The move it made, when valid.
    pub valid: Option<Move>,
    /// Why it is invalid.
    pub reason: Option<String>,
}

/// Judges `commands` from `start` as the official judge does (an invalid command, coordinates
/// off the board included, changes nothing): each one's step, and the valid moves in order.
pub fn judge(
    start: &Position,
    commands: impl IntoIterator<Item = Command>,
) -> (Vec<Step>, Vec<Move>) {
    let mut game = Game::from_position(start.clone());
    let mut steps = Vec::new();
    let mut moves = Vec::new();
    for Command { from, to } in commands {
        let command = format!("{} {} {} {}", from.0, from.1, to.0, to.1);
        let step = match game.play_coords(from, to) {
            Ok(_) => {
                let mv = game.history().last();
                moves.extend(mv);
                Step { command, valid: mv, reason: None }
            }
            Err(invalid) => Step { command, valid: None, reason: Some(invalid.to_string()) },
        };
        steps.push(step);
    }
    (steps, moves)
}

/// One command's entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandReport {
    /// The command's number, from 1.
    pub ply: usize,
    /// The command as written.
    pub command: String,
    /// The position after it, from red's side; null for an invalid command.
    pub eval: Option<RedScore>,
    /// The engine's best move in the position before it, as an official command.
    pub best: Option<String>,
    /// Its mark.
    pub mark: Option<Mark>,
    /// Whether the judge accepts it.
    pub valid: bool,
    /// Why it is invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The side that played it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mover: Option<String>,
    /// The best move's score, from red's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_eval: Option<RedScore>,
    /// The engine's line from the position before, as official commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
    /// The expected score it lost, to a thousandth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<f64>,
    /// The centipawns it lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<i32>,
    /// Its accuracy, to a tenth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
}

/// A side's account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// The game accuracy, to a tenth.
    pub accuracy: Option<f64>,
    /// The average loss, to a tenth.
    pub average_loss: Option<f64>,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

/// The game's account: each side's accuracy and average loss, by side name and per side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// `{"red": ..., "blue": ...}`.
    pub accuracy: BTreeMap<String, Option<f64>>,
    /// `{"red": ..., "blue": ...}`.
    pub average_loss: BTreeMap<String, Option<f64>>,
    /// Red's account.
    pub red: SideReport,
    /// Blue's account.
    pub blue: SideReport,
    /// The nodes searched per position.
    pub nodes: u64,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// One entry per command.
    pub commands: Vec<CommandReport>,
    /// The game's account.
    pub summary: Summary,
}

/// Rounded to a tenth.
fn tenth(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

impl From<&SideSummary> for SideReport {
    fn from(side: &SideSummary) -> SideReport {
        SideReport {
            accuracy: side.accuracy.map(tenth),
            average_loss: side.average_loss.map(tenth),
            inaccuracies: side.inaccuracies,
            mistakes: side.mistakes,
            blunders: side.blunders,
        }
    }
}

impl Report {
    /// The report of `analysis`, the analysis of the valid moves of `steps`.
    pub fn new(steps: &[Step], analysis: &Analysis) -> Report {
        let mut moves = analysis.moves.iter();
        let commands = steps
            .iter()
            .enumerate()
            .map(|(index, step)| {
                let analysed = if step.valid.is_some() { moves.next() } else { None };
                entry(index + 1, step, analysed)
            })
            .collect();
        let side = |color: Color| analysis.side(color);
        let by_side = |value: fn(&SideSummary) -> Option<f64>| {
            Color::ALL.iter().map(|&c| (c.name().to_owned(), value(side(c)).map(tenth))).collect()
        };
        Report {
            commands,
            summary: Summary {
                accuracy: by_side(|s| s.accuracy),
                average_loss: by_side(|s| s.average_loss),
                red: SideReport::from(&analysis.red),
                blue: SideReport::from(&analysis.blue),
                nodes: analysis.nodes,
            },
        }
    }
}

/// A command's entry.
fn entry(ply: usize, step: &Step, analysed: Option<&MoveAnalysis>) -> CommandReport {
    CommandReport {
        ply,
        command: step.command.clone(),
        eval: analysed.map(|m| m.eval),
        best: analysed.map(|m| m.best.to_string()),
        mark: analysed.and_then(|m| m.mark),
        valid: step.valid.is_some(),
        reason: step.reason.clone(),
        mover: analysed.map(|m| m.mover.name().to_owned()),
        best_eval: analysed.map(|m| m.best_eval),
        line: analysed.map(|m| m.line.iter().map(Move::to_string).collect()),
        drop: analysed.map(|m| (m.drop * 1000.0).round() / 1000.0),
        loss: analysed.map(|m| m.loss),
        accuracy: analysed.map(|m| tenth(m.accuracy)),
    }
}

/// A score for a person: `+0.35` in soldiers, `#3` / `#-3` for a forced capture, `red wins`.
pub fn shown(score: RedScore) -> String {
    match score {
        RedScore::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        RedScore::Mate(moves) => format!("#{moves}"),
        RedScore::Won(winner) => format!("{winner} wins"),
    }
}

/// The game as an official command list with the analysis as comments after it: the count and
/// the commands first (so the judge reads the file as the game, and only warns of the lines
/// after them), then a `#` line per command (its number, mark, evaluation and the engine's best
/// move when another was played) and one per side. `fen` names a start other than the
/// official one, which the official format cannot carry.
pub fn annotated(report: &Report, fen: Option<&str>) -> String {
    let mut text = format!("{}\n", report.commands.len());
    for entry in &report.commands {
        let _ = writeln!(text, "{}", entry.command);
    }
    let _ = writeln!(text, "# analysed by arbiter at {} nodes a position", report.summary.nodes);
    if let Some(fen) = fen {
        let _ = writeln!(text, "# from the position {fen}");
    }
    for entry in &report.commands {
        let _ = write!(text, "# {}. {}", entry.ply, entry.command);
        match (&entry.eval, entry.valid) {
            (Some(eval), true) => {
                if let Some(mark) = entry.mark {
                    let _ = write!(text, " {mark}");
                }
                let _ = write!(text, " {}", shown(*eval));
                if let (Some(best), Some(best_eval)) = (&entry.best, entry.best_eval)
                    && best != &entry.command
                {
                    let _ = write!(text, " (best {best} {})", shown(best_eval));
                }
            }
            _ => {
                let reason = entry.reason.as_deref().unwrap_or("not analysed");
                let _ = write!(text, " invalid: {reason}");
            }
        }
        text.push('\n');
    }
    for (name, side) in [("red", &report.summary.red), ("blue", &report.summary.blue)] {
        let number = |value: Option<f64>| value.map_or("-".to_owned(), |v| format!("{v:.1}"));
        let _ = writeln!(
            text,
            "# {name}: accuracy {}, average loss {}, inaccuracies {}, mistakes {}, blunders {}",
            number(side.accuracy),
            number(side.average_loss),
            side.inaccuracies,
            side.mistakes,
            side.blunders
        );
    }
    text
}
