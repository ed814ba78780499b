//! End-to-end tests of `arbiter duck uci`: the binary driven through its standard input, its
//! answers read line by line from its standard output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use arbiter_duck::{Move, Position};
use arbiter_duck_protocol::{EngineMessage, Info, Score};

/// Far more than any answer takes: only guards the test against a hang.
const PATIENCE: Duration = Duration::from_secs(120);

/// What "at once" allows on a busy machine: a stop is noticed within milliseconds, and what it
/// stops (a deep perft) would otherwise run for years.
const PROMPTLY: Duration = Duration::from_secs(5);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["duck", "uci"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> String {
        self.lines.recv_timeout(PATIENCE).expect("the engine answers")
    }

    /// Every line up to and including the first one for which `last` holds.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn until_bestmove(&self) -> (Vec<String>, Option<Move>) {
        let lines = self.until(|line| line.starts_with("bestmove"));
        let Ok(EngineMessage::BestMove { best, .. }) = lines.last().unwrap().parse() else {
            panic!("not a bestmove line: {lines:?}");
        };
        (lines, best)
    }

    /// Waits for the process to end by itself within [`PROMPTLY`]; its exit status.
    fn ends_promptly(&mut self) -> Option<i32> {
        let deadline = Instant::now() + PROMPTLY;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the engine still runs {PROMPTLY:?} later");
    }

    /// Closes standard input and waits for the process to end; its exit status.
    fn close(mut self) -> Option<i32> {
        drop(self.stdin.take());
        self.child.wait().unwrap().code()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn info_strings(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|line| line.starts_with("info string")).collect()
}

/// The `info` lines among `lines`, read.
fn infos(lines: &[String]) -> Vec<Info> {
    lines
        .iter()
        .filter_map(|line| match line.parse() {
            Ok(EngineMessage::Info(info)) => Some(info),
            _ => None,
        })
        .collect()
}

/// The position after `moves` from the start.
fn after(moves: &[&str]) -> Position {
    let mut position = Position::new();
    for mv in moves {
        let _ = position.make(mv.parse().unwrap());
    }
    position
}

