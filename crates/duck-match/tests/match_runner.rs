//! The match runner end to end against scripted engines (`fixtures/fake_engine.py`, which knows
//! no rules and plays the moves it is given): every way a game can end, restarts after faults,
//! failed handshakes, concurrency, SPRT stops and the saved games.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use arbiter_duck::{Color, judge};
use arbiter_duck_match::adjudication::{Adjudication, DrawRule, ResignRule};
use arbiter_duck_match::clock::{Limits, TimeControl};
use arbiter_duck_match::game::{MAX_PLIES, Termination};
use arbiter_duck_match::opening::{Opening, parse_openings};
use arbiter_duck_match::process::EngineError;
use arbiter_duck_match::record::Record;
use arbiter_duck_match::sprt::{Decision, Sprt};
use arbiter_duck_match::tally::Pentanomial;
use arbiter_duck_match::{
    EngineSpec, Event, Finished, MatchConfig, MatchError, Openings, Report, Schedule, run,
};
use arbiter_duck_protocol::Score;

/// The Python interpreter itself: `python3` on the `PATH` may be a launcher script (pyenv's
/// takes a quarter of a second), and the tests start many engines.
fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let output = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs the scripted engines of these tests");
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    })
}

fn fake(arguments: &str) -> EngineSpec {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    format!("{} {} {arguments}", python(), script.display()).parse().unwrap()
}

/// Red's car goes a1-a2-d2, takes the guard on d10 and then the captain on e10, while blue
/// shuffles its own car: red wins at ply 7.
const WINS_AS_RED: &str = "red=a1a2,a2d2,d2d10,d10e10 blue=a10a9,a9a10,a10a9";
/// Cars going up and down for ever.
const SHUFFLES: &str = "red=a1a2,a2a1 blue=a10a9,a9a10 cycle=1";
/// Against [`SHUFFLES`], red wins as in [`WINS_AS_RED`] and blue the same way down the board
/// (a10-a9-d9, the guard on d1, the captain on e1).
const WINS: &str = "red=a1a2,a2d2,d2d10,d10e10 blue=a10a9,a9d9,d9d1,d1e1";

fn config(first: &str, second: &str) -> MatchConfig {
    MatchConfig {
        engines: vec![fake(first), fake(second)],
        schedule: Schedule::default(),
        games: 2,
        openings: Openings::Start,
        // No clock: a slow machine makes no scripted engine lose on time.
        limits: Limits { depth: Some(1), ..Limits::default() },
        max_plies: MAX_PLIES,
        adjudication: Adjudication::default(),
        concurrency: 1,
        sprt: None,
        save: None,
        affinity: false,
        resume: false,
        only: None,
    }
}

fn play(config: &MatchConfig) -> (Report, Vec<Finished>) {
    let mut games = Vec::new();
    let report = run(config, |event| {
        if let Event::Finished { game, .. } = event {
            games.push(game.clone());
        }
    })
    .unwrap_or_else(|error| panic!("the match runs: {error}"));
    games.sort_by_key(|game| game.number);
    (report, games)
}

#[test]
fn a_captured_captain_ends_the_game() {
    let (report, games) = play(&config(WINS_AS_RED, WINS_AS_RED));
    assert_eq!(report.names, ["fake", "fake (2)"]);
    for (game, red) in games.iter().zip([0, 1]) {
        assert_eq!(game.red, red);
        assert_eq!(game.record.result.winner, Some(Color::Red));
        assert_eq!(game.record.result.termination, Termination::CaptainCaptured);
        assert_eq!(game.record.plies(), 7);
        assert_eq!(game.record.result.to_string(), "1-0 (red captures blue's captain)");
    }
    assert_eq!((report.tally.games.wins, report.tally.games.losses), (1, 1));
    assert_eq!(report.tally.pairs, Pentanomial([0, 0, 1, 0, 0]));
    assert_eq!(report.endings["captain-captured"], 2);
}

