//! Cutting a PGN stream into games as it is read, so that each game can be checked on its own,
//! in parallel, with memory bounded by the largest game rather than the file.
//!
//! A game ends where pgn-reader ends one: at a line starting with `[` or at a blank line, once
//! the game has movetext, never inside a `{ comment }`. A comment left open would otherwise take
//! every later game with it, so the cut also happens inside a comment at a line that starts a
//! tag pair (`[Name "`, a name of at most 255 characters) after a blank line: a comment that
//! spans a blank line and then a tag pair is taken for one never closed, and its game is
//! reported broken while the next one is read. A UTF-8 byte order mark at the start of the
//! stream is skipped.
//!
//! The stream comes out in [`Piece`]s that together hold every byte of it, in order: each game
//! with the blank lines before it, and [`Piece::Raw`] bytes that belong to no game read (a byte
//! order mark, blank lines at the end, a game larger than the limit). Writing every piece's bytes
//! back gives the stream again, which is how `fix` keeps every byte it does not rewrite.
//!
//! ```
//! use arbiter_chess_record::pgn::{Piece, Splitter};
//!
//! let pgn = b"[White \"A\"]\n\n1. e4 { never closed\n\n[White \"B\"]\n\n1. f3 e5 *\n";
//! let games: Vec<_> = Splitter::new(&pgn[..])
//!     .filter_map(|piece| match piece {
//!         Ok(Piece::Game(game)) => Some((game.index, game.at.line)),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(games, [(1, 1), (2, 5)]);
//! ```

use std::collections::VecDeque;
use std::io::{self, Read};

use arbiter_scan::{Place, is_space};

use crate::record::BOM;

/// The largest game read by default, in bytes (64 MiB): a larger one is reported as
/// [`Piece::TooLarge`] and skipped, so that reading a game costs at most a small multiple of
/// this much memory.
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// How many bytes are read from the stream at a time.
const CHUNK: usize = 256 << 10;

/// The buffer keeps each byte at an address congruent to its place in the stream modulo this
/// (a cache line), which the kernel's copy of a file into it needs to go at full speed.
const ALIGN: usize = 64;

/// A tag name longer than this ends no comment (see the module documentation).
const MAX_TAG_NAME: usize = 255;

/// Bytes of a game too large to read are passed on in pieces of about this size.
const RAW_PIECE: usize = 64 << 10;

/// The text of one game of a PGN stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// Its number in the stream, from 1.
    pub index: usize,
    /// Where its first character stands.
    pub at: Place,
    /// Where [`bytes`](GameText::bytes) starts in the stream, in bytes.
    pub offset: u64,
    /// How many bytes of [`bytes`](GameText::bytes) are blank lines before the game.
    pub lead: usize,
    /// The blank lines before the game, then its tags and movetext.
    pub bytes: Vec<u8>,
    /// It is the last game of the stream, ended by the stream's end (not by a blank line or the
    /// next game's tags): if its movetext has no result, the stream may have been cut off.
    pub last: bool,
}

impl GameText {
    /// The game's text, from the start of the line it starts on: tags and movetext.
    pub fn text(&self) -> &[u8] {
        &self.bytes[self.lead.min(self.bytes.len())..]
    }

    /// Where the game's first character (of its tags, or of its movetext) stands in the
    /// stream, in bytes: where to seek to find it again.
    pub fn start_offset(&self) -> u64 {
        let text = self.text();
        let indent = text.iter().take_while(|&&b| is_space(b)).count();
        self.offset + (self.bytes.len() - text.len() + indent) as u64
    }
}

/// A piece of a PGN stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A game.
    Game(GameText),
    /// A game larger than the limit, not read; its bytes follow as [`Piece::Raw`].
    TooLarge {
        /// Its number in the stream, from 1.
        index: usize,
        /// Where its first character stands.
        at: Place,
        /// Where its first character stands in the stream, in bytes.
        offset: u64,
        /// The limit it broke, in bytes.
        limit: usize,
    },
    /// Bytes that belong to no game read (only when asked for with
    /// [`Splitter::with_raw`]).
    Raw(Vec<u8>),
}

