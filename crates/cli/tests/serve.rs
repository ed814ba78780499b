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

#[test]
fn help_prints_the_limits_an_operator_sets_with_their_defaults() {
    let output = arbiter().args(["serve", "--help"]).output().expect("arbiter runs");
    let help = String::from_utf8_lossy(&output.stdout);
    for (flag, default) in [
        ("--max-connections <N>", "[default: 1024]"),
        ("--max-connections-per-client <N>", "[default: 32]"),
        ("--max-sockets-per-client <N>", "[default: 16]"),
        ("--max-games-per-client <N>", "[default: 20]"),
        ("--new-game-every <SECONDS>", "[default: 30]"),
        ("--log-format <FORMAT>", "[default: text]"),
    ] {
        let at = help.find(flag).unwrap_or_else(|| panic!("no {flag} in\n{help}"));
        let next = help[at..].find(default).unwrap_or_else(|| panic!("no {default} for {flag}"));
        assert!(!help[at + flag.len()..at + next].contains("\n      --"), "{flag}: {default}");
    }
    for flag in ["--trusted-proxy <CIDR>", "--public-url <URL>", "--metrics-public"] {
        assert!(help.contains(flag), "no {flag} in\n{help}");
    }
    let output = arbiter().args(["serve", "--max-sockets-per-client", "0"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--max-sockets-per-client must be at least 1"), "{stderr}");
    let output = arbiter().args(["serve", "--trusted-proxy", "proxy.lan"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a network"));
}

/// A field of `/proc/PID/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// Without bounds on a socket's buffers, a client sending pings without reading the pongs grew
/// the server by 400 MB a second (16 MB to 1.19 GB in 3 s) until it aborted.
#[test]
fn a_socket_flooding_pings_without_reading_is_cut_off_with_the_servers_memory_bounded() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-ping-flood");
    let _ = std::fs::remove_dir_all(&dir);
    let (mut child, addr) = start(&["--data-dir", dir.to_str().unwrap()]);
    let pid = child.id();
    let result = std::panic::catch_unwind(|| {
        let body = "{}";
        let mut stream = TcpStream::connect(&addr).unwrap();
        write!(
            stream,
            "POST /api/live/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let created: serde_json::Value =
            serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
        let id = created["id"].as_str().unwrap();
        let before = status_kib(pid, "VmRSS");
        let stream = TcpStream::connect(&addr).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
        let url = format!("ws://{addr}/api/live/games/{id}/socket");
        let (mut socket, _) = tungstenite::client(url, stream).expect("the socket opens");
        // 64 MB of pings at most, none of their pongs read.
        let ping = tungstenite::Message::Ping(vec![7; 125].into());
        let sent = (0..512 * 1024).take_while(|_| socket.send(ping.clone()).is_ok()).count();
        assert!(sent < 512 * 1024, "every ping was taken: the socket was never cut off");
        let grown = status_kib(pid, "VmHWM").saturating_sub(before);
        assert!(grown < 32 * 1024, "the server grew by {grown} KiB");
        // It goes on serving.
        let (status, _) = fetch(&addr, "/api/");
        assert_eq!(status, "HTTP/1.1 200 OK");
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// The lines `arbiter serve ARGS` writes on standard error until it logs that it listens.
fn log_until_listening(args: &[&str]) -> Vec<String> {
    let mut child = arbiter()
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut lines = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.contains("listening");
        lines.push(line);
        if done {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    lines
}

#[test]
fn logs_are_text_by_default_and_json_lines_with_log_format_json() {
    let text = log_until_listening(&[]);
    let last = text.last().expect("a line saying it listens");
    assert!(last.contains("INFO") && last.contains("listening"), "{text:?}");
    assert!(last.contains("address=127.0.0.1:"), "{last}");
    assert!(!last.contains('\u{1b}'), "colours in a log that is no terminal: {last}");
    let json = log_until_listening(&["--log-format", "json", "--max-connections", "100"]);
    for line in &json {
        let value: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(value["level"].is_string() && value["timestamp"].is_string(), "{line}");
    }
    let last: serde_json::Value = serde_json::from_str(json.last().unwrap()).unwrap();
    assert_eq!(last["level"], "INFO");
    assert_eq!(last["fields"]["message"], "listening");
    assert_eq!(last["fields"]["max_connections"], 100);
    assert!(last["fields"]["address"].as_str().unwrap().starts_with("127.0.0.1:"), "{last}");
}