#[test]
fn the_ply_cap_is_a_draw() {
    let config = MatchConfig { max_plies: 12, ..config(SHUFFLES, SHUFFLES) };
    let (report, games) = play(&config);
    for game in &games {
        assert_eq!(game.record.result.winner, None);
        assert_eq!(game.record.result.termination, Termination::PlyCap { plies: 12 });
        assert_eq!(game.record.plies(), 12);
    }
    assert_eq!(report.tally.pairs, Pentanomial([0, 0, 1, 0, 0]));
}

#[test]
fn a_side_without_a_move_is_a_draw() {
    // Red's car closes the last gap around blue's captain, whose horses are lame.
    let opening: Opening = "ch7/hS7/S8/9/9/9/9/9/9/2R1C4 w".parse().unwrap();
    let config =
        MatchConfig { openings: Openings::List(vec![opening]), ..config("red=c1c10", "red=c1c10") };
    let (_, games) = play(&config);
    for game in &games {
        assert_eq!(game.record.result.winner, None);
        assert_eq!(game.record.result.termination, Termination::NoMove { side: Color::Blue });
        assert_eq!(game.record.result.reason(), "blue has no valid move");
    }
}

/// Plays a pair in which the first engine misbehaves as `fault` says, and returns the
/// first engine's losses (all of them, it must lose both games) and the reasons.
fn first_engine_loses(fault: &str, limits: Limits) -> Vec<Finished> {
    let config = MatchConfig { limits, ..config(&format!("{WINS_AS_RED} {fault}"), WINS_AS_RED) };
    let (report, games) = play(&config);
    assert_eq!(report.tally.games.losses, 2, "{fault}: {games:?}");
    assert_eq!(report.tally.pairs, Pentanomial([1, 0, 0, 0, 0]));
    for game in &games {
        assert!(game.record.result.termination.is_fault());
        assert_eq!(game.faulty_engine(), Some(0));
    }
    games
}

