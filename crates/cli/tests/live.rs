//! Live games survive the server: `arbiter serve --data-dir DIR` killed with SIGKILL between
//! moves, and while moves are being sent, then started again on the same directory, has every
//! move it acknowledged, and the game goes on from there.

#[path = "common/live_server.rs"]
mod live_server;

use std::path::PathBuf;
use std::time::Duration;

use live_server::{GAME, Server};

/// A temporary data directory, removed at the end.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("arbiter-live-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    /// The server's arguments for this directory.
    fn store(&self) -> [&std::ffi::OsStr; 2] {
        ["--data-dir".as_ref(), self.0.as_os_str()]
    }
}

#[test]
fn a_game_goes_on_after_the_server_is_killed_between_moves() {
    let dir = TempDir::new("between");
    let mut server = Server::start(&dir.store());
    let (id, tokens) = server.create();
    for (ply, command) in GAME.iter().enumerate() {
        assert_eq!(server.play(&id, &tokens[ply % 2], command), Some(200), "{command}");
        if ply % 3 == 1 {
            server.kill();
            server = Server::start(&dir.store());
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
    let dir = TempDir::new("during");
    let server = Server::start(&dir.store());
    let (id, tokens) = server.create();
    let client = (*server).clone();
    // The moves go on being sent from another thread while this one kills the server.
    let sender = {
        let (id, tokens) = (id.clone(), tokens.clone());
        std::thread::spawn(move || {
            let mut acknowledged = 0;
            for (ply, command) in GAME.iter().enumerate() {
                match client.play(&id, &tokens[ply % 2], command) {
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
    let server = Server::start(&dir.store());
    let kept = server.commands(&id);
    // Every acknowledged move is kept; at most one more was committed as the server died.
    assert!(
        kept.len() == acknowledged || kept.len() == acknowledged + 1,
        "{acknowledged} {kept:?}"
    );
    assert_eq!(kept, GAME[..kept.len()]);
    if let Some(next) = GAME.get(kept.len()) {
        assert_eq!(server.play(&id, &tokens[kept.len() % 2], next), Some(200));
    }
}
