//! What happens during a game, one event at a time, for `arena trace` and the web viewer.
//!
//! ```
//! use arbiter_arena::event::{Event, Sink};
//!
//! let mut seen = Vec::new();
//! let mut sink = |round: u32, event: Event| seen.push((round, event));
//! sink.emit(1, || Event::Matching { piece: 3, pairs: 2 });
//! assert_eq!(seen, [(1, Event::Matching { piece: 3, pairs: 2 })]);
//! ```
//!
//! The simulation calls [`Sink::emit`] with a closure that builds the event; the judge passes
//! [`NoEvents`], whose `emit` does nothing, so no event is ever built when nobody listens.
//!
//! # JSON schema (one object per line, as `arena trace` writes it)
//!
//! Every object has `"game"` (1-based), `"round"` (0 for the set-up, 1..=R) and `"kind"`, plus
//! the fields below.
//! Pieces are 1-based indices as in the input; a position is `{"row": r, "col": c}`; a facing is
//! `"up"`, `"down"`, `"left"` or `"right"`; a team `"red"` or `"blue"`; a strength `[a, b]`,
//! meaning the binomial C(a, b). A counter (`freeze`, `silence`, `rounds`) is the number of
//! rounds it has left as it stands in the event's round: it is counted down at the start of each
//! later round, and the effect holds while it is above 0. A skill is
//! `{"name": "onepunch", "boost": v, "rounds": l}`, with the parameters of its kind: `boost`
//! and `rounds` (onepunch), `size` (rabiribi), `rounds` (firework, backward), `distance`,
//! `radius` and `rounds` (2dsaigao), none for the others.
//!
//! | kind | fields | meaning |
//! | --- | --- | --- |
//! | `start` | `rows`, `cols`, `rounds` (R), `rules` (the `--rules` value in force, e.g. `"official,+shadow-any"`; absent when the caller did not say), `obstacles` (list of positions), `pieces` (list of `{pos, dir, team, a, b, first_cooldown, cooldown, respawn, skill}`: f, z and r as in the input) | set-up |
//! | `respawn` | `piece`, `pos`, `by` (reviving piece or null), `a`, `b`, `freeze`, `silence` | back to life with its starting a, b |
//! | `move` | `piece`, `from`, `to` | one step forward |
//! | `turn` | `piece`, `dir`, `cause` (`"blocked"` or `"faceking"`) | new facing |
//! | `cast` | `piece`, `skill` (its name) | a skill is cast |
//! | `skip` | `team`, `by` | gugugugu: the rest of the team skips casting |
//! | `boost` | `piece`, `a`, `b` | onepunch started (attributes after) |
//! | `boost_end` | `piece`, `a`, `b` | a boost expired (attributes after) |
//! | `sector` | `piece`, `cells` (positions, nearest first) | the cells of a rabiribi sector: on the board, free, not hidden by an obstacle's shadow |
//! | `knockback` | `piece`, `from`, `to`, `by` | rabiribi push |
//! | `freeze` | `piece`, `rounds`, `by` | firework; `rounds` is the freeze counter after |
//! | `wave` | `piece`, `path` (positions, caster first; at most 4096, repeating cycles of longer waves left out), `blast` | 2dsaigao's wave and where it blew |
//! | `silence` | `piece`, `rounds`, `by` | silence counter after |
//! | `backward` | `piece`, `to_round`, `pos`, `dir`, `a`, `b`, `alive`, `respawn_round` (null when alive), `freeze`, `silence` | state restored |
//! | `matching` | `piece`, `pairs` | hupraise; `pairs` is the printed number |
//! | `fight` | `pos`, `red`, `blue`, `red_strength`, `blue_strength`, `loser` (piece, or null if both die), `winner_after` (the winner's `[a, b]` after the duel, null if both die) | one duel |
//! | `death` | `piece`, `pos`, `respawn_round` | a piece dies |
//! | `end` | `positions` (list, piece order) | the final positions, as the judge prints them |
//!
//! Every change of a piece's position, facing, life, a, b, freeze or silence is an event, so
//! that a viewer can follow the game from the events alone; `tests/trace.rs` rebuilds the state
//! from them and compares it with the simulation's at the end of every round
//! ([`Sink::round_end`]). Only the skills' cooldowns are left to the per-round state.

use serde::{Deserialize, Serialize};

use crate::game::{Game, Team};
use crate::grid::{Dir, Pos};
use crate::rules::Rules;
use crate::skill::{Skill, SkillKind};
use crate::state::Piece;

