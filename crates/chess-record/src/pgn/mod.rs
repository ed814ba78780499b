//! Real PGN files: games cut apart as the stream is read, each read token by token and checked
//! move by move in standard SAN, in any of the variants a `Variant` tag names.
//!
//! A stream is cut into games first ([`Splitter`]), holding one game at a time; each game is then
//! read and checked on its own ([`GameText::check`]), so games can be checked in parallel, memory
//! stays bounded by the largest game, and broken syntax in one game leaves the next one readable.
//! Only the mainline's moves are checked; variations are read for their syntax only.
//! A game with no finding, as nearly every game of a real file, is checked in one quick pass
//! over its bytes; the first thing that pass does not expect gives the game to the full reading,
//! token by token with their places, which writes the findings' messages.
//! The same reading gives the mainline itself ([`GameText::mainline`]): the start position and
//! each move played up to the first wrong one, for a reader that shows the game; a
//! [`Listener`] hears the check's steps, and the plain check listens to nothing.
//!
//! ```
//! use arbiter_chess_record::pgn::{Mode, PgnGames};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 (1... c5) 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let games: Vec<_> = PgnGames::new(pgn).collect();
//! assert_eq!(games[0].at.line, 1);
//! let report = games[0].check(Mode::Strict);
//! assert!(report.ok);
//! assert_eq!((report.white.as_str(), report.plies), ("A", 7));
//! ```
//!
//! **Strict mode** reads PGN's export format: each move token must be exactly the canonical SAN
//! of a legal move (`O-O`, not `0-0`; `bxa8=Q`, not `bxa8=q` or `bxa8Q`; `#` on a mate or a
//! variant's win; no glyph glued to the move, as `e4!?`), a move number must be the number of the
//! move it stands before (`12.` before white's twelfth move, `12...` before black's), and the
//! movetext must end with a game termination marker (`1-0`, `0-1`, `1/2-1/2` or `*`). Move
//! numbers may be missing or glued to their move (`12.e4`), as PGN's import format allows.
//!
//! **Lenient mode** reads what real files hold: any token that denotes exactly one legal move
//! (`0-0`, `Pe4`, `e2-e4`, UCI's `g1f3` and `e7e8q`, `bxa8Q`, `Qh4++`, `exd6e.p.`, or `exd6`
//! followed by a lone `e.p.`, `e4!?`), a null move (`--`, `Z0`: the side to move passes), any
//! move numbers, and a game without a termination marker, each with a warning that names the
//! canonical spelling. A token that denotes no legal move, or several, is an error in both
//! modes.

mod batches;
mod check;
mod commands;
mod compressed;
mod frames;
mod lex;
mod listener;
mod mainline;
mod outcome;
mod quick;
mod report;
mod shard;
mod split;
mod tags;

use std::io::{self, Read};

pub use arbiter_scan::Place;
pub use batches::{BatchError, for_each_batch};
pub use commands::{Eval, comment_clock, comment_eval};
pub use compressed::{Compression, decompressed};
pub use frames::zstd_frames;
pub(crate) use lex::{Kind, Lexer, Token};
pub use lex::{MAX_DEPTH, SyntaxError};
pub use listener::Listener;
pub use mainline::{Mainline, PlayedMove, WrongMove};
pub use report::{GameReport, Located, Mode, Problem};
pub use shard::{Base, Extent, Layout, Shard, ShardText, plan_shards, shard_extent};
pub use split::{GameText, MAX_GAME_BYTES, NulByte, PgnGames, Piece, Splitter};
pub(crate) use tags::Tags;
pub use tags::tag_value;

/// Reads and checks every game of a PGN stream, compressed or not, one after the other; a game
/// larger than `limit` bytes is reported as such and skipped.
///
/// ```
/// use arbiter_chess_record::pgn::{check_games, Mode, MAX_GAME_BYTES};
///
/// let pgn = &b"1. e4 e5 *\n\n1. d4 d5 2. Ke3 *\n"[..];
/// let reports: Vec<_> = check_games(pgn, Mode::Strict, MAX_GAME_BYTES)?.collect::<Result<_, _>>()?;
/// assert_eq!(reports.iter().map(|r| r.ok).collect::<Vec<_>>(), [true, false]);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn check_games<'a, R: Read + Send + 'a>(
    reader: R,
    mode: Mode,
    limit: usize,
) -> io::Result<impl Iterator<Item = io::Result<GameReport>> + 'a> {
    let (_, reader) = decompressed(reader)?;
    Ok(Splitter::new(reader).with_limit(limit).filter_map(move |piece| match piece {
        Ok(Piece::Game(game)) => Some(Ok(game.check(mode))),
        Ok(Piece::TooLarge { index, at, offset, limit }) => {
            Some(Ok(GameReport::too_large(index, at, offset, limit)))
        }
        Ok(Piece::Raw(_)) => None,
        Err(error) => Some(Err(error)),
    }))
}
