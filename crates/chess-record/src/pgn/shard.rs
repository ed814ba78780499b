//! One PGN file cut into shards that are read and checked apart (on other cores or machines),
//! so that every game of the file is read by exactly one shard, whatever the shards' size.
//!
//! **Ranges.** A plain file is cut into byte ranges of a target size. A Zstandard file made of
//! several independent frames is cut between frames, each shard a run of whole frames of about
//! the target size of compressed bytes ([`zstd_frames`](super::zstd_frames)); its text is the
//! frames' decompressed text. Any other compressed file (gzip, bzip2, Zstandard in one frame)
//! cannot be entered in the middle and is one shard, read from its start.
//!
//! **Games.** A shard holds the games that *begin* in its range of the text, and reads on past
//! the range's end to finish the last one. Where a game begins cannot always be told from the
//! text around it (a line may sit in a comment opened far above), so a shard starts at the
//! first *sure* start of a game in its range (the file's own start for the first shard): a line
//! that
//!
//! 1. begins after the first line break at or after the range's start (the lines read are whole
//!    and none is read before the range);
//! 2. opens a tag pair, `[Name "`;
//! 3. follows one or more blank lines, which follow a line that is not blank and starts with
//!    neither `[` nor `%` (movetext, or the text of a comment) — a line also after the range's
//!    first line break.
//!
//! Reading the whole file, a game always begins at such a line (see [`Splitter`]: after movetext
//! a blank line ends the game, and in a comment that spans a blank line a tag pair ends it), and
//! the reading of the file there is in the state of a fresh start. A shard's range ends where
//! the next one's begins, and both find that place by the same rule applied to the same bytes,
//! so the shards' games, one after the other, are the file's games, each once. A file without
//! such lines (games without tags) is read by its first shard only. Between frames the rule is
//! the same on the decompressed text: a game may span frames, and belongs to the shard of the
//! frame it begins in.
//!
//! **Places.** A shard does not know how many lines, games and (for frames) bytes of text come
//! before it; [`shard_extent`] counts them in its range, and their sums over the shards before
//! one give its [`Base`], with which its reports read as the whole file's.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use arbiter_scan::is_space;

use super::compressed::{Compression, ZSTD_WINDOW_LOG_MAX, decompressed};
use super::frames::zstd_frames;
use super::split::{MAX_GAME_BYTES, Piece, Splitter, TagPair, tag_pair};

/// How a shard's range is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Plain text: the range is bytes of the text.
    Text,
    /// Whole Zstandard frames: the range is compressed bytes, the text their decompression.
    ZstdFrames,
    /// The whole file, read from its start (compressed, or in one frame).
    Whole,
}

/// A part of a PGN file to read on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Where its range starts in the file, in bytes.
    pub start: u64,
    /// Where its range ends in the file, in bytes: the next shard's start.
    pub end: u64,
    /// How the range is read.
    pub layout: Layout,
    /// How the file is compressed.
    pub compression: Compression,
}

/// What comes before a shard's range in the file's text: where its reports count from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Base {
    /// Bytes of text (decompressed).
    pub text_start: u64,
    /// The line its range starts on, from 1.
    pub line: u32,
    /// Games.
    pub games: usize,
}

impl Base {
    /// The start of a file.
    pub const START: Base = Base { text_start: 0, line: 1, games: 0 };
}

/// What a shard's range holds: the sums over the shards before one are its [`Base`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extent {
    /// Bytes of text (decompressed).
    pub text_bytes: u64,
    /// Line breaks.
    pub lines: u64,
    /// Games that begin in it (as the shard reads them).
    pub games: usize,
}

impl Extent {
    /// The base of the shard after one whose base is `base` and whose extent is this.
    pub fn after(&self, base: Base) -> Base {
        let lines = u32::try_from(self.lines).unwrap_or(u32::MAX);
        Base {
            text_start: base.text_start + self.text_bytes,
            line: base.line.saturating_add(lines),
            games: base.games + self.games,
        }
    }
}

