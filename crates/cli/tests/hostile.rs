//! Input as an attacker would write it (docs/rules.md#the-command-line): every judge reads in
//! bounded chunks, so
//! `/dev/zero`, a line of 80 MB or an endless stream costs a bounded amount of memory and a
//! clear error; answers go out as commands arrive; a file truncated under the reader is read,
//! not mapped.
//!
//! Memory is bounded for real: these tests run arbiter with its address space limited to
//! 64 MiB (`ulimit -v`), less than the inputs they feed it, beyond what the binary itself maps
//! (its code and static data: over 60 MiB in a debug build, whatever the input).

mod common;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The address space arbiter may use for its work, in KiB: the 64 MiB of
/// docs/rules.md#the-command-line.
const LIMIT_KIB: u64 = 64 * 1024;

/// The KiB the binary's own segments take once loaded: the memory sizes of its ELF `PT_LOAD`
/// program headers (a 64-bit little-endian ELF file), 0 if it cannot be read as one.
fn loaded_kib(binary: &str) -> u64 {
    let Ok(elf) = std::fs::read(binary) else { return 0 };
    let at = |offset: usize, len: usize| -> u64 {
        elf.get(offset..offset + len)
            .map_or(0, |bytes| bytes.iter().rev().fold(0, |n, &b| n << 8 | u64::from(b)))
    };
    if elf.get(..5) != Some(b"\x7fELF\x02") {
        return 0;
    }
    let (table, size, count) = (at(0x20, 8) as usize, at(0x36, 2) as usize, at(0x38, 2) as usize);
    let loaded: u64 = (0..count)
        .map(|i| table + i * size)
        .filter(|&header| at(header, 4) == 1)
        .map(|header| at(header + 0x28, 8))
        .sum();
    loaded.div_ceil(1024)
}

/// `arbiter ARGS` under the memory limit, with pipes for all three streams.
fn spawn_bounded(args: &[&str]) -> Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {} && exec \"$0\" \"$@\"",
            LIMIT_KIB + loaded_kib(env!("CARGO_BIN_EXE_arbiter"))
        ))
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs arbiter")
}

/// Runs `arbiter ARGS` under the memory limit, feeding it `input` from a thread.
fn bounded(args: &[&str], input: impl Read + Send + 'static) -> Output {
    let mut child = spawn_bounded(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut input = input;
    let writer = std::thread::spawn(move || {
        let _ = io::copy(&mut input, &mut stdin);
    });
    let output = child.wait_with_output().expect("arbiter ends");
    writer.join().expect("the input is written");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// 80 MB of spaces: more than arbiter may hold.
fn spaces() -> impl Read + Send {
    io::repeat(b' ').take(80 << 20)
}

/// `before`, then `middle` (a reader), then `after`.
fn around(before: &'static str, middle: impl Read + Send, after: &'static str) -> impl Read + Send {
    before.as_bytes().chain(middle).chain(after.as_bytes())
}

#[test]
fn dev_zero_is_one_token_too_long_for_every_command() {
    let cases: [(&[&str], &str); 7] = [
        (&["duck"], "the number of commands Q (a non-negative integer)"),
        (&["duck", "explain"], "the number of commands Q (a non-negative integer)"),
        (&["chess"], "a move number or a move"),
        (&["chess", "--each-line"], "a move number or a move"),
        (&["arena"], "the number of games T (1..=20)"),
        (&["arena", "--json"], "the number of games T (1..=20)"),
        (&["arena", "trace"], "the number of games T (1..=20)"),
    ];
    for (args, expected) in cases {
        let mut args = args.to_vec();
        args.push("/dev/zero");
        let output = bounded(&args, io::empty());
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output.stderr));
        let nuls = "\\u{0}".repeat(40);
        assert_eq!(
            text(&output.stderr),
            format!(
                "/dev/zero:1:1: expected {expected}, found a token of more than 65536 bytes \
                 (`{nuls}…`)\n"
            ),
            "{args:?}"
        );
    }
}

