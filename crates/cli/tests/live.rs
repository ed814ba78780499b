//! Live games survive the server: `arbiter serve --data-dir DIR` killed with SIGKILL between
//! moves, and while moves are being sent, then started again on the same directory, has every
//! move it acknowledged, and the game goes on from there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// Red's soldier walks up the middle file and takes the blue captain.
const GAME: [&str; 11] = [
    "3 4 4 4", "9 0 8 0", "4 4 5 4", "8 0 9 0", "5 4 6 4", "9 0 8 0", "6 4 7 4", "8 0 9 0",
    "7 4 8 4", "9 0 8 0", "8 4 9 4",
];

/// A running server and its address.
struct Server {
    child: Child,
    client: Client,
}

/// Requests to a server's address.
#[derive(Clone)]
struct Client {
    addr: String,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_default();
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        Server { child, client: Client { addr } }
    }

    /// SIGKILL: no shutdown, no flush.
    fn kill(mut self) {
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

impl Client {
    /// The status and JSON body of a request; `None` if the connection failed.
    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
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

    fn commands(&self, id: &str) -> Vec<String> {
        let (status, game) = self.request("GET", &format!("/api/live/games/{id}"), None).unwrap();
        assert_eq!(status, 200, "{game}");
        serde_json::from_value(game["commands"].clone()).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A temporary data directory, removed at the end.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("arbiter-live-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    TempDir(dir)
}

/// Creates a game with red for its creator: (id, [red token, blue token]).
fn create(server: &Server) -> (String, [String; 2]) {
    let body = json!({"name": "Ann", "color": "red", "time": "5+3"});
    let (status, created) = server.request("POST", "/api/live/games", Some(&body)).unwrap();
    assert_eq!(status, 201, "{created}");
    let field = |name: &str| created[name].as_str().unwrap().to_owned();
    (field("id"), [field("token"), field("invite")])
}

fn play(server: &Client, id: &str, token: &str, command: &str) -> Option<u16> {
    let body = json!({"token": token, "action": "move", "command": command});
    server.request("POST", &format!("/api/live/games/{id}/act"), Some(&body)).map(|r| r.0)
}

#[test]
fn a_game_goes_on_after_the_server_is_killed_between_moves() {
    let dir = temp_dir("between");
    let mut server = Server::start(&dir.0);
    let (id, tokens) = create(&server);
    for (ply, command) in GAME.iter().enumerate() {
        assert_eq!(play(&server, &id, &tokens[ply % 2], command), Some(200), "{command}");
        if ply % 3 == 1 {
            server.kill();
            server = Server::start(&dir.0);
            assert_eq!(server.commands(&id), GAME[..=ply], "after a restart at ply {ply}");
        }
    }
    let (_, game) = server.request("GET", &format!("/api/live/games/{id}"), None).unwrap();
    assert_eq!(game["end"]["reason"], "captain");
    assert_eq!(game["time"], "5+3");
    let (_, exported) =
        server.request("GET", &format!("/api/live/games/{id}/export"), None).unwrap();
    assert_eq!(exported["official"], format!("11\n{}\n", GAME.join("\n")));
}

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_killed_while_moves_arrive() {
    let dir = temp_dir("during");
    let server = Server::start(&dir.0);
    let (id, tokens) = create(&server);
    let client = server.client.clone();
    // The moves go on being sent from another thread while this one kills the server.
    let sender = {
        let (id, tokens) = (id.clone(), tokens.clone());
        std::thread::spawn(move || {
            let mut acknowledged = 0;
            for (ply, command) in GAME.iter().enumerate() {
                match play(&client, &id, &tokens[ply % 2], command) {
                    Some(200) => acknowledged = ply + 1,
                    _ => break,
                }
            }
            acknowledged
        })
    };
    std::thread::sleep(Duration::from_millis(15));
    server.kill();
    let acknowledged = sender.join().unwrap();
    let server = Server::start(&dir.0);
    let kept = server.commands(&id);
    // Every acknowledged move is kept; at most one more was committed as the server died.
    assert!(
        kept.len() == acknowledged || kept.len() == acknowledged + 1,
        "{acknowledged} {kept:?}"
    );
    assert_eq!(kept, GAME[..kept.len()]);
    if let Some(next) = GAME.get(kept.len()) {
        assert_eq!(play(&server, &id, &tokens[kept.len() % 2], next), Some(200));
    }
}
