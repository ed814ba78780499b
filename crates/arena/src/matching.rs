//! Maximum bipartite matching, for hupraise.
//!
//! ```
//! use arbiter_arena::matching::max_matching;
//!
//! // Left 0 can pair with right 0 or 1, left 1 only with right 0: both can be paired.
//! let edges = [[true, true], [true, false]];
//! assert_eq!(max_matching(2, 2, |l, r| edges[l][r]), 2);
//! ```
//!
//! Kuhn's augmenting paths over bitsets: a greedy pass pairs what it can, then each unpaired
//! left vertex looks for an augmenting path, the unvisited right vertices kept as a bitset so a
//! step of the search is a few word operations. With at most 200 pieces this is far below the
//! cost of the rest of a round. The size of a maximum matching does not depend on the method, so
//! it agrees with the official program's own augmenting paths.

const NONE: usize = usize::MAX;

/// The size of a maximum matching between `left` and `right` vertices joined when `edge(l, r)`.
pub fn max_matching(left: usize, right: usize, edge: impl Fn(usize, usize) -> bool) -> usize {
    let mut graph = Bipartite::new(left, right);
    for l in 0..left {
        let row = graph.row_mut(l);
        for r in 0..right {
            if edge(l, r) {
                row[r / 64] |= 1 << (r % 64);
            }
        }
    }
    graph.max_matching()
}

/// A bipartite graph as one bitset of right neighbours per left vertex.
#[derive(Debug, Clone)]
pub struct Bipartite {
    left: usize,
    right: usize,
    words: usize,
    adjacency: Vec<u64>,
}

impl Bipartite {
    /// `left` and `right` vertices, no edges.
    pub fn new(left: usize, right: usize) -> Bipartite {
        let words = right.div_ceil(64);
        Bipartite {
            left,
            right,
            words,
            adjacency: vec![0; left * words],
        }
    }

    /// The neighbours of left vertex `l`: bit `r % 64` of word `r / 64` is the edge to `r`.
    pub fn row_mut(&mut self, l: usize) -> &mut [u64] {
        &mut self.adjacency[l * self.words..(l + 1) * self.words]
    }

    /// The size of a maximum matching.
    pub fn max_matching(self) -> usize {
        let words = self.words;
        let left = self.left;
        let mut free = vec![u64::MAX; words];
        if !self.right.is_multiple_of(64) {
            free[words - 1] = (1 << (self.right % 64)) - 1;
        }
        let mut search = Search {
            adjacency: self.adjacency,
            words,
            partner: vec![NONE; self.right],
            unvisited: vec![0; words],
        };
        let mut size = 0;
        let mut unpaired = Vec::new();
        for l in 0..left {
            let row = &search.adjacency[l * words..(l + 1) * words];
            match (0..words).find(|&w| row[w] & free[w] != 0) {
                Some(w) => {
                    let bit = (row[w] & free[w]).trailing_zeros() as usize;
                    free[w] &= !(1 << bit);
                    search.partner[w * 64 + bit] = l;
                    size += 1;
                }
                None => unpaired.push(l),
            }
        }
        for l in unpaired {
            search.unvisited.fill(u64::MAX);
            if search.augment(l) {
                size += 1;
            }
        }
        size
    }
}

/// The state of the augmenting-path searches.
struct Search {
    /// Row l holds the right neighbours of l, `words` words a row.
    adjacency: Vec<u64>,
    words: usize,
    /// The left partner of each right vertex.
    partner: Vec<usize>,
    /// Right vertices not yet visited in the current search.
    unvisited: Vec<u64>,
}

impl Search {
    /// Looks for an augmenting path from `l`.
    fn augment(&mut self, l: usize) -> bool {
        for w in 0..self.words {
            loop {
                let candidates = self.adjacency[l * self.words + w] & self.unvisited[w];
                if candidates == 0 {
                    break;
                }
                let bit = candidates.trailing_zeros() as usize;
                self.unvisited[w] &= !(1 << bit);
                let r = w * 64 + bit;
                let other = self.partner[r];
                if other == NONE || self.augment(other) {
                    self.partner[r] = l;
                    return true;
                }
            }
        }
        false
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
        (0..left)
            .filter(|&l| go(l, right, &edge, &mut vec![false; right], &mut partner))
            .count()
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
    }
}