/// Cuts the file at `path` into shards of about `target` bytes each (see the module
/// documentation), in order; at least one.
pub fn plan_shards(path: &Path, target: u64) -> io::Result<Vec<Shard>> {
    let target = target.max(1);
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut head = [0u8; 4];
    let read = read_full(&mut file, &mut head)?;
    let compression = Compression::detect(&head[..read]);
    let whole = vec![Shard { start: 0, end: len, layout: Layout::Whole, compression }];
    match compression {
        Compression::None => {
            let mut shards = Vec::new();
            let mut start = 0u64;
            loop {
                let end = start.saturating_add(target).min(len);
                shards.push(Shard { start, end, layout: Layout::Text, compression });
                if end >= len {
                    return Ok(shards);
                }
                start = end;
            }
        }
        Compression::Zstd => {
            file.seek(SeekFrom::Start(0))?;
            let frames = match zstd_frames(file) {
                Ok(frames) => frames,
                // Not whole frames (cut off, or garbage after them): read from the start, as
                // one shard, its games are checked up to where decompressing fails, and the
                // error says where.
                Err(error) if error.kind() == io::ErrorKind::InvalidData => return Ok(whole),
                Err(error) => return Err(error),
            };
            if frames.len() < 2 {
                return Ok(whole);
            }
            let mut shards = Vec::new();
            let mut start = 0u64;
            for frame in frames {
                if frame.end - start >= target || frame.end == len {
                    let layout = Layout::ZstdFrames;
                    shards.push(Shard { start, end: frame.end, layout, compression });
                    start = frame.end;
                }
            }
            Ok(shards)
        }
        Compression::Gzip | Compression::Bzip2 => Ok(whole),
    }
}

/// Reads into `buf` up to its length or the end of `reader`; how much was read.
fn read_full<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut len = 0;
    while len < buf.len() {
        match reader.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(len)
}

/// Text being read, decompressed.
type Text = Box<dyn Read + Send>;

/// The text of a shard, from its first game to the end of its last: a reader.
pub struct ShardText {
    /// The range's text (counted), then the text after it up to the next shard's first game.
    reader: Resumed<io::Chain<Counted<Text>, Text>>,
    /// What was skipped before its first game.
    skipped: Skipped,
    /// Games of the file follow the shard's.
    more_after: bool,
}

impl ShardText {
    /// Opens the shard `shard` of the file at `path`.
    pub fn open(path: &Path, shard: &Shard) -> io::Result<ShardText> {
        if shard.layout == Layout::Whole {
            let (_, reader) = decompressed(File::open(path)?)?;
            let range: Box<dyn Read + Send> = reader;
            let rest: Box<dyn Read + Send> = Box::new(io::empty());
            let reader = Resumed::new(Counted::new(range).chain(rest));
            return Ok(ShardText { reader, skipped: Skipped::default(), more_after: false });
        }
        let len = File::open(path)?.metadata()?.len();
        let (rest, more_after): (Box<dyn Read + Send>, bool) = if shard.end < len {
            let (_, skipped) = resync(text_from(path, shard, shard.end, None)?, false)?;
            match skipped.found {
                true => {
                    (Box::new(text_from(path, shard, shard.end, None)?.take(skipped.bytes)), true)
                }
                false => (text_from(path, shard, shard.end, None)?, false),
            }
        } else {
            (Box::new(io::empty()), false)
        };
        let range = text_from(path, shard, shard.start, Some(shard.end - shard.start))?;
        let (reader, skipped) = resync(Counted::new(range).chain(rest), shard.start == 0)?;
        Ok(ShardText { reader, skipped, more_after })
    }

    /// A splitter of the shard's games, numbered and placed as in the whole file when `base` is
    /// what comes before the shard's range.
    pub fn splitter(self, base: Base) -> Splitter<Box<dyn Read + Send>> {
        let lines = u32::try_from(self.skipped.lines).unwrap_or(u32::MAX);
        let line = base.line.saturating_add(lines);
        let start = base.text_start + self.skipped.bytes;
        let more_after = self.more_after;
        let text: Box<dyn Read + Send> = Box::new(self);
        let splitter = Splitter::new(text).with_start(start, line, base.games);
        match more_after {
            true => splitter.with_more_after(),
            false => splitter,
        }
    }
}

impl Read for ShardText {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// Counts what the shard `shard` of the file at `path` holds, reading it through.
pub fn shard_extent(path: &Path, shard: &Shard) -> io::Result<Extent> {
    let mut text = ShardText::open(path, shard)?;
    let mut games = 0;
    // Games over the limit are counted as the check counts them, and not held.
    for piece in Splitter::new(&mut text).with_limit(MAX_GAME_BYTES).with_nul_bytes() {
        if let Piece::Game(_) | Piece::TooLarge { .. } = piece? {
            games += 1;
        }
    }
    // The splitter stops at a NUL byte only when told to; read what is left of the range too.
    io::copy(&mut text, &mut io::sink())?;
    let counted = text.reader.inner.get_ref().0;
    Ok(Extent { text_bytes: counted.bytes, lines: counted.lines, games })
}

/// The text of `path` from byte `at` of its range (compressed bytes for frames), `len` bytes of
/// it or to its end.
fn text_from(
    path: &Path,
    shard: &Shard,
    at: u64,
    len: Option<u64>,
) -> io::Result<Box<dyn Read + Send>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(at))?;
    let file: Box<dyn Read + Send> = match len {
        Some(len) => Box::new(file.take(len)),
        None => Box::new(file),
    };
    Ok(match shard.layout {
        Layout::ZstdFrames => {
            let mut decoder = zstd::stream::read::Decoder::new(file)?;
            decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            Box::new(decoder)
        }
        Layout::Text | Layout::Whole => file,
    })
}

