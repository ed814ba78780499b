//! The static evaluation of a Duck Chess position: a weighted sum of terms written for this game.
//!
//! Each term counts something on the board for one side: its pieces (material), where they stand
//! (piece-square tables, seen from the owner's side and folded left to right), how many points
//! each can move to (mobility), how exposed its captain is (enemy pieces that reach the captain's
//! neighbourhood, own pieces that guard it, the captain's safe flight squares) and which of its
//! pieces are attacked (by which role) or hang. The duck's and the horse's leaps count only when
//! their blocking points are empty: every reach comes from [`movement::targets`], the rules' one
//! table. The value is red's sum minus blue's, seen from the side to move, plus a bonus for having
//! the move.
//!
//! The weights are [`weights::WEIGHTS`], tuned on self-play games (see that module and the
//! `texel` example); [`terms`] lists the counts behind a value, which is what the tuner fits.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::eval;
//!
//! // The start is symmetric: only the bonus for the move remains.
//! let start = Position::new();
//! assert_eq!(eval::evaluate(&start), eval::weights::WEIGHTS[eval::TEMPO]);
//! // Red without its car on a1 stands worse, whoever is to move.
//! let red_down: Position = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/1HEGCGEHR w".parse().unwrap();
//! let blue_up: Position = "rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/1HEGCGEHR b".parse().unwrap();
//! assert!(eval::evaluate(&red_down) < 0 && eval::evaluate(&blue_up) > 0);
//! ```

pub mod weights;

use std::sync::Arc;

use arbiter_duck::{Bitboard, Color, Position, Role, Square, movement};

use crate::nnue::Model;
use crate::value::Value;

/// Which static evaluation the search uses: this module's, or a network's. The default is the
/// network built into the engine ([`crate::nnue::embedded`]).
#[derive(Debug, Clone)]
pub enum Evaluation {
    /// The weighted sum of terms written for this game ([`evaluate`]).
    Classical,
    /// A network's, which the search updates move by move ([`crate::nnue`]).
    Network(Arc<Model>),
}

impl Default for Evaluation {
    /// The built-in network (the classical evaluation only if a broken build had none).
    fn default() -> Evaluation {
        crate::nnue::embedded_model().map_or(Evaluation::Classical, Evaluation::Network)
    }
}

impl Evaluation {
    /// The value of `position` for the side to move, computed from scratch.
    pub fn evaluate(&self, position: &Position) -> Value {
        match self {
            Evaluation::Classical => evaluate(position),
            Evaluation::Network(model) => model.network().evaluate_scratch(position),
        }
    }
}

/// Material: one weight per role, indexed by [`Role::index`] (the captain's is unused: both
/// sides always have one).
pub const MATERIAL: usize = 0;
/// Piece-square tables: per role, row counted from the owner's side (10) and column folded to
/// the distance from the nearer edge (5).
pub const PST: usize = MATERIAL + 7;
/// Mobility: per role, per point the piece can move to.
pub const MOBILITY: usize = PST + 7 * PST_SQUARES;
/// Per enemy piece, by role, that reaches the captain's square or one of its neighbours.
pub const ZONE_ATTACKER: usize = MOBILITY + 7;
/// By the number of enemy pieces reaching the captain's neighbourhood (0..=7, 7 for more).
pub const ZONE_ATTACKERS: usize = ZONE_ATTACKER + 7;
/// Per own piece, by role, that reaches the captain's square or one of its neighbours.
pub const ZONE_DEFENDER: usize = ZONE_ATTACKERS + 8;
/// By the number of the captain's moves to points no enemy piece reaches (0..=4).
pub const ESCAPES: usize = ZONE_DEFENDER + 7;
/// Per piece attacked by an enemy piece and defended by none, by role; the first seven for the
/// side to move, the next seven for the other side.
pub const HANGING: usize = ESCAPES + 5;
/// Per piece attacked by an enemy role, by attacker role and victim role (`7 * attacker +
/// victim`).
pub const THREAT: usize = HANGING + 14;
/// Per enemy move, by the role that would make it, to a point from which that role attacks the
/// captain (a check the enemy can give next move).
pub const CHECK_THREAT: usize = THREAT + 49;
/// For having the move.
pub const TEMPO: usize = CHECK_THREAT + 7;
/// The number of weights.
pub const COUNT: usize = TEMPO + 1;

