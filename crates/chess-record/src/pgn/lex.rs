//! Reading a game's text as PGN tokens, each with its place, and every syntax error with its own.
//!
//! pgn-reader's visitor reports moves already parsed, without their text or place, and skips any
//! token it cannot parse; checking a spelling needs the token as written, and a syntax error
//! needs a line and column. This lexer gives both. It only cuts the text into tokens: moves are
//! read by shakmaty (through [`read_move`](crate::read_move)), tag values are unescaped with
//! pgn-reader's [`RawTag`](pgn_reader::RawTag) and annotations checked with its
//! [`Nag`](pgn_reader::Nag).
//!
//! The grammar is PGN's (export and import formats): tag pairs `[Name "value"]` before the
//! movetext; in the movetext move numbers (`12.`, `12...`, glued to the move or not), moves,
//! `{comments}`, `; comments` to the end of the line, `%` escape lines, NAGs (`$14`, `!?`),
//! variations in parentheses and one result. Anything else is a syntax error, and so are a
//! comment or variation left open at the end of the game, a `)` or `}` that closes nothing,
//! variations nested deeper than [`MAX_DEPTH`], and any token but a comment after the result.
//! A move number glued to its move (`12.e4`) is two tokens. The text is bytes, in any encoding:
//! only ASCII bytes have a meaning, and a message shows a byte that is not UTF-8 as `\xfc`.

use std::borrow::Cow;
use std::ops::Range;

use arbiter_scan::{Place, is_space};
use pgn_reader::Nag;

use crate::shown::ShownBytes;

/// How deeply variations may nest: deeper nesting is a syntax error, so that no reader of the
/// tokens needs more than this many saved positions.
pub const MAX_DEPTH: usize = 255;

/// Broken PGN syntax: where, what was expected there and what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found}")]
pub struct SyntaxError {
    /// Where the problem is.
    pub at: Place,
    /// What the syntax needs there.
    pub expected: Cow<'static, str>,
    /// What stands there instead, as a message shows it.
    pub found: String,
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind<'a> {
    /// A tag pair; the value keeps its escapes.
    Tag { name: &'a [u8], value: &'a [u8] },
    /// A move number (`12.`, `12...`, `12`) or a lone ellipsis, as written.
    Number(&'a [u8]),
    /// A move, as written (any glued move number left out).
    Move(&'a [u8]),
    /// A numeric annotation glyph or its short form (`!?`).
    Nag,
    /// A `{comment}`, a `; comment` or a `%` escape line.
    Comment,
    /// `(`, opening a variation.
    Open,
    /// `)`, closing one.
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result,
}

/// One token of a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub(crate) kind: Kind<'a>,
    /// Its bytes in the game's text.
    pub(crate) span: Range<usize>,
    /// Where it starts.
    pub(crate) at: Place,
    /// How many variations it stands in (0 on the mainline).
    pub(crate) depth: usize,
}

/// The tokens of one game's text, in order; after a syntax error, nothing more.
pub(crate) struct Lexer<'a> {
    text: &'a [u8],
    /// Whether the text is ASCII, where each byte is a character: columns need no counting.
    ascii: bool,
    first_line: u32,
    pos: usize,
    line: usize,
    line_start: usize,
    /// The characters of the current line before byte `counted`, which columns are counted on
    /// from: tokens come in order, so counting stays linear in the length of a line.
    counted: usize,
    counted_chars: usize,
    /// Where each open variation was opened: at most [`MAX_DEPTH`] entries.
    opened: Vec<Place>,
    movetext: bool,
    ended: bool,
    failed: bool,
}

impl<'a> Lexer<'a> {
    /// The tokens of `text`, whose first byte stands on line `line`, column 1.
    pub(crate) fn new(text: &'a [u8], line: u32) -> Lexer<'a> {
        Lexer {
            text,
            ascii: text.is_ascii(),
            first_line: line,
            pos: 0,
            line: line.try_into().unwrap_or(usize::MAX),
            line_start: 0,
            counted: 0,
            counted_chars: 0,
            opened: Vec::new(),
            movetext: false,
            ended: false,
            failed: false,
        }
    }

    /// The whole text read.
    pub(crate) fn text(&self) -> &'a [u8] {
        self.text
    }

