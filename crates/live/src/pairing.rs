//! Who plays a game paired in the lobby: the account at each seat, and whether the game is
//! rated. A game carries it; the [accounts](crate::accounts) keep the accounts themselves.

use serde::Serialize;

/// An account's number in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct UserId(pub i64);

/// A game paired in the lobby: the account at each seat (`None` for an anonymous player), red
/// first, and whether the game is rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// Each seat's account.
    pub users: [Option<UserId>; 2],
    /// Whether the end changes the ratings.
    pub rated: bool,
}
