//! `arbiter serve` end to end: it prints its URL, answers on it, and says why when it cannot
//! listen.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};

/// The status line and body of a GET of `path` on `addr`, over a plain socket.
fn fetch(addr: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).expect("the server accepts connections");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (head.lines().next().unwrap_or_default().to_owned(), body.to_owned())
}

#[test]
fn serves_on_the_port_it_prints() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|word| word.starts_with("http://")).map(str::to_owned);
    let result = std::panic::catch_unwind(|| {
        let url = url.expect("the first line names the URL");
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "{line}");
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let (status, body) = fetch(addr, "/api/");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(body.contains("/api/duck/move"), "{body}");
        let (status, _) = fetch(addr, "/duck");
        assert_eq!(status, "HTTP/1.1 200 OK");
        let (status, _) = fetch(addr, "/../../etc/passwd");
        assert_eq!(status, "HTTP/1.1 404 Not Found");
    });
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn a_taken_port_is_an_error() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", &port])
        .output()
        .expect("arbiter runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("arbiter serve: cannot serve on 127.0.0.1:{port}: ")),
        "{stderr}"
    );
}
