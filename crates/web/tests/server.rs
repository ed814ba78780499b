//! The server on a real socket, against clients that send slowly, hold connections, come from
//! other sites or reuse a connection after an error: it cuts them off or refuses them, and keeps
//! answering everyone else.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use arbiter_web::{Hosts, limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server on a free loopback port, with `body_time` for bodies, until the sender is used or
/// dropped.
async fn start(body_time: Duration) -> (SocketAddr, oneshot::Sender<()>, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        arbiter_web::serve_with(listener, Hosts::loopback(), body_time, shutdown).await.unwrap();
    });
    (addr, stop, server)
}

/// A connection to `addr` from the loopback address `127.0.0.<from>`.
async fn connect_from(from: u8, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0))).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Reads one response (head and a body of its `Content-Length`) from `stream`.
async fn response(stream: &mut TcpStream) -> (String, String) {
    let mut bytes = Vec::new();
    let mut byte = [0; 1];
    while !bytes.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.unwrap() == 0 {
            panic!("the connection closed after {:?}", String::from_utf8_lossy(&bytes));
        }
        bytes.push(byte[0]);
    }
    let head = String::from_utf8(bytes).unwrap();
    let length = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse().unwrap())
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await.unwrap();
    (head, String::from_utf8(body).unwrap())
}

/// Sends `request` on a new connection and returns the response.
async fn exchange(addr: SocketAddr, request: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    response(&mut stream).await
}