/// One thing that happened. See the module docs for the JSON form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The game's set-up.
    Start {
        /// N.
        rows: i32,
        /// M.
        cols: i32,
        /// R, the number of rounds.
        rounds: u32,
        /// The rule readings in force, when the caller said ([`Event::start_under`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rules: Option<Rules>,
        /// Obstacles.
        obstacles: Vec<Pos>,
        /// Pieces as they start.
        pieces: Vec<PieceStart>,
    },
    /// A piece comes back to life.
    Respawn {
        /// The piece.
        piece: usize,
        /// Where.
        pos: Pos,
        /// The viuganda caster, or `None` when the countdown ran out.
        by: Option<usize>,
        /// a after (the starting a).
        a: u32,
        /// b after (the starting b).
        b: u32,
        /// Freeze counter after (cleared unless `keep-freeze`).
        freeze: u64,
        /// Silence counter after (cleared unless `keep-silence`).
        silence: u64,
    },
    /// A step forward.
    Move {
        /// The piece.
        piece: usize,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// A change of facing.
    Turn {
        /// The piece.
        piece: usize,
        /// New facing.
        dir: Dir,
        /// Why it turned.
        cause: TurnCause,
    },
    /// A skill is cast.
    Cast {
        /// The caster.
        piece: usize,
        /// The skill.
        skill: SkillKind,
    },
    /// gugugugu: the rest of a team skips casting.
    Skip {
        /// The team.
        team: Team,
        /// The caster.
        by: usize,
    },
    /// onepunch started.
    Boost {
        /// The piece.
        piece: usize,
        /// New a.
        a: u32,
        /// b.
        b: u32,
    },
    /// A boost expired.
    BoostEnd {
        /// The piece.
        piece: usize,
        /// New a.
        a: u32,
        /// New b.
        b: u32,
    },
    /// The cells a rabiribi cast covers (its pushes follow as `Knockback`s).
    Sector {
        /// The caster.
        piece: usize,
        /// The free cells of the sector that no shadow hides, nearest first.
        cells: Vec<Pos>,
    },
    /// A rabiribi push.
    Knockback {
        /// The pushed piece.
        piece: usize,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// The caster.
        by: usize,
    },
    /// A firework freeze.
    Freeze {
        /// The frozen piece.
        piece: usize,
        /// Freeze counter after.
        rounds: u64,
        /// The caster.
        by: usize,
    },
    /// A 2dsaigao wave.
    Wave {
        /// The caster.
        piece: usize,
        /// Cells the wave went through, the caster's first.
        path: Vec<Pos>,
        /// Where it blew.
        blast: Pos,
    },
    /// A piece silenced by a 2dsaigao blast.
    Silence {
        /// The piece.
        piece: usize,
        /// Silence counter after.
        rounds: u64,
        /// The caster.
        by: usize,
    },
    /// backward.
    Backward {
        /// The caster.
        piece: usize,
        /// The round whose state was restored.
        to_round: u32,
        /// Position after.
        pos: Pos,
        /// Facing after.
        dir: Dir,
        /// a after.
        a: u32,
        /// b after.
        b: u32,
        /// Whether the piece is alive after.
        alive: bool,
        /// The round at whose start it respawns, when it is dead after.
        respawn_round: Option<u64>,
        /// Freeze counter after.
        freeze: u64,
        /// Silence counter after.
        silence: u64,
    },
    /// hupraise's printed number.
    Matching {
        /// The caster.
        piece: usize,
        /// Size of the maximum matching.
        pairs: usize,
    },
    /// One duel.
    Fight {
        /// The cell.
        pos: Pos,
        /// Red's fighter.
        red: usize,
        /// Blue's fighter.
        blue: usize,
        /// Red's (a, b).
        red_strength: (u32, u32),
        /// Blue's (a, b).
        blue_strength: (u32, u32),
        /// The loser, `None` when both die.
        loser: Option<usize>,
        /// The winner's (a, b) after the duel, weakened by the loser's a; `None` when both die.
        winner_after: Option<(u32, u32)>,
    },
    /// A death.
    Death {
        /// The piece.
        piece: usize,
        /// Where.
        pos: Pos,
        /// The round it respawns at the start of.
        respawn_round: u64,
    },
    /// The final positions.
    End {
        /// In piece order.
        positions: Vec<Pos>,
    },
}

/// Why a piece turned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnCause {
    /// An obstacle or the edge was ahead: it turned about instead of moving.
    Blocked,
    /// A faceking cast turned it counter-clockwise.
    Faceking,
}