/// A reader that counts the bytes and line breaks read through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
    lines: u64,
}

impl<R> Counted<R> {
    fn new(inner: R) -> Counted<R> {
        Counted { inner, bytes: 0, lines: 0 }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        Ok(n)
    }
}

/// What was read before the first sure start of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Skipped {
    /// Bytes.
    bytes: u64,
    /// Line breaks among them.
    lines: u64,
    /// A start was found (else every byte was skipped).
    found: bool,
}

/// A reader that gives again the bytes read ahead of it, then reads on.
struct Resumed<R> {
    pending: Vec<u8>,
    used: usize,
    inner: R,
}

impl<R> Resumed<R> {
    fn new(inner: R) -> Resumed<R> {
        Resumed { pending: Vec::new(), used: 0, inner }
    }
}

impl<R: Read> Read for Resumed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.used < self.pending.len() {
            let n = buf.len().min(self.pending.len() - self.used);
            buf[..n].copy_from_slice(&self.pending[self.used..self.used + n]);
            self.used += n;
            return Ok(n);
        }
        self.inner.read(buf)
    }
}

/// What the whole lines read so far end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Before {
    /// Nothing that makes the next line a sure start.
    Other,
    /// A line that is not blank and starts with neither `[` nor `%`.
    Movetext,
    /// Such a line, then one or more blank lines.
    MovetextThenBlank,
}

