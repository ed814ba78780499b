//! One game of the load: created by its red player, joined by its blue one, each watching it on
//! a WebSocket of its own, then played with random valid moves, each sent once the player's
//! socket has shown the opponent's last move, as a page does.

use std::borrow::Cow;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use arbiter_duck::Game;
use futures_util::{SinkExt, StreamExt};
use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use crate::LoadError;
use crate::http::{self, Client};

/// The longest a socket may take to show a move, or to connect.
const SHOWN: Duration = Duration::from_secs(60);

/// A pause before an action answered 429 is sent again (nothing was done).
const BACK_OFF: Duration = Duration::from_millis(100);

/// A view a socket received: the plies it holds, whether the game is over, and when it came.
struct Seen {
    plies: usize,
    over: bool,
    at: Instant,
}

/// One player's socket: what it has received, in order.
struct Socket {
    sender: futures_util::stream::SplitSink<WebSocketStream<TcpStream>, Message>,
    seen: mpsc::UnboundedReceiver<Seen>,
}

impl Socket {
    /// Opens the socket of game `id` for the seat `token` and waits for its first view: from
    /// then on it receives every change.
    async fn open(
        local: IpAddr,
        server: SocketAddr,
        id: &str,
        token: &str,
    ) -> Result<Socket, LoadError> {
        let failed = |error: String| LoadError::Socket(format!("game {id}: {error}"));
        let stream = http::connect(local, server).await.map_err(|e| failed(e.to_string()))?;
        let url = format!("ws://{server}/api/live/games/{id}/socket");
        let (socket, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .map_err(|e| failed(e.to_string()))?;
        let (mut sender, mut receiver) = socket.split();
        let hello = json!({ "hello": token }).to_string();
        sender.send(Message::text(hello)).await.map_err(|e| failed(e.to_string()))?;
        let (seen_sender, seen) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            // The whole game comes first (and again when the socket fell behind), then each
            // change: `keep` moves stay, the moves after them come along.
            let mut over = false;
            while let Some(Ok(message)) = receiver.next().await {
                let at = Instant::now();
                let Message::Text(text) = message else { continue };
                let Some((plies, status)) = shown_in(text.as_str()) else { continue };
                if let Some(status) = status {
                    over = status == "over";
                }
                if seen_sender.send(Seen { plies, over, at }).is_err() {
                    break;
                }
            }
        });
        let mut socket = Socket { sender, seen };
        socket.wait(0).await.map_err(|_| failed("no first view".into()))?;
        Ok(socket)
    }

    /// Waits until the socket shows at least `plies` plies (or the end): when it came.
    async fn wait(&mut self, plies: usize) -> Result<Instant, LoadError> {
        let deadline = tokio::time::Instant::now() + SHOWN;
        loop {
            match tokio::time::timeout_at(deadline, self.seen.recv()).await {
                Ok(Some(seen)) if seen.plies >= plies || seen.over => return Ok(seen.at),
                Ok(Some(_)) => {}
                Ok(None) => return Err(LoadError::Socket("the socket closed".into())),
                Err(_) => {
                    return Err(LoadError::Socket(format!("ply {plies} not shown in {SHOWN:?}")));
                }
            }
        }
    }

    /// Drops what the socket received so far.
    fn drain(&mut self) {
        while self.seen.try_recv().is_ok() {}
    }

    async fn close(mut self) {
        let _ = self.sender.send(Message::Close(None)).await;
    }
}

/// A game set up: both seats taken, both sockets open; and its spectators, once they watch.
pub struct Seated {
    id: String,
    local: IpAddr,
    server: SocketAddr,
    tokens: [String; 2],
    client: Client,
    sockets: [Socket; 2],
    /// When each ply was sent, for the spectators to time it.
    sent: Arc<Mutex<Vec<Instant>>>,
    /// From each ply sent to each spectator showing it.
    spectated: Arc<Mutex<Vec<Duration>>>,
    spectators: Vec<Spectator>,
}

/// A spectator's socket: its reader, which times every ply it is shown, and its writer.
struct Spectator {
    sender: futures_util::stream::SplitSink<WebSocketStream<TcpStream>, Message>,
    reader: JoinHandle<()>,
}

