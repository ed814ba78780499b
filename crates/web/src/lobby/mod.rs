//! The lobby at `/duck/lobby`: players find opponents there. Each player in the lobby holds a
//! WebSocket ([`socket`]); over it they post seeks (a time control, rated or casual, a colour or
//! random), see everyone's seeks live, accept one, ask for a quick pairing at a common time
//! control, or challenge a player by name. When two players agree, the server makes a live game
//! (`/duck/game/ID`) with both seats taken, and tells each player its seat's token: both land in
//! the game as if each had followed an invitation.
//!
//! Who may do what:
//! - Anyone may post and accept casual seeks and ask for quick pairings, signed in or not.
//! - A rated game needs two players signed in to two different accounts.
//! - A quick pairing is rated when both players are signed in and their ratings in the category
//!   are within [`CLOSE`] of each other; else it is casual.
//! - A challenge is a seek only the challenged player sees; both must be signed in, and the
//!   challenged player must be in the lobby.
//! - A seek goes when its owner's socket closes; when a game starts, both players' seeks and
//!   quick pairings go.
//!
//! The lobby lives in the memory of one server: servers sharing a database each have their own.
//! Games paired here follow the rules of [`rules`] (abort and claim).

pub(crate) mod rules;
mod socket;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arbiter_live::accounts::{Pairing, UserId};
use arbiter_live::{Games, New, Seat, TimeControl};
use arbiter_rating::{Category, Rating};
use axum::extract::ws::Utf8Bytes;
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::api::Endpoint;
use crate::assets;
use crate::live::{AnyStore, Live, now_ms};

/// The time controls of the quick-pairing grid.
pub(crate) const POOLS: [&str; 6] = ["1+0", "3+0", "3+2", "5+3", "10+0", "15+10"];

/// How close two ratings must be for a quick pairing to be rated.
pub(crate) const CLOSE: f64 = 300.0;

/// Seeks one player may have open at once.
pub(crate) const SEEKS_PER_PLAYER: usize = 3;

/// Players in the lobby at once.
pub(crate) const MEMBERS: usize = 10_000;

/// The name of a player who is not signed in.
pub(crate) const ANONYMOUS: &str = "Anonymous";

/// A socket in the lobby.
type MemberId = u64;

/// Who holds a socket in the lobby.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    /// The account's name, or [`ANONYMOUS`].
    pub(crate) name: String,
    /// The account, when signed in.
    pub(crate) user: Option<UserId>,
    /// The account's ratings where it has any.
    pub(crate) ratings: Vec<(Category, Rating)>,
}

impl Player {
    /// An anonymous player.
    pub(crate) fn anonymous() -> Player {
        Player { name: ANONYMOUS.to_owned(), user: None, ratings: Vec::new() }
    }

    /// The rating in `category`: a newcomer's where not rated yet.
    fn rating(&self, category: Category) -> Rating {
        self.ratings.iter().find(|(c, _)| *c == category).map_or(Rating::START, |(_, r)| *r)
    }
}

struct Member {
    player: Player,
    outbox: mpsc::Sender<Utf8Bytes>,
}

/// A seek: a game offered to anyone (or, for a challenge, to one player).
#[derive(Debug, Clone)]
struct Seek {
    id: u64,
    owner: MemberId,
    time: TimeControl,
    rated: bool,
    /// The owner's colour; `None` draws it.
    color: Option<Seat>,
    /// The challenged account and its name.
    to: Option<(UserId, String)>,
}

/// What a player asks, in a message over the socket.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum Request {
    /// Posts a seek.
    Seek {
        time: String,
        #[serde(default)]
        rated: bool,
        #[serde(default)]
        color: Option<String>,
    },
    /// Withdraws one's seek.
    Cancel { seek: String },
    /// Accepts a seek: the game starts.
    Accept { seek: String },
    /// Declines a challenge.
    Decline { seek: String },
    /// Asks for a quick pairing at one of [`POOLS`].
    Pair { time: String },
    /// Leaves the quick pairing.
    Unpair,
    /// Challenges the player named `name`, who must be in the lobby.
    Challenge {
        name: String,
        time: String,
        #[serde(default)]
        rated: bool,
        #[serde(default)]
        color: Option<String>,
    },
}

/// A game two players agreed on: red and blue, the time control, whether it is rated.
#[derive(Debug, Clone)]
struct Match {
    red: (MemberId, Player),
    blue: (MemberId, Player),
    time: TimeControl,
    rated: bool,
}

/// What the lobby holds: its players, their seeks and who waits for a quick pairing.
#[derive(Default)]
struct State {
    next: u64,
    members: HashMap<MemberId, Member>,
    seeks: Vec<Seek>,
    /// Quick pairings asked for, oldest first.
    waiting: Vec<(MemberId, TimeControl)>,
}

