//! End-to-end tests of `arbiter duck match`: usage errors, a scripted match with its saved games
//! replayed through `arbiter duck`, and fairy-stockfish against itself where it is installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Debian's fairy-stockfish, which plays Duck Chess with the project's variant file.
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().unwrap()
}

fn arbiter_owned(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().unwrap()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python interpreter itself (`python3` may be a slow launcher script).
fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let output = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs the scripted engines of these tests");
        text(output.stdout).trim().to_owned()
    })
}

/// The scripted engine of the match runner's tests, with its arguments.
fn fake(arguments: &str) -> String {
    let script = root().join("crates/duck-match/tests/fixtures/fake_engine.py");
    format!("{} {} {arguments}", python(), script.display())
}

/// Against [`SHUFFLES`] it wins with either colour: a car takes a guard, then the captain.
const WINS: &str = "red=a1a2,a2d2,d2d10,d10e10 blue=a10a9,a9d9,d9d1,d1e1";
const SHUFFLES: &str = "red=a1a2,a2a1 blue=a10a9,a9a10 cycle=1";

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Replays a saved game through `arbiter duck`: its official output lines.
fn replay(path: &Path) -> String {
    let out = arbiter(&["duck", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    text(out.stdout)
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let dir = scratch_dir("duck_match_usage");
    std::fs::create_dir_all(&dir).unwrap();
    let bad_openings = dir.join("openings.txt");
    std::fs::write(&bad_openings, "e1e2 e10e9\n\n# a comment\nd1e2 x9\n").unwrap();
    let empty_openings = dir.join("empty.txt");
    std::fs::write(&empty_openings, "# nothing yet\n").unwrap();
    let (engine, other) = (fake(WINS), fake(SHUFFLES));
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--engine", &engine],
            "--engine: expected two engines (--engine CMD --engine CMD), found 1 --engine".into(),
        ),
        (
            vec!["--option", "Hash=1", "--engine", &engine, "--engine", &other],
            "--option: expected to follow the --engine it applies to, found `--option Hash=1` \
             before any"
                .into(),
        ),
        (
            vec!["--engine", &engine, "--engine", &other, "--games", "4", "--only-games", "3-6"],
            "--only-games: expected games within the match's 4, found 3-6".into(),
        ),
        (
            vec!["--engine", &engine, "--option", "Hash", "--engine", &other],
            "--option: expected NAME=VALUE, found `Hash`".into(),
        ),
        (
            vec!["--engine", &engine, "--name", "a", "--name", "b", "--engine", &other],
            "--name: expected one name per engine, found a second name `b`".into(),
        ),
        (
            vec!["--engine", "engine 'open", "--engine", &other],
            "--engine: expected a command with closed quotes, found `engine 'open`".into(),
        ),
        (
            vec![
                "--engine",
                &engine,
                "--engine",
                &other,
                "--openings",
                bad_openings.to_str().unwrap(),
            ],
            format!(
                "{}:4:6: expected a move such as e1e2 or 0 3 1 4 (a file letter a-i), found `x9`",
                bad_openings.display()
            ),
        ),
        (
            vec![
                "--engine",
                &engine,
                "--engine",
                &other,
                "--openings",
                empty_openings.to_str().unwrap(),
            ],
            format!("{}:1:1: expected at least one opening, found none", empty_openings.display()),
        ),
        (
            vec!["--engine", "/nonexistent/engine", "--engine", &other],
            "engine 1 (`/nonexistent/engine`) failed to start: cannot run".into(),
        ),
    ];
    for (args, message) in cases {
        let out = arbiter(&[&["duck", "match"][..], &args].concat());
        let stderr = text(out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(&message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Values clap refuses itself.
    for args in [
        vec!["--games", "3"],
        vec!["--games", "0"],
        vec!["--movetime", "10", "--tc", "1+0"],
        vec!["--tc", "fast"],
        vec!["--sprt", "elo0=5,elo1=0"],
        vec!["--concurrency", "0"],
        vec!["--openings", "a", "--random-openings", "4"],
        vec!["--only-games", "2-4"],
        vec!["--only-games", "3-3"],
        vec!["--only-games", "five"],
    ] {
        let all = [&["duck", "match", "--engine", &engine, "--engine", &other][..], &args].concat();
        let out = arbiter(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(out.stderr).contains("error:"), "{args:?}");
    }
    let out = arbiter(&["duck", "match", "--engine", &engine, "--engine", &other, "--games", "3"]);
    assert!(text(out.stderr).contains("expected an even number of games above 0"));
}

#[test]
fn a_scripted_match_reports_saves_and_replays() {
    let dir = scratch_dir("duck_match_scripted");
    std::fs::create_dir_all(&dir).unwrap();
    // Two openings out of the cars' way, in two of the notations.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "i1i2 i10i9\n2 3 8 4 8 6 8 5 8\n").unwrap();
    let mut args = words("duck match --engine");
    args.push(fake(WINS));
    args.extend(words("--name alpha --option Hash=8 --engine"));
    args.push(fake(SHUFFLES));
    args.extend(words("--option Contempt=0 --games 4 --depth 1 --json"));
    args.extend(["--openings".into(), openings.display().to_string()]);
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    let (stdout, stderr) = (text(out.stdout), text(out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // An option the engine does not declare is sent with a warning; the first engine's
    // Hash is declared.
    assert!(
        stderr.starts_with(
            "warning: engine 2 (fake) declares no option `Contempt`; it was sent anyway\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("`Hash`"));
    // Not a terminal: one line per game.
    assert_eq!(stderr.lines().filter(|line| line.starts_with("game ")).count(), 4, "{stderr}");
    assert!(
        stderr.contains(
            "game 1 of 4: alpha (red) vs fake (blue): 1-0 (red captures blue's captain), 9 plies;"
        ),
        "{stderr}"
    );
    let lines: Vec<serde_json::Value> =
        stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 5);
    let summary = &lines[4];
    assert_eq!(summary["engines"], serde_json::json!(["alpha", "fake"]));
    assert_eq!((summary["wins"].as_u64(), summary["losses"].as_u64()), (Some(4), Some(0)));
    assert_eq!(summary["pentanomial"], serde_json::json!([0, 0, 0, 0, 2]));
    assert_eq!(summary["elo"]["elo"], serde_json::Value::Null, "an infinite Elo is null");
    assert_eq!(summary["elo"]["model"], "pentanomial");
    // Every saved game replays through the judge to the same end: the opening's two plies and
    // the seven or eight of the game, the last capturing a captain.
    for game in &lines[..4] {
        let number = game["game"].as_u64().unwrap();
        let output = replay(&dir.join(format!("game-{number}.txt")));
        assert_eq!(output.lines().count() as u64, game["plies"].as_u64().unwrap());
        assert!(
            output.ends_with("car;red captain;no;yes\n")
                || output.ends_with("car;blue captain;no;yes\n")
        );
        assert_eq!(game["moves"].as_array().unwrap().len() as u64, game["plies"].as_u64().unwrap());
    }
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 4);
    assert!(dir.join("engine2.worker1.stderr").exists());
}

#[test]
fn opening_start_begins_further_into_the_file() {
    let dir = scratch_dir("duck_match_opening_start");
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "i1i2 i10i9\n# a comment\n2 3 8 4 8 6 8 5 8\n").unwrap();
    let play = |start: &str| {
        let mut args = words("duck match --engine");
        args.push(fake(WINS));
        args.push("--engine".into());
        args.push(fake(SHUFFLES));
        args.extend(words("--games 4 --depth 1 --opening-start"));
        args.push(start.into());
        args.extend(["--openings".into(), openings.display().to_string()]);
        args.extend(["--save".into(), dir.join(start).display().to_string()]);
        arbiter_owned(&args)
    };
    let openings_of = |start: &str| -> Vec<String> {
        saved_games(&dir.join(start)).into_iter().map(|game| game.3).collect()
    };
    assert_eq!(play("1").status.code(), Some(0));
    assert_eq!(play("2").status.code(), Some(0));
    let (first, second) = (openings_of("1"), openings_of("2"));
    assert_ne!(first[0], first[2], "two openings, a pair each");
    assert_eq!(second, [&first[2..], &first[..2]].concat(), "the second opening first");
    let out = play("3");
    assert_eq!(out.status.code(), Some(2));
    let expected = format!("--opening-start 3: {} has 2 opening(s)\n", openings.display());
    let stderr = text(out.stderr);
    assert!(stderr.ends_with(&expected), "{stderr}");
    let out = play("0");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_summary_names_the_engines_and_the_test() {
    let mut args = words("duck match --engine");
    args.push(fake(WINS));
    args.push("--engine".into());
    args.push(fake(SHUFFLES));
    args.extend(words("--games 100 --depth 1 --sprt elo0=0,elo1=50 --concurrency 2"));
    let out = arbiter_owned(&args);
    let stdout = text(out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.starts_with("Games: "), "{stdout}");
    assert!(stdout.contains(" of 100, fake vs fake (2)\n"), "{stdout}");
    assert!(stdout.contains("\nSPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR "), "{stdout}");
    assert!(stdout.contains(": H1 accepted, fake is the stronger\n"), "{stdout}");
    assert!(stdout.contains("\nEndings: captain-captured "), "{stdout}");
}

#[test]
fn limits_of_one_engine_replace_the_match_limits() {
    let dir = scratch_dir("duck_match_engine_limits");
    let mut args = words("duck match --games 2 --nodes 100 --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-depth 5 --engine"));
    args.push(fake(SHUFFLES));
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let first = std::fs::read_to_string(dir.join("engine1.worker1.stderr")).unwrap();
    assert!(first.contains("after `go depth 5 nodes 100`\n"), "{first}");
    let second = std::fs::read_to_string(dir.join("engine2.worker1.stderr")).unwrap();
    assert!(second.contains("after `go nodes 100`\n"), "{second}");

    // Without a time limit, an engine without a limit of its own would search for ever.
    let mut args = words("duck match --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-nodes 10 --engine"));
    args.push(fake(SHUFFLES));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(out.stderr);
    assert_eq!(
        stderr,
        "--engine-depth: expected a limit for both engines, found one engine without any limit\n"
    );
}

#[test]
fn scores_adjudicate_resignations_and_draws() {
    let mut args =
        words("duck match --games 2 --depth 1 --json --resign-score 500 --resign-moves 3");
    args.push("--engine".into());
    args.push(fake(&format!("{SHUFFLES} score=-600")));
    args.push("--engine".into());
    args.push(fake(SHUFFLES));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    let lines: Vec<serde_json::Value> =
        stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    for game in &lines[..2] {
        assert_eq!(game["termination"], "resign-score", "{game}");
        assert!(
            game["reason"]
                .as_str()
                .unwrap()
                .ends_with(" resigns: its score at or below -5.00 for 3 moves in a row")
        );
    }
    assert_eq!(lines[2]["losses"], 2);
    assert_eq!(lines[2]["endings"]["resign-score"], 2);

    let mut args = words("duck match --games 2 --depth 1 --draw-score 20 --draw-moves 2");
    args.extend(words("--draw-after 10 --engine"));
    args.push(fake(&format!("{SHUFFLES} score=5")));
    args.push("--engine".into());
    args.push(fake(&format!("{SHUFFLES} score=-20")));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stderr = text(out.stderr);
    assert!(
        stderr.contains(": 1/2-1/2 (both scores within ±0.20 for 2 moves each), 14 plies;"),
        "{stderr}"
    );
    assert!(text(out.stdout).contains("\nEndings: draw-score 2\n"));

    // Each bound needs its count, and the count its bound.
    for flags in [
        "--resign-score 500",
        "--draw-moves 3",
        "--draw-after 4",
        "--resign-moves 0 --resign-score 1",
    ] {
        let mut args = words("duck match --engine");
        args.push(fake(SHUFFLES));
        args.push("--engine".into());
        args.push(fake(SHUFFLES));
        args.extend(words(flags));
        let out = arbiter_owned(&args);
        assert_eq!(out.status.code(), Some(2), "{flags}");
        assert!(text(out.stderr).contains("error:"), "{flags}");
    }
}

/// `duck match` with three scripted engines: one that wins, two that shuffle, and more words.
fn three_engines(more: &str) -> Vec<String> {
    let mut args = words("duck match --engine");
    args.push(fake(WINS));
    args.extend(words("--name winner --engine"));
    args.push(fake(SHUFFLES));
    args.extend(words("--name shuffler --engine"));
    args.push(fake(SHUFFLES));
    args.extend(words("--name other --games 2 --depth 1 --max-plies 12"));
    args.extend(words(more));
    args
}

#[test]
fn a_round_robin_of_three_engines_has_a_crosstable() {
    let dir = scratch_dir("duck_match_round_robin");
    let mut args = three_engines("--save");
    args.push(dir.display().to_string());
    let out = arbiter_owned(&args);
    let (stdout, stderr) = (text(out.stdout), text(out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("game 6 of 6: "), "{stderr}");
    let expected = "\
Games: 6 of 6, a round robin of 3 engines
Rank Engine   Games Score           Elo (95% interval)                  LOS
   1 winner       4 4.0/4 = 100.0%  +inf ± inf (+inf to +inf)           100.0%
   2 shuffler     4 1.0/4 = 25.0%   -190.8 ± inf (-inf to +67.9)         7.9%
   3 other        4 1.0/4 = 25.0%   -190.8 ± inf (-inf to +67.9)         7.9%
Crosstable, the row's points against the column's:
            winner    shuffler  other
  winner    -         2.0/2     2.0/2
  shuffler  0.0/2     -         1.0/2
  other     0.0/2     1.0/2     -
winner vs shuffler: 2 wins, 0 draws, 0 losses; score 2.0/2 = 100.0%; Elo +inf ± inf (95% interval +inf to +inf)
winner vs other: 2 wins, 0 draws, 0 losses; score 2.0/2 = 100.0%; Elo +inf ± inf (95% interval +inf to +inf)
shuffler vs other: 0 wins, 2 draws, 0 losses; score 1.0/2 = 50.0%; Elo +0.0 ± 0.0 (95% interval +0.0 to +0.0)
Endings: captain-captured 4, ply-cap 2
";
    assert_eq!(stdout, expected);
    // Pairs go round the pairings: games 1-2 winner-shuffler, 3-4 winner-other, 5-6 the rest.
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let mut met: Vec<(u64, u64, u64)> = results
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .map(|g| {
            let number = |key: &str| g[key].as_u64().unwrap();
            (number("game"), number("red_engine"), number("blue_engine"))
        })
        .collect();
    met.sort_unstable();
    assert_eq!(met, [(1, 1, 2), (2, 2, 1), (3, 1, 3), (4, 3, 1), (5, 2, 3), (6, 3, 2)]);

    // JSON: each engine against the field, and each pairing as a two-engine summary.
    let out = arbiter_owned(&three_engines("--json"));
    let stdout = text(out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["schedule"], "round-robin");
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["standings"][0]["engine"], "winner");
    assert_eq!(summary["standings"][0]["wins"], 4);
    assert_eq!(summary["pairings"][2]["engines"], serde_json::json!(["shuffler", "other"]));
    assert_eq!(summary["pairings"][2]["draws"], 2);
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let out = arbiter_owned(&three_engines("--gauntlet --json"));
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["schedule"], "gauntlet");
    assert_eq!(summary["games"], 4);
    let pairings: Vec<&serde_json::Value> =
        summary["pairings"].as_array().unwrap().iter().collect();
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[0]["engines"], serde_json::json!(["winner", "shuffler"]));
    assert_eq!(pairings[1]["engines"], serde_json::json!(["winner", "other"]));

    // The SPRT compares two engines only.
    let out = arbiter_owned(&three_engines("--sprt elo0=0,elo1=5"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(out.stderr),
        "--sprt: expected two engines (the test compares two), found 3 engines\n"
    );
}

/// The games of a save directory's results, by number: the engines, opening, moves and result.
fn saved_games(dir: &Path) -> Vec<(u64, u64, u64, String, String, String)> {
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let mut games: Vec<_> = results
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .map(|g| {
            let number = |key: &str| g[key].as_u64().unwrap();
            let string = |key: &str| g[key].to_string();
            (
                number("game"),
                number("red_engine"),
                number("blue_engine"),
                string("opening"),
                string("moves"),
                string("result"),
            )
        })
        .collect();
    games.sort();
    games
}

/// A match of three scripted engines from random openings, saved in `dir`.
fn resumable(dir: &Path, engine2: &str) -> Vec<String> {
    let mut args = words("duck match --engine");
    args.push(fake(WINS));
    args.push("--engine".into());
    args.push(fake(engine2));
    args.push("--engine".into());
    args.push(fake(SHUFFLES));
    args.extend(words("--games 4 --depth 1 --max-plies 12 --random-openings 2 --seed 9 --save"));
    args.push(dir.display().to_string());
    args
}

#[test]
fn a_stopped_match_resumes_as_if_it_had_never_stopped() {
    let whole = scratch_dir("duck_match_resume_whole");
    let out = arbiter_owned(&resumable(&whole, SHUFFLES));
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let report = text(out.stdout);
    assert_eq!(saved_games(&whole).len(), 12);

    // Stopped after five games, the sixth cut short in the middle of its results line.
    let cut = scratch_dir("duck_match_resume_cut");
    let out = arbiter_owned(&resumable(&cut, SHUFFLES));
    assert_eq!(out.status.code(), Some(0));
    let results = std::fs::read_to_string(cut.join("results.jsonl")).unwrap();
    let lines: Vec<&str> = results.lines().collect();
    let kept = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..20]);
    std::fs::write(cut.join("results.jsonl"), kept).unwrap();
    let out =
        arbiter(&["duck", "match", "--resume", cut.to_str().unwrap(), "--trust-saved-engines"]);
    let stderr = text(out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().filter(|line| line.starts_with("game ")).count(), 7, "{stderr}");
    assert_eq!(text(out.stdout), report, "the same report");
    assert_eq!(saved_games(&cut), saved_games(&whole), "the same games");

    // Killed while playing: an engine that takes 100 ms a move leaves time to stop it.
    let killed = scratch_dir("duck_match_resume_killed");
    let slow = format!("{SHUFFLES} fault=slow:100");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(resumable(&killed, &slow))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let results = killed.join("results.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&results).map_or(0, |text| text.lines().count()) < 2 {
        assert!(std::time::Instant::now() < deadline, "two games within a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = saved_games(&killed).len();
    assert!((2..12).contains(&before), "{before} games before the kill");
    let out =
        arbiter(&["duck", "match", "--resume", killed.to_str().unwrap(), "--trust-saved-engines"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    assert_eq!(text(out.stdout), report);
    let games = saved_games(&killed);
    assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), (1..=12).collect::<Vec<_>>());
    assert_eq!(games, saved_games(&whole));

    // --resume takes nothing else, and needs a saved match.
    let out = arbiter(&["duck", "match", "--resume", cut.to_str().unwrap(), "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let empty = scratch_dir("duck_match_resume_nothing");
    let out = arbiter(&["duck", "match", "--resume", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(out.stderr);
    assert!(stderr.contains("arguments.json"), "{stderr}");
}

#[test]
fn a_save_directory_is_untrusted_input() {
    let dir = scratch_dir("duck_match_untrusted");
    let (first, second) = (fake(WINS), fake(SHUFFLES));
    let mut args = words("duck match --games 2 --depth 1 --max-plies 6 --engine");
    args.push(first.clone());
    args.push("--engine".into());
    args.push(second.clone());
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    // Stopped after the first game.
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let first_line = format!("{}\n", results.lines().next().unwrap());
    std::fs::write(dir.join("results.jsonl"), &first_line).unwrap();
    let arguments = std::fs::read_to_string(dir.join("arguments.json")).unwrap();
    let resume = |extra: &[&str]| {
        let mut args = vec!["duck", "match", "--resume", dir.to_str().unwrap()];
        args.extend_from_slice(extra);
        arbiter(&args)
    };

    // An edited arguments.json names a command of its own: it is shown, not run.
    let pwned = dir.join("PWNED");
    let edited = arguments.replace(
        &serde_json::to_string(&first).unwrap(),
        &serde_json::to_string(&format!("touch {}", pwned.display())).unwrap(),
    );
    assert_ne!(edited, arguments);
    std::fs::write(dir.join("arguments.json"), &edited).unwrap();
    let out = resume(&[]);
    let message = text(out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains(&format!("\n  1. touch {}\n", pwned.display())), "{message}");
    assert!(message.contains("--trust-saved-engines"), "{message}");
    // Other engines given than those saved: refused too.
    let out = resume(&["--engine", &first, "--engine", &second]);
    assert_eq!(out.status.code(), Some(2), "{}", text(out.stderr));
    assert!(text(out.stderr).contains("expected the engines of the saved match"));
    assert!(!pwned.exists(), "the saved command never ran");
    assert_eq!(std::fs::read_to_string(dir.join("results.jsonl")).unwrap(), first_line);

    // A symbolic link in the directory, out of it or to a device: refused, nothing written.
    std::fs::write(dir.join("arguments.json"), &arguments).unwrap();
    let outside = scratch_dir("duck_match_untrusted_outside");
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    std::fs::remove_file(dir.join("game-2.txt")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("game-2.txt")).unwrap();
    let out = resume(&["--trust-saved-engines"]);
    let message = text(out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("game-2.txt: a symbolic link"), "{message}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    std::fs::remove_file(dir.join("game-2.txt")).unwrap();
    let results = dir.join("results.jsonl");
    std::fs::rename(&results, outside.join("results.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &results).unwrap();
    let out = resume(&["--trust-saved-engines"]);
    assert_eq!(out.status.code(), Some(2));
    let message = text(out.stderr);
    assert!(message.contains("results.jsonl: a symbolic link"), "{message}");
    std::fs::remove_file(&results).unwrap();
    // A results line without end, far longer than any game's: refused at its bound.
    let long = std::fs::File::create(&results).unwrap();
    long.set_len(20 << 20).unwrap();
    let out = resume(&["--trust-saved-engines"]);
    assert_eq!(out.status.code(), Some(2));
    let message = text(out.stderr);
    assert!(message.contains("a line longer than"), "{message}");
    assert_eq!(std::fs::metadata(&results).unwrap().len(), 20 << 20, "left as it was");

    // The engines given again, as saved: the match goes on.
    std::fs::rename(outside.join("results.jsonl"), &results).unwrap();
    let out = resume(&["--engine", &first, "--engine", &second]);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    assert_eq!(std::fs::read_to_string(&results).unwrap().lines().count(), 2);
    assert!(dir.join("game-2.txt").is_file());
}

#[test]
fn time_odds_give_each_engine_its_own_clock() {
    let dir = scratch_dir("duck_match_time_odds");
    let mut args =
        words("duck match --games 2 --tc 30+0.5 --time-margin 5000 --max-plies 6 --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-tc 20+0 --engine"));
    args.push(fake(SHUFFLES));
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    // Game 1: the first engine is red, on 20 s; the second is blue, on 30 s plus 0.5 s a move.
    let first = std::fs::read_to_string(dir.join("engine1.worker1.stderr")).unwrap();
    assert!(first.contains("after `go wtime 20000 btime 30000 winc 0 binc 500`\n"), "{first}");
    let second = std::fs::read_to_string(dir.join("engine2.worker1.stderr")).unwrap();
    let go = second.lines().next().unwrap();
    assert!(go.contains(" btime 30000 winc 0 binc 500`"), "{second}");
    // The records show each side's own clock after its move: at most 20 s, and at most 30.5 s
    // but well above 20 s (a loaded machine may take a while for a move).
    let record = std::fs::read_to_string(dir.join("game-1.record")).unwrap();
    let clocks: Vec<f64> = record
        .lines()
        .filter_map(|line| line.strip_suffix("s}"))
        .map(|line| line.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(clocks.len(), 6, "{record}");
    assert!(clocks[0] <= 20.0 && clocks[1] > 25.0 && clocks[1] <= 30.5, "{record}");

    // An engine with a clock of its own needs no other limit.
    let mut args = words("duck match --games 2 --max-plies 4 --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-tc 10 --engine"));
    args.push(fake(SHUFFLES));
    args.extend(words("--engine-depth 1"));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
}

#[test]
fn time_odds_at_a_fixed_time_per_move() {
    let dir = scratch_dir("duck_match_movetime_odds");
    let mut args = words("duck match --games 2 --movetime 100 --max-plies 4 --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-movetime 400 --engine"));
    args.push(fake(SHUFFLES));
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let first = std::fs::read_to_string(dir.join("engine1.worker1.stderr")).unwrap();
    assert!(first.contains("after `go movetime 400`\n"), "{first}");
    let second = std::fs::read_to_string(dir.join("engine2.worker1.stderr")).unwrap();
    assert!(second.contains("after `go movetime 100`\n"), "{second}");

    // The same command again would start the results afresh: it is refused, the match kept.
    let results = std::fs::read(dir.join("results.jsonl")).unwrap();
    let again = arbiter_owned(&args);
    let message = text(again.stderr);
    assert_eq!(again.status.code(), Some(2), "{message}");
    assert!(message.contains("already holds a match (results.jsonl)"), "{message}");
    assert!(message.contains(&format!("`--resume {}`", dir.display())), "{message}");
    assert_eq!(std::fs::read(dir.join("results.jsonl")).unwrap(), results);
    assert!(dir.join("game-1.txt").exists());

    let mut args = words("duck match --games 2 --engine");
    args.push(fake(WINS));
    args.extend(words("--engine-tc 10 --engine-movetime 400 --engine"));
    args.push(fake(SHUFFLES));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(out.stderr).contains("--engine-movetime: expected one time limit per engine"));
}

#[test]
fn affinity_pins_each_engine_to_a_core() {
    let dir = scratch_dir("duck_match_affinity");
    let mut args = words("duck match --affinity --games 2 --depth 1 --max-plies 4 --engine");
    args.push(fake(&format!("{WINS} affinity=1")));
    args.push("--engine".into());
    args.push(fake(&format!("{SHUFFLES} affinity=1")));
    args.extend(["--save".into(), dir.display().to_string()]);
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let core = |engine: u32| {
        let log = std::fs::read_to_string(dir.join(format!("engine{engine}.worker1.stderr")));
        let log = log.unwrap();
        let line = log.lines().find(|line| line.starts_with("affinity ")).unwrap().to_owned();
        assert!(!line.contains(','), "one core each: {line}");
        line
    };
    let (first, second) = (core(1), core(2));
    if std::thread::available_parallelism().map_or(1, usize::from) >= 2 {
        assert_ne!(first, second, "a core of its own");
    }
}

#[test]
fn a_timed_match_on_a_loaded_machine_is_warned_of() {
    let dir = scratch_dir("duck_match_load");
    std::fs::create_dir_all(&dir).unwrap();
    let loadavg = dir.join("loadavg");
    let run = |load: &str, limit: &str| {
        std::fs::write(&loadavg, format!("{load} 1.00 1.00 2/300 12345\n")).unwrap();
        let mut args = words("duck match --games 2 --max-plies 4 --time-margin 5000 --engine");
        args.push(fake(WINS));
        args.push("--engine".into());
        args.push(fake(SHUFFLES));
        args.extend(words(limit));
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&args)
            .env("ARBITER_LOADAVG", &loadavg)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        text(out.stderr)
    };
    let stderr = run("99.50", "--tc 10+0");
    assert!(stderr.starts_with("warning: the 1-minute load average is 99.50 on "), "{stderr}");
    assert!(stderr.contains("the time they wait counts on their clocks"), "{stderr}");
    assert!(run("99.50", "--movetime 500").starts_with("warning: the 1-minute load"));
    // No time limit, nothing to warn of; an idle machine, nothing either.
    assert!(!run("99.50", "--depth 1").contains("load average"));
    if std::thread::available_parallelism().map_or(1, usize::from) >= 2 {
        assert!(!run("0.00", "--tc 10+0").contains("load average"));
    }
}

/// Moves valid in every position the compliance checks set up.
const COMPLIANT: &str = "red=a1a2 blue=a10a9 cycle=1";

/// `arbiter duck match --compliance CMD` with a generous margin: its status and stdout.
fn compliance(engine: &str) -> (Option<i32>, String) {
    let mut args = words("duck match --time-margin 1000 --timeout 2.5 --compliance");
    args.push(engine.to_owned());
    let out = arbiter_owned(&args);
    (out.status.code(), text(out.stdout))
}

#[test]
fn compliance_passes_arbiter_and_a_well_behaved_engine() {
    for engine in [arbiter_engine(""), fake(COMPLIANT)] {
        let (status, stdout) = compliance(&engine);
        assert_eq!(status, Some(0), "{stdout}");
        let names: Vec<&str> = stdout
            .lines()
            .filter_map(|line| line.strip_prefix("pass  "))
            .map(|line| line.split(':').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "uci",
                "isready",
                "ucinewgame",
                "go movetime",
                "position moves",
                "go wtime btime",
                "stop",
                "quit"
            ],
            "{stdout}"
        );
        assert!(stdout.ends_with("8 checks, all passed\n"), "{stdout}");
    }
}

#[test]
fn compliance_fails_an_engine_on_each_check() {
    let cases = [
        ("fault=silent-uci".to_owned(), "uci", "no `uciok` within 2.5 s after `uci`"),
        ("fault=silent-isready".to_owned(), "isready", "no `readyok` within 2.5 s"),
        (format!("{COMPLIANT} fault=not-ready"), "ucinewgame", "no `readyok` within 2.5 s"),
        (format!("{COMPLIANT} fault=slow:2800"), "go movetime", "no bestmove within 1200 ms"),
        (format!("{COMPLIANT} fault=garbage"), "go movetime", "`bestmove banana` is not a move"),
        ("red=a1a9 blue=a10a9 cycle=1".to_owned(), "go movetime", "bestmove a1a9 is not valid"),
        ("red=c4c5 blue=a10a9 cycle=1".to_owned(), "position moves", "bestmove c4c5 is not valid"),
        (
            format!("{COMPLIANT} fault=slow:2800 after=2"),
            "go wtime btime",
            "no bestmove within 2000 ms",
        ),
        (format!("{COMPLIANT} fault=early-infinite"), "stop", "`bestmove a1a2` before `stop`"),
        (
            format!("{COMPLIANT} fault=ignore-stop"),
            "stop",
            "no bestmove within 1500 ms after `stop`",
        ),
        (format!("{COMPLIANT} fault=ignore-quit"), "quit", "still running 500 ms after `quit`"),
    ];
    for (engine, check, detail) in cases {
        let (status, stdout) = compliance(&fake(&engine));
        assert_eq!(status, Some(1), "{engine}: {stdout}");
        let line = stdout.lines().find(|line| line.starts_with(&format!("FAIL  {check}: ")));
        assert!(line.is_some_and(|line| line.contains(detail)), "{engine}: {stdout}");
        assert!(stdout.contains(" failed\n"), "{engine}: {stdout}");
    }
    // Only the check the engine fails fails: the others pass, before and after it.
    let (_, stdout) = compliance(&fake(&format!("{COMPLIANT} fault=slow:2800 after=2")));
    assert_eq!(stdout.lines().filter(|line| line.starts_with("FAIL")).count(), 1, "{stdout}");
    assert!(stdout.contains("\npass  stop: ") && stdout.ends_with("8 checks, 1 failed\n"));
}

#[test]
fn a_silent_engine_fails_to_start() {
    let mut args = words("duck match --timeout 1 --engine");
    args.push(fake(WINS));
    args.push("--engine".into());
    args.push(fake("fault=silent-uci"));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(out.stderr);
    assert!(stderr.ends_with("failed to start: no `uciok` within 1 s after `uci`\n"), "{stderr}");
}

/// fairy-stockfish's engine command line for this game.
fn fairy_stockfish() -> Option<Vec<String>> {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        eprintln!("skipped: {FAIRY_STOCKFISH} is not installed (apt-get install fairy-stockfish)");
        return None;
    }
    let variants = root().join("crates/duck/tests/fixtures/duck-variants.ini");
    Some(vec![
        "--engine".into(),
        FAIRY_STOCKFISH.into(),
        "--option".into(),
        format!("VariantPath={}", variants.display()),
        "--option".into(),
        "UCI_Variant=duck".into(),
    ])
}

#[test]
fn fairy_stockfish_against_itself_at_depth_1() {
    let Some(engine) = fairy_stockfish() else { return };
    let dir = scratch_dir("duck_match_fairy_stockfish");
    let mut args = words("duck match");
    args.extend(engine.iter().chain(&engine).cloned());
    args.extend(words("--games 2 --depth 1 --random-openings 6 --save"));
    args.push(dir.display().to_string());
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    assert!(stdout.contains("Games: 2 of 2, Fairy-Stockfish"), "{stdout}");
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    for line in results.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let termination = game["termination"].as_str().unwrap();
        assert!(
            ["captain-captured", "ply-cap", "no-move"].contains(&termination),
            "fairy-stockfish should play only valid moves: {game}"
        );
        let number = game["game"].as_u64().unwrap();
        let output = replay(&dir.join(format!("game-{number}.txt")));
        assert_eq!(output.lines().count() as u64, game["plies"].as_u64().unwrap());
        assert!(!output.contains("Invalid command"));
        assert_eq!(output.ends_with(";no;yes\n"), termination == "captain-captured");
    }
}

#[test]
fn fairy_stockfish_on_a_clock() {
    let Some(engine) = fairy_stockfish() else { return };
    let mut args = words("duck match");
    args.extend(engine.iter().chain(&engine).cloned());
    // A generous margin: the point is that the clock is sent and kept, not the machine's speed.
    args.extend(words("--games 2 --tc 1+0.05 --time-margin 1000 --max-plies 16 --json"));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    for line in stdout.lines().take(2) {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            ["captain-captured", "ply-cap"].contains(&game["termination"].as_str().unwrap()),
            "{game}"
        );
    }
}

/// `arbiter duck uci` as an engine command, with more arguments.
fn arbiter_engine(arguments: &str) -> String {
    format!("{} duck uci {arguments}", env!("CARGO_BIN_EXE_arbiter"))
}

#[test]
fn two_arbiter_engines_at_a_fixed_depth() {
    let dir = scratch_dir("duck_match_arbiter");
    let mut args = words("duck match --engine");
    args.push(arbiter_engine(""));
    args.push("--engine".into());
    args.push(arbiter_engine(""));
    args.extend(words("--games 4 --depth 2 --random-openings 6 --seed 1 --concurrency 2 --save"));
    args.push(dir.display().to_string());
    let out = arbiter_owned(&args);
    let stdout = text(out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    assert!(stdout.starts_with("Games: 4 of 4, arbiter "), "{stdout}");
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 4);
    for line in results.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let termination = game["termination"].as_str().unwrap();
        assert!(["captain-captured", "ply-cap", "no-move"].contains(&termination), "{game}");
        let number = game["game"].as_u64().unwrap();
        let output = replay(&dir.join(format!("game-{number}.txt")));
        assert_eq!(output.lines().count() as u64, game["plies"].as_u64().unwrap());
        assert!(!output.contains("Invalid command"));
    }
}

