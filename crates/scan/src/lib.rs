//! Whitespace-separated tokens with line and column places, read from a string or streamed
//! from any reader in bounded memory.
//!
//! The official judges read their input with `scanf`: any run of whitespace (spaces, tabs, CR, LF,
//! vertical tab, form feed) separates tokens, and line breaks carry no meaning. [`Scanner`] reads the
//! same way, but every failure is a [`ScanError`] that says where it happened and what was expected,
//! so a tool can print `FILE:LINE:COL: expected ..., found ...`.
//!
//! ```
//! use arbiter_scan::Scanner;
//!
//! let mut input = Scanner::new("2\n 0 0\tseven 1");
//! assert_eq!(input.int("the count").unwrap(), 2);
//! assert_eq!(input.int("a row").unwrap(), 0);
//! assert_eq!(input.int("a column").unwrap(), 0);
//! let error = input.int("a row").unwrap_err();
//! assert_eq!(error.to_string(), "2:6: expected a row, found `seven`");
//!
//! // The same from any reader, in chunks: what the scanner holds is bounded by one chunk and
//! // one token (`MAX_TOKEN_BYTES`), however long the input.
//! let mut input = Scanner::from_reader("\u{feff}2\n 0 0\tseven 1".as_bytes());
//! assert_eq!(input.int("the count").unwrap(), 2);
//! input.int("a row").unwrap();
//! input.int("a column").unwrap();
//! assert_eq!(input.int("a row").unwrap_err().to_string(), "2:6: expected a row, found `seven`");
//! ```
//!
//! Both forms skip a UTF-8 byte order mark at the start: places count from the character
//! after it. A stream turns bytes that are not UTF-8 into U+FFFD as it reads them, so every token
//! is text. Places are counted only when asked for, from the last one counted (and, for a
//! stream, over the bytes it drops), so reading a token is a tight byte loop.
//!
//! Messages echo input text one way only: [`Shown`], at most 40 characters with invisible ones
//! escaped.

#![warn(missing_docs)]

mod error;
mod place;
mod scanner;
mod shown;
mod source;
mod strict;

pub use error::{Found, ScanError};
pub use place::{Place, place_at};
pub use scanner::{Scanner, Token, is_space};
pub use shown::Shown;
pub use source::{MAX_TOKEN_BYTES, Source, Stream, Text};
pub use strict::{Invalid, Strict};

#[cfg(test)]
mod tests;