/// A seek as a player sees it.
#[derive(Debug, Serialize)]
struct SeekView {
    id: String,
    name: String,
    rating: Option<f64>,
    provisional: bool,
    time: String,
    category: Category,
    rated: bool,
    color: &'static str,
    mine: bool,
    to: Option<String>,
}

fn parse_time(text: &str) -> Result<TimeControl, String> {
    text.parse::<TimeControl>().map_err(|error| error.to_string())
}

fn parse_color(text: Option<&str>) -> Result<Option<Seat>, String> {
    match text {
        None | Some("random") => Ok(None),
        Some(name) => {
            Seat::parse(name).map(Some).ok_or_else(|| "color is red, blue or random".to_owned())
        }
    }
}

fn category(time: TimeControl) -> Category {
    Category::of(time.initial_ms, time.increment_ms)
}

impl State {
    fn player(&self, member: MemberId) -> Result<&Player, String> {
        self.members.get(&member).map(|m| &m.player).ok_or_else(|| "you left the lobby".to_owned())
    }

    /// Takes away every seek and quick pairing of `member`.
    fn clear(&mut self, member: MemberId) {
        self.seeks.retain(|seek| seek.owner != member);
        self.waiting.retain(|(waiting, _)| *waiting != member);
    }

    /// The game of `seek`, accepted by `taker`; both players' seeks and pairings go.
    fn start(&mut self, seek: Seek, taker: MemberId) -> Result<Match, String> {
        let owner = self.player(seek.owner)?.clone();
        let other = self.player(taker)?.clone();
        let owner_seat = match seek.color {
            Some(seat) => seat,
            None => random_seat(),
        };
        self.clear(seek.owner);
        self.clear(taker);
        let (red, blue) = match owner_seat {
            Seat::Red => ((seek.owner, owner), (taker, other)),
            Seat::Blue => ((taker, other), (seek.owner, owner)),
        };
        Ok(Match { red, blue, time: seek.time, rated: seek.rated })
    }

    /// Does what `member` asks; a game to start, or a refusal's message.
    fn handle(&mut self, member: MemberId, request: Request) -> Result<Option<Match>, String> {
        let player = self.player(member)?.clone();
        match request {
            Request::Seek { time, rated, color } => {
                let seek = self.seek(member, &player, &time, rated, color.as_deref(), None)?;
                self.seeks.push(seek);
                Ok(None)
            }
            Request::Challenge { name, time, rated, color } => {
                if player.user.is_none() {
                    return Err("sign in to challenge a player".into());
                }
                let target = self
                    .members
                    .values()
                    .map(|m| &m.player)
                    .find(|p| p.user.is_some() && p.name.eq_ignore_ascii_case(name.trim()))
                    .ok_or_else(|| format!("{} is not in the lobby", name.trim()))?;
                let (Some(to), target_name) = (target.user, target.name.clone()) else {
                    return Err("that player is not signed in".into());
                };
                if Some(to) == player.user {
                    return Err("you cannot challenge yourself".into());
                }
                let to = Some((to, target_name));
                let seek = self.seek(member, &player, &time, rated, color.as_deref(), to)?;
                self.seeks.push(seek);
                Ok(None)
            }
            Request::Cancel { seek } => {
                let id = seek_id(&seek)?;
                let before = self.seeks.len();
                self.seeks.retain(|s| !(s.id == id && s.owner == member));
                if self.seeks.len() == before {
                    return Err("no such seek of yours".into());
                }
                Ok(None)
            }
            Request::Decline { seek } => {
                let id = seek_id(&seek)?;
                let index = self
                    .seeks
                    .iter()
                    .position(|s| s.id == id && s.to.as_ref().map(|t| t.0) == player.user)
                    .filter(|_| player.user.is_some())
                    .ok_or_else(|| "no such challenge to you".to_owned())?;
                let declined = self.seeks.remove(index);
                self.tell(
                    declined.owner,
                    &serde_json::json!({
                        "type": "declined",
                        "seek": declined.id.to_string(),
                        "by": player.name,
                    }),
                );
                Ok(None)
            }
            Request::Accept { seek } => {
                let id = seek_id(&seek)?;
                let index = self
                    .seeks
                    .iter()
                    .position(|s| s.id == id)
                    .ok_or_else(|| "this seek is gone".to_owned())?;
                let found = self.seeks[index].clone();
                if found.owner == member {
                    return Err("this is your own seek".into());
                }
                if let Some((to, _)) = found.to
                    && player.user != Some(to)
                {
                    return Err("this challenge is for another player".into());
                }
                if found.rated {
                    let owner = self.player(found.owner)?;
                    match (player.user, owner.user) {
                        (None, _) => return Err("sign in to play rated games".into()),
                        (mine, theirs) if mine == theirs => {
                            return Err("you cannot play yourself".into());
                        }
                        _ => {}
                    }
                }
                self.seeks.remove(index);
                self.start(found, member).map(Some)
            }
            Request::Pair { time } => {
                if !POOLS.contains(&time.trim()) {
                    return Err(format!("quick pairing is at {}", POOLS.join(", ")));
                }
                let time = parse_time(&time)?;
                self.waiting.retain(|(waiting, _)| *waiting != member);
                let found = self.waiting.iter().position(|(other, control)| {
                    *control == time
                        && self.members.get(other).is_some_and(|m| {
                            m.player.user.is_none() || m.player.user != player.user
                        })
                });
                let Some(index) = found else {
                    self.waiting.push((member, time));
                    return Ok(None);
                };
                let (other, _) = self.waiting.remove(index);
                let them = self.player(other)?;
                let category = category(time);
                let rated = player.user.is_some()
                    && them.user.is_some()
                    && (player.rating(category).rating - them.rating(category).rating).abs()
                        <= CLOSE;
                let seek = Seek { id: 0, owner: other, time, rated, color: None, to: None };
                self.start(seek, member).map(Some)
            }
            Request::Unpair => {
                self.waiting.retain(|(waiting, _)| *waiting != member);
                Ok(None)
            }
        }
    }

