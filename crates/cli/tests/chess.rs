//! `arbiter chess` end to end: the official answer byte for byte, and the tools around it.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

const SAMPLE_IN: &str = "../chess-record/tests/fixtures/sample/1.in";
const SAMPLE_ANS: &[u8] = include_bytes!("../../chess-record/tests/fixtures/sample/1.ans");

fn arbiter(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
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
fn columns_count_characters_not_bytes() {
    // `é` is one character of two bytes; Ke3 is the 14th character.
    let output = arbiter(&["chess", "--explain"], "é 1. e4 e5 2. Ke3");
    assert!(text(&output.stderr).starts_with("<stdin>:1:1: 1. white é"), "{output:?}");
    let output = arbiter(&["chess", "--explain"], "1. e4 e5\n{é} 2. Ke3");
    assert!(text(&output.stderr).starts_with("<stdin>:2:1: 2. white {é}"), "{output:?}");
    let output = arbiter(&["chess", "--explain", "--each-line"], "1. e4 e5 2.  é");
    assert!(text(&output.stderr).starts_with("<stdin>:1:14: 2. white é"), "{output:?}");
    // A byte order mark is skipped, as everywhere: columns count from the character after it.
    let output = arbiter(&["chess", "--explain"], "\u{feff}1. e4 e5 2. Ke3");
    assert!(text(&output.stderr).starts_with("<stdin>:1:13: 2. white Ke3"), "{output:?}");
    // In PGN, `é` is one character of two bytes; Ke3 is the 20th character of its line.
    let output = arbiter(&["chess", "pgn", "-"], &pgn_game("A", "1. e4 {café} e5 2. Ke3 *"));
    assert!(text(&output.stdout).starts_with("<stdin>:4:20: game 1"), "{output:?}");
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

1. e4 {king pawn} e5 2. Qh5 $2 (2. Nf3 Nc6 (2... d6) 3. Bb5) 2... Nc6 3. Bc4 Nf6 $4 4. Qxf7# 1-0

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
        "<stdin>:1:1: game 1 (Alice - Bob): ok\n\
         <stdin>:11:13: game 2 (Carol - Dan): 2. white Ng1f3 (ply 3): only one such piece can make \
         this move, so no file or rank is named; write Nf3\n\
         <stdin>:16:16: game 3 (Gina - Hal): 2. black Qh4+ (ply 4): the move mates, so standard \
         SAN ends it with #; write Qh4#\n\
         <stdin>:21:13: game 4 (Ivan - Judy): 2. white Ke3 (ply 3): illegal move: no king can go \
         to e3\n\
         <stdin>:26:7: game 5 (Kim - Leo): PGN syntax: expected `}` closing the comment opened \
         here, found the end of the game\n\
         <stdin>: 5 games: 1 ok, 4 with errors, 0 warnings\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn pgn_lenient_warns_with_the_canonical_spelling() {
    let output = arbiter(&["chess", "pgn", "--lenient", "-"], PGN);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("<stdin>:11:13: warning: game 2 (Carol - Dan): 2. white Ng1f3 (ply 3)"),
        "{stdout}"
    );
    assert!(stdout.contains("<stdin>:8:1: game 2 (Carol - Dan): ok"), "{stdout}");
    assert!(stdout.ends_with("<stdin>: 5 games: 3 ok, 2 with errors, 3 warnings\n"), "{stdout}");
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
    assert_eq!(
        (lines[1]["error"]["line"].clone(), lines[1]["error"]["column"].clone()),
        (11.into(), 13.into())
    );
    assert_eq!(lines[4]["error"]["line"], 26);
    assert_eq!(lines[4]["white"], "Kim");
    assert_eq!(lines[3]["error"]["side"], "white");
    assert!(text(&output.stderr).contains("<stdin>: 5 games: 1 ok"));
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
    // Status 1, like a PGN game that cannot be fixed: the input was read, one move was wrong.
    let output = arbiter(&["chess", "fix"], "1. e4 e5 2. Ke3");
    assert_eq!(output.status.code(), Some(1));
    // Nothing is lost: the record comes out as it was written.
    assert_eq!(text(&output.stdout), "1. e4 e5 2. Ke3");
    assert!(text(&output.stderr).contains("2. white Ke3 (ply 3): illegal move"));
}