/// The squares a piece-square table distinguishes.
pub const PST_SQUARES: usize = 10 * 5;

/// The names of the groups of weights, with their first index and length: for the tuner's output
/// and for reading the tuned values.
pub const GROUPS: [(&str, usize, usize); 11] = [
    ("material", MATERIAL, 7),
    ("piece-square", PST, 7 * PST_SQUARES),
    ("mobility", MOBILITY, 7),
    ("zone attacker", ZONE_ATTACKER, 7),
    ("zone attackers", ZONE_ATTACKERS, 8),
    ("zone defender", ZONE_DEFENDER, 7),
    ("escapes", ESCAPES, 5),
    ("hanging", HANGING, 14),
    ("threat", THREAT, 49),
    ("check threat", CHECK_THREAT, 7),
    ("tempo", TEMPO, 1),
];

/// Where the counts of a position go: a sum of weights for the search, a list for the tuner.
pub trait Terms {
    /// Adds `count` times the weight `index` for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Sums the weights, red positive.
struct Sum<'a> {
    weights: &'a [i32; COUNT],
    red: i32,
}

impl Terms for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let term = self.weights[index] * count;
        match color {
            Color::Red => self.red += term,
            Color::Blue => self.red -= term,
        }
    }
}

/// The value of `position` for the side to move, with the tuned weights.
#[inline]
pub fn evaluate(position: &Position) -> Value {
    evaluate_with(position, &weights::WEIGHTS)
}

/// The value of `position` for the side to move, with `weights`.
pub fn evaluate_with(position: &Position, weights: &[i32; COUNT]) -> Value {
    let mut sum = Sum { weights, red: 0 };
    terms(position, &mut sum);
    match position.turn() {
        Color::Red => sum.red,
        Color::Blue => -sum.red,
    }
}

/// The piece-square index of `role` on `sq` for `color`.
#[inline]
pub fn pst_index(color: Color, role: Role, sq: Square) -> usize {
    let row = match color {
        Color::Red => sq.row(),
        Color::Blue => sq.flip_vertical().row(),
    };
    let col = sq.col().min(sq.flip_horizontal().col());
    PST + role.index() * PST_SQUARES + usize::from(row) * 5 + usize::from(col)
}