    /// A new seek of `member`, checked.
    fn seek(
        &mut self,
        member: MemberId,
        player: &Player,
        time: &str,
        rated: bool,
        color: Option<&str>,
        to: Option<(UserId, String)>,
    ) -> Result<Seek, String> {
        let time = parse_time(time)?;
        let color = parse_color(color)?;
        if rated && player.user.is_none() {
            return Err("sign in to play rated games".into());
        }
        if self.seeks.iter().filter(|s| s.owner == member).count() >= SEEKS_PER_PLAYER {
            return Err(format!("at most {SEEKS_PER_PLAYER} seeks at once"));
        }
        self.next += 1;
        Ok(Seek { id: self.next, owner: member, time, rated, color, to })
    }

    /// The seeks `viewer` sees (`None`: anyone, not in the lobby): every open seek, and the
    /// challenges to or from them.
    fn seeks(&self, viewer: Option<MemberId>) -> Vec<SeekView> {
        let user = viewer.and_then(|v| self.members.get(&v)).and_then(|m| m.player.user);
        self.seeks
            .iter()
            .filter(|seek| match &seek.to {
                None => true,
                Some((to, _)) => Some(seek.owner) == viewer || Some(*to) == user,
            })
            .filter_map(|seek| {
                let owner = &self.members.get(&seek.owner)?.player;
                let category = category(seek.time);
                let rating = owner.user.map(|_| owner.rating(category));
                Some(SeekView {
                    id: seek.id.to_string(),
                    name: owner.name.clone(),
                    rating: rating.map(|r| r.rating.round()),
                    provisional: rating.is_some_and(|r| r.is_provisional()),
                    time: seek.time.to_string(),
                    category,
                    rated: seek.rated,
                    color: seek.color.map_or("random", Seat::name),
                    mine: Some(seek.owner) == viewer,
                    to: seek.to.as_ref().map(|(_, name)| name.clone()),
                })
            })
            .collect()
    }

    /// Sends `message` to `member` (dropped if its socket is too far behind).
    fn tell(&self, member: MemberId, message: &serde_json::Value) {
        if let Some(m) = self.members.get(&member) {
            let _ = m.outbox.try_send(Utf8Bytes::from(message.to_string()));
        }
    }

    /// Sends every player the lobby as they see it.
    fn broadcast(&self) {
        for (&id, member) in &self.members {
            let pairing = self.waiting.iter().find(|(w, _)| *w == id).map(|(_, t)| t.to_string());
            let message = serde_json::json!({
                "type": "lobby",
                "seeks": self.seeks(Some(id)),
                "pairing": pairing,
                "players": self.members.len(),
            });
            let _ = member.outbox.try_send(Utf8Bytes::from(message.to_string()));
        }
    }
}

/// Red or blue, at random.
fn random_seat() -> Seat {
    let mut coin = [0u8; 1];
    // Without randomness the owner takes red.
    let _ = getrandom::fill(&mut coin);
    if coin[0] & 1 == 0 { Seat::Red } else { Seat::Blue }
}

fn seek_id(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| "no such seek".to_owned())
}

