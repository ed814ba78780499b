//! End-to-end tests of `arbiter duck bestmove` and `arbiter duck play`, driven through standard
//! input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn bestmove_prints_the_command_its_score_and_variation() {
    let out =
        arbiter(&["duck", "bestmove", "--fen", "4c4/9/9/9/9/9/9/9/4R4/3C5 w", "--depth", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "1 4 9 4");
    assert!(lines[1].starts_with("score mate 1 depth "), "{stdout}");
    assert_eq!(lines[2], "pv 1 4 9 4");
}

#[test]
fn bestmove_after_moves_in_either_notation() {
    // After red's soldier meets blue's on e6, taking it is the move.
    // On one thread and on three.
    for threads in ["1", "3"] {
        let args = ["duck", "bestmove", "--moves", "3 4 4 4, e7e6", "--depth", "3", "--json"];
        let out = arbiter(&[&args[..], &["--threads", threads]].concat(), "");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["move"], "4 4 5 4");
        assert_eq!(value["uci"], "e5e6");
        assert_eq!(value["pv"][0], "4 4 5 4");
        assert!(value["score"]["cp"].as_i64().unwrap() > 100);
    }
    let out = arbiter(&["duck", "bestmove", "--threads", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--threads"), "{}", text(&out.stderr));
}

#[test]
fn bestmove_of_a_finished_game_is_none() {
    let out =
        arbiter(&["duck", "bestmove", "--fen", "9/9/9/9/9/9/9/9/4R4/3C5 b", "--depth", "2"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "(none)\nscore mate 0 depth 0 nodes 0 time 0\npv \n");
}

#[test]
fn malformed_fen_and_moves_say_where_and_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["--fen", "4c4/9/9 w"], "--fen:1:8: expected `/` and rank 7"),
        (&["--fen", "9/9/9/9/9/9/9/9/9/4C4 w"], "--fen:1:1: expected a position of the game"),
        (
            &["--moves", "e4e5 e7e6, 4 4 5"],
            "--moves:1:17: expected the destination column y2 (0-8), found end of input",
        ),
        (
            &["--moves", "e4e5 e7e6 e6e5"],
            "--moves:1:11: expected a valid move, found `e6e5`: (5,4) holds blue soldier, but it is red's turn",
        ),
        (&["--moves", "e4e5 x"], "--moves:1:6: expected a file letter a-i, found `x`"),
    ];
    for (args, message) in cases {
        let mut all = vec!["duck", "bestmove", "--depth", "1"];
        all.extend_from_slice(args);
        let out = arbiter(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
    }
}

#[test]
fn play_explains_invalid_entries_and_saves_a_replayable_game() {
    let dir = std::env::temp_dir().join(format!("arbiter-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.txt");
    let input = "0 3 1 4\nhello\n0 0 7 0\n9 4 8 4\n0 0 1 0\nundo\na1a2\ne4e5\nquit\n";
    let out = arbiter(
        &["duck", "play", "--blue", "engine", "--depth", "2", "--save", save.to_str().unwrap()],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // Each invalid entry is explained with its line and asked again.
    assert!(stdout.contains("# <stdin>:2:2: expected a rank 1-10, found `e`"), "{stdout}");
    assert!(stdout.contains("# <stdin>:3:1: 0 0 7 0: car path (2,0) is occupied by red duck"));
    assert!(
        stdout.contains("# <stdin>:4:1: 9 4 8 4: (9,4) holds blue captain, but it is red's turn")
    );
    assert!(stdout.contains("red guard;NA;no;no"));
    assert!(
        stdout.lines().any(|line| line.starts_with("blue plays ") && line.contains(", score "))
    );
    // The board is drawn after each move.
    assert!(stdout.matches("  ０１２３４５６７８").count() >= 5);
    // The saved game replays through the judge to the verdict lines printed during play.
    let saved = std::fs::read_to_string(&save).unwrap();
    let moves: Vec<&str> = saved.lines().collect();
    assert_eq!(moves[0].parse::<usize>().unwrap(), moves.len() - 1);
    assert_eq!(moves[1], "0 3 1 4");
    let replay = arbiter(&["duck", save.to_str().unwrap()], "");
    let verdicts: Vec<String> = stdout
        .lines()
        .map(|line| line.rsplit(": ").next().unwrap().to_owned())
        .filter(|line| line.contains(';'))
        .collect();
    // `undo` took back red's car move and blue's answer (verdicts 3 and 4): the saved game has
    // the others.
    let kept: Vec<&str> = verdicts
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 2 && i != 3)
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(verdicts.len(), 8, "{verdicts:?}");
    assert_eq!(text(&replay.stdout).lines().collect::<Vec<_>>(), kept);
    assert_eq!(moves.len() - 1, kept.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn engine_against_engine_plays_to_the_end() {
    let out = arbiter(
        &[
            "duck",
            "play",
            "--red",
            "engine",
            "--blue",
            "engine",
            "--depth",
            "1",
            "--max-plies",
            "40",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(last.contains("wins: the") || last.contains("a draw"), "{last}");
}