#[test]
fn an_illegal_move_loses_with_the_reason() {
    let games =
        first_engine_loses("red=e1e5 blue=e10e5", Limits { depth: Some(1), ..Limits::default() });
    let reasons: Vec<String> = games.iter().map(|g| g.record.result.to_string()).collect();
    assert_eq!(
        reasons,
        [
            "0-1 (red plays e1e5 (0 4 4 4), invalid: a captain cannot move from (0,4) to (4,4))",
            "1-0 (blue plays e10e5 (9 4 4 4), invalid: a captain cannot move from (9,4) to (4,4))",
        ]
    );
    assert_eq!(games[0].record.illegal_move().map(|mv| mv.to_string()), Some("0 4 4 4".into()));
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // It crashes at its second move in every process: the second game needs a new process.
    let games =
        first_engine_loses("fault=crash after=1", Limits { depth: Some(1), ..Limits::default() });
    for game in &games {
        assert_eq!(
            game.record.result.termination,
            Termination::Crash { status: "exited with status 3".into() }
        );
    }
    // Red crashed at ply 2 (its second move), blue at ply 3.
    assert_eq!(games.iter().map(|g| g.record.plies()).collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn garbage_instead_of_a_move_loses() {
    let games = first_engine_loses("fault=garbage", Limits::default());
    assert_eq!(
        games[0].record.result.reason(),
        "red answers `bestmove banana`, which is not a move"
    );
}

#[test]
fn claiming_no_move_loses() {
    let games = first_engine_loses("fault=none", Limits::default());
    assert_eq!(games[0].record.result.termination, Termination::NoMoveClaimed);
}

#[test]
fn a_hang_loses_on_time() {
    let limits = Limits {
        clock: Some(TimeControl::MoveTime(Duration::from_millis(50))),
        margin: Duration::from_millis(50),
        ..Limits::default()
    };
    let games = first_engine_loses("fault=hang", limits);
    for game in &games {
        let Termination::TimeForfeit { allowed, answered, .. } = game.record.result.termination
        else {
            panic!("not on time: {:?}", game.record.result);
        };
        assert_eq!((allowed, answered), (Duration::from_millis(100), false));
    }
    assert!(
        games[0].record.result.reason().starts_with("red loses on time: no move within 100 ms")
    );
}

#[test]
fn a_late_move_loses_on_time() {
    // A clock of 0.2 s and a move after 1 s: the flag has fallen when the move comes.
    let limits = Limits {
        clock: Some("0.2".parse().unwrap()),
        margin: Duration::from_millis(50),
        ..Limits::default()
    };
    let games = first_engine_loses("fault=slow:1000", limits);
    for game in &games {
        let Termination::TimeForfeit { allowed, answered, .. } = game.record.result.termination
        else {
            panic!("not on time: {:?}", game.record.result);
        };
        // No move reached the deadline: it is the same whether the late move was read or not.
        assert_eq!(allowed, Duration::from_millis(250));
        let _ = answered;
    }
}

#[test]
fn an_engine_that_is_not_ready_loses() {
    let games = first_engine_loses(
        "fault=not-ready",
        Limits { timeout: Duration::from_secs(2), ..Limits::default() },
    );
    assert!(matches!(games[0].record.result.termination, Termination::NotReady { .. }));
    assert_eq!(games[0].record.plies(), 0);
}

#[test]
fn info_and_other_lines_before_the_move_are_skipped() {
    let (report, _) = play(&config(&format!("{WINS_AS_RED} noise=1"), WINS_AS_RED));
    assert_eq!(report.tally.pairs, Pentanomial([0, 0, 1, 0, 0]));
}

#[test]
fn a_move_with_tabs_and_a_dangling_ponder_is_played() {
    // `bestmove<TAB>a1a2<TAB>ponder<TAB>`: the move stands, nothing is lost on time or as garbage.
    let (report, games) = play(&config(&format!("{WINS_AS_RED} ponder=1"), WINS_AS_RED));
    assert_eq!(report.tally.pairs, Pentanomial([0, 0, 1, 0, 0]));
    assert!(
        games.iter().all(|game| game.record.result.termination == Termination::CaptainCaptured)
    );
}

#[test]
fn an_opening_with_an_invalid_move_is_an_error_naming_it() {
    // Built in code, not read from a file, so no parser has checked it: the match refuses it
    // before any game rather than playing on from a position the line does not describe.
    let moves = ["i1i2", "i10i9", "i2i9"].iter().map(|m| m.parse().unwrap()).collect();
    let bad = Opening { fen: None, moves };
    let config = MatchConfig {
        openings: Openings::List(vec![Opening::default(), bad]),
        ..config(WINS_AS_RED, WINS_AS_RED)
    };
    let error = run(&config, |_| panic!("no game is played")).unwrap_err();
    assert!(matches!(error, MatchError::Opening(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "opening `startpos moves i1i2 i10i9 i2i9`: move 3 `i2i9` is not valid: \
         car path (2,8) is occupied by red duck"
    );
}

#[test]
fn a_side_scoring_itself_lost_resigns() {
    let config = MatchConfig {
        adjudication: Adjudication {
            resign: Some(ResignRule { score: 500, moves: 3 }),
            draw: None,
        },
        ..config(&format!("{SHUFFLES} score=-600"), &format!("{SHUFFLES} score=600"))
    };
    let (report, games) = play(&config);
    assert_eq!(report.tally.games.losses, 2);
    for game in &games {
        let result = &game.record.result;
        assert_eq!(result.termination, Termination::Resign { score: 500, moves: 3 });
        // The first engine's third move: ply 5 as red, 6 as blue.
        assert_eq!(game.record.plies(), 5 + game.red);
        let loser = if game.red == 0 { Color::Red } else { Color::Blue };
        assert_eq!(
            result.reason(),
            format!("{loser} resigns: its score at or below -5.00 for 3 moves in a row")
        );
        assert_eq!(game.faulty_engine(), None, "resigning is no fault");
    }
}

#[test]
fn a_level_game_is_drawn_by_score() {
    let draw = |after| MatchConfig {
        adjudication: Adjudication {
            resign: Some(ResignRule { score: 500, moves: 1 }),
            draw: Some(DrawRule { score: 10, moves: 2, after }),
        },
        ..config(&format!("{SHUFFLES} score=10"), &format!("{SHUFFLES} score=-10"))
    };
    let (report, games) = play(&draw(4));
    assert_eq!(report.tally.games.draws, 2);
    for game in &games {
        assert_eq!(game.record.result.termination, Termination::DrawScore { score: 10, moves: 2 });
        assert_eq!(game.record.plies(), 8, "plies 5 to 8 count");
        assert_eq!(game.record.result.reason(), "both scores within ±0.10 for 2 moves each");
    }
    let (_, games) = play(&draw(0));
    assert_eq!(games[0].record.plies(), 4);
}

#[test]
fn a_failed_handshake_is_an_error_naming_the_engine() {
    let limits = Limits { timeout: Duration::from_secs(2), ..Limits::default() };
    let silent = MatchConfig { limits, ..config(WINS_AS_RED, "fault=silent-uci") };
    let error = run(&silent, |_| {}).unwrap_err();
    let MatchError::Start { engine: 1, error: EngineError::Timeout { .. }, .. } = &error else {
        panic!("not a timeout of the second engine: {error}");
    };
    assert!(
        error.to_string().ends_with("failed to start: no `uciok` within 2 s after `uci`"),
        "{error}"
    );

    let crashing = config("fault=crash-uci", WINS_AS_RED);
    let error = run(&crashing, |_| {}).unwrap_err().to_string();
    assert!(error.starts_with("engine 1 (`"), "{error}");
    assert!(error.contains("fake_engine.py 'fault=crash-uci'`)"), "{error}");
    assert!(
        error.ends_with(
            "failed to start: it exited with status 1 before answering `uci` with `uciok`"
        ),
        "{error}"
    );

    let missing = MatchConfig {
        engines: vec!["/nonexistent/engine".parse().unwrap(), fake(WINS_AS_RED)],
        ..config(WINS_AS_RED, WINS_AS_RED)
    };
    let error = run(&missing, |_| {}).unwrap_err().to_string();
    assert!(
        error.starts_with("engine 1 (`/nonexistent/engine`) failed to start: cannot run"),
        "{error}"
    );
}

#[test]
fn concurrent_games_are_all_counted_once() {
    let config = MatchConfig {
        games: 8,
        concurrency: 3,
        openings: Openings::Random { plies: 2, seed: 5 },
        max_plies: 10,
        ..config(SHUFFLES, SHUFFLES)
    };
    let (report, games) = play(&config);
    assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    assert_eq!(report.tally.games.total(), 8);
    assert_eq!(report.tally.pairs.total(), 4);
    for pair in games.chunks(2) {
        assert_eq!(pair[0].record.opening, pair[1].record.opening);
        assert_eq!((pair[0].red, pair[1].red), (0, 1));
    }
}

#[test]
fn shares_of_a_match_play_the_games_of_the_whole() {
    let config = MatchConfig {
        games: 8,
        openings: Openings::Random { plies: 2, seed: 5 },
        max_plies: 10,
        ..config(WINS, SHUFFLES)
    };
    let (_, whole) = play(&config);
    let mut shares = Vec::new();
    for only in [3..7, 1..3, 7..9] {
        let (report, games) = play(&MatchConfig { only: Some(only.clone()), ..config.clone() });
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), only.collect::<Vec<_>>());
        assert_eq!(report.tally.games.total(), games.len() as u64);
        shares.extend(games);
    }
    shares.sort_by_key(|game| game.number);
    let moves = |games: &[Finished]| -> Vec<_> {
        games.iter().map(|g| (g.number, g.pair, g.red, g.record.moves.clone())).collect()
    };
    assert_eq!(moves(&shares), moves(&whole));
}

#[test]
fn the_sprt_stops_the_match_on_a_decision() {
    // The first engine wins every pair 2-0.
    let config =
        MatchConfig { games: 1000, sprt: Some(Sprt::new(0.0, 10.0)), ..config(WINS, SHUFFLES) };
    let (report, games) = play(&config);
    let sprt = report.sprt.unwrap();
    assert_eq!(sprt.decision, Some(Decision::H1));
    assert!(sprt.llr >= sprt.test.bounds().1);
    assert!(games.len() < 1000);
    assert_eq!(report.tally.games.total() as usize, games.len());
    assert_eq!(report.tally.pairs.0[4] * 2, report.tally.games.wins);
}

#[test]
fn saved_records_hold_each_move_with_what_the_engine_said() {
    let dir = scratch_dir("saved_records_hold_each_move");
    let moves: Opening = "i1i2 i10i9".parse().unwrap();
    let config = MatchConfig {
        games: 2,
        openings: Openings::List(vec![moves]),
        limits: Limits { clock: Some("30+0.5".parse().unwrap()), ..Limits::default() },
        save: Some(dir.clone()),
        ..config(&format!("{WINS_AS_RED} noise=1"), "red=c1c10 blue=a10a9,a9a10,a10a9")
    };
    let (_, games) = play(&config);
    let text = std::fs::read_to_string(dir.join("game-1.record")).unwrap();
    let record: Record = text.parse().unwrap();
    let game = &games[0].record;
    assert!(
        text.starts_with(
            "# game 1: fake (red) vs fake (2) (blue)\nopening startpos moves i1i2 i10i9\n"
        ),
        "{text}"
    );
    assert_eq!(record.opening, game.opening);
    assert_eq!(record.moves, game.moves[2..]);
    assert_eq!(record.thoughts, game.thoughts);
    assert_eq!((record.result.as_str(), record.termination.as_str()), ("1-0", "captain-captured"));
    // The first engine's `info depth 1 score cp 12 nodes 3`; the second says nothing.
    let red = record.thoughts[0];
    assert_eq!((red.score, red.depth, red.nodes), (Some(Score::Centipawns(12)), Some(1), Some(3)));
    let blue = record.thoughts[1];
    assert_eq!((blue.score, blue.depth, blue.nodes), (None, None, None));
    // Each clock: 30 s, less the move's time, plus the increment (to the millisecond).
    for thought in &record.thoughts[..2] {
        let total = (thought.clock.unwrap() + thought.time).as_millis();
        assert!((30_499..=30_500).contains(&total), "{thought}");
    }
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[2].starts_with("a1a2 {+0.12/1 3N "), "{text}");
    assert_eq!(lines.last(), Some(&"result 1-0 captain-captured"));
    // The refused move of game 2 is kept after the valid ones.
    let second: Record =
        std::fs::read_to_string(dir.join("game-2.record")).unwrap().parse().unwrap();
    assert_eq!(second.illegal, games[1].record.illegal_move());
    assert_eq!(second.termination, "illegal-move");
}

#[test]
fn saved_games_replay_through_the_judge() {
    let dir = scratch_dir("saved_games_replay_through_the_judge");
    let moves: Opening = "i1i2 i10i9".parse().unwrap();
    let fen: Opening = "ch7/hS7/S8/9/9/9/9/9/9/2R1C4 w".parse().unwrap();
    let config = MatchConfig {
        games: 4,
        openings: Openings::List(vec![moves, fen]),
        save: Some(dir.clone()),
        ..config(WINS_AS_RED, "red=c1c10 blue=a10a9,a9a10,a10a9")
    };
    let (_, games) = play(&config);
    let codes: Vec<&str> = games.iter().map(|g| g.record.result.termination.code()).collect();
    // 1: the first engine's car takes the captain; 2: the second engine's c1c10 is no move of
    // the elephant on c1; 3: a1a2 moves nothing in the FEN; 4: c1c10 blocks blue in.
    assert_eq!(codes, ["captain-captured", "illegal-move", "illegal-move", "no-move"]);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let replay = |name: &str| {
        let mut out = Vec::new();
        judge::run(&read(name), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    // The opening's moves are in the file: 2 + 7 plies.
    let first = replay("game-1.txt");
    assert_eq!(first.lines().count(), 9);
    assert!(first.ends_with("red car;blue captain;no;yes\n"), "{first}");
    // A refused move is the last command, and the judge refuses it too.
    assert_eq!(read("game-2.txt"), "3\n0 8 1 8\n9 8 8 8\n0 2 9 2\n");
    assert_eq!(replay("game-2.txt"), "red car;NA;no;no\nblue car;NA;no;no\nInvalid command\n");
    // A FEN opening is saved beside its moves.
    assert_eq!(read("game-4.txt"), "1\n0 2 9 2\n");
    assert_eq!(read("game-4.fen"), "ch7/hS7/S8/9/9/9/9/9/9/2R1C4 w - - 0 1\n");
    assert!(!dir.join("game-1.fen").exists());

    let results: Vec<serde_json::Value> =
        read("results.jsonl").lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(results.len(), 4);
    let line = |game: u64| results.iter().find(|line| line["game"] == game).unwrap();
    assert_eq!(line(1)["result"], "1-0");
    assert_eq!(line(1)["red"], "fake");
    assert_eq!(line(1)["blue"], "fake (2)");
    assert_eq!(line(1)["red_engine"], 1);
    assert_eq!(line(1)["termination"], "captain-captured");
    assert_eq!(line(1)["opening"], "startpos moves i1i2 i10i9");
    assert_eq!(line(1)["fen"], serde_json::Value::Null);
    assert_eq!(line(1)["moves"][2], "a1a2");
    assert_eq!(line(1)["plies"], 9);
    assert_eq!(line(2)["winner"], "blue");
    assert_eq!(line(2)["illegal_move"], "c1c10");
    assert_eq!(line(4)["result"], "1/2-1/2");
    assert_eq!(line(4)["fen"], "ch7/hS7/S8/9/9/9/9/9/9/2R1C4 w - - 0 1");
    assert_eq!(line(4)["reason"], "blue has no valid move");
    let stderr = read("engine1.worker1.stderr");
    assert!(
        stderr.starts_with("fake engine thinking about move 1 after `go depth 1`\n"),
        "{stderr}"
    );

    // A second match into the same directory would start the results afresh: refused.
    let before = read("results.jsonl");
    match run(&config, |_| {}) {
        Err(MatchError::Save { error, .. }) => {
            assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists, "{error}")
        }
        other => panic!("a second match into a save directory: {:?}", other.map(|_| ())),
    }
    assert_eq!(read("results.jsonl"), before);
    let _ = std::fs::remove_dir_all(&dir);
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_example_openings_file_reads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openings.txt");
    let openings = parse_openings(&std::fs::read_to_string(path).unwrap()).unwrap();
    let shown: Vec<String> = openings.iter().map(Opening::to_string).collect();
    assert_eq!(
        shown,
        [
            "startpos moves e1e2 e10e9",
            "startpos moves b1c3 h10g8",
            "startpos moves b1c3 b10c8 h1g3",
            "startpos moves e4e5 e7e6",
            "startpos moves a4a5 i7i6",
            "fen rhegcgehr/9/d7d/s1s1s1s1s/9/4S4/S1S3S1S/D7D/9/RHEGCGEHR b - - 0 1",
            "fen rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1 \
             moves c4c5 c7c6",
        ]
    );
}
