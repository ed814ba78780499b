//! A player's WebSocket on the lobby. The player is whoever the session cookie of the handshake
//! signs in (anonymous without one); the socket is sent `{"type": "hello", "user", "pools"}`
//! at once, `{"type": "lobby", "seeks", "pairing", "players"}` at every change, `{"type":
//! "start", "game": {id, path, seat, token, rated, time, opponent}}` when a game of theirs
//! starts, and `{"type": "error", "error"}` when a request is refused. The player sends the
//! [`Request`]s as JSON text. When the socket closes, the player's seeks go.

use std::sync::Arc;
use std::time::Instant;

use arbiter_live::accounts::AccountStore;
use axum::Extension;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

use super::{Lobby, Player, Request};
use crate::accounts::{Accounts, Refusal};
use crate::connection::{ConnectionHeld, Held};
use crate::live::{SocketHold, client};
use crate::proxy::Client;
use crate::websocket::{self, Bounded};

/// Messages waiting to be sent to a slow socket; more are dropped (the next change sends the
/// whole lobby again).
const OUTBOX: usize = 64;

/// Requests a player may send at once, then one every [`REQUEST_EVERY_MS`].
const REQUEST_BURST: f64 = 20.0;
const REQUEST_EVERY_MS: f64 = 200.0;

/// `GET /api/lobby/socket`: a socket counted and bounded as a game's is
/// ([`Live::socket_hold`], [`crate::websocket`]).
pub(super) async fn upgrade(
    Extension(lobby): Extension<Arc<Lobby>>,
    Extension(accounts): Extension<Arc<Accounts>>,
    found: Option<Extension<Client>>,
    connection: Option<Extension<ConnectionHeld>>,
    request: Option<Extension<Held>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Response> {
    let upgrade = upgrade.map_err(|rejection| {
        Refusal::new(StatusCode::BAD_REQUEST, "not-a-websocket", rejection.body_text())
            .into_response()
    })?;
    let player = player(&accounts, &headers).await.map_err(IntoResponse::into_response)?;
    let hold = lobby
        .live
        .socket_hold(&client(found), connection, request)
        .map_err(IntoResponse::into_response)?;
    Ok(websocket::bounded(upgrade)
        .on_upgrade(move |socket| serve(lobby, player, Bounded::new(socket), hold))
        .into_response())
}

/// The player the session cookie of `headers` signs in, anonymous without one.
async fn player(accounts: &Accounts, headers: &HeaderMap) -> Result<Player, Refusal> {
    Ok(match accounts.session(headers).await? {
        Some((_, session)) => {
            let user = session.user;
            let id = user.id;
            let ratings = accounts.store(move |store| store.ratings(id)).await?;
            Player {
                name: user.name,
                user: Some(user.id),
                ratings: ratings.into_iter().map(|(c, r)| (c, r.rating)).collect(),
            }
        }
        None => Player::anonymous(),
    })
}

/// Serves one player's socket until it closes.
async fn serve(lobby: Arc<Lobby>, player: Player, mut socket: Bounded, _hold: SocketHold) {
    let (outbox, mut sent) = mpsc::channel(OUTBOX);
    let Some(member) = lobby.join(player, outbox) else {
        let refusal = serde_json::json!({ "type": "error", "error": "the lobby is full" });
        let _ = socket.send(Message::Text(refusal.to_string().into())).await;
        return;
    };
    let (mut tokens, mut at) = (REQUEST_BURST, Instant::now());
    loop {
        tokio::select! {
            received = socket.recv() => match received {
                Some(Ok(Message::Text(text))) => {
                    let now = Instant::now();
                    tokens = (tokens + now.duration_since(at).as_secs_f64() * 1000.0 / REQUEST_EVERY_MS)
                        .min(REQUEST_BURST);
                    at = now;
                    if tokens < 1.0 {
                        let refusal = serde_json::json!({ "type": "error", "error": "too many requests: wait a little" });
                        if socket.send(Message::Text(refusal.to_string().into())).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    tokens -= 1.0;
                    match serde_json::from_str::<Request>(&text) {
                        Ok(request) => lobby.handle(member, request).await,
                        Err(error) => {
                            let refusal = serde_json::json!({ "type": "error", "error": format!("not a request: {error}") });
                            if socket.send(Message::Text(refusal.to_string().into())).await.is_err() {
                                break;
                            }
                        }
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                // Pings are answered by the socket itself; anything else is ignored.
                Some(Ok(_)) => {}
            },
            message = sent.recv() => match message {
                Some(text) => {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    lobby.leave(member);
}