#[test]
fn handshake_names_the_engine_and_its_options() {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    let lines = engine.until(|line| line == "uciok");
    assert!(lines[0].starts_with("id name arbiter"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin default 16 min 1")));
    assert!(lines.contains(&"option name UCI_Variant type combo default duck var duck".to_owned()));
    assert!(lines.contains(&"option name Clear Hash type button".to_owned()));
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 256".to_owned()));
    for line in &lines {
        assert!(line.parse::<EngineMessage>().is_ok(), "{line}");
    }
    engine.send("setoption name UCI_Variant value duck");
    engine.send("setoption name Hash value 1");
    engine.send("ucinewgame");
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn threads_search_together_and_answer_once() {
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Threads value 3");
    engine.send("position startpos moves e4e5 e7e6");
    engine.send("go depth 5");
    let (lines, best) = engine.until_bestmove();
    let depths: Vec<_> = infos(&lines).iter().filter_map(|info| info.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "{lines:?}");
    let position = after(&["e4e5", "e7e6"]);
    assert!(position.is_legal(best.unwrap()));
    // One thread again: the same search still answers.
    engine.send("setoption name Threads value 1");
    engine.send("go depth 3");
    let (_, best) = engine.until_bestmove();
    assert!(position.is_legal(best.unwrap()));
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn go_depth_reports_each_iteration_and_a_valid_move() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos moves e4e5 e7e6");
    engine.send("go depth 4");
    let (lines, best) = engine.until_bestmove();
    let infos = infos(&lines);
    assert_eq!(infos.iter().map(|info| info.depth.unwrap()).collect::<Vec<_>>(), [1, 2, 3, 4]);
    for info in &infos {
        assert!(info.seldepth.is_some() && info.nodes.is_some() && info.nps.is_some());
        assert!(info.time.is_some() && info.hashfull.is_some() && info.score.is_some());
        assert!(!info.pv.is_empty());
    }
    let position = after(&["e4e5", "e7e6"]);
    let best = best.unwrap();
    assert!(position.is_legal(best));
    assert_eq!(infos.last().unwrap().pv[0], best);
    // The soldier on e6 is free: taking it is the only sensible move.
    assert_eq!(best, "e5e6".parse().unwrap());
}

#[test]
fn timed_searches_answer() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go movetime 50");
    assert!(engine.until_bestmove().1.is_some());
    engine.send("go wtime 300 btime 300 winc 10 binc 10");
    assert!(engine.until_bestmove().1.is_some());
    engine.send("go btime 1000 wtime 20 movestogo 5");
    assert!(engine.until_bestmove().1.is_some());
    engine.send("go nodes 5000");
    assert!(engine.until_bestmove().1.is_some());
}

#[test]
fn an_infinite_search_waits_for_stop_and_still_answers_isready() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    assert!(!lines.iter().any(|line| line.starts_with("bestmove")), "{lines:?}");
    // Another go is refused while searching.
    engine.send("go depth 1");
    engine.until(|line| line.starts_with("info string ignored go"));
    engine.send("stop");
    let (_, best) = engine.until_bestmove();
    assert!(Position::new().is_legal(best.unwrap()));
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
}

#[test]
fn go_perft_divides_like_fairy_stockfish() {
    let mut engine = Engine::start(&[]);
    engine.send("go perft 2");
    let lines = engine.until(|line| line.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 44);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1849");
    let sum: u64 = lines[..43]
        .iter()
        .map(|line| match line.parse() {
            Ok(EngineMessage::PerftMove { nodes, .. }) => nodes,
            _ => panic!("{line}"),
        })
        .sum();
    assert_eq!(sum, 1849);
}

#[test]
fn bad_lines_get_a_reason_and_change_nothing() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos moves e4e5");
    for line in [
        "hello",
        "go movetime soon",
        "position fen rhegcgehr/9/d7d w",
        "position startpos moves e4e5 e7e6 e5e7",
        "position startpos moves a1a3",
        "position fen 4c4/4c4/9/9/9/9/9/9/9/4C4 w",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threadz value 2",
        "setoption name Threads value 0",
        "setoption name UCI_Variant value xiangqi",
        "\u{1F986}",
    ] {
        engine.send(line);
    }
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    let reasons = info_strings(&lines);
    assert_eq!(reasons.len(), 12, "{lines:?}");
    assert!(reasons[0].contains("expected a UCI command"), "{}", reasons[0]);
    assert!(reasons[1].contains("column 13: expected the movetime in milliseconds, found `soon`"));
    assert!(reasons[2].contains("expected a FEN"));
    assert!(
        reasons[3]
            .contains("move 3 `e5e7` is not valid: a soldier cannot move from (4,4) to (6,4)"),
        "{}",
        reasons[3]
    );
    assert!(
        reasons[4].contains("move 1 `a1a3` is not valid: (2,0) holds your own piece (red duck)"),
        "{}",
        reasons[4]
    );
    assert!(reasons[5].contains("2 blue captains"), "{}", reasons[5]);
    assert!(reasons[6].contains("expected an integer 1..65536, found `lots`"));
    assert!(reasons[8].contains("no option `Threadz`"));
    assert!(reasons[9].contains("option Threads: expected an integer 1..256, found `0`"));
    assert!(reasons[10].contains("expected `duck`"));
    // The position is still the one after e4e5: blue to move.
    engine.send("go depth 1");
    let (_, best) = engine.until_bestmove();
    assert!(after(&["e4e5"]).is_legal(best.unwrap()));
}

#[test]
fn a_finished_game_has_no_best_move() {
    let mut engine = Engine::start(&[]);
    // Red has captured blue's captain: blue, to move, has lost.
    engine.send("position fen 9/9/9/9/9/9/9/9/4R4/3C5 b");
    engine.send("go depth 5");
    let (lines, best) = engine.until_bestmove();
    assert_eq!(best, None);
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    // Red's pieces are all blocked: no move, a draw.
    engine.send("position fen 4c4/9/9/9/9/9/9/1s7/E1s6/CE7 w");
    engine.send("go movetime 10");
    let (lines, best) = engine.until_bestmove();
    assert_eq!(best, None);
    assert_eq!(lines[0], "info depth 0 score cp 0");
    // The same through the moves of a game: red's car takes the captain.
    engine.send("position fen 4c4/9/9/9/9/9/9/9/4R4/3C5 w moves e2e10");
    engine.send("go depth 1");
    assert_eq!(engine.until_bestmove().1, None);
    engine.send("position fen 4c4/9/9/9/9/9/9/9/4R4/3C5 w moves e2e10 e1e2");
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    assert!(lines[0].contains("move 2 `e1e2` is not valid: the game is over"), "{lines:?}");
}

#[test]
fn the_end_of_input_lets_a_search_answer() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go depth 3");
    drop(engine.stdin.take());
    let (_, best) = engine.until_bestmove();
    assert!(best.is_some());
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn the_random_mover_is_seeded() {
    let moves = |seed: &str| {
        let mut engine = Engine::start(&["--random", "--seed", seed]);
        engine.send("uci");
        let lines = engine.until(|line| line == "uciok");
        assert!(lines[0].starts_with("id name arbiter random"));
        let mut position = Position::new();
        let mut played = Vec::new();
        for _ in 0..20 {
            engine.send(&format!("position fen {position}"));
            engine.send("go movetime 10");
            let best = engine.until_bestmove().1.unwrap();
            assert!(position.is_legal(best));
            let _ = position.make(best);
            played.push(best);
        }
        played
    };
    assert_eq!(moves("5"), moves("5"));
    assert_ne!(moves("5"), moves("6"));
}

