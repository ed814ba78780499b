//! The live games' WebSockets: every socket on a game receives the game's view, as JSON text,
//! each time it changes (a move, an offer, the end, a clock run out) and each time the number of
//! spectators does. A socket that connects, or reconnects, gets the whole view at once: a client
//! catches up from the server's state, never from messages it missed.
//!
//! A page says who it is in its first message, `{"hello": TOKEN}` (or `null`): a socket whose
//! token holds a seat is a player's, any other a spectator's, counted in `spectators`. Each
//! message sent is `{"game": VIEW, "spectators": N}`; views carry their `version`, and clients
//! keep the newest.
//!
//! Servers sharing a database each hear the changes the others commit ([`heard`]) and send them
//! to their own sockets; each keeps the timers of the games its sockets watch, and each counts
//! only its own spectators.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use arbiter_live::GameId;
use arbiter_live::postgres::Change;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio::task::AbortHandle;

use super::{Live, now_ms};
use crate::live::quota::Socket;

/// Messages a slow socket may fall behind before it is sent the whole view again.
const BACKLOG: usize = 32;

/// The largest message a page may send: a hello.
const HELLO_LEN: usize = 256;

/// The sockets of one game.
struct Room {
    sender: broadcast::Sender<Utf8Bytes>,
    spectators: usize,
    sockets: usize,
    /// The version of the last view sent.
    sent: u64,
}

/// Every game's sockets, and the timers that end a game when a clock runs out.
#[derive(Default)]
pub(crate) struct Hub {
    rooms: Mutex<HashMap<GameId, Room>>,
    timers: Mutex<HashMap<GameId, AbortHandle>>,
    /// The seats with a player's socket open.
    pub(crate) presence: super::presence::Presence,
}

/// A page's first message.
#[derive(Deserialize)]
struct Hello {
    hello: Option<String>,
}

impl Hub {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Room>> {
        self.rooms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The games at least one socket watches now.
    pub(crate) fn watched(&self) -> HashSet<GameId> {
        self.rooms().keys().cloned().collect()
    }
}

/// The game `id`'s view with the spectators, as the text sockets are sent; `None` if it is
/// gone.
async fn message(live: &Arc<Live>, id: &GameId) -> Option<(u64, Option<u64>, Utf8Bytes)> {
    let (games, key) = (Arc::clone(&live.games), id.clone());
    let view = tokio::task::spawn_blocking(move || games.view(&key, now_ms())).await.ok()?.ok()?;
    let spectators = live.hub.rooms().get(id).map_or(0, |room| room.spectators);
    let left = view
        .clocks
        .and_then(|c| c.running.map(|seat| if seat.index() == 0 { c.red_ms } else { c.blue_ms }));
    let text = serde_json::json!({ "game": view, "spectators": spectators }).to_string();
    Some((view.version, left, Utf8Bytes::from(text)))
}

/// Sends the game `id` as it now stands to all its sockets (unless a newer view went out
/// already), and sets the timer for its running clock.
pub(crate) fn publish(live: Arc<Live>, id: GameId) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    // Boxed with its type written out: the timer it sets publishes again.
    Box::pin(async move { publish_now(&live, &id).await })
}

async fn publish_now(live: &Arc<Live>, id: &GameId) {
    let Some((version, left, text)) = message(live, id).await else { return };
    if let Some(room) = live.hub.rooms().get_mut(id)
        && version >= room.sent
    {
        room.sent = version;
        // No receiver is not a failure: the last socket has just gone.
        let _ = room.sender.send(text);
    }
    let mut timers = live.hub.timers.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(old) = timers.remove(id) {
        old.abort();
    }
    if let Some(left) = left {
        let (live, key) = (Arc::clone(live), id.clone());
        // A little after the flag falls, so that the server sees the time as run out.
        let wait = Duration::from_millis(left.saturating_add(20));
        let timer = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            publish(live, key).await;
        });
        timers.insert(id.clone(), timer.abort_handle());
    }
}

/// Sends a change committed by any server to the sockets here that have not seen it, on
/// `runtime` (called from the listener's thread).
pub(crate) fn heard(live: &Arc<Live>, change: Change, runtime: &tokio::runtime::Handle) {
    let stale: Vec<GameId> = {
        let rooms = live.hub.rooms();
        match change {
            Change::Game(id, version) => {
                rooms.get(&id).filter(|room| version > room.sent).map(|_| id).into_iter().collect()
            }
            // Changes may have gone unheard: every game watched here is sent again.
            Change::Missed => rooms.keys().cloned().collect(),
        }
    };
    for id in stale {
        runtime.spawn(publish(Arc::clone(live), id));
    }
}

/// Serves one socket on the game `id` until it closes; `_counted` holds its place in the
/// client's quota.
pub(crate) async fn serve(live: Arc<Live>, id: GameId, mut socket: WebSocket, _counted: Socket) {
    let mut updates = {
        let mut rooms = live.hub.rooms();
        let room = rooms.entry(id.clone()).or_insert_with(|| Room {
            sender: broadcast::channel(BACKLOG).0,
            spectators: 0,
            sockets: 0,
            sent: 0,
        });
        room.sockets += 1;
        room.sender.subscribe()
    };
    let mut spectator = false;
    let mut player = None;
    if let Some((_, _, text)) = message(&live, &id).await {
        let _ = socket.send(Message::Text(text)).await;
    }
    loop {
        tokio::select! {
            received = socket.recv() => match received {
                Some(Ok(Message::Text(text))) if !spectator && text.len() <= HELLO_LEN => {
                    let Ok(hello) = serde_json::from_str::<Hello>(&text) else { continue };
                    let (games, key, now) = (Arc::clone(&live.games), id.clone(), now_ms());
                    let seat = match hello.hello {
                        Some(token) => tokio::task::spawn_blocking(move || games.seat(&key, &token, now))
                            .await
                            .ok()
                            .and_then(Result::ok),
                        None => None,
                    };
                    if let Some(seat) = seat.filter(|_| player.is_none()) {
                        live.hub.presence.arrived(&id, seat);
                        player = Some(seat);
                    } else if seat.is_none() {
                        spectator = true;
                        if let Some(room) = live.hub.rooms().get_mut(&id) {
                            room.spectators += 1;
                        }
                        publish(Arc::clone(&live), id.clone()).await;
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                // Pings are answered by the socket itself; anything else is ignored.
                Some(Ok(_)) => {}
            },
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        match message(&live, &id).await {
                            Some((_, _, text)) => text,
                            None => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text)).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some(seat) = player {
        live.hub.presence.left(&id, seat, now_ms());
    }
    let emptied = {
        let mut rooms = live.hub.rooms();
        let Some(room) = rooms.get_mut(&id) else { return };
        room.sockets -= 1;
        if spectator {
            room.spectators -= 1;
        }
        if room.sockets == 0 {
            rooms.remove(&id);
            true
        } else {
            false
        }
    };
    if spectator && !emptied {
        publish(live, id).await;
    }
}
