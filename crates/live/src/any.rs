//! A store chosen at run time, SQLite or PostgreSQL, with everything a server keeps: the games
//! ([`Store`]), the accounts beside them ([`AccountStore`]) and the learning side
//! ([`LearnStore`]).

use arbiter_rating::{Category, Rating};

use crate::accounts::{
    AccountStore, Counts, GameFilter, Leader, PlayerGame, Point, Rated, Session, User, UserName,
};
use crate::game::LiveGame;
use crate::learn::{
    AnalysisRequest, Attempted, Finished, LearnStore, PuzzlePoint, PuzzleRated, StoredAnalysis,
};
use crate::pairing::UserId;
use crate::seat::GameId;
use crate::store::{Filter, Page, Store, StoreError, Summary};

/// A store of the games, the accounts and the learning side: what a server runs on.
pub trait ServerStore: Store + AccountStore + LearnStore {}

impl<T: Store + AccountStore + LearnStore> ServerStore for T {}

/// A [`ServerStore`] chosen at run time.
pub type AnyStore = Box<dyn ServerStore>;

impl Store for AnyStore {
    fn save(&self, game: &LiveGame) -> Result<(), StoreError> {
        (**self).save(game)
    }

    fn load(&self, id: &GameId, now: u64) -> Result<Option<LiveGame>, StoreError> {
        (**self).load(id, now)
    }

    fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError> {
        (**self).list(filter, page)
    }

    fn version(&self, id: &GameId) -> Result<Option<u64>, StoreError> {
        (**self).version(id)
    }

    fn shared(&self) -> bool {
        (**self).shared()
    }
}

/// A store chosen at run time keeps the accounts too.
impl AccountStore for AnyStore {
    fn add_user(&self, n: &UserName, p: &str, now: u64) -> Result<Option<User>, StoreError> {
        (**self).add_user(n, p, now)
    }

    fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError> {
        (**self).user(name)
    }

    fn set_password(&self, user: UserId, password: &str) -> Result<(), StoreError> {
        (**self).set_password(user, password)
    }

    fn delete_user(&self, user: UserId) -> Result<(), StoreError> {
        (**self).delete_user(user)
    }

    fn ongoing(&self, user: UserId) -> Result<Vec<GameId>, StoreError> {
        (**self).ongoing(user)
    }

    fn add_session(
        &self,
        key: &str,
        user: UserId,
        csrf: &str,
        now: u64,
        expires_at: u64,
    ) -> Result<(), StoreError> {
        (**self).add_session(key, user, csrf, now, expires_at)
    }

    fn session(&self, key: &str, now: u64) -> Result<Option<Session>, StoreError> {
        (**self).session(key, now)
    }

    fn end_session(&self, key: &str) -> Result<(), StoreError> {
        (**self).end_session(key)
    }

    fn ratings(&self, user: UserId) -> Result<Vec<(Category, Rated)>, StoreError> {
        (**self).ratings(user)
    }

    fn counts(&self, user: UserId) -> Result<Counts, StoreError> {
        (**self).counts(user)
    }

    fn history(&self, user: UserId) -> Result<Vec<Point>, StoreError> {
        (**self).history(user)
    }

    fn player_games(
        &self,
        user: UserId,
        filter: &GameFilter,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<PlayerGame>, u64), StoreError> {
        (**self).player_games(user, filter, offset, limit)
    }

    fn leaderboard(
        &self,
        category: Category,
        since: u64,
        limit: u64,
    ) -> Result<Vec<Leader>, StoreError> {
        (**self).leaderboard(category, since, limit)
    }
}

impl LearnStore for AnyStore {
    fn finished_since(&self, after: (u64, &str), limit: u64) -> Result<Vec<Finished>, StoreError> {
        (**self).finished_since(after, limit)
    }

    fn request_analysis(
        &self,
        request: &AnalysisRequest,
        id: &str,
        now: u64,
    ) -> Result<StoredAnalysis, StoreError> {
        (**self).request_analysis(request, id, now)
    }

    fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        (**self).analysis(id)
    }

    fn analysis_by_key(&self, key: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        (**self).analysis_by_key(key)
    }

    fn claim_analysis(&self, now: u64) -> Result<Option<StoredAnalysis>, StoreError> {
        (**self).claim_analysis(now)
    }

    fn finish_analysis(
        &self,
        id: &str,
        outcome: Result<&str, &str>,
        now: u64,
    ) -> Result<(), StoreError> {
        (**self).finish_analysis(id, outcome, now)
    }

    fn requeue_analyses(&self, started_before: u64) -> Result<u64, StoreError> {
        (**self).requeue_analyses(started_before)
    }

    fn queue_length(&self, created_at: u64) -> Result<(u64, u64), StoreError> {
        (**self).queue_length(created_at)
    }

    fn puzzle_rating(&self, puzzle: &str) -> Result<Option<PuzzleRated>, StoreError> {
        (**self).puzzle_rating(puzzle)
    }

    fn player_puzzle_rating(&self, user: UserId) -> Result<Option<PuzzleRated>, StoreError> {
        (**self).player_puzzle_rating(user)
    }

    fn puzzle_history(&self, user: UserId) -> Result<Vec<PuzzlePoint>, StoreError> {
        (**self).puzzle_history(user)
    }

    fn attempt_puzzle(
        &self,
        user: UserId,
        puzzle: &str,
        start: Rating,
        solved: bool,
        now: u64,
    ) -> Result<Attempted, StoreError> {
        (**self).attempt_puzzle(user, puzzle, start, solved, now)
    }
}
