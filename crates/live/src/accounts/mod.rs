//! Accounts, kept beside the games in the same store: players with a name and a password hash,
//! their sessions, the games the lobby paired them in, and their ratings per category.
//!
//! A game paired in the lobby carries a [`Pairing`]: the account at each seat and whether it is
//! rated. When a rated game's end is committed, the store updates both players' ratings in the
//! same transaction ([`rate`] says how), so that a result is never stored without its ratings or
//! rated twice.
//!
//! The store never sees a password or a session id: it is given the password's Argon2id hash
//! and the session id's SHA-256, made by the server.
//!
//! ```
//! use arbiter_live::accounts::{AccountStore, UserName};
//! use arbiter_live::SqliteStore;
//!
//! let store = SqliteStore::memory().unwrap();
//! let name = UserName::parse("Ann_1").unwrap();
//! let ann = store.add_user(&name, "$argon2id$...", 5).unwrap().unwrap();
//! // Names are unique without regard to case.
//! assert!(store.add_user(&UserName::parse("ANN_1").unwrap(), "$argon2id$...", 6).unwrap().is_none());
//! assert_eq!(store.user("ann_1").unwrap().unwrap().0, ann);
//! ```

pub(crate) mod commit;
pub mod postgres;
pub mod sqlite;

use std::fmt;

use arbiter_rating::{Category, Glicko2, Rating, Score};
use serde::Serialize;

use crate::game::{End, LiveGame};
pub use crate::pairing::{Pairing, UserId};
use crate::seat::{GameId, Seat};
use crate::store::{Filter, Page, Store, StoreError, Summary};

/// The name games keep for a player whose account was deleted. It holds a space, which no
/// user name may: nobody can take it.
pub const DELETED: &str = "deleted user";

/// The shortest user name, in characters.
pub const NAME_MIN: usize = 3;

/// The longest user name, in characters.
pub const NAME_MAX: usize = 20;

/// A day, in ms: the rating period by which an idle player's deviation grows.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// An end that leaves a rated game unrated: a side that did not make its first move in time, or
/// a player who left before both had moved.
pub const ABORTED: &str = "aborted";

/// A user name: 3 to 20 ASCII letters, digits, `_` and `-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserName(String);

/// Why a user name is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a user name is 3 to 20 letters (a-z, A-Z), digits, `_` or `-`")]
pub struct BadName;

impl UserName {
    /// `text` as a user name, if it is one.
    pub fn parse(text: &str) -> Result<UserName, BadName> {
        let fits = (NAME_MIN..=NAME_MAX).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if fits { Ok(UserName(text.to_owned())) } else { Err(BadName) }
    }

    /// The name as its owner spelt it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name as compared: in lowercase.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// Its number.
    pub id: UserId,
    /// Its name, as its owner spelt it.
    pub name: String,
    /// When it was made (ms since the epoch).
    pub created_at: u64,
}

/// A session signed in, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The account signed in.
    pub user: User,
    /// The token that each state-changing request of the session must carry.
    pub csrf: String,
    /// Until when it lasts (ms since the epoch).
    pub expires_at: u64,
}

/// A player's rating in one category, as kept.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rated {
    /// The rating.
    #[serde(flatten)]
    pub rating: Rating,
    /// Rated games played in the category.
    pub games: u64,
    /// When the last one ended (ms since the epoch).
    pub played_at: u64,
}

/// A player's games counted by result (aborted games aside).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Games won.
    pub win: u64,
    /// Games drawn.
    pub draw: u64,
    /// Games lost.
    pub loss: u64,
}

/// A rating after a rated game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The game.
    pub game: String,
    /// The category.
    pub category: Category,
    /// When (ms since the epoch).
    pub at: u64,
    /// The rating after the game.
    pub rating: f64,
    /// The deviation after the game.
    pub deviation: f64,
    /// The change the game made.
    pub change: f64,
}

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Outcome {
    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }

    /// The result named `name`.
    pub fn parse(name: &str) -> Option<Outcome> {
        [Outcome::Win, Outcome::Draw, Outcome::Loss].into_iter().find(|o| o.name() == name)
    }

    /// The result for `seat` of a game won by `winner` (`None`: drawn).
    pub fn of(seat: Seat, winner: Option<Seat>) -> Outcome {
        match winner {
            None => Outcome::Draw,
            Some(winner) if winner == seat => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }
}

/// Which of a player's games a listing shows.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    /// Only the games with this result.
    pub result: Option<Outcome>,
    /// Only the games of this category.
    pub category: Option<Category>,
    /// Only the games against this opponent (the name as the game keeps it, any case).
    pub opponent: Option<String>,
}

/// One of a player's games, as their profile lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerGame {
    /// The game's id.
    pub id: String,
    /// The player's seat.
    pub seat: Seat,
    /// The opponent's name as the game keeps it.
    pub opponent: Option<String>,
    /// `ongoing` or `over`.
    pub status: String,
    /// The result for the player, once over (`null` for an aborted game).
    pub result: Option<Outcome>,
    /// The end's reason code.
    pub reason: Option<String>,
    /// The time control.
    pub time: Option<String>,
    /// The category.
    pub category: Category,
    /// Whether it is rated.
    pub rated: bool,
    /// The player's rating change, once a rated game is over.
    pub change: Option<f64>,
    /// The player's rating after it.
    pub rating: Option<f64>,
    /// When it was created (ms since the epoch).
    pub created_at: u64,
}

/// A row of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leader {
    /// The player's name.
    pub name: String,
    /// Their rating in the category.
    #[serde(flatten)]
    pub rated: Rated,
    /// Whether it is provisional.
    pub provisional: bool,
}

