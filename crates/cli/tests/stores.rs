//! `arbiter serve --data-dir DIR` and its store, end to end: one server at a time on a data
//! directory (a second one refuses to start, naming the first), no start on a database that
//! cannot be used, and `arbiter serve backup` of a running server.

#[path = "common/live_server.rs"]
mod live_server;

#[path = "common/scratch.rs"]
mod scratch;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use live_server::{GAME, Server};
use scratch::Scratch;

/// `arbiter serve --port 0 --data-dir DIR` run to its end (it must not start): its output.
fn refused_start(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// SIGTERM, and the clean exit that follows.
fn stop(server: &mut Server) {
    let pid = libc::pid_t::try_from(server.child().id()).unwrap();
    // SAFETY: a signal to our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert!(server.child().wait().unwrap().success());
}

#[test]
fn a_second_server_on_a_data_directory_refuses_to_start_naming_the_first() {
    let scratch = Scratch::new("stores-second");
    let dir = scratch.join("games");
    let mut first = Server::start(&["--data-dir".as_ref(), dir.as_os_str()]);
    let (id, [red, blue]) = first.create();
    assert_eq!(first.play(&id, &red, GAME[0]), Some(200));
    let pid = first.child().id();
    let output = refused_start(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "it never listened");
    assert!(stderr.contains(&format!("pid {pid},")), "{stderr}");
    assert!(stderr.contains("in use by another arbiter server"), "{stderr}");
    assert!(stderr.contains(&dir.display().to_string()), "{stderr}");
    // The first one goes on, its games its own.
    assert_eq!(first.play(&id, &blue, GAME[1]), Some(200));
    assert_eq!(first.commands(&id), GAME[..2]);
    // Once it is gone (even by kill -9), the directory is free.
    first.kill();
    let second = Server::start(&["--data-dir".as_ref(), dir.as_os_str()]);
    assert_eq!(second.commands(&id), GAME[..2]);
}

#[test]
fn a_server_does_not_start_on_a_damaged_database() {
    let scratch = Scratch::new("stores-damaged");
    let dir = scratch.join("games");
    let mut server = Server::start(&["--data-dir".as_ref(), dir.as_os_str()]);
    let (id, [red, blue]) = server.create();
    assert_eq!(server.play(&id, &red, GAME[0]), Some(200));
    assert_eq!(server.play(&id, &blue, GAME[1]), Some(200));
    // Stopped cleanly, the server folds its write-ahead log into the database file.
    stop(&mut server);
    let file = dir.join("arbiter.sqlite3");
    let mut bytes = std::fs::read(&file).unwrap();
    let page = 4096;
    assert!(bytes.len() >= 4 * page, "{} bytes", bytes.len());
    bytes[2 * page..3 * page].fill(0);
    std::fs::write(&file, &bytes).unwrap();
    let _ = std::fs::remove_file(dir.join("arbiter.sqlite3-wal"));
    let output = refused_start(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "it never listened");
    assert!(stderr.contains("arbiter.sqlite3") && stderr.contains("damaged"), "{stderr}");
    assert!(stderr.contains("backup"), "{stderr}");
}

/// A move acknowledged by the server: the game, and when the answer came.
struct Acknowledged {
    game: usize,
    at: Instant,
}

/// Plays `game` to its end with `tokens` through `client`, a move at a time, waiting out the
/// action quota's 429s; each move answered 200 is sent to `acknowledged`.
fn play_through(
    client: &live_server::Client,
    game: usize,
    (id, tokens): &(String, [String; 2]),
    acknowledged: &std::sync::mpsc::Sender<Acknowledged>,
) {
    for (ply, command) in GAME.iter().enumerate() {
        loop {
            match client.play(id, &tokens[ply % 2], command) {
                Some(200) => break,
                Some(429) => std::thread::sleep(Duration::from_millis(100)),
                other => panic!("game {game}, ply {ply}: {other:?}"),
            }
        }
        acknowledged.send(Acknowledged { game, at: Instant::now() }).unwrap();
    }
}

/// The commands of each of `games` in the store restored from the backup `copy` (a server
/// started on a data directory holding only it).
fn restored(copy: &Path, into: &Path, games: &[(String, [String; 2])]) -> Vec<Vec<String>> {
    std::fs::create_dir_all(into).unwrap();
    std::fs::copy(copy, into.join("arbiter.sqlite3")).unwrap();
    let server = Server::start(&["--data-dir".as_ref(), into.as_os_str()]);
    games.iter().map(|(id, _)| server.commands(id)).collect()
}

#[test]
fn a_backup_taken_while_moves_are_committed_restores_every_acknowledged_move() {
    let scratch = Scratch::new("stores-backup");
    let dir = scratch.join("games");
    let server = Server::start(&["--data-dir".as_ref(), dir.as_os_str()]);
    let games: Vec<_> = (0..6).map(|_| server.create()).collect();
    let (sender, acknowledged) = std::sync::mpsc::channel();
    let players: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(game, created)| {
            let (client, created, sender) = ((*server).clone(), created.clone(), sender.clone());
            std::thread::spawn(move || play_through(&client, game, &created, &sender))
        })
        .collect();
    drop(sender);
    // Backups, one after another, until the players are done: (when each began, its file).
    let mut backups = Vec::new();
    while players.iter().any(|player| !player.is_finished()) || backups.len() < 3 {
        let out = scratch.join(&format!("backup-{}.sqlite3", backups.len()));
        let began = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "backup", "--data-dir"])
            .arg(&dir)
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
        assert!(
            stdout.contains("games") && stdout.contains(&out.display().to_string()),
            "{stdout}"
        );
        backups.push((began, out));
        // A dozen or so over the players' few seconds: each is restored and checked below.
        std::thread::sleep(Duration::from_millis(300));
    }
    for player in players {
        player.join().unwrap();
    }
    let acknowledged: Vec<Acknowledged> = acknowledged.iter().collect();
    assert_eq!(acknowledged.len(), games.len() * GAME.len());
    // The server went on meanwhile, and still does.
    assert_eq!(server.commands(&games[0].0), GAME);
    let mut during = 0;
    for (index, (began, copy)) in backups.iter().enumerate() {
        let restored = restored(copy, &scratch.join(&format!("restored-{index}")), &games);
        for (game, commands) in restored.iter().enumerate() {
            // Every move acknowledged before the backup began is in it; nothing that was not
            // played is, and each game is whole up to where it stands (one consistent state).
            let before = acknowledged.iter().filter(|a| a.game == game && a.at < *began).count();
            assert!(commands.len() >= before, "backup {index}, game {game}: {commands:?}");
            assert_eq!(commands[..], GAME[..commands.len()], "backup {index}, game {game}");
            if (1..GAME.len()).contains(&commands.len()) {
                during += 1;
            }
        }
    }
    assert!(during > 0, "no backup was taken while a game was under way");
    eprintln!("{} backups, {during} games caught under way", backups.len());
    // A backup taken once every move is acknowledged restores every one.
    let last = scratch.join("last.sqlite3");
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "backup", "--data-dir"])
        .arg(&dir)
        .arg(&last)
        .output()
        .unwrap();
    assert!(output.status.success());
    for commands in restored(&last, &scratch.join("restored-last"), &games) {
        assert_eq!(commands, GAME);
    }
}