impl Event {
    /// The `start` event of `setup`, without the rules (see [`Event::start_under`]).
    pub fn start(setup: &Game) -> Event {
        Event::Start {
            rows: setup.grid().rows(),
            cols: setup.grid().cols(),
            rounds: setup.rounds(),
            rules: None,
            obstacles: setup.grid().obstacles().collect(),
            pieces: setup
                .pieces()
                .iter()
                .map(|p| PieceStart {
                    pos: p.pos,
                    dir: p.dir,
                    team: p.team,
                    a: p.a,
                    b: p.b,
                    first_cooldown: p.first_cooldown,
                    cooldown: p.cooldown,
                    respawn: p.respawn,
                    skill: p.skill,
                })
                .collect(),
        }
    }

    /// The `start` event of `setup` played under `rules`.
    pub fn start_under(setup: &Game, rules: Rules) -> Event {
        let mut event = Event::start(setup);
        if let Event::Start { rules: slot, .. } = &mut event {
            *slot = Some(rules);
        }
        event
    }
}

/// A piece in the `start` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceStart {
    /// Starting cell.
    pub pos: Pos,
    /// Facing.
    pub dir: Dir,
    /// Team.
    pub team: Team,
    /// a.
    pub a: u32,
    /// b.
    pub b: u32,
    /// f: the round of its first cast.
    pub first_cooldown: u32,
    /// z: rounds between casts.
    pub cooldown: u32,
    /// r: rounds from death to respawn.
    pub respawn: u32,
    /// The skill and its parameters.
    pub skill: Skill,
}

/// A piece as it stands at the end of a round ([`Sink::round_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PieceState {
    /// Its cell.
    pub pos: Pos,
    /// Its facing.
    pub dir: Dir,
    /// Whether it is alive.
    pub alive: bool,
    /// a.
    pub a: u32,
    /// b.
    pub b: u32,
    /// The round at whose start it respawns, while dead.
    pub respawn_round: Option<u64>,
    /// Rounds before its skill is ready (0: ready).
    pub cooldown: u64,
    /// Rounds it stays frozen (0: free to move).
    pub freeze: u64,
    /// Rounds it stays silenced (0: free to cast).
    pub silence: u64,
}

/// The pieces at the end of a round (round 0: as they start), as a sink sees them
/// ([`Sink::round_end`]).
#[derive(Debug, Clone, Copy)]
pub struct RoundState<'a> {
    round: u32,
    pieces: &'a [Piece],
}

impl<'a> RoundState<'a> {
    /// The state of `pieces` at the end of round `round`.
    pub(crate) fn new(round: u32, pieces: &'a [Piece]) -> RoundState<'a> {
        RoundState { round, pieces }
    }

    /// The round that just ended, 0 for the set-up.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The number of pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether there are no pieces (never, in a valid game).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Piece `i` (0-based), with its counters as they stand in this round.
    pub fn piece(&self, i: usize) -> PieceState {
        let piece = &self.pieces[i];
        let now = u64::from(self.round);
        PieceState {
            pos: piece.pos,
            dir: piece.dir,
            alive: piece.alive(),
            a: piece.a,
            b: piece.b,
            respawn_round: (!piece.alive()).then_some(piece.respawn_round),
            cooldown: piece.cooldown.left(now),
            freeze: piece.freeze.left(now),
            silence: piece.silence.left(now),
        }
    }

    /// Every piece, in input order.
    pub fn pieces(&self) -> impl ExactSizeIterator<Item = PieceState> + '_ {
        (0..self.pieces.len()).map(|i| self.piece(i))
    }
}

/// Where the simulation reports events.
pub trait Sink {
    /// Reports the event `event()` of round `round`; a sink that does not listen never calls it.
    fn emit(&mut self, round: u32, event: impl FnOnce() -> Event);

    /// Whether events are wanted at all, for details that cost something to collect.
    fn listening(&self) -> bool {
        true
    }

    /// Sees the state of every piece before the first round (round 0) and at the end of each
    /// round, after the fights; ignored unless a sink asks for it.
    #[inline(always)]
    fn round_end(&mut self, _state: &RoundState<'_>) {}
}

/// The sink of the judge: events are not even built.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoEvents;

impl Sink for NoEvents {
    #[inline(always)]
    fn emit(&mut self, _round: u32, _event: impl FnOnce() -> Event) {}

    fn listening(&self) -> bool {
        false
    }
}

impl<F: FnMut(u32, Event)> Sink for F {
    fn emit(&mut self, round: u32, event: impl FnOnce() -> Event) {
        self(round, event());
    }
}
