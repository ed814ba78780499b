//! `arbiter arena` end to end: official data, rule readings, errors, and the trace.

mod common;

use std::process::Output;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../arena/tests/fixtures");

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}/{path}")).expect("fixture")
}

fn arbiter(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn official_data_from_a_file() {
    let output = arbiter(&["arena", &format!("{FIXTURES}/official/1.in")], "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), fixture("official/1.ans"));
    assert!(output.stderr.is_empty());
}

#[test]
fn published_sample_from_stdin_with_shadow_any() {
    let output = arbiter(&["arena", "--rules", "official,+shadow-any"], &fixture("sample/1.in"));
    assert!(output.status.success());
    assert_eq!(text(&output.stdout), fixture("sample/1.ans"));
}

#[test]
fn rule_switch_from_the_command_line() {
    let input = fixture("rules/rabi-enemy.in");
    let official = arbiter(&["arena", "--rules", "official"], &input);
    assert_eq!(text(&official.stdout), fixture("rules/rabi-enemy.ref.out"));
    let statement = arbiter(&["arena", "--rules", "statement"], &input);
    assert_eq!(text(&statement.stdout), fixture("rules/rabi-enemy.alt.out"));
    let back = arbiter(&["arena", "--rules", "statement,-rabi-enemy"], &input);
    assert_eq!(text(&back.stdout), fixture("rules/rabi-enemy.ref.out"));
}

#[test]
fn unknown_rule_switch_is_an_error() {
    let output = arbiter(&["arena", "--rules", "official,+nope"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown rule switch `nope`"));
}

/// Two games: the first complete, the second broken by `second`.
fn second_game_error(second: &str) -> (String, String) {
    let input = format!("2\n1 2 1 1\n0 0\n1 1 1 1 0 3 1 1 1 toolihai\n{second}");
    let output = arbiter(&["arena"], &input);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    (text(&output.stdout), text(&output.stderr))
}

#[test]
fn input_errors_keep_the_earlier_games() {
    let cases = [
        ("1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 fly\n", "<stdin>:7:19: expected a skill name"),
        (
            "1 2 1 1\n0 0\n1 1 1 1 0 0 1 1 1 rabiribi\n",
            "<stdin>:8:1: expected v (the sector's size) of rabiribi (piece 1, 0..=2147483647), found end of input",
        ),
        (
            "1 1 1 1\n0\n1 1 1 1 2 0 1 1 1 toolihai\n",
            "<stdin>:7:9: expected the team of piece 1 (0 red, 1 blue), found `2`",
        ),
        (
            "1 2 1 1\n1 0\n1 1 1 1 0 0 1 1 1 toolihai\n",
            "<stdin>:7:1: expected a free cell for piece 1, not an obstacle, found `1`",
        ),
        (
            "1 2 1 1\n0 0\n1 3 1 1 0 0 1 1 1 toolihai\n",
            "<stdin>:7:3: expected the column of piece 1 (1..=M), found `3`",
        ),
        ("1 1 201 1\n", "<stdin>:5:5: expected K, the number of pieces (1..=200), found `201`"),
        ("101 1 1 1\n", "<stdin>:5:1: expected N, the number of rows (1..=100)"),
        ("1 1 1 1001\n", "<stdin>:5:7: expected R, the number of rounds (1..=1000)"),
        (
            "1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 onepunch 1001 1\n",
            "<stdin>:7:28: expected v (the boost) of onepunch (piece 1, 0..=1000), found `1001`",
        ),
        (
            "1 1 1 1\n0\n1 1 1 1 0 0 1 2147483648 1 toolihai\n",
            "<stdin>:7:15: expected z of piece 1 (1..=2147483647), found `2147483648`",
        ),
        (
            "1 1 1 1\n0\n1 1 1 1 0 0 0 1 1 toolihai\n",
            "<stdin>:7:13: expected f of piece 1 (1..=2147483647), found `0`",
        ),
        (
            "1 1 1 1\nx\n",
            "<stdin>:6:1: expected a map cell (0 = free, else an obstacle), found `x`",
        ),
    ];
    for (second, message) in cases {
        let (stdout, stderr) = second_game_error(second);
        assert_eq!(stdout, "1 2\n", "{second}");
        assert!(stderr.starts_with(message), "{second}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn too_many_games_is_an_error() {
    let output = arbiter(&["arena"], "21\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr)
            .starts_with("<stdin>:1:1: expected the number of games T (1..=20), found `21`")
    );
}

#[test]
fn backward_before_the_first_round_names_game_round_and_piece() {
    let (stdout, stderr) = second_game_error("1 1 1 3\n0\n1 1 1 1 0 0 2 1 1 backward 2\n");
    assert_eq!(stdout, "1 2\n");
    assert_eq!(
        stderr,
        // At the skill of the piece at fault.
        "<stdin>:7:19: expected a game that keeps the statement's guarantees, found in game 2, \
         round 2: piece 1 casts backward 2, before the first round\n"
    );
}

#[test]
fn extra_input_is_ignored_with_a_warning() {
    let output = arbiter(&["arena"], "1\n1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 toolihai\nextra\n");
    assert!(output.status.success());
    assert_eq!(text(&output.stdout), "1 1\n");
    assert!(text(&output.stderr).contains("ignoring input after the last game"));
}

#[test]
fn trace_one_game() {
    let output = arbiter(&["arena", "trace", "--game", "3"], &fixture("sample/1.in"));
    assert!(output.status.success());
    let stdout = text(&output.stdout);
    assert!(stdout.lines().all(|line| line.starts_with("{\"game\":3,")));
    assert!(stdout.contains("\"kind\":\"backward\""));
    // The start says which readings the trace was played under.
    let first = stdout.lines().next().expect("a start event");
    assert!(first.contains("\"kind\":\"start\""), "{first}");
    assert!(first.contains("\"rules\":\"official\""), "{first}");
    let statement = arbiter(
        &["arena", "trace", "--rules", "statement", "--game", "1"],
        &fixture("sample/1.in"),
    );
    assert!(
        text(&statement.stdout)
            .lines()
            .next()
            .unwrap()
            .contains("\"rules\":\"official,+rabi-enemy,")
    );
    let missing = arbiter(&["arena", "trace", "--game", "5"], &fixture("sample/1.in"));
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        text(&missing.stderr),
        "<stdin>:1:1: expected the number of games T, at least 5 to trace game 5, found `4`\n"
    );
    // Games count from 1: there is no game 0 to look for in the input.
    let zero = arbiter(&["arena", "trace", "--game", "0"], &fixture("sample/1.in"));
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        text(&zero.stderr).contains("invalid value '0' for '--game <N>'"),
        "{}",
        text(&zero.stderr)
    );
}

#[test]
fn trace_warns_about_trailing_input_like_the_judge() {
    let input = "1\n1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 toolihai\nextra\n";
    for args in [&["arena"][..], &["arena", "trace"], &["arena", "--json"]] {
        let output = arbiter(args, input);
        assert!(output.status.success(), "{args:?}");
        assert_eq!(
            text(&output.stderr),
            "<stdin>:5:1: warning: ignoring input after the last game\n",
            "{args:?}"
        );
    }
}

#[test]
fn json_is_one_object_per_game() {
    let output = arbiter(&["arena", "--json"], &fixture("sample/1.in"));
    assert!(output.status.success());
    let official = text(&arbiter(&["arena"], &fixture("sample/1.in")).stdout);
    let mut lines = official.lines();
    let stdout = text(&output.stdout);
    for (number, line) in stdout.lines().enumerate() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["game"], number + 1);
        // The same numbers as the official output, in the same order.
        for pairs in game["matchings"].as_array().unwrap() {
            assert_eq!(lines.next().unwrap(), pairs.to_string());
        }
        for pos in game["positions"].as_array().unwrap() {
            assert_eq!(lines.next().unwrap(), format!("{} {}", pos["row"], pos["col"]));
        }
    }
    assert_eq!(stdout.lines().count(), 4);
    assert_eq!(lines.next(), None);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let input = fixture("official/1.in");
    let output = arbiter(&["arena"], &format!("\u{feff}{input}"));
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), fixture("official/1.ans"));
}