    fn at(&mut self, pos: usize) -> Place {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        if self.ascii {
            let column = pos.saturating_sub(self.line_start) + 1;
            return Place { line: clamp(self.line), column: clamp(column) };
        }
        // Places are never before the current line; `min` keeps the slice valid regardless.
        let line_start = self.line_start.min(pos);
        if self.counted < line_start || self.counted > pos {
            (self.counted, self.counted_chars) = (line_start, 0);
        }
        // Every character has exactly one byte that is not a UTF-8 continuation byte.
        let more = self.text[self.counted..pos].iter().filter(|&&b| b & 0xc0 != 0x80).count();
        (self.counted, self.counted_chars) = (pos, self.counted_chars + more);
        Place { line: clamp(self.line), column: clamp(self.counted_chars + 1) }
    }

    /// What stands at `pos`, for a message: a word, the end of the line or of the game.
    fn found(&self, pos: usize) -> String {
        match self.text.get(pos) {
            None => "the end of the game".to_owned(),
            Some(b'\n' | b'\r') => "the end of the line".to_owned(),
            Some(_) => {
                let rest = &self.text[pos..];
                let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len()).max(1);
                format!("`{}`", ShownBytes(&rest[..len]))
            }
        }
    }

    /// Where the text ends, right after its last byte that is not whitespace: the place a
    /// token missing at the end of the game is reported at.
    pub(crate) fn end_place(&self) -> Place {
        let end = self.text.iter().rposition(|&b| !is_space(b)).map_or(0, |i| i + 1);
        let text = &self.text[..end];
        let lines = memchr::memchr_iter(b'\n', text).count();
        let line_start = memchr::memrchr(b'\n', text).map_or(0, |i| i + 1);
        let chars = text[line_start..].iter().filter(|&&b| b & 0xc0 != 0x80).count();
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Place { line: self.first_line.saturating_add(clamp(lines)), column: clamp(chars + 1) }
    }

    /// A syntax error, boxed: the results of the lexer, one per token, stay small.
    #[cold]
    fn error(&mut self, pos: usize, expected: &'static str, found: String) -> Box<SyntaxError> {
        Box::new(SyntaxError { at: self.at(pos), expected: Cow::Borrowed(expected), found })
    }

    /// The token from `start` to `end`, which holds no line break.
    #[inline]
    fn token(&mut self, kind: Kind<'a>, start: usize, end: usize) -> Token<'a> {
        let at = self.at(start);
        self.pos = end;
        Token { kind, span: start..end, at, depth: self.opened.len() }
    }

    /// A `{comment}` opened at `start`: the only token that can hold line breaks, counted as
    /// its end is looked for, in one pass.
    fn comment(&mut self, start: usize) -> Result<Token<'a>, Box<SyntaxError>> {
        let at = self.at(start);
        let mut from = start + 1;
        let close = loop {
            match memchr::memchr2(b'}', b'\n', &self.text[from..]) {
                Some(i) if self.text[from + i] == b'}' => break from + i,
                Some(i) => {
                    self.line += 1;
                    self.line_start = from + i + 1;
                    from += i + 1;
                }
                None => {
                    return Err(Box::new(SyntaxError {
                        at,
                        expected: Cow::Borrowed("`}` closing the comment opened here"),
                        found: "the end of the game".to_owned(),
                    }));
                }
            }
        };
        self.pos = close + 1;
        Ok(Token { kind: Kind::Comment, span: start..close + 1, at, depth: self.opened.len() })
    }

    /// The next token, or `None` at the end of the text: what the iterator gives, for a reader
    /// that stops at the first error anyway.
    pub(crate) fn next_token(&mut self) -> Result<Option<Token<'a>>, Box<SyntaxError>> {
        // Whitespace first, in a loop of its own: most tokens follow a single space.
        while let Some(&byte) = self.text.get(self.pos)
            && is_space(byte)
        {
            self.pos += 1;
            if byte == b'\n' {
                self.line += 1;
                self.line_start = self.pos;
            }
        }
        let start = self.pos;
        let Some(&byte) = self.text.get(start) else {
            return match self.opened.last() {
                Some(&at) => Err(Box::new(SyntaxError {
                    at,
                    expected: Cow::Borrowed("`)` closing the variation opened here"),
                    found: "the end of the game".to_owned(),
                })),
                None => Ok(None),
            };
        };
        match byte {
            b'%' if start == self.line_start => {
                let end = line_end(self.text, start);
                Ok(Some(self.token(Kind::Comment, start, end)))
            }
            b';' => {
                let end = line_end(self.text, start);
                Ok(Some(self.token(Kind::Comment, start, end)))
            }
            b'{' => self.comment(start).map(Some),
            b'[' if !self.movetext => self.tag(start).map(Some),
            _ => self.movetext_token(start, byte).map(Some),
        }
    }

    /// A token of the movetext, starting with `byte` at `start`.
    fn movetext_token(&mut self, start: usize, byte: u8) -> Result<Token<'a>, Box<SyntaxError>> {
        self.movetext = true;
        if self.ended {
            return Err(self.error(
                start,
                "the end of the game after its result (a blank line before the next game)",
                self.found(start),
            ));
        }
        let kind = match byte {
            b'(' => {
                if self.opened.len() == MAX_DEPTH {
                    return Err(self.error(
                        start,
                        "variations nested at most 255 deep",
                        "a deeper `(`".to_owned(),
                    ));
                }
                let token = self.token(Kind::Open, start, start + 1);
                self.opened.push(token.at);
                return Ok(token);
            }
            b')' => {
                if self.opened.pop().is_none() {
                    return Err(self.error(
                        start,
                        "a move, comment or annotation",
                        "`)` with no variation open".to_owned(),
                    ));
                }
                Kind::Close
            }
            b'}' => {
                return Err(self.error(
                    start,
                    "a move, comment or annotation",
                    "`}` with no comment open".to_owned(),
                ));
            }
            b'$' | b'!' | b'?' => {
                let rest = &self.text[start + 1..];
                let len = if byte == b'$' {
                    rest.iter().take_while(|b| b.is_ascii_digit()).count()
                } else {
                    rest.iter().take_while(|b| matches!(b, b'!' | b'?')).count()
                };
                let end = start + 1 + len;
                if Nag::from_ascii(&self.text[start..end]).is_err() {
                    return Err(self.error(
                        start,
                        "an annotation: $0 to $255, !, ?, !!, ??, !? or ?!",
                        self.found(start),
                    ));
                }
                return Ok(self.token(Kind::Nag, start, end));
            }
            _ => {
                let rest = &self.text[start..];
                let len = rest.iter().position(|&b| ends_word(b)).unwrap_or(rest.len());
                if len == 0 {
                    return Err(self.error(
                        start,
                        "a move, comment or annotation (tag pairs come before the movetext)",
                        self.found(start),
                    ));
                }
                return Ok(self.word(start, start + len));
            }
        };
        Ok(self.token(kind, start, start + 1))
    }

    /// A word of the movetext: a result, a move number, a move, or a move number glued to its
    /// move (`12.e4`, read as the move).
    fn word(&mut self, start: usize, end: usize) -> Token<'a> {
        let word = &self.text[start..end];
        match word_kind(word) {
            Word::Move => self.token(Kind::Move(word), start, end),
            Word::Result => {
                let token = self.token(Kind::Result, start, end);
                // A result inside a variation only ends that line, as some editors write it.
                self.ended = token.depth == 0;
                token
            }
            // A move glued to its number (`12.e4`) is the next token.
            Word::Number(len) => self.token(Kind::Number(&word[..len]), start, start + len),
        }
    }

    /// A tag pair `[Name "value"]`, starting at `start`.
    fn tag(&mut self, start: usize) -> Result<Token<'a>, Box<SyntaxError>> {
        match tag_pair(self.text, start) {
            Ok(pair) => {
                Ok(self.token(Kind::Tag { name: pair.name, value: pair.value }, start, pair.end))
            }
            Err((at, expected)) => Err(self.error(at, expected, self.found(at))),
        }
    }
}

