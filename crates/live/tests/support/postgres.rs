//! A private PostgreSQL server for a test: made by `initdb` in a scratch directory under the
//! build's target directory, listening only on a Unix socket in that directory, and stopped (and
//! its directory removed) when dropped, a failed test's too. Debian's `postgresql` package
//! provides the programs (`/usr/lib/postgresql/VERSION/bin`, or the directory named by
//! `ARBITER_POSTGRES_BIN`). PostgreSQL refuses to run as root: as root, the server runs as the
//! `postgres` user (by `runuser`), which owns the scratch directory.
//!
//! A server may also listen on TCP, on a free port of 127.0.0.1, with TLS only ([`Server::start_tls`]:
//! certificates made by the `openssl` program, which Debian's `postgresql` package brings), and may
//! be stopped and started again under the servers of games that use it ([`Server::stop`],
//! [`Server::resume`]).
//!
//! Without the programs a test is skipped with the reason printed, except under CI (`CI` set),
//! where it fails: CI installs them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The port of a server without TCP, which only names the socket.
const PORT: u16 = 5432;

/// A running private server.
pub struct Server {
    dir: PathBuf,
    bin: PathBuf,
    /// The user the server runs as when the tests run as root.
    user: Option<&'static str>,
    /// The port: of the socket, and of TCP when the server listens there.
    port: u16,
    /// The options `pg_ctl start` passes on, kept to start it again.
    options: String,
}

/// The certificates of a server started with TLS, as PEM files.
pub struct Tls {
    /// The authority that signed the server's certificate (for `localhost` only).
    pub authority: PathBuf,
    /// Another authority, which signed nothing of the server's.
    pub stranger: PathBuf,
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
        let server = Server::make(name, PORT)?;
        // No TCP, the socket in the scratch directory; nothing to make durable for a test
        // that kills servers of games, never the database.
        let options =
            format!("-k {} -p {PORT} -c listen_addresses='' -c fsync=off", server.dir.display());
        server.launch(options)
    }

    /// Starts a server of its own for the test `name` that also listens on TCP, on a free port
    /// of 127.0.0.1, and takes only TLS connections there (and any on its Unix socket).
    pub fn start_tls(name: &str) -> Option<(Server, Tls)> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let server = Server::make(name, port)?;
        let tls = server.certificates();
        std::fs::write(
            server.dir.join("data/pg_hba.conf"),
            "local all all trust\n\
             hostssl all all 127.0.0.1/32 trust\n\
             hostnossl all all 127.0.0.1/32 reject\n",
        )
        .unwrap();
        let dir = server.dir.display().to_string();
        let server = server.launch(format!(
            "-k {dir} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c ssl=on \
             -c ssl_cert_file={dir}/tls/server.crt -c ssl_key_file={dir}/tls/server.key"
        ))?;
        Some((server, tls))
    }

    /// A new server's scratch directory and database cluster, not yet started.
    fn make(name: &str, port: u16) -> Option<Server> {
        let Some(bin) = programs() else {
            return unavailable("no PostgreSQL programs (apt-get install postgresql)");
        };
        let user = is_root().then_some("postgres");
        // Short: a Unix socket's path has room for about 100 bytes.
        let scratch = format!("pg-{name}-{}", std::process::id());
        let mut server =
            Server::scratch(Path::new(env!("CARGO_TARGET_TMPDIR")), &scratch, bin, user, port);
        if !server.writable() {
            // The clone lies where the `postgres` user cannot reach (under /root, say).
            eprintln!("{} is out of the postgres user's reach: /tmp instead", server.dir.display());
            let bin = server.bin.clone();
            drop(server);
            server =
                Server::scratch(Path::new("/tmp"), &format!("arbiter-{scratch}"), bin, user, port);
            assert!(server.writable(), "the postgres user cannot write {}", server.dir.display());
        }
        let data = server.dir.join("data");
        let initdb = server
            .command("initdb")
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D"])
            .arg(&data)
            .output();
        server.check(initdb, "initdb");
        Some(server)
    }

    /// Starts the server with `options`.
    fn launch(mut self, options: String) -> Option<Server> {
        self.options = options;
        self.resume();
        Some(self)
    }

    /// Starts the server again after [`Server::stop`], on the same port and data.
    pub fn resume(&self) {
        let started = self
            .command("pg_ctl")
            .args(["-w", "-D"])
            .arg(self.dir.join("data"))
            .args(["-l"])
            .arg(self.dir.join("log"))
            .args(["-o", &self.options, "start"])
            .output();
        self.check(started, "pg_ctl start");
    }

    /// Stops the server as an operator restarting it does (`pg_ctl stop -m fast`: every
    /// connection is ended, what was committed is kept).
    pub fn stop(&self) {
        let stopped = self
            .command("pg_ctl")
            .args(["-w", "-D"])
            .arg(self.dir.join("data"))
            .args(["-m", "fast", "stop"])
            .output();
        self.check(stopped, "pg_ctl stop");
    }

    /// Makes, by `openssl`, an authority and the server's certificate it signs (for the name
    /// `localhost` only), and another authority; the key is the server user's, readable by it
    /// alone, as PostgreSQL requires.
    fn certificates(&self) -> Tls {
        let tls = self.dir.join("tls");
        std::fs::create_dir_all(&tls).unwrap();
        let openssl = |args: &[&str]| {
            let output = Command::new("openssl").args(args).current_dir(&tls).output();
            self.check(output, &format!("openssl {}", args[0]));
        };
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
        for authority in ["authority", "stranger"] {
            let subject = format!("/CN=arbiter test {authority}");
            let (keyfile, certificate) = (format!("{authority}.key"), format!("{authority}.crt"));
            let mut args = vec!["req", "-x509", "-days", "2", "-subj", &subject];
            args.extend(key);
            args.extend(["-keyout", &keyfile, "-out", &certificate]);
            openssl(&args);
        }
        let mut args = vec!["req", "-subj", "/CN=localhost", "-keyout", "server.key"];
        args.extend(key);
        args.extend(["-out", "server.csr"]);
        openssl(&args);
        std::fs::write(
            tls.join("server.ext"),
            "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n\
             keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        openssl(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "authority.crt",
            "-CAkey",
            "authority.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            "server.crt",
        ]);
        if let Some(user) = self.user {
            self.check(Command::new("chown").args(["-R", user]).arg(&tls).output(), "chown");
        }
        self.check(Command::new("chmod").arg("600").arg(tls.join("server.key")).output(), "chmod");
        Tls { authority: tls.join("authority.crt"), stranger: tls.join("stranger.crt") }
    }

    /// A new scratch directory `name` in `parent`, owned by the server's user.
    fn scratch(
        parent: &Path,
        name: &str,
        bin: PathBuf,
        user: Option<&'static str>,
        port: u16,
    ) -> Server {
        let dir = parent.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let server = Server { dir, bin, user, port, options: String::new() };
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
            .args(["-p", &self.port.to_string(), "-U", "postgres", name])
            .output();
        self.check(created, "createdb");
        self.url(name)
    }

    /// The URL of the database `name`, by the Unix socket.
    pub fn url(&self, name: &str) -> String {
        format!("postgresql:///{name}?host={}&port={}&user=postgres", self.dir.display(), self.port)
    }

    /// The URL of the database `name` by TCP to `host` (`localhost` or `127.0.0.1`), with the
    /// settings `query` (`sslmode=...`).
    pub fn tcp_url(&self, name: &str, host: &str, query: &str) -> String {
        format!("postgresql://postgres@{host}:{}/{name}?{query}", self.port)
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