/// What the replay reads of an event; every other field is ignored.
#[derive(serde::Deserialize)]
struct Replayed {
    game: usize,
    kind: String,
    piece: Option<usize>,
    from: Option<Cell>,
    to: Option<Cell>,
    pos: Option<Cell>,
    pieces: Option<Vec<StartPiece>>,
    positions: Option<Vec<Cell>>,
    pairs: Option<usize>,
}

#[derive(serde::Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
struct Cell {
    row: i32,
    col: i32,
}

#[derive(serde::Deserialize)]
struct StartPiece {
    pos: Cell,
}

/// Rebuilds every piece's position from the trace alone (`start`, then each `move`, `knockback`,
/// `backward` and `respawn`, checking that a move or a push starts where the piece stands and
/// that a piece respawns where it lies), and prints what the judge would: the `matching`
/// numbers, then the final positions. Returns that text and the kinds seen.
fn replay(trace: &str) -> (String, std::collections::BTreeSet<String>) {
    let mut printed = String::new();
    let mut kinds = std::collections::BTreeSet::new();
    let mut positions: Vec<Cell> = Vec::new();
    let mut game = 0;
    for (number, line) in trace.lines().enumerate() {
        let event: Replayed = serde_json::from_str(line).expect("one JSON object a line");
        let at = |what: &str| format!("line {}: {what}: {line}", number + 1);
        let piece = event.piece.map(|p| p - 1);
        match event.kind.as_str() {
            "start" => {
                assert_eq!(event.game, game + 1, "{}", at("games in order"));
                game = event.game;
                positions =
                    event.pieces.expect("start lists the pieces").iter().map(|p| p.pos).collect();
            }
            "move" | "knockback" => {
                let piece = piece.expect("a piece");
                assert_eq!(
                    Some(positions[piece]),
                    event.from,
                    "{}",
                    at("starts where the piece is")
                );
                positions[piece] = event.to.expect("a destination");
            }
            "backward" => positions[piece.expect("a piece")] = event.pos.expect("a position"),
            "respawn" => {
                let piece = piece.expect("a piece");
                assert_eq!(Some(positions[piece]), event.pos, "{}", at("respawns where it lies"));
            }
            "matching" => printed.push_str(&format!("{}\n", event.pairs.expect("pairs"))),
            "end" => {
                let end = event.positions.expect("final positions");
                assert_eq!(end, positions, "{}", at("the end event agrees with the replay"));
                for cell in &positions {
                    printed.push_str(&format!("{} {}\n", cell.row, cell.col));
                }
            }
            _ => {}
        }
        kinds.insert(event.kind);
    }
    (printed, kinds)
}

#[test]
fn replaying_the_trace_gives_the_judges_output() {
    let official = fixture("official/1.in");
    let output = arbiter(&["arena", "trace"], &official);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let (replayed, kinds) = replay(&text(&output.stdout));
    assert_eq!(replayed, fixture("official/1.ans"));
    for kind in [
        "start",
        "move",
        "turn",
        "cast",
        "knockback",
        "silence",
        "freeze",
        "matching",
        "fight",
        "death",
        "respawn",
        "backward",
        "end",
    ] {
        assert!(kinds.contains(kind), "no {kind} event in the official data's trace");
    }

    let size = arbiter_arena::generate::Size { games: 3, side: 6, pieces: 40, rounds: 300 };
    let random = arbiter_arena::generate::input(size, 2024);
    for rules in ["official", "statement"] {
        let judge = arbiter(&["arena", "--rules", rules], &random);
        let output = arbiter(&["arena", "trace", "--rules", rules], &random);
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert_eq!(replay(&text(&output.stdout)).0, text(&judge.stdout), "{rules}");
    }
}
