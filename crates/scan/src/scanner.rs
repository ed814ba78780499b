//! The scanner: whitespace-separated tokens and integers, with their places.

use std::cell::Cell;
use std::io::{self, Read};
use std::marker::PhantomData;

use crate::error::{Found, ScanError};
use crate::place::{Place, Tracker};
use crate::source::{MAX_TOKEN_BYTES, Source, Stream, Text};

/// The UTF-8 byte order mark, skipped at the start of every input.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// Space, tab, LF, vertical tab, form feed and CR: what C's `isspace` accepts in the C locale.
const SPACES: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0b | 1 << 0x0c | 1 << b'\r';

/// Whether `byte` separates tokens: space, tab, LF, vertical tab, form feed or CR, as C's
/// `isspace` in the C locale, which the official judges read with.
#[inline]
pub const fn is_space(byte: u8) -> bool {
    // `&` rather than `&&`: no branch, and the shift stays in range.
    (byte <= b' ') & (SPACES >> (byte & 63) & 1 != 0)
}

/// A token: a maximal run of non-whitespace bytes, with its byte offset in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Byte offset of the token's first byte, counted from the start of the input (a byte
    /// order mark included).
    pub offset: usize,
}

/// Reads whitespace-separated tokens from a [`Source`], remembering where each one is.
///
/// `Scanner<'a>` reads a string ([`Scanner::new`]); `Scanner<'static, Stream<R>>` reads any
/// [`Read`] in bounded chunks ([`Scanner::from_reader`]). Both read the same way, byte for byte.
#[derive(Debug, Clone)]
pub struct Scanner<'a, S = Text<'a>> {
    source: S,
    /// Index in the window of the next byte to read.
    pos: usize,
    /// Offset in the input of the window's first byte.
    base: usize,
    /// The place of the first byte still in the window (or of the first byte after a byte
    /// order mark).
    kept: Tracker,
    /// The last place asked for, from which the next one is counted.
    cache: Cell<Tracker>,
    /// A place asked to be remembered, with its place once its bytes have left the window.
    mark: Option<(usize, Option<Place>)>,
    /// The offset of the last token cut at [`MAX_TOKEN_BYTES`]; the rest of it is skipped before
    /// the next token when `skip_rest` is set.
    cut: Option<usize>,
    skip_rest: bool,
    /// Window indices of the last token returned.
    last: (usize, usize),
    text: PhantomData<&'a str>,
}

impl<'a> Scanner<'a, Text<'a>> {
    /// A scanner at the start of `text` (after a byte order mark, if it starts with one).
    pub fn new(text: &'a str) -> Scanner<'a> {
        let skip = if text.as_bytes().starts_with(BOM) { BOM.len() } else { 0 };
        Scanner::with_source(Text(text), skip)
    }

    /// The next token, or `None` at the end of the input; it borrows the text, not the scanner.
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        let text = self.source.0;
        let bytes = text.as_bytes();
        // The whole text is at hand: a tight loop, inlined where records are checked, with the
        // general path for the rare token too long to return whole.
        let mut end = self.pos;
        while end < bytes.len() && is_space(bytes[end]) {
            end += 1;
        }
        let start = end;
        while end < bytes.len() && !is_space(bytes[end]) {
            end += 1;
        }
        if end - start > MAX_TOKEN_BYTES || self.skip_rest {
            return self.next_long_token();
        }
        self.pos = end;
        if start == end {
            return None;
        }
        self.last = (start, end);
        Some(Token { text: &text[start..end], offset: start })
    }

    #[cold]
    fn next_long_token(&mut self) -> Option<Token<'a>> {
        let (start, end) = self.take()?;
        Some(Token { text: &self.source.0[start..end], offset: start })
    }

    /// The next token, which must exist.
    pub fn word(&mut self, expected: &str) -> Result<Token<'a>, ScanError> {
        match self.next_token() {
            Some(token) => Ok(token),
            None => Err(self.error_here(expected)),
        }
    }
}

impl<R: Read> Scanner<'static, Stream<R>> {
    /// A scanner reading `reader` in chunks (after a byte order mark, if it starts with one).
    /// It reads the first few bytes at once, to look for the mark.
    pub fn from_reader(reader: R) -> Scanner<'static, Stream<R>> {
        let mut source = Stream::new(reader);
        while source.window().len() < BOM.len() && !source.is_exhausted() {
            source.refill(0);
        }
        let skip = if source.window().starts_with(BOM) { BOM.len() } else { 0 };
        Scanner::with_source(source, skip)
    }
}

