//! Delta debugging: making a failing input smaller while it keeps failing.
//!
//! ```
//! use arbiter_contest::shrink::{ddmin, Oracle};
//!
//! // Fails whenever both 3 and 7 are present.
//! let mut oracle = |candidates: &[Vec<u32>]| {
//!     candidates.iter().position(|c| c.contains(&3) && c.contains(&7))
//! };
//! let smallest = ddmin((0..20).collect(), |items| items.to_vec(), &mut oracle);
//! assert_eq!(smallest, [3, 7]);
//! ```
//!
//! [`ddmin`] is Zeller and Hildebrandt's algorithm ("Simplifying and Isolating Failure-Inducing
//! Input", 2002): it tries subsets and complements at growing granularity, and ends only after
//! removing each single item was tried and the failure went away, so its result is 1-minimal.
//! [`shortest_prefix`] finds a failing prefix whose one-shorter prefix passes. [`lower`] walks a
//! number down. All of them hand the oracle a batch of candidates at a time, in the order a
//! sequential search would try them, and take the first that fails: the oracle may run the batch
//! in parallel, and the result is the same as one by one.

/// Says which candidates fail.
pub trait Oracle<C> {
    /// The index of the first of `candidates`, in order, that fails; `None` if none does. An
    /// oracle may test them all at once, but the answer must be the first failing one.
    fn first_failing(&mut self, candidates: &[C]) -> Option<usize>;
}

impl<C, F: FnMut(&[C]) -> Option<usize>> Oracle<C> for F {
    fn first_failing(&mut self, candidates: &[C]) -> Option<usize> {
        self(candidates)
    }
}

/// The smallest failing sublist of `items` found by ddmin; `build` turns a sublist into the
/// case the oracle tests. `items` itself is taken to fail. The result is 1-minimal: removing
/// any one of its items gives a case that passes.
pub fn ddmin<T: Clone, C>(
    items: Vec<T>,
    build: impl Fn(&[T]) -> C,
    oracle: &mut dyn Oracle<C>,
) -> Vec<T> {
    let mut current = items;
    if current.is_empty() {
        return current;
    }
    if oracle.first_failing(&[build(&[])]).is_some() {
        return Vec::new();
    }
    let mut n = 2usize;
    while current.len() >= 2 {
        n = n.min(current.len());
        let chunks = split(current.len(), n);
        // Subsets first, then complements; with two chunks each complement is the other subset.
        let mut candidates: Vec<Vec<T>> =
            chunks.iter().map(|range| current[range.clone()].to_vec()).collect();
        if n > 2 {
            candidates.extend(chunks.iter().map(|range| {
                current[..range.start].iter().chain(&current[range.end..]).cloned().collect()
            }));
        }
        let built: Vec<C> = candidates.iter().map(|c| build(c)).collect();
        match oracle.first_failing(&built) {
            Some(i) if i < n => {
                current = candidates.swap_remove(i);
                n = 2;
            }
            Some(i) => {
                current = candidates.swap_remove(i);
                n = (n - 1).max(2);
            }
            None if n < current.len() => n = (2 * n).min(current.len()),
            None => break,
        }
    }
    current
}

/// `len` split into `n` nearly equal consecutive ranges (`1 <= n <= len`).
fn split(len: usize, n: usize) -> Vec<std::ops::Range<usize>> {
    (0..n).map(|i| (i * len / n)..((i + 1) * len / n)).collect()
}

/// The shortest failing prefix length of a sequence of `len` items (taken to fail whole) that a
/// search by bisection finds: the prefix of that length fails and the one an item shorter passes.
/// `build(k)` is the case of the first `k` items. The search splits the range at three points at
/// a time, a batch the oracle may run in parallel; always three, so that the result never
/// depends on how many run at once.
pub fn shortest_prefix<C>(
    len: usize,
    build: impl Fn(usize) -> C,
    oracle: &mut dyn Oracle<C>,
) -> usize {
    let width = 3;
    // Invariant: the prefix of `fail` items fails; that of `pass` items passes (or pass + 1 == fail
    // once `pass` has been tested).
    let (mut pass, mut fail) = (0usize, len);
    if len == 0 || oracle.first_failing(&[build(0)]).is_some() {
        return 0;
    }
    while fail - pass > 1 {
        let span = fail - pass;
        let points: Vec<usize> = (1..=width.min(span - 1))
            .map(|i| pass + i * span / (width.min(span - 1) + 1))
            .filter(|&p| p > pass && p < fail)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let built: Vec<C> = points.iter().map(|&p| build(p)).collect();
        match oracle.first_failing(&built) {
            Some(i) => {
                fail = points[i];
                if i > 0 {
                    pass = points[i - 1];
                }
            }
            None => pass = *points.last().unwrap_or(&pass),
        }
    }
    fail
}

/// Lowers a failing value towards `min`: tries `min`, then values halfway down, then one less,
/// keeping the first that still fails, until none does. `build(v)` is the case with value `v`.
pub fn lower<C>(value: u64, min: u64, build: impl Fn(u64) -> C, oracle: &mut dyn Oracle<C>) -> u64 {
    let mut value = value;
    while value > min {
        let mut tries = vec![min];
        let mut step = (value - min) / 2;
        while step > 0 {
            tries.push(value - step);
            step /= 2;
        }
        tries.push(value - 1);
        tries.dedup();
        let built: Vec<C> = tries.iter().map(|&v| build(v)).collect();
        match oracle.first_failing(&built) {
            Some(i) => value = tries[i],
            None => break,
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_list() {
        for len in 1..40 {
            for n in 1..=len {
                let chunks = split(len, n);
                assert_eq!(chunks.len(), n);
                assert!(chunks.iter().all(|r| !r.is_empty()));
                assert_eq!(chunks.iter().map(|r| r.len()).sum::<usize>(), len);
            }
        }
    }

    #[test]
    fn an_always_failing_input_shrinks_to_nothing() {
        let mut oracle = |c: &[Vec<u8>]| if c.is_empty() { None } else { Some(0) };
        assert!(ddmin(vec![1, 2, 3], |i| i.to_vec(), &mut oracle).is_empty());
        assert_eq!(shortest_prefix(10, |k| vec![0u8; k], &mut oracle), 0);
    }

    #[test]
    fn the_shortest_prefix_is_found() {
        for len in 1..=40 {
            for target in 1..=len {
                let mut oracle = |c: &[usize]| c.iter().position(|&k| k >= target);
                assert_eq!(shortest_prefix(len, |k| k, &mut oracle), target);
            }
        }
    }

    #[test]
    fn values_go_down_to_the_smallest_failing_one() {
        for target in 0..=100u64 {
            let mut oracle = |c: &[u64]| c.iter().position(|&v| v >= target);
            assert_eq!(lower(100, 0, |v| v, &mut oracle), target);
        }
        let mut never = |_: &[u64]| None;
        assert_eq!(lower(50, 3, |v| v, &mut never), 50);
    }
}