/// A tag pair read: its name, its value as written between the quotes, and the end of its `]`.
pub(super) struct TagPair<'a> {
    pub(super) name: &'a [u8],
    pub(super) value: &'a [u8],
    pub(super) end: usize,
}

/// Reads the tag pair `[Name "value"]` starting at `start` (a `[`), or says where it breaks and
/// what was expected there.
pub(super) fn tag_pair(text: &[u8], start: usize) -> Result<TagPair<'_>, (usize, &'static str)> {
    let skip_blanks = |mut i: usize| {
        while matches!(text.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let name_start = skip_blanks(start + 1);
    let name_len = text[name_start..].iter().take_while(|&&b| NAME_BYTE[usize::from(b)]).count();
    if name_len == 0 {
        return Err((name_start, "a tag name after `[`, as in [White \"Tal\"]"));
    }
    let name = &text[name_start..name_start + name_len];
    let quote = skip_blanks(name_start + name_len);
    if text.get(quote) != Some(&b'"') {
        return Err((quote, "`\"` opening the tag value"));
    }
    let mut i = quote + 1;
    loop {
        // Every game has many tags: the bytes between stops are skipped in one search.
        i = value_stop(text, i);
        match text.get(i) {
            Some(b'"') => break,
            Some(b'\\') if matches!(text.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            Some(b'\\') => i += 1,
            _ => return Err((i, "`\"` closing the tag value")),
        }
    }
    let value = &text[quote + 1..i];
    let ket = skip_blanks(i + 1);
    if text.get(ket) != Some(&b']') {
        return Err((ket, "`]` closing the tag pair"));
    }
    Ok(TagPair { name, value, end: ket + 1 })
}

/// The bytes of a tag name, as a table: every game has many tags.
const NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

/// Where the first byte at or after `i` that stops a tag value's reading stands (see
/// [`VALUE_STOP`]), or the end of `text`.
fn value_stop(text: &[u8], mut i: usize) -> usize {
    // Eight bytes at a time: a byte equal to `c` is a zero byte of the word XOR `c` in every
    // byte, and the lowest byte flagged by the classic test for a zero byte is the first zero.
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    while let Some(chunk) = text.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
        let word = u64::from_le_bytes(*chunk);
        let flags = VALUE_STOPS.iter().fold(0, |flags, &stop| {
            let x = word ^ (ONES * u64::from(stop));
            flags | (x.wrapping_sub(ONES) & !x & HIGHS)
        });
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = text.get(i..).unwrap_or_default();
    i + rest.iter().position(|&b| VALUE_STOP[usize::from(b)]).unwrap_or(rest.len())
}

/// The bytes a tag value's reading stops at: its closing quote, an escape, a line break.
const VALUE_STOPS: [u8; 4] = [b'"', b'\\', b'\n', b'\r'];

/// [`VALUE_STOPS`] as a table, for the bytes [`value_stop`] does not read eight at a time.
const VALUE_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < VALUE_STOPS.len() {
        table[VALUE_STOPS[i] as usize] = true;
        i += 1;
    }
    table
};

/// What a word of the movetext is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Word {
    /// A move, or what fails as one.
    Move,
    /// A game termination marker.
    Result,
    /// A move number, its first this many bytes; a move glued to it follows.
    Number(usize),
}

/// What `word` (a run of bytes up to one that ends a word) is.
pub(super) fn word_kind(word: &[u8]) -> Word {
    // Most words are moves, and start with a letter: results and move numbers cannot.
    if word.first().is_some_and(u8::is_ascii_alphabetic) {
        return Word::Move;
    }
    if is_result(word) {
        return Word::Result;
    }
    let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = word[digits..].iter().take_while(|&&b| b == b'.').count();
    // Castling with zeros (`0-0`) starts with a digit but is no move number, and neither is
    // UCI's null move `0000`.
    let number =
        (digits > 0 && !word.starts_with(b"0-") && word != b"0000") || (digits == 0 && dots > 0);
    if !number || (dots == 0 && digits < word.len()) {
        // `12e4`: no move number; the word fails as a move and says so.
        return Word::Move;
    }
    Word::Number(digits + dots)
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Token<'a>, Box<SyntaxError>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.next_token();
        self.failed = next.is_err();
        next.transpose()
    }
}

