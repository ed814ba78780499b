//! `chess pgn` and `chess fix` on input as an attacker (or a slow pipe) gives it: at most
//! 64 MiB of memory however large a game, a NUL byte told at once, and each game answered as
//! soon as it is read whole.

mod common;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command};
use std::sync::mpsc;
use std::time::Duration;

/// The most memory a command may use, in KiB (docs/rules.md#the-command-line).
const LIMIT_KIB: u64 = 64 * 1024;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Kills process `pid` unless `done` is signalled within five minutes, so that a command that
/// hangs fails its test instead of hanging it.
fn watchdog(pid: u32) -> mpsc::Sender<()> {
    let (done, wait) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if wait.recv_timeout(Duration::from_secs(300)) == Err(mpsc::RecvTimeoutError::Timeout) {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    done
}

/// The peak resident memory of a running process, in KiB.
fn peak_kib(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).expect("status");
    let line = status.lines().find(|line| line.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number of KiB")
}

/// A game of `size` bytes made of one comment, then a blank line.
fn big_game(size: usize) -> Vec<u8> {
    let (head, tail) = (&b"[White \"big\"]\n\n1. e4 {"[..], &b"} e5 *\n\n"[..]);
    [head, &b"x".repeat(size - head.len() - tail.len()), tail].concat()
}

/// The game every input ends with, and the line `chess pgn` gives it.
const LAST: &[u8] = b"[White \"last\"]\n\n1. d4 *\n\n";

/// The output kept to look at: its last bytes (a large output is only counted).
const TAIL: usize = 1 << 20;

/// Runs `arbiter ARGS` on `input` written from a thread, reads stdout until `until` (given the
/// last bytes of it and its length) says it has all it waits for, then measures the peak memory
/// while standard input is still open (the command is alive and has done its work), closes it
/// and gives the peak, the length of stdout and its last bytes, stderr and the exit status.
fn peak_memory(
    args: &[&str],
    input: impl Read + Send + 'static,
    until: impl Fn(&[u8], usize) -> bool,
) -> (u64, usize, Vec<u8>, String, Option<i32>) {
    let mut child = common::spawn(args);
    let done = watchdog(child.id());
    let mut stdin = child.stdin.take().expect("stdin");
    let (sent, closed) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let mut input = input;
        io::copy(&mut input, &mut stdin).expect("the input is written");
        stdin.flush().expect("flushed");
        // Standard input stays open until the peak is read.
        let _ = closed.recv();
    });
    let mut stdout: ChildStdout = child.stdout.take().expect("stdout");
    let (mut tail, mut len) = (Vec::new(), 0);
    let mut buf = vec![0; 1 << 16];
    let mut read = |stdout: &mut ChildStdout, tail: &mut Vec<u8>, len: &mut usize| {
        let n = stdout.read(&mut buf).expect("output");
        tail.extend_from_slice(&buf[..n]);
        if tail.len() > 2 * TAIL {
            tail.drain(..tail.len() - TAIL);
        }
        *len += n;
        n
    };
    while !until(&tail, len) {
        let n = read(&mut stdout, &mut tail, &mut len);
        assert!(n > 0, "{args:?}: the output ended early, after {len} bytes");
    }
    let peak = peak_kib(&child);
    drop(sent);
    writer.join().expect("the writer ends");
    while read(&mut stdout, &mut tail, &mut len) > 0 {}
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).expect("stderr");
    let status = child.wait().expect("arbiter ends").code();
    let _ = done.send(());
    (peak, len, tail, stderr, status)
}

