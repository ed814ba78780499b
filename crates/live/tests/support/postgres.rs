//! A private PostgreSQL server for a test: made by `initdb` in a scratch directory under the
//! build's target directory, listening only on a Unix socket in that directory, and stopped (and
//! its directory removed) when dropped, a failed test's too. Debian's `postgresql` package
//! provides the programs (`/usr/lib/postgresql/VERSION/bin`, or the directory named by
//! `ARBITER_POSTGRES_BIN`). PostgreSQL refuses to run as root: as root, the server runs as the
//! `postgres` user (by `runuser`), which owns the scratch directory.
//!
//! Without the programs a test is skipped with the reason printed, except under CI (`CI` set),
//! where it fails: CI installs them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The port, which only names the socket: nothing listens on TCP.
const PORT: &str = "5432";

/// A running private server.
pub struct Server {
    dir: PathBuf,
    bin: PathBuf,
    /// The user the server runs as when the tests run as root.
    user: Option<&'static str>,
}

/// The directory of the PostgreSQL programs: `ARBITER_POSTGRES_BIN`, else the newest version
/// under `/usr/lib/postgresql`.
fn programs() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ARBITER_POSTGRES_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Skips the test (returns `None`) with `reason`, or fails it under CI.
fn unavailable(reason: &str) -> Option<Server> {
    assert!(std::env::var_os("CI").is_none(), "PostgreSQL is needed under CI: {reason}");
    eprintln!("skipped: {reason}");
    None
}

impl Server {
    /// Starts a server of its own for the test `name`, or `None` (the reason printed) where
    /// PostgreSQL is not installed.
    pub fn start(name: &str) -> Option<Server> {
        let Some(bin) = programs() else {
            return unavailable("no PostgreSQL programs (apt-get install postgresql)");
        };
        let user = is_root().then_some("postgres");
        // Short: a Unix socket's path has room for about 100 bytes.
        let scratch = format!("pg-{name}-{}", std::process::id());
        let mut server =
            Server::scratch(Path::new(env!("CARGO_TARGET_TMPDIR")), &scratch, bin, user);
        if !server.writable() {
            // The clone lies where the `postgres` user cannot reach (under /root, say).
            eprintln!("{} is out of the postgres user's reach: /tmp instead", server.dir.display());
            let bin = server.bin.clone();
            drop(server);
            server = Server::scratch(Path::new("/tmp"), &format!("arbiter-{scratch}"), bin, user);
            assert!(server.writable(), "the postgres user cannot write {}", server.dir.display());
        }
        let data = server.dir.join("data");
        let initdb = server
            .command("initdb")
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D"])
            .arg(&data)
            .output();
        server.check(initdb, "initdb");
        // No TCP, the socket in the scratch directory; nothing to make durable for a test
        // that kills servers of games, never the database.
        let options =
            format!("-k {} -p {PORT} -c listen_addresses='' -c fsync=off", server.dir.display());
        let started = server
            .command("pg_ctl")
            .args(["-w", "-D"])
            .arg(&data)
            .args(["-l"])
            .arg(server.dir.join("log"))
            .args(["-o", &options, "start"])
            .output();
        server.check(started, "pg_ctl start");
        Some(server)
    }

    /// A new scratch directory `name` in `parent`, owned by the server's user.
    fn scratch(parent: &Path, name: &str, bin: PathBuf, user: Option<&'static str>) -> Server {
        let dir = parent.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let server = Server { dir, bin, user };
        if let Some(user) = user {
            server.check(Command::new("chown").arg(user).arg(&server.dir).output(), "chown");
        }
        server
    }

    /// Whether the server's user can write in the scratch directory.
    fn writable(&self) -> bool {
        match self.user {
            Some(user) => Command::new("runuser")
                .args(["-u", user, "--", "test", "-w"])
                .arg(&self.dir)
                .status()
                .is_ok_and(|status| status.success()),
            None => true,
        }
    }

    /// A PostgreSQL program, run as the server's user.
    fn command(&self, program: &str) -> Command {
        match self.user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(self.bin.join(program));
                command
            }
            None => Command::new(self.bin.join(program)),
        }
    }

    /// Panics with the program's output (and the server's log) if it failed.
    fn check(&self, output: std::io::Result<Output>, what: &str) {
        let output = output.unwrap_or_else(|error| panic!("{what} does not run: {error}"));
        if !output.status.success() {
            let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
            panic!(
                "{what} failed: {}{}\n{log}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }

    /// Creates the database `name` and gives its URL.
    pub fn database(&self, name: &str) -> String {
        let created = self
            .command("createdb")
            .args(["-h"])
            .arg(&self.dir)
            .args(["-p", PORT, "-U", "postgres", name])
            .output();
        self.check(created, "createdb");
        self.url(name)
    }

    /// The URL of the database `name`, by the Unix socket.
    pub fn url(&self, name: &str) -> String {
        format!("postgresql:///{name}?host={}&port={PORT}&user=postgres", self.dir.display())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .args(["-D"])
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
