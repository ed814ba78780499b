//! The round loop: a game's state and the order of the steps within a round.
//!
//! ```
//! use arbiter_arena::io::parse_game;
//! use arbiter_arena::rules::Rules;
//! use arbiter_arena::sim::play;
//! use arbiter_scan::Scanner;
//!
//! // The statement's second sample game.
//! let text = "1 5 4 4\n0 0 0 0 0\n1 1 2 2 0 3 1 1 100 onepunch 1 2\n1 2 1 1 1 0 1 1 100 toolihai\n\
//!             1 3 1 1 1 0 1 1 100 toolihai\n1 4 2 1 1 0 1 1 100 toolihai\n";
//! let game = parse_game(&mut Scanner::new(text)).unwrap();
//! let outcome = play(&game, Rules::official()).unwrap();
//! assert_eq!(outcome.to_string(), "1 4\n1 2\n1 3\n1 4\n");
//! ```
//!
//! Within round H (SPEC §5.1): (1) per piece, a dead piece whose countdown reaches 0 respawns,
//! then cooldown, silence and freeze count down and boosts cast at H − l expire; (2) the state is
//! logged for backward; (3) every living, unfrozen piece moves or turns about; (4) skills in
//! index order ([`crate::cast`]); (5) fights, cell by cell ([`crate::fight`]).
//!
//! The counters of step (1) are kept as the rounds at which they run out (`Countdown`, and
//! `Piece::respawn_round` for death), so that step (1) has nothing to do for a piece unless
//! it respawns or a boost of its expires in this round.

use std::collections::VecDeque;
use std::fmt;
use std::hint::select_unpredictable;

use crate::event::{Event, NoEvents, PieceState, Sink, TurnCause};
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
    pos: Pos,
    dir: Dir,
    a: u32,
    b: u32,
    dead: u64,
    freeze: u64,
    silence: u64,
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

/// A guarantee broken while playing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// A backward of l at round H with H − l ≤ 0 ("数据保证不会回到游戏开始之前").
    #[error("round {round}: piece {piece} casts backward {rounds}, before the first round")]
    BackwardBeforeStart {
        /// H.
        round: u32,
        /// 1-based piece index.
        piece: usize,
        /// l.
        rounds: u32,
    },
}

/// What a game prints: hupraise's numbers as they were cast, then the final positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// One number per hupraise cast, in order.
    pub matchings: Vec<usize>,
    /// Final position of each piece.
    pub positions: Vec<Pos>,
}

impl fmt::Display for Outcome {
    /// The official output: one line per number, then `row col` per piece.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pairs in &self.matchings {
            writeln!(f, "{pairs}")?;
        }
        for pos in &self.positions {
            writeln!(f, "{} {}", pos.row, pos.col)?;
        }
        Ok(())
    }
}

/// The pieces at the end of a round (round 0: as they start), as a sink sees them
/// ([`Sink::round_end`]).
#[derive(Debug, Clone, Copy)]
pub struct RoundState<'a> {
    round: u32,
    pieces: &'a [Piece],
}

impl RoundState<'_> {
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

/// A game being played.
pub(crate) struct Arena<'g, S> {
    pub(crate) game: &'g Game,
    pub(crate) rules: Rules,
    pub(crate) pieces: Vec<Piece>,
    pub(crate) round: u32,
    /// The last piece that cast toolihai, for firework.
    pub(crate) last_toolihai: Option<usize>,
    /// For each piece with backward, its last snapshots.
    history: Vec<History>,
    pub(crate) matchings: Vec<usize>,
    pub(crate) sink: S,
    /// Scratch for the fights: per cell (indexed by [`Grid::cell`](crate::grid::Grid::cell)), the teams standing
    /// there (bit 0 red, bit 1 blue); all 0 between rounds.
    pub(crate) cell_teams: Vec<u8>,
    /// The fights' lists ([`crate::fight::FightLists`]).
    pub(crate) fight_lists: crate::fight::FightLists,
    /// Hupraise's graph, built at the first cast.
    pub(crate) hupraise: Option<crate::matching::Hupraise>,
}

/// Plays `game` under `rules`.
pub fn play(game: &Game, rules: Rules) -> Result<Outcome, RunError> {
    play_with(game, rules, NoEvents)
}

