//! The authority over every game served: it creates games, hands each action to its game one at
//! a time, commits the result to the [`Store`] and only then makes it the game everyone sees.
//!
//! Each game has a lock of its own, so actions on one game are serialised while other games go
//! on, and are committed at once as far as the store allows (SQLite has one writer; PostgreSQL
//! a pool of connections). Games are read from the
//! store on first use and kept in memory while they go on; a finished game, which no action can
//! change any more, is read from the store each time it is asked for. A game left alone for long
//! (no action, no look-up) is dropped from memory by [`Games::forget_idle`] and read back from the
//! store at its next use, so that abandoned games do not fill the memory.
//!
//! When the store is [shared](Store::shared) with other servers, a game kept in memory may be
//! out of date: before each use its version is checked against the store's, and it is read again
//! if another server changed it. A change made meanwhile elsewhere makes the commit
//! [stale](StoreError::Stale): the game is read again and the action judged anew on it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::game::{Action, LiveGame, New, Refusal, View};
use crate::seat::{GameId, Seat, Token};
use crate::store::{Filter, Page, Store, StoreError, Summary};

/// Why an action or a look-up failed.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// No game has that id.
    #[error("no such game")]
    NotFound,
    /// The token holds no seat of the game.
    #[error("this seat token holds no seat of the game")]
    NotASeat,
    /// The game refuses the action.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The store failed: nothing changed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The system's random generator failed.
    #[error("no randomness for a new game: {0}")]
    Random(getrandom::Error),
}

/// A game just created: what its creator is told, and no one else.
#[derive(Debug, Clone)]
pub struct Created {
    /// The game's id.
    pub id: GameId,
    /// The creator's seat.
    pub seat: Seat,
    /// The creator's token.
    pub token: String,
    /// The other seat's token, for the invitation.
    pub invite: String,
}

/// Commits tried again on a game another server keeps changing, before giving up.
const RETRIES: usize = 8;

/// Every game served, over a store `S`.
pub struct Games<S: Store> {
    store: S,
    games: Mutex<HashMap<GameId, Kept>>,
    /// Whether other servers change the store's games too.
    shared: bool,
}

/// A game kept in memory, and when it was last used (ms since the epoch).
struct Kept {
    game: Arc<Mutex<LiveGame>>,
    used: u64,
}

impl Kept {
    fn new(game: LiveGame, now: u64) -> Kept {
        Kept { game: Arc::new(Mutex::new(game)), used: now }
    }
}

