//! Cutting a PGN source into games, so that each can be read on its own, in parallel.
//!
//! A game ends where pgn-reader ends one: at a line starting with `[` or at a blank line, once
//! the game has movetext, never inside a `{ comment }`. A comment left open would otherwise take
//! every later game with it, so the cut also happens inside a comment at a line that starts a
//! tag pair (`[Name "`) after a blank line: a comment that spans a blank line and then a tag pair
//! is taken for one never closed, and its game is reported broken while the next one is read. A
//! UTF-8 byte order mark at the start of the source is skipped.
//!
//! ```
//! use arbiter_chess_record::pgn::split_games;
//!
//! let pgn = b"[White \"A\"]\n\n1. e4 { never closed\n\n[White \"B\"]\n\n1. f3 e5 *\n";
//! let games = split_games(pgn);
//! assert_eq!(games.len(), 2);
//! assert_eq!((games[1].index, games[1].line), (2, 5));
//! ```

use arbiter_scan::is_space;

use crate::record::BOM;

/// The text of one game in a PGN source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameText<'a> {
    /// Its number in the source, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// Where its text starts in the source, in bytes.
    pub offset: usize,
    /// Its bytes: tags and movetext.
    pub text: &'a [u8],
}

/// Cuts `text` into games (see the module documentation for where).
pub fn split_games(text: &[u8]) -> Vec<GameText<'_>> {
    let first = if text.starts_with(BOM.as_bytes()) { BOM.len() } else { 0 };
    let mut games = Vec::new();
    let (mut start, mut start_line) = (first, 1);
    let mut has_movetext = false;
    let mut in_comment = false;
    let mut blank_in_comment = false;
    let mut at = first;
    let mut line = 1;
    while at < text.len() {
        let end = line_end(text, at);
        let row = &text[at..end];
        let blank = row.iter().all(|&b| is_space(b));
        let tag = row.first() == Some(&b'[');
        if in_comment {
            if blank {
                blank_in_comment = true;
            } else if blank_in_comment && starts_tag_pair(row) {
                // The comment was never closed: its game ends before this tag pair.
                in_comment = false;
                push_game(&mut games, text, start..at, start_line);
                (start, start_line, has_movetext) = (at, line, false);
            }
        }
        if !in_comment {
            if has_movetext && (tag || blank) {
                push_game(&mut games, text, start..at, start_line);
                (start, start_line, has_movetext) = (at, line, false);
            }
            if !(tag || blank || row.first() == Some(&b'%')) {
                has_movetext = true;
            }
        }
        // Tag pairs and escape lines are not scanned: a `{` in them opens no comment.
        if in_comment || (has_movetext && !tag && row.first() != Some(&b'%')) {
            let was = in_comment;
            in_comment = comment_state(row, in_comment);
            if in_comment && !was {
                blank_in_comment = false;
            }
        }
        at = end + 1;
        line += 1;
    }
    push_game(&mut games, text, start.min(text.len())..text.len(), start_line);
    games
}

/// Adds the game in `text[range]`, which starts on line `line`, without its leading blank lines;
/// a game that is only whitespace is none.
fn push_game<'a>(
    games: &mut Vec<GameText<'a>>,
    text: &'a [u8],
    range: std::ops::Range<usize>,
    mut line: usize,
) {
    let mut start = range.start;
    while start < range.end {
        let end = line_end(text, start).min(range.end);
        if !text[start..end].iter().all(|&b| is_space(b)) {
            games.push(GameText {
                index: games.len() + 1,
                line,
                offset: start,
                text: &text[start..range.end],
            });
            return;
        }
        start = end + 1;
        line += 1;
    }
}

/// The index of the next `\n` at or after `from`, or the length of `text`.
pub(crate) fn line_end(text: &[u8], from: usize) -> usize {
    text[from..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| from + i)
}

/// Whether a `{ comment }` is still open at the end of `row`, given whether one was at its start.
fn comment_state(row: &[u8], mut in_comment: bool) -> bool {
    for &b in row {
        match (in_comment, b) {
            (true, b'}') => in_comment = false,
            (false, b'{') => in_comment = true,
            (false, b';') => break,
            _ => {}
        }
    }
    in_comment
}

/// Whether `row` starts like a tag pair: `[`, a name, blanks, `"`.
fn starts_tag_pair(row: &[u8]) -> bool {
    let Some(rest) = row.strip_prefix(b"[") else {
        return false;
    };
    let name = rest.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_').count();
    let blanks = rest[name..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    name > 0 && rest.get(name + blanks) == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(usize, usize)> {
        split_games(text.as_bytes()).iter().map(|game| (game.index, game.line)).collect()
    }

    #[test]
    fn games_end_at_tags_and_blank_lines() {
        assert_eq!(
            lines("[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\n1. d4 *\n1. c4 *\n"),
            [(1, 1), (2, 5)]
        );
        assert_eq!(lines("1. e4 *\n\n\n1. d4 *\n"), [(1, 1), (2, 4)]);
        assert_eq!(lines("\n\n  \n"), []);
    }

    #[test]
    fn an_open_comment_ends_at_a_tag_pair_after_a_blank_line() {
        // The blank line alone does not end the comment: it may be a paragraph.
        assert_eq!(lines("1. e4 {a\n\nb} e5 *\n\n[W \"x\"]\n1. d4 *\n"), [(1, 1), (2, 5)]);
        assert_eq!(
            lines("1. e4 {open\n\n[W \"2\"]\n\n1. d4 *\n\n[W \"3\"]\n\n1. c4 *\n"),
            [(1, 1), (2, 3), (3, 7)]
        );
        // `[%clk ...]` inside a comment is no tag pair.
        assert_eq!(lines("1. e4 {a\n\n[%clk 0:01]} e5 *\n"), [(1, 1)]);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let games = split_games(b"\xef\xbb\xbf[W \"x\"]\n\n1. e4 *\n");
        assert_eq!(games.len(), 1);
        assert_eq!((games[0].line, games[0].offset), (1, 3));
    }
}