/// Plays `game` under `rules`, reporting every event to `sink`.
pub fn play_with<S: Sink>(game: &Game, rules: Rules, sink: S) -> Result<Outcome, RunError> {
    let mut arena = Arena::new(game, rules, sink);
    arena.sink.round_end(&RoundState { round: 0, pieces: &arena.pieces });
    for round in 1..=game.rounds() {
        arena.play_round(round)?;
    }
    let positions: Vec<Pos> = arena.pieces.iter().map(|p| p.pos).collect();
    let end = positions.clone();
    arena.sink.emit(game.rounds(), || Event::End { positions: end });
    Ok(Outcome { matchings: arena.matchings, positions })
}

impl<'g, S: Sink> Arena<'g, S> {
    fn new(game: &'g Game, rules: Rules, sink: S) -> Self {
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
            cell_teams: vec![0; game.grid().cells()],
            fight_lists: Default::default(),
            hupraise: None,
        }
    }

    pub(crate) fn spec(&self, i: usize) -> &'g PieceSpec {
        &self.game.pieces()[i]
    }

    fn play_round(&mut self, round: u32) -> Result<(), RunError> {
        self.round = round;
        // Steps (1) to (3) touch nothing but the piece itself (and the fixed board), so they run
        // piece by piece in one pass.
        let now = u64::from(round);
        for i in 0..self.pieces.len() {
            if self.rules.hist_pre {
                self.log(i, now - 1);
            }
            let piece = &self.pieces[i];
            if piece.respawn_round == now || piece.boosts.front() == Some(&now) {
                self.count_down(i);
            }
            if !self.rules.hist_pre {
                self.log(i, now);
            }
            self.step(i);
        }
        self.cast_all()?;
        self.fights();
        self.sink.round_end(&RoundState { round, pieces: &self.pieces });
        Ok(())
    }

    /// Step (1) for piece `i`: respawn when the death countdown runs out, then the onepunch
    /// boosts cast at H − l expire ([`Arena::expire_boosts`]). Cooldown, silence and freeze count
    /// down by themselves ([`Countdown`]). Out of line, as [`Arena::cast`] is: it runs for a few
    /// pieces a round.
    #[inline(never)]
    fn count_down(&mut self, i: usize) {
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

    /// Step (2): a snapshot of piece `i` with its counters as they stand in round `now`, kept
    /// only for pieces that can cast backward.
    fn log(&mut self, i: usize, now: u64) {
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

    /// backward of l cast at round H: piece `i` takes back the state logged for it in round H − l.
    ///
    /// Restored: position, facing, a, b, the death countdown (alive or not, and when it
    /// respawns), the freeze and the silence counters, as they were after step (1) of round
    /// H − l, i.e. after that round's respawns, count-downs and boost expiries (`hist-pre` logs
    /// them before step (1) instead). Not restored: the cooldown (the statement: "技能刷新时间并不
    /// 会回到第 H−l 回合的时间"; it was just set to z by this cast), and the onepunch boost queue,
    /// which the official program does not log either (boosts in force would expire on schedule
    /// and subtract from the restored a; as a piece has one skill, a backward caster never has
    /// boosts, so this cannot show).
    ///
    /// An l with H − l ≤ 0 breaks the statement's guarantee ("数据保证不会回到游戏开始之前") and is
    /// [`RunError::BackwardBeforeStart`].
    pub(crate) fn go_back(&mut self, i: usize, rounds: u32) -> Result<(), RunError> {
        let target = self.round.checked_sub(rounds).filter(|&h| h >= 1);
        let error = RunError::BackwardBeforeStart { round: self.round, piece: i + 1, rounds };
        let target = target.ok_or(error.clone())?;
        // The last snapshot is this round's.
        let snapshot = self.history[i].back(rounds as usize).ok_or(error)?;
        let now = u64::from(self.round);
        let piece = &mut self.pieces[i];
        piece.pos = snapshot.pos;
        piece.dir = snapshot.dir;
        piece.a = snapshot.a;
        piece.b = snapshot.b;
        piece.respawn_round = if snapshot.dead == 0 { 0 } else { now + snapshot.dead };
        piece.freeze = Countdown::new(now, snapshot.freeze);
        piece.silence = Countdown::new(now, snapshot.silence);
        let s = snapshot;
        let respawn_round = (!piece.alive()).then_some(piece.respawn_round);
        self.sink.emit(self.round, || Event::Backward {
            piece: i + 1,
            to_round: target,
            pos: s.pos,
            dir: s.dir,
            a: s.a,
            b: s.b,
            alive: respawn_round.is_none(),
            respawn_round,
            freeze: s.freeze,
            silence: s.silence,
        });
        Ok(())
    }

    /// Step (3) for piece `i`: one step forward, or a turn-about when the edge or an obstacle is
    /// in the way (the turn takes the whole step).
    fn step(&mut self, i: usize) {
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
