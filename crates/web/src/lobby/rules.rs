//! The rules of the games paired in the lobby, rated or casual (games by link keep their own):
//!
//! - **Abort.** Until both sides have made their first move, either player may abort the game,
//!   and a side that has not made its first move within [`FIRST_MOVE_MS`] (30 s, from the start
//!   for red, from red's first move for blue) aborts it. An aborted game has no result and is
//!   not rated. The clocks do not run before both have moved, so without this a game whose
//!   player never came would stay open for ever.
//! - **Claim.** Once both have moved, a player whose opponent has been gone (no page of theirs
//!   open on the game) for [`GONE_MS`] (60 s) may claim the win, without waiting for the absent
//!   player's clock to run out.
//!
//! The server keeps a timer for the games it paired, which aborts them in time; after a restart
//! the timer of a game paired before is gone, and the game waits for its players (either may
//! still abort it). A seat's presence is counted by the sockets of the game's page on this
//! server ([`crate::live::presence`]).

use std::cell::Cell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use arbiter_live::{End, GameId, LiveGame, Refusal, Seat};
use axum::extract::Path as UrlPath;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Extension, Json};
use serde::Deserialize;

use crate::accounts::Refusal as Refused;
use crate::api::{Body, Endpoint};
use crate::live::{Live, now_ms};

/// The time a side has for its first move before the game is aborted.
pub(crate) const FIRST_MOVE_MS: u64 = 30_000;

/// How long a player must have been gone before the opponent may claim the win.
pub(crate) const GONE_MS: u64 = 60_000;

/// How often the games in their first moves are looked at.
const TICK: Duration = Duration::from_millis(500);

/// The rules' state: the games paired here still in their first moves, and who is present.
pub(crate) struct Rules {
    live: Weak<Live>,
    opening: Mutex<HashSet<GameId>>,
    ticking: AtomicBool,
}

/// Whether `game`, paired in the lobby, is to be aborted at `now`: a side has not made its first
/// move in time.
pub(crate) fn abort_due(game: &LiveGame, now: u64) -> bool {
    game.pairing.is_some()
        && game.end.is_none()
        && game.moves.len() < 2
        && now.saturating_sub(game.turn_since) >= FIRST_MOVE_MS
}

/// The end of an aborted game.
const ABORTED: End = End { winner: None, reason: arbiter_live::accounts::ABORTED };

impl Rules {
    pub(crate) fn new(live: &Arc<Live>) -> Arc<Rules> {
        Arc::new(Rules {
            live: Arc::downgrade(live),
            opening: Mutex::new(HashSet::new()),
            ticking: AtomicBool::new(false),
        })
    }

    fn opening(&self) -> MutexGuard<'_, HashSet<GameId>> {
        self.opening.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps the timer of the game `id`, just paired, until both sides have moved.
    pub(crate) fn watch(self: &Arc<Rules>, id: GameId) {
        self.opening().insert(id);
        if !self.ticking.swap(true, Ordering::AcqRel) {
            let rules = Arc::clone(self);
            tokio::spawn(async move { rules.tick().await });
        }
    }

    /// Looks at the games in their first moves every [`TICK`] while there are any.
    async fn tick(self: Arc<Rules>) {
        loop {
            tokio::time::sleep(TICK).await;
            let Some(live) = self.live.upgrade() else { return };
            let ids: Vec<GameId> = self.opening().iter().cloned().collect();
            for id in ids {
                let games = Arc::clone(live.games());
                let key = id.clone();
                let checked = tokio::task::spawn_blocking(move || {
                    let now = now_ms();
                    let aborted = Cell::new(false);
                    let view = games.change(&key, now, |game| {
                        aborted.set(abort_due(game, now));
                        Ok(aborted.get() && game.conclude(ABORTED).is_ok())
                    });
                    view.map(|view| {
                        (view.status == "over", view.commands.len() >= 2, aborted.get())
                    })
                })
                .await;
                let (over, opened, aborted) = match checked {
                    Ok(Ok(found)) => found,
                    // A game gone, or a store that fails: looked at again at the next tick
                    // unless it is gone.
                    Ok(Err(arbiter_live::LiveError::NotFound)) => (true, false, false),
                    _ => continue,
                };
                if aborted {
                    live.publish(id.clone()).await;
                }
                if over || opened {
                    self.opening().remove(&id);
                }
                if over {
                    live.presence().forget(&id);
                }
            }
            let mut opening = self.opening();
            if opening.is_empty() {
                // Stopped under the lock: a game watched meanwhile starts the timer again.
                self.ticking.store(false, Ordering::Release);
                opening.shrink_to_fit();
                return;
            }
        }
    }
}

/// The endpoints of the rules.
pub(super) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/live/games/{id}/abort",
            about: "abort a game paired in the lobby before both sides have moved {token}: no \
                    result, no rating",
            route: post(abort),
        },
        Endpoint {
            method: "POST",
            path: "/api/live/games/{id}/claim",
            about: "claim the win of a game paired in the lobby whose opponent has been gone for \
                    60 s {token}",
            route: post(claim),
        },
    ]
}

