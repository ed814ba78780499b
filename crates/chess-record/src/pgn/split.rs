//! Cutting PGN text into games, and finding the movetext tokens pgn-reader would skip.
//!
//! pgn-reader silently skips a movetext token it cannot read as SAN (`e8Q`, `Qh4++`, `e.p.`), so
//! a strict check on its events alone could accept a game with such a token at its end. Each
//! game's text is therefore kept, scanned for those tokens, and read by pgn-reader on its own; the
//! cut follows pgn-reader's own rule (a tag line or a blank line after movetext ends a game).
//!
//! ```
//! use arbiter_chess_record::pgn::split_games;
//!
//! let pgn = b"[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. f3 e5 2. g4 Qh4++ 0-1\n";
//! let games = split_games(pgn);
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[1].line, 5);
//! assert_eq!(games[0].unreadable_token(), None);
//! assert_eq!(games[1].unreadable_token(), Some((7, "Qh4++".to_owned())));
//! ```

use shakmaty::san::SanPlus;

/// The text of one game in a PGN source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameText<'a> {
    /// Its number in the source, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// Its bytes: tags and movetext.
    pub text: &'a [u8],
}

/// Cuts `text` into games where pgn-reader would: at a tag line or a blank line that follows
/// movetext, never inside a `{ comment }`.
pub fn split_games(text: &[u8]) -> Vec<GameText<'_>> {
    let mut games = Vec::new();
    let (mut start, mut start_line) = (0, 1);
    let mut has_movetext = false;
    let mut in_comment = false;
    let mut at = 0;
    let mut line = 1;
    while at < text.len() {
        let end = memchr_newline(text, at);
        let row = &text[at..end];
        if !in_comment {
            let blank = row.iter().all(u8::is_ascii_whitespace);
            let tag = row.first() == Some(&b'[');
            if has_movetext && (tag || blank) {
                push_game(&mut games, &text[start..at], start_line);
                (start, start_line, has_movetext) = (at, line, false);
            }
            if !(tag || blank || row.first() == Some(&b'%')) {
                has_movetext = true;
            }
        }
        if has_movetext || in_comment {
            in_comment = comment_state(row, in_comment);
        }
        at = end + 1;
        line += 1;
    }
    push_game(&mut games, &text[start.min(text.len())..], start_line);
    games
}

fn push_game<'a>(games: &mut Vec<GameText<'a>>, text: &'a [u8], line: usize) {
    // Leading blank lines belong to no game; a game that is only whitespace is none.
    let skipped = text.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let lines = text[..skipped].iter().filter(|&&b| b == b'\n').count();
    let text = &text[skipped..];
    if !text.is_empty() {
        games.push(GameText { index: games.len() + 1, line: line + lines, text });
    }
}

/// The index of the next `\n` at or after `from`, or the length of `text`.
fn memchr_newline(text: &[u8], from: usize) -> usize {
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

impl GameText<'_> {
    /// The first movetext token pgn-reader cannot read and would skip, with its line.
    pub fn unreadable_token(&self) -> Option<(usize, String)> {
        let mut in_comment = false;
        let mut in_tags = true;
        for (offset, row) in self.text.split(|&b| b == b'\n').enumerate() {
            let line = self.line + offset;
            if !in_comment
                && in_tags
                && (row.first() == Some(&b'[') || row.iter().all(u8::is_ascii_whitespace))
            {
                continue;
            }
            in_tags = false;
            if !in_comment && row.first() == Some(&b'%') {
                continue;
            }
            let mut token_start = None;
            for (i, &b) in row.iter().chain(std::iter::once(&b' ')).enumerate() {
                if in_comment {
                    in_comment = b != b'}';
                    continue;
                }
                let separator = SEPARATOR[usize::from(b)];
                match (token_start, separator) {
                    (None, false) => token_start = Some(i),
                    (Some(from), true) => {
                        if !readable(&row[from..i]) {
                            // Name the whole word (`e.p.`, not just `e`), as the writer sees it.
                            let space = |b: &u8| b.is_ascii_whitespace();
                            let start = row[..from].iter().rposition(space).map_or(0, |s| s + 1);
                            let end = row[i..].iter().position(space).map_or(row.len(), |e| i + e);
                            let word = String::from_utf8_lossy(&row[start..end]).into_owned();
                            return Some((line, word));
                        }
                        token_start = None;
                    }
                    _ => {}
                }
                match b {
                    b'{' => in_comment = true,
                    b';' => break,
                    _ => {}
                }
            }
        }
        None
    }
}

/// The bytes that end a movetext token for pgn-reader (besides annotation glyphs), as a table:
/// the scan looks at every byte of the file.
const SEPARATOR: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b" \t\n\r\x0c{}();.";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether pgn-reader reads `token` (no separators inside) without skipping any of it.
fn readable(token: &[u8]) -> bool {
    if matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") || token == "½-½".as_bytes() {
        return true;
    }
    // A move number may be glued to the move (`12.e4` was cut at the dot; `12` remains alone).
    if token.iter().all(u8::is_ascii_digit) {
        return true;
    }
    // Annotations follow the move: `e4!?`, `e4$1`, or stand alone.
    let cut = token.iter().position(|b| b"!?$".contains(b)).unwrap_or(token.len());
    let (body, glyphs) = token.split_at(cut);
    let glyphs_ok = glyphs.iter().all(|b| b"!?$".contains(b) || b.is_ascii_digit());
    let body_ok = body.is_empty()
        || matches!(
            body.strip_suffix(b"+").or(body.strip_suffix(b"#")).unwrap_or(body),
            b"0-0" | b"0-0-0"
        )
        || SanPlus::from_ascii(body).is_ok();
    glyphs_ok && body_ok
}