impl Seated {
    /// Opens a spectator's socket on the game, from the game's address, and waits for its first
    /// view; from then on it times each ply it is shown.
    pub async fn watch(&mut self) -> Result<(), LoadError> {
        let failed =
            |error: String| LoadError::Socket(format!("game {}: spectator: {error}", self.id));
        let stream =
            http::connect(self.local, self.server).await.map_err(|e| failed(e.to_string()))?;
        let url = format!("ws://{}/api/live/games/{}/socket", self.server, self.id);
        let (socket, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .map_err(|e| failed(e.to_string()))?;
        let (mut sender, mut receiver) = socket.split();
        let hello = json!({ "hello": null }).to_string();
        sender.send(Message::text(hello)).await.map_err(|e| failed(e.to_string()))?;
        let first = tokio::time::timeout(SHOWN, receiver.next()).await;
        let Ok(Some(Ok(Message::Text(first)))) = first else {
            return Err(failed("no first view".into()));
        };
        let (sent, spectated) = (Arc::clone(&self.sent), Arc::clone(&self.spectated));
        let reader = tokio::spawn(async move {
            // The plies of the whole game it was sent first are not timed.
            let mut shown = plies_in(first.as_str());
            while let Some(Ok(message)) = receiver.next().await {
                let at = Instant::now();
                let Message::Text(text) = message else { continue };
                let plies = plies_in(text.as_str());
                if plies <= shown {
                    continue;
                }
                let sent = sent.lock().unwrap_or_else(PoisonError::into_inner);
                let mut spectated = spectated.lock().unwrap_or_else(PoisonError::into_inner);
                for ply in shown..plies.min(sent.len()) {
                    spectated.push(at.saturating_duration_since(sent[ply]));
                }
                shown = plies;
            }
        });
        self.spectators.push(Spectator { sender, reader });
        Ok(())
    }
}

/// The plies of the game a socket's message shows ([`shown_in`]); 0 for any other message.
fn plies_in(text: &str) -> usize {
    shown_in(text).map_or(0, |(plies, _)| plies)
}

/// What the load reads of a socket's message: the whole game or a change. Only the fields it
/// needs are read, into a type of their own: building a `serde_json::Value` of every message
/// of 10,000 sockets took most of the load generator's time, on the cores the server shares.
#[derive(Deserialize)]
struct Shown<'a> {
    #[serde(borrow, default)]
    game: Option<View<'a>>,
    #[serde(borrow, default)]
    delta: Option<View<'a>>,
}

/// Of a whole game or a change: the plies a change keeps, the moves it brings (a whole game's
/// are all its moves), and the game's status when the message has it.
#[derive(Deserialize)]
struct View<'a> {
    #[serde(default)]
    keep: usize,
    #[serde(default)]
    commands: Vec<IgnoredAny>,
    #[serde(borrow, default)]
    status: Option<Cow<'a, str>>,
}

/// The plies of the game after the whole game or the change a socket's message carries, and
/// the game's status if the message has it; `None` for any other message (a count of
/// spectators).
fn shown_in(text: &str) -> Option<(usize, Option<Cow<'_, str>>)> {
    let shown: Shown<'_> = serde_json::from_str(text).ok()?;
    match (shown.game, shown.delta) {
        (Some(game), _) => Some((game.commands.len(), game.status)),
        // A change keeps `keep` plies and brings the ones after them.
        (None, Some(change)) => Some((change.keep + change.commands.len(), change.status)),
        (None, None) => None,
    }
}

/// Of the answer to a move, the one field the players read: the game's status.
#[derive(Deserialize)]
struct Answer<'a> {
    #[serde(borrow, default)]
    status: Option<Cow<'a, str>>,
}

/// What happened in one game: what the server acknowledged, and the timings.
#[derive(Debug, Default)]
pub struct Record {
    /// The game's id.
    pub id: String,
    /// The commands the server acknowledged, in order.
    pub acknowledged: Vec<String>,
    /// A move sent whose answer never came (the connection failed): it may be stored or not.
    pub unanswered: Option<String>,
    /// Whether the game ended (rather than being cut at the move limit).
    pub ended: bool,
    /// From each move sent to the opponent's socket showing it.
    pub shown: Vec<Duration>,
    /// From each move sent to its acknowledgement.
    pub answered: Vec<Duration>,
    /// Actions answered 429 and sent again.
    pub busy: u64,
    /// From each move sent to each spectator's socket showing it.
    pub spectated: Vec<Duration>,
    /// Why the game stopped early, if it did.
    pub failure: Option<String>,
}

/// A path of the live API for game `id`.
fn act_path(id: &str) -> String {
    format!("/api/live/games/{id}/act")
}

