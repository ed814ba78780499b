//! Step (1) of a round, for one piece: a dead piece whose countdown runs out respawns, and its
//! onepunch boosts cast l rounds ago expire. Cooldown, silence and freeze count down by
//! themselves (`Countdown`, in [`crate::state`]). Respawning is also what viuganda does
//! ([`crate::cast`]).

use crate::event::{Event, Sink};
use crate::skill::Skill;
use crate::state::{Arena, Countdown};

impl<S: Sink> Arena<'_, S> {
    /// Step (1) for piece `i`: respawn when the death countdown runs out, then the onepunch
    /// boosts cast at H − l expire ([`Arena::expire_boosts`]). Cooldown, silence and freeze count
    /// down by themselves ([`Countdown`]). Out of line, as a cast is: it runs for a few
    /// pieces a round.
    #[inline(never)]
    pub(crate) fn count_down(&mut self, i: usize) {
        let round = u64::from(self.round);
        if self.pieces[i].respawn_round == round {
            // Before this round's count-down: a cooldown restarted by `cd-reset` counts it.
            self.respawn(i, None, round - 1);
            self.pieces[i].revived_round = round;
        }
        if self.pieces[i].boosts.front() == Some(&round) {
            self.expire_boosts(i);
        }
    }

    /// Brings piece `i` back with its starting attributes, facing and position kept; `by` is the
    /// viuganda caster. The counters it resets start from round `now`.
    pub(crate) fn respawn(&mut self, i: usize, by: Option<usize>, now: u64) {
        let spec = self.spec(i);
        let piece = &mut self.pieces[i];
        piece.respawn_round = 0;
        piece.a = spec.a;
        piece.b = spec.b;
        piece.boosts.clear();
        if self.rules.cd_reset {
            // `cd-reset`: the skill restarts its cooldown of z at respawn, counted from this
            // round's count-down on.
            piece.cooldown = Countdown::new(now, u64::from(spec.cooldown));
        }
        if !self.rules.keep_silence {
            piece.silence = Countdown::new(now, 0);
        }
        if !self.rules.keep_freeze {
            piece.freeze = Countdown::new(now, 0);
        }
        let (pos, a, b) = (piece.pos, piece.a, piece.b);
        let round = u64::from(self.round);
        let (freeze, silence) = (piece.freeze.left(round), piece.silence.left(round));
        self.sink.emit(self.round, || Event::Respawn {
            piece: i + 1,
            pos,
            by: by.map(|b| b + 1),
            a,
            b,
            freeze,
            silence,
        });
    }

    /// The end of onepunch: in step (1) of round H + l, each boost of v cast by piece `i` at
    /// round H is taken back.
    ///
    /// S7 `punch-b`: the statement sets (a, b) to (max(a − v, 0), min(b, max(a − v, 0))); the
    /// official program lowers a first and then caps b by max(a′ − v, 0) with a′ the new a, so
    /// v is taken off twice for b. Official: (a, b) → (a′, min(b, max(a′ − v, 0))),
    /// a′ = max(a − v, 0); `+punch-b` follows the text.
    pub(crate) fn expire_boosts(&mut self, i: usize) {
        let round = u64::from(self.round);
        let Skill::Onepunch { boost, .. } = self.spec(i).skill else {
            return;
        };
        let text = self.rules.punch_b;
        let piece = &mut self.pieces[i];
        let mut expired = false;
        while piece.boosts.front() == Some(&round) {
            piece.boosts.pop_front();
            piece.a = piece.a.saturating_sub(boost);
            let cap = if text { piece.a } else { piece.a.saturating_sub(boost) };
            piece.b = piece.b.min(cap);
            expired = true;
        }
        if expired {
            let (a, b) = (piece.a, piece.b);
            self.sink.emit(self.round, || Event::BoostEnd { piece: i + 1, a, b });
        }
    }
}
