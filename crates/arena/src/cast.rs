//! Step (4) of a round: the pieces cast their skills in index order, one function per skill.
//!
//! ```
//! use arbiter_arena::io::parse_game;
//! use arbiter_arena::rules::Rules;
//! use arbiter_arena::sim::play;
//! use arbiter_scan::Scanner;
//!
//! // The statement's third sample game: backward 2 every second round keeps the piece in place.
//! let text = "1 4 1 4\n0 0 0 0\n1 1 1 1 0 3 3 2 2 backward 2\n";
//! let game = parse_game(&mut Scanner::new(text)).unwrap();
//! assert_eq!(play(&game, Rules::official()).unwrap().to_string(), "1 2\n");
//! ```
//!
//! A piece casts when it is alive, its cooldown is 0, it is not silenced and no earlier piece of
//! its team cast gugugugu this round; casting sets its cooldown to z. A piece skipped this way
//! keeps cooldown 0 and casts as soon as it can.
//!
//! | skill | effect | official quirks (switch for the other reading) |
//! | --- | --- | --- |
//! | toolihai | none; firework remembers the last caster | |
//! | faceking | every piece turns 90° counter-clockwise | living pieces only (`face-dead`) |
//! | onepunch | a += v until the start of round H + l | expiry subtracts v from b twice (`punch-b`, in `expire_boosts`) |
//! | rabiribi | pushes the pieces in the sector of size v one cell forward, through obstacles, wrapping at the edges | allies and dead pieces too (`rabi-enemy`, `rabi-alive`), no shadows (`rabi-shadow`, `shadow-any`), sideways ≤ forward (`rabi-narrow`), facing down uses the sector to the right (`rabi-down`) |
//! | firework | the last toolihai caster (else the caster) cannot move for l rounds | even a dead target (`fire-alive`); ends at the start of H + l (`fire-full`); durations add (`effect-max`) |
//! | viuganda | revives the farthest dead ally, else the nearest dead enemy | ties to the highest index |
//! | 2dsaigao | a diagonal wave of o steps, then silence for l rounds within distance v | the turn is (dx, dy) → (dy, −dy) (`wave-cw`); durations add (`effect-max`) |
//! | gugugugu | the rest of the team skips casting this round | |
//! | backward | the caster returns to its state of round H − l (not its cooldown) | the state logged after the round's respawns (`hist-pre`) |
//! | hupraise | prints a maximum red–blue matching, a_r xor a_b ≡ 0 (mod 3) | dead pieces too (`hup-alive`), current a (`hup-orig`) |

use crate::event::{Event, Sink, TurnCause};
use crate::game::limits;
use crate::geometry::{Frame, knock, sector_cells, sector_width, shadows, wave_blast};
use crate::grid::Pos;
use crate::matching::Hupraise;
use crate::outcome::RunError;
use crate::skill::Skill;
use crate::state::{Arena, Countdown};