/// The index of the next `\n` at or after `from`, or the length of `text`.
pub(crate) fn line_end(text: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &text[from..]).map_or(text.len(), |i| from + i)
}

/// Whether `byte` ends a word of the movetext (a move, number or result).
pub(super) fn ends_word(byte: u8) -> bool {
    WORD_END[usize::from(byte)]
}

/// The bytes that end a word, as a table: the lexer looks at every byte of the movetext.
const WORD_END: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b" \t\n\x0b\x0c\r{}()[]\";$!?";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

fn is_result(word: &[u8]) -> bool {
    // The first byte rules out nearly every word (moves start with a letter) before any compare.
    matches!(word.first(), Some(b'0' | b'1' | b'*' | 0xc2))
        && (matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") || word == "½-½".as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The search eight bytes at a time stops where the search byte by byte does.
        #[test]
        fn a_tag_value_stops_where_each_byte_says(
            text in proptest::collection::vec(
                proptest::sample::select(b"ab\"\\\n\r\x00\xff\x22\xa2\xdc\x8d".to_vec()),
                0..40,
            ),
            from in 0usize..40,
        ) {
            let from = from.min(text.len());
            let slowly = text[from..].iter().position(|&b| VALUE_STOP[usize::from(b)]);
            proptest::prop_assert_eq!(value_stop(&text, from), from + slowly.unwrap_or(text.len() - from));
        }
    }

    fn kinds(text: &str) -> Vec<Result<(Kind<'_>, u32, u32), String>> {
        Lexer::new(text.as_bytes(), 1)
            .map(|token| match token {
                Ok(token) => Ok((token.kind, token.at.line, token.at.column)),
                Err(error) => Err(format!("{}: {error}", error.at)),
            })
            .collect()
    }

    #[test]
    fn tokens_with_their_places() {
        let tokens = kinds("[White \"A \\\"B\\\"\"]\n\n1.e4 {c\n} e5?! (1... c5) 2. Nf3 $1 *");
        assert_eq!(
            tokens,
            vec![
                Ok((Kind::Tag { name: b"White", value: b"A \\\"B\\\"" }, 1, 1)),
                Ok((Kind::Number(b"1."), 3, 1)),
                Ok((Kind::Move(b"e4"), 3, 3)),
                Ok((Kind::Comment, 3, 6)),
                Ok((Kind::Move(b"e5"), 4, 3)),
                Ok((Kind::Nag, 4, 5)),
                Ok((Kind::Open, 4, 8)),
                Ok((Kind::Number(b"1..."), 4, 9)),
                Ok((Kind::Move(b"c5"), 4, 14)),
                Ok((Kind::Close, 4, 16)),
                Ok((Kind::Number(b"2."), 4, 18)),
                Ok((Kind::Move(b"Nf3"), 4, 21)),
                Ok((Kind::Nag, 4, 25)),
                Ok((Kind::Result, 4, 28)),
            ]
        );
    }

    #[test]
    fn syntax_errors_with_their_places() {
        let last = |text: &str| kinds(text).pop().and_then(Result::err);
        assert_eq!(
            last("1. e4 (e5\n2. d4").as_deref(),
            Some("1:7: expected `)` closing the variation opened here, found the end of the game")
        );
        assert_eq!(
            last("1. e4 e5)").as_deref(),
            Some("1:9: expected a move, comment or annotation, found `)` with no variation open")
        );
        assert_eq!(
            last("1. e4 }").as_deref(),
            Some("1:7: expected a move, comment or annotation, found `}` with no comment open")
        );
        assert_eq!(
            last("[White \"E\n1. e4").as_deref(),
            Some("1:10: expected `\"` closing the tag value, found the end of the line")
        );
        assert_eq!(
            last("[White \"E\" x\n").as_deref(),
            Some("1:12: expected `]` closing the tag pair, found `x`")
        );
        assert_eq!(
            last("1. e4 {open\n").as_deref(),
            Some("1:7: expected `}` closing the comment opened here, found the end of the game")
        );
        assert_eq!(
            last("1. e4 1-0 e5").as_deref(),
            Some(
                "1:11: expected the end of the game after its result (a blank line before the \
                 next game), found `e5`"
            )
        );
        assert_eq!(
            last("1. e4 $300").as_deref(),
            Some("1:7: expected an annotation: $0 to $255, !, ?, !!, ??, !? or ?!, found `$300`")
        );
    }

    proptest::proptest! {
        /// On ASCII text, where columns are byte counts, every token and error has the place
        /// that counting the characters gives.
        #[test]
        fn ascii_columns_are_counted_ones(text in "([0-9]{1,3}\\.{1,3} ?|[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8][+#]? |O-O |1-0 |\\* |\\{[a-z \n]{0,12}\\}|; [a-z ]{0,5}\n|\n%[a-z]{0,3}\n|\\(|\\)|\\$[0-9]{1,3}|[!?]{1,2}|\\[[A-Za-z]{0,5} ?\"[a-z\\\\\"]{0,4}\"? ?\\]?\n|[\t\r\n ]|[\"}\\]])*") {
            let fast = Lexer::new(text.as_bytes(), 3);
            proptest::prop_assert!(fast.ascii);
            let mut counted = Lexer::new(text.as_bytes(), 3);
            counted.ascii = false;
            proptest::prop_assert_eq!(fast.collect::<Vec<_>>(), counted.collect::<Vec<_>>());
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "(".repeat(500_000);
        let tokens = kinds(&deep);
        assert_eq!(tokens.len(), MAX_DEPTH + 1);
        assert_eq!(
            tokens.last().cloned().and_then(Result::err).as_deref(),
            Some("1:256: expected variations nested at most 255 deep, found a deeper `(`")
        );
    }
}
