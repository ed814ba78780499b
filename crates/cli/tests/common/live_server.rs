//! A running `arbiter serve` for the tests of live games, and requests to its HTTP API.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// Red's soldier walks up the middle file and takes the blue captain.
pub const GAME: [&str; 11] = [
    "3 4 4 4", "9 0 8 0", "4 4 5 4", "8 0 9 0", "5 4 6 4", "9 0 8 0", "6 4 7 4", "8 0 9 0",
    "7 4 8 4", "9 0 8 0", "8 4 9 4",
];

/// A running server and its address.
pub struct Server {
    child: Child,
    client: Client,
}

/// Requests to a server's address; cloned into the threads of a test.
#[derive(Clone)]
pub struct Client {
    addr: String,
}

impl Server {
    /// `arbiter serve --port 0 STORE...`, where `STORE` says where games are kept
    /// (`--data-dir DIR` or `--database URL`), once it has printed its address.
    pub fn start<S: AsRef<OsStr>>(store: &[S]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0"])
            .args(store)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("arbiter runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_default();
        assert!(!url.is_empty(), "the server did not start: {line}");
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        Server { child, client: Client { addr } }
    }

    /// The server's process.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// SIGKILL: no shutdown, no flush.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl std::ops::Deref for Server {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Client {
    /// The status and JSON body of a request; `None` if the connection failed.
    pub fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
        let mut stream = TcpStream::connect(&self.addr).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: \
             application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).ok()?;
        let (head, body) = response.split_once("\r\n\r\n")?;
        let status = head.split_whitespace().nth(1)?.parse().ok()?;
        Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
    }

    /// A player's action (`{"action": ...}`) in game `id` with `token`.
    pub fn act(&self, id: &str, token: &str, action: Value) -> Option<(u16, Value)> {
        let mut body = action;
        body["token"] = json!(token);
        self.request("POST", &format!("/api/live/games/{id}/act"), Some(&body))
    }

    /// The status of a move played in game `id` with `token`.
    pub fn play(&self, id: &str, token: &str, command: &str) -> Option<u16> {
        self.act(id, token, json!({"action": "move", "command": command})).map(|r| r.0)
    }

    /// The commands of game `id` so far.
    pub fn commands(&self, id: &str) -> Vec<String> {
        let (status, game) = self.request("GET", &format!("/api/live/games/{id}"), None).unwrap();
        assert_eq!(status, 200, "{game}");
        serde_json::from_value(game["commands"].clone()).unwrap()
    }

    /// Creates a game with red for its creator: (id, [red token, blue token]).
    pub fn create(&self) -> (String, [String; 2]) {
        let body = json!({"name": "Ann", "color": "red", "time": "5+3"});
        let (status, created) = self.request("POST", "/api/live/games", Some(&body)).unwrap();
        assert_eq!(status, 201, "{created}");
        let field = |name: &str| created[name].as_str().unwrap().to_owned();
        (field("id"), [field("token"), field("invite")])
    }

    /// The address, `host:port`.
    pub fn addr(&self) -> &str {
        &self.addr
    }
}

/// A page's WebSocket on a game, which keeps the game as a page does: the whole game it is sent
/// first (and again whenever the server finds it behind), each change applied over it.
pub struct Watcher {
    socket: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    /// Who watches, for messages.
    pub who: &'static str,
    /// The game as rebuilt from the messages so far.
    pub game: Value,
    /// The spectators last counted.
    pub spectators: Option<u64>,
    /// The bytes of every message received, in order.
    pub received: Vec<usize>,
    /// How many times the whole game was received.
    pub wholes: usize,
}

/// The lists of a view a change keeps the start of and adds to.
const LISTS: [&str; 3] = ["commands", "moves", "entries"];

impl Watcher {
    /// Opens the socket of the game `id` on `server`, saying hello with `token` (a spectator's
    /// `null` without one), and reads the game as it stands, its first message.
    pub fn open(server: &Client, id: &str, token: Option<&str>, who: &'static str) -> Watcher {
        let url = format!("ws://{}/api/live/games/{id}/socket", server.addr());
        let (mut socket, _) = tungstenite::connect(url).expect("the socket opens");
        Watcher::timeout(&mut socket, Duration::from_secs(10));
        let hello = json!({ "hello": token }).to_string();
        socket.send(tungstenite::Message::Text(hello.into())).unwrap();
        let mut watcher = Watcher {
            socket,
            who,
            game: Value::Null,
            spectators: None,
            received: Vec::new(),
            wholes: 0,
        };
        watcher.next("the whole game");
        watcher
    }

    fn timeout(
        socket: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
        wait: Duration,
    ) {
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
            stream.set_read_timeout(Some(wait)).unwrap();
        }
    }

    /// Reads one message and applies it; `None` when none came within the read timeout.
    pub fn read(&mut self) -> Option<Value> {
        let message = match self.socket.read() {
            Ok(message) => message,
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None;
            }
            Err(error) => panic!("{}: the socket failed: {error}", self.who),
        };
        let tungstenite::Message::Text(text) = message else { return Some(Value::Null) };
        self.received.push(text.len());
        let message: Value = serde_json::from_str(&text).unwrap();
        if let Some(count) = message["spectators"].as_u64() {
            self.spectators = Some(count);
        }
        if message["game"].is_object() {
            self.game = message["game"].clone();
            self.wholes += 1;
        } else if let Some(change) = message["delta"].as_object() {
            assert_eq!(
                change["base"], self.game["version"],
                "{}: a change over another version",
                self.who
            );
            let keep = change["keep"].as_u64().unwrap() as usize;
            let mut game = self.game.as_object().unwrap().clone();
            for list in LISTS {
                let mut items: Vec<Value> = game[list].as_array().unwrap()[..keep].to_vec();
                items.extend(
                    change.get(list).and_then(Value::as_array).into_iter().flatten().cloned(),
                );
                game.insert(list.to_owned(), Value::from(items));
            }
            for (key, value) in change {
                if !LISTS.contains(&key.as_str()) && key != "base" && key != "keep" {
                    game.insert(key.clone(), value.clone());
                }
            }
            self.game = Value::Object(game);
        }
        Some(message)
    }

    /// Reads messages until the game rebuilt is one `done` holds for (within 10 s); returns it.
    pub fn until(&mut self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        while self.game.is_null() || !done(&self.game) {
            if self.read().is_none() {
                panic!("{} never saw {what}", self.who);
            }
        }
        self.game.clone()
    }

    /// Reads one more message (within 10 s).
    pub fn next(&mut self, what: &str) {
        if self.read().is_none() {
            panic!("{} never saw {what}", self.who);
        }
    }

    /// Waits for the game's `plies`-th move; returns the game then.
    pub fn sees(&mut self, plies: usize) -> Value {
        let what = format!("ply {plies}");
        self.until(&what, |game| game["commands"].as_array().is_some_and(|c| c.len() == plies))
    }

    /// Reads every message that comes until none has come for `quiet`.
    pub fn drain(&mut self, quiet: Duration) {
        Watcher::timeout(&mut self.socket, quiet);
        while self.read().is_some() {}
        Watcher::timeout(&mut self.socket, Duration::from_secs(10));
    }

    /// Closes the socket.
    pub fn close(mut self) {
        let _ = self.socket.close(None);
        let _ = self.socket.flush();
    }
}
