//! The live games' WebSockets on a real socket, against clients that hold, churn or flood them:
//! an open socket counts in the connection caps (per client and in all), a client holds a
//! bounded number and opens them at a bounded rate, one that sends pings without reading is cut
//! off, and behind a trusted proxy every limit counts the client it forwards (an IPv6 client by
//! its /64), while the same headers from anyone else are ignored. Each refusal names its limit.

use std::net::SocketAddr;
use std::time::Duration;

use arbiter_web::{Config, Limits, proxy};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// A server with `config` on a free loopback port, until the sender is used or dropped.
async fn start(config: Config) -> (SocketAddr, oneshot::Sender<()>, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        arbiter_web::serve_config(listener, config, shutdown).await.unwrap();
    });
    (addr, stop, server)
}

/// A connection to `addr` from the loopback address `127.0.0.<from>`.
async fn connect_from(from: u8, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0))).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `request` from `127.0.0.<from>` and reads the whole answer: its head and its body.
async fn exchange(from: u8, addr: SocketAddr, request: &str) -> (String, String) {
    let mut stream = connect_from(from, addr).await;
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_owned(), body.to_owned())
}

/// `GET path`, closing the connection after.
fn get(addr: SocketAddr, path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n")
}

/// A new game's id, created from `127.0.0.<from>`.
async fn game(from: u8, addr: SocketAddr) -> String {
    let body = r#"{"name": "Ann"}"#;
    let request = format!(
        "POST /api/live/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, body) = exchange(from, addr, &request).await;
    assert!(head.starts_with("HTTP/1.1 201"), "{head}{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    // Without a public URL, the links are the address the client used.
    assert_eq!(created["url"], format!("http://{addr}/duck/game/{id}"));
    id
}

type Socket = WebSocketStream<TcpStream>;

/// Opens the socket of game `id` from `127.0.0.<from>` with the extra headers `extra`: the
/// socket, having read its first message, or the refusal's status line and body.
async fn open(
    from: u8,
    addr: SocketAddr,
    id: &str,
    extra: &[(&str, &str)],
) -> Result<Socket, (String, String)> {
    let stream = connect_from(from, addr).await;
    let mut request =
        format!("ws://{addr}/api/live/games/{id}/socket").into_client_request().unwrap();
    for (name, value) in extra {
        let name = tokio_tungstenite::tungstenite::http::HeaderName::try_from(*name).unwrap();
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    match tokio_tungstenite::client_async(request, stream).await {
        Ok((mut socket, _)) => {
            let first = tokio::time::timeout(Duration::from_secs(10), socket.next()).await;
            assert!(matches!(first, Ok(Some(Ok(Message::Text(_))))), "{first:?}");
            Ok(socket)
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default();
            let retry =
                response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
            Err((format!("{} retry-after={retry:?}", response.status()), body.into_owned()))
        }
        Err(error) => panic!("the handshake failed: {error}"),
    }
}

/// The `limit` a refusal's JSON body names.
fn limit(body: &str) -> String {
    let value: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    value["limit"].as_str().unwrap_or_default().to_owned()
}

/// Retries `attempt` until it gives `Some`, for what the server lets go a moment after a
/// client closes (at most 5 s).
async fn eventually<T, F: Future<Output = Option<T>>>(mut attempt: impl FnMut() -> F) -> T {
    for _ in 0..100 {
        if let Some(done) = attempt().await {
            return done;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never")
}

#[tokio::test]
async fn open_sockets_count_in_the_connections_of_their_client_and_in_all() {
    let limits = Limits { connections: 6, connections_per_client: 4, ..Limits::default() };
    let (addr, stop, server) = start(Config { limits, ..Config::default() }).await;
    let id = game(2, addr).await;
    let mut sockets = Vec::new();
    for _ in 0..4 {
        sockets.push(open(3, addr, &id, &[]).await.unwrap());
    }
    // The client's four sockets are its four connections: a fifth is refused, naming the limit.
    let (head, body) = exchange(3, addr, &get(addr, "/api/", "")).await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    assert!(head.to_ascii_lowercase().contains("retry-after: 1"), "{head}");
    assert_eq!(limit(&body), "max-connections-per-client", "{body}");
    assert!(body.contains("--max-connections-per-client"), "{body}");
    // Six sockets are all the server holds.
    sockets.push(open(4, addr, &id, &[]).await.unwrap());
    sockets.push(open(4, addr, &id, &[]).await.unwrap());
    let (head, body) = exchange(5, addr, &get(addr, "/api/", "")).await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert_eq!(limit(&body), "max-connections", "{body}");
    // A socket closed gives its place back.
    let mut closed = sockets.pop().unwrap();
    closed.close(None).await.unwrap();
    drop(closed);
    eventually(|| async {
        let (head, _) = exchange(5, addr, &get(addr, "/api/", "")).await;
        head.starts_with("HTTP/1.1 200").then_some(())
    })
    .await;
    drop(sockets);
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn a_client_holds_a_bounded_number_of_sockets_and_opens_them_at_a_bounded_rate() {
    let limits = Limits { sockets_per_client: 2, ..Limits::default() };
    let (addr, stop, server) = start(Config { limits, ..Config::default() }).await;
    let id = game(2, addr).await;
    let first = open(6, addr, &id, &[]).await.unwrap();
    let second = open(6, addr, &id, &[]).await.unwrap();
    let (status, body) = open(6, addr, &id, &[]).await.err().unwrap();
    assert!(status.starts_with("429"), "{status}");
    assert_eq!(limit(&body), "max-sockets-per-client", "{body}");
    assert!(open(7, addr, &id, &[]).await.is_ok());
    drop((first, second));
    // Opened and closed again and again, as a client churning spectators would.
    let mut refused = None;
    for _ in 0..arbiter_web::limits::SOCKET_OPENS + 5 {
        match open(8, addr, &id, &[]).await {
            Ok(mut socket) => socket.close(None).await.unwrap(),
            Err((status, body)) => {
                refused = Some((status, body));
                break;
            }
        }
    }
    let (status, body) = refused.expect("the churn is refused");
    assert!(status.starts_with("429") && status.contains("retry-after=Some"), "{status}");
    assert_eq!(limit(&body), "socket-opens", "{body}");
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn a_socket_sending_pings_without_reading_is_cut_off() {
    let (addr, stop, server) = start(Config::default()).await;
    let id = game(2, addr).await;
    let socket = open(9, addr, &id, &[]).await.unwrap();
    // Only the sending half is used: nothing the server sends is read.
    let (mut sender, _unread) = socket.split();
    let ping = Message::Ping(Bytes::from(vec![7; 125]));
    let mut sent = 0;
    let cut = loop {
        if sent == 100_000 {
            break false;
        }
        let sending = tokio::time::timeout(Duration::from_secs(20), sender.send(ping.clone()));
        match sending.await {
            Ok(Ok(())) => sent += 1,
            Ok(Err(_)) => break true,
            Err(_) => panic!("a ping could not be sent for 20 s, yet the socket is open"),
        }
    };
    assert!(cut, "{sent} pings of 125 bytes were taken without a pong read");
    // The server goes on serving.
    let (head, _) = exchange(10, addr, &get(addr, "/api/", "")).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn behind_a_trusted_proxy_limits_count_the_forwarded_client_and_ipv6_by_its_64() {
    let limits = Limits { sockets_per_client: 2, ..Limits::default() };
    let proxies = ["127.0.0.1/32"].iter().map(|net| proxy::network(net).unwrap()).collect();
    let (addr, stop, server) = start(Config { limits, proxies, ..Config::default() }).await;
    let id = game(2, addr).await;
    let from = |client: &str| [("x-forwarded-for", client.to_owned())];
    let open_as = |client: &str| {
        let headers = from(client);
        let id = id.clone();
        async move {
            let extra: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            open(1, addr, &id, &extra).await
        }
    };
    // Two addresses of one /64 are one client...
    let a = open_as("2001:db8::1").await.unwrap();
    let b = open_as("6.6.6.6, 2001:db8::ffff:2").await.unwrap();
    let (status, body) = open_as("2001:db8::3").await.err().unwrap();
    assert!(status.starts_with("429"), "{status}");
    assert_eq!(limit(&body), "max-sockets-per-client", "{body}");
    // ... while other clients behind the same proxy are not held back by it.
    let c = open_as("2001:db8:0:1::1").await.unwrap();
    let d = open_as("192.0.2.1").await.unwrap();
    let e = open_as("192.0.2.2").await.unwrap();
    // From a peer not trusted, the header is ignored: the peer is the client.
    let forged = |n: u8| [("x-forwarded-for", format!("192.0.2.{n}"))];
    let mut held = Vec::new();
    for n in 0..2 {
        let headers = forged(n);
        let extra: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        held.push(open(11, addr, &id, &extra).await.unwrap());
    }
    let headers = forged(9);
    let extra: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, _) = open(11, addr, &id, &extra).await.err().unwrap();
    assert!(status.starts_with("429"), "{status}");
    drop((a, b, c, d, e, held));
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn health_and_metrics_answer_loopback_and_trusted_addresses_only() {
    let limits = Limits { sockets_per_client: 1, ..Limits::default() };
    let proxies = ["127.0.0.1/32"].iter().map(|net| proxy::network(net).unwrap()).collect();
    let (addr, stop, server) = start(Config { limits, proxies, ..Config::default() }).await;
    let (head, body) = exchange(12, addr, &get(addr, "/healthz", "")).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(body.contains("ok"), "{body}");
    let (head, body) = exchange(12, addr, &get(addr, "/readyz", "")).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}{body}");
    let id = game(2, addr).await;
    let socket = open(13, addr, &id, &[]).await.unwrap();
    assert!(open(13, addr, &id, &[]).await.is_err());
    let metrics = |from: u8, extra: &'static str| async move {
        exchange(from, addr, &get(addr, "/metrics", extra)).await
    };
    let (head, text) = metrics(12, "").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/plain"), "{head}");
    for line in [
        "arbiter_sockets_open 1",
        "arbiter_games_watched 1",
        "arbiter_games_live 1",
        "arbiter_moves_total 0",
        "arbiter_engine_searches_running 0",
        "arbiter_refusals_total{limit=\"max-sockets-per-client\"} 1",
        "arbiter_refusals_total{limit=\"max-connections\"} 0",
        "arbiter_commit_duration_seconds_count 1",
        "arbiter_request_duration_seconds_bucket{method=\"POST\",le=\"10\"} 1",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("arbiter_connections_open ")), "{text}");
    // The public, through the proxy, is refused; so is a forged header from anyone else.
    let (head, body) = metrics(1, "X-Forwarded-For: 203.0.113.9\r\n").await;
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    assert!(body.contains("--metrics-public"), "{body}");
    let (head, _) =
        exchange(1, addr, &get(addr, "/healthz", "X-Forwarded-For: 203.0.113.9\r\n")).await;
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    let (head, _) = metrics(14, "X-Forwarded-For: 127.0.0.1\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    drop(socket);
    stop.send(()).unwrap();
    server.await.unwrap();
}
