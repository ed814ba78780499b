//! Maximum bipartite matching, and hupraise's red–blue graph kept up to date between casts.
//!
//! ```
//! use arbiter_arena::matching::{Matching, max_matching};
//!
//! // Left 0 can pair with right 0 or 1, left 1 only with right 0: both can be paired.
//! let edges = [[true, true], [true, false]];
//! assert_eq!(max_matching(2, 2, |l, r| edges[l][r]), 2);
//!
//! // The same graph kept up to date: left 1 loses its edge, then gains one to right 1.
//! let mut matching = Matching::new(2, 2);
//! matching.set_row(0, |r| edges[0][r]);
//! matching.set_row(1, |r| edges[1][r]);
//! assert_eq!(matching.maximize(), 2);
//! matching.set_row(1, |_| false);
//! assert_eq!(matching.maximize(), 1);
//! matching.set_edge(1, 1, true);
//! assert_eq!(matching.maximize(), 2);
//! matching.set_column(0, |_| false);
//! assert_eq!(matching.maximize(), 1);
//! ```
//!
//! Kuhn's augmenting paths over bitsets: the unvisited right vertices are a bitset, so a step of
//! the search is a few word operations. Hupraise is cast again and again while only a few
//! attributes change in between, so [`Matching`] keeps its graph and its pairs from one cast to
//! the next: a changed vertex loses the pairs whose edge disappeared, and augmenting paths are
//! searched from every unpaired left vertex. That gives a maximum matching from any starting
//! matching (a vertex with no augmenting path keeps having none after augmentations elsewhere,
//! Berge). The size of a maximum matching does not depend on the method, so it agrees with the
//! official program's own augmenting paths.
//!
//! A search first looks for an unpaired neighbour of the vertex it stands on (one bitset of the
//! unpaired right vertices is kept) before it follows pairs deeper: most searches then end one
//! or two steps from where they start instead of at the end of a long path.

use crate::game::{Game, Team};

const NONE: usize = usize::MAX;

/// The size of a maximum matching between `left` and `right` vertices joined when `edge(l, r)`.
pub fn max_matching(left: usize, right: usize, edge: impl Fn(usize, usize) -> bool) -> usize {
    let mut matching = Matching::new(left, right);
    for l in 0..left {
        matching.set_row(l, |r| edge(l, r));
    }
    matching.maximize()
}

/// A bipartite graph (one bitset of right neighbours per left vertex) with a matching in it.
#[derive(Debug, Clone)]
pub struct Matching {
    right: usize,
    words: usize,
    adjacency: Vec<u64>,
    /// The right partner of each left vertex, or `NONE`.
    left_partner: Vec<usize>,
    /// The left partner of each right vertex, or `NONE`.
    right_partner: Vec<usize>,
    /// The right vertices without a partner, as a bitset.
    unpaired_right: Vec<u64>,
    size: usize,
    /// Right vertices not yet visited in the current search.
    unvisited: Vec<u64>,
    /// Whether an edge may have changed since the last `maximize`: if not, the matching is
    /// still maximum and the searches from the free vertices would fail again.
    changed: bool,
}

impl Matching {
    /// `left` and `right` vertices, no edges.
    pub fn new(left: usize, right: usize) -> Matching {
        let words = right.div_ceil(64);
        let mut unpaired_right = vec![u64::MAX; words];
        if !right.is_multiple_of(64) {
            unpaired_right[words - 1] = (1 << (right % 64)) - 1;
        }
        Matching {
            right,
            words,
            adjacency: vec![0; left * words],
            left_partner: vec![NONE; left],
            right_partner: vec![NONE; right],
            unpaired_right,
            size: 0,
            unvisited: vec![0; words],
            changed: true,
        }
    }

    fn has_edge(&self, l: usize, r: usize) -> bool {
        self.adjacency[l * self.words + r / 64] >> (r % 64) & 1 == 1
    }

    /// Drops the pair of `l`, if any.
    fn unpair(&mut self, l: usize) {
        let r = self.left_partner[l];
        if r != NONE {
            self.left_partner[l] = NONE;
            self.right_partner[r] = NONE;
            self.unpaired_right[r / 64] |= 1 << (r % 64);
            self.size -= 1;
        }
    }

    /// Replaces the edges of left vertex `l` by `edge(r)` for every right vertex `r`.
    pub fn set_row(&mut self, l: usize, edge: impl Fn(usize) -> bool) {
        self.changed = true;
        let start = l * self.words;
        for w in 0..self.words {
            let end = ((w + 1) * 64).min(self.right);
            self.adjacency[start + w] =
                (w * 64..end).fold(0, |bits, r| bits | u64::from(edge(r)) << (r % 64));
        }
        let r = self.left_partner[l];
        if r != NONE && !self.has_edge(l, r) {
            self.unpair(l);
        }
    }