#[test]
fn fix_passes_on_a_record_it_cannot_rewrite_byte_for_byte() {
    let output = arbiter(&["chess", "fix"], "1. e4 Ke3\n");
    assert_eq!(text(&output.stdout), "1. e4 Ke3\n");
    assert_eq!(
        text(&output.stderr),
        "<stdin>:1:7: 1. black Ke3 (ply 2): illegal move: no king can go to e3; record kept as \
         written\n"
    );
    assert_eq!(output.status.code(), Some(1));
    // Four records on four lines are one record to `fix`, as to `chess`: its fifth move is
    // illegal, so the file comes back whole.
    let file = std::fs::read("../../examples/records.txt").expect("the example");
    let output = arbiter(&["chess", "fix", "../../examples/records.txt"], "");
    assert_eq!(output.stdout, file);
    assert_eq!(
        text(&output.stderr),
        "../../examples/records.txt:2:4: 6. white e4 (ply 11): illegal move: no pawn can go to \
         e4; record kept as written\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn fix_passes_on_a_record_over_the_size_limit() {
    let record = format!("1. e4 e5 2. Ng1f3 {}\n", "x".repeat(1_200_000));
    let output = arbiter(&["chess", "fix", "--max-game-mib", "1"], &record);
    assert!(output.stdout == record.as_bytes(), "{} bytes out", output.stdout.len());
    assert_eq!(
        text(&output.stderr),
        "<stdin>:1:1: the record is larger than 1 MiB, the most a record may hold; kept as \
         written\n"
    );
    assert_eq!(output.status.code(), Some(1));
    let json = arbiter(&["chess", "fix", "--json", "--max-game-mib", "1"], &record);
    let object: serde_json::Value = serde_json::from_slice(&json.stdout).expect("one object");
    assert_eq!(object["fixed"], serde_json::Value::Null);
    assert_eq!(object["problems"][0]["kind"], "too_large");
    assert_eq!(json.status.code(), Some(1));
}

#[test]
fn fix_glues_no_glyph_to_a_move_when_it_drops_an_en_passant_mark() {
    let output = arbiter(&["chess", "fix"], "1. e4 a6 2. e5 d5 3. exd6 e.p.!? cxd6 *\n");
    assert_eq!(text(&output.stdout), "1. e4 a6 2. e5 d5 3. exd6 !? cxd6 *\n");
    assert_eq!(output.status.code(), Some(0));
    // What `fix` wrote, strict `chess pgn` accepts.
    let strict = arbiter(&["chess", "pgn", "-"], &text(&output.stdout));
    assert_eq!(strict.status.code(), Some(0), "{}", text(&strict.stdout));
}

#[test]
fn fix_keeps_tags_comments_and_variations() {
    let pgn = "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 {king pawn} e5 2. Qh5 $2 \
               (2. Ng1f3 Nc6 (2... d6) 3. Bb5) 2... Nc6 3. Bc4 Nf6?? 4. Qxf7+ 1-0\n";
    let output = arbiter(&["chess", "fix"], pgn);
    // Only the moves change: every other byte stays where it was.
    assert_eq!(
        text(&output.stdout),
        "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 {king pawn} e5 2. Qh5 $2 \
         (2. Nf3 Nc6 (2... d6) 3. Bb5) 2... Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

/// A game with the moves given after a fixed start, wrapped as PGN with tags.
fn pgn_game(white: &str, movetext: &str) -> String {
    format!("[White \"{white}\"]\n[Black \"?\"]\n\n{movetext}\n\n")
}

const PROMOTE: &str = "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5.";
const EN_PASSANT: &str = "1. e4 a6 2. e5 d5 3.";

#[test]
fn pgn_strict_compares_each_token_as_written() {
    // Each token denotes one legal move, but is not its canonical standard SAN.
    let pgn = [
        pgn_game("zeros", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *"),
        pgn_game("pawn letter", "1. Pe4 *"),
        pgn_game("lower case", &format!("{PROMOTE} bxa8=q *")),
    ]
    .concat();
    let strict = arbiter(&["chess", "pgn", "--strict", "-"], &pgn);
    assert_eq!(
        text(&strict.stdout),
        "<stdin>:4:35: game 1 (zeros - ?): 4. white 0-0 (ply 7): castling is written with the \
         letter O, not zeros; write O-O\n\
         <stdin>:9:4: game 2 (pawn letter - ?): 1. white Pe4 (ply 1): pawn moves are written \
         without a letter; write e4\n\
         <stdin>:14:48: game 3 (lower case - ?): 5. white bxa8=q (ply 9): not the canonical \
         spelling; write bxa8=Q\n\
         <stdin>: 3 games: 0 ok, 3 with errors, 0 warnings\n"
    );
    assert_eq!(strict.status.code(), Some(1));
    let lenient = arbiter(&["chess", "pgn", "--lenient", "-"], &pgn);
    assert!(text(&lenient.stdout).ends_with("<stdin>: 3 games: 3 ok, 0 with errors, 3 warnings\n"));
    assert_eq!(lenient.status.code(), Some(0));
}

#[test]
fn pgn_lenient_accepts_every_spelling_of_one_legal_move() {
    let pgn = [
        pgn_game("equals-less", &format!("{PROMOTE} bxa8Q *")),
        pgn_game("double plus", "1. f3 e5 2. g4 Qh4++ 0-1"),
        pgn_game("ep", &format!("{EN_PASSANT} exd6ep *")),
        pgn_game("e.p. glued", &format!("{EN_PASSANT} exd6e.p. *")),
        pgn_game("e.p. apart", &format!("{EN_PASSANT} exd6 e.p. *")),
        pgn_game("dash", "1. e2-e4 e7-e5 2. Ng1-f3 *"),
    ]
    .concat();
    let output = arbiter(&["chess", "pgn", "--lenient", "-"], &pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:4:48: warning: game 1 (equals-less - ?): 5. white bxa8Q (ply 9): standard SAN \
         writes = before the promotion piece; write bxa8=Q\n\
         <stdin>:1:1: game 1 (equals-less - ?): ok\n\
         <stdin>:9:16: warning: game 2 (double plus - ?): 2. black Qh4++ (ply 4): check is a \
         single +, even a double check; write Qh4#\n\
         <stdin>:6:1: game 2 (double plus - ?): ok\n\
         <stdin>:14:22: warning: game 3 (ep - ?): 3. white exd6ep (ply 5): en passant is written \
         like any pawn capture, without e.p.; write exd6\n\
         <stdin>:11:1: game 3 (ep - ?): ok\n\
         <stdin>:19:22: warning: game 4 (e.p. glued - ?): 3. white exd6e.p. (ply 5): en passant \
         is written like any pawn capture, without e.p.; write exd6\n\
         <stdin>:16:1: game 4 (e.p. glued - ?): ok\n\
         <stdin>:24:27: warning: game 5 (e.p. apart - ?): 3. white e.p. (ply 5): en passant is \
         written like any pawn capture, without e.p.; write exd6\n\
         <stdin>:21:1: game 5 (e.p. apart - ?): ok\n\
         <stdin>:29:4: warning: game 6 (dash - ?): 1. white e2-e4 (ply 1): SAN writes no dash \
         between two squares; write e4\n\
         <stdin>:29:10: warning: game 6 (dash - ?): 1. black e7-e5 (ply 2): SAN writes no dash \
         between two squares; write e5\n\
         <stdin>:29:19: warning: game 6 (dash - ?): 2. white Ng1-f3 (ply 3): SAN writes no dash \
         between two squares; write Nf3\n\
         <stdin>:26:1: game 6 (dash - ?): ok\n\
         <stdin>: 6 games: 6 ok, 0 with errors, 8 warnings\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn pgn_lenient_rejects_tokens_that_denote_no_move_or_several() {
    let pgn = [
        pgn_game("ambiguous", "1. Nf3 d5 2. d3 e5 3. Nd2 *"),
        pgn_game("illegal", "1. e4 e5 2. Ke3 *"),
        pgn_game("no move", "1. e4 e5 2. xyz *"),
        pgn_game("e.p. after no en passant", "1. e4 d5 2. exd5 e.p. *"),
    ]
    .concat();
    let output = arbiter(&["chess", "pgn", "--lenient", "-"], &pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:4:23: game 1 (ambiguous - ?): 3. white Nd2 (ply 5): two knights can move to d2; \
         write Nbd2 or Nfd2\n\
         <stdin>:9:13: game 2 (illegal - ?): 2. white Ke3 (ply 3): illegal move: no king can go \
         to e3\n\
         <stdin>:14:13: game 3 (no move - ?): 2. white xyz (ply 3): not a move in algebraic \
         notation (annotations, comments, `e.p.` and results have no place in a record)\n\
         <stdin>:19:18: game 4 (e.p. after no en passant - ?): 2. black e.p. (ply 4): not a move \
         in algebraic notation (annotations, comments, `e.p.` and results have no place in a \
         record)\n\
         <stdin>: 4 games: 0 ok, 4 with errors, 0 warnings\n"
    );
}

#[test]
fn pgn_an_open_comment_ends_at_the_next_tag_pair() {
    // Game 2's comment is never closed; game 3 must still be read as game 3, with its own lines.
    let pgn = [
        pgn_game("one", "1. e4 e5 *"),
        pgn_game("two", "1. d4 { never closed"),
        pgn_game("three", "1. e4 e5 2. Ke3 *"),
        pgn_game("four", "1. c4 *"),
    ]
    .concat();
    let output = arbiter(&["chess", "pgn", "-"], &pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:1:1: game 1 (one - ?): ok\n\
         <stdin>:9:7: game 2 (two - ?): PGN syntax: expected `}` closing the comment opened here, \
         found the end of the game\n\
         <stdin>:14:13: game 3 (three - ?): 2. white Ke3 (ply 3): illegal move: no king can go to \
         e3\n\
         <stdin>:16:1: game 4 (four - ?): ok\n\
         <stdin>: 4 games: 2 ok, 2 with errors, 0 warnings\n"
    );
}

#[test]
fn pgn_broken_syntax_is_an_error_of_its_game() {
    let deep = format!("1. e4 {} e5 *", "(".repeat(500_000));
    let pgn = [
        pgn_game("open variation", "1. e4 (1. d4 e5 *"),
        pgn_game("stray paren", "1. e4 e5) *"),
        pgn_game("stray brace", "1. e4 } e5 *"),
        "[White \"E\n[Black \"F\"]\n\n1. e4 *\n\n".to_owned(),
        pgn_game("deep", &deep),
        pgn_game("after", "1. e4 *"),
    ]
    .concat();
    let output = arbiter(&["chess", "pgn", "-"], &pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:4:7: game 1 (open variation - ?): PGN syntax: expected `)` closing the variation \
         opened here, found the end of the game\n\
         <stdin>:9:9: game 2 (stray paren - ?): PGN syntax: expected a move, comment or \
         annotation, found `)` with no variation open\n\
         <stdin>:14:7: game 3 (stray brace - ?): PGN syntax: expected a move, comment or \
         annotation, found `}` with no comment open\n\
         <stdin>:16:10: game 4 (? - ?): PGN syntax: expected `\"` closing the tag value, found \
         the end of the line\n\
         <stdin>:24:262: game 5 (deep - ?): PGN syntax: expected variations nested at most 255 \
         deep, found a deeper `(`\n\
         <stdin>:26:1: game 6 (after - ?): ok\n\
         <stdin>: 6 games: 1 ok, 5 with errors, 0 warnings\n"
    );
}

#[test]
fn pgn_keeps_the_tags_read_before_an_error_and_reads_long_tags() {
    // The reader stops at the comment, after the tags: they name the game.
    let broken = arbiter(&["chess", "pgn", "-"], &pgn_game("Kim", "1. d4 e5 $999 *"));
    assert!(text(&broken.stdout).starts_with("<stdin>:4:10: game 1 (Kim - ?): PGN syntax:"));
    // A 2 MB tag value is no error; the report shows its first 40 characters.
    let long = "x".repeat(2 << 20);
    let output = arbiter(&["chess", "pgn", "-"], &pgn_game(&long, "1. e4 *"));
    assert_eq!(
        text(&output.stdout),
        format!(
            "<stdin>:1:1: game 1 ({}… - ?): ok\n<stdin>: 1 game: 1 ok, 0 with errors, 0 warnings\n",
            "x".repeat(40)
        )
    );
}

#[test]
fn pgn_skips_a_byte_order_mark() {
    let output = arbiter(&["chess", "pgn", "-"], &format!("\u{feff}{}", pgn_game("A", "1. e4 *")));
    assert_eq!(
        text(&output.stdout),
        "<stdin>:1:1: game 1 (A - ?): ok\n<stdin>: 1 game: 1 ok, 0 with errors, 0 warnings\n"
    );
}

#[test]
fn pgn_goes_on_after_an_unreadable_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgn_unreadable");
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
    std::fs::write(&a, pgn_game("A", "1. e4 *")).expect("a.pgn");
    std::fs::write(&b, pgn_game("B", "1. e4 e5 2. Ke3 *")).expect("b.pgn");
    let missing = dir.join("missing.pgn");
    let [a, b, missing] = [&a, &b, &missing].map(|path| path.display().to_string());
    let output = arbiter(&["chess", "pgn", &a, &missing, &b], "");
    assert_eq!(
        text(&output.stdout),
        format!(
            "{a}:1:1: game 1 (A - ?): ok\n\
             {a}: 1 game: 1 ok, 0 with errors, 0 warnings\n\
             {b}:4:13: game 1 (B - ?): 2. white Ke3 (ply 3): illegal move: no king can go to e3\n\
             {b}: 1 game: 0 ok, 1 with errors, 0 warnings\n"
        )
    );
    // The file that could not be read is told once the others are done.
    assert_eq!(
        text(&output.stderr),
        format!("{missing}:1:1: expected a readable file, found no such file\n")
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn fix_repairs_pgn_spellings_and_keeps_everything_else() {
    let pgn = "% produced by hand\n[White \"A\"]\n\n1. f3 e5 ; a line comment\n2. g4 Qh4++ 0-1\n\n\
               [White \"B\"]\n\n1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8Q *\n";
    let output = arbiter(&["chess", "fix"], pgn);
    assert_eq!(
        text(&output.stdout),
        "% produced by hand\n[White \"A\"]\n\n1. f3 e5 ; a line comment\n2. g4 Qh4# 0-1\n\n\
         [White \"B\"]\n\n1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q *\n"
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
}

#[test]
fn fix_knows_pgn_by_its_features() {
    // No tags: a comment and a result make it PGN, kept as it is but for the moves.
    let tagless = arbiter(&["chess", "fix"], "1. e4 {c} e5 2. Ng1f3 *");
    assert_eq!(text(&tagless.stdout), "1. e4 {c} e5 2. Nf3 *");
    assert_eq!(tagless.status.code(), Some(0));
    let bom = arbiter(&["chess", "fix"], "\u{feff}[White \"A\"]\n\n1. e4 e5 2. Ng1f3 *\n");
    assert_eq!(text(&bom.stdout), "\u{feff}[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n");
    assert_eq!(bom.status.code(), Some(0));
}

#[test]
fn fix_status_is_one_when_a_pgn_game_cannot_be_fixed() {
    let pgn = "[White \"A\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Ng1f3 *\n\n[White \"B\"]\n\n1. e4 (e5 *\n\n\
               [White \"C\"]\n\n1. Ng1f3 *\n";
    let output = arbiter(&["chess", "fix"], pgn);
    // Game 1's line is kept from the illegal move on; game 2 is kept whole; game 3 is fixed.
    assert_eq!(
        text(&output.stdout),
        "[White \"A\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Ng1f3 *\n\n[White \"B\"]\n\n1. e4 (e5 *\n\n\
         [White \"C\"]\n\n1. Nf3 *\n"
    );
    assert_eq!(
        text(&output.stderr),
        "<stdin>:3:13: game 1: 2. white Ke3 (ply 3): illegal move: no king can go to e3; kept as \
         written, with the rest of its line\n\
         <stdin>:7:7: game 2: PGN syntax: expected `)` closing the variation opened here, found \
         the end of the game; game kept as written\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn pgn_strict_needs_movetext_and_a_result() {
    // Text that is not PGN is an error at its place, not a good game.
    let numbers = arbiter(&["chess", "pgn", "-"], "18\n0 0 7 0\n");
    assert_eq!(
        text(&numbers.stdout),
        "<stdin>:2:1: game 1 (? - ?): PGN syntax: expected a move after the move number `18`, \
         found `0`\n<stdin>: 1 game: 0 ok, 1 with errors, 0 warnings\n"
    );
    assert_eq!(numbers.status.code(), Some(1));
    let counted = arbiter(&["chess", "pgn"], "123 456 789\n");
    assert!(text(&counted.stdout).starts_with("<stdin>:1:5: game 1 (? - ?): PGN syntax:"));
    assert_eq!(counted.status.code(), Some(1));
    let dots = arbiter(&["chess", "pgn"], "...\n");
    assert!(
        text(&dots.stdout).starts_with(
            "<stdin>:1:4: game 1 (? - ?): PGN syntax: expected a move after the move number \
             `...`, found the end of the game"
        ),
        "{dots:?}"
    );
    // A wrong move number, tags without movetext, movetext without a result.
    let pgn = [
        pgn_game("numbers", "1. e4 e5 3. Nf3 *"),
        pgn_game("no result", "1. e4 e5"),
        // Last: tags and a blank line followed by more tags would be read as one game.
        "[White \"tags only\"]\n\n".to_owned(),
    ]
    .concat();
    let strict = arbiter(&["chess", "pgn", "-"], &pgn);
    assert_eq!(
        text(&strict.stdout),
        "<stdin>:4:10: game 1 (numbers - ?): PGN syntax: expected the move number `2.` before \
         white's move, found `3.`\n\
         <stdin>:9:9: game 2 (no result - ?): PGN syntax: expected a game termination marker \
         (1-0, 0-1, 1/2-1/2 or *) at the end of the movetext, found the end of the game\n\
         <stdin>:11:20: game 3 (tags only - ?): PGN syntax: expected a game termination marker \
         (1-0, 0-1, 1/2-1/2 or *) at the end of the movetext, found the end of the game\n\
         <stdin>: 3 games: 0 ok, 3 with errors, 0 warnings\n"
    );
    // Lenient mode takes any move numbers, and a missing result with a warning.
    let lenient = arbiter(&["chess", "pgn", "--lenient"], &pgn);
    assert!(text(&lenient.stdout).ends_with("<stdin>: 3 games: 3 ok, 0 with errors, 2 warnings\n"));
    assert_eq!(lenient.status.code(), Some(0));
}

#[test]
fn pgn_reads_standard_input_without_a_file_and_says_when_it_is_closed() {
    let output = arbiter(&["chess", "pgn"], &pgn_game("A", "1. e4 *"));
    assert_eq!(
        text(&output.stdout),
        "<stdin>:1:1: game 1 (A - ?): ok\n<stdin>: 1 game: 1 ok, 0 with errors, 0 warnings\n"
    );
    for args in [&["chess", "pgn", "-"][..], &["chess", "fix"][..]] {
        let closed = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("arbiter runs");
        assert_eq!(
            text(&closed.stderr),
            "<stdin>:1:1: expected PGN on standard input, found it closed\n"
        );
        assert_eq!(closed.status.code(), Some(2));
    }
}

#[test]
fn fix_keeps_every_byte_of_a_latin1_file() {
    // ISO-8859-1, the PGN standard's own encoding: `ü` is the byte 0xfc, no UTF-8.
    let pgn =
        b"[White \"M\xfcller\"]\n[Black \"Dupr\xe9\"]\n\n1. e4 {d\xe9j\xe0 vu} e5 2. Ng1f3 *\n";
    let output = common::run(&["chess", "fix"], pgn);
    assert_eq!(
        output.stdout,
        b"[White \"M\xfcller\"]\n[Black \"Dupr\xe9\"]\n\n1. e4 {d\xe9j\xe0 vu} e5 2. Nf3 *\n"
    );
    assert_eq!(output.status.code(), Some(0));
    // Messages show the bytes that are not UTF-8 as escapes.
    let checked = common::run(&["chess", "pgn"], pgn);
    assert!(
        text(&checked.stdout)
            .starts_with("<stdin>:4:23: game 1 (M\\xfcller - Dupr\\xe9): 2. white Ng1f3 (ply 3)"),
        "{checked:?}"
    );
}

/// `text` compressed by each of the three formats.
fn compressed(text: &[u8]) -> [(&'static str, Vec<u8>); 3] {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text).expect("gzip");
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text).expect("bzip2");
    [
        ("gz", gz.finish().expect("gzip")),
        ("bz2", bz.finish().expect("bzip2")),
        ("zst", zstd::stream::encode_all(text, 3).expect("zstd")),
    ]
}

#[test]
fn compressed_files_and_streams_are_read_transparently() {
    let pgn = PGN.replace("Nf6 $4", "Nf6");
    let plain = arbiter(&["chess", "pgn", "-"], &pgn);
    let fixed = arbiter(&["chess", "fix"], &pgn);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgn_compressed");
    std::fs::create_dir_all(&dir).expect("temporary directory");
    for (extension, bytes) in compressed(pgn.as_bytes()) {
        let from_stdin = common::run(&["chess", "pgn"], &bytes);
        assert_eq!(from_stdin.stdout, plain.stdout, "{extension} on standard input");
        let file = dir.join(format!("games.pgn.{extension}"));
        std::fs::write(&file, &bytes).expect("compressed file");
        let name = file.display().to_string();
        let from_file = arbiter(&["chess", "pgn", &name], "");
        assert_eq!(text(&from_file.stdout), text(&plain.stdout).replace("<stdin>", &name));
        assert_eq!(from_file.status.code(), Some(1));
        let fixed_from_file = arbiter(&["chess", "fix", &name], "");
        assert_eq!(fixed_from_file.stdout, fixed.stdout, "fix of {extension}");
    }
    // A stream that breaks off is an input error: status 2, with the line reached.
    let (_, zst) = &compressed(pgn.as_bytes())[2];
    let cut = common::run(&["chess", "pgn"], &zst[..zst.len() / 2]);
    assert!(text(&cut.stderr).starts_with("<stdin>:"), "{cut:?}");
    assert!(text(&cut.stderr).contains("expected valid zstd data"), "{cut:?}");
    assert_eq!(cut.status.code(), Some(2));
}

#[test]
fn a_game_too_large_is_reported_and_the_next_one_read() {
    let huge = format!("1. e4 {{{}}} e5 *", "x".repeat(1_200_000));
    let pgn = [pgn_game("huge", &huge), pgn_game("after", "1. d4 *")].concat();
    let output = arbiter(&["chess", "pgn", "--max-game-mib", "1", "-"], &pgn);
    assert_eq!(
        text(&output.stdout),
        "<stdin>:1:1: game 1 (? - ?): the game is larger than 1 MiB, the most a game may hold; \
         it is skipped\n\
         <stdin>:6:1: game 2 (after - ?): ok\n\
         <stdin>: 2 games: 1 ok, 1 with errors, 0 warnings\n"
    );
    assert_eq!(output.status.code(), Some(1));
    // `fix` passes the game on untouched and rewrites the next.
    let fix_input = pgn.replace("1. d4 *", "1. Ng1f3 *");
    let fixed = arbiter(&["chess", "fix", "--max-game-mib", "1"], &fix_input);
    assert_eq!(text(&fixed.stdout), fix_input.replace("Ng1f3", "Nf3"));
    assert_eq!(
        text(&fixed.stderr),
        "<stdin>:1:1: game 1: the game is larger than 1 MiB, the most a game may hold; it is \
         skipped; kept as written\n"
    );
    assert_eq!(fixed.status.code(), Some(1));
}

#[test]
fn pgn_json_reports_variant_plies_error_and_warnings() {
    let pgn = [
        "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 *\n\n".to_owned(),
        "[Variant \"Bughouse\"]\n\n1. e4 *\n\n".to_owned(),
        pgn_game("uci", "1. g1f3 Z0 2. e2e4 *"),
    ]
    .concat();
    let output = arbiter(&["chess", "pgn", "--lenient", "--json"], &pgn);
    let games: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["variant"], "Crazyhouse");
    assert_eq!((games[0]["ok"].clone(), games[0]["plies"].clone()), (true.into(), 7.into()));
    assert_eq!(games[0]["warnings"][0]["canonical"], "@d4");
    assert_eq!(games[1]["ok"], false);
    assert_eq!(games[1]["error"]["kind"], "variant");
    assert_eq!(
        (games[1]["error"]["line"].clone(), games[1]["error"]["column"].clone()),
        (5.into(), 1.into())
    );
    assert!(
        games[1]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("unknown variant `Bughouse`"))
    );
    assert_eq!(games[2]["plies"], 3);
    let reasons: Vec<&str> = games[2]["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w["reason"].as_str())
        .collect();
    assert_eq!(
        reasons,
        [
            "UCI notation; write Nf3",
            "a null move: the side to move passes, which is no chess move",
            "UCI notation; write e4"
        ]
    );
}

#[test]
fn fix_rewrites_uci_and_variant_games() {
    let pgn = "[Variant \"Chess960\"]\n[FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1\"]\n\n\
               1. b1a1 b8e8 2. d2-d4 Z0 3. d4d5 *\n";
    let output = arbiter(&["chess", "fix"], pgn);
    assert_eq!(
        text(&output.stdout),
        "[Variant \"Chess960\"]\n[FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1\"]\n\n\
         1. O-O-O O-O 2. d4 Z0 3. d5 *\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn fix_json_is_one_object_per_game_with_its_edits_and_problems() {
    let pgn = "[White \"A\"]\n\n1. e4 e5 2. Ng1f3 Nc6 3. Ke3 *\n\n[White \"B\"]\n\n1. 0-0 *\n\n\
               [White \"C\"]\n\n1. e4 exd6e.p. *\n\n[Variant \"Bughouse\"]\n\n1. e4 *\n";
    let output = arbiter(&["chess", "fix", "--json"], pgn);
    let games: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(games.len(), 4, "{}", text(&output.stdout));
    assert_eq!(
        games[0],
        serde_json::json!({
            "file": "<stdin>", "game": 1, "line": 1, "column": 1,
            "edits": [{"line": 3, "column": 13, "written": "Ng1f3", "canonical": "Nf3"}],
            "problems": [{
                "kind": "move", "line": 3, "column": 26,
                "message": "3. white Ke3 (ply 5): illegal move: no king can go to e3",
                "ply": 5, "move_number": 3, "side": "white", "token": "Ke3",
                "reason": "illegal move: no king can go to e3", "canonical": null,
            }],
        })
    );
    // A move that cannot be read is a problem, not an edit.
    assert_eq!(games[1]["problems"][0]["token"], "0-0");
    assert_eq!(games[1]["edits"], serde_json::json!([]));
    assert_eq!(games[2]["problems"][0]["kind"], "move");
    assert_eq!(games[3]["game"], 4);
    assert_eq!(games[3]["problems"][0]["kind"], "variant");
    // Everything is in the objects: no text on stdout, no message on stderr.
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    assert_eq!(output.status.code(), Some(1));

    let good = arbiter(&["chess", "fix", "--json"], "1. e4 {c} e5 2. Ng1f3 *");
    assert_eq!(
        text(&good.stdout),
        "{\"file\":\"<stdin>\",\"game\":1,\"line\":1,\"column\":1,\"edits\":[{\"line\":1,\
         \"column\":17,\"written\":\"Ng1f3\",\"canonical\":\"Nf3\"}],\"problems\":[]}\n"
    );
    assert_eq!(good.status.code(), Some(0));
}

#[test]
fn fix_json_of_a_record_gives_the_rewrite_or_the_problem() {
    let fixed = arbiter(&["chess", "fix", "--json"], "1. e4 d5 2. ed5 Qxd5 3. Ng1f3 Qe4\n");
    assert_eq!(
        text(&fixed.stdout),
        "{\"file\":\"<stdin>\",\"fixed\":\"1. e4 d5 2. exd5 Qxd5 3. Nf3 Qe4+\",\"problems\":[]}\n"
    );
    assert_eq!(fixed.status.code(), Some(0));
    let wrong = arbiter(&["chess", "fix", "--json", "--dialect", "contest"], "1. e4 e5\n2. Ke3\n");
    let object: serde_json::Value = serde_json::from_slice(&wrong.stdout).expect("JSON");
    assert_eq!(object["fixed"], serde_json::Value::Null);
    assert_eq!(
        (&object["problems"][0]["line"], &object["problems"][0]["column"]),
        (&serde_json::json!(2), &serde_json::json!(4))
    );
    assert_eq!(object["problems"][0]["token"], "Ke3");
    assert!(wrong.stderr.is_empty());
    assert_eq!(wrong.status.code(), Some(1));
}

#[test]
fn fix_messages_follow_their_game_when_both_streams_share_a_file() {
    // `2>&1`: the message about game 1 comes right after game 1's text (with the blank line
    // that ends it), before game 2's.
    let dir = std::env::temp_dir().join(format!("arbiter-fix-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    std::fs::write(&input, "[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"B\"]\n\n1. Ng1f3 *\n")
        .unwrap();
    let both = dir.join("both");
    let file = std::fs::File::create(&both).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["chess", "fix"])
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    let written = std::fs::read_to_string(&both).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        written,
        "[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n\n\
         <stdin>:3:13: game 1: 2. white Ke3 (ply 3): illegal move: no king can go to e3; kept as \
         written, with the rest of its line\n\
         [White \"B\"]\n\n1. Nf3 *\n"
    );
}

#[test]
fn pgn_messages_and_verdicts_keep_their_order_when_both_streams_share_a_file() {
    // `2>&1` with --json: each game's object on stdout, the summary after them all.
    let dir = std::env::temp_dir().join(format!("arbiter-pgn-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    std::fs::write(&input, "1. e4 e5 *\n\n1. d4 d5 2. Ke3 *\n").unwrap();
    let both = dir.join("both");
    let file = std::fs::File::create(&both).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["chess", "pgn", "--json", "-", "missing.pgn"])
        .current_dir(&dir)
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    let written = std::fs::read_to_string(&both).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(status.code(), Some(2));
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines.len(), 4, "{written}");
    assert!(lines[0].starts_with("{\"file\":\"<stdin>\",\"game\":1,"), "{written}");
    assert!(lines[1].starts_with("{\"file\":\"<stdin>\",\"game\":2,"), "{written}");
    assert_eq!(lines[2], "<stdin>: 2 games: 1 ok, 1 with errors, 0 warnings");
    assert_eq!(lines[3], "missing.pgn:1:1: expected a readable file, found no such file");
}

#[test]
fn pgn_reports_find_each_game_again_and_hold_its_result_to_the_board() {
    let pgn = "\u{feff}[Site \"https://lichess.org/abcd1234\"]\n[Result \"1-0\"]\n\n\
               1. f3 e5 2. g4 Qh4# 1-0\n\n\
               [GameId \"xyz\"]\n[Result \"0-1\"]\n\n\
               1. e4 {[%clk 0:03:00]} e5 {[%clk 3:00]} 1-0\n\n\
               1. d4 d5";
    let output = arbiter(&["chess", "pgn", "--json"], pgn);
    let games: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    // Each game is found again at its offset, and named by its Site URL or GameId.
    let starts = ["[Site", "[GameId", "1. d4"];
    for (game, start) in games.iter().zip(starts) {
        let offset = game["offset"].as_u64().expect("an offset") as usize;
        assert!(pgn.as_bytes()[offset..].starts_with(start.as_bytes()), "{game}");
    }
    let field = |name: &str| games.iter().map(|game| game[name].clone()).collect::<Vec<_>>();
    assert_eq!(field("line"), [1, 6, 11]);
    assert_eq!(
        field("id"),
        [serde_json::json!("https://lichess.org/abcd1234"), "xyz".into(), ().into()]
    );
    let warnings = |game: &serde_json::Value| -> Vec<(String, u64, u64)> {
        game["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .map(|w| {
                let kind = w["kind"].as_str().unwrap_or_default().to_owned();
                (kind, w["line"].as_u64().unwrap_or(0), w["column"].as_u64().unwrap_or(0))
            })
            .collect()
    };
    let kinds = |list: &[(&str, u64, u64)]| -> Vec<(String, u64, u64)> {
        list.iter().map(|&(kind, line, column)| (kind.to_owned(), line, column)).collect()
    };
    // A mate that black gave, written 1-0 in the token and in the tag.
    assert_eq!(warnings(&games[0]), kinds(&[("result", 4, 21), ("result", 2, 1)]));
    assert_eq!(games[0]["ok"], true);
    // A clock without its hours, and a token against the tag.
    assert_eq!(warnings(&games[1]), kinds(&[("clock", 9, 27), ("result", 9, 41)]));
    // The last game stops in the middle of its line: the input was cut off.
    assert_eq!(warnings(&games[2]), kinds(&[("truncated", 11, 9)]));
    assert_eq!(games[2]["error"]["kind"], "no_result");

    let plain = arbiter(&["chess", "pgn"], pgn);
    let plain = text(&plain.stdout);
    assert!(plain.contains(
        "<stdin>:4:21: warning: game 1 (? - ?): the result 1-0 (the result token) disagrees \
         with checkmate on the board: black wins\n"
    ));
    assert!(plain.contains(
        "<stdin>:9:27: warning: game 2 (? - ?): a clock comment is written [%clk H:MM:SS], \
         found `[%clk 3:00]`\n"
    ));
    assert!(plain.contains(
        "<stdin>:11:9: warning: game 3 (? - ?): the game stops at the end of the input without \
         a result: the input seems cut off\n"
    ));
    assert!(plain.ends_with("<stdin>: 3 games: 2 ok, 1 with errors, 5 warnings\n"), "{plain}");
}

/// A fresh folder for a test's files under Cargo's temporary folder for tests.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn convert_to_parquet_and_back_is_what_fix_writes() {
    let dir = scratch("convert_round_trip");
    let fixtures = "../chess-record/tests/fixtures/pgn";
    for name in ["annotated.pgn", "chess960.pgn", "null-moves.pgn", "uci.pgn", "variants.pgn"] {
        let input = format!("{fixtures}/{name}");
        let out = dir.join(name);
        let out = out.to_str().expect("a path");
        let converted = arbiter(&["chess", "convert", &input, "--to", "parquet", "--out", out], "");
        assert_eq!(converted.status.code(), Some(0), "{}", text(&converted.stderr));
        assert!(text(&converted.stdout).contains(" games: "), "{}", text(&converted.stdout));
        let back = arbiter(&["chess", "convert", out, "--to", "pgn"], "");
        assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
        let fixed = arbiter(&["chess", "fix", &input], "");
        assert_eq!(text(&back.stdout), text(&fixed.stdout), "{name}");
    }
}

#[test]
fn convert_partitions_by_month_and_writes_to_a_file() {
    let dir = scratch("convert_months");
    let pgn = "[Event \"a\"]\n[UTCDate \"2024.01.31\"]\n[Result \"*\"]\n\n1. e4 *\n\n\
               [Event \"b\"]\n[Date \"2024.02.01\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
               [Event \"c\"]\n[Date \"????.??.??\"]\n[Result \"*\"]\n\n1. c4 *\n\n";
    let input = dir.join("games.pgn");
    std::fs::write(&input, pgn).expect("input");
    let out = dir.join("dataset");
    let (input, out) = (input.to_str().expect("path"), out.to_str().expect("path"));
    let converted = arbiter(&["chess", "convert", input, "--to", "parquet", "--out", out], "");
    assert_eq!(converted.status.code(), Some(0), "{}", text(&converted.stderr));
    let mut months: Vec<String> = std::fs::read_dir(out)
        .expect("dataset")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    months.sort();
    assert_eq!(months, ["month=2024-01", "month=2024-02", "month=__HIVE_DEFAULT_PARTITION__"]);
    let again = arbiter(&["chess", "convert", input, "--to", "parquet", "--out", out], "");
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("found a dataset already"), "{}", text(&again.stderr));
    let back = dir.join("back.pgn");
    let back = back.to_str().expect("path");
    let written = arbiter(&["chess", "convert", out, "--to", "pgn", "--out", back], "");
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    assert_eq!(std::fs::read_to_string(back).expect("written"), pgn);
}

#[test]
fn convert_keeps_the_games_before_a_nul_byte_and_says_where_it_stopped() {
    let dir = scratch("convert_nul");
    let input = dir.join("nul.pgn");
    std::fs::write(&input, "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 \0 *\n")
        .expect("input");
    let out = dir.join("dataset");
    let (input, out) = (input.to_str().expect("path"), out.to_str().expect("path"));
    let converted = arbiter(&["chess", "convert", input, "--to", "parquet", "--out", out], "");
    assert_eq!(converted.status.code(), Some(2));
    assert_eq!(
        text(&converted.stderr),
        format!("{input}:7:7: expected PGN text, found a NUL byte\n")
    );
    let back = arbiter(&["chess", "convert", out, "--to", "pgn"], "");
    assert!(text(&back.stdout).starts_with("[Event \"a\"]\n\n1. e4 *\n"), "{}", text(&back.stdout));
    let missing = arbiter(&["chess", "convert", input, "--to", "parquet"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("expected --out DIR"), "{}", text(&missing.stderr));
}
