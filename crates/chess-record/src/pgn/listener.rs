//! What the check tells of a game's mainline as it reads it, for a reader that wants the moves
//! and not only the verdict.

use shakmaty::Move;

use crate::variant::Start;

/// Follows a game's mainline as [`GameText::check_with`](super::GameText::check_with) reads it.
///
/// Every hook does nothing by default, and `()` is the listener that hears nothing: the plain
/// check pays for no hook.
pub trait Listener {
    /// The game starts from `start`, as its `FEN`, `SetUp` and `Variant` tags set it.
    fn start(&mut self, start: &Start) {
        let _ = start;
    }

    /// A tag pair of the game's tag section, in order: its name, and its value as written
    /// between the quotes (escapes kept: [`tag_value`](super::tag_value) reads them).
    fn tag(&mut self, name: &[u8], value: &[u8]) {
        let _ = (name, value);
    }

    /// The mainline's move `ply` (counted from 1, from the start), written `token` (its move
    /// number left out), was read and played; `played` is `None` for a null move; `canonical`
    /// is its spelling in standard SAN (`--` for a null move).
    fn play(&mut self, ply: u32, token: &str, played: Option<Move>, canonical: &str) {
        let _ = (ply, token, played, canonical);
    }

    /// A comment of the mainline (`{...}`, `; ...` or a `%` line, as written) after its move
    /// `ply` (0 before the first move): where clocks and evaluations are written.
    fn comment(&mut self, ply: u32, text: &[u8]) {
        let _ = (ply, text);
    }

    /// The move `ply` is `played`, but its token is the game's first error: a departure from the
    /// export format in strict mode (a misspelling, a glyph glued to it, a lone `e.p.` after it).
    /// The check ends there; the move may have been told to [`play`](Listener::play) before the
    /// token after it showed it wrong.
    fn refuse(&mut self, ply: u32, played: Move) {
        let _ = (ply, played);
    }
}

/// The listener that hears nothing: the plain check.
impl Listener for () {}
