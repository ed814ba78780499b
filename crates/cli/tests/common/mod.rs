//! Running the built `arbiter` in end-to-end tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `arbiter ARGS` with `stdin` as its standard input and collects what it writes.
///
/// The input is written from a thread of its own: arbiter reads as it answers, so a test that
/// wrote all its input before reading any output would deadlock once both pipes are full. An
/// input arbiter stops reading early (at an error) is not a failure of the test.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut input = child.stdin.take().expect("a pipe to standard input");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("arbiter ends");
    writer.join().expect("the input is written");
    output
}

/// Starts `arbiter ARGS` with pipes for all three streams.
pub fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs")
}
