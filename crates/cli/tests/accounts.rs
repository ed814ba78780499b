//! `arbiter serve` with accounts: whatever the server writes (standard output and standard
//! error), no password, session id or CSRF token of a player is in it, through sign-up, sign-in,
//! a failed sign-in, a password change, a sign-out and a deletion.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// A reply: status, the session cookie set (`arbiter_session=...`), the JSON body.
struct Reply {
    status: u16,
    cookie: Option<String>,
    body: Value,
}

/// Sends a request with `headers` to `addr`.
fn request(addr: &str, method: &str, path: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.to_string();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: \
         application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    stream.write_all(format!("{head}\r\n{body}").as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let cookie = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, value)| value.trim().split(';').next().unwrap().to_owned());
    // A chunked body: the JSON is the line that starts with `{`.
    let json = body.lines().find(|line| line.starts_with('{')).unwrap_or("null");
    Reply { status, cookie, body: serde_json::from_str(json).unwrap_or(Value::Null) }
}

#[test]
fn no_password_session_id_or_csrf_token_reaches_the_logs() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("accounts-logs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&dir)
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    // The first line names the address; the rest is read once the server has stopped.
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    let first = String::from_utf8(first).unwrap();
    let addr = first.split_whitespace().find(|w| w.starts_with("http://")).unwrap();
    let addr = addr.trim_start_matches("http://").trim_end_matches('/').to_owned();

    let (old, new) = ("first secret words", "second secret words");
    let mut secrets = vec![old.to_owned(), new.to_owned(), "never the password".to_owned()];
    let up = request(
        &addr,
        "POST",
        "/api/account/signup",
        &json!({"username": "ann", "password": old}),
        &[],
    );
    assert_eq!(up.status, 201, "{}", up.body);
    let wrong = json!({"username": "ann", "password": "never the password"});
    assert_eq!(request(&addr, "POST", "/api/account/signin", &wrong, &[]).status, 401);
    let signin = json!({"username": "ann", "password": old});
    let reply = request(&addr, "POST", "/api/account/signin", &signin, &[]);
    assert_eq!(reply.status, 200);
    let cookie = reply.cookie.unwrap();
    let csrf = reply.body["csrf"].as_str().unwrap().to_owned();
    secrets.push(cookie.trim_start_matches("arbiter_session=").to_owned());
    secrets.push(csrf.clone());
    let change = json!({"password": old, "new_password": new});
    let reply = request(
        &addr,
        "POST",
        "/api/account/password",
        &change,
        &[("Cookie", &cookie), ("X-CSRF-Token", &csrf)],
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let cookie = reply.cookie.unwrap();
    let csrf = reply.body["csrf"].as_str().unwrap().to_owned();
    secrets.push(cookie.trim_start_matches("arbiter_session=").to_owned());
    secrets.push(csrf.clone());
    // The old session, sent again, is refused and not written anywhere either.
    let reply = request(
        &addr,
        "GET",
        "/api/account",
        &Value::Null,
        &[("Cookie", &format!("arbiter_session={}", secrets[3]))],
    );
    assert_eq!(reply.body["user"], Value::Null);
    let reply = request(
        &addr,
        "POST",
        "/api/account/signout",
        &json!({}),
        &[("Cookie", &cookie), ("X-CSRF-Token", &csrf)],
    );
    assert_eq!(reply.status, 200);
    let reply = request(
        &addr,
        "POST",
        "/api/account/signin",
        &json!({"username": "ann", "password": new}),
        &[],
    );
    let (cookie, csrf) = (reply.cookie.unwrap(), reply.body["csrf"].as_str().unwrap().to_owned());
    secrets.push(cookie.trim_start_matches("arbiter_session=").to_owned());
    let reply = request(
        &addr,
        "POST",
        "/api/account/delete",
        &json!({"password": new}),
        &[("Cookie", &cookie), ("X-CSRF-Token", &csrf)],
    );
    assert_eq!(reply.status, 200, "{}", reply.body);

    // SIGINT: the server shuts down as it does for its operator, writing what it writes then.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    child.wait().unwrap();
    let mut out = first;
    stdout.read_to_string(&mut out).unwrap();
    let logs = format!("{out}\n{}", errors.join().unwrap());
    for secret in &secrets {
        assert!(!logs.contains(secret.as_str()), "the logs hold a secret: {logs}");
    }
    // The database holds no password and no session id either: only their hashes.
    let database = std::fs::read(dir.join("arbiter.sqlite3")).unwrap_or_default();
    let wal = std::fs::read(dir.join("arbiter.sqlite3-wal")).unwrap_or_default();
    let csrf_tokens = [4, 6];
    let unhashed = secrets.iter().enumerate().filter(|(i, _)| !csrf_tokens.contains(i));
    for (_, secret) in unhashed {
        for bytes in [&database, &wal] {
            assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