    /// Replaces the edges of right vertex `r` by `edge(l)` for every left vertex `l`.
    pub fn set_column(&mut self, r: usize, edge: impl Fn(usize) -> bool) {
        self.changed = true;
        let (word, shift) = (r / 64, r % 64);
        // Which edges exist is data: each bit is written without a branch, and only the one
        // pair of `r` can lose its edge.
        for l in 0..self.left_partner.len() {
            let cell = &mut self.adjacency[l * self.words + word];
            *cell = *cell & !(1 << shift) | u64::from(edge(l)) << shift;
        }
        let l = self.right_partner[r];
        if l != NONE && !self.has_edge(l, r) {
            self.unpair(l);
        }
    }

    /// Adds or removes the edge (`l`, `r`).
    pub fn set_edge(&mut self, l: usize, r: usize, on: bool) {
        self.changed = true;
        let word = &mut self.adjacency[l * self.words + r / 64];
        if on {
            *word |= 1 << (r % 64);
        } else {
            *word &= !(1 << (r % 64));
            if self.left_partner[l] == r {
                self.unpair(l);
            }
        }
    }

    /// Extends the current pairs to a maximum matching and returns its size.
    pub fn maximize(&mut self) -> usize {
        if !self.changed {
            return self.size;
        }
        self.changed = false;
        // A failed search changes nothing, and the right vertices it visited lead to no free
        // vertex until the matching changes: they stay visited for the next searches.
        self.unvisited.fill(u64::MAX);
        for l in 0..self.left_partner.len() {
            // Every augmenting path ends at a free right vertex; with none left, this is maximum.
            if self.size == self.right {
                break;
            }
            if self.left_partner[l] == NONE && self.augment(l) {
                self.size += 1;
                self.unvisited.fill(u64::MAX);
            }
        }
        self.size
    }

    /// Looks for an augmenting path from `l` and flips it.
    fn augment(&mut self, l: usize) -> bool {
        for w in 0..self.words {
            let free = self.adjacency[l * self.words + w] & self.unpaired_right[w];
            if free != 0 {
                let r = w * 64 + free.trailing_zeros() as usize;
                self.unpaired_right[w] &= !(1 << (r % 64));
                self.right_partner[r] = l;
                self.left_partner[l] = r;
                return true;
            }
        }
        for w in 0..self.words {
            loop {
                let candidates = self.adjacency[l * self.words + w] & self.unvisited[w];
                if candidates == 0 {
                    break;
                }
                let bit = candidates.trailing_zeros() as usize;
                self.unvisited[w] &= !(1 << bit);
                let r = w * 64 + bit;
                // Every neighbour is paired (else the look-ahead above took it).
                let other = self.right_partner[r];
                debug_assert!(other != NONE);
                if self.augment(other) {
                    self.right_partner[r] = l;
                    self.left_partner[l] = r;
                    return true;
                }
            }
        }
        false
    }
}

/// Hupraise's graph, kept between casts: only the pieces whose value changed are redone.
#[derive(Debug, Clone)]
pub(crate) struct Hupraise {
    matching: Matching,
    /// Each piece's team and its index among the pieces of that team.
    side: Vec<(Team, usize)>,
    /// The value of each piece at the last update, by piece: few have changed since, and this
    /// finds them in one pass.
    seen: Vec<u32>,
    /// The same values by team, by index within the team; [`Hupraise::ABSENT`] leaves the
    /// piece out. Kept per team so that redoing a piece's edges reads the other team's values in
    /// one pass.
    values: [Vec<u32>; 2],
}

impl Hupraise {
    /// The value of a piece left out of the matching (a never comes near it: at most 1000 plus
    /// 1000 boosts of 1000).
    const ABSENT: u32 = u32::MAX;

    /// The graph of `game`'s pieces, every piece left out until its first update.
    pub(crate) fn new(game: &Game) -> Hupraise {
        let mut counts = [0usize; 2];
        let side: Vec<(Team, usize)> = game
            .pieces()
            .iter()
            .map(|spec| {
                let count = &mut counts[spec.team.index()];
                *count += 1;
                (spec.team, *count - 1)
            })
            .collect();
        let matching = Matching::new(counts[0], counts[1]);
        let values = counts.map(|count| vec![Self::ABSENT; count]);
        let seen = vec![Self::ABSENT; side.len()];
        Hupraise { matching, side, seen, values }
    }

    fn pairable(x: u32, y: u32) -> bool {
        x != Self::ABSENT && y != Self::ABSENT && (x ^ y).is_multiple_of(3)
    }