#[test]
fn a_capture_of_the_captain_is_mate_in_one() {
    let mut engine = Engine::start(&[]);
    engine.send("position fen 4c4/9/9/9/9/9/9/9/4R4/3C5 w");
    engine.send("go depth 3");
    let (lines, best) = engine.until_bestmove();
    assert_eq!(best, Some("e2e10".parse().unwrap()));
    let Ok(EngineMessage::Info(info)) = lines[lines.len() - 2].parse() else { panic!() };
    assert_eq!(info.score, Some(Score::Mate(1)));
}

#[test]
fn a_byte_order_mark_is_skipped_and_bytes_that_are_not_utf8_do_not_end_the_session() {
    let mut engine = Engine::start(&[]);
    let stdin = engine.stdin.as_mut().unwrap();
    stdin.write_all(b"\xEF\xBB\xBFisready\nposition startpos moves e4\xFC\nisready\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(engine.next(), "readyok");
    let lines = engine.until(|line| line == "readyok");
    assert_eq!(info_strings(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string ignored `position startpos moves e4\u{FFFD}`"));
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn a_hash_larger_than_memory_falls_back_to_what_can_be_allocated() {
    let mut engine = Engine::start(&[]);
    // 64 GiB, the most offered, is more than this machine has.
    engine.send("setoption name Hash value 65536");
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    let strings = info_strings(&lines);
    assert_eq!(strings.len(), 1, "{lines:?}");
    let in_use = strings[0]
        .strip_prefix("info string option Hash: 65536 MiB cannot be allocated; using ")
        .and_then(|rest| rest.strip_suffix(" MiB"))
        .and_then(|megabytes| megabytes.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!((1..65_536).contains(&in_use), "{lines:?}");
    // The table's memory is not written until the search uses it, neither when it is made nor
    // when a new game clears it: the engine answers at once and stays small.
    engine.send("ucinewgame");
    engine.send("isready");
    engine.until(|line| line == "readyok");
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.child.id()));
    if let Ok(status) = status {
        let resident = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|kb| kb.trim().trim_end_matches(" kB").parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{status}"));
        assert!(resident < 256 << 10, "{resident} kB resident after a table of {in_use} MiB");
    }
    engine.send("setoption name Hash value 1");
    engine.send("go depth 2");
    let (_, best) = engine.until_bestmove();
    assert!(best.is_some());
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn a_perft_too_deep_is_refused_and_the_engine_goes_on() {
    let mut engine = Engine::start(&[]);
    engine.send("go perft 5000");
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    assert_eq!(lines, ["info string ignored go perft 5000: the deepest perft is 20", "readyok"]);
    engine.send("go perft 1");
    let lines = engine.until(|line| line.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 43");
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn stop_ends_a_perft_at_once() {
    let mut engine = Engine::start(&[]);
    engine.send("go perft 9");
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    engine.send("stop");
    let deadline = Instant::now() + PROMPTLY;
    loop {
        let line = engine
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the perft stops promptly");
        if line.starts_with("Nodes searched") {
            break;
        }
    }
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    engine.send("quit");
    assert_eq!(engine.ends_promptly(), Some(0));
}

#[test]
fn quit_ends_a_perft_at_once() {
    let mut engine = Engine::start(&[]);
    engine.send("go perft 9");
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    engine.send("quit");
    assert_eq!(engine.ends_promptly(), Some(0));
}

#[test]
fn the_end_of_input_ends_a_perft() {
    let mut engine = Engine::start(&[]);
    engine.send("go perft 9");
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    drop(engine.stdin.take());
    assert_eq!(engine.ends_promptly(), Some(0));
}

#[test]
fn threads_beyond_the_cores_are_capped() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Threads value 256");
    engine.send("isready");
    let lines = engine.until(|line| line == "readyok");
    if cores < 256 {
        let expected = format!(
            "info string option Threads: 256 threads on {cores} cores only slow the search; \
             using {cores}"
        );
        assert_eq!(lines, [expected.as_str(), "readyok"]);
    }
    engine.send("go movetime 100");
    let (_, best) = engine.until_bestmove();
    assert!(best.is_some());
    engine.send("quit");
    assert_eq!(engine.close(), Some(0));
}

#[test]
fn evalfile_loads_a_network_and_refuses_a_bad_file() {
    use std::sync::Arc;

    use arbiter_duck_engine::eval::Evaluation;
    use arbiter_duck_engine::nnue::{Model, Network};
    use arbiter_duck_engine::search::{Limits, StopFlag};

    let dir = std::env::temp_dir().join(format!("arbiter-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let network = Network::random(64, 2);
    let mut bytes = Vec::new();
    network.write(&mut bytes).unwrap();
    let good = dir.join("good.nnue");
    std::fs::write(&good, &bytes).unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"not a network").unwrap();
    // The nodes of a fresh engine searching with the network: what the UCI engine must search.
    let mut reference = arbiter_duck_engine::engine::Engine::new(16);
    reference.set_evaluation(Evaluation::Network(Arc::new(Model::new(network).unwrap())));
    reference.set_position(after(&["e4e5"]));
    let nodes = reference.go(&Limits::depth(4), &StopFlag::new(), |_| {}).nodes;

    let mut engine = Engine::start(&[]);
    engine.send("uci");
    let lines = engine.until(|line| line == "uciok");
    assert!(lines.contains(&"option name EvalFile type string default <embedded>".to_owned()));
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    engine.send("position startpos moves e4e5");
    engine.send("go depth 4");
    let (lines, best) = engine.until_bestmove();
    assert_eq!(
        info_strings(&lines),
        [&format!(
            "info string EvalFile: the network {}, 64 hidden units: random weights, seed 2",
            good.display()
        )]
    );
    assert!(after(&["e4e5"]).is_legal(best.unwrap()));
    assert_eq!(infos(&lines).last().unwrap().nodes, Some(nodes), "{lines:?}");
    // A bad file is refused, and the network stays.
    engine.send(&format!("setoption name EvalFile value {}", bad.display()));
    engine.send("ucinewgame");
    engine.send("go depth 4");
    let (lines, _) = engine.until_bestmove();
    let reasons = info_strings(&lines);
    assert_eq!(reasons.len(), 1, "{lines:?}");
    assert!(reasons[0].contains("not a network file"), "{}", reasons[0]);
    assert!(reasons[0].ends_with("; the evaluation is unchanged"), "{}", reasons[0]);
    assert_eq!(infos(&lines).last().unwrap().nodes, Some(nodes), "{lines:?}");
    assert_eq!(engine.close(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn evalfile_refuses_hostile_files_at_once_and_quit_still_works() {
    use arbiter_duck_engine::nnue::Network;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("duck-uci-hostile-networks");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.nnue");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let mut bytes = Vec::new();
    Network::random(256, 4).write(&mut bytes).unwrap();
    // A sparse file of 2 GiB behind a good header: refused by its length, unread.
    let sparse = dir.join("sparse.nnue");
    std::fs::write(&sparse, &bytes[..36]).unwrap();
    std::fs::OpenOptions::new().write(true).open(&sparse).unwrap().set_len(2 << 30).unwrap();
    // The same network with 5,000 bytes flipped.
    let damaged = dir.join("damaged.nnue");
    let mut flipped = bytes.clone();
    for at in (1_000..).step_by(97).take(5_000) {
        flipped[at] ^= 0x5A;
    }
    std::fs::write(&damaged, &flipped).unwrap();

    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until(|line| line == "uciok");
    let cases = [
        (fifo.display().to_string(), "a FIFO, not a regular file".to_owned()),
        ("/dev/zero".to_owned(), "a character device, not a regular file".to_owned()),
        ("/dev/urandom".to_owned(), "a character device, not a regular file".to_owned()),
        (
            sparse.display().to_string(),
            format!("the file has {} bytes, but its header declares {}", 2u64 << 30, bytes.len()),
        ),
        (damaged.display().to_string(), "the network is damaged: its CRC-32 is".to_owned()),
    ];
    for (file, reason) in &cases {
        let started = Instant::now();
        engine.send(&format!("setoption name EvalFile value {file}"));
        engine.send("isready");
        let lines = engine.until(|line| line == "readyok");
        assert!(started.elapsed() < PROMPTLY, "{file}: {:?}", started.elapsed());
        let reasons = info_strings(&lines);
        assert_eq!(reasons.len(), 1, "{lines:?}");
        assert!(reasons[0].contains(file.as_str()), "{}", reasons[0]);
        assert!(reasons[0].contains(reason.as_str()), "{file}: {}", reasons[0]);
        assert!(reasons[0].ends_with("; the evaluation is unchanged"), "{}", reasons[0]);
    }
    engine.send("quit");
    assert_eq!(engine.ends_promptly(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}
