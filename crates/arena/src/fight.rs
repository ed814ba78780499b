//! Step (5) of a round: fights in every cell that holds living pieces of both teams.
//!
//! ```
//! use arbiter_arena::io::parse_game;
//! use arbiter_arena::rules::Rules;
//! use arbiter_arena::sim::play;
//! use arbiter_scan::Scanner;
//!
//! // C(4, 2) = 6 beats C(5, 1) = 5 and is weakened to (max(4 − 5, 0), max(2 − 5, 0)) = (0, 0).
//! let text = "1 2 2 1\n0 0\n1 1 4 2 0 2 9 9 9 toolihai\n1 1 5 1 1 2 9 9 9 toolihai\n";
//! let game = parse_game(&mut Scanner::new(text)).unwrap();
//! assert_eq!(play(&game, Rules::official()).unwrap().to_string(), "1 1\n1 1\n");
//! ```
//!
//! Each side fields its strongest living piece (strength C(a, b), compared exactly); the weaker
//! dies, and the winner's (a, b) become (max(a − a′, 0), max(b − a′, 0)) with a′ the loser's a;
//! equal strengths kill both. This repeats until a side has nobody left. A piece dying at round H
//! respawns at the start of round H + r.
//!
//! Official (S8 `fight-best`): each side is sorted once, and the winner stays champion, weakened,
//! until it dies. Ties follow [`TieOrder`].

use std::cmp::Ordering;

use crate::event::{Event, Sink};
use crate::float_ties;
use crate::game::Team;
use crate::gcc_sort;
use crate::grid::Grid;
use crate::rules::TieOrder;
use crate::state::Arena;
use crate::strength::{self, Strength};