/// The lobby.
pub(crate) struct Lobby {
    state: Mutex<State>,
    live: Arc<Live>,
    rules: Arc<rules::Rules>,
}

impl Lobby {
    /// The lobby that makes its games among `live`'s.
    pub(crate) fn new(live: &Arc<Live>) -> Arc<Lobby> {
        Arc::new(Lobby {
            state: Mutex::new(State::default()),
            live: Arc::clone(live),
            rules: rules::Rules::new(live),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn games(&self) -> &Arc<Games<AnyStore>> {
        self.live.games()
    }

    /// Lets `player` in, with `outbox` for what it is sent; `None` when the lobby is full.
    fn join(&self, player: Player, outbox: mpsc::Sender<Utf8Bytes>) -> Option<MemberId> {
        let mut state = self.state();
        if state.members.len() >= MEMBERS {
            return None;
        }
        state.next += 1;
        let id = state.next;
        let hello = serde_json::json!({
            "type": "hello",
            "user": player.user.map(|_| serde_json::json!({ "name": player.name })),
            "pools": POOLS,
        });
        let _ = outbox.try_send(Utf8Bytes::from(hello.to_string()));
        state.members.insert(id, Member { player, outbox });
        state.broadcast();
        Some(id)
    }

    /// Lets `member` go, with its seeks.
    fn leave(&self, member: MemberId) {
        let mut state = self.state();
        state.clear(member);
        state.members.remove(&member);
        state.broadcast();
    }

    /// Does what `member` asks: refusals are told to it, games made and both players told.
    async fn handle(&self, member: MemberId, request: Request) {
        let outcome = {
            let mut state = self.state();
            let outcome = state.handle(member, request);
            if let Err(message) = &outcome {
                state.tell(member, &serde_json::json!({ "type": "error", "error": message }));
            }
            state.broadcast();
            outcome
        };
        if let Ok(Some(game)) = outcome {
            self.start(game).await;
        }
    }

    /// Makes the game of `game` and hands each player its seat.
    async fn start(&self, game: Match) {
        let Match { red, blue, time, rated } = game;
        let games = Arc::clone(self.games());
        let (red_name, blue_name) = (red.1.name.clone(), blue.1.name.clone());
        let pairing = Pairing { users: [red.1.user, blue.1.user], rated };
        let made = tokio::task::spawn_blocking(move || {
            let new = New { name: red_name, seat: Some(Seat::Red), time: Some(time) };
            games.create_with(new, now_ms(), |game| {
                game.names[1] = Some(blue_name);
                game.pairing = Some(pairing);
            })
        })
        .await;
        let state = self.state();
        let created = match made {
            Ok(Ok(created)) => created,
            Ok(Err(error)) => {
                let message =
                    serde_json::json!({ "type": "error", "error": format!("no game: {error}") });
                state.tell(red.0, &message);
                state.tell(blue.0, &message);
                return;
            }
            Err(_) => return,
        };
        self.rules.watch(created.id.clone());
        let path = format!("/duck/game/{}", created.id);
        for (member, seat, token, opponent) in [
            (red.0, Seat::Red, &created.token, &blue.1.name),
            (blue.0, Seat::Blue, &created.invite, &red.1.name),
        ] {
            state.tell(
                member,
                &serde_json::json!({
                    "type": "start",
                    "game": {
                        "id": created.id,
                        "path": path,
                        "seat": seat,
                        "token": token,
                        "rated": rated,
                        "time": time.to_string(),
                        "opponent": opponent,
                    },
                }),
            );
        }
    }
}

/// The lobby's page.
pub(crate) fn pages() -> Router {
    Router::new().route(
        "/duck/lobby",
        get(|headers: axum::http::HeaderMap| async move { assets::serve("lobby.html", &headers) }),
    )
}

/// The lobby's endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    let mut all = vec![
        Endpoint {
            method: "GET",
            path: "/api/lobby/seeks",
            about: "the open seeks {id, name, rating, provisional, time, category, rated, color} \
                    and the players in the lobby",
            route: get(seeks),
        },
        Endpoint {
            method: "GET",
            path: "/api/lobby/socket",
            about: "WebSocket: the lobby live (seeks, quick pairing) and the player's requests: \
                    seek, cancel, accept, decline, pair, unpair, challenge",
            route: get(socket::upgrade),
        },
    ];
    all.extend(rules::endpoints());
    all
}

async fn seeks(Extension(lobby): Extension<Arc<Lobby>>) -> Json<serde_json::Value> {
    let state = lobby.state();
    Json(serde_json::json!({ "seeks": state.seeks(None), "players": state.members.len() }))
}

#[cfg(test)]
mod tests;