/// A lock taken even if a thread panicked holding it: each game is replaced whole, never left
/// half-changed.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S: Store> Games<S> {
    /// The games kept in `store`.
    pub fn new(store: S) -> Games<S> {
        let shared = store.shared();
        Games { store, games: Mutex::new(HashMap::new()), shared }
    }

    /// Brings `game` up to date with the store when another server may have changed it.
    fn refresh(&self, game: &mut LiveGame, now: u64) -> Result<(), LiveError> {
        if self.shared {
            let stored = self.store.version(&game.id)?;
            if stored != Some(game.version) {
                self.reload(game, now)?;
            }
        }
        Ok(())
    }

    /// Reads `game` again from the store.
    fn reload(&self, game: &mut LiveGame, now: u64) -> Result<(), LiveError> {
        *game = self.store.load(&game.id, now)?.ok_or(LiveError::NotFound)?;
        Ok(())
    }

    /// The game `id`, from memory or else from the store.
    fn game(&self, id: &GameId, now: u64) -> Result<Arc<Mutex<LiveGame>>, LiveError> {
        if let Some(kept) = lock(&self.games).get_mut(id) {
            kept.used = kept.used.max(now);
            return Ok(Arc::clone(&kept.game));
        }
        let loaded = self.store.load(id, now)?.ok_or(LiveError::NotFound)?;
        // Another request may have loaded it meanwhile: the first one kept wins.
        let mut games = lock(&self.games);
        Ok(Arc::clone(&games.entry(id.clone()).or_insert_with(|| Kept::new(loaded, now)).game))
    }

    /// Creates a game at `now` and commits it.
    pub fn create(&self, new: New, now: u64) -> Result<Created, LiveError> {
        let id = GameId::random().map_err(LiveError::Random)?;
        let tokens = [
            Token::random().map_err(LiveError::Random)?,
            Token::random().map_err(LiveError::Random)?,
        ];
        let seat = match new.seat {
            Some(seat) => seat,
            None => {
                let mut coin = [0u8; 1];
                getrandom::fill(&mut coin).map_err(LiveError::Random)?;
                if coin[0] & 1 == 0 { Seat::Red } else { Seat::Blue }
            }
        };
        let mut game = LiveGame::new(id.clone(), tokens, seat, &new.name, new.time, now);
        game.version = 1;
        self.store.save(&game)?;
        let created = Created {
            id: id.clone(),
            seat,
            token: game.tokens[seat.index()].reveal().to_owned(),
            invite: game.tokens[seat.other().index()].reveal().to_owned(),
        };
        lock(&self.games).insert(id, Kept::new(game, now));
        Ok(created)
    }

    /// Changes `game` by `change` on a copy, commits the copy when it differs, and keeps it. A
    /// stale commit reads the game again and judges the change anew.
    fn commit(
        &self,
        game: &mut LiveGame,
        now: u64,
        change: impl Fn(&mut LiveGame) -> Result<bool, Refusal>,
    ) -> Result<(), LiveError> {
        let mut tries = 0;
        loop {
            let mut next = game.clone();
            if !change(&mut next)? {
                return Ok(());
            }
            next.version = game.version + 1;
            match self.store.save(&next) {
                Ok(()) => {
                    *game = next;
                    return Ok(());
                }
                Err(StoreError::Stale(_)) if tries < RETRIES => {
                    tries += 1;
                    self.reload(game, now)?;
                }
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Forgets the game `id` once it is over: it can no longer change, so the store's copy is
    /// the game.
    fn settle(&self, id: &GameId, game: &LiveGame) {
        if game.end.is_some() {
            lock(&self.games).remove(id);
        }
    }

    /// The game as everyone may see it at `now`, ended first if a clock has run out.
    pub fn view(&self, id: &GameId, now: u64) -> Result<View, LiveError> {
        let game = self.game(id, now)?;
        let mut game = lock(&game);
        self.refresh(&mut game, now)?;
        self.commit(&mut game, now, |g| Ok(g.flag(now)))?;
        self.settle(id, &game);
        Ok(game.view(now))
    }

    /// The seat `token` holds in the game `id`.
    pub fn seat(&self, id: &GameId, token: &str, now: u64) -> Result<Seat, LiveError> {
        let game = self.game(id, now)?;
        lock(&game).seat_of(token).ok_or(LiveError::NotASeat)
    }

    /// Applies `action` of the seat `token` holds at `now`; answers once it is committed. A clock
    /// found run out ends the game first (committed too), and the action is then refused.
    pub fn act(
        &self,
        id: &GameId,
        token: &str,
        action: Action,
        now: u64,
    ) -> Result<View, LiveError> {
        let game = self.game(id, now)?;
        let mut game = lock(&game);
        let seat = game.seat_of(token).ok_or(LiveError::NotASeat)?;
        self.refresh(&mut game, now)?;
        self.commit(&mut game, now, |g| Ok(g.flag(now)))?;
        let applied = if action.is_rematch() {
            self.rematch(&mut game, seat, &action, now)
        } else {
            self.commit(&mut game, now, |g| g.apply(seat, action.clone(), now).map(|()| true))
        };
        self.settle(id, &game);
        applied?;
        Ok(game.view(now))
    }

    /// Applies a rematch action of `seat` to the finished `game`. When it agrees the rematch,
    /// the new game is committed first, and only then the link to it: a link never names a game
    /// the store lacks.
    fn rematch(
        &self,
        game: &mut LiveGame,
        seat: Seat,
        action: &Action,
        now: u64,
    ) -> Result<(), LiveError> {
        let id = GameId::random().map_err(LiveError::Random)?;
        if game.clone().answer_rematch(seat, action, &id)? {
            let mut rematch = game.rematch_game(id.clone(), now);
            rematch.version = 1;
            self.store.save(&rematch)?;
            lock(&self.games).insert(id.clone(), Kept::new(rematch, now));
        }
        self.commit(game, now, |g| g.answer_rematch(seat, action, &id).map(|_| true))
    }

    /// When the game `id`'s running clock runs out, if one runs.
    pub fn deadline(&self, id: &GameId, now: u64) -> Result<Option<u64>, LiveError> {
        let game = self.game(id, now)?;
        let mut game = lock(&game);
        self.refresh(&mut game, now)?;
        Ok(game.deadline())
    }

    /// The game `id` as the official input (`Q`, then the commands) and its position as FEN.
    pub fn export(&self, id: &GameId, now: u64) -> Result<(String, String), LiveError> {
        let game = self.game(id, now)?;
        let mut game = lock(&game);
        self.refresh(&mut game, now)?;
        Ok((game.official(), game.game().position().to_string()))
    }

    /// Drops from memory the games unused for `idle_ms` or more at `now` that `watched` does not
    /// name, and returns how many were dropped; each stays in the store, read back at its next
    /// use. A game whose clock runs is kept (reading it back would restart its clock, and its
    /// flag ends it in time anyway) unless its time has run out: it is then ended, committed and
    /// dropped. A game a request is using at that moment is kept.
    pub fn forget_idle(&self, now: u64, idle_ms: u64, watched: impl Fn(&GameId) -> bool) -> usize {
        let mut games = lock(&self.games);
        let before = games.len();
        games.retain(|id, kept| {
            // Only the map holds it, and no other can take it while the map is locked.
            if now.saturating_sub(kept.used) < idle_ms
                || watched(id)
                || Arc::strong_count(&kept.game) > 1
            {
                return true;
            }
            let mut game = lock(&kept.game);
            if game.deadline().is_some() {
                // A store that fails keeps the game as it was, in memory.
                let _ = self.commit(&mut game, now, |g| Ok(g.flag(now)));
            }
            game.deadline().is_some()
        });
        before - games.len()
    }

    /// Whether the store answers now ([`Store::ready`]).
    pub fn ready(&self) -> Result<(), LiveError> {
        Ok(self.store.ready()?)
    }

    /// The games kept in memory now.
    pub fn kept(&self) -> usize {
        lock(&self.games).len()
    }

    /// One page of the games matching `filter`, newest first, and how many match.
    pub fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), LiveError> {
        Ok(self.store.list(filter, page)?)
    }
}
