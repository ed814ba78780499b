//! A minimal HTTP/1.1 client for the live API: JSON requests on one kept-alive connection, made
//! from a chosen loopback address (the server counts its quotas per client address).

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

use crate::LoadError;

/// A connection kept idle longer than this is opened again before a request: the server closes
/// connections that send nothing for 5 s.
const IDLE: Duration = Duration::from_secs(3);

/// The longest a request waits for its answer.
const ANSWER: Duration = Duration::from_secs(60);

/// A TCP connection to `server` from the address `local` (port chosen by the system).
pub async fn connect(local: IpAddr, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = if local.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.bind(SocketAddr::new(local, 0))?;
    let stream = socket.connect(server).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// Requests to the server from one client address, on one connection kept alive.
pub struct Client {
    local: IpAddr,
    server: SocketAddr,
    open: Option<(BufReader<TcpStream>, Instant)>,
}

impl Client {
    /// A client of `server` from `local`; it connects at its first request.
    pub fn new(local: IpAddr, server: SocketAddr) -> Client {
        Client { local, server, open: None }
    }

    /// Closes the connection; the next request opens another.
    pub fn close(&mut self) {
        self.open = None;
    }

    /// `POST path` with the JSON `body`: the status and the JSON answer.
    pub async fn post(&mut self, path: &str, body: &Value) -> Result<(u16, Value), LoadError> {
        let (status, text) = self.post_raw(path, body).await?;
        let value = serde_json::from_slice(&text).map_err(|error| {
            LoadError::Http(format!("POST {path}: status {status}, an answer not JSON: {error}"))
        })?;
        Ok((status, value))
    }

    /// `POST path` with the JSON `body`: the status and the answer's bytes. A move's answer is
    /// the whole game; the players read one field of it, which is much cheaper than building a
    /// [`Value`] of it (the load generator shares the server's cores).
    pub async fn post_raw(
        &mut self,
        path: &str,
        body: &Value,
    ) -> Result<(u16, Vec<u8>), LoadError> {
        let io = |error: std::io::Error| LoadError::Http(format!("POST {path}: {error}"));
        if self.open.as_ref().is_none_or(|(_, used)| used.elapsed() >= IDLE) {
            self.open = Some((
                BufReader::new(connect(self.local, self.server).await.map_err(io)?),
                Instant::now(),
            ));
        }
        let Some((stream, used)) = &mut self.open else { unreachable!("opened above") };
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.server,
            body.len()
        );
        let answered = tokio::time::timeout(ANSWER, async {
            stream.get_mut().write_all(request.as_bytes()).await?;
            read_answer(stream).await
        })
        .await;
        let (status, close, text) = match answered {
            Ok(Ok(answer)) => answer,
            Ok(Err(error)) => {
                self.open = None;
                return Err(io(error));
            }
            Err(_) => {
                self.open = None;
                return Err(LoadError::Http(format!("POST {path}: no answer in {ANSWER:?}")));
            }
        };
        *used = Instant::now();
        if close {
            self.open = None;
        }
        Ok((status, text))
    }
}

/// An answer's status, whether the server closes the connection after it, and its body (which
/// must have a `Content-Length`).
async fn read_answer(stream: &mut BufReader<TcpStream>) -> std::io::Result<(u16, bool, Vec<u8>)> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    if stream.read_line(&mut line).await? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let (mut length, mut close) = (None, false);
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else { continue };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("connection") {
            close = value.eq_ignore_ascii_case("close");
        }
    }
    let length = length.ok_or_else(|| bad("an answer without Content-Length"))?;
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await?;
    Ok((status, close, body))
}
