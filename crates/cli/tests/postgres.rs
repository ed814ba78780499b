//! `arbiter serve --database postgres://...`: live games kept in PostgreSQL (a private server,
//! started and stopped by the test), surviving `kill -9`, and shared by two server processes
//! whose players and spectators each see, over their WebSockets, what the other process's
//! players do.

#[path = "../../live/tests/support/postgres.rs"]
mod postgres;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// Red's soldier walks up the middle file and takes the blue captain.
const GAME: [&str; 11] = [
    "3 4 4 4", "9 0 8 0", "4 4 5 4", "8 0 9 0", "5 4 6 4", "9 0 8 0", "6 4 7 4", "8 0 9 0",
    "7 4 8 4", "9 0 8 0", "8 4 9 4",
];

/// A running `arbiter serve` on a database, and its address.
struct Serve {
    child: Child,
    addr: String,
}

impl Serve {
    fn start(url: &str) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0", "--database", url])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("arbiter runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_default();
        assert!(!url.is_empty(), "the server did not start: {line}");
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        Serve { child, addr }
    }

    /// SIGKILL: no shutdown, no flush.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// The status and JSON body of a request.
    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: \
             application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    fn act(&self, id: &str, token: &str, action: Value) -> (u16, Value) {
        let mut body = action;
        body["token"] = json!(token);
        self.request("POST", &format!("/api/live/games/{id}/act"), Some(&body))
    }

    fn play(&self, id: &str, token: &str, command: &str) -> u16 {
        self.act(id, token, json!({"action": "move", "command": command})).0
    }

    fn commands(&self, id: &str) -> Vec<String> {
        let (status, game) = self.request("GET", &format!("/api/live/games/{id}"), None);
        assert_eq!(status, 200, "{game}");
        serde_json::from_value(game["commands"].clone()).unwrap()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Creates a game with red for its creator: (id, [red token, blue token]).
fn create(server: &Serve) -> (String, [String; 2]) {
    let body = json!({"name": "Ann", "color": "red", "time": "5+3"});
    let (status, created) = server.request("POST", "/api/live/games", Some(&body));
    assert_eq!(status, 201, "{created}");
    let field = |name: &str| created[name].as_str().unwrap().to_owned();
    (field("id"), [field("token"), field("invite")])
}

#[test]
fn a_database_that_is_not_postgres_is_refused() {
    for args in [
        &["--database", "sqlite:///tmp/games"][..],
        &["--database", "postgres://localhost/x", "--data-dir", "games"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--database") || stderr.contains("--data-dir"), "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn an_unreachable_database_stops_the_server_without_showing_its_password() {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0", "--database"])
        .arg("postgresql://ann:secret@/games?host=/nonexistent-arbiter-socket-dir")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("PostgreSQL"), "{stderr}");
    assert!(!stderr.contains("secret"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn games_in_postgres_go_on_after_the_server_is_killed() {
    let Some(database) = postgres::Server::start("serve") else { return };
    let url = database.database("games");
    let mut server = Serve::start(&url);
    let (id, tokens) = create(&server);
    for (ply, command) in GAME[..6].iter().enumerate() {
        assert_eq!(server.play(&id, &tokens[ply % 2], command), 200, "{command}");
        if ply % 3 == 1 {
            server.kill();
            server = Serve::start(&url);
            assert_eq!(server.commands(&id), GAME[..=ply], "after a restart at ply {ply}");
        }
    }
    let (_, listed) = server.request("GET", "/api/live/archive", None);
    assert_eq!(listed["total"], 1);
    assert_eq!(listed["games"][0]["moves"], 6);
    // SIGTERM: a clean exit, its database client let go off the async threads.
    let pid = libc::pid_t::try_from(server.child.id()).unwrap();
    // SAFETY: a signal to our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert!(server.child.wait().unwrap().success());
}

/// A page's WebSocket on a game.
struct Watcher {
    socket: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    who: &'static str,
}

impl Watcher {
    /// Opens the socket of the game `id` on `server`, saying hello with `token` (a spectator's
    /// `null` without one). The game as it stands is its first message.
    fn open(server: &Serve, id: &str, token: Option<&str>, who: &'static str) -> Watcher {
        let url = format!("ws://{}/api/live/games/{id}/socket", server.addr);
        let (mut socket, _) = tungstenite::connect(url).expect("the socket opens");
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
            stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        }
        let hello = json!({ "hello": token }).to_string();
        socket.send(tungstenite::Message::Text(hello.into())).unwrap();
        Watcher { socket, who }
    }

    /// Reads the socket's messages until a game `done` holds for arrives (within 10 s).
    fn until(&mut self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.socket.read().unwrap_or_else(|error| {
                panic!("{} never saw {what}: {error}", self.who);
            });
            if let tungstenite::Message::Text(text) = message {
                let message: Value = serde_json::from_str(&text).unwrap();
                if done(&message["game"]) {
                    return message;
                }
            }
        }
    }

    /// Waits for the game's `plies`-th move.
    fn sees(&mut self, plies: usize) -> Value {
        let what = format!("ply {plies}");
        self.until(&what, |game| game["commands"].as_array().is_some_and(|c| c.len() == plies))
    }
}

#[test]
fn two_servers_on_one_database_serve_one_game_and_each_sees_the_others_moves() {
    let Some(database) = postgres::Server::start("two") else { return };
    let url = database.database("shared");
    let (a, b) = (Serve::start(&url), Serve::start(&url));
    let (id, [red, blue]) = create(&a);
    // Red plays on server A, blue on server B; a spectator watches on B.
    let mut reds = Watcher::open(&a, &id, Some(&red), "red on A");
    let mut blues = Watcher::open(&b, &id, Some(&blue), "blue on B");
    let mut spectator = Watcher::open(&b, &id, None, "the spectator on B");
    let (status, joined) = b.act(&id, &blue, json!({"action": "join", "name": "Bob"}));
    assert_eq!(status, 200, "{joined}");
    assert_eq!(reds.until("blue's name", |game| game["blue"] == "Bob")["game"]["red"], "Ann");
    for (ply, command) in GAME[..4].iter().enumerate() {
        let (server, token) = if ply % 2 == 0 { (&a, &red) } else { (&b, &blue) };
        assert_eq!(server.play(&id, token, command), 200, "{command}");
        for watcher in [&mut reds, &mut blues, &mut spectator] {
            let seen = watcher.sees(ply + 1);
            assert_eq!(seen["game"]["commands"][ply], *command);
        }
    }
    // Moves by the wrong seat are refused, on either server, and change nothing.
    let (status, refused) = a.act(&id, &blue, json!({"action": "move", "command": GAME[4]}));
    assert_eq!((status, refused["reason"].as_str()), (409, Some("not-your-turn")));
    let (status, _) = b.act(&id, "not-a-token", json!({"action": "move", "command": GAME[4]}));
    assert_eq!(status, 403);
    assert_eq!(b.commands(&id), GAME[..4]);
    // kill -9 of A loses nothing it acknowledged; B serves both players meanwhile.
    a.kill();
    assert_eq!(b.commands(&id), GAME[..4]);
    assert_eq!(b.play(&id, &red, GAME[4]), 200);
    assert_eq!(blues.sees(5)["game"]["commands"][4], GAME[4]);
    // A again: red's page comes back to it and catches up from the database.
    let a = Serve::start(&url);
    let mut reds = Watcher::open(&a, &id, Some(&red), "red on A again");
    assert_eq!(reds.sees(5)["game"]["commands"][4], GAME[4]);
    for (ply, command) in GAME.iter().enumerate().skip(5) {
        let (server, token) = if ply % 2 == 0 { (&a, &red) } else { (&b, &blue) };
        assert_eq!(server.play(&id, token, command), 200, "{command}");
        for watcher in [&mut reds, &mut blues, &mut spectator] {
            let seen = watcher.sees(ply + 1);
            if ply + 1 == GAME.len() {
                assert_eq!(seen["game"]["end"]["reason"], "captain", "{}", watcher.who);
            }
        }
    }
    let (_, exported) = a.request("GET", &format!("/api/live/games/{id}/export"), None);
    assert_eq!(exported["official"], format!("11\n{}\n", GAME.join("\n")));
}