impl<S: Sink> Arena<'_, S> {
    fn strength(&self, i: usize) -> Strength {
        Strength::new(self.pieces[i].a, self.pieces[i].b)
    }

    /// Fills `contenders` with the living pieces standing in a cell with a living enemy, in
    /// index order; `cell_teams` is all 0 before and after.
    fn contenders(&self, cell_teams: &mut [u8], contenders: &mut Vec<usize>) {
        contenders.clear();
        let cell = self.game.grid().cell_index();
        // Each cell collects the teams of its living pieces (bit 0 red, bit 1 blue); a dead
        // piece adds nothing, without a branch.
        let mut any = false;
        for piece in &self.pieces {
            let teams = &mut cell_teams[cell.of(piece.pos)];
            *teams |= u8::from(piece.alive()) << piece.team.index();
            any |= *teams == 3;
        }
        if any {
            let teams = &*cell_teams;
            let fighting =
                |x: &usize| self.pieces[*x].alive() && teams[cell.of(self.pieces[*x].pos)] == 3;
            contenders.extend((0..self.pieces.len()).filter(fighting));
        }
        // Every mark was made at a piece's cell: clearing those leaves the table clean for the
        // next round, and keeps it a byte per cell, small enough to stay in the first-level
        // cache with the board and the pieces.
        for piece in &self.pieces {
            cell_teams[cell.of(piece.pos)] = 0;
        }
    }

    /// Fills `keyed` with each piece of `side` and the rank of its strength within the side
    /// ([`strength::ranks`]), in the order given.
    fn keyed(&self, side: &[usize], keyed: &mut Vec<(u32, usize)>) {
        keyed.clear();
        if self.rules.float_ties {
            // The official comparison is not an order to rank by: sides are sorted with it.
            keyed.extend(side.iter().map(|&x| (0, x)));
            return;
        }
        if let [x] = side {
            keyed.push((0, *x));
            return;
        }
        let strengths: Vec<Strength> = side.iter().map(|&x| self.strength(x)).collect();
        keyed.extend(strength::ranks(&strengths).into_iter().zip(side.iter().copied()));
    }

    /// Where each piece stands in the official program's listing of all pieces by cell
    /// (libstdc++'s `std::sort`), which decides where equally strong pieces start.
    fn listing_by_cell(&self) -> Vec<u32> {
        let cell: Vec<(i32, i32)> = self.pieces.iter().map(|p| (p.pos.row, p.pos.col)).collect();
        let mut all: Vec<u32> = (0..self.pieces.len() as u32).collect();
        gcc_sort::sort_by(&mut all, |&x, &y| cell[x as usize] < cell[y as usize]);
        let mut place = vec![0u32; all.len()];
        for (k, &x) in all.iter().enumerate() {
            place[x as usize] = k as u32;
        }
        place
    }

    /// Step (5): runs every fight of this round, cells in (row, column) order.
    pub(crate) fn fights(&mut self, scratch: &mut FightScratch) {
        let FightScratch { cell_teams, order, sides, keyed: [red, blue] } = scratch;
        self.contenders(cell_teams, order);
        if order.is_empty() {
            return;
        }
        order.sort_by_key(|&x| self.pieces[x].pos);
        let mut listing: Option<Vec<u32>> = None;
        let mut start = 0;
        while start < order.len() {
            let pos = self.pieces[order[start]].pos;
            let end =
                start + order[start..].iter().take_while(|&&x| self.pieces[x].pos == pos).count();
            sides.iter_mut().for_each(Vec::clear);
            for &x in &order[start..end] {
                if self.pieces[x].alive() {
                    sides[self.spec(x).team.index()].push(x);
                }
            }
            if !sides[0].is_empty() && !sides[1].is_empty() {
                self.keyed(&sides[0], red);
                self.keyed(&sides[1], blue);
                // Without equally strong pieces in a side, any sort ends in the one order by
                // strength; with them, the official order of the cell's pieces decides.
                let tied = |side: &[(u32, usize)]| {
                    side.iter().map(|&(rank, _)| rank as usize + 1).max() < Some(side.len())
                };
                let listed = self.rules.tie == TieOrder::Gcc
                    && (self.rules.float_ties || tied(red) || tied(blue));
                if listed {
                    let place = listing.get_or_insert_with(|| self.listing_by_cell());
                    red.sort_by_key(|&(_, x)| place[x]);
                    blue.sort_by_key(|&(_, x)| place[x]);
                }
                self.fight_cell(red, blue);
            }
            start = end;
        }
    }

    /// Sorts one side by rank so that its fighter is last.
    fn rank(&self, side: &mut [(u32, usize)]) {
        if self.rules.float_ties {
            self.rank_official(side);
            return;
        }
        match self.rules.tie {
            TieOrder::Gcc => gcc_sort::sort_by(side, |x, y| x.0 < y.0),
            TieOrder::HighestIndex => side.sort_unstable(),
            TieOrder::LowestIndex => {
                side.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(y.1.cmp(&x.1)))
            }
        }
    }

    /// Sorts one side with the official program's comparison of strengths (`float-ties`).
    ///
    /// Near-ties make that comparison intransitive, which `std::sort` does not allow: its scans
    /// may then run off the array, where the official program's result is undefined. Where they
    /// do, the side is sorted by a stable insertion sort from the order it was given instead.
    /// The tie orders `tie-high` and `tie-low` start from index order (reversed for `tie-low`)
    /// and keep it among equals.
    fn rank_official(&self, side: &mut [(u32, usize)]) {
        let less = |x: &(u32, usize), y: &(u32, usize)| {
            float_ties::official_cmp(self.strength(x.1), self.strength(y.1)) == Ordering::Less
        };
        match self.rules.tie {
            TieOrder::Gcc => {
                let given = side.to_vec();
                if gcc_sort::try_sort_by(side, less).is_ok() {
                    return;
                }
                side.copy_from_slice(&given);
            }
            TieOrder::HighestIndex => side.sort_unstable_by_key(|&(_, x)| x),
            TieOrder::LowestIndex => side.sort_unstable_by_key(|&(_, x)| std::cmp::Reverse(x)),
        }
        for k in 1..side.len() {
            let mut j = k;
            while j > 0 && less(&side[j], &side[j - 1]) {
                side.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    /// Ranks the remaining pieces of a side again, after a duel weakened one of them.
    fn rerank(&self, side: &mut Vec<(u32, usize)>) {
        let pieces: Vec<usize> = side.iter().map(|&(_, x)| x).collect();
        self.keyed(&pieces, side);
        self.rank(side);
    }

    /// The duels of one cell; each side is given in the order its sort starts from.
    fn fight_cell(&mut self, red: &mut Vec<(u32, usize)>, blue: &mut Vec<(u32, usize)>) {
        self.rank(red);
        self.rank(blue);
        while let (Some(&(_, r)), Some(&(_, b))) = (red.last(), blue.last()) {
            let (sr, sb) = (self.strength(r), self.strength(b));
            let verdict =
                if self.rules.float_ties { float_ties::official_cmp(sr, sb) } else { sr.cmp(&sb) };
            let loser = match verdict {
                Ordering::Less => Some(r),
                Ordering::Greater => Some(b),
                Ordering::Equal => None,
            };
            let pos = self.pieces[r].pos;
            let winner_after = match loser {
                Some(x) => {
                    let winner = if x == r { b } else { r };
                    let damage = self.pieces[x].a;
                    let piece = &mut self.pieces[winner];
                    piece.a = piece.a.saturating_sub(damage);
                    piece.b = piece.b.saturating_sub(damage);
                    Some((piece.a, piece.b))
                }
                None => None,
            };
            self.sink.emit(self.round, || Event::Fight {
                pos,
                red: r + 1,
                blue: b + 1,
                red_strength: (sr.a(), sr.b()),
                blue_strength: (sb.a(), sb.b()),
                loser: loser.map(|x| x + 1),
                winner_after,
            });
            match loser {
                Some(x) => {
                    self.die(x);
                    if self.spec(x).team == Team::Red {
                        red.pop();
                    } else {
                        blue.pop();
                    }
                }
                None => {
                    self.die(r);
                    self.die(b);
                    red.pop();
                    blue.pop();
                }
            }
            if self.rules.fight_best {
                self.rerank(red);
                self.rerank(blue);
            }
        }
    }

    fn die(&mut self, x: usize) {
        let respawn = self.spec(x).respawn;
        let respawn_round = u64::from(self.round) + u64::from(respawn);
        self.pieces[x].respawn_round = respawn_round;
        let pos = self.pieces[x].pos;
        self.sink.emit(self.round, || Event::Death { piece: x + 1, pos, respawn_round });
    }
}

/// The table and the lists the fights fill anew in every round, kept from round to round to
/// save allocating them.
#[derive(Debug)]
pub(crate) struct FightScratch {
    /// Per cell (indexed by [`Grid::cell`](crate::grid::Grid::cell)), the teams of the living
    /// pieces standing there (bit 0 red, bit 1 blue); all 0 between rounds.
    cell_teams: Vec<u8>,
    /// The contenders, by cell.
    order: Vec<usize>,
    /// The living pieces of each team in the cell being fought over.
    sides: [Vec<usize>; 2],
    /// The same with their ranks, red and blue.
    keyed: [Vec<(u32, usize)>; 2],
}

impl FightScratch {
    /// Empty lists and a clean table for the cells of `grid`.
    pub(crate) fn new(grid: &Grid) -> FightScratch {
        FightScratch {
            cell_teams: vec![0; grid.cells()],
            order: Vec::new(),
            sides: Default::default(),
            keyed: Default::default(),
        }
    }
}
