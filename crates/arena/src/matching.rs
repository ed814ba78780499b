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
//! Kuhn's augmenting paths: with at most 200 pieces a side has at most 200 vertices, so the
//! simple O(V·E) method is plenty and easy to trust. The size of a maximum matching does not
//! depend on the method, so it agrees with the official program's own augmenting paths.

/// The size of a maximum matching between `left` and `right` vertices joined when `edge(l, r)`.
pub fn max_matching(left: usize, right: usize, edge: impl Fn(usize, usize) -> bool) -> usize {
    let adjacency: Vec<Vec<usize>> = (0..left)
        .map(|l| (0..right).filter(|&r| edge(l, r)).collect())
        .collect();
    let mut partner: Vec<Option<usize>> = vec![None; right];
    let mut seen = vec![0usize; right];
    let mut size = 0;
    for l in 0..left {
        if augment(l, l + 1, &adjacency, &mut partner, &mut seen) {
            size += 1;
        }
    }
    size
}

/// Looks for an augmenting path from `l`; `stamp` marks the right vertices visited in this search.
fn augment(
    l: usize,
    stamp: usize,
    adjacency: &[Vec<usize>],
    partner: &mut [Option<usize>],
    seen: &mut [usize],
) -> bool {
    for &r in &adjacency[l] {
        if seen[r] == stamp {
            continue;
        }
        seen[r] = stamp;
        let free = match partner[r] {
            None => true,
            Some(other) => augment(other, stamp, adjacency, partner, seen),
        };
        if free {
            partner[r] = Some(l);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    }
}