#[test]
fn a_backup_never_writes_over_the_store_and_says_why_it_cannot_run() {
    let scratch = Scratch::new("stores-backup-refused");
    let dir = scratch.join("games");
    let server = Server::start(&["--data-dir".as_ref(), dir.as_os_str()]);
    let (id, [red, _]) = server.create();
    assert_eq!(server.play(&id, &red, GAME[0]), Some(200));
    let backup = |dir: &Path, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "backup", "--data-dir"])
            .arg(dir)
            .arg(out)
            .output()
            .unwrap()
    };
    let store = dir.join("arbiter.sqlite3");
    let before = std::fs::metadata(&store).unwrap().len();
    for (from, out, says) in [
        (dir.clone(), store.clone(), "store's own file"),
        (dir.clone(), dir.join("arbiter.sqlite3-wal"), "store's own file"),
        (dir.clone(), dir.clone(), "is a directory"),
        (scratch.join("nothing"), scratch.join("copy.sqlite3"), "holds no store"),
        (dir.clone(), scratch.join("missing/copy.sqlite3"), "missing"),
    ] {
        let output = backup(&from, &out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{out:?}: {stderr}");
        assert!(stderr.starts_with("arbiter serve backup: "), "{stderr}");
        assert!(stderr.contains(says), "{out:?}: {stderr}");
    }
    assert_eq!(std::fs::metadata(&store).unwrap().len(), before);
    assert_eq!(server.commands(&id), GAME[..1]);
    // A good copy replaces an older one whole, and no temporary file is left beside it.
    let copy = scratch.join("copy.sqlite3");
    std::fs::write(&copy, "an older backup").unwrap();
    assert!(backup(&dir, &copy).status.success());
    assert!(std::fs::read(&copy).unwrap().starts_with(b"SQLite format 3\0"));
    let left: Vec<_> = std::fs::read_dir(&scratch.0)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
