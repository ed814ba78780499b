//! `arbiter chess` end to end: the official answer byte for byte, and the tools around it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const SAMPLE_IN: &str = "../chess-record/tests/fixtures/sample/1.in";
const SAMPLE_ANS: &[u8] = include_bytes!("../../chess-record/tests/fixtures/sample/1.ans");

fn arbiter(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin takes the input");
    }
    child.wait_with_output().expect("arbiter ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn sample_byte_for_byte_from_file_and_stdin() {
    let from_file = arbiter(&["chess", SAMPLE_IN], "");
    assert_eq!(from_file.stdout, SAMPLE_ANS);
    assert_eq!(from_file.status.code(), Some(0));
    assert!(from_file.stderr.is_empty());
    let sample =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE_IN))
            .expect("sample");
    let from_stdin = arbiter(&["chess"], &sample);
    assert_eq!(from_stdin.stdout, SAMPLE_ANS);
}

#[test]
fn no_is_exactly_no_with_status_zero() {
    let output = arbiter(&["chess"], "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n");
    assert_eq!(output.stdout, b"No\n");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
}

#[test]
fn explain_goes_to_stderr_only() {
    let sample =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE_IN))
            .expect("sample");
    let output = arbiter(&["chess", "--explain"], &sample.replace("Qcxc8+", "Qxc8+"));
    assert_eq!(output.stdout, b"No\n");
    assert_eq!(
        text(&output.stderr),
        "<stdin>:1:158: 14. white Qxc8+ (ply 27): two queens can capture on c8; \
         write Qcxc8+ or Qexc8+\n"
    );
    let yes = arbiter(&["chess", "--explain"], &sample);
    assert_eq!(yes.stdout, b"Yes\n");
    assert!(yes.stderr.is_empty());
}

#[test]
fn explain_gives_line_and_column() {
    let output =
        arbiter(&["chess", "--explain"], "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6 4. O-O Nf6 5. 0-0");
    assert_eq!(output.stdout, b"No\n");
    let stderr = text(&output.stderr);
    assert!(stderr.starts_with("<stdin>:3:"), "{stderr}");
    assert!(stderr.contains("5. white 0-0 (ply 9)"), "{stderr}");
}

#[test]
fn each_line_answers_in_order() {
    let output = arbiter(&["chess", "--each-line"], "1. e4\n1. e4+\n\n1. d4 d5 2. c4\n");
    assert_eq!(text(&output.stdout), "Yes\nNo\nYes\nYes\n");
    let explained = arbiter(&["chess", "--each-line", "--explain"], "1. e4\n1. e4+\n");
    assert_eq!(text(&explained.stdout), "Yes\nNo\n");
    assert_eq!(
        text(&explained.stderr),
        "<stdin>:2:4: 1. white e4+ (ply 1): the move gives no check, so no +; write e4\n"
    );
}