impl<S: Sink> Arena<'_, S> {
    /// Step (4): every piece, in index order, casts if it can.
    pub(crate) fn cast_all(&mut self, scratch: &mut CastScratch) -> Result<(), RunError> {
        let mut skipped = [false; 2];
        let now = u64::from(self.round);
        for i in 0..self.pieces.len() {
            let piece = &self.pieces[i];
            // Most pieces cannot cast, for reasons that vary from piece to piece: the reasons
            // are tested together (`|`), as one branch.
            let waiting = !piece.alive() | piece.cooldown.running(now) | piece.silence.running(now);
            let idle = self.rules.respawn_idle && piece.revived_round == now;
            if waiting || idle {
                continue;
            }
            if skipped[piece.team.index()] {
                continue;
            }
            self.cast(i, &mut skipped, scratch)?;
        }
        Ok(())
    }

    /// Piece `i` casts its skill; its cooldown restarts.
    ///
    /// Out of line: a piece casts in a few rounds out of a hundred, and the skills' code inlined
    /// into the round loop would take the registers its per-piece passes need.
    #[inline(never)]
    fn cast(
        &mut self,
        i: usize,
        skipped: &mut [bool; 2],
        scratch: &mut CastScratch,
    ) -> Result<(), RunError> {
        let spec = self.spec(i);
        self.pieces[i].cooldown = Countdown::new(u64::from(self.round), u64::from(spec.cooldown));
        let skill = spec.skill;
        self.sink.emit(self.round, || Event::Cast { piece: i + 1, skill: skill.kind() });
        match skill {
            Skill::Toolihai => self.toolihai(i),
            Skill::Faceking => self.faceking(),
            Skill::Onepunch { boost, rounds } => self.onepunch(i, boost, rounds),
            Skill::Rabiribi { size } => self.rabiribi(i, size),
            Skill::Firework { rounds } => self.firework(i, rounds),
            Skill::Viuganda => self.viuganda(i),
            Skill::Dsaigao { distance, radius, rounds } => {
                self.dsaigao(i, distance, radius, rounds)
            }
            Skill::Gugugugu => self.gugugugu(i, skipped),
            Skill::Backward { rounds } => self.backward(i, rounds)?,
            Skill::Hupraise => self.hupraise(i, &mut scratch.hupraise),
        }
        Ok(())
    }

    /// toolihai: no effect, but firework remembers the last piece (of either team) that cast it.
    fn toolihai(&mut self, i: usize) {
        self.last_toolihai = Some(i);
    }

    /// gugugugu: every piece of the caster's team that has not cast yet this round (the higher
    /// indices) skips casting. A skipped piece is not casting, so its cooldown stays at 0 and it
    /// casts as soon as it can, next round at the latest; pieces with lower indices already cast.
    /// The other team is not affected. `skipped` holds, per team, whether this happened.
    fn gugugugu(&mut self, i: usize, skipped: &mut [bool; 2]) {
        let team = self.spec(i).team;
        skipped[team.index()] = true;
        self.sink.emit(self.round, || Event::Skip { team, by: i + 1 });
    }

    /// faceking: every living piece, the caster, frozen and silenced ones included, turns 90°
    /// counter-clockwise. The text says "all pieces"; the official program skips dead ones
    /// (`face-dead` turns them too).
    fn faceking(&mut self) {
        for j in 0..self.pieces.len() {
            if self.pieces[j].alive() || self.rules.face_dead {
                let dir = self.pieces[j].dir.counter_clockwise();
                self.pieces[j].dir = dir;
                self.sink.emit(self.round, || Event::Turn {
                    piece: j + 1,
                    dir,
                    cause: TurnCause::Faceking,
                });
            }
        }
    }

    /// onepunch: a += v now; at the start of round H + l the boost expires
    /// ([`Arena::expire_boosts`], in step (1)). Boosts stack and expire separately.
    fn onepunch(&mut self, i: usize, boost: u32, rounds: u32) {
        let expiry = u64::from(self.round) + u64::from(rounds);
        let piece = &mut self.pieces[i];
        piece.a = piece.a.saturating_add(boost);
        piece.boosts.push_back(expiry);
        let (a, b) = (piece.a, piece.b);
        self.sink.emit(self.round, || Event::Boost { piece: i + 1, a, b });
    }

    /// rabiribi: every piece in the sector of size v in front of the caster is pushed one cell
    /// in the caster's facing; a push onto an obstacle goes on past it, and one off the board
    /// comes back on the opposite edge, until it lands on a free cell.
    ///
    /// Official: the sector holds the cells with 1 ≤ forward ≤ v and |sideways| ≤ forward, and
    /// every piece in it is pushed, allies and dead pieces included (S1 `rabi-enemy`, S2
    /// `rabi-alive` follow the text: enemies only, living only).
    fn rabiribi(&mut self, i: usize, size: u32) {
        let caster = &self.pieces[i];
        let (origin, dir) = (caster.pos, caster.dir);
        let team = self.spec(i).team;
        let frame = Frame::facing(dir, self.rules);
        let ((fr, fc), (sr, sc)) = (frame.forward, frame.side);
        let coordinates = |pos: Pos| {
            let (dr, dc) = (pos.row - origin.row, pos.col - origin.col);
            (dr * fr + dc * fc, dr * sr + dc * sc)
        };
        // A push moves only the pushed piece, so the pieces in the sector can be listed first.
        // Few are, and which ones is data: the list grows without a branch. The frame's axes
        // are the board's, so forward is ± one coordinate's offset and |sideways| the other's.
        let vertical = fr != 0;
        let step = fr + fc;
        debug_assert_eq!((sr.abs(), sc.abs()), if vertical { (0, 1) } else { (1, 0) });
        let mut listed = [0u8; MAX_PIECES];
        let rules = self.rules;
        // One loop per orientation, so that neither tests it per piece.
        let list = |listed: &mut [u8; MAX_PIECES], axes: fn(i32, i32) -> (i32, i32)| {
            let mut count = 0;
            for (j, piece) in self.pieces.iter().enumerate() {
                let (along, across) = axes(piece.pos.row - origin.row, piece.pos.col - origin.col);
                let forward = along * step;
                // 1 ≤ forward ≤ v as one unsigned comparison.
                let inside = (((forward - 1) as u32 as u64) < u64::from(size))
                    & (i64::from(across.abs()) <= sector_width(rules, i64::from(forward)));
                listed[count] = j as u8;
                count += usize::from(inside);
            }
            count
        };
        let count = if vertical {
            list(&mut listed, |dr, dc| (dr, dc))
        } else {
            list(&mut listed, |dr, dc| (dc, dr))
        };
        // The caster is never in its own sector; S1 and S2 leave allies and dead pieces alone.
        let pushed = |j: usize| {
            let (ally, dead) = (self.pieces[j].team == team, !self.pieces[j].alive());
            !(self.rules.rabi_enemy && ally || self.rules.rabi_alive && dead)
        };
        let mut kept = count;
        if self.rules.rabi_enemy || self.rules.rabi_alive {
            kept = 0;
            for k in 0..count {
                let j = listed[k];
                listed[kept] = j;
                kept += usize::from(pushed(usize::from(j)));
            }
        }
        let listed = &listed[..kept];
        let listening = self.sink.listening();
        let shadows = if self.rules.rabi_shadow || self.rules.shadow_any {
            let grid = self.game.grid();
            // How far ahead shadows matter: the whole sector for the trace, else the furthest
            // piece pushed.
            let rows = if listening {
                i64::from(grid.rows().max(grid.cols())).min(i64::from(size))
            } else {
                let furthest = listed.iter().map(|&j| coordinates(self.pieces[usize::from(j)].pos));
                i64::from(furthest.map(|(forward, _)| forward).max().unwrap_or(0))
            };
            shadows(grid, self.rules, origin, frame, size, rows)
        } else {
            None
        };
        if listening {
            let cells =
                sector_cells(self.game.grid(), rules, origin, frame, size, shadows.as_ref());
            self.sink.emit(self.round, || Event::Sector { piece: i + 1, cells });
        }
        for j in listed.iter().map(|&j| usize::from(j)) {
            let from = self.pieces[j].pos;
            let (forward, side) = coordinates(from);
            if shadows.as_ref().is_some_and(|s| s.hidden(i64::from(forward), i64::from(side))) {
                continue;
            }
            let to = knock(self.game.grid(), from, dir);
            self.pieces[j].pos = to;
            self.sink.emit(self.round, || Event::Knockback { piece: j + 1, from, to, by: i + 1 });
        }
    }

    /// Adds an effect of `rounds` to a counter: the official durations add up; S9 `effect-max`
    /// keeps the latest end.
    fn lengthen(&self, counter: Countdown, rounds: u64) -> Countdown {
        let now = u64::from(self.round);
        let left = counter.left(now);
        let left =
            if self.rules.effect_max { left.max(rounds) } else { left.saturating_add(rounds) };
        Countdown::new(now, left)
    }

    /// firework: the last piece that ever cast toolihai cannot move for l rounds; if nobody has,
    /// the caster. Official: the target may be dead (the freeze is then wasted; `fire-alive`
    /// freezes the caster instead), and the freeze ends at the start of round H + l, costing
    /// l − 1 moves (`fire-full`: l moves).
    fn firework(&mut self, i: usize, rounds: u32) {
        let target = match self.last_toolihai {
            Some(t) if !self.rules.fire_alive || self.pieces[t].alive() => t,
            _ => i,
        };
        let rounds = u64::from(rounds) + u64::from(self.rules.fire_full);
        let freeze = self.lengthen(self.pieces[target].freeze, rounds);
        self.pieces[target].freeze = freeze;
        let rounds = freeze.left(u64::from(self.round));
        self.sink.emit(self.round, || Event::Freeze { piece: target + 1, rounds, by: i + 1 });
    }

    /// viuganda: revives the dead piece of its own team farthest from the caster, else the dead
    /// enemy nearest to it (Manhattan distance, ties to the highest index). A revived piece with a
    /// higher index casts later in this round if it can.
    fn viuganda(&mut self, i: usize) {
        let origin = self.pieces[i].pos;
        let team = self.spec(i).team;
        let mut own: Option<(i64, usize)> = None;
        let mut enemy: Option<(i64, usize)> = None;
        for j in 0..self.pieces.len() {
            if self.pieces[j].alive() {
                continue;
            }
            let distance = origin.distance(self.pieces[j].pos);
            if self.spec(j).team == team {
                if own.is_none_or(|(best, _)| distance >= best) {
                    own = Some((distance, j));
                }
            } else if enemy.is_none_or(|(best, _)| distance <= best) {
                enemy = Some((distance, j));
            }
        }
        if let Some((_, j)) = own.or(enemy) {
            self.respawn(j, Some(i), u64::from(self.round));
        }
    }

    /// 2dsaigao: a wave leaves diagonally to the caster's front-right and travels o steps. When
    /// its next cell is blocked it turns and tries `pos + (old + new) / 2`; if that is blocked
    /// too it turns again and stays; either way the attempt costs a step. Then every piece (both
    /// teams, dead ones and the caster included) within Manhattan distance v of the blast cannot
    /// cast until the start of round H + l.
    ///
    /// S6 `wave-cw`: the text turns the wave 90° clockwise; the official program maps (dx, dy)
    /// to (dy, −dy), which is a reversal for up-right and down-left.
    fn dsaigao(&mut self, i: usize, distance: u32, radius: u32, rounds: u32) {
        let (blast, path) = self.wave(i, distance);
        if !path.is_empty() {
            self.sink.emit(self.round, || Event::Wave { piece: i + 1, path, blast });
        }
        for j in 0..self.pieces.len() {
            if self.pieces[j].pos.distance(blast) <= i64::from(radius) {
                let silence = self.lengthen(self.pieces[j].silence, u64::from(rounds));
                self.pieces[j].silence = silence;
                let rounds = silence.left(u64::from(self.round));
                self.sink.emit(self.round, || Event::Silence { piece: j + 1, rounds, by: i + 1 });
            }
        }
    }

    /// The wave's blast cell, and its path when a sink listens (empty otherwise).
    fn wave(&mut self, i: usize, distance: u32) -> (Pos, Vec<Pos>) {
        let piece = &self.pieces[i];
        let mut path = Vec::new();
        let record = self.sink.listening().then_some(&mut path);
        let blast = wave_blast(
            self.game.grid(),
            piece.pos,
            piece.dir,
            distance,
            self.rules.wave_cw,
            record,
        );
        (blast, path)
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
    fn backward(&mut self, i: usize, rounds: u32) -> Result<(), RunError> {
        let target = self.round.checked_sub(rounds).filter(|&h| h >= 1);
        let error = RunError::BackwardBeforeStart { round: self.round, piece: i + 1, rounds };
        let target = target.ok_or(error.clone())?;
        // The last snapshot is this round's.
        let snapshot = self.logged(i, rounds).ok_or(error)?;
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

    /// hupraise: prints the size of a maximum matching between red and blue pieces, a pair
    /// allowed when a_red xor a_blue is a multiple of 3. Official: all pieces, dead ones included
    /// (`hup-alive`: living only), with the current a (`hup-orig`: the starting a).
    fn hupraise(&mut self, i: usize, graph: &mut Option<Hupraise>) {
        let hup = graph.get_or_insert_with(|| Hupraise::new(self.game));
        for j in 0..self.pieces.len() {
            let piece = &self.pieces[j];
            let value = if self.rules.hup_alive && !piece.alive() {
                None
            } else if self.rules.hup_orig {
                Some(self.spec(j).a)
            } else {
                Some(piece.a)
            };
            hup.update(j, value);
        }
        let pairs = hup.maximize();
        self.matchings.push(pairs);
        self.sink.emit(self.round, || Event::Matching { piece: i + 1, pairs });
    }
}

/// What the casts keep from round to round.
#[derive(Debug, Default)]
pub(crate) struct CastScratch {
    /// Hupraise's graph, built at the first cast and kept up to date by the next ones.
    hupraise: Option<Hupraise>,
}

/// The most pieces a game has; a piece's index fits in a byte.
const MAX_PIECES: usize = limits::PIECES as usize;
const _: () = assert!(MAX_PIECES <= 256);