/// Creates a game from `local` (red for its creator), joins it as blue, and opens both sockets.
pub async fn set_up(local: IpAddr, server: SocketAddr, index: usize) -> Result<Seated, LoadError> {
    let mut client = Client::new(local, server);
    let new = json!({ "name": format!("red {index}"), "color": "red" });
    let (status, created) = client.post("/api/live/games", &new).await?;
    if status != 201 {
        return Err(LoadError::Refused(status, created.to_string()));
    }
    let text = |key: &str| created[key].as_str().map(str::to_owned);
    let (Some(id), Some(red), Some(blue)) = (text("id"), text("token"), text("invite")) else {
        return Err(LoadError::Refused(status, created.to_string()));
    };
    let join = json!({ "token": blue, "action": "join", "name": format!("blue {index}") });
    let (status, joined) = client.post(&act_path(&id), &join).await?;
    if status != 200 {
        return Err(LoadError::Refused(status, joined.to_string()));
    }
    // Closed while the others are set up, opened again at the first move: the server holds
    // 1,024 connections at most.
    client.close();
    let sockets = [
        Socket::open(local, server, &id, &red).await?,
        Socket::open(local, server, &id, &blue).await?,
    ];
    Ok(Seated {
        id,
        local,
        server,
        tokens: [red, blue],
        client,
        sockets,
        sent: Arc::default(),
        spectated: Arc::default(),
        spectators: Vec::new(),
    })
}

/// Plays `seated` with random valid moves drawn from `seed`, each after a pause of about
/// `think` (drawn from the same seed, between half and one and a half times it), until it ends
/// or `max_moves` plies were played.
pub async fn play(mut seated: Seated, max_moves: usize, seed: u64, think: Duration) -> Record {
    let mut record = Record { id: seated.id.clone(), ..Record::default() };
    if let Err(error) = moves(&mut seated, (max_moves, think), seed, &mut record).await {
        record.failure = Some(error.to_string());
    }
    seated.client.close();
    let [red, blue] = seated.sockets;
    red.close().await;
    blue.close().await;
    for mut spectator in seated.spectators {
        let _ = spectator.sender.send(Message::Close(None)).await;
        // The reader ends when the server closes the socket in turn.
        let _ = tokio::time::timeout(Duration::from_secs(5), &mut spectator.reader).await;
        spectator.reader.abort();
    }
    record.spectated =
        std::mem::take(&mut *seated.spectated.lock().unwrap_or_else(PoisonError::into_inner));
    record
}

async fn moves(
    seated: &mut Seated,
    (max_moves, think): (usize, Duration),
    seed: u64,
    record: &mut Record,
) -> Result<(), LoadError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new();
    let path = act_path(&seated.id);
    for ply in 0..max_moves {
        let mover = ply % 2;
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let index = usize::try_from(rng.next_u64() % legal.len() as u64).unwrap_or(0);
        let mv = legal[index];
        let command = mv.to_string();
        let body = json!({ "token": seated.tokens[mover], "action": "move", "command": command });
        if !think.is_zero() {
            // Players do not move in step: each pause is drawn between half and one and a half
            // times `think`, so that a thousand games do not send their moves in one burst.
            let half = think / 2;
            let spread = u64::try_from(think.as_micros()).unwrap_or(u64::MAX).max(1);
            tokio::time::sleep(half + Duration::from_micros(rng.next_u64() % spread)).await;
        }
        seated.sockets[mover].drain();
        let sent = Instant::now();
        seated.sent.lock().unwrap_or_else(PoisonError::into_inner).push(sent);
        record.unanswered = Some(command.clone());
        let (status, text) = loop {
            let answer = seated.client.post_raw(&path, &body).await?;
            if answer.0 != 429 {
                break answer;
            }
            record.busy += 1;
            tokio::time::sleep(BACK_OFF).await;
        };
        record.unanswered = None;
        let answer = match serde_json::from_slice::<Answer<'_>>(&text) {
            Ok(answer) if status == 200 => answer,
            _ => return Err(LoadError::Refused(status, String::from_utf8_lossy(&text).into())),
        };
        record.answered.push(sent.elapsed());
        record.acknowledged.push(command);
        game.play(mv.from, mv.to).map_err(|e| LoadError::Diverged(e.to_string()))?;
        let shown = seated.sockets[1 - mover].wait(ply + 1).await?;
        record.shown.push(shown.saturating_duration_since(sent));
        if answer.status.as_deref() == Some("over") {
            record.ended = true;
            break;
        }
    }
    Ok(())
}
