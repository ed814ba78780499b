//! Helpers the notations share to say where a text went wrong.

use arbiter_scan::{Found, Shown};

/// The number of characters before byte `byte` of `text`.
pub(crate) fn char_index(text: &str, byte: usize) -> usize {
    text[..byte].chars().count()
}

/// What stands in `text` from byte `start` to byte `end`: the end of the text when that is empty.
/// Only as much is kept as a message shows.
pub(crate) fn found(text: &str, start: usize, end: usize) -> Found {
    let part = &text[start..end];
    if part.is_empty() {
        return Found::End;
    }
    Found::Token(part.chars().take(Shown::MAX_CHARS + 1).collect())
}

/// The byte just after the character starting at `byte` (or `byte` at the end of the text).
pub(crate) fn next_char(text: &str, byte: usize) -> usize {
    text[byte..].chars().next().map_or(byte, |c| byte + c.len_utf8())
}