/// The body of an abort or a claim.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    token: String,
}

/// Why a rule refuses.
#[derive(Debug, Clone, Copy)]
enum Why {
    NotPaired,
    Opened,
    NotOpened,
    Present,
}

impl Why {
    fn refusal(self) -> Refused {
        let (reason, message) = match self {
            Why::NotPaired => {
                ("not-paired", "only games paired in the lobby can be aborted or claimed")
            }
            Why::Opened => ("opened", "both sides have moved: the game can no longer be aborted"),
            Why::NotOpened => {
                ("not-opened", "before both sides have moved, abort the game instead")
            }
            Why::Present => ("present", "your opponent has not been gone for 60 s"),
        };
        Refused::new(StatusCode::CONFLICT, reason, message)
    }
}

/// Applies `rule` to the game `id` for the seat `token` holds, and tells the game's sockets.
async fn apply(
    live: &Arc<Live>,
    id: String,
    token: String,
    rule: impl Fn(&mut LiveGame, Seat, u64) -> Result<Result<(), Why>, Refusal> + Send + 'static,
) -> Result<Json<arbiter_live::View>, Refused> {
    let id = GameId::parse(&id).ok_or_else(|| {
        Refused::new(StatusCode::BAD_REQUEST, "malformed", "a game id is 10 letters and digits")
    })?;
    let games = Arc::clone(live.games());
    let key = id.clone();
    let applied = tokio::task::spawn_blocking(
        move || -> Result<Result<arbiter_live::View, Why>, arbiter_live::LiveError> {
            let now = now_ms();
            let seat = games.seat(&key, &token, now)?;
            let why = Cell::new(Ok(()));
            let view = games.change(&key, now, |game| {
                why.set(rule(game, seat, now)?);
                Ok(why.get().is_ok())
            })?;
            Ok(why.get().map(|()| view))
        },
    )
    .await
    .map_err(|_| Refused::new(StatusCode::INTERNAL_SERVER_ERROR, "server", "the job failed"))?;
    live.publish(id).await;
    match applied {
        Ok(Ok(view)) => Ok(Json(view)),
        Ok(Err(why)) => Err(why.refusal()),
        Err(arbiter_live::LiveError::NotASeat) => Err(Refused::new(
            StatusCode::FORBIDDEN,
            "not-a-seat",
            "this seat token holds no seat of the game",
        )),
        Err(arbiter_live::LiveError::NotFound) => {
            Err(Refused::new(StatusCode::NOT_FOUND, "no-game", "no such game"))
        }
        Err(arbiter_live::LiveError::Refused(refusal)) => {
            Err(Refused::new(StatusCode::CONFLICT, "over", refusal.to_string()))
        }
        Err(error) => {
            Err(Refused::new(StatusCode::INTERNAL_SERVER_ERROR, "server", error.to_string()))
        }
    }
}

async fn abort(
    Extension(live): Extension<Arc<Live>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<SeatRequest>,
) -> Result<Json<arbiter_live::View>, Refused> {
    apply(&live, id, request.token, |game, _seat, _now| {
        if game.pairing.is_none() {
            return Ok(Err(Why::NotPaired));
        }
        if game.moves.len() >= 2 {
            return Ok(Err(Why::Opened));
        }
        game.conclude(ABORTED).map(Ok)
    })
    .await
}

async fn claim(
    Extension(live): Extension<Arc<Live>>,
    UrlPath(id): UrlPath<String>,
    Body(request): Body<SeatRequest>,
) -> Result<Json<arbiter_live::View>, Refused> {
    let present = Arc::clone(&live);
    apply(&live, id, request.token, move |game, seat, now| {
        if game.pairing.is_none() {
            return Ok(Err(Why::NotPaired));
        }
        if game.moves.len() < 2 {
            return Ok(Err(Why::NotOpened));
        }
        let gone = present.presence().gone_since(&game.id, seat.other());
        if gone.is_none_or(|since| now.saturating_sub(since) < GONE_MS) {
            return Ok(Err(Why::Present));
        }
        game.conclude(End { winner: Some(seat), reason: "abandoned" }).map(Ok)
    })
    .await
}

#[cfg(test)]
mod tests {
    use arbiter_live::accounts::Pairing;
    use arbiter_live::{Action, New, TimeControl};
    use axum::body::{Body as Bytes, to_bytes};
    use axum::http::{Request, header};
    use tower::ServiceExt;

    use super::*;

    /// A game paired in the lobby (or by link, when `paired` is false), created at `now`:
    /// (id, red token, blue token).
    fn game(live: &Arc<Live>, paired: bool, now: u64) -> (GameId, String, String) {
        let time = Some(TimeControl { initial_ms: 60_000, increment_ms: 0 });
        let new = New { name: "ann".into(), seat: Some(Seat::Red), time };
        let created = live
            .games()
            .create_with(new, now, |game| {
                game.names[1] = Some("bob".into());
                game.pairing = paired.then_some(Pairing { users: [None, None], rated: false });
            })
            .unwrap();
        (created.id, created.token, created.invite)
    }