#[test]
fn unreadable_file_is_status_two() {
    let output = arbiter(&["chess", "no/such/file"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(text(&output.stderr).starts_with("no/such/file:1:1: expected a readable file"));
}

const PGN: &str = r#"[Event "Test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 {king pawn} e5 2. Qh5 $2 (2. Nf3 Nc6 (2... d6) 3. Bb5) 2... Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0

[White "Carol"]
[Black "Dan"]

1. e4 e5 2. Ng1f3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3+ *

[White "Gina"]
[Black "Hal"]

1. f3 e5 2. g4 Qh4+ 0-1

[White "Ivan"]
[Black "Judy"]

1. e4 e5 2. Ke3 *

[White "Kim"]
[Black "Leo"]

1. d4 { an unterminated comment
"#;

#[test]
fn pgn_strict_reports_each_game() {
    let output = arbiter(&["chess", "pgn", "-"], PGN);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:game 1 (Alice - Bob): ok\n\
         <stdin>:game 2 (Carol - Dan): 2. white Ng1f3 (ply 3): only one such piece can make this \
         move, so no file or rank is named; write Nf3\n\
         <stdin>:game 3 (Gina - Hal): 2. black Qh4+ (ply 4): the move mates, so standard SAN ends \
         it with #; write Qh4#\n\
         <stdin>:game 4 (Ivan - Judy): 2. white Ke3 (ply 3): illegal move: no king can go to e3\n\
         <stdin>:game 5 (? - ?): PGN syntax: unterminated comment\n\
         5 games: 1 ok, 4 with errors, 0 warnings\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn pgn_lenient_warns_with_the_canonical_spelling() {
    let output = arbiter(&["chess", "pgn", "--lenient", "-"], PGN);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("game 2 (Carol - Dan): warning: 2. white Ng1f3 (ply 3)"), "{stdout}");
    assert!(stdout.contains("game 2 (Carol - Dan): ok"), "{stdout}");
    assert!(stdout.ends_with("5 games: 3 ok, 2 with errors, 3 warnings\n"), "{stdout}");
}

#[test]
fn pgn_json_is_one_object_per_game() {
    let output = arbiter(&["chess", "pgn", "--json", "-"], PGN);
    let lines: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["plies"], 7);
    assert_eq!(lines[1]["line"], 8);
    assert_eq!(lines[1]["error"]["canonical"], "Nf3");
    assert_eq!(lines[1]["error"]["ply"], 3);
    assert_eq!(lines[3]["error"]["side"], "white");
    assert!(text(&output.stderr).contains("5 games: 1 ok"));
}

#[test]
fn fix_rewrites_a_record() {
    let record = "1. e4 d5 2. ed5 Qxd5 3. Ng1f3 Qe4 4. Be2 Qxe2#";
    let standard = arbiter(&["chess", "fix"], record);
    assert_eq!(text(&standard.stdout), "1. e4 d5 2. exd5 Qxd5 3. Nf3 Qe4+ 4. Be2 Qxe2+\n");
    let promotion = "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q";
    let contest = arbiter(&["chess", "fix", "--dialect", "contest"], promotion);
    assert_eq!(text(&contest.stdout), "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8Q\n");
    let fixed = arbiter(&["chess"], &text(&contest.stdout));
    assert_eq!(fixed.stdout, b"Yes\n");
}

#[test]
fn fix_refuses_an_illegal_record() {
    let output = arbiter(&["chess", "fix"], "1. e4 e5 2. Ke3");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("2. white Ke3 (ply 3): illegal move"));
}

#[test]
fn fix_keeps_tags_comments_and_variations() {
    let pgn = "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 {king pawn} e5 2. Qh5 $2 \
               (2. Ng1f3 Nc6 (2... d6) 3. Bb5) 2... Nc6 3. Bc4 Nf6?? 4. Qxf7+ 1-0\n";
    let output = arbiter(&["chess", "fix"], pgn);
    assert_eq!(
        text(&output.stdout),
        "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 {king pawn} 1... e5 2. Qh5 $2 (2. Nf3 Nc6 \
         (2... d6) 3. Bb5) 2... Nc6\n3. Bc4 Nf6 $4 4. Qxf7# 1-0\n\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn pgn_tokens_the_reader_would_skip_are_syntax_errors() {
    // pgn-reader skips `Qh4++` and `e.p.`; without the scan both games would pass.
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4++ 0-1\n\n\
               [White \"C\"]\n[Black \"D\"]\n\n1. e4 a6 2. e5 d5 3. exd6 e.p. *\n\n\
               [White \"E\"]\n[Black \"F\"]\n\n1. e4 e5 *\n";
    let output = arbiter(&["chess", "pgn", "--lenient", "-"], pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:game 1 (A - B): PGN syntax: line 4: `Qh4++` is not a move in SAN\n\
         <stdin>:game 2 (C - D): PGN syntax: line 9: `e.p.` is not a move in SAN\n\
         <stdin>:game 3 (E - F): ok\n\
         3 games: 1 ok, 2 with errors, 0 warnings\n"
    );
    let fixed = arbiter(&["chess", "fix"], pgn);
    assert!(text(&fixed.stdout).contains("1. f3 e5 2. g4 Qh4++ 0-1\n"));
    assert!(
        text(&fixed.stderr).contains("game 1: PGN syntax: line 4: `Qh4++` is not a move in SAN")
    );
    assert_eq!(fixed.status.code(), Some(1));
}