/// Reads `reader` up to the first sure start of a game (see the module documentation), or
/// through, when there is none; `at_start` when it starts the file, which starts a game.
fn resync<R: Read>(mut reader: R, at_start: bool) -> io::Result<(Resumed<R>, Skipped)> {
    let mut skipped = Skipped { found: at_start, ..Skipped::default() };
    if at_start {
        return Ok((Resumed::new(reader), skipped));
    }
    let mut buf: Vec<u8> = Vec::new();
    // Where the line being read starts in `buf`, and how far it was read.
    let (mut line_start, mut pos) = (0, 0);
    let mut whole = false;
    let mut before = Before::Other;
    // The line being read: its first byte, whether it is blank so far, and how far it matched
    // a tag pair while that is undecided.
    let mut first: Option<u8> = None;
    let mut blank = true;
    let mut tag: Option<TagPair> = None;
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        if pos == buf.len() {
            skipped.bytes += line_start as u64;
            buf.drain(..line_start);
            pos -= line_start;
            line_start = 0;
            let n = loop {
                match reader.read(&mut chunk) {
                    Ok(n) => break n,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            };
            if n == 0 {
                skipped.bytes += buf.len() as u64;
                return Ok((Resumed::new(reader), skipped));
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let byte = buf[pos];
        pos += 1;
        if byte == b'\n' {
            skipped.lines += 1;
            if whole {
                before = match (blank, first) {
                    (true, _) if before == Before::Other => Before::Other,
                    (true, _) => Before::MovetextThenBlank,
                    (false, Some(b'[' | b'%')) => Before::Other,
                    (false, _) => Before::Movetext,
                };
            }
            whole = true;
            line_start = pos;
            (first, blank, tag) = (None, true, None);
            continue;
        }
        if !whole {
            continue;
        }
        if first.is_none() {
            first = Some(byte);
            if before == Before::MovetextThenBlank && byte == b'[' {
                tag = Some(TagPair::Name(0));
            }
        }
        blank &= is_space(byte);
        if let Some(state) = &mut tag {
            match tag_pair(state, &[byte]) {
                Some(true) => {
                    skipped.bytes += line_start as u64;
                    skipped.found = true;
                    let mut resumed = Resumed::new(reader);
                    buf.drain(..line_start);
                    resumed.pending = buf;
                    return Ok((resumed, skipped));
                }
                Some(false) => tag = None,
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use proptest::prelude::*;

    use super::*;
    use crate::pgn::{GameReport, Mode, check_games};

    /// Games of every shape the splitter tells apart, and blank lines.
    const PIECES: &[&str] = &[
        "[Event \"a\"]\n[White \"W\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n",
        "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n",
        "1. d4 d5 2. Ke3 *\n\n",
        "1. e4 {a comment\n\nover a blank line} e5 *\n\n",
        "1. e4 {never closed\n\n",
        "1. e4 {clock\n\n[%clk 0:01:00]} e5 *\n\n",
        "[A \"1\"]\n\n[B \"2\"]\n\n1. c4 *\n\n",
        "% an escape line\n1. Nf3 Nf6 *\n",
        "\n",
        "[White \"x\"]\r\n\r\n1. e4 *\r\n\r\n",
        "1. e4 e5 2. Qh5",
    ];

    /// A file of its own in the temporary folder, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(bytes: &[u8]) -> Scratch {
            static COUNT: AtomicUsize = AtomicUsize::new(0);
            let n = COUNT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!("shard-{}-{n}", std::process::id()));
            std::fs::write(&path, bytes).expect("scratch file");
            Scratch(path)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// The reports of the shards of `path`, placed and one after the other.
    fn sharded(path: &Path, target: u64) -> Vec<GameReport> {
        let mut base = Base::START;
        let mut reports = Vec::new();
        for shard in plan_shards(path, target).expect("shards") {
            let text = ShardText::open(path, &shard).expect("shard");
            for piece in text.splitter(base) {
                if let Piece::Game(game) = piece.expect("piece") {
                    reports.push(game.check(Mode::Lenient));
                }
            }
            base = shard_extent(path, &shard).expect("extent").after(base);
        }
        reports
    }

    fn whole(path: &Path) -> Vec<GameReport> {
        let file = File::open(path).expect("file");
        let games = check_games(file, Mode::Lenient, MAX_GAME_BYTES).expect("games");
        games.collect::<io::Result<_>>().expect("reports")
    }

    fn text(pieces: &[usize]) -> Vec<u8> {
        pieces.iter().flat_map(|&i| PIECES[i].bytes()).collect()
    }

    proptest! {
        #[test]
        fn plain_shards_give_the_whole_files_reports(
            pieces in prop::collection::vec(0..PIECES.len(), 0..40),
            target in 1u64..300,
        ) {
            let file = Scratch::new(&text(&pieces));
            prop_assert_eq!(sharded(&file.0, target), whole(&file.0));
        }

        #[test]
        fn frame_shards_give_the_whole_files_reports(
            pieces in prop::collection::vec(0..PIECES.len(), 0..40),
            cuts in prop::collection::vec(0usize..2000, 0..6),
            target in 1u64..300,
            skippable in any::<bool>(),
        ) {
            let text = text(&pieces);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (text.len() + 1)).collect();
            cuts.extend([0, text.len()]);
            cuts.sort_unstable();
            cuts.dedup();
            let mut packed = Vec::new();
            for pair in cuts.windows(2) {
                if skippable {
                    // As `pzstd` writes: a skippable frame before each frame.
                    packed.extend([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 9, 9, 9, 9]);
                }
                packed.extend(zstd::encode_all(&text[pair[0]..pair[1]], 1).expect("zstd"));
            }
            let file = Scratch::new(&packed);
            prop_assert_eq!(sharded(&file.0, target), whole(&file.0));
        }
    }

    fn start(text: &str) -> Option<usize> {
        let (_, skipped) = resync(text.as_bytes(), false).expect("read");
        skipped.found.then_some(skipped.bytes as usize)
    }

    #[test]
    fn zstd_that_is_not_whole_frames_is_one_shard_read_from_its_start() {
        let one = zstd::encode_all(&text(&[0, 1, 2, 0])[..], 3).expect("zstd");
        let two = [&one[..], &one[..]].concat();
        assert_eq!(plan_shards(&Scratch::new(&two).0, 10).expect("shards").len(), 2);
        for broken in [&two[..two.len() - 3], &[&two[..], b"garbage"].concat()[..]] {
            let file = Scratch::new(broken);
            let shards = plan_shards(&file.0, 10).expect("shards");
            assert_eq!(shards.len(), 1);
            assert_eq!((shards[0].layout, shards[0].start), (Layout::Whole, 0));
        }
    }

    #[test]
    fn a_sure_start_is_a_tag_pair_after_movetext_and_blank_lines() {
        let games = "[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\n\n1. d4 *\n";
        // The range's first line is never read: it may be the end of one.
        assert_eq!(start(games), Some(games.find("[B").expect("B")));
        assert_eq!(start(&games[games.find("\n\n[B").expect("B") + 1..]), None);
        // Tags, a blank line and more tags are one game.
        assert_eq!(start("x\n[A \"1\"]\n\n[B \"2\"]\n1. e4 *\n"), None);
        // A comment's text before the blank line counts as movetext; a line starting with `[`
        // does not, even when it is a comment's `[%clk`.
        assert_eq!(start("x\n{a\n\nb}\n\n[C \"3\"]\n"), Some(10));
        assert_eq!(start("x\n{a\n\n[%clk 0:01]}\n\n[C \"3\"]\n"), None);
        assert_eq!(start("x\n1. e4\n \r\n\t\n[Name\t\"x\"]"), Some(13));
    }
}