    #[test]
    fn a_side_that_does_not_make_its_first_move_in_time_aborts_the_game() {
        let live = Live::open(
            &crate::Storage::Memory,
            crate::Limits::default(),
            crate::metrics::Metrics::new(),
        )
        .unwrap();
        let (id, red, _) = game(&live, true, 1_000);
        let at = |now| {
            live.games().change(&id, now, |g| Ok(abort_due(g, now) && g.conclude(ABORTED).is_ok()))
        };
        assert_eq!(at(30_999).unwrap().status, "ongoing");
        let mv = Action::Move { command: "0 3 1 4".into() };
        live.games().act(&id, &red, mv, 30_000).unwrap();
        // Blue has 30 s from red's move.
        assert_eq!(at(59_999).unwrap().status, "ongoing");
        let view = at(60_000).unwrap();
        assert_eq!(view.end.map(|end| end.reason), Some("aborted"));
        // A game by link waits as long as it takes.
        let (link, _, _) = game(&live, false, 0);
        let later = 10 * FIRST_MOVE_MS;
        let view = live.games().change(&link, later, |g| Ok(abort_due(g, later))).unwrap();
        assert_eq!(view.status, "ongoing");
    }

    async fn post(live: &Arc<Live>, path: String, token: &str) -> (StatusCode, serde_json::Value) {
        let app = crate::routes::router().layer(Extension(Arc::clone(live)));
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Bytes::from(serde_json::json!({ "token": token }).to_string()))
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn either_player_may_abort_before_both_have_moved() {
        let live = Live::open(
            &crate::Storage::Memory,
            crate::Limits::default(),
            crate::metrics::Metrics::new(),
        )
        .unwrap();
        let (id, red, blue) = game(&live, true, now_ms());
        let (status, reply) =
            post(&live, format!("/api/live/games/{id}/abort"), "not a token").await;
        assert_eq!((status, reply["reason"].as_str()), (StatusCode::FORBIDDEN, Some("not-a-seat")));
        let mv = Action::Move { command: "0 3 1 4".into() };
        live.games().act(&id, &red, mv, now_ms()).unwrap();
        let (status, reply) = post(&live, format!("/api/live/games/{id}/abort"), &blue).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        assert_eq!(reply["end"]["reason"], "aborted");
        assert_eq!(reply["end"]["winner"], serde_json::Value::Null);
        // Once both have moved, no more.
        let (id, red, blue) = game(&live, true, now_ms());
        live.games().act(&id, &red, Action::Move { command: "0 3 1 4".into() }, now_ms()).unwrap();
        live.games().act(&id, &blue, Action::Move { command: "9 4 8 4".into() }, now_ms()).unwrap();
        let (status, reply) = post(&live, format!("/api/live/games/{id}/abort"), &red).await;
        assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("opened")));
        // Games by link are not the lobby's.
        let (link, red, _) = game(&live, false, now_ms());
        let (status, reply) = post(&live, format!("/api/live/games/{link}/abort"), &red).await;
        assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("not-paired")));
    }

    #[tokio::test]
    async fn a_player_gone_60_s_loses_the_game_on_claim() {
        let live = Live::open(
            &crate::Storage::Memory,
            crate::Limits::default(),
            crate::metrics::Metrics::new(),
        )
        .unwrap();
        let (id, red, blue) = game(&live, true, now_ms());
        let claim = format!("/api/live/games/{id}/claim");
        let (status, reply) = post(&live, claim.clone(), &red).await;
        assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("not-opened")));
        live.games().act(&id, &red, Action::Move { command: "0 3 1 4".into() }, now_ms()).unwrap();
        live.games().act(&id, &blue, Action::Move { command: "9 4 8 4".into() }, now_ms()).unwrap();
        // Blue was never seen on this server: not known gone.
        let (status, reply) = post(&live, claim.clone(), &red).await;
        assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("present")));
        // Blue's page closed 59 s ago: not yet.
        live.presence().arrived(&id, Seat::Blue);
        live.presence().left(&id, Seat::Blue, now_ms() - 59_000);
        let (status, _) = post(&live, claim.clone(), &red).await;
        assert_eq!(status, StatusCode::CONFLICT);
        // Back, and gone again for over a minute.
        live.presence().arrived(&id, Seat::Blue);
        live.presence().left(&id, Seat::Blue, now_ms() - GONE_MS - 1);
        let (status, reply) = post(&live, claim.clone(), &blue).await;
        assert_eq!(
            (status, reply["reason"].as_str()),
            (StatusCode::CONFLICT, Some("present")),
            "red is not gone"
        );
        let (status, reply) = post(&live, claim, &red).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        assert_eq!(
            (reply["end"]["winner"].as_str(), reply["end"]["reason"].as_str()),
            (Some("red"), Some("abandoned"))
        );
        assert_eq!(reply["end"]["text"], "red wins: blue left the game");
    }
}