/// Counts every term of `position` into `out`. Nothing is counted once the game is over.
pub fn terms(position: &Position, out: &mut impl Terms) {
    let board = position.board();
    if position.is_over() {
        return;
    }
    let occupied = board.occupied();
    // The captain's square and its neighbours, per side.
    let zones = Color::ALL.map(|color| {
        board.captain(color).map_or(Bitboard::EMPTY, |captain| {
            movement::targets(Role::Captain, captain, Bitboard::EMPTY).with(captain)
        })
    });
    let mut by_role = [[Bitboard::EMPTY; 7]; 2];
    let mut all = [Bitboard::EMPTY; 2];
    let mut zone_attackers = [0usize; 2];
    for color in Color::ALL {
        let own = board.by_color(color);
        let (own_zone, enemy_zone) = (zones[color.index()], zones[(!color).index()]);
        Role::each(|role| {
            for sq in own & board.by_role(role) {
                let targets = movement::targets(role, sq, occupied);
                out.add(color, MATERIAL + role.index(), 1);
                out.add(color, pst_index(color, role, sq), 1);
                out.add(color, MOBILITY + role.index(), (targets & !own).count() as i32);
                by_role[color.index()][role.index()] |= targets;
                if targets.intersects(enemy_zone) {
                    out.add(!color, ZONE_ATTACKER + role.index(), 1);
                    zone_attackers[(!color).index()] += 1;
                }
                if role != Role::Captain && targets.intersects(own_zone) {
                    out.add(color, ZONE_DEFENDER + role.index(), 1);
                }
            }
            all[color.index()] |= by_role[color.index()][role.index()];
        });
    }

    let turn = position.turn();
    for color in Color::ALL {
        let (us, them) = (color.index(), (!color).index());
        if let Some(captain) = board.captain(color) {
            out.add(color, ZONE_ATTACKERS + zone_attackers[us].min(7), 1);
            let flights = movement::targets(Role::Captain, captain, occupied)
                & !board.by_color(color)
                & !all[them];
            out.add(color, ESCAPES + flights.count().min(4) as usize, 1);
            // The points from which a piece of a role attacks the captain are the points that
            // role reaches from the captain's square: exactly so for the symmetric moves (a
            // car's line, an elephant's eye, steps), nearly so for the horse and the duck, whose
            // blocking points lie next to where they start.
            let landing = !board.by_color(!color);
            Role::each(|role| {
                let checks = movement::targets(role, captain, occupied)
                    & by_role[them][role.index()]
                    & landing;
                if !checks.is_empty() {
                    out.add(color, CHECK_THREAT + role.index(), checks.count() as i32);
                }
            });
        }
        let attacked = board.by_color(color) & all[them];
        if attacked.is_empty() {
            continue;
        }
        let side = if color == turn { 0 } else { 7 };
        for victim in Role::ALL {
            if victim == Role::Captain {
                continue;
            }
            let victims = attacked & board.by_role(victim);
            if victims.is_empty() {
                continue;
            }
            let hanging = (victims & !all[us]).count();
            if hanging != 0 {
                out.add(color, HANGING + side + victim.index(), hanging as i32);
            }
            for attacker in Role::ALL {
                let hit = (victims & by_role[them][attacker.index()]).count();
                if hit != 0 {
                    out.add(color, THREAT + 7 * attacker.index() + victim.index(), hit as i32);
                }
            }
        }
    }
    out.add(turn, TEMPO, 1);
}

/// The counts of a position as the tuner reads them: red's count minus blue's for each weight
/// that is not zero.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// (weight index, red's count minus blue's), by index, without zeros.
    pub counts: Vec<(u16, i16)>,
}

impl Trace {
    /// The counts of `position`.
    pub fn of(position: &Position) -> Trace {
        let mut dense = Dense([0; COUNT]);
        terms(position, &mut dense);
        let counts = dense
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count != 0)
            .map(|(index, &count)| (index as u16, count.clamp(-32_768, 32_767) as i16))
            .collect();
        Trace { counts }
    }

    /// Red's value with `weights` (as floating point, for the tuner's fractional weights).
    pub fn red_value(&self, weights: &[f64]) -> f64 {
        self.counts
            .iter()
            .map(|&(index, count)| weights[usize::from(index)] * f64::from(count))
            .sum()
    }
}

struct Dense([i32; COUNT]);

impl Terms for Dense {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        match color {
            Color::Red => self.0[index] += count,
            Color::Blue => self.0[index] -= count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position with the colours swapped and the board turned upside down.
    fn mirrored(position: &Position) -> Position {
        let fen = position.fen().to_string();
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap();
        let turn = fields.next().unwrap();
        let swapped: String = board
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/");
        let turn = if turn == "w" { "b" } else { "w" };
        format!("{swapped} {turn}").parse().unwrap()
    }

    #[test]
    fn the_value_does_not_depend_on_colour() {
        let mut position = Position::new();
        let mut rng = 12345u64;
        for _ in 0..60 {
            assert_eq!(evaluate(&position), evaluate(&mirrored(&position)), "{position}");
            let trace = Trace::of(&position);
            let weights: Vec<f64> = weights::WEIGHTS.iter().map(|&w| f64::from(w)).collect();
            let red = trace.red_value(&weights) as i32;
            let expected = if position.turn() == Color::Red { red } else { -red };
            assert_eq!(evaluate(&position), expected);
            let moves = position.moves();
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let _ = position.make(moves[(rng >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn groups_cover_every_weight_once() {
        let mut next = 0;
        for (_, start, len) in GROUPS {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, COUNT);
    }
}
