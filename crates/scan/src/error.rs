//! What a failed read reports: where, what was expected, what was found.

use std::fmt;

use crate::place::Place;
use crate::shown::{Shown, shown_prefix};
use crate::source::MAX_TOKEN_BYTES;

/// What the scanner met where it expected something else.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Found {
    /// The input ended.
    End,
    /// A token; only its first [`Shown::MAX_CHARS`] characters and one more are kept, which is all
    /// a message shows.
    Token(String),
    /// A token longer than [`MAX_TOKEN_BYTES`], with its first characters as for `Token`: no
    /// format arbiter reads has such tokens, and a scanner never holds one whole.
    LongToken(String),
    /// Reading the input failed here; the system's reason.
    Unreadable(String),
}

impl Found {
    /// `text` as found, shortened to what a message shows.
    pub fn token(text: &str) -> Found {
        Found::Token(shown_prefix(text))
    }

    /// The start of a token longer than [`MAX_TOKEN_BYTES`].
    pub fn long_token(start: &str) -> Found {
        Found::LongToken(shown_prefix(start))
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("end of input"),
            Found::Token(text) => write!(f, "`{}`", Shown(text)),
            Found::LongToken(start) => {
                write!(f, "a token of more than {MAX_TOKEN_BYTES} bytes (`{}`)", Shown(start))
            }
            Found::Unreadable(reason) => write!(f, "an error reading the input ({reason})"),
        }
    }
}

/// Malformed input: where, what was expected and what was found instead.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{place}: expected {expected}, found {found}")]
pub struct ScanError {
    /// Where the offending token starts, or where the input ended.
    pub place: Place,
    /// What the format asks for at this point, e.g. `"an integer (the number of commands)"`.
    pub expected: String,
    /// What is there instead.
    pub found: Found,
}