#[test]
fn a_game_of_any_size_costs_at_most_64_mib() {
    let big = |size: usize| -> Box<dyn Read + Send> {
        Box::new(io::Cursor::new([big_game(size), LAST.to_vec()].concat()))
    };
    // One token of 100 MB; a game just under the limit; games just under half of it, which
    // must not be held all at once.
    let one_token = || -> Box<dyn Read + Send> {
        Box::new(
            (&b"1. e4 "[..])
                .chain(io::repeat(b'N').take(100_000_000))
                .chain(&b"\n\n"[..])
                .chain(LAST),
        )
    };
    let under_limit = 48 * (1 << 20) - 100;
    let halves = || -> Box<dyn Read + Send> {
        let game = big_game(23 << 20);
        Box::new(io::Cursor::new([&game[..], &game, &game, &game, LAST].concat()))
    };
    let cases: [(&str, Box<dyn Read + Send>, &str); 3] = [
        ("one token", one_token(), "game 1 (? - ?): the game is larger than 48 MiB"),
        ("under the limit", big(under_limit), "game 1 (big - ?): ok"),
        ("four halves", halves(), "game 4 (big - ?): ok"),
    ];
    for (name, input, first) in cases {
        let (peak, _, out, _, status) =
            peak_memory(&["chess", "pgn"], input, |out, _| text(out).contains("(last - ?): ok\n"));
        assert!(text(&out).contains(first), "{name}: {}", text(&out[..out.len().min(1000)]));
        assert!(peak <= LIMIT_KIB, "chess pgn, {name}: {peak} KiB");
        assert_eq!(status, Some(u8::from(name == "one token").into()), "{name}");
    }
    // `fix` passes each game on (the one too large as written), the last one too; a record
    // too long to rewrite (no PGN in its first 48 MiB) is passed on to the end of the input.
    let cases: [(&str, Box<dyn Read + Send>, usize, usize); 3] = [
        ("one token", one_token(), 100_000_008 + LAST.len(), 100_000_000),
        ("under the limit", big(under_limit), under_limit + LAST.len(), 0),
        ("four halves", halves(), 4 * (23 << 20) + LAST.len(), 0),
    ];
    for (name, input, size, early) in cases {
        let wait = if early > 0 { early } else { size };
        let (peak, len, out, stderr, status) =
            peak_memory(&["chess", "fix"], input, |_, len| len >= wait);
        assert_eq!(len, size, "{name}: {stderr}");
        assert!(out.ends_with(LAST), "{name}");
        assert!(peak <= LIMIT_KIB, "chess fix, {name}: {peak} KiB");
        assert_eq!(status, Some(u8::from(name == "one token").into()), "{name}: {stderr}");
    }
}

/// Runs `arbiter ARGS` on `input` with a watchdog.
fn run_watched(args: &[&str], input: impl Read + Send + 'static) -> (String, String, Option<i32>) {
    let mut child = common::spawn(args);
    let done = watchdog(child.id());
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut input = input;
        let _ = io::copy(&mut input, &mut stdin);
    });
    let output = child.wait_with_output().expect("arbiter ends");
    let _ = done.send(());
    writer.join().expect("the writer ends");
    (text(&output.stdout), text(&output.stderr), output.status.code())
}