#[test]
fn a_depth_ladder_of_arbiter_engines() {
    let mut args = words("duck match --engine");
    args.push(arbiter_engine(""));
    args.extend(words("--name depth-2 --engine-depth 2 --engine"));
    args.push(arbiter_engine(""));
    args.extend(words("--name depth-1 --engine-depth 1 --games 2 --random-openings 4 --json"));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["engines"], serde_json::json!(["depth-2", "depth-1"]));
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["faults"]["depth-1"], serde_json::json!({}), "{stdout}");
    assert_eq!(summary["faults"]["depth-2"], serde_json::json!({}), "{stdout}");
}

#[test]
fn arbiter_beats_its_random_mover() {
    let mut args = words("duck match --engine");
    args.push(arbiter_engine(""));
    args.push("--engine".into());
    args.push(arbiter_engine("--random --seed 7"));
    args.extend(words("--games 4 --depth 2 --random-openings 4 --json"));
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["wins"], 4, "{stdout}");
    assert_eq!(summary["endings"]["captain-captured"], 4, "{stdout}");
}

#[test]
fn the_endings_report_reads_a_saved_match() {
    // Two games cut by a ply cap of 6: the car has taken a guard, its captain not yet.
    let dir = scratch_dir("duck_match_endings");
    let mut args = words("duck match --games 2 --depth 1 --max-plies 6 --engine");
    args.push(fake(&format!("{WINS} score=600")));
    args.extend(words("--name hunter --engine"));
    args.push(fake(&format!("{SHUFFLES} score=-250")));
    args.extend(words("--name shuffler --save"));
    args.push(dir.display().to_string());
    let out = arbiter_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));

    let script = root().join("bench/duck_endings.py");
    let report = |extra: &[&str]| {
        Command::new(python())
            .arg(&script)
            .arg(&dir)
            .args(["--arbiter", env!("CARGO_BIN_EXE_arbiter")])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = report(&["--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(out.stderr));
    let stdout = text(out.stdout);
    let lines: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "endings: ply-cap 2",
            "once an engine's own score reached +N soldiers, its results (wins / draws / losses):",
            "  hunter: +2: 0 / 2 / 0; +3: 0 / 2 / 0; +5: 0 / 2 / 0",
            "  shuffler: +2: 0 / 0 / 0; +3: 0 / 0 / 0; +5: 0 / 0 / 0",
            "ply-cap draws: 2",
            "  game 1 (hunter red): last scores hunter +6.00, shuffler -2.50; red lost none; \
             blue lost guard",
            "  game 2 (shuffler red): last scores shuffler -2.50, hunter +6.00; red lost guard; \
             blue lost none",
            "  with hunter's last score +3 or more: 2",
            "  with shuffler's last score +3 or more: 0",
        ],
        "{stdout}"
    );

    // Not a save directory: a message and exit status 2.
    let empty = scratch_dir("duck_match_endings_empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(python()).arg(&script).arg(&empty).output().unwrap();
    let stderr = text(out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("results.jsonl: not found"), "{stderr}");
}