/// The state of the line being read.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// No byte of the line has been read yet.
    fresh: bool,
    /// Its number.
    line: u32,
    /// Its first byte (`None` for an empty line).
    first: Option<u8>,
    /// Whether every byte so far is whitespace.
    blank: bool,
    /// The characters before its first byte that is not whitespace, so far.
    indent: u32,
    /// Whether `{`, `}` and `;` are looked for in it.
    scan: bool,
    /// The line may start a tag pair that ends an open comment: how far its start matched.
    tag_pair: Option<TagPair>,
    /// The characters read of it so far (bytes that do not continue a UTF-8 sequence), counted
    /// only for its pieces before the last one read.
    chars: u32,
}

/// How far a line has matched the start of a tag pair, `[Name "`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TagPair {
    /// In the name, this many bytes long.
    Name(usize),
    /// In the blanks after the name.
    Blanks,
}

/// Cuts a PGN stream into [`Piece`]s as it reads it (see the module documentation).
pub struct Splitter<R> {
    reader: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    started: bool,
    done: bool,
    limit: usize,
    raw: bool,
    /// Bytes of the stream consumed so far.
    offset: u64,
    /// Games found so far.
    count: usize,
    out: VecDeque<Piece>,
    game: Game,
    row: Row,
    /// A NUL byte was met: reading stops there, once the pieces before it are out.
    nul: Option<Place>,
    /// Whether a NUL byte stops the reading (a stream's may never end) or is read as any byte
    /// (a text in memory, which ends).
    nul_stops: bool,
    /// The stream is a part of a longer text, which goes on after it: its last game is not
    /// the text's last.
    more_after: bool,
}

/// The game being read.
#[derive(Debug)]
struct Game {
    bytes: Vec<u8>,
    /// Where `bytes` starts in the stream.
    offset: u64,
    /// Where the game's first line starts in `bytes`, and where its first character stands,
    /// once a line that is not blank has been read.
    start: Option<(usize, Place)>,
    /// Larger than the limit: its bytes are passed on (or dropped), not kept.
    too_large: bool,
    /// Where the line being read starts in `bytes`.
    row_start: usize,
    has_movetext: bool,
    in_comment: bool,
    blank_in_comment: bool,
}

impl Game {
    /// A game starting at `offset`, with room for `capacity` bytes.
    fn new(offset: u64, capacity: usize) -> Game {
        Game {
            bytes: Vec::with_capacity(capacity),
            offset,
            start: None,
            too_large: false,
            row_start: 0,
            has_movetext: false,
            in_comment: false,
            blank_in_comment: false,
        }
    }
}

