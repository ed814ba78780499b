//! The live games' WebSockets. A socket that connects, or reconnects, is sent the whole game at
//! once, `{"game": VIEW, "spectators": N}` (the view of `GET /api/live/games/ID`); after that,
//! each change of the game (a move with its clocks, an offer, the end, a clock run out) comes as
//! `{"delta": CHANGE}`, only what changed since the version the socket was last sent
//! ([`view::Sent::change`]), and a spectator who comes or goes as `{"spectators": N}` alone. A socket
//! is sent a change only over the version it holds: one that fell behind (it missed a change, or
//! a reader too slow let changes pile up) is sent the whole game again, so a client catches up
//! from the server's state, never from messages it missed.
//!
//! A page says who it is in its first message, `{"hello": TOKEN}` (or `null`): a socket whose
//! token holds a seat is a player's, any other a spectator's, counted in `spectators`.
//!
//! Servers sharing a database each hear the changes the others commit ([`heard`]) and send them
//! to their own sockets; each keeps the timers of the ongoing games, and each counts only its
//! own spectators.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use arbiter_live::postgres::Change;
use arbiter_live::{GameId, View};
use axum::extract::ws::{Message, Utf8Bytes};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;
use tokio::task::AbortHandle;

use super::view::{self, Judged, Sent, Shown};
use super::{Live, SocketHold, now_ms};
use crate::websocket::Bounded;

/// Messages a slow socket may fall behind before it is sent the whole view again.
const BACKLOG: usize = 32;

/// The largest message a page may send: a hello.
const HELLO_LEN: usize = 256;

/// What every socket of a game is told.
#[derive(Clone)]
enum Update {
    /// The game changed from version `base` (none when no view was sent before) to `version`;
    /// `delta` is the change, for a socket that holds `base`.
    Game { base: Option<u64>, version: u64, delta: Utf8Bytes },
    /// The number of spectators changed: `{"spectators": N}`.
    Spectators(Utf8Bytes),
}

/// What is kept of a game while sockets watch it, to send its changes: its moves judged, and
/// what the sockets were last sent.
#[derive(Default)]
struct Kept {
    judged: Judged,
    /// The newest view sent, from which the next change is counted.
    last: Option<Sent>,
}

/// The sockets of one game.
struct Room {
    sender: broadcast::Sender<Update>,
    spectators: usize,
    sockets: usize,
    /// Locked off the async threads only, and only one game's at a time.
    kept: Arc<Mutex<Kept>>,
}

impl Room {
    /// Tells every socket the number of spectators.
    fn send_spectators(&self) {
        let text = json!({ "spectators": self.spectators }).to_string();
        // No receiver is not a failure: the last socket has just gone.
        let _ = self.sender.send(Update::Spectators(Utf8Bytes::from(text)));
    }
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

/// What is kept of the game `id` while sockets watch it; `None` when none does.
fn kept(live: &Live, id: &GameId) -> Option<Arc<Mutex<Kept>>> {
    live.hub.rooms().get(id).map(|room| Arc::clone(&room.kept))
}

fn lock(kept: &Mutex<Kept>) -> std::sync::MutexGuard<'_, Kept> {
    kept.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What shows a view of the game `id`: with its moves judged as kept while sockets watch it
/// (only the moves since are judged), else judged afresh.
pub(crate) fn shower(live: &Live, id: &GameId) -> impl FnOnce(View) -> Shown + Send + 'static {
    let kept = kept(live, id);
    move |view| match kept {
        Some(kept) => Shown::judged(view, &mut lock(&kept).judged),
        None => Shown::of(view),
    }
}

/// The whole game `id` as a socket is sent it, with its version; `None` if it is gone. It
/// becomes what the sockets were last sent if none was before: else the next change is still
/// counted from what the others hold, and this socket, holding it already, skips it.
async fn whole(live: &Arc<Live>, id: &GameId) -> Option<(u64, Utf8Bytes)> {
    let (games, key, kept) = (Arc::clone(&live.games), id.clone(), kept(live, id));
    let (version, view) = tokio::task::spawn_blocking(move || {
        let view = games.view(&key, now_ms()).ok()?;
        let Some(kept) = kept else {
            let shown = Shown::of(view);
            return Some((shown.version(), serde_json::to_string(&shown).ok()?));
        };
        let mut kept = lock(&kept);
        let mut shown = Shown::judged(view, &mut kept.judged);
        let text = serde_json::to_string(&shown).ok()?;
        if kept.last.is_none() {
            kept.last = Some(Sent::of(&mut shown));
        }
        Some((shown.version(), text))
    })
    .await
    .ok()??;
    let spectators = live.hub.rooms().get(id).map_or(0, |room| room.spectators);
    let text = format!(r#"{{"game":{view},"spectators":{spectators}}}"#);
    Some((version, Utf8Bytes::from(text)))
}

/// Sends the change of the game `id` to all its sockets (unless it was sent already), and sets
/// the timer for its running clock.
pub(crate) fn publish(live: Arc<Live>, id: GameId) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    // Boxed with its type written out: the timer it sets publishes again.
    Box::pin(async move { publish_now(&live, &id).await })
}