impl<S: Source> Scanner<'_, S> {
    fn with_source(source: S, skip: usize) -> Self {
        let start = Tracker::start(skip);
        Scanner {
            source,
            pos: skip,
            base: 0,
            kept: start,
            cache: Cell::new(start),
            mark: None,
            cut: None,
            skip_rest: false,
            last: (0, 0),
            text: PhantomData,
        }
    }

    /// Drops the window before index `keep` and reads more; returns whether bytes were added.
    /// Every index into the window moves down by `keep` (the old `self.pos` included).
    #[cold]
    fn more(&mut self, keep: usize) -> bool {
        if self.source.is_exhausted() {
            return false;
        }
        let new_base = self.base + keep;
        if let Some((offset, None)) = self.mark
            && offset < new_base
        {
            self.mark = Some((offset, Some(self.place_of(offset))));
        }
        // Count the places of the bytes about to be dropped, from the latest place known.
        let cache = self.cache.get();
        let mut kept = if cache.offset <= new_base { cache } else { self.kept };
        if kept.offset < new_base {
            let window = self.source.window();
            kept.advance(&window[kept.offset - self.base..keep]);
        }
        self.kept = kept;
        if self.cache.get().offset < new_base {
            self.cache.set(kept);
        }
        let added = self.source.refill(keep);
        self.base = new_base;
        self.pos -= keep;
        self.last = (self.last.0.saturating_sub(keep), self.last.1.saturating_sub(keep));
        added
    }

    /// Skips whitespace (and the rest of a token cut short), reading as needed; returns whether a
    /// token follows.
    #[inline]
    fn skip_space(&mut self) -> bool {
        if self.skip_rest {
            self.skip_rest_of_cut();
        }
        loop {
            let window = self.source.window();
            while let Some(&byte) = window.get(self.pos) {
                if !is_space(byte) {
                    return true;
                }
                self.pos += 1;
            }
            if !self.more(self.pos) {
                return false;
            }
        }
    }

    #[cold]
    fn skip_rest_of_cut(&mut self) {
        self.skip_rest = false;
        loop {
            let window = self.source.window();
            while let Some(&byte) = window.get(self.pos) {
                if is_space(byte) {
                    return;
                }
                self.pos += 1;
            }
            if !self.more(self.pos) {
                return;
            }
        }
    }

    /// The next token as window indices `(start, end)`, whole in the window (reading as needed),
    /// without consuming it, and whether it was cut at [`MAX_TOKEN_BYTES`].
    #[inline]
    fn peek(&mut self) -> Option<(usize, usize, bool)> {
        if !self.skip_space() {
            return None;
        }
        let mut end = self.pos;
        loop {
            let window = self.source.window();
            while let Some(&byte) = window.get(end) {
                if is_space(byte) {
                    break;
                }
                end += 1;
            }
            if end - self.pos > MAX_TOKEN_BYTES {
                let mut cut = self.pos + MAX_TOKEN_BYTES;
                while window[cut] & 0xc0 == 0x80 {
                    cut -= 1;
                }
                return Some((self.pos, cut, true));
            }
            if end < window.len() {
                return Some((self.pos, end, false));
            }
            let before = self.pos;
            let added = self.more(self.pos);
            end -= before - self.pos;
            if !added {
                return Some((self.pos, end, false));
            }
        }
    }

    /// Consumes the next token; returns its window indices.
    #[inline]
    fn take(&mut self) -> Option<(usize, usize)> {
        let (start, end, cut) = self.peek()?;
        self.pos = end;
        self.last = (start, end);
        if cut {
            self.cut = Some(self.base + start);
            self.skip_rest = true;
        }
        Some((start, end))
    }

    /// The text of window bytes `start..end`, which are whole characters.
    fn text_of(&self, start: usize, end: usize) -> &str {
        let bytes = self.source.window().get(start..end).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }

    /// The next token, or `None` at the end of the input, borrowing the scanner (for a string,
    /// [`Scanner::next_token`] borrows the string instead). A token longer than
    /// [`MAX_TOKEN_BYTES`] is cut there: see [`Scanner::is_cut`].
    #[inline]
    pub fn token(&mut self) -> Option<Token<'_>> {
        let (start, end) = self.take()?;
        let offset = self.base + start;
        Some(Token { text: self.text_of(start, end), offset })
    }

    /// Whether the token at `offset` was cut at [`MAX_TOKEN_BYTES`].
    pub fn is_cut(&self, offset: usize) -> bool {
        self.cut == Some(offset)
    }

    /// The next token read by `read`, consumed only when `read` accepts it (returns `Some`); a
    /// token that is rejected stays, for [`Scanner::error_here`] to describe.
    ///
    /// ```
    /// use arbiter_scan::Scanner;
    ///
    /// let mut input = Scanner::from_reader("north 3".as_bytes());
    /// let direction = |text: &str| ["north", "south"].iter().position(|&d| d == text);
    /// assert_eq!(input.take_if(direction), Some(0));
    /// assert_eq!(input.take_if(direction), None);
    /// assert_eq!(input.error_here("a direction").to_string(), "1:7: expected a direction, found `3`");
    /// ```
    pub fn take_if<T>(&mut self, read: impl FnOnce(&str) -> Option<T>) -> Option<T> {
        let (start, end, cut) = self.peek()?;
        if cut {
            return None;
        }
        let value = read(self.text_of(start, end))?;
        self.pos = end;
        Some(value)
    }

    /// The line and column of input offset `offset`, which must be one this scanner still holds:
    /// at or after the start of the token being read, or the offset last given to
    /// [`Scanner::mark`]. (Earlier offsets give the earliest place still known.)
    pub fn place_of(&self, offset: usize) -> Place {
        if let Some((marked, Some(place))) = self.mark
            && marked == offset
        {
            return place;
        }
        let cache = self.cache.get();
        let mut from = if offset >= cache.offset { cache } else { self.kept };
        if offset < from.offset {
            return from.place;
        }
        let window = self.source.window();
        let end = (offset - self.base).min(window.len());
        let start = (from.offset - self.base).min(end);
        from.advance(&window[start..end]);
        self.cache.set(from);
        from.place
    }

    /// The place of the next token, or of the end of the input if there is none.
    pub fn place(&mut self) -> Place {
        self.skip_space();
        self.place_of(self.base + self.pos)
    }

    /// The offset of the next token (or of the end of the input), remembered so that
    /// [`Scanner::place_of`] can place it even after its bytes have been dropped. One place
    /// is remembered at a time.
    pub fn mark(&mut self) -> usize {
        self.skip_space();
        let offset = self.base + self.pos;
        self.mark = Some((offset, None));
        offset
    }

    /// Remembers the place of input offset `offset`, which the scanner still holds (e.g. the end
    /// of the token just read), like [`Scanner::mark`].
    pub fn remember(&mut self, offset: usize) {
        self.mark = Some((offset, None));
    }

    /// Whether only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        !self.skip_space()
    }

    /// Whether the next `count` tokens are already read from the source, whole, so that taking
    /// them will not wait for input. A judge that answers as it reads flushes its answers when
    /// this is false, before reading on.
    pub fn holds_tokens(&self, count: usize) -> bool {
        if self.skip_rest {
            return false;
        }
        let window = self.source.window();
        let exhausted = self.source.is_exhausted();
        let mut at = self.pos;
        for _ in 0..count {
            while window.get(at).is_some_and(|&b| is_space(b)) {
                at += 1;
            }
            if at == window.len() {
                return exhausted;
            }
            while window.get(at).is_some_and(|&b| !is_space(b)) {
                at += 1;
            }
            if at == window.len() && !exhausted {
                return false;
            }
        }
        true
    }

    /// Why the input stopped early, if reading it failed.
    pub fn read_error(&self) -> Option<&io::Error> {
        self.source.read_error()
    }

    /// What stands at window indices `start..end` (a token, cut or not), or at the end.
    fn found(&self, token: Option<(usize, usize, bool)>) -> Found {
        match token {
            Some((start, end, false)) => Found::token(self.text_of(start, end)),
            Some((start, end, true)) => Found::long_token(self.text_of(start, end)),
            None => match self.source.read_error() {
                Some(error) => Found::Unreadable(error.to_string()),
                None => Found::End,
            },
        }
    }

    /// An error at the next token (or at the end of the input), consuming nothing.
    pub fn error_here(&mut self, expected: impl Into<String>) -> ScanError {
        let token = self.peek();
        let found = self.found(token);
        ScanError { place: self.place_of(self.base + self.pos), expected: expected.into(), found }
    }

    /// An error about a token this scanner has just returned.
    pub fn error_at(&self, token: Token<'_>, expected: impl Into<String>) -> ScanError {
        let found = if self.is_cut(token.offset) {
            Found::long_token(token.text)
        } else {
            Found::token(token.text)
        };
        ScanError { place: self.place_of(token.offset), expected: expected.into(), found }
    }

    /// An error about the last token [`Scanner::token`] returned (which the scanner still holds:
    /// nothing has been read since), for a token that borrowed the scanner.
    pub fn error_at_last(&self, expected: impl Into<String>) -> ScanError {
        let (start, end) = self.last;
        let offset = self.base + start;
        let text = self.text_of(start, end);
        let found = if self.is_cut(offset) { Found::long_token(text) } else { Found::token(text) };
        ScanError { place: self.place_of(offset), expected: expected.into(), found }
    }

    /// The next token as a decimal integer, optionally signed.
    ///
    /// Values beyond `i64` saturate to `i64::MIN` or `i64::MAX`: a judge that only asks whether a
    /// coordinate is on the board gives the same answer for them, and nothing overflows.
    #[inline]
    pub fn int(&mut self, expected: &str) -> Result<i64, ScanError> {
        match self.try_int() {
            Some(value) => Ok(value),
            None => Err(self.error_here(expected)),
        }
    }

    /// Skips the whitespace already read, reading nothing, and returns the offset reached: that
    /// of the next token when it has begun to arrive.
    #[inline]
    pub fn skip_space_buffered(&mut self) -> usize {
        let bytes = self.source.window();
        while bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
        self.base + self.pos
    }

    /// `N` one-digit numbers, each followed by one whitespace byte (or the end of the input), if
    /// that is what comes next in the bytes already read; otherwise `None`, consuming nothing but
    /// whitespace and reading nothing. A fast path for formats whose numbers are almost always
    /// single digits: callers fall back to [`Scanner::try_int`], which reads on.
    #[inline]
    pub fn digits<const N: usize>(&mut self) -> Option<[u8; N]> {
        if self.skip_rest {
            return None;
        }
        let bytes = self.source.window();
        while bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
        let window = bytes.get(self.pos..)?;
        let mut values = [0; N];
        if let Some(fixed) = window.get(..2 * N) {
            // The usual case, every byte at hand: one test for all of them rather than a
            // branch per byte, and no bounds checks past the one above.
            let mut ok = true;
            for (k, value) in values.iter_mut().enumerate() {
                let digit = fixed[2 * k].wrapping_sub(b'0');
                ok &= (digit <= 9) & is_space(fixed[2 * k + 1]);
                *value = digit;
            }
            if !ok {
                return None;
            }
            self.pos += 2 * N;
            return Some(values);
        }
        for (k, value) in values.iter_mut().enumerate() {
            let digit = window.get(2 * k)?.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            match window.get(2 * k + 1) {
                Some(&b) if !is_space(b) => return None,
                None if !self.source.is_exhausted() => return None,
                _ => {}
            }
            *value = digit;
        }
        self.pos = (self.pos + 2 * N).min(bytes.len());
        Some(values)
    }

    /// Like [`Scanner::int`], but without building an error: `None` consumes nothing, and
    /// [`Scanner::error_here`] then describes what stands there.
    #[inline]
    pub fn try_int(&mut self) -> Option<i64> {
        self.try_int_in(i64::MIN, i64::MAX)
    }

    /// The next token as an integer in `min..=max`, consumed only if it is one.
    #[inline]
    pub fn try_int_in(&mut self, min: i64, max: i64) -> Option<i64> {
        let (start, end, cut) = self.peek()?;
        if cut {
            return None;
        }
        let value = parse_int(&self.source.window()[start..end])?;
        if !(min..=max).contains(&value) {
            return None;
        }
        self.pos = end;
        Some(value)
    }

    /// The next token as an integer in `min..=max`; anything else is an error.
    pub fn int_in(&mut self, min: i64, max: i64, expected: &str) -> Result<i64, ScanError> {
        match self.try_int_in(min, max) {
            Some(value) => Ok(value),
            None => Err(self.error_here(expected)),
        }
    }
}

/// `token` as a decimal integer with an optional sign, saturating beyond `i64`.
#[inline]
fn parse_int(token: &[u8]) -> Option<i64> {
    if let [byte] = token {
        let digit = byte.wrapping_sub(b'0');
        return (digit <= 9).then_some(i64::from(digit));
    }
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // Up to 18 digits always fit; longer numbers (leading zeros included) saturate.
    let value = if digits.len() <= 18 {
        digits.iter().fold(0i64, |v, &b| v * 10 + i64::from(b - b'0'))
    } else {
        digits.iter().fold(0i64, |v, &b| v.saturating_mul(10).saturating_add(i64::from(b - b'0')))
    };
    Some(if negative { value.saturating_neg() } else { value })
}