/// What is kept of the accounts. Every method commits before it returns.
pub trait AccountStore {
    /// Adds the account `name` with the password hash `password` at `now`; `None` when the name
    /// (in any case) is taken.
    fn add_user(
        &self,
        name: &UserName,
        password: &str,
        now: u64,
    ) -> Result<Option<User>, StoreError>;

    /// The account named `name` (in any case), with its password hash.
    fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError>;

    /// Replaces the account's password hash, and ends all its sessions.
    fn set_password(&self, user: UserId, password: &str) -> Result<(), StoreError>;

    /// Deletes the account, its sessions and ratings; its games stay, under [`DELETED`]. The
    /// caller makes sure none of its games goes on.
    fn delete_user(&self, user: UserId) -> Result<(), StoreError>;

    /// The games of the account that go on.
    fn ongoing(&self, user: UserId) -> Result<Vec<GameId>, StoreError>;

    /// Starts a session: `key` is the SHA-256 of its id, `csrf` its CSRF token. The account's
    /// sessions ended by `now` go.
    fn add_session(
        &self,
        key: &str,
        user: UserId,
        csrf: &str,
        now: u64,
        expires_at: u64,
    ) -> Result<(), StoreError>;

    /// The session of key `key`, if it lasts at `now` (an expired one is removed).
    fn session(&self, key: &str, now: u64) -> Result<Option<Session>, StoreError>;

    /// Ends the session of key `key`.
    fn end_session(&self, key: &str) -> Result<(), StoreError>;

    /// The account's ratings, in the categories it has played rated games in.
    fn ratings(&self, user: UserId) -> Result<Vec<(Category, Rated)>, StoreError>;

    /// The account's games counted by result.
    fn counts(&self, user: UserId) -> Result<Counts, StoreError>;

    /// The account's rating after each of its rated games, oldest first.
    fn history(&self, user: UserId) -> Result<Vec<Point>, StoreError>;

    /// One page of the account's games matching `filter`, newest first, and how many match.
    fn player_games(
        &self,
        user: UserId,
        filter: &GameFilter,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<PlayerGame>, u64), StoreError>;

    /// The `limit` best-rated players of `category` who played a rated game there since `since`.
    fn leaderboard(
        &self,
        category: Category,
        since: u64,
        limit: u64,
    ) -> Result<Vec<Leader>, StoreError>;
}

/// A store of the games and of the accounts beside them: what a server runs on.
pub trait StoreWithAccounts: Store + AccountStore {}

impl<T: Store + AccountStore> StoreWithAccounts for T {}

/// A store chosen at run time.
impl Store for Box<dyn StoreWithAccounts> {
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
impl AccountStore for Box<dyn StoreWithAccounts> {
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

/// The category of a game: by its time control; a game without clocks is classical.
pub fn category(game: &LiveGame) -> Category {
    game.time.map_or(Category::Classical, |time| Category::of(time.initial_ms, time.increment_ms))
}

/// When a game ended, for its ratings: the start of its last turn.
fn ended_at(game: &LiveGame) -> u64 {
    game.moves.last().map_or(game.turn_since, |last| last.at.max(game.turn_since))
}

/// A player's new rating after a rated game, and the change it made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Change {
    pub(crate) user: UserId,
    pub(crate) after: Rated,
    pub(crate) change: f64,
}

/// What the end of the rated game `game` does to its players' ratings in `category`, given
/// their ratings before it (`None` for a first rated game there), red first. `None` when the end
/// rates nothing: an aborted game, or a seat whose account is gone.
pub(crate) fn rate(
    game: &LiveGame,
    end: End,
    users: [Option<UserId>; 2],
    before: [Option<Rated>; 2],
) -> Option<[Change; 2]> {
    if end.reason == ABORTED {
        return None;
    }
    let [Some(red), Some(blue)] = users else { return None };
    let at = ended_at(game);
    // A rating unused for whole days grows uncertain first, one period a day.
    let current = before.map(|kept| match kept {
        Some(kept) => {
            let days = at.saturating_sub(kept.played_at) / DAY_MS;
            (kept.rating.idle(u32::try_from(days).unwrap_or(u32::MAX)), kept.games)
        }
        None => (Rating::START, 0),
    });
    let score = match Outcome::of(Seat::Red, end.winner) {
        Outcome::Win => Score::Win,
        Outcome::Draw => Score::Draw,
        Outcome::Loss => Score::Loss,
    };
    let (red_after, blue_after) = Glicko2::ARBITER.game(current[0].0, current[1].0, score);
    let change = |user, (rating, games): (Rating, u64), after: Rating| Change {
        user,
        after: Rated { rating: after, games: games + 1, played_at: at },
        change: after.rating - rating.rating,
    };
    Some([change(red, current[0], red_after), change(blue, current[1], blue_after)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_are_3_to_20_letters_digits_underscores_and_hyphens() {
        for good in ["ann", "Ann_1", "a-b", "abcdefghijklmnopqrst", "___"] {
            assert!(UserName::parse(good).is_ok(), "{good}");
        }
        for bad in ["an", "abcdefghijklmnopqrstu", "ann bob", "ännа", "a.b", "", DELETED, "a\u{0}b"]
        {
            assert_eq!(UserName::parse(bad), Err(BadName), "{bad}");
        }
        assert_eq!(UserName::parse("Ann_1").unwrap().key(), "ann_1");
    }

    #[test]
    fn outcomes_read_from_the_winner() {
        assert_eq!(Outcome::of(Seat::Red, Some(Seat::Red)), Outcome::Win);
        assert_eq!(Outcome::of(Seat::Blue, Some(Seat::Red)), Outcome::Loss);
        assert_eq!(Outcome::of(Seat::Blue, None), Outcome::Draw);
        assert_eq!(Outcome::parse("loss"), Some(Outcome::Loss));
    }
}