#[test]
fn a_line_of_80_megabytes_is_read_in_bounded_memory() {
    let duck = bounded(&["duck"], around("2\n0 3 1 4", spaces(), "9 4 8 4\n"));
    assert_eq!(text(&duck.stderr), "");
    assert_eq!(text(&duck.stdout), "red guard;NA;no;no\nblue captain;NA;no;no\n");

    let explained = bounded(&["duck", "explain"], around("2 0 0 1 1", spaces(), "7 7 7 7"));
    assert_eq!(text(&explained.stdout), "Invalid command\nInvalid command\n");
    let column = 10 + (80 << 20);
    assert_eq!(
        text(&explained.stderr),
        format!(
            "<stdin>:1:3: command 1: a car cannot move from (0,0) to (1,1)\n\
             <stdin>:1:{column}: command 2: (7,7) is empty\n"
        )
    );

    let record = bounded(&["chess", "--explain"], around("1. e4", spaces(), "e5 2. Ke3"));
    assert_eq!(text(&record.stdout), "No\n");
    let column = 12 + (80 << 20);
    assert_eq!(
        text(&record.stderr),
        format!("<stdin>:1:{column}: 2. white Ke3 (ply 3): illegal move: no king can go to e3\n")
    );

    let lines =
        bounded(&["chess", "--each-line"], around("1. e4\n1. e4", spaces(), "e5+\n1. d4\n"));
    assert_eq!(text(&lines.stderr), "");
    assert_eq!(text(&lines.stdout), "Yes\nNo\nYes\n");

    let arena =
        bounded(&["arena"], around("1\n1 2 1 1\n0", spaces(), "0\n1 1 1 1 0 3 1 1 1 toolihai\n"));
    assert_eq!(text(&arena.stderr), "");
    assert_eq!(text(&arena.stdout), "1 2\n");
}

#[test]
fn an_endless_stream_is_judged_as_it_comes() {
    // A count of 10^18 and commands that never end: arbiter answers in bounded memory until
    // its reader stops listening.
    let mut child = spawn_bounded(&["duck"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(b"1000000000000000000\n");
        let moves = b"0 3 1 4\n9 4 8 4\n1 4 0 3\n8 4 9 4\n".repeat(1 << 10);
        while stdin.write_all(&moves).is_ok() {}
    });
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let wanted = 3_000_000;
    for _ in 0..wanted {
        line.clear();
        stdout.read_line(&mut line).expect("a line");
        assert!(line == "red guard;NA;no;no\n" || line == "blue captain;NA;no;no\n", "{line}");
    }
    drop(stdout);
    let status = child.wait().expect("arbiter ends");
    writer.join().expect("the writer stops");
    // A reader that went away ends arbiter quietly.
    assert_eq!(status.code(), Some(0));
}

/// Kills process `pid` if `done` has not been signalled within a minute: a judge that waits for
/// input it should not need would otherwise hang the test instead of failing it.
fn watchdog(pid: u32) -> mpsc::Sender<()> {
    let (done, wait) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if wait.recv_timeout(Duration::from_secs(60)) == Err(mpsc::RecvTimeoutError::Timeout) {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    done
}

/// Writes `first`, reads `lines` lines of output (which must come before any more input), then
/// writes `rest` and returns the whole output.
fn conversation(args: &[&str], first: &str, lines: usize, rest: &str) -> (Vec<String>, String) {
    let mut child = common::spawn(args);
    let done = watchdog(child.id());
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin.write_all(first.as_bytes()).expect("first part written");
    stdin.flush().expect("flushed");
    let mut early = Vec::new();
    for _ in 0..lines {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "{args:?}: no answer before the rest of the input");
        early.push(line);
    }
    stdin.write_all(rest.as_bytes()).expect("rest written");
    drop(stdin);
    let mut later = String::new();
    stdout.read_to_string(&mut later).expect("the rest of the output");
    assert!(child.wait().expect("arbiter ends").success());
    let _ = done.send(());
    (early, later)
}

