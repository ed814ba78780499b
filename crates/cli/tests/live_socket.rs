//! What the live games' sockets send: the whole game once, then small changes that rebuild it
//! exactly; a spectator who comes or goes costs the other watchers a count, not the game; and a
//! game whose clock runs ends on time after a restart though nobody opens it.

#[path = "common/live_server.rs"]
mod live_server;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use live_server::{GAME, Server, Watcher};
use serde_json::json;

/// A data directory of this test's own under the target directory, removed at the end.
struct DataDir(PathBuf);

impl DataDir {
    fn new(name: &str) -> DataDir {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("live-socket-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DataDir(dir)
    }

    fn store(&self) -> [&std::ffi::OsStr; 2] {
        ["--data-dir".as_ref(), self.0.as_os_str()]
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn spectators_coming_and_going_cost_the_watchers_a_count_not_the_game() {
    let dir = DataDir::new("churn");
    let server = Server::start(&dir.store());
    let (id, [red, blue]) = server.create();
    for (ply, command) in GAME[..6].iter().enumerate() {
        assert_eq!(server.play(&id, [&red, &blue][ply % 2], command), Some(200));
    }
    let mut watchers: Vec<Watcher> =
        (0..4).map(|_| Watcher::open(&server, &id, None, "a watcher")).collect();
    let whole = watchers[0].received[0];
    for watcher in &mut watchers {
        watcher.drain(Duration::from_millis(300));
        watcher.received.clear();
    }
    // 15 spectators come and go, one after the other: with the 4 watchers, within the 20 sockets
    // one client may open at once before it is slowed to one a second.
    const CHURN: usize = 15;
    for _ in 0..CHURN {
        let mut passing = Watcher::open(&server, &id, None, "a passing spectator");
        passing.next("its own count");
        passing.close();
    }
    assert_eq!(server.play(&id, &red, GAME[6]), Some(200));
    for watcher in &mut watchers {
        watcher.sees(7);
        watcher.drain(Duration::from_millis(500));
        let bytes: usize = watcher.received.iter().sum();
        // Each coming and going is a count of about 20 bytes, and the move one change; before,
        // each was the whole game again (here about 5 KB).
        assert!(
            bytes < 2 * CHURN * 40 + whole,
            "{bytes} bytes for {CHURN} spectators and a move (the whole game is {whole})"
        );
        assert!(watcher.received.len() <= 2 * CHURN + 1, "{:?}", watcher.received);
        assert_eq!(watcher.spectators, Some(4));
    }
}

#[test]
fn the_changes_a_socket_is_sent_rebuild_the_game_as_the_server_has_it() {
    let dir = DataDir::new("rebuild");
    let server = Server::start(&dir.store());
    let (id, [red, blue]) = server.create();
    let mut reds = Watcher::open(&server, &id, Some(&red), "red");
    let mut spectator = Watcher::open(&server, &id, None, "a spectator");
    let whole = |server: &Server| server.request("GET", &format!("/api/live/games/{id}"), None);
    let steps = [
        (&blue, json!({"action": "join", "name": "Bob"})),
        (&red, json!({"action": "move", "command": GAME[0]})),
        (&blue, json!({"action": "move", "command": GAME[1]})),
        (&red, json!({"action": "offer-draw"})),
        (&blue, json!({"action": "decline-draw"})),
        (&blue, json!({"action": "request-takeback"})),
        (&red, json!({"action": "accept-takeback"})),
        (&blue, json!({"action": "move", "command": GAME[1]})),
        (&red, json!({"action": "resign"})),
        (&blue, json!({"action": "offer-rematch"})),
    ];
    for (token, action) in steps {
        let (status, acted) = server.act(&id, token, action.clone()).unwrap();
        assert_eq!(status, 200, "{action}: {acted}");
        let version = acted["version"].clone();
        let (_, game) = whole(&server).unwrap();
        for watcher in [&mut reds, &mut spectator] {
            let rebuilt = watcher.until(&format!("version {version}"), |g| g["version"] == version);
            // The clocks are as of when each was sent: the rest is the game, exactly.
            let strip = |mut game: serde_json::Value| {
                game["clocks"] = serde_json::Value::Null;
                game
            };
            assert_eq!(strip(rebuilt), strip(game.clone()), "{}, after {action}", watcher.who);
        }
    }
    // Every message after the first was a change or a count, never the whole game again.
    assert_eq!((reds.wholes, spectator.wholes), (1, 1), "{:?}", spectator.received);
    // A socket that connects now is sent the whole game at once.
    let late = Watcher::open(&server, &id, None, "a late spectator");
    assert_eq!(late.game["rematch_offer"], "blue");
    assert_eq!(late.game["entries"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_clock_runs_out_after_a_restart_though_nobody_opens_the_game() {
    let dir = DataDir::new("flag");
    let server = Server::start(&dir.store());
    // Three seconds each.
    let body = json!({"name": "Ann", "color": "red", "time": "0.05+0"});
    let (status, created) = server.request("POST", "/api/live/games", Some(&body)).unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let tokens = [created["token"].as_str().unwrap(), created["invite"].as_str().unwrap()];
    // Red's clock runs once both have moved.
    for (ply, command) in GAME[..2].iter().enumerate() {
        assert_eq!(server.play(&id, tokens[ply % 2], command), Some(200));
    }
    server.kill();
    let server = Server::start(&dir.store());
    let started = Instant::now();
    let ended = loop {
        // The archive alone: it reads the store, and opens no game.
        let (_, listed) = server.request("GET", "/api/live/archive", None).unwrap();
        let game = listed["games"][0].clone();
        if game["status"] == "over" {
            break game;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "still {} 20 s after the restart: {game}",
            game["status"]
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!((ended["winner"].as_str(), ended["reason"].as_str()), (Some("blue"), Some("time")));
    // Time while the server was down is not charged: red had its three seconds after it.
    assert!(started.elapsed() >= Duration::from_millis(2_500), "{:?}", started.elapsed());
}
