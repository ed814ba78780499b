//! `arbiter serve --database postgres://...`: live games kept in PostgreSQL (a private server,
//! started and stopped by the test), surviving `kill -9`, shared by two server processes whose
//! players and spectators each see, over their WebSockets, what the other process's players do,
//! and surviving a restart of the database under them.

#[path = "../../live/tests/support/postgres.rs"]
mod postgres;

#[path = "common/live_server.rs"]
mod live_server;

use std::process::{Command, Stdio};

use live_server::{GAME, Server, Watcher};
use serde_json::json;

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
    let mut server = Server::start(&["--database", url.as_str()]);
    let (id, tokens) = server.create();
    for (ply, command) in GAME[..6].iter().enumerate() {
        assert_eq!(server.play(&id, &tokens[ply % 2], command), Some(200), "{command}");
        if ply % 3 == 1 {
            server.kill();
            server = Server::start(&["--database", url.as_str()]);
            assert_eq!(server.commands(&id), GAME[..=ply], "after a restart at ply {ply}");
        }
    }
    let (_, listed) = server.request("GET", "/api/live/archive", None).unwrap();
    assert_eq!(listed["total"], 1);
    assert_eq!(listed["games"][0]["moves"], 6);
    // SIGTERM: a clean exit, its database client let go off the async threads.
    let pid = libc::pid_t::try_from(server.child().id()).unwrap();
    // SAFETY: a signal to our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert!(server.child().wait().unwrap().success());
}

#[test]
fn two_servers_on_one_database_serve_one_game_and_each_sees_the_others_moves() {
    let Some(database) = postgres::Server::start("two") else { return };
    let url = database.database("shared");
    let (a, b) = (
        Server::start(&["--database", url.as_str()]),
        Server::start(&["--database", url.as_str()]),
    );
    let (id, [red, blue]) = a.create();
    // Red plays on server A, blue on server B; a spectator watches on B.
    let mut reds = Watcher::open(&a, &id, Some(&red), "red on A");
    let mut blues = Watcher::open(&b, &id, Some(&blue), "blue on B");
    let mut spectator = Watcher::open(&b, &id, None, "the spectator on B");
    let (status, joined) = b.act(&id, &blue, json!({"action": "join", "name": "Bob"})).unwrap();
    assert_eq!(status, 200, "{joined}");
    assert_eq!(reds.until("blue's name", |game| game["blue"] == "Bob")["red"], "Ann");
    for (ply, command) in GAME[..4].iter().enumerate() {
        let (server, token) = if ply % 2 == 0 { (&a, &red) } else { (&b, &blue) };
        assert_eq!(server.play(&id, token, command), Some(200), "{command}");
        for watcher in [&mut reds, &mut blues, &mut spectator] {
            let seen = watcher.sees(ply + 1);
            assert_eq!(seen["commands"][ply], *command);
        }
    }
    // Moves by the wrong seat are refused, on either server, and change nothing.
    let (status, refused) =
        a.act(&id, &blue, json!({"action": "move", "command": GAME[4]})).unwrap();
    assert_eq!((status, refused["reason"].as_str()), (409, Some("not-your-turn")));
    let (status, _) =
        b.act(&id, "not-a-token", json!({"action": "move", "command": GAME[4]})).unwrap();
    assert_eq!(status, 403);
    assert_eq!(b.commands(&id), GAME[..4]);
    // kill -9 of A loses nothing it acknowledged; B serves both players meanwhile.
    a.kill();
    assert_eq!(b.commands(&id), GAME[..4]);
    assert_eq!(b.play(&id, &red, GAME[4]), Some(200));
    assert_eq!(blues.sees(5)["commands"][4], GAME[4]);
    // A again: red's page comes back to it and catches up from the database.
    let a = Server::start(&["--database", url.as_str()]);
    let mut reds = Watcher::open(&a, &id, Some(&red), "red on A again");
    assert_eq!(reds.sees(5)["commands"][4], GAME[4]);
    for (ply, command) in GAME.iter().enumerate().skip(5) {
        let (server, token) = if ply % 2 == 0 { (&a, &red) } else { (&b, &blue) };
        assert_eq!(server.play(&id, token, command), Some(200), "{command}");
        for watcher in [&mut reds, &mut blues, &mut spectator] {
            let seen = watcher.sees(ply + 1);
            if ply + 1 == GAME.len() {
                assert_eq!(seen["end"]["reason"], "captain", "{}", watcher.who);
            }
        }
    }
    let (_, exported) = a.request("GET", &format!("/api/live/games/{id}/export"), None).unwrap();
    assert_eq!(exported["official"], format!("11\n{}\n", GAME.join("\n")));
}

#[test]
fn two_servers_go_on_through_a_database_restart_losing_nothing_acknowledged() {
    let Some(database) = postgres::Server::start("restart") else { return };
    let url = database.database("games");
    let (a, b) = (
        Server::start(&["--database", url.as_str()]),
        Server::start(&["--database", url.as_str()]),
    );
    let (id, [red, blue]) = a.create();
    let mut reds = Watcher::open(&a, &id, Some(&red), "red on A");
    let mut blues = Watcher::open(&b, &id, Some(&blue), "blue on B");
    assert_eq!(a.play(&id, &red, GAME[0]), Some(200));
    assert_eq!(blues.sees(1)["commands"][0], GAME[0]);
    assert_eq!(b.play(&id, &blue, GAME[1]), Some(200));
    assert_eq!(reds.sees(2)["commands"][1], GAME[1]);

    database.stop();
    // Refused on either server, at once and saying why; nothing is recorded.
    let (status, refused) =
        a.act(&id, &red, json!({"action": "move", "command": GAME[2]})).unwrap();
    assert_eq!((status, refused["reason"].as_str()), (503, Some("store-unavailable")), "{refused}");
    let said = refused["error"].as_str().unwrap_or_default();
    assert!(said.contains("cannot be reached") && said.contains("try again"), "{said}");
    let (status, _) = b.request("GET", &format!("/api/live/games/{id}"), None).unwrap();
    assert_eq!(status, 503);

    database.resume();
    // Both servers connect again by themselves: the move is played, and each page hears the
    // other server's moves again.
    assert_eq!(a.play(&id, &red, GAME[2]), Some(200));
    assert_eq!(blues.sees(3)["commands"][2], GAME[2]);
    assert_eq!(b.play(&id, &blue, GAME[3]), Some(200));
    assert_eq!(reds.sees(4)["commands"][3], GAME[3]);
    assert_eq!(a.commands(&id), GAME[..4]);
    assert_eq!(b.commands(&id), GAME[..4]);
}
