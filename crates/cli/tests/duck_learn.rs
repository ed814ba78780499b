//! End-to-end tests of `arbiter duck analyse` and `arbiter duck puzzles`: the analysis of a game
//! against its golden file (fixed nodes on one thread make it deterministic), its JSON contract,
//! bad input, and the puzzle miner, collection, list and check.
//!
//! `ARBITER_BLESS=1 cargo test -p arbiter-cli --test duck_learn` rewrites the golden files (after
//! a change of the engine or its network, which changes every analysis).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/duck-learn").join(name)
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("duck-learn").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Compares `actual` with the golden file `name`, or writes it when blessing.
fn golden(name: &str, actual: &str) {
    let path = fixture(name);
    if std::env::var_os("ARBITER_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert_eq!(actual, expected, "{} differs (ARBITER_BLESS=1 rewrites it)", path.display());
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn an_analysis_is_the_same_every_time() {
    let game = fixture("game.txt");
    let game = game.to_str().unwrap();
    let json = arbiter(&["duck", "analyse", game, "--nodes", "3000", "--json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    golden("game.analysis.jsonl", &stdout(&json));
    let text = arbiter(&["duck", "analyse", game, "--nodes", "3000"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    golden("game.analysis.txt", &stdout(&text));
    assert_eq!(stderr(&text), "", "no progress bar where stderr is not a terminal");
}

#[test]
fn each_command_has_its_object_then_the_accuracy() {
    let game = fixture("game.txt");
    let out = arbiter(&["duck", "analyse", game.to_str().unwrap(), "--nodes", "2000", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = lines(&stdout(&out));
    let text = std::fs::read_to_string(&game).unwrap();
    let commands: Vec<&str> = text.lines().skip(1).map(str::trim).collect();
    assert_eq!(objects.len(), commands.len() + 1);
    for (index, (object, command)) in objects.iter().zip(&commands).enumerate() {
        assert_eq!(object["ply"], index + 1);
        assert_eq!(object["command"], *command);
        for field in ["eval", "best", "mark"] {
            assert!(object.get(field).is_some(), "{field} in {object}");
        }
        let valid = object["valid"].as_bool().unwrap();
        if !valid {
            assert!(
                object["eval"].is_null() && object["best"].is_null() && object["mark"].is_null()
            );
            continue;
        }
        let best = object["best"].as_str().unwrap();
        let numbers: Vec<u8> = best.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 4, "an official command: {best}");
        match &object["mark"] {
            Value::Null => {}
            Value::String(mark) => assert!(["?!", "?", "??"].contains(&mark.as_str()), "{mark}"),
            other => panic!("mark {other}"),
        }
        match &object["eval"] {
            Value::Number(cp) => assert!(cp.is_i64()),
            Value::Object(mate) => assert!(mate["mate"].is_i64(), "{mate:?}"),
            other => panic!("eval {other}"),
        }
    }
    // The command off the board and the one after the captain fell are invalid.
    assert_eq!(objects[4]["valid"], false);
    assert_eq!(objects[21]["valid"], false);
    // Blue's duck took red's captain with command 21.
    assert_eq!(objects[20]["eval"], serde_json::json!({"mate": 0, "winner": "blue"}));
    let last = objects.last().unwrap();
    for side in ["red", "blue"] {
        let accuracy = last["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{last}");
        assert_eq!(last[side]["accuracy"], last["accuracy"][side]);
        assert!(last[side]["average_loss"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn the_best_move_played_costs_nothing() {
    // Red takes the captain on e10: the best move, no mark, red's win.
    let dir = scratch("best");
    let game = dir.join("game.txt");
    std::fs::write(&game, "1\n1 4 9 4\n").unwrap();
    let fen = "4c4/3r5/9/9/9/9/9/9/4R4/3C5 w - - 0 1";
    let out = arbiter(&[
        "duck",
        "analyse",
        game.to_str().unwrap(),
        "--fen",
        fen,
        "--nodes",
        "500",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = lines(&stdout(&out));
    assert_eq!(objects[0]["best"], "1 4 9 4");
    assert_eq!(objects[0]["mark"], Value::Null);
    assert_eq!(objects[0]["eval"], serde_json::json!({"mate": 0, "winner": "red"}));
    assert_eq!(objects[1]["accuracy"]["red"], 100.0);
    assert_eq!(objects[1]["accuracy"]["blue"], Value::Null, "blue never moved");
}

#[test]
fn bad_input_is_named_with_its_place() {
    let dir = scratch("bad");
    let game = dir.join("game.txt");
    std::fs::write(&game, "2\n3 2 3 3\n6 4 x 4\n").unwrap();
    let out = arbiter(&["duck", "analyse", game.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "{}:3:5: expected the destination row x2 of command 2 (an integer), found `x`\n",
            game.display()
        )
    );
    assert_eq!(stdout(&out), "", "nothing is analysed from a file that cannot be read whole");
    let missing = dir.join("missing.txt");
    let out = arbiter(&["duck", "analyse", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).ends_with(":1:1: expected a readable file, found no such file\n"));
    let out = arbiter(&["duck", "analyse", game.to_str().unwrap(), "--fen", "9/9 w"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("--fen:1:"), "{}", stderr(&out));
}

/// A collection of two puzzles: a capture in one, and the same position with a wrong solution.
fn two_puzzles(dir: &Path) -> PathBuf {
    let file = dir.join("two.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"id":"00000001","fen":"4c4/3r5/9/9/9/9/9/9/4R4/3C5 w - - 0 1","solution":["1 4 9 4"],"themes":["capture-in-1","one-move"],"rating":720}"#,
            "\n",
            r#"{"id":"00000002","fen":"4c4/3r5/9/9/9/9/9/9/4R4/3C5 w - - 0 1","solution":["1 4 2 4"],"themes":["material","one-move"],"rating":720}"#,
            "\n"
        ),
    )
    .unwrap();
    file
}

#[test]
fn a_wrong_solution_fails_the_check() {
    let dir = scratch("check");
    let file = two_puzzles(&dir);
    let out =
        arbiter(&["duck", "puzzles", "check", "--file", file.to_str().unwrap(), "--nodes", "3000"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "00000002: move 1: the only winning move is 1 4 9 4, not 1 4 2 4\n");
    assert!(stderr(&out).contains("2 puzzles checked at 3000 nodes, 1 failed"), "{}", stderr(&out));
}

#[test]
fn a_collection_packs_and_lists() {
    let dir = scratch("pack");
    let file = two_puzzles(&dir);
    let packed = dir.join("packed.jsonl.zst");
    let out = arbiter(&[
        "duck",
        "puzzles",
        "pack",
        file.to_str().unwrap(),
        "--out",
        packed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read(&packed).unwrap().starts_with(&[0x28, 0xb5, 0x2f, 0xfd]), "zstd");
    let out = arbiter(&["duck", "puzzles", "list", "--file", packed.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = lines(&stdout(&out));
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["id"], "00000001");
    assert_eq!(objects[0]["solution"], serde_json::json!(["1 4 9 4"]));
    assert_eq!(objects[0]["themes"], serde_json::json!(["capture-in-1", "one-move"]));
    assert_eq!(objects[0]["rating"], 720);
    let out = arbiter(&[
        "duck",
        "puzzles",
        "list",
        "--file",
        packed.to_str().unwrap(),
        "--json",
        "--theme",
        "material",
    ]);
    assert_eq!(lines(&stdout(&out)).len(), 1);
    let out = arbiter(&["duck", "puzzles", "list", "--theme", "checkmate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("expected a theme"), "{}", stderr(&out));
}

#[test]
fn the_miner_continues_where_it_stopped() {
    let dir = scratch("mine");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::copy(fixture("game.txt"), games.join("a.txt")).unwrap();
    std::fs::write(games.join("b.txt"), "1\n3 2 3 3\n").unwrap();
    let out_file = dir.join("mined.jsonl");
    let mine = |extra: &[&str]| {
        let mut args = vec!["duck", "puzzles", "mine", games.to_str().unwrap()];
        args.extend_from_slice(&["--out", out_file.to_str().unwrap(), "--scan-nodes", "1000"]);
        args.extend_from_slice(&["--nodes", "5000", "--confirm-nodes", "10000"]);
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let out = mine(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let whole = std::fs::read_to_string(&out_file).unwrap();
    let objects = lines(&whole);
    assert_eq!(objects.len(), 3, "the header and a line per game");
    assert!(objects[0]["miner"].is_string());
    assert!(objects[1]["game"].as_str().unwrap().ends_with("a.txt"));

    // A run cut in the middle of its last line: that game is mined again, the file is the same.
    std::fs::write(&out_file, &whole[..whole.len() - 5]).unwrap();
    let out = mine(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 games mined before, continuing"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), whole);

    // Another setting: refused, the file untouched.
    let out = mine(&["--blunders", "0.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("made with other settings"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), whole);

    // Its puzzles list as a collection.
    let out = arbiter(&["duck", "puzzles", "list", "--file", out_file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let found: usize =
        objects[1..].iter().map(|game| game["puzzles"].as_array().unwrap().len()).sum();
    assert_eq!(lines(&stdout(&out)).len(), found);
}
