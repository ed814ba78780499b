//! fairy-stockfish 11.1 as a second judge of puzzles: it plays this game with
//! `crates/duck/tests/fixtures/duck-variants.ini` and searches each solver position of a puzzle
//! to a fixed depth with two lines (MultiPV 2). Its best line must start with the solution's
//! move, and its second must be no win: no capture of the captain by force, and, when the best
//! is not one either, at least [`MARGIN`] of its centipawns lower. Shared by the test
//! `fairy_stockfish.rs` and the example `fairy_filter.rs`, which drops from a collection the
//! puzzles it does not agree with.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use arbiter_duck_learn::puzzle::Puzzle;

/// Debian's binary.
pub const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// The depth of each search.
const DEPTH: u32 = 10;

/// How much lower, in fairy-stockfish's centipawns, the second line must be.
const MARGIN: i32 = 200;

/// How long one answer may take before the engine is taken for stuck (a guard against a hang,
/// not a speed requirement).
const STUCK: Duration = Duration::from_secs(120);

/// A line's score, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Score {
    Cp(i32),
    Mate(i32),
}

/// A running fairy-stockfish.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(FAIRY_STOCKFISH)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fairy-stockfish starts");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine { child, input, lines };
        let variants =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../duck/tests/fixtures/duck-variants.ini");
        engine.send(&format!("setoption name VariantPath value {}", variants.display()));
        engine.send("setoption name UCI_Variant value duck");
        engine.send("setoption name Threads value 1");
        engine.send("setoption name MultiPV value 2");
        engine.send("isready");
        while engine.next_line() != "readyok" {}
        engine
    }

    fn send(&mut self, command: &str) {
        writeln!(self.input, "{command}").expect("fairy-stockfish reads its input");
        self.input.flush().expect("fairy-stockfish reads its input");
    }

    fn next_line(&self) -> String {
        self.lines.recv_timeout(STUCK).expect("fairy-stockfish answers")
    }

    /// The two best lines at [`DEPTH`] after `moves` from `fen`: (first move, score) each, as
    /// the last iteration that reported both gave them.
    fn two_lines(&mut self, fen: &str, moves: &[String]) -> Vec<(String, Score)> {
        let moves =
            if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        self.send("ucinewgame");
        self.send(&format!("position fen {fen}{moves}"));
        self.send(&format!("go depth {DEPTH}"));
        let mut lines: Vec<Option<(String, Score)>> = vec![None, None];
        loop {
            let line = self.next_line();
            if line.starts_with("bestmove") {
                return lines.into_iter().flatten().collect();
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let field = |name: &str| words.iter().position(|w| *w == name).map(|i| i + 1);
            let (Some(k), Some(s), Some(pv)) = (field("multipv"), field("score"), field("pv"))
            else {
                continue;
            };
            let rank: usize = words[k].parse().expect("a line's rank");
            let value: i32 = words[s + 1].parse().expect("a score");
            let score = if words[s] == "mate" { Score::Mate(value) } else { Score::Cp(value) };
            if (1..=2).contains(&rank) && pv < words.len() {
                lines[rank - 1] = Some((words[pv].to_owned(), score));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// What is wrong with `puzzle` by fairy-stockfish, if anything.
pub fn judge(engine: &mut Engine, puzzle: &Puzzle) -> Option<String> {
    let uci: Vec<String> = puzzle.solution.iter().map(|mv| mv.uci().to_string()).collect();
    for at in (0..uci.len()).step_by(2) {
        let lines = engine.two_lines(&puzzle.fen, &uci[..at]);
        let Some((first, best)) = lines.first().cloned() else {
            return Some(format!("move {}: no line", at + 1));
        };
        if first != uci[at] {
            return Some(format!(
                "move {}: fairy-stockfish plays {first}, not {}",
                at + 1,
                uci[at]
            ));
        }
        let Some((second_move, second)) = lines.get(1).cloned() else { continue };
        let unique = match (best, second) {
            (_, Score::Mate(n)) if n > 0 => false,
            (Score::Mate(_), _) => true,
            (Score::Cp(a), Score::Cp(b)) => a - b >= MARGIN,
            (Score::Cp(_), Score::Mate(_)) => true,
        };
        if !unique {
            return Some(format!(
                "move {}: {second_move} ({second:?}) is as good as {first} ({best:?})",
                at + 1
            ));
        }
    }
    None
}
