//! `arbiter serve --data-dir DIR` and its store, end to end: one server at a time on a data
//! directory (a second one refuses to start, naming the first), no start on a database that
//! cannot be used, and `arbiter serve backup` of a running server.

#[path = "common/live_server.rs"]
mod live_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use live_server::{GAME, Server};

/// A scratch directory under the build's target directory, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("arbiter-stores-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

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
    let scratch = Scratch::new("second");
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
    let scratch = Scratch::new("damaged");
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
