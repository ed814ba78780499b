//! `arbiter serve` end to end: it prints its URL, answers on it, and says why when it cannot
//! listen.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The status line and body of a GET of `path` on `addr`, over a plain socket.
fn fetch(addr: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).expect("the server accepts connections");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (head.lines().next().unwrap_or_default().to_owned(), body.to_owned())
}

/// `arbiter`, with its default data directory (where live games are kept) inside this build's
/// scratch space rather than the user's home, one for each server: a data directory is held by
/// one server at a time, and the tests run at once.
fn arbiter() -> Command {
    static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let server = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let data =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-data-{server}"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.env("XDG_DATA_HOME", data);
    command
}

#[test]
fn serves_on_the_port_it_prints() {
    let mut child = arbiter()
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
    let output = arbiter().args(["serve", "--port", &port]).output().expect("arbiter runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("arbiter serve: cannot serve on 127.0.0.1:{port}: ")),
        "{stderr}"
    );
}

/// A running `arbiter serve --port 0` with `args`, and the address it prints.
fn start(args: &[&str]) -> (std::process::Child, String) {
    let mut child = arbiter()
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|word| word.starts_with("http://")).unwrap_or_default();
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    (child, addr)
}

/// Whether `child` exits within `within`; it is killed if not.
fn exits_within(child: &mut std::process::Child, within: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    false
}

#[test]
fn a_signal_stops_the_server_promptly_with_a_search_and_a_half_sent_body() {
    for signal in ["-INT", "-TERM"] {
        let (mut child, addr) = start(&[]);
        let mut half = TcpStream::connect(&addr).unwrap();
        write!(
            half,
            "POST /api/duck/move HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: 25\r\n\r\n{{"
        )
        .unwrap();
        let mut search = TcpStream::connect(&addr).unwrap();
        let body = r#"{"commands": [], "movetime": 10000}"#;
        write!(
            search,
            "POST /api/duck/engine HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        // The search has started once its first line arrives.
        let mut first = [0; 64];
        assert!(search.read(&mut first).unwrap() > 0);
        let killed = Command::new("kill").args([signal, &child.id().to_string()]).status();
        assert!(killed.unwrap().success());
        assert!(exits_within(&mut child, Duration::from_secs(4)), "{signal}: still running");
    }
}

#[test]
fn hosts_allowed_are_served_and_others_refused() {
    let (mut child, addr) = start(&["--allow-host", "board.lan"]);
    let port = addr.rsplit(':').next().unwrap().to_owned();
    let result = std::panic::catch_unwind(|| {
        let status = |host: &str| {
            let mut stream = TcpStream::connect(&addr).unwrap();
            write!(stream, "GET /api/ HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut response = String::new();
            stream.read_to_string(&mut response).unwrap();
            response.lines().next().unwrap_or_default().to_owned()
        };
        assert_eq!(status(&format!("board.lan:{port}")), "HTTP/1.1 200 OK");
        assert_eq!(status(&format!("localhost:{port}")), "HTTP/1.1 200 OK");
        assert_eq!(status(&format!("evil.example:{port}")), "HTTP/1.1 403 Forbidden");
    });
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
