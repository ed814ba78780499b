//! Step (3) of a round, for one piece: a living, unfrozen piece steps forward, or turns about
//! when the edge or an obstacle is in the way.

use std::hint::select_unpredictable;

use crate::event::{Event, Sink, TurnCause};
use crate::state::Arena;

impl<S: Sink> Arena<'_, S> {
    /// Step (3) for piece `i`: one step forward, or a turn-about when the edge or an obstacle is
    /// in the way (the turn takes the whole step).
    pub(crate) fn step(&mut self, i: usize) {
        let now = u64::from(self.round);
        let piece = &self.pieces[i];
        let idle = self.rules.respawn_idle && piece.revived_round == now;
        if !piece.alive() || piece.freeze.running(now) || idle {
            return;
        }
        let (from, dir) = (piece.pos, piece.dir);
        let to = from.step(dir);
        let blocked = self.game.grid().is_blocked(to);
        // Which pieces are blocked is data that no branch predictor learns: both fields are
        // chosen without a branch.
        let piece = &mut self.pieces[i];
        piece.pos = select_unpredictable(blocked, from, to);
        piece.dir = select_unpredictable(blocked, dir.reversed(), dir);
        if blocked {
            let dir = piece.dir;
            self.sink.emit(self.round, || Event::Turn {
                piece: i + 1,
                dir,
                cause: TurnCause::Blocked,
            });
        } else {
            self.sink.emit(self.round, || Event::Move { piece: i + 1, from, to });
        }
    }
}
