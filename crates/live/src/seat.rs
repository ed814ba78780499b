//! The two seats of a game, the game's id and the secret token that holds a seat.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Letters of ids and tokens: base62, safe in a path, a fragment and a cookie.
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Characters of a game id: 62^10 ≈ 8·10^17 addresses, so that ids cannot be guessed in bulk.
pub const ID_LEN: usize = 10;

/// Characters of a seat token: 62^24 ≈ 10^43, never guessed.
pub const TOKEN_LEN: usize = 24;

/// A seat: the side its player moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Red, who moves first.
    Red,
    /// Blue.
    Blue,
}

impl Seat {
    /// `red` or `blue`.
    pub const fn name(self) -> &'static str {
        match self {
            Seat::Red => "red",
            Seat::Blue => "blue",
        }
    }

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::Red => Seat::Blue,
            Seat::Blue => Seat::Red,
        }
    }

    /// 0 for red, 1 for blue.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat named `name` (`red` or `blue`).
    pub fn parse(name: &str) -> Option<Seat> {
        match name {
            "red" => Some(Seat::Red),
            "blue" => Some(Seat::Blue),
            _ => None,
        }
    }

    /// The seat of the side `color`.
    pub const fn of(color: arbiter_duck::Color) -> Seat {
        match color {
            arbiter_duck::Color::Red => Seat::Red,
            arbiter_duck::Color::Blue => Seat::Blue,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `len` random base62 characters from the system's generator.
fn random(len: usize) -> Result<String, getrandom::Error> {
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes)?;
    // 62 × 4 = 248: bytes from 248 up would favour the first letters, so they are drawn again.
    let mut out = String::with_capacity(len);
    let mut spare = [0u8; 1];
    for mut byte in bytes {
        while byte >= 248 {
            getrandom::fill(&mut spare)?;
            byte = spare[0];
        }
        out.push(char::from(BASE62[usize::from(byte % 62)]));
    }
    Ok(out)
}

/// Whether `text` is `len` base62 characters.
fn is_base62(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A game's id: [`ID_LEN`] base62 characters, its address being `/duck/game/ID`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct GameId(String);

impl GameId {
    /// A new random id.
    pub fn random() -> Result<GameId, getrandom::Error> {
        random(ID_LEN).map(GameId)
    }

    /// `text` as an id, if it is one.
    pub fn parse(text: &str) -> Option<GameId> {
        is_base62(text, ID_LEN).then(|| GameId(text.to_owned()))
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The secret that holds a seat: whoever sends it plays that seat. Never shown to anyone but the
/// seat's holder (its `Debug` hides it).
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A new random token.
    pub fn random() -> Result<Token, getrandom::Error> {
        random(TOKEN_LEN).map(Token)
    }

    /// A token read back from the store.
    pub fn from_stored(text: String) -> Token {
        Token(text)
    }

    /// The token's text, for its holder only.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// Whether `text` is this token, compared in time that does not depend on where they differ.
    pub fn matches(&self, text: &str) -> bool {
        let (ours, theirs) = (self.0.as_bytes(), text.as_bytes());
        ours.len() == theirs.len()
            && ours.iter().zip(theirs).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_base62_of_their_length() {
        let id = GameId::random().unwrap();
        assert_eq!(GameId::parse(id.as_str()), Some(id.clone()));
        assert!(GameId::parse("short").is_none());
        assert!(GameId::parse("../../etc/x").is_none());
        let token = Token::random().unwrap();
        assert!(is_base62(token.reveal(), TOKEN_LEN));
        assert!(token.matches(token.reveal()));
        assert!(!token.matches("x"));
        assert_eq!(format!("{token:?}"), "Token(…)");
    }
}