#[test]
fn each_answer_comes_before_the_next_input() {
    let (early, later) = conversation(&["duck"], "2\n0 3 1 4\n", 1, "9 4 8 4\n");
    assert_eq!(early, ["red guard;NA;no;no\n"]);
    assert_eq!(later, "blue captain;NA;no;no\n");

    let (early, _) = conversation(&["duck", "explain"], "2\n0 0 1 1\n", 1, "9 4 8 4\n");
    assert_eq!(early, ["Invalid command\n"]);

    let game = "1 2 1 1\n0 0\n1 1 1 1 0 3 1 1 1 toolihai\n";
    let (early, later) = conversation(&["arena"], &format!("2\n{game}"), 1, game);
    assert_eq!((early.concat(), later), ("1 2\n".to_owned(), "1 2\n".to_owned()));

    let (early, later) = conversation(&["chess", "--each-line"], "1. e4 e5\n", 1, "1. e4+\n");
    assert_eq!((early.concat(), later), ("Yes\n".to_owned(), "No\n".to_owned()));
}

#[test]
fn a_file_truncated_while_it_is_read_is_not_fatal() {
    // arbiter reads a large file and writes into a pipe nobody reads yet, so it stops; the file
    // is then truncated under it. A mapped file would now kill it with SIGBUS.
    let dir = std::env::temp_dir().join(format!("arbiter-truncated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.in");
    let commands = 1_000_000;
    let mut input = format!("{commands}\n").into_bytes();
    input.extend(b"0 0 1 1\n".repeat(commands));
    std::fs::write(&path, &input).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["duck", "explain", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let done = watchdog(child.id());
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "Invalid command\n");
    std::fs::File::options().write(true).open(&path).unwrap().set_len(0).unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let _ = done.send(());
    std::fs::remove_dir_all(&dir).unwrap();
    // The commands read before the truncation are judged, then the input ends too early.
    assert_eq!(status.code(), Some(2), "{status}");
    assert!(rest.lines().all(|l| l == "Invalid command"));
}

#[test]
fn input_arriving_a_byte_at_a_time_is_read_like_a_file() {
    // A pipe fed one byte per write: each read returns one byte.
    let cases: [(&[&str], &str, &str); 3] = [
        (&["duck"], "\u{feff}2\n0 3 1 4\n9 4 8 4\n", "red guard;NA;no;no\nblue captain;NA;no;no\n"),
        (&["chess", "--each-line"], "\u{feff}1. e4 e5\r\n\n1. e4+\n1. d4", "Yes\nYes\nNo\nYes\n"),
        (&["arena"], "1\n1 2 1 1\n0 0\n1 1 1 1 0 3 1 1 1 toolihai\n", "1 2\n"),
    ];
    for (args, input, expected) in cases {
        let mut child = common::spawn(args);
        let mut stdin = child.stdin.take().expect("stdin");
        let bytes = input.as_bytes().to_vec();
        let writer = std::thread::spawn(move || {
            for byte in bytes {
                stdin.write_all(&[byte]).expect("a byte written");
                stdin.flush().expect("flushed");
            }
        });
        let output = child.wait_with_output().expect("arbiter ends");
        writer.join().expect("written");
        assert_eq!(text(&output.stdout), expected, "{args:?}: {}", text(&output.stderr));
        assert_eq!(output.status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn play_reads_an_endless_line_in_bounded_memory_and_stops_at_its_limit() {
    // 100 MB of NUL bytes, as from /dev/zero: more than the 64 MiB the process may use.
    let zeros = io::repeat(0).take(100 << 20);
    let out = bounded(&["duck", "play", "--depth", "1"], zeros);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1:65537: expected a move (at most 65536 bytes a line), found a longer line\n"
    );
}

#[test]
fn play_names_the_line_and_column_of_bytes_that_are_not_utf8() {
    let out = bounded(&["duck", "play", "--depth", "1"], &b"\n e4\xFFe5\n"[..]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), "<stdin>:2:4: expected text in UTF-8, found the byte 0xFF\n");
}