#[test]
fn a_nul_byte_is_no_pgn_and_is_told_at_once() {
    let zeros = || io::repeat(0).take(100 << 20);
    let (out, err, status) = run_watched(&["chess", "pgn"], zeros());
    assert_eq!(out, "<stdin>: 0 games: 0 ok, 0 with errors, 0 warnings\n");
    assert_eq!(err, "<stdin>:1:1: expected PGN text, found a NUL byte\n");
    assert_eq!(status, Some(2));
    let (out, err, status) = run_watched(&["chess", "pgn", "/dev/zero"], io::empty());
    assert_eq!(out, "/dev/zero: 0 games: 0 ok, 0 with errors, 0 warnings\n");
    assert_eq!(err, "/dev/zero:1:1: expected PGN text, found a NUL byte\n");
    assert_eq!(status, Some(2));
    let (out, err, status) = run_watched(&["chess", "fix", "/dev/zero"], io::empty());
    assert_eq!(
        (out, err, status),
        (
            String::new(),
            "/dev/zero:1:1: expected a record or PGN text, found a NUL byte\n".to_owned(),
            Some(2)
        )
    );
    let (_, err, status) = run_watched(&["chess", "fix"], zeros());
    assert_eq!(err, "<stdin>:1:1: expected a record or PGN text, found a NUL byte\n");
    assert_eq!(status, Some(2));

    // The games before it are told, and written; the one it breaks is no game.
    let pgn = "[White \"é\"]\n\n1. e4 *\n\n1. d4 d5\0 *\n";
    let (out, err, status) = run_watched(&["chess", "pgn"], io::Cursor::new(pgn));
    assert_eq!(
        out,
        "<stdin>:1:1: game 1 (é - ?): ok\n<stdin>: 1 game: 1 ok, 0 with errors, 0 warnings\n"
    );
    assert_eq!(err, "<stdin>:5:9: expected PGN text, found a NUL byte\n");
    assert_eq!(status, Some(2));
    let (out, err, status) = run_watched(&["chess", "fix"], io::Cursor::new(pgn));
    assert_eq!(out, "[White \"é\"]\n\n1. e4 *\n\n1. d4 d5");
    assert_eq!(err, "<stdin>:5:9: expected PGN text, found a NUL byte\n");
    assert_eq!(status, Some(2));
    // At the start of a line: the place is that line's.
    let (_, err, _) = run_watched(&["chess", "pgn"], io::Cursor::new("1. e4 *\n\n\0"));
    assert_eq!(err, "<stdin>:3:1: expected PGN text, found a NUL byte\n");
    // In a record, and after a record too long to rewrite.
    let (out, err, status) = run_watched(&["chess", "fix"], io::Cursor::new("1. é4\n e5\0"));
    assert_eq!(
        (out.as_str(), err.as_str(), status),
        ("", "<stdin>:2:4: expected a record or PGN text, found a NUL byte\n", Some(2))
    );
    let long = (&b"1. e4 "[..]).chain(io::repeat(b' ').take(3 << 20)).chain(&b"e5\0"[..]);
    let (out, err, status) = run_watched(&["chess", "fix", "--max-game-mib", "1"], long);
    assert_eq!(out.len(), 6 + (3 << 20) + 2);
    let column = 6 + (3 << 20) + 3;
    assert_eq!(
        err,
        format!("<stdin>:1:{column}: expected a record or PGN text, found a NUL byte\n")
    );
    assert_eq!(status, Some(2));
}

#[test]
fn each_game_is_answered_as_soon_as_it_is_read_whole() {
    // The first game is whole at the blank line after its movetext; its answer must come
    // while standard input is still open.
    let cases: [(&[&str], &str, &str); 3] = [
        (&["chess", "pgn"], "1. e4 *\n\n[White \"b\"]\n", "<stdin>:1:1: game 1 (? - ?): ok\n"),
        (&["chess", "pgn", "--json"], "1. e4 *\n\n[White \"b\"]\n", "{\"file\":\"<stdin>\""),
        (&["chess", "fix"], "[White \"a\"]\n\n1. Ng1f3 *\n\n[White \"b\"]\n", "[White \"a\"]\n"),
    ];
    for (args, first, expected) in cases {
        let mut child = common::spawn(args);
        let done = watchdog(child.id());
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(first.as_bytes()).expect("written");
        stdin.flush().expect("flushed");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a line before the input ends");
        assert!(line.starts_with(expected), "{args:?}: {line}");
        if args[1] == "fix" {
            let mut rest = String::new();
            for _ in 0..3 {
                stdout.read_line(&mut rest).expect("the rest of the first game");
            }
            assert_eq!(rest, "\n1. Nf3 *\n\n");
        }
        stdin.write_all(b"\n1. d4 *\n").expect("the rest written");
        drop(stdin);
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).expect("the rest");
        assert!(child.wait().expect("arbiter ends").success(), "{args:?}");
        let _ = done.send(());
    }
}
