//! A WebSocket within bounds, so that one client cannot take the server's memory or time: small
//! fixed buffers ([`limits::SOCKET_READ_BUFFER`], at most [`limits::SOCKET_UNSENT`] waiting to be
//! sent), messages of at most [`limits::SOCKET_MESSAGE`], and a client cut off when it leaves
//! what it is sent (a message or a pong) unread for [`limits::SOCKET_SEND_TIME`], or sends more
//! than [`limits::SOCKET_MESSAGES`] messages at once and [`limits::SOCKET_MESSAGES_PER_SECOND`]
//! after.
//!
//! Without these bounds a client that sent pings and read nothing grew the server by 400 MB a
//! second until it aborted: every pong waited in a write buffer without end.

use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};

use crate::limits;

/// `upgrade` with the bounds of the module.
pub(crate) fn bounded(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .read_buffer_size(limits::SOCKET_READ_BUFFER)
        // Each message is written at once; what the client does not take waits, up to the bound.
        .write_buffer_size(0)
        .max_write_buffer_size(limits::SOCKET_UNSENT)
        .max_message_size(limits::SOCKET_MESSAGE)
        .max_frame_size(limits::SOCKET_MESSAGE)
}

/// Why a bounded socket was cut off.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Cut {
    /// The client left what it was sent unread too long.
    #[error("the client read nothing for {} s", limits::SOCKET_SEND_TIME.as_secs())]
    Unread,
    /// The client sent messages too fast.
    #[error("the client sent messages too fast")]
    Flood,
}

/// A WebSocket that keeps to the bounds of the module: [`Bounded::recv`] and [`Bounded::send`]
/// are those of axum's socket, and fail once the client is cut off.
pub(crate) struct Bounded {
    socket: WebSocket,
    /// The messages the client may still send now, and when that was counted.
    allowance: f64,
    counted: Instant,
}

impl Bounded {
    /// `socket`, with its full allowance of messages.
    pub(crate) fn new(socket: WebSocket) -> Bounded {
        Bounded { socket, allowance: f64::from(limits::SOCKET_MESSAGES), counted: Instant::now() }
    }

    /// The next message from the client; an error once it is cut off, `None` once it closed.
    /// A ping's pong is sent before the next message is read.
    pub(crate) async fn recv(&mut self) -> Option<Result<Message, axum::Error>> {
        let received = self.socket.recv().await?;
        let Ok(message) = received else { return Some(received) };
        if !self.allowed() {
            return Some(Err(self.cut(Cut::Flood).await));
        }
        if let Message::Ping(_) = message {
            // The pong is queued by the socket: it must leave before more is read.
            if tokio::time::timeout(limits::SOCKET_SEND_TIME, self.socket_flush()).await.is_err() {
                return Some(Err(axum::Error::new(Cut::Unread)));
            }
        }
        Some(Ok(message))
    }

    /// Sends `message`; an error if the client has not taken it in
    /// [`limits::SOCKET_SEND_TIME`], or the socket failed.
    pub(crate) async fn send(&mut self, message: Message) -> Result<(), axum::Error> {
        match tokio::time::timeout(limits::SOCKET_SEND_TIME, self.socket.send(message)).await {
            Ok(sent) => sent,
            Err(_) => Err(axum::Error::new(Cut::Unread)),
        }
    }

    /// Writes out what waits to be sent (a pong).
    async fn socket_flush(&mut self) -> Result<(), axum::Error> {
        use futures_util::SinkExt;
        self.socket.flush().await
    }

    /// Takes one message from the client's allowance; `false` when it has none left.
    fn allowed(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.counted).as_secs_f64()
            * f64::from(limits::SOCKET_MESSAGES_PER_SECOND);
        self.allowance = (self.allowance + refill).min(f64::from(limits::SOCKET_MESSAGES));
        self.counted = now;
        if self.allowance < 1.0 {
            return false;
        }
        self.allowance -= 1.0;
        true
    }

    /// Closes the socket, saying why (a policy violation), without waiting long for the client.
    async fn cut(&mut self, why: Cut) -> axum::Error {
        let frame = CloseFrame { code: close_code::POLICY, reason: why.to_string().into() };
        let _ = tokio::time::timeout(
            Duration::from_millis(100),
            self.socket.send(Message::Close(Some(frame))),
        )
        .await;
        axum::Error::new(why)
    }
}
