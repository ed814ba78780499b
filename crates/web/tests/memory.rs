//! The server's memory under heavy requests: 64 games of 100,000 Duck commands sent at once (1 MiB
//! of JSON each, the largest body), each replayed for its last position. The server runs in a process of its own (this test binary
//! run again as a child), so that its peak resident memory (`VmHWM` in `/proc/PID/status`) is
//! its own and not the clients'.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

/// Set in the child process, which serves instead of testing.
const CHILD: &str = "ARBITER_WEB_MEMORY_TEST_SERVER";

const HEAVY_REQUESTS: usize = 64;
const COMMANDS: usize = 100_000;

/// The bound on the server's peak resident memory, in KiB. The bodies handled at once are bounded
/// to `limits::BODIES_IN_FLIGHT` (8 MiB: 8 of these requests); with it the debug server peaked at
/// 138 MiB on 2026-11-25, without it at 314 MiB.
const PEAK_KIB: u64 = 200 * 1024;
/// The most resident memory a few seconds after the requests, in KiB: what they took is given
/// back (glibc would keep it).
const RESTING_KIB: u64 = 64 * 1024;

/// A field of `/proc/PID/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// Kills the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sends `body` to the Duck position endpoint from the loopback address `127.0.0.<from>` (one
/// address may hold only so many connections) and reads the whole reply; returns its status line.
async fn heavy_request(from: u8, addr: SocketAddr, body: &[u8]) -> String {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0))).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let head = format!(
        "POST /api/duck/position HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut reply = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut reply));
    read.await.unwrap().unwrap();
    String::from_utf8_lossy(&reply).lines().next().unwrap_or_default().to_owned()
}

#[test]
#[cfg(target_os = "linux")]
fn heavy_requests_at_once_keep_the_server_within_its_memory_bound() {
    if std::env::var_os(CHILD).is_some() {
        // The child: serve until killed, after saying where.
        arbiter_web::run("127.0.0.1", 0, &[], |addr| {
            println!("{addr}");
            let _ = std::io::stdout().flush();
        })
        .unwrap();
        return;
    }
    let child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "heavy_requests_at_once_keep_the_server_within_its_memory_bound"])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let pid = server.0.id();
    let mut lines = BufReader::new(server.0.stdout.take().unwrap()).lines();
    // The test harness prints its own words first, on the same line.
    let addr: SocketAddr = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.split_whitespace().last()?.parse().ok())
        .expect("the server's address");
    let commands = vec!["0 3 1 4"; COMMANDS];
    let body = serde_json::to_vec(&serde_json::json!({ "commands": commands })).unwrap();
    let start = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let statuses: Vec<String> = runtime.block_on(async {
        let requests = (0..HEAVY_REQUESTS).map(|n| heavy_request(2 + (n % 8) as u8, addr, &body));
        futures_util::future::join_all(requests).await
    });
    // The memory of the requests is given back once they are done: wait a little for it.
    let peak = status_kib(pid, "VmHWM");
    let mut resting = status_kib(pid, "VmRSS");
    let waited = Instant::now();
    while resting >= RESTING_KIB && waited.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(100));
        resting = status_kib(pid, "VmRSS");
    }
    eprintln!(
        "{HEAVY_REQUESTS} requests of {COMMANDS} commands ({} bytes each) in {:.1} s: peak {} MiB, \
         after {} MiB",
        body.len(),
        start.elapsed().as_secs_f64(),
        peak / 1024,
        resting / 1024
    );
    for status in &statuses {
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    }
    assert!(peak < PEAK_KIB, "peak resident memory {peak} KiB, above {PEAK_KIB} KiB");
    assert!(resting < RESTING_KIB, "resident memory {resting} KiB after the requests");
}