async fn publish_now(live: &Arc<Live>, id: &GameId) {
    let left = tokio::task::spawn_blocking(changer(live, id)).await.ok().flatten();
    set_timer(live, id, left);
}

/// What sends the change of the game `id` to all its sockets (unless it was sent already), to be
/// run off the async threads: it reads the game, so it may wait for the store. It answers the
/// time left on the game's running clock (`Some(None)` when no clock runs), `None` if the game is
/// gone. The change is found under the game's own lock, so that its changes go out in order.
pub(crate) fn changer(
    live: &Arc<Live>,
    id: &GameId,
) -> impl FnOnce() -> Option<Option<u64>> + Send + 'static {
    let (live, key) = (Arc::clone(live), id.clone());
    move || {
        // The sockets as they are once the action is done: one opened meanwhile is sent this.
        let room = live.hub.rooms().get(&key).map(|r| (Arc::clone(&r.kept), r.sender.clone()));
        let view = live.games.view(&key, now_ms()).ok()?;
        let Some((kept, sender)) = room else { return Some(view::running_left(&view)) };
        let mut kept = lock(&kept);
        let mut shown = Shown::judged(view, &mut kept.judged);
        let (version, left) = (shown.version(), shown.running_left());
        if kept.last.as_ref().is_none_or(|last| last.version() < version) {
            let (base, delta, sent) = match &kept.last {
                Some(last) => {
                    let (delta, sent) = last.change(&mut shown);
                    (Some(last.version()), delta, sent)
                }
                None => (None, json!({ "delta": null }).to_string(), Sent::of(&mut shown)),
            };
            let delta = Utf8Bytes::from(delta);
            kept.last = Some(sent);
            // No receiver is not a failure: the last socket has just gone.
            let _ = sender.send(Update::Game { base, version, delta });
        }
        Some(left)
    }
}

/// Sets the timer that publishes the game `id` again when its running clock runs out, given
/// what [`changer`] answered.
pub(crate) fn set_timer(live: &Arc<Live>, id: &GameId, left: Option<Option<u64>>) {
    let Some(left) = left else { return };
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
        let behind = |room: &Room, version| {
            lock(&room.kept).last.as_ref().is_none_or(|last| last.version() < version)
        };
        match change {
            Change::Game(id, version) => rooms
                .get(&id)
                .filter(|room| behind(room, version))
                .map(|_| id)
                .into_iter()
                .collect(),
            // Changes may have gone unheard: every game watched here is sent again.
            Change::Missed => rooms.keys().cloned().collect(),
        }
    };
    for id in stale {
        runtime.spawn(publish(Arc::clone(live), id));
    }
}

/// Serves one socket on the game `id` until it closes; `_counted` holds its places in the
/// limits.
pub(crate) async fn serve(live: Arc<Live>, id: GameId, mut socket: Bounded, _counted: SocketHold) {
    let mut updates = {
        let mut rooms = live.hub.rooms();
        let room = rooms.entry(id.clone()).or_insert_with(|| Room {
            sender: broadcast::channel(BACKLOG).0,
            spectators: 0,
            sockets: 0,
            kept: Arc::default(),
        });
        room.sockets += 1;
        room.sender.subscribe()
    };
    let mut spectator = false;
    let mut player = None;
    // The version this socket was last sent.
    let mut held = None;
    if let Some((version, text)) = whole(&live, &id).await
        && socket.send(Message::Text(text)).await.is_ok()
    {
        held = Some(version);
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
                            room.send_spectators();
                        }
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                // Pings are answered by the socket itself; anything else is ignored.
                Some(Ok(_)) => {}
            },
            update = updates.recv() => {
                let text = match update {
                    Ok(Update::Spectators(text)) => text,
                    Ok(Update::Game { version, .. }) if held.is_some_and(|held| version <= held) => continue,
                    Ok(Update::Game { base, version, delta }) if base.is_some() && base == held => {
                        held = Some(version);
                        delta
                    }
                    // Behind, or never sent the game: the whole game again.
                    Ok(Update::Game { .. }) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        match whole(&live, &id).await {
                            Some((version, text)) => {
                                held = Some(version);
                                text
                            }
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
    let mut rooms = live.hub.rooms();
    let Some(room) = rooms.get_mut(&id) else { return };
    room.sockets -= 1;
    if spectator {
        room.spectators -= 1;
    }
    if room.sockets == 0 {
        rooms.remove(&id);
    } else if spectator {
        room.send_spectators();
    }
}
