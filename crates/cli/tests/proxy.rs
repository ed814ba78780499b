//! `arbiter serve` behind nginx, as docs/deploy.md deploys it: Debian's nginx, started by the
//! test as an unprivileged user on free ports, with the site of `deploy/nginx/arbiter.conf`
//! (only its ports and certificate paths changed) and a certificate made for the test, in front
//! of `arbiter serve --trusted-proxy 127.0.0.1 --public-url https://localhost:PORT`. Through it:
//! the pages, a live game played over HTTPS and watched over a secure WebSocket, the per-client
//! limits counting the clients nginx forwards (not nginx), and a forged `X-Forwarded-For`
//! ignored, through nginx and from a peer that is not trusted.
//!
//! Without nginx or openssl the test is skipped with the reason printed, except under CI (`CI`
//! set), where it fails: CI installs them.

#[path = "common/live_server.rs"]
mod live_server;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};
use tungstenite::Message;

/// The site as deployed.
const SITE: &str = include_str!("../../../deploy/nginx/arbiter.conf");

/// Skips the test (returns `None`) with `reason`, or fails it under CI.
fn skip<T>(reason: &str) -> Option<T> {
    assert!(std::env::var_os("CI").is_none(), "needed under CI: {reason}");
    eprintln!("skipped: {reason}");
    None
}

/// A port free now on 127.0.0.1.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `text` with `from` replaced by `to`, which must be in it: the site and the test must not
/// drift apart unseen.
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "deploy/nginx/arbiter.conf no longer has `{from}`");
    text.replace(from, to)
}

/// Processes and files of the test, stopped and removed when dropped.
struct Scene {
    dir: PathBuf,
    children: Vec<Child>,
}

