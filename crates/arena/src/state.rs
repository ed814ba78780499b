//! A game's state: the pieces with their counters, the round, the backward history and what
//! the skills remember, apart from the steps that change it ([`crate::sim`] orders them).
//!
//! The counters of step (1) are kept as the rounds at which they run out (`Countdown`, and
//! `Piece::respawn_round` for death), so that step (1) has nothing to do for a piece unless
//! it respawns or a boost of its expires in this round.

use std::collections::VecDeque;

use crate::game::{Game, PieceSpec, Team};
use crate::grid::{Dir, Pos};
use crate::rules::Rules;
use crate::skill::Skill;

/// A count of rounds that step (1) of every round lowers by one until it is 0 (cooldown,
/// silence, freeze), kept as the round whose step (1) brings it to 0: after step (1) of round H,
/// `end − H` rounds are left, so counting down costs nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Countdown {
    end: u64,
}

impl Countdown {
    /// A count of `left` rounds in round `now` (`now` − 1 during step (1) of round `now`, before
    /// the count-down).
    pub(crate) fn new(now: u64, left: u64) -> Countdown {
        Countdown { end: now.saturating_add(left) }
    }

    /// The rounds left in round `now`.
    pub(crate) fn left(self, now: u64) -> u64 {
        self.end.saturating_sub(now)
    }

    /// Whether rounds are left in round `now`.
    pub(crate) fn running(self, now: u64) -> bool {
        self.end > now
    }
}

/// A piece during the game.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    pub(crate) pos: Pos,
    pub(crate) dir: Dir,
    pub(crate) a: u32,
    pub(crate) b: u32,
    /// The round at whose start it respawns (the statement's death countdown reaches 0); 0
    /// while alive.
    pub(crate) respawn_round: u64,
    /// Unable to move while running.
    pub(crate) freeze: Countdown,
    /// Unable to cast while running.
    pub(crate) silence: Countdown,
    /// The skill is ready when it has run out.
    pub(crate) cooldown: Countdown,
    /// Expiry rounds of the onepunch boosts in force, oldest first.
    pub(crate) boosts: VecDeque<u64>,
    /// The round at whose start its countdown last respawned it (for `respawn-idle`).
    pub(crate) revived_round: u64,
    /// Whether its skill is backward, so that its states are logged.
    keeps_history: bool,
    /// Its team (a copy of the spec's, next to the state the per-round loops read).
    pub(crate) team: Team,
}

impl Piece {
    pub(crate) fn alive(&self) -> bool {
        self.respawn_round == 0
    }
}

/// What backward restores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Snapshot {
    pub(crate) pos: Pos,
    pub(crate) dir: Dir,
    pub(crate) a: u32,
    pub(crate) b: u32,
    /// Rounds until it respawns; 0 while alive.
    pub(crate) dead: u64,
    pub(crate) freeze: u64,
    pub(crate) silence: u64,
}

/// The snapshots of a backward caster's last l + 1 rounds, the oldest overwritten: backward
/// reaches back exactly l rounds, and a log of every round would fill a megabyte per game.
#[derive(Debug, Clone)]
struct History {
    snapshots: Vec<Snapshot>,
    /// How many rounds are kept: l + 1.
    kept: usize,
    /// Where the next round's snapshot goes.
    next: usize,
}

impl History {
    fn new(kept: usize) -> History {
        History { snapshots: Vec::with_capacity(kept), kept, next: 0 }
    }

    /// Logs the snapshot of the next round.
    fn push(&mut self, snapshot: Snapshot) {
        if self.snapshots.len() < self.kept {
            self.snapshots.push(snapshot);
        } else {
            self.snapshots[self.next] = snapshot;
        }
        self.next = if self.next + 1 == self.kept { 0 } else { self.next + 1 };
    }