impl<R: Read> Splitter<R> {
    /// Reads games from `reader`, each of at most [`MAX_GAME_BYTES`] bytes, leaving out the
    /// bytes that belong to no game.
    pub fn new(reader: R) -> Splitter<R> {
        Splitter {
            reader,
            buf: vec![0; CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            started: false,
            done: false,
            limit: MAX_GAME_BYTES,
            raw: false,
            offset: 0,
            count: 0,
            out: VecDeque::new(),
            game: Game::new(0, 4096),
            row: Row::fresh(1),
            nul: None,
            nul_stops: true,
            more_after: false,
        }
    }

    /// Reads a stream that starts inside a longer text: at byte `offset` of it, on line
    /// `line`, after `games` games (a shard of a file, whose reports then read as the whole
    /// file's). The stream must start at the start of a line.
    pub fn with_start(mut self, offset: u64, line: u32, games: usize) -> Splitter<R> {
        self.offset = offset;
        self.game = Game::new(offset, 4096);
        self.row = Row::fresh(line);
        self.count = games;
        self
    }

    /// The text goes on after the stream (a shard that is not the file's last): its last game
    /// was ended by the next game, not by the end of the text.
    pub fn with_more_after(mut self) -> Splitter<R> {
        self.more_after = true;
        self
    }

    /// Games larger than `limit` bytes are [`Piece::TooLarge`].
    pub fn with_limit(mut self, limit: usize) -> Splitter<R> {
        self.limit = limit.max(1);
        self
    }

    /// Reads a NUL byte as any other instead of stopping there: for a text held in memory,
    /// which ends however many it holds.
    pub fn with_nul_bytes(mut self) -> Splitter<R> {
        self.nul_stops = false;
        self
    }

    /// Also gives the bytes that belong to no game, as [`Piece::Raw`], so that the pieces hold
    /// the whole stream.
    pub fn with_raw(mut self) -> Splitter<R> {
        self.raw = true;
        self
    }

    /// The line being read: where an error reading the stream is met.
    pub fn line(&self) -> u32 {
        self.row.line
    }

    /// Reads more of the stream into the buffer; `false` at its end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // The bytes not read yet go to the front of the buffer, at an address that has the
        // alignment of their place in the stream (modulo 64): the kernel copies a file into
        // memory aligned alike at about twice the speed.
        let kept = self.end - self.start;
        let place = (self.offset % ALIGN as u64) as usize;
        let front = (place + ALIGN - self.buf.as_ptr() as usize % ALIGN) % ALIGN;
        let front = if front + kept < self.buf.len() { front } else { 0 };
        if self.start != front {
            self.buf.copy_within(self.start..self.end, front);
            (self.start, self.end) = (front, front + kept);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// Skips a byte order mark at the start of the stream.
    fn skip_bom(&mut self) -> io::Result<()> {
        let bom = BOM.as_bytes();
        while self.end - self.start < bom.len() && self.fill()? {}
        if self.buf[self.start..self.end].starts_with(bom) {
            self.start += bom.len();
            self.offset += bom.len() as u64;
            self.game.offset = self.offset;
            if self.raw {
                self.out.push_back(Piece::Raw(bom.to_vec()));
            }
        }
        Ok(())
    }

    /// Reads the next piece of a line from the buffer.
    fn step(&mut self) {
        if self.row.fresh && !self.game.has_movetext && !self.game.in_comment {
            self.tag_lines();
            if self.start == self.end {
                return;
            }
        }
        let available = &self.buf[self.start..self.end];
        let found = match self.nul_stops {
            true => memchr::memchr2(b'\n', 0, available),
            false => memchr::memchr(b'\n', available),
        };
        let (len, ends) = match found {
            Some(i) if available[i] == 0 => (i, false),
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let piece = &self.buf[self.start..self.start + len];
        if !ends {
            // Only a NUL byte's column needs the line's characters: those of a line read whole
            // are never counted.
            self.row.chars = self.row.chars.saturating_add(chars(piece));
        }
        let mut sink = Sink { out: &mut self.out, count: &mut self.count, raw: self.raw };
        if len > 0 {
            feed(&mut self.game, &mut self.row, &mut sink, piece, ends, self.limit);
        }
        if !ends && len < available.len() {
            // No text holds a NUL byte: what follows is no PGN (e.g. /dev/zero, or a binary
            // file), and reading it would find no end. The games before it are given; the one
            // it interrupts is no game, and comes as raw bytes, as far as it was read.
            let at = Place { line: self.row.line, column: self.row.chars.saturating_add(1) };
            let bytes = std::mem::take(&mut self.game.bytes);
            if self.raw && !bytes.is_empty() {
                self.out.push_back(Piece::Raw(bytes));
            }
            self.nul = Some(at);
            self.done = true;
        }
        self.start += len;
        self.offset += len as u64;
        if ends {
            self.row = Row::fresh(self.row.line.saturating_add(1));
        }
    }

    /// Takes the whole lines of tag pairs that start the buffer, before the game's movetext
    /// and outside any comment, at once: all such a line changes is the game's bytes, and where
    /// the game starts when it is its first. Every other line, a line not whole in the buffer,
    /// one that holds a NUL byte or that would take the game past its limit, is left to the
    /// line-by-line reading. Most lines of a file are such tag pairs.
    fn tag_lines(&mut self) {
        let game = &mut self.game;
        if game.too_large {
            return;
        }
        let room = self.limit.saturating_sub(game.bytes.len());
        let mut at = self.start;
        while self.buf.get(at) == Some(&b'[') {
            let rest = &self.buf[at..self.end];
            let found = match self.nul_stops {
                true => memchr::memchr2(b'\n', 0, rest),
                false => memchr::memchr(b'\n', rest),
            };
            let Some(len) = found.filter(|&i| rest[i] == b'\n').map(|i| i + 1) else {
                break;
            };
            if at + len - self.start > room {
                break;
            }
            let row_start = game.bytes.len() + (at - self.start);
            if game.start.is_none() {
                game.start = Some((row_start, Place { line: self.row.line, column: 1 }));
            }
            game.row_start = row_start;
            self.row.line = self.row.line.saturating_add(1);
            at += len;
        }
        game.bytes.extend_from_slice(&self.buf[self.start..at]);
        self.offset += (at - self.start) as u64;
        self.start = at;
    }

    /// The stream has ended: the last game ends too.
    fn finish(&mut self) {
        let mut sink = Sink { out: &mut self.out, count: &mut self.count, raw: self.raw };
        if !self.row.fresh {
            end_row(&mut self.game, &mut self.row, &mut sink);
        }
        emit_game(&mut self.game, &mut sink, !self.more_after);
        self.done = true;
    }
}

/// The characters of `bytes`, in UTF-8 (any other byte counts as one).
fn chars(bytes: &[u8]) -> u32 {
    // Most text is ASCII, which `is_ascii` tells many bytes at a time.
    let n = if bytes.is_ascii() {
        bytes.len()
    } else {
        bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count()
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A NUL byte in a PGN stream, where reading stops: text holds none, and a stream of them (as
/// `/dev/zero` gives) would never end a line. Carried as the inner error of an
/// [`io::ErrorKind::InvalidData`] error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: expected PGN text, found a NUL byte")]
pub struct NulByte {
    /// Where it stands.
    pub at: Place,
}

impl NulByte {
    /// The NUL byte an error reading a stream is about, if it is one.
    pub fn of(error: &io::Error) -> Option<NulByte> {
        error.get_ref().and_then(|inner| inner.downcast_ref::<NulByte>()).copied()
    }
}

/// Where the pieces go, the count of games that numbers them, and whether bytes that belong to
/// no game are given too.
struct Sink<'a> {
    out: &'a mut VecDeque<Piece>,
    count: &'a mut usize,
    raw: bool,
}

impl Row {
    fn fresh(line: u32) -> Row {
        Row {
            fresh: true,
            line,
            first: None,
            blank: true,
            indent: 0,
            scan: false,
            tag_pair: None,
            chars: 0,
        }
    }
}

/// Reads `piece`, the next bytes of the current line (with its `\n` when `ends`).
fn feed(
    game: &mut Game,
    row: &mut Row,
    sink: &mut Sink<'_>,
    piece: &[u8],
    ends: bool,
    limit: usize,
) {
    let content = if ends { &piece[..piece.len() - 1] } else { piece };
    if row.fresh {
        row.fresh = false;
        row.first = content.first().copied();
        game.row_start = game.bytes.len();
        if game.in_comment {
            if row.first == Some(b'[') && game.blank_in_comment {
                row.tag_pair = Some(TagPair::Name(0));
            }
        } else if game.has_movetext && row.first == Some(b'[') {
            cut_before_row(game, row, sink);
        }
        // Tag pairs and escape lines are not scanned: a `{` in them opens no comment.
        row.scan = game.in_comment || !matches!(row.first, Some(b'[' | b'%'));
    }
    game.bytes.extend_from_slice(piece);
    let at = game.bytes.len() - piece.len();
    if row.blank {
        let spaces = content.iter().take_while(|&&b| is_space(b)).count();
        row.indent = row.indent.saturating_add(u32::try_from(spaces).unwrap_or(u32::MAX));
        if spaces < content.len() {
            row.blank = false;
            if game.start.is_none() {
                let at = Place { line: row.line, column: row.indent.saturating_add(1) };
                game.start = Some((game.row_start, at));
            }
            if !game.in_comment && !matches!(row.first, Some(b'[' | b'%')) {
                game.has_movetext = true;
            }
        }
    }
    if let Some(state) = &mut row.tag_pair {
        match tag_pair(state, content) {
            Some(true) => {
                // The comment was never closed: its game ends before this tag pair.
                row.tag_pair = None;
                row.scan = false;
                game.in_comment = false;
                cut_before_row(game, row, sink);
            }
            Some(false) => row.tag_pair = None,
            None => {}
        }
        if row.tag_pair.is_some() && ends {
            row.tag_pair = None;
        }
    }
    if row.scan {
        let from = at.max(game.row_start);
        let end = game.bytes.len() - usize::from(ends);
        row.scan = scan_comments(game, from, end);
    }
    if ends {
        end_row(game, row, sink);
    }
    if game.start.is_some() && !game.too_large && game.bytes.len() > limit {
        game.too_large = true;
        *sink.count += 1;
        if let Some((start, at)) = game.start {
            // The line's blanks before its first character are ASCII: one byte each.
            let offset = game.offset + start as u64 + u64::from(at.column - 1);
            sink.out.push_back(Piece::TooLarge { index: *sink.count, at, offset, limit });
        }
    }
    if game.too_large {
        pass_on(game, row, sink);
    } else if game.start.is_none() && game.bytes.len() > RAW_PIECE {
        // Whitespace only so far (a huge blank line): no game to keep it for.
        pass_on(game, row, sink);
    }
}

/// Passes on what a game too large to keep has read, but the start of a line that may still
/// start the next game.
fn pass_on(game: &mut Game, row: &Row, sink: &mut Sink<'_>) {
    let keep = if row.tag_pair.is_some() { game.row_start } else { game.bytes.len() };
    if keep < RAW_PIECE {
        return;
    }
    let rest = game.bytes.split_off(keep);
    let gone = std::mem::replace(&mut game.bytes, rest);
    game.offset += gone.len() as u64;
    game.row_start = game.row_start.saturating_sub(keep);
    if sink.raw {
        sink.out.push_back(Piece::Raw(gone));
    }
}

/// The end of the current line (its `\n` read, or the stream's end).
fn end_row(game: &mut Game, row: &mut Row, sink: &mut Sink<'_>) {
    row.tag_pair = None;
    if row.blank {
        if game.in_comment {
            game.blank_in_comment = true;
        } else if game.has_movetext {
            // The game ends with this blank line.
            game.row_start = game.bytes.len();
            cut_before_row(game, row, sink);
        }
    }
}

/// Ends the current game before the line being read, which starts the next one.
fn cut_before_row(game: &mut Game, row: &Row, sink: &mut Sink<'_>) {
    // The line goes into the next game's own buffer, with room for a game of this one's size
    // (a file's games are much alike): `split_off` would give it a buffer of the line's size,
    // grown again and again as the game is read.
    let cut = game.row_start.min(game.bytes.len());
    let mut next = Game::new(game.offset + cut as u64, cut.min(RAW_PIECE));
    next.bytes.extend_from_slice(&game.bytes[cut..]);
    game.bytes.truncate(cut);
    emit(game, sink);
    if !row.blank {
        // The line is the first of the next game, and starts with `[` at column 1.
        next.start = Some((0, Place { line: row.line, column: row.indent.saturating_add(1) }));
    }
    *game = next;
}

/// Gives the game read so far, or its bytes when it is no game.
fn emit(game: &mut Game, sink: &mut Sink<'_>) {
    emit_game(game, sink, false);
}

/// Gives the game read so far (`last` when the stream's end ends it), or its bytes when it is
/// no game.
fn emit_game(game: &mut Game, sink: &mut Sink<'_>, last: bool) {
    let bytes = std::mem::take(&mut game.bytes);
    match game.start {
        Some((lead, at)) if !game.too_large => {
            *sink.count += 1;
            let index = *sink.count;
            sink.out.push_back(Piece::Game(GameText {
                index,
                at,
                offset: game.offset,
                lead,
                bytes,
                last,
            }));
        }
        _ if sink.raw && !bytes.is_empty() => sink.out.push_back(Piece::Raw(bytes)),
        _ => {}
    }
}

/// Follows `{ comments }` through `game.bytes[from..end]`; whether to go on scanning the line
/// (a `;` comment takes the rest of it).
fn scan_comments(game: &mut Game, from: usize, end: usize) -> bool {
    let bytes = &game.bytes[from..end];
    // Without a `;`, a `{` opens a comment unless one is open and a `}` closes one if one is
    // open: the state after the bytes is the one their last brace leaves, found from the end
    // many bytes at a time, where following each comment would take a search per brace.
    if memchr::memchr(b';', bytes).is_none() {
        if let Some(last) = memchr::memrchr2(b'{', b'}', bytes) {
            let opens = bytes[last] == b'{';
            if opens && !game.in_comment {
                game.blank_in_comment = false;
            }
            if opens && game.in_comment && bytes[..last].contains(&b'}') {
                // Closed and opened again since: a fresh comment.
                game.blank_in_comment = false;
            }
            game.in_comment = opens;
        }
        return true;
    }
    scan_each_comment(game, from, end)
}

/// [`scan_comments`] comment by comment: what a `;` needs, since braces after it are no
/// comment's.
fn scan_each_comment(game: &mut Game, from: usize, end: usize) -> bool {
    let mut i = from;
    while i < end {
        let rest = &game.bytes[i..end];
        if game.in_comment {
            match memchr::memchr(b'}', rest) {
                Some(j) => {
                    game.in_comment = false;
                    i += j + 1;
                }
                None => return true,
            }
        } else {
            match memchr::memchr2(b'{', b';', rest) {
                Some(j) if rest[j] == b'{' => {
                    game.in_comment = true;
                    game.blank_in_comment = false;
                    i += j + 1;
                }
                Some(_) => return false,
                None => return true,
            }
        }
    }
    true
}

/// Reads more of a line that may start a tag pair: `Some(true)` once it does, `Some(false)`
/// once it cannot, `None` while it is undecided (`state` then says how far it matched).
pub(super) fn tag_pair(state: &mut TagPair, bytes: &[u8]) -> Option<bool> {
    let mut bytes = bytes;
    if *state == TagPair::Name(0) {
        // The `[` itself.
        match bytes.split_first() {
            Some((b'[', rest)) => bytes = rest,
            Some(_) => return Some(false),
            None => return None,
        }
        *state = TagPair::Name(1);
    }
    for &b in bytes {
        *state = match (*state, b) {
            (TagPair::Name(n), b) if b.is_ascii_alphanumeric() || b == b'_' => {
                if n > MAX_TAG_NAME {
                    return Some(false);
                }
                TagPair::Name(n + 1)
            }
            (TagPair::Name(1), _) => return Some(false),
            (_, b'"') => return Some(true),
            (_, b' ' | b'\t') => TagPair::Blanks,
            _ => return Some(false),
        };
    }
    None
}

impl<R: Read> Iterator for Splitter<R> {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<io::Result<Piece>> {
        loop {
            if let Some(piece) = self.out.pop_front() {
                return Some(Ok(piece));
            }
            if let Some(at) = self.nul.take() {
                return Some(Err(io::Error::new(io::ErrorKind::InvalidData, NulByte { at })));
            }
            if self.done {
                return None;
            }
            if !self.started {
                self.started = true;
                if let Err(error) = self.skip_bom() {
                    self.done = true;
                    return Some(Err(error));
                }
                continue;
            }
            if self.start == self.end {
                match self.fill() {
                    Ok(true) => {}
                    Ok(false) => self.finish(),
                    Err(error) => {
                        self.done = true;
                        return Some(Err(error));
                    }
                }
                continue;
            }
            self.step();
        }
    }
}

/// The games of an in-memory PGN source, without limit on their size.
///
/// ```
/// use arbiter_chess_record::pgn::{Mode, PgnGames};
///
/// let games: Vec<_> = PgnGames::new(b"1. e4 e5 *\n\n1. d4 *\n").collect();
/// assert_eq!(games.len(), 2);
/// assert!(games[1].check(Mode::Strict).ok);
/// ```
pub struct PgnGames<'a> {
    pieces: Splitter<&'a [u8]>,
}

impl<'a> PgnGames<'a> {
    /// Reads games from the whole text of a PGN source.
    pub fn new(text: &'a [u8]) -> PgnGames<'a> {
        PgnGames { pieces: Splitter::new(text).with_limit(usize::MAX).with_nul_bytes() }
    }
}

impl Iterator for PgnGames<'_> {
    type Item = GameText;

    fn next(&mut self) -> Option<GameText> {
        // Reading from memory fails never, and no game is too large.
        self.pieces.find_map(|piece| match piece {
            Ok(Piece::Game(game)) => Some(game),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out at most `chunk` bytes a read, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn pieces(text: &[u8], chunk: usize, limit: usize) -> Vec<Piece> {
        Splitter::new(Trickle(text, chunk))
            .with_raw()
            .with_limit(limit)
            .collect::<io::Result<Vec<_>>>()
            .unwrap_or_default()
    }

    fn lines(text: &str) -> Vec<(usize, u32)> {
        let mut all = Vec::new();
        for chunk in [1, 2, 7, CHUNK] {
            let found: Vec<(usize, u32)> = pieces(text.as_bytes(), chunk, usize::MAX)
                .into_iter()
                .filter_map(|piece| match piece {
                    Piece::Game(game) => Some((game.index, game.at.line)),
                    _ => None,
                })
                .collect();
            if chunk > 1 {
                assert_eq!(found, all, "read {chunk} bytes at a time");
            }
            all = found;
        }
        all
    }

    /// Every byte comes out again, in order, however the stream is read.
    fn whole(text: &[u8], limit: usize) {
        for chunk in [1, 3, 64, CHUNK] {
            let mut again = Vec::new();
            for piece in pieces(text, chunk, limit) {
                match piece {
                    Piece::Game(game) => again.extend_from_slice(&game.bytes),
                    Piece::Raw(bytes) => again.extend_from_slice(&bytes),
                    Piece::TooLarge { .. } => {}
                }
            }
            assert_eq!(again, text, "read {chunk} bytes at a time");
        }
    }

    #[test]
    fn games_end_at_tags_and_blank_lines() {
        assert_eq!(
            lines("[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\n1. d4 *\n1. c4 *\n"),
            [(1, 1), (2, 5)]
        );
        assert_eq!(lines("1. e4 *\n\n\n1. d4 *\n"), [(1, 1), (2, 4)]);
        assert_eq!(lines("\n\n  \n"), []);
        whole(b"[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\n1. d4 *\n1. c4 *\n\n\n", usize::MAX);
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
        whole(b"1. e4 {open\n\n[W \"2\"]\n\n1. d4 *\n\n[W \"3\"]\n\n1. c4 *\n", usize::MAX);
    }

    #[test]
    fn a_nul_byte_is_placed_by_the_characters_before_it() {
        let text = "[W \"é\"]\n\n1. e4 {é ü} e5\0 *\n".as_bytes();
        for chunk in [1, 2, 3, 7, CHUNK] {
            let read = Splitter::new(Trickle(text, chunk)).collect::<io::Result<Vec<_>>>();
            let nul = read.err().as_ref().and_then(NulByte::of).map(|nul| nul.at);
            assert_eq!(nul, Some(Place { line: 3, column: 15 }), "read {chunk} bytes at a time");
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let pieces = pieces(b"\xef\xbb\xbf[W \"x\"]\n\n1. e4 *\n", 1, usize::MAX);
        let [Piece::Raw(bom), Piece::Game(game)] = &pieces[..] else { panic!("{pieces:?}") };
        assert_eq!(bom, BOM.as_bytes());
        assert_eq!((game.at.line, game.at.column, game.offset), (1, 1, 3));
    }

    #[test]
    fn a_game_too_large_is_passed_on_and_the_next_is_read() {
        let big = format!("[W \"1\"]\n\n1. e4 {{{}}} *\n\n[W \"2\"]\n\n1. d4 *\n", "x".repeat(500));
        let found = pieces(big.as_bytes(), 7, 100);
        let kinds: Vec<String> = found
            .iter()
            .filter_map(|piece| match piece {
                Piece::Game(game) => Some(format!("game {} at {}", game.index, game.at)),
                Piece::TooLarge { index, at, .. } => Some(format!("too large {index} at {at}")),
                Piece::Raw(_) => None,
            })
            .collect();
        assert_eq!(kinds, ["too large 1 at 1:1", "game 2 at 5:1"]);
        whole(big.as_bytes(), 100);
        // A game made of one huge line, and an open comment running to the end.
        whole(format!("1. e4 {}\n", "e5 ".repeat(300)).as_bytes(), 50);
        whole(format!("1. e4 {{{}\n\n[W \"x\"]\n1. d4 *", "y\n".repeat(300)).as_bytes(), 50);
    }

    proptest::proptest! {
        /// The state of comments after a line read from its last brace is the one following
        /// each comment gives.
        #[test]
        fn the_last_brace_tells_the_comment_state(
            line in "[{}; a]{0,12}",
            in_comment: bool,
            blank_in_comment: bool,
        ) {
            let start = |game: &mut Game| {
                game.bytes = line.as_bytes().to_vec();
                game.in_comment = in_comment;
                game.blank_in_comment = blank_in_comment;
            };
            let (mut fast, mut slow) = (Game::new(0, 0), Game::new(0, 0));
            start(&mut fast);
            start(&mut slow);
            let end = line.len();
            let scanning = scan_comments(&mut fast, 0, end);
            proptest::prop_assert_eq!(scanning, scan_each_comment(&mut slow, 0, end));
            proptest::prop_assert_eq!(fast.in_comment, slow.in_comment);
            if fast.in_comment {
                proptest::prop_assert_eq!(fast.blank_in_comment, slow.blank_in_comment);
            }
        }
    }

    #[test]
    fn blank_lines_alone_are_no_game() {
        let found = pieces(&b" \n".repeat(200_000), CHUNK, 1000);
        assert!(found.iter().all(|piece| matches!(piece, Piece::Raw(_))));
        whole(&b" \n".repeat(1000), 100);
    }
}