impl Drop for Scene {
    fn drop(&mut self) {
        for child in &mut self.children {
            // SIGTERM: nginx's master stops its workers before it exits (killed, it would leave
            // them running).
            let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
            // SAFETY: a signal to a child of this process, not yet waited for.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            for _ in 0..100 {
                if child.try_wait().is_ok_and(|status| status.is_some()) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether this process runs as root (nginx is then run as `nobody`).
fn root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// Whether any user may pass through every directory above `dir` (a clone made in a private
/// directory, as `mktemp -d` makes, is closed to others).
fn others_reach(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    dir.ancestors()
        .skip(1)
        .all(|above| std::fs::metadata(above).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
}

/// nginx in `dir`, serving the site with arbiter at `upstream`, HTTPS on `tls` and plain HTTP
/// on `plain`; `None` (skipped) when nginx or openssl is missing.
fn nginx(scene: &mut Scene, upstream: SocketAddr, tls: u16, plain: u16) -> Option<()> {
    let dir = scene.dir.clone();
    let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].into_iter().find(|p| Path::new(p).exists());
    let Some(nginx) = nginx else { return skip("no nginx (apt-get install nginx)") };
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj"])
        .args(["/CN=localhost", "-addext", "subjectAltName=DNS:localhost"])
        // A certificate for the server, not an authority: rustls refuses an authority's.
        .args(["-addext", "basicConstraints=critical,CA:FALSE", "-addext"])
        .args(["extendedKeyUsage=serverAuth", "-keyout"])
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !made.is_ok_and(|status| status.success()) {
        return skip("no openssl to make the test's certificate (apt-get install openssl)");
    }
    let path = |name: &str| dir.join(name).display().to_string();
    let mut site = replaced(SITE, "server 127.0.0.1:8080;", &format!("server {upstream};"));
    site = replaced(&site, "listen 80;", &format!("listen 127.0.0.1:{plain};"));
    site = replaced(&site, "listen [::]:80;", "");
    site = replaced(&site, "listen 443 ssl;", &format!("listen 127.0.0.1:{tls} ssl;"));
    site = replaced(&site, "listen [::]:443 ssl;", "");
    site =
        replaced(&site, "/etc/letsencrypt/live/arbiter.example/fullchain.pem", &path("cert.pem"));
    site = replaced(&site, "/etc/letsencrypt/live/arbiter.example/privkey.pem", &path("key.pem"));
    std::fs::write(dir.join("site.conf"), site).unwrap();
    // Everything nginx writes stays in the directory: no root needed.
    let temp = |name: &str| format!("{name}_temp_path {};", path(name));
    // As root, nginx runs as `nobody` where `nobody` can reach the directory, else as root
    // itself (its workers too, which would otherwise be `nobody`).
    let unprivileged = root() && others_reach(&dir);
    let user = if root() && !unprivileged { "user root;\n" } else { "" };
    let main = format!(
        "{user}worker_processes 1;\npid {pid};\nerror_log {log};\nevents {{ worker_connections 512; }}\n\
         http {{\n access_log off;\n {} {} {} {} {}\n include {site};\n}}\n",
        temp("client_body"),
        temp("proxy"),
        temp("fastcgi"),
        temp("uwsgi"),
        temp("scgi"),
        pid = path("nginx.pid"),
        log = path("error.log"),
        site = path("site.conf"),
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    let args = ["-p", &path(""), "-c", &path("nginx.conf"), "-e", &path("error.log")];
    let mut command = if unprivileged {
        // nginx is started as an unprivileged user, which must own its directory; `setpriv`
        // becomes nginx itself, so that stopping the child stops nginx.
        let owned = Command::new("chown").args(["-R", "nobody"]).arg(&dir).status().unwrap();
        assert!(owned.success());
        let mut command = Command::new("setpriv");
        command.args(["--reuid=nobody", "--regid=65534", "--clear-groups", "--", nginx]);
        command
    } else {
        Command::new(nginx)
    };
    let child = command
        .args(args)
        .args(["-g", "daemon off;"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("nginx starts");
    scene.children.push(child);
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", tls)).is_ok() {
            return Some(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
    panic!("nginx does not listen on {tls}: {log}");
}

/// A TLS connection to nginx on `port`, from `127.0.0.<from>`, trusting the test's certificate.
type Tls = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

fn tls(dir: &Path, from: u8, port: u16) -> Tls {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from_pem_file(dir.join("cert.pem")).unwrap()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    let connection = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    rustls::StreamOwned::new(connection, TcpStream::connect_from(from, port))
}

/// Connecting from a chosen loopback address, as separate clients would.
trait ConnectFrom {
    fn connect_from(from: u8, port: u16) -> TcpStream;
}

impl ConnectFrom for TcpStream {
    fn connect_from(from: u8, port: u16) -> TcpStream {
        // std cannot bind before connecting: the socket is made with libc.
        use std::os::fd::FromRawFd;
        // SAFETY: a new socket, bound and connected here, then owned by the `TcpStream`.
        unsafe {
            let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            assert!(fd >= 0);
            let address = |ip: [u8; 4], port: u16| libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: port.to_be(),
                sin_addr: libc::in_addr { s_addr: u32::from_ne_bytes(ip) },
                sin_zero: [0; 8],
            };
            let size = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
            let local = address([127, 0, 0, from], 0);
            assert_eq!(libc::bind(fd, (&raw const local).cast(), size), 0);
            let remote = address([127, 0, 0, 1], port);
            assert_eq!(libc::connect(fd, (&raw const remote).cast(), size), 0);
            let stream = TcpStream::from_raw_fd(fd);
            stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            stream
        }
    }
}

/// One request on a new connection: the status and the body, JSON where it is.
fn request(
    stream: &mut impl ReadWrite,
    host: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: Option<&Value>,
) -> (u16, String) {
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = Vec::new();
    // A TLS peer that closes without notice is still an answer read whole.
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, body.to_owned())
}

trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}

/// A WebSocket opened with `extra` headers, or the refusal's status.
fn socket<S: Read + Write>(
    stream: S,
    url: &str,
    extra: &[(&str, &str)],
) -> Result<tungstenite::WebSocket<S>, u16> {
    use tungstenite::client::IntoClientRequest;
    let mut request = url.into_client_request().unwrap();
    for (name, value) in extra {
        let name = tungstenite::http::HeaderName::try_from(*name).unwrap();
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    match tungstenite::client(request, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(response.status().as_u16())
        }
        Err(error) => panic!("the handshake failed: {error}"),
    }
}

/// Reads a socket's messages (the whole game, then its changes) into `commands` until the game
/// has `plies` of them.
fn sees(
    socket: &mut tungstenite::WebSocket<impl Read + Write>,
    commands: &mut Vec<Value>,
    plies: usize,
) {
    while commands.len() < plies || commands.is_empty() && plies == 0 {
        let message = socket.read().expect("the socket shows the game");
        let Message::Text(text) = message else { continue };
        let value: Value = serde_json::from_str(text.as_str()).unwrap();
        if let Some(whole) = value["game"]["commands"].as_array() {
            *commands = whole.clone();
            if plies == 0 {
                return;
            }
        } else if let Some(keep) = value["delta"]["keep"].as_u64() {
            commands.truncate(keep as usize);
            commands.extend(value["delta"]["commands"].as_array().into_iter().flatten().cloned());
        }
    }
}

#[test]
fn through_nginx_pages_and_live_games_are_served_and_limits_count_the_forwarded_client() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("proxy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut scene = Scene { dir: dir.clone(), children: Vec::new() };
    let (tls_port, plain_port) = (free_port(), free_port());
    let public = format!("https://localhost:{tls_port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir.join("data"))
        .args(["--trusted-proxy", "127.0.0.1", "--public-url", &public])
        .args(["--max-sockets-per-client", "2", "--max-games-per-client", "3"])
        .args(["--log-format", "json"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(dir.join("serve.log")).unwrap())
        .spawn()
        .expect("arbiter runs");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    scene.children.push(server);
    let upstream: SocketAddr = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("http://"))
        .and_then(|url| url.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    if nginx(&mut scene, upstream, tls_port, plain_port).is_none() {
        return;
    }
    let host = format!("localhost:{tls_port}");
    let origin = format!("Origin: {public}\r\n");
    let via = |from: u8| tls(&dir, from, tls_port);

    // The pages, over HTTPS; plain HTTP is sent there.
    for page in ["/", "/duck/games", "/assets/games.js"] {
        assert_eq!(request(&mut via(2), &host, "GET", page, "", None).0, 200, "{page}");
    }
    let (status, _) =
        request(&mut TcpStream::connect_from(2, plain_port), "localhost", "GET", "/duck", "", None);
    assert_eq!(status, 301);

    // A live game: created and joined from the site's own pages, played, and watched over a
    // secure WebSocket.
    let new = json!({"name": "Ann", "color": "red"});
    let (status, created) =
        request(&mut via(2), &host, "POST", "/api/live/games", &origin, Some(&new));
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let (red, blue) = (created["token"].clone(), created["invite"].clone());
    // The links given are the site's public ones.
    assert_eq!(created["url"], format!("{public}/duck/game/{id}"));
    assert_eq!(
        created["invite_url"],
        format!("{public}/duck/game/{id}#seat={}", blue.as_str().unwrap())
    );
    let act = format!("/api/live/games/{id}/act");
    let join = json!({"token": blue, "action": "join", "name": "Bob"});
    assert_eq!(request(&mut via(3), &host, "POST", &act, &origin, Some(&join)).0, 200);
    let url = format!("wss://{host}/api/live/games/{id}/socket");
    let mut watching = socket(via(4), &url, &[("origin", &public)]).expect("a secure socket");
    watching.send(Message::text(json!({"hello": null}).to_string())).unwrap();
    let mut commands = Vec::new();
    sees(&mut watching, &mut commands, 0);
    for (ply, command) in live_server::GAME[..2].iter().enumerate() {
        let token = if ply % 2 == 0 { &red } else { &blue };
        let body = json!({"token": token, "action": "move", "command": command});
        let (status, view) = request(&mut via(2), &host, "POST", &act, &origin, Some(&body));
        assert_eq!(status, 200, "{view}");
        sees(&mut watching, &mut commands, ply + 1);
        assert_eq!(commands[ply], *command);
    }
    // Another site's page cannot use the API through the proxy either.
    let evil = "Origin: https://evil.example\r\n";
    assert_eq!(request(&mut via(2), &host, "POST", &act, evil, Some(&json!({}))).0, 403);

    // Each client nginx forwards has its own limits: two sockets each, a forged header or not.
    let mut held = Vec::new();
    let forged = [("x-forwarded-for", "192.0.2.77")];
    held.push(socket(via(5), &url, &[]).unwrap());
    held.push(socket(via(5), &url, &forged).unwrap());
    assert_eq!(socket(via(5), &url, &forged).err(), Some(429));
    assert_eq!(socket(via(5), &url, &[("x-forwarded-for", "192.0.2.78")]).err(), Some(429));
    held.push(socket(via(6), &url, &[]).expect("another client is not held back"));
    // Games created: three a client.
    for n in 0..4 {
        let (status, body) =
            request(&mut via(7), &host, "POST", "/api/live/games", &origin, Some(&json!({})));
        let expected = if n < 3 { 201 } else { 429 };
        assert_eq!(status, expected, "game {n}: {body}");
        if n == 3 {
            assert!(body.contains("max-games-per-client"), "{body}");
        }
    }
    let (status, _) =
        request(&mut via(8), &host, "POST", "/api/live/games", &origin, Some(&json!({})));
    assert_eq!(status, 201);

    // Straight to arbiter from a peer it does not trust, the header is ignored: the peer is
    // the client, and holds two sockets at most whatever it says.
    let direct = format!("ws://{upstream}/api/live/games/{id}/socket");
    let straight = |from: u8| TcpStream::connect_from(from, upstream.port());
    let mut direct_held = Vec::new();
    for n in 0..2 {
        let header = format!("192.0.2.{n}");
        direct_held.push(socket(straight(9), &direct, &[("x-forwarded-for", &header)]).unwrap());
    }
    let refused = socket(straight(9), &direct, &[("x-forwarded-for", "192.0.2.9")]);
    assert_eq!(refused.err(), Some(429));
    drop((held, direct_held));

    // The log names the clients refused as nginx forwarded them, not nginx.
    let log = std::fs::read_to_string(dir.join("serve.log")).unwrap();
    let refusals: Vec<(String, String)> = log
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["fields"]["message"] == "request refused")
        .map(|line| {
            let field = |name: &str| line["fields"][name].as_str().unwrap_or_default().to_owned();
            (field("client"), field("limit"))
        })
        .collect();
    for expected in [
        ("127.0.0.5", "max-sockets-per-client"),
        ("127.0.0.7", "max-games-per-client"),
        ("127.0.0.9", "max-sockets-per-client"),
    ] {
        let expected = (expected.0.to_owned(), expected.1.to_owned());
        assert!(refusals.contains(&expected), "{expected:?} not in {refusals:?}\n{log}");
    }
    assert!(refusals.iter().all(|(client, _)| client != "127.0.0.1"), "{refusals:?}");
}