    /// The snapshot logged `rounds` rounds before the last one, if it is kept.
    fn back(&self, rounds: usize) -> Option<Snapshot> {
        (rounds < self.snapshots.len())
            .then(|| self.snapshots[(self.next + self.kept - 1 - rounds) % self.kept])
    }
}

/// A game being played: the pieces, the round, what the skills remember and what has been
/// printed. The steps of a round ([`crate::sim`]) change it; their scratch data lives with them.
pub(crate) struct Arena<'g, S> {
    pub(crate) game: &'g Game,
    pub(crate) rules: Rules,
    pub(crate) pieces: Vec<Piece>,
    pub(crate) round: u32,
    /// The last piece that cast toolihai, for firework.
    pub(crate) last_toolihai: Option<usize>,
    /// For each piece with backward, its last snapshots.
    history: Vec<History>,
    /// Hupraise's numbers so far, for the [`Outcome`](crate::outcome::Outcome).
    pub(crate) matchings: Vec<usize>,
    /// Where the steps report what happens.
    pub(crate) sink: S,
}

impl<'g, S> Arena<'g, S> {
    /// `game` at its start, before the first round.
    pub(crate) fn new(game: &'g Game, rules: Rules, sink: S) -> Self {
        let pieces = game
            .pieces()
            .iter()
            .map(|spec| Piece {
                pos: spec.pos,
                dir: spec.dir,
                a: spec.a,
                b: spec.b,
                respawn_round: 0,
                freeze: Countdown::new(0, 0),
                silence: Countdown::new(0, 0),
                // f before the first round's count-down.
                cooldown: Countdown::new(0, u64::from(spec.first_cooldown)),
                boosts: VecDeque::new(),
                revived_round: 0,
                keeps_history: matches!(spec.skill, Skill::Backward { .. }),
                team: spec.team,
            })
            .collect();
        Arena {
            game,
            rules,
            pieces,
            round: 0,
            last_toolihai: None,
            history: game
                .pieces()
                .iter()
                .map(|spec| match spec.skill {
                    // An l ≥ R always breaks the guarantee (H − l ≤ 0): keeping R + 1 rounds
                    // then is plenty.
                    Skill::Backward { rounds } => {
                        History::new(rounds.min(game.rounds()) as usize + 1)
                    }
                    _ => History::new(0),
                })
                .collect(),
            matchings: Vec::new(),
            sink,
        }
    }

    /// Piece `i` as the input gives it.
    pub(crate) fn spec(&self, i: usize) -> &'g PieceSpec {
        &self.game.pieces()[i]
    }

    /// Step (2): a snapshot of piece `i` with its counters as they stand in round `now`, kept
    /// only for pieces that can cast backward.
    pub(crate) fn log(&mut self, i: usize, now: u64) {
        let piece = &self.pieces[i];
        if piece.keeps_history {
            self.history[i].push(Snapshot {
                pos: piece.pos,
                dir: piece.dir,
                a: piece.a,
                b: piece.b,
                dead: if piece.alive() { 0 } else { piece.respawn_round - now },
                freeze: piece.freeze.left(now),
                silence: piece.silence.left(now),
            });
        }
    }

    /// The snapshot of piece `i` logged `rounds` rounds before the last one, if it is kept.
    pub(crate) fn logged(&self, i: usize, rounds: u32) -> Option<Snapshot> {
        self.history[i].back(rounds as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_keeps_the_last_rounds() {
        let snapshot = |a| Snapshot {
            pos: Pos::new(1, 1),
            dir: Dir::Up,
            a,
            b: 0,
            dead: 0,
            freeze: 0,
            silence: 0,
        };
        let mut history = History::new(3);
        for round in 1..=8 {
            history.push(snapshot(round));
            for back in 0..5 {
                let expected = (back < 3 && back < round).then(|| round - back);
                assert_eq!(history.back(back as usize).map(|s| s.a), expected, "{round} {back}");
            }
        }
        assert!(History::new(0).back(0).is_none());
    }
}
