//! End-to-end tests of `arbiter duck`: the official data through the binary, and every kind of
//! malformed input of docs/rules.md#the-command-line.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../duck/tests/fixtures")
}

fn arbiter_bytes(args: &[&str], stdin: &[u8]) -> Output {
    common::run(args, stdin)
}

fn arbiter(args: &[&str], stdin: &str) -> Output {
    arbiter_bytes(args, stdin.as_bytes())
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// Runs `arbiter duck` on `stdin`: (stdout, stderr, exit status).
fn duck(stdin: &str) -> (String, String, i32) {
    let out = arbiter(&["duck"], stdin);
    (text(out.stdout), text(out.stderr), out.status.code().unwrap())
}

#[test]
fn official_data_through_the_binary() {
    for case in ["sample/1", "official/1", "official/2", "official/3", "official/4"] {
        let input = fixtures().join(format!("{case}.in"));
        let out = arbiter(&["duck", input.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(0), "{case}");
        assert!(out.stderr.is_empty(), "{case}");
        let expected = std::fs::read(fixtures().join(format!("{case}.ans"))).unwrap();
        assert!(out.stdout == expected, "{case}");
    }
}

#[test]
fn standard_input_by_dash() {
    let input = std::fs::read_to_string(fixtures().join("sample/1.in")).unwrap();
    let out = arbiter(&["duck", "-"], &input);
    assert!(out.stdout == std::fs::read(fixtures().join("sample/1.ans")).unwrap());
}

#[test]
fn any_whitespace_separates_numbers() {
    let (out, err, code) = duck("2\r\n\n0\t3 1\r\n4\n\n\n9 4\x0c8 4");
    assert_eq!(out, "red guard;NA;no;no\nblue captain;NA;no;no\n");
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn off_board_integers_are_invalid_commands() {
    let (out, err, code) =
        duck("5\n-1 0 0 0\n0 0 10 0\n0 9 0 8\n0 0 0 -1\n99999999999999999999999 0 1 0\n");
    assert_eq!(out, "Invalid command\n".repeat(5));
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn a_token_that_is_not_an_integer() {
    let (out, err, code) = duck("3\n0 3 1 4\n9 4 8 x\n0 0 1 0\n");
    assert_eq!(out, "red guard;NA;no;no\n");
    assert_eq!(
        err,
        "<stdin>:3:7: expected the destination column y2 of command 2 (an integer), found `x`\n"
    );
    assert_eq!(code, 2);
}

#[test]
fn a_number_missing_at_the_end() {
    let (out, err, code) = duck("2\n0 3 1 4\n9 4 8");
    assert_eq!(out, "red guard;NA;no;no\n");
    assert_eq!(
        err,
        "<stdin>:3:6: expected the destination column y2 of command 2 (an integer), found end of input\n"
    );
    assert_eq!(code, 2);
}

#[test]
fn fewer_commands_than_announced() {
    let (out, err, code) = duck("3\n0 3 1 4\n9 4 8 4\n");
    assert_eq!(out, "red guard;NA;no;no\nblue captain;NA;no;no\n");
    assert_eq!(
        err,
        "<stdin>:4:1: expected the source row x1 of command 3 (an integer), found end of input\n"
    );
    assert_eq!(code, 2);
}

#[test]
fn the_count_must_be_a_non_negative_integer() {
    for (input, found) in
        [("", "end of input"), ("-1\n", "`-1`"), ("two\n0 0 0 0", "`two`"), ("1.5", "`1.5`")]
    {
        let (out, err, code) = duck(input);
        assert_eq!(out, "");
        assert_eq!(
            err,
            format!(
                "<stdin>:1:1: expected the number of commands Q (a non-negative integer), found {found}\n"
            )
        );
        assert_eq!(code, 2);
    }
}

#[test]
fn numbers_are_read_as_scanf_reads_decimal_integers() {
    // A sign is part of the number; exponents and digits of other scripts are not numbers.
    let (out, err, code) = duck("+2\n+0 3 1 +4\n9 4 8 4\n");
    assert_eq!(out, "red guard;NA;no;no\nblue captain;NA;no;no\n");
    assert_eq!((err.as_str(), code), ("", 0));
    // A byte-order mark is invisible, so the message shows it escaped.
    let tokens = [("1e5", "1e5"), ("٣", "٣"), ("0x1", "0x1"), ("\u{feff}1", "\\u{feff}1")];
    for (token, shown) in tokens {
        let (out, err, code) = duck(&format!("1\n0 3 {token} 4\n"));
        assert_eq!(out, "");
        assert_eq!(
            err,
            format!(
                "<stdin>:2:5: expected the destination row x2 of command 1 (an integer), found `{shown}`\n"
            )
        );
        assert_eq!(code, 2);
    }
}

#[test]
fn a_huge_count_is_read_as_a_stream() {
    for count in ["1000000000000000000", "99999999999999999999999999999"] {
        let (out, err, code) = duck(&format!("{count}\n0 3 1 4\n"));
        assert_eq!(out, "red guard;NA;no;no\n");
        assert_eq!(
            err,
            "<stdin>:3:1: expected the source row x1 of command 2 (an integer), found end of input\n"
        );
        assert_eq!(code, 2);
    }
}

#[test]
fn extra_input_after_the_last_command_is_ignored_with_a_warning() {
    let (out, err, code) = duck("1\n0 3 1 4\n9 4 8 4\nanything\n");
    assert_eq!(out, "red guard;NA;no;no\n");
    assert_eq!(err, "<stdin>:3:1: warning: ignoring input after the last of 1 command\n");
    assert_eq!(code, 0);
    let (_, err, code) = duck("2\n0 3 1 4\n9 4 8 4\n\n  7");
    assert_eq!(err, "<stdin>:5:3: warning: ignoring input after the last of 2 commands\n");
    assert_eq!(code, 0);
}

#[test]
fn an_unreadable_file() {
    let out = arbiter(&["duck", "/nonexistent/duck.in"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(out.stderr),
        "/nonexistent/duck.in:1:1: expected a readable file, found no such file\n"
    );
    let dir = std::env::temp_dir();
    let out = arbiter(&["duck", dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(out.stderr),
        format!("{}:1:1: expected a readable file, found a directory\n", dir.display())
    );
}

#[test]
fn bytes_that_are_not_utf8_are_a_bad_token() {
    let out = arbiter_bytes(&["duck"], b"1\n0 \xff 1 4\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(out.stderr);
    let expected = "<stdin>:2:3: expected the source column y1 of command 1 (an integer), found `";
    assert!(err.starts_with(expected), "{err}");
}

/// `arbiter duck explain` on `stdin`: stdout (the official output) and stderr (the reasons).
fn explain(stdin: &str) -> (String, String) {
    let out = arbiter(&["duck", "explain"], stdin);
    assert_eq!(out.status.code(), Some(0));
    (text(out.stdout), text(out.stderr))
}

#[test]
fn explain_gives_the_reason_for_each_invalid_command() {
    let input = "6\n0 0 1 1\n0 1 2 2\n3 4 4 4\n0 0 0 1\n9 9 1 1\n  4 4 5 4\n";
    let (stdout, stderr) = explain(input);
    // The official output stays untouched on stdout ...
    let official = arbiter(&["duck"], input);
    assert_eq!(stdout, text(official.stdout));
    // ... and each reason is on stderr, at the place of its command's first token.
    assert_eq!(
        stderr,
        "<stdin>:2:1: command 1: a car cannot move from (0,0) to (1,1)\n\
         <stdin>:4:1: command 3: (3,4) holds red soldier, but it is blue's turn\n\
         <stdin>:5:1: command 4: (0,0) holds red car, but it is blue's turn\n\
         <stdin>:6:1: command 5: (9,9) is off the board\n\
         <stdin>:7:3: command 6: (4,4) is empty\n"
    );
}

#[test]
fn explain_names_blockers_own_pieces_and_the_end_of_the_game() {
    // The red car on (0,0) cannot pass its own duck on (2,0) ...
    let (_, stderr) = explain("2\n0 0 4 0\n0 0 0 1\n");
    assert_eq!(
        stderr,
        "<stdin>:2:1: command 1: car path (2,0) is occupied by red duck\n\
         <stdin>:3:1: command 2: (0,1) holds your own piece (red horse)\n"
    );
    // ... and its horse on (0,1) is lame towards (1,3): the elephant stands on its leg.
    let (_, stderr) = explain("1 0 1 1 3\n");
    assert_eq!(stderr, "<stdin>:1:3: command 1: horse leg (0,2) is occupied by red elephant\n");

    let game = std::fs::read_to_string(fixtures().join("sample/1.in")).unwrap();
    let (stdout, stderr) = explain(&game);
    assert!(stdout.ends_with("red duck;blue captain;no;yes\nInvalid command\n"), "{stdout}");
    let last = stderr.lines().last().unwrap();
    assert!(last.ends_with("the game is over (red has captured the captain)"), "{last}");
}

#[test]
fn explain_names_each_blocking_square_and_broken_pattern() {
    let input = "11\n\
        2 0 4 3\n2 0 5 2\n3 0 5 0\n3 0 -1 0\n\
        0 0 99999999999999999999 0\n-99999999999999999999 0 0 0\n\
        3 2 2 3\n9 4 8 4\n2 3 1 3\n8 4 9 4\n0 2 2 4\n";
    let (stdout, stderr) = explain(input);
    assert_eq!(
        stdout,
        "Invalid command\nInvalid command\nInvalid command\nInvalid command\n\
         Invalid command\nInvalid command\n\
         red soldier;NA;no;no\nblue captain;NA;no;no\n\
         red soldier;NA;no;no\nblue captain;NA;no;no\nInvalid command\n"
    );
    assert_eq!(
        stderr,
        // The duck on (2,0) leaps (2,3) through (2,1) and then (3,2), where a soldier stands; its
        // leap (3,2) is stopped at once by the soldier on (3,0).
        "<stdin>:2:1: command 1: duck leg (3,2) is occupied by red soldier\n\
         <stdin>:3:1: command 2: duck leg (3,0) is occupied by red soldier\n\
         <stdin>:4:1: command 3: a soldier cannot move from (3,0) to (5,0)\n\
         <stdin>:5:1: command 4: (-1,0) is off the board\n\
         <stdin>:6:1: command 5: (huge,0) is off the board\n\
         <stdin>:7:1: command 6: (-huge,0) is off the board\n\
         <stdin>:12:1: command 11: elephant eye (1,3) is occupied by red soldier\n"
    );
}

#[test]
fn explain_board_draws_the_position_after_valid_moves_on_stderr() {
    let out = arbiter(&["duck", "explain", "--board", "--color", "never"], "1\n0 3 1 4\n");
    assert_eq!(text(out.stdout), "red guard;NA;no;no\n");
    let expected = "<stdin>:2:1: command 1: the board after the move\n\
        9 車馬象士將士象馬車\n\
        8 ・・・・・・・・・\n\
        7 鴨・・・・・・・鴨\n\
        6 卒・卒・卒・卒・卒\n\
        5 ・・・・・・・・・\n\
        4 ・・・・・・・・・\n\
        3 兵・兵・兵・兵・兵\n\
        2 鸭・・・・・・・鸭\n\
        1 ・・・・仕・・・・\n\
        0 俥傌相・帥仕相傌俥\n  ０１２３４５６７８\n";
    assert_eq!(text(out.stderr), expected);
    let colored = arbiter(&["duck", "explain", "--board", "--color", "always"], "1\n0 3 1 4\n");
    assert!(text(colored.stderr).contains("\x1b[1;31m帥\x1b[0m"));
}

#[test]
fn explanations_follow_their_lines_when_both_streams_share_a_file() {
    // `2>&1`: stdout and stderr are one file, and each reason stands after its command's line.
    let path = std::env::temp_dir().join(format!("arbiter-shared-{}", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["duck", "explain"])
        .stdin(std::fs::File::open(fixtures().join("sample/1.in")).unwrap())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert!(status.success());
    let both = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let lines: Vec<&str> = both.lines().collect();
    let official = std::fs::read_to_string(fixtures().join("sample/1.ans")).unwrap();
    let mut official = official.lines();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("<stdin>:") {
            assert_eq!(lines[i - 1], "Invalid command", "{both}");
        } else {
            assert_eq!(Some(*line), official.next(), "{both}");
        }
    }
    assert_eq!(official.next(), None);
}

#[test]
fn every_command_has_help() {
    for args in [&["--help"][..], &["duck", "--help"], &["duck", "explain", "--help"]] {
        let out = arbiter(args, "");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(text(out.stdout).contains("Usage: arbiter"), "{args:?}");
    }
}

#[test]
fn unknown_arguments_are_usage_errors() {
    let out = arbiter(&["duck", "--no-such-flag"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(out.stderr).contains("--no-such-flag"));
}

#[test]
fn perft_counts_match_the_published_numbers() {
    let out = arbiter(&["duck", "perft", "3"], "");
    assert_eq!(text(out.stdout), "80066\n");
    assert_eq!(out.status.code(), Some(0));
    let out = arbiter(&["duck", "perft", "2", "--divide"], "");
    let stdout = text(out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 44);
    assert_eq!(lines.last(), Some(&"1849"));
    // The first moves in the official command form: the car on (0,0) first.
    assert_eq!(lines[0], "0 0 1 0: 43");
    let sum: u64 =
        lines[..43].iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 1849);
    assert_eq!(arbiter(&["duck", "perft", "99"], "").status.code(), Some(2));
    assert_eq!(text(arbiter(&["duck", "perft", "0", "--divide"], "").stdout), "1\n");
}

#[test]
fn perft_divide_in_square_notation() {
    let out = arbiter(&["duck", "perft", "2", "--divide", "--uci"], "");
    let stdout = text(out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 44);
    assert_eq!(lines[0], "a1a2: 43");
    assert!(lines.contains(&"d1e2: 43"), "{stdout}");
    assert_eq!(lines.last(), Some(&"1849"));
    // `--uci` only changes the lines of `--divide`.
    assert_eq!(arbiter(&["duck", "perft", "2", "--uci"], "").status.code(), Some(2));
}

#[test]
fn perft_from_a_fen() {
    // The two captains alone: three moves each (fairy-stockfish agrees: e1d1, e1f1, e1e2).
    let fen = "4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1";
    let out = arbiter(&["duck", "perft", "2", "--fen", fen, "--divide", "--uci"], "");
    assert_eq!(text(out.stdout), "e1d1: 3\ne1f1: 3\ne1e2: 3\n9\n");
    assert_eq!(out.status.code(), Some(0));
    // The starting position's FEN counts like the start.
    let start = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1";
    assert_eq!(text(arbiter(&["duck", "perft", "3", "--fen", start], "").stdout), "80066\n");
    // A finished game: blue has lost its captain and has no move.
    let over = arbiter(&["duck", "perft", "3", "--fen", "9/9/9/9/9/9/9/9/9/4C3r b"], "");
    assert_eq!((text(over.stdout).as_str(), over.status.code()), ("0\n", Some(0)));
}

#[test]
fn perft_names_what_is_wrong_with_a_fen() {
    let cases = [
        (
            "4c4/9/9/9/9/9/9/9/9/4C4 x",
            "--fen:1:25: expected the side to move, `w` (red) or `b` (blue), found `x`",
        ),
        ("4c4/9/9", "--fen:1:8: expected `/` and rank 7 (a FEN has 10 ranks), found end of input"),
        (
            "4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1 e1e2",
            "--fen:1:35: expected the end of the FEN, found `e1e2`",
        ),
        (
            "4c4/9/9/9/9/9/9/9/9/4C4 w - - x",
            "--fen:1:31: expected the halfmove clock (a number of plies), found `x`",
        ),
        ("", "--fen:1:1: expected the board (10 ranks separated by `/`), found end of input"),
        (
            "4c4/9/9/9/9/9/9/9/9/9 b - - 0 1 ",
            "--fen:1:1: expected a position of the game, found no red captain, though red has just moved; only the side to move can have lost its captain",
        ),
        (
            "4c4/9/9/9/9/9/9/9/9/RRRC5",
            "--fen:1:1: expected a position of the game, found 3 red cars, more than the 2 a side starts with",
        ),
    ];
    for (fen, message) in cases {
        let out = arbiter(&["duck", "perft", "2", "--fen", fen], "");
        assert_eq!(out.status.code(), Some(2), "{fen}");
        assert!(out.stdout.is_empty(), "{fen}");
        assert_eq!(text(out.stderr), format!("{message}\n"), "{fen}");
    }
}

/// Runs `arbiter ARGS` with stderr on a pseudo-terminal (util-linux `script`); returns what the
/// terminal showed.
fn on_a_terminal(args: &str) -> String {
    let command = format!("'{}' {args}", env!("CARGO_BIN_EXE_arbiter"));
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    text(out.stdout)
}

#[test]
fn long_perft_runs_show_progress_on_a_terminal() {
    // Depth 7 with the two captains and a car: quick, but long enough by depth for a bar.
    let fen = "'4c4/9/9/9/9/9/9/9/9/R3C4 w'";
    let shown = on_a_terminal(&format!("duck perft 7 --fen {fen}"));
    assert!(shown.contains("first moves"), "{shown:?}");
    let shown = on_a_terminal(&format!("duck perft 6 --fen {fen}"));
    assert!(!shown.contains("first moves"), "{shown:?}");
    // Not on a pipe.
    let out = arbiter(&["duck", "perft", "7", "--fen", "4c4/9/9/9/9/9/9/9/9/R3C4 w"], "");
    assert!(!text(out.stderr).contains("first moves"));
}

#[test]
fn files_are_read_like_standard_input() {
    // Regular files are mapped into memory; the answers and the error positions must not change.
    let dir = std::env::temp_dir().join(format!("arbiter-duck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &[u8]); 3] =
        [("good.in", b"1\n0 3 1 4\n"), ("bad.in", b"1\n0 \xff 1 4\n"), ("empty.in", b"")];
    for (name, bytes) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let from_file = arbiter(&["duck", path.to_str().unwrap()], "");
        let from_stdin = arbiter_bytes(&["duck"], bytes);
        assert_eq!(from_file.stdout, from_stdin.stdout, "{name}");
        assert_eq!(from_file.status.code(), from_stdin.status.code(), "{name}");
        let (file_err, stdin_err) = (text(from_file.stderr), text(from_stdin.stderr));
        let path_name = path.display().to_string();
        assert_eq!(file_err.replace(&path_name, "<stdin>"), stdin_err, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `arbiter duck explain --board` on a pseudo-terminal (util-linux `script`), so that
/// standard error is a terminal (standard output is not), with `NO_COLOR` set to `no_color` if
/// given.
fn explain_on_a_terminal(no_color: Option<&str>) -> String {
    let command = format!(
        "printf '1\\n0 3 1 4\\n' | '{}' duck explain --board >/dev/null",
        env!("CARGO_BIN_EXE_arbiter")
    );
    let mut script = Command::new("script");
    script.args(["-qec", &command, "/dev/null"]).env_remove("NO_COLOR");
    if let Some(value) = no_color {
        script.env("NO_COLOR", value);
    }
    let out = script.stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    text(out.stdout)
}

#[test]
fn the_board_is_coloured_on_a_terminal_unless_no_color_is_set() {
    assert!(explain_on_a_terminal(None).contains("\x1b[1;31m帥\x1b[0m"));
    assert!(explain_on_a_terminal(Some("")).contains("\x1b[1;31m帥\x1b[0m"));
    let plain = explain_on_a_terminal(Some("1"));
    assert!(plain.contains("帥") && !plain.contains('\x1b'), "{plain:?}");
}

/// `count` commands, all invalid (nothing stands at 4 1), so that the output is long.
fn invalid_commands(count: usize) -> Vec<u8> {
    let mut input = format!("{count}\n").into_bytes();
    for _ in 0..count {
        input.extend_from_slice(b"4 1 5 1\n");
    }
    input
}

#[test]
fn a_full_disk_is_an_error_naming_it() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("duck")
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = invalid_commands(100_000);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(text(output.stderr).contains("No space left on device"));
}

#[test]
fn a_reader_that_stops_early_ends_the_judge_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("duck")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = invalid_commands(1_000_000);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    // Read one line, then close the pipe: the judge's next write finds no reader.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"Invalid command\n");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(output.stderr), "");
}

#[test]
fn long_output_is_the_same_in_a_file_as_in_a_pipe() {
    let dir = std::env::temp_dir().join(format!("arbiter-duck-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    // A long game of random valid moves, from the generator.
    let generated =
        arbiter(&["duck", "gen", "--profile", "long", "--size", "100000", "--seed", "3"], "");
    assert!(generated.status.success());
    std::fs::write(&input, &generated.stdout).unwrap();
    let file = dir.join("out.txt");
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("duck")
        .arg(&input)
        .stdout(std::fs::File::create(&file).unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    let piped = arbiter_bytes(&["duck", input.to_str().unwrap()], b"");
    assert!(piped.status.success());
    let written = std::fs::read(&file).unwrap();
    assert!(written.len() > 1_000_000);
    assert!(written == piped.stdout, "the file differs from the pipe's output");
    std::fs::remove_dir_all(&dir).unwrap();
}
