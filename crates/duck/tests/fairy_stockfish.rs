//! Perft against fairy-stockfish 11.1, which plays this game with `fixtures/duck-variants.ini`.
//!
//! 1,000 random positions (500 reached by random games from the start, 500 random scatters of the
//! two captains and any subset of the other pieces), each compared move by move at depth 2, and
//! 100 of them at depth 3. One fairy-stockfish process answers all of them over UCI
//! (`position fen ...`, `go perft N`). The positions come from fixed seeds, so every run asks the
//! same questions.
//!
//! Where fairy-stockfish is not installed (`apt-get install fairy-stockfish`), the test says so
//! on stderr and passes.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use arbiter_duck::{Position, bench_input, perft};

/// Debian's binary.
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// How long one answer may take before the engine is taken for stuck (a guard against a hang,
/// not a speed requirement: each answer takes milliseconds).
const STUCK: Duration = Duration::from_secs(120);

/// A running fairy-stockfish, its input, and its output lines as they come.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(path: &str) -> Engine {
        let mut child = Command::new(path)
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
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/duck-variants.ini");
        engine.send(&format!("setoption name VariantPath value {}", variants.display()));
        engine.send("setoption name UCI_Variant value duck");
        engine.send("isready");
        engine.wait_for(|line| line == "readyok");
        engine
    }

    fn send(&mut self, command: &str) {
        writeln!(self.input, "{command}").expect("fairy-stockfish reads its input");
        self.input.flush().expect("fairy-stockfish reads its input");
    }

    fn next_line(&self) -> String {
        self.lines.recv_timeout(STUCK).expect("fairy-stockfish answers")
    }

    fn wait_for(&self, done: impl Fn(&str) -> bool) {
        while !done(&self.next_line()) {}
    }

    /// fairy-stockfish's divide at `depth`: each first move in its notation with its count, and
    /// the total.
    fn divide(&mut self, position: &Position, depth: u32) -> (BTreeMap<String, u64>, u64) {
        self.send(&format!("position fen {position}"));
        self.send(&format!("go perft {depth}"));
        let mut moves = BTreeMap::new();
        loop {
            let line = self.next_line();
            if let Some(total) = line.strip_prefix("Nodes searched: ") {
                return (moves, total.trim().parse().expect("a node count"));
            }
            if let Some((mv, count)) = line.split_once(": ") {
                moves.insert(mv.to_owned(), count.trim().parse().expect("a move count"));
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

/// arbiter's divide, in the same form.
fn divide(position: &Position, depth: u32) -> (BTreeMap<String, u64>, u64) {
    let mut moves = BTreeMap::new();
    let total = perft::divide(position, depth, |mv, nodes| {
        moves.insert(mv.uci().to_string(), nodes);
    });
    (moves, total)
}

#[test]
fn perft_agrees_with_fairy_stockfish_on_random_positions() {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        // Written straight to stderr: the test harness captures `eprintln!` of passing tests.
        let _ = writeln!(
            io::stderr(),
            "SKIPPED perft_agrees_with_fairy_stockfish_on_random_positions: {FAIRY_STOCKFISH} \
             not found (apt-get install fairy-stockfish)"
        );
        return;
    }
    let mut engine = Engine::start(FAIRY_STOCKFISH);
    let games = (0..500).map(|seed| bench_input::random_game(seed, 1 + seed as usize % 120));
    let scatters = (0..500).map(bench_input::random_scatter);
    let positions: Vec<Position> = games.zip(scatters).flat_map(|(a, b)| [a, b]).collect();
    let mut finished = 0;
    for (i, position) in positions.iter().enumerate() {
        let depths: &[u32] = if i < 100 { &[2, 3] } else { &[2] };
        for &depth in depths {
            let ours = divide(position, depth);
            assert_eq!(engine.divide(position, depth), ours, "perft {depth} of {position}");
        }
        finished += usize::from(position.is_over());
    }
    // Both kinds of position and some finished games were asked about.
    assert_eq!(positions.len(), 1_000);
    assert!(finished > 0 && finished < 500, "{finished} finished games");
}