/// A POST of `body` to `path` with the extra header lines `extra` (each ending in CRLF).
fn post(addr: SocketAddr, path: &str, extra: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const MOVE: &str = r#"{"commands": [], "command": "0 3 1 4"}"#;
const JSON: &str = "Content-Type: application/json\r\n";

/// Whether the peer closes `stream` within `within`, reading and dropping whatever it sends.
async fn closes_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut sink = [0; 1024];
    let read = async { while stream.read(&mut sink).await.is_ok_and(|n| n > 0) {} };
    tokio::time::timeout(within, read).await.is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_sending_bodies_slowly_hold_no_place_of_ready_requests() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    // More half-sent bodies than places in progress, from addresses of their own.
    let mut slow = Vec::new();
    for n in 0..limits::IN_FLIGHT + 16 {
        let mut stream = connect_from(10 + (n / 24) as u8, addr).await;
        let head = format!(
            "POST /api/duck/move HTTP/1.1\r\nHost: {addr}\r\n{JSON}Content-Length: 25\r\n\r\n{{"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let (head, body) = exchange(addr, &post(addr, "/api/duck/move", JSON, MOVE)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}{body}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    drop(slow);
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn a_body_too_slow_is_cut_off_with_a_408() {
    let (addr, stop, server) = start(Duration::from_millis(500)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/duck/move HTTP/1.1\r\nHost: {addr}\r\n{JSON}Content-Length: 25\r\n\r\n{{"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let (head, body) = tokio::time::timeout(Duration::from_secs(5), response(&mut stream))
        .await
        .expect("the server answers without waiting for the rest of the body");
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    assert!(head.to_ascii_lowercase().contains("connection: close"), "{head}");
    assert!(body.contains("took over"), "{body}");
    assert!(closes_within(&mut stream, Duration::from_secs(2)).await);
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn headers_too_slow_are_cut_off() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(b"GET /api/ HTTP/1.1\r\nHost: ").await.unwrap();
    let started = Instant::now();
    assert!(closes_within(&mut stream, limits::HEADER_TIME + Duration::from_secs(3)).await);
    assert!(started.elapsed() >= limits::HEADER_TIME - Duration::from_millis(100));
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn one_address_holds_a_bounded_number_of_connections() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let mut held = Vec::new();
    for _ in 0..limits::CONNECTIONS_PER_ADDRESS {
        held.push(connect_from(7, addr).await);
    }
    // Let the server count them all before the next one comes.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut over = connect_from(7, addr).await;
    assert!(closes_within(&mut over, Duration::from_secs(2)).await);
    // Other addresses are served meanwhile, and a place freed is taken again.
    let (head, _) = exchange(addr, &post(addr, "/api/duck/move", JSON, MOVE)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from(7, addr).await;
    again.write_all(post(addr, "/api/duck/move", JSON, MOVE).as_bytes()).await.unwrap();
    let (head, _) = response(&mut again).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn a_kept_alive_connection_survives_404s_and_405s_with_bodies() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = "x".repeat(3000);
    let requests = [
        (post(addr, "/api/nowhere", JSON, &body), "HTTP/1.1 404"),
        (post(addr, "/nowhere", "", &body), "HTTP/1.1 404"),
        (post(addr, "/api/", JSON, &body), "HTTP/1.1 405"),
        (post(addr, "/api/duck/move", JSON, MOVE), "HTTP/1.1 200"),
    ];
    for round in 0..100 {
        for (request, status) in &requests {
            stream.write_all(request.as_bytes()).await.unwrap();
            let (head, _) = response(&mut stream).await;
            assert!(head.starts_with(status), "round {round}: {head}");
            assert!(!head.to_ascii_lowercase().contains("connection: close"), "{head}");
        }
    }
    stop.send(()).unwrap();
    server.await.unwrap();
}

/// Refused and unrouted requests with bodies of every size, many times each: after each, the
/// client is either told `Connection: close` or finds the connection carrying its next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_after_a_refused_request_with_a_body_is_closed_with_notice_or_usable() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let port = addr.port();
    let evil = "Origin: http://evil.example\r\n";
    let wrong_host = |body: &str| {
        format!(
            "POST /api/duck/move HTTP/1.1\r\nHost: evil.example:{port}\r\n{JSON}\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let next = format!("GET /api/ HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    for size in [10, 3_000, 100_000, 600_000] {
        let body = "x".repeat(size);
        let requests = [
            (wrong_host(&body), "HTTP/1.1 403"),
            (post(addr, "/api/duck/move", &format!("{evil}{JSON}"), &body), "HTTP/1.1 403"),
            (post(addr, "/api/nowhere", JSON, &body), "HTTP/1.1 404"),
            (post(addr, "/nowhere", "", &body), "HTTP/1.1 404"),
            (post(addr, "/api/", JSON, &body), "HTTP/1.1 405"),
        ];
        let rounds = if size > 10_000 { 10 } else { 40 };
        for round in 0..rounds {
            for (request, status) in &requests {
                let mut stream = TcpStream::connect(addr).await.unwrap();
                stream.write_all(request.as_bytes()).await.unwrap();
                let (head, _) = response(&mut stream).await;
                assert!(head.starts_with(status), "{size} bytes, round {round}: {head}");
                if head.to_ascii_lowercase().contains("connection: close") {
                    continue;
                }
                stream.write_all(next.as_bytes()).await.unwrap();
                let (head, _) = response(&mut stream).await;
                assert!(head.starts_with("HTTP/1.1 200"), "after {status} of {size} bytes: {head}");
            }
        }
    }
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn other_sites_cannot_use_the_api() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let port = addr.port();
    let ours = format!("Origin: http://{addr}\r\n");
    let evil = "Origin: http://evil.example\r\n";
    let text = "Content-Type: text/plain\r\n";
    let cases = [
        // The pages' own requests, and those of tools that send no Origin.
        (post(addr, "/api/duck/move", &format!("{ours}{JSON}"), MOVE), "200"),
        (post(addr, "/api/duck/move", JSON, MOVE), "200"),
        // A page of another site, with a type it may send freely, or with JSON.
        (post(addr, "/api/duck/engine", &format!("{evil}{text}"), MOVE), "403"),
        (post(addr, "/api/duck/move", &format!("{evil}{JSON}"), MOVE), "403"),
        (post(addr, "/api/duck/move", &format!("Origin: null\r\n{JSON}"), MOVE), "403"),
        // Bodies not sent as JSON.
        (post(addr, "/api/duck/engine", text, MOVE), "415"),
        (post(addr, "/api/duck/move", "", MOVE), "415"),
        (
            post(
                addr,
                "/api/duck/move",
                "Content-Type: application/x-www-form-urlencoded\r\n",
                MOVE,
            ),
            "415",
        ),
        // A name that is not this server's: a site resolved to 127.0.0.1.
        (format!("GET /duck HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n"), "403"),
        (format!("GET /api/ HTTP/1.1\r\nHost: localhost:{}\r\n\r\n", port ^ 1), "403"),
        (format!("GET /duck HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"), "200"),
        (format!("GET /api/ HTTP/1.1\r\nHost: [::1]:{port}\r\n\r\n"), "200"),
    ];
    for (request, status) in cases {
        let (head, body) = exchange(addr, &request).await;
        assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{request}\n{head}{body}");
    }
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_stops_searches_and_drops_half_sent_requests() {
    let (addr, stop, server) = start(limits::BODY_TIME).await;
    let mut half = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/duck/move HTTP/1.1\r\nHost: {addr}\r\n{JSON}Content-Length: 25\r\n\r\n{{"
    );
    half.write_all(head.as_bytes()).await.unwrap();
    let mut search = TcpStream::connect(addr).await.unwrap();
    let long = r#"{"commands": [], "movetime": 10000}"#;
    search.write_all(post(addr, "/api/duck/engine", JSON, long).as_bytes()).await.unwrap();
    // Wait for the search to start.
    let mut first = [0; 64];
    assert!(search.read(&mut first).await.unwrap() > 0);
    let started = Instant::now();
    stop.send(()).unwrap();
    server.await.unwrap();
    assert!(
        started.elapsed() < limits::SHUTDOWN + Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // The search answered its best move so far, long before its 10 s.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), search.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the search's connection is closed");
    assert!(String::from_utf8_lossy(&rest).contains(r#""event":"best""#), "{rest:?}");
    assert!(closes_within(&mut half, Duration::from_secs(1)).await);
}