    /// Sets piece `j`'s value (`None` leaves it out), redoing its edges if it changed.
    #[inline]
    pub(crate) fn update(&mut self, j: usize, value: Option<u32>) {
        let value = value.unwrap_or(Self::ABSENT);
        if self.seen[j] != value {
            self.seen[j] = value;
            let (team, k) = self.side[j];
            self.change(team, k, value);
        }
    }

    /// Redoes the edges of the `k`-th piece of `team`, whose value becomes `value`.
    fn change(&mut self, team: Team, k: usize, value: u32) {
        self.values[team.index()][k] = value;
        match team {
            Team::Red => {
                let blue = &self.values[1];
                self.matching.set_row(k, |r| Self::pairable(value, blue[r]));
            }
            Team::Blue => {
                let red = &self.values[0];
                self.matching.set_column(k, |l| Self::pairable(red[l], value));
            }
        }
    }

    /// The size of a maximum matching between the pieces' values as last updated.
    pub(crate) fn maximize(&mut self) -> usize {
        self.matching.maximize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook augmenting-path search, vertex by vertex.
    fn plain_kuhn(left: usize, right: usize, edge: impl Fn(usize, usize) -> bool) -> usize {
        fn go(
            l: usize,
            right: usize,
            edge: &dyn Fn(usize, usize) -> bool,
            seen: &mut [bool],
            partner: &mut [Option<usize>],
        ) -> bool {
            for r in 0..right {
                if edge(l, r) && !seen[r] {
                    seen[r] = true;
                    if partner[r].is_none_or(|other| go(other, right, edge, seen, partner)) {
                        partner[r] = Some(l);
                        return true;
                    }
                }
            }
            false
        }
        let mut partner = vec![None; right];
        (0..left).filter(|&l| go(l, right, &edge, &mut vec![false; right], &mut partner)).count()
    }

    /// Tries every subset of edges, small graphs only.
    fn brute_force(left: usize, right: usize, edges: &[Vec<bool>]) -> usize {
        fn go(l: usize, left: usize, used: &mut Vec<bool>, edges: &[Vec<bool>]) -> usize {
            if l == left {
                return 0;
            }
            let mut best = go(l + 1, left, used, edges);
            for r in 0..used.len() {
                if edges[l][r] && !used[r] {
                    used[r] = true;
                    best = best.max(1 + go(l + 1, left, used, edges));
                    used[r] = false;
                }
            }
            best
        }
        go(0, left, &mut vec![false; right], edges)
    }

    proptest! {
        #[test]
        fn agrees_with_brute_force(left in 0usize..7, right in 0usize..7, bits in any::<u64>()) {
            let edges: Vec<Vec<bool>> = (0..left)
                .map(|l| (0..right).map(|r| bits >> (l * 7 + r) & 1 == 1).collect())
                .collect();
            prop_assert_eq!(max_matching(left, right, |l, r| edges[l][r]), brute_force(left, right, &edges));
        }

        #[test]
        fn agrees_with_plain_kuhn_on_larger_graphs(left in 0usize..140, right in 0usize..140, seed in any::<u64>(), density in 1u64..20) {
            let edge = |l: usize, r: usize| {
                let h = (l as u64 * 1_000_003 + r as u64).wrapping_mul(seed | 1).rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                h % 40 < density
            };
            prop_assert_eq!(max_matching(left, right, edge), plain_kuhn(left, right, edge));
        }

        #[test]
        fn updates_keep_a_maximum_matching(
            left in 1usize..80,
            right in 1usize..80,
            seeds in proptest::collection::vec(any::<u64>(), 1..8),
            changes in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<bool>()), 0..40),
        ) {
            let mut edges = vec![vec![false; right]; left];
            let mut matching = Matching::new(left, right);
            for (step, &seed) in seeds.iter().enumerate() {
                // Rewrite one row from the seed, then flip a few single edges.
                let l = seed as usize % left;
                for (r, cell) in edges[l].iter_mut().enumerate() {
                    *cell = (seed.rotate_left(r as u32 % 64) ^ r as u64).is_multiple_of(3);
                }
                let row = edges[l].clone();
                matching.set_row(l, |r| row[r]);
                // And one column.
                let r = (seed >> 32) as usize % right;
                for (l, row) in edges.iter_mut().enumerate() {
                    row[r] = (seed >> (l % 64)) & 1 == 1;
                }
                let column: Vec<bool> = edges.iter().map(|row| row[r]).collect();
                matching.set_column(r, |l| column[l]);
                for &(cl, cr, on) in changes.iter().skip(step * 5).take(5) {
                    let (cl, cr) = (cl % left, cr % right);
                    edges[cl][cr] = on;
                    matching.set_edge(cl, cr, on);
                }
                prop_assert_eq!(matching.maximize(), plain_kuhn(left, right, |l, r| edges[l][r]));
            }
        }
    }
}
