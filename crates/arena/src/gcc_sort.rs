//! GCC libstdc++'s `std::sort`, step for step, so that elements the comparator calls equal end in
//! the same order as in the official program.
//!
//! ```
//! use arbiter_arena::gcc_sort::sort_by;
//!
//! // 17 elements with two keys: the two smallest come out swapped, as libstdc++ leaves them.
//! let mut ids: Vec<u32> = (0..17).collect();
//! let key = |i: &u32| if *i < 2 { 0 } else { 1 };
//! sort_by(&mut ids, |x, y| key(x) < key(y));
//! assert_eq!(ids[..2], [1, 0]);
//! ```
//!
//! The official reference solution sorts pieces by cell, then each side of a fight by strength,
//! with `std::sort`, which is not stable once there are more than 16 elements. Which of several
//! equally strong pieces fights first therefore depends on this exact algorithm
//! (docs/rules.md#equal-strength): an
//! introsort with the median of (first + 1, middle, last − 1) moved to the front as pivot, an
//! unguarded Hoare partition, a depth limit of 2·⌊log2 n⌋ after which the range is heap-sorted,
//! and a final insertion sort whose first 16 elements are guarded and the rest unguarded.
//!
//! The comparator must be a strict weak ordering, as `std::sort` requires; the unguarded loops
//! rely on it. With another comparator (the official program's comparison of strengths within a
//! tolerance, `float-ties`), a scan may run off the array, where the C++ reads memory that is not
//! its range: [`try_sort_by`] stops there with [`OffTheRange`] instead.

/// Ranges at most this long are left to the final insertion sort (`_S_threshold`).
const THRESHOLD: usize = 16;

/// Sorts `v` in place exactly as libstdc++'s `std::sort(first, last, less)` does; `less` must be
/// a strict weak ordering.
pub fn sort_by<T: Copy, F: FnMut(&T, &T) -> bool>(v: &mut [T], less: F) {
    // A strict weak ordering keeps every scan within the slice: this cannot fail.
    let _ = try_sort_by(v, less);
}

/// An unguarded scan of `std::sort` ran off the range being sorted: undefined in C++.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OffTheRange;

/// [`sort_by`] for any comparator: where a scan would leave the slice, `Err`, with `v` partly
/// sorted.
pub fn try_sort_by<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    mut less: F,
) -> Result<(), OffTheRange> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    introsort_loop(v, 0, n, 2 * floor_log2(n), &mut less)?;
    final_insertion_sort(v, &mut less)
}

/// `std::__lg`.
fn floor_log2(n: usize) -> u32 {
    usize::BITS - 1 - n.leading_zeros()
}

fn introsort_loop<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    first: usize,
    mut last: usize,
    mut depth: u32,
    less: &mut F,
) -> Result<(), OffTheRange> {
    while last - first > THRESHOLD {
        if depth == 0 {
            heap_sort(&mut v[first..last], less);
            return Ok(());
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last, less)?;
        introsort_loop(v, cut, last, depth, less)?;
        last = cut;
    }
    Ok(())
}

/// `__unguarded_partition_pivot`.
fn partition_pivot<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &mut F,
) -> Result<usize, OffTheRange> {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, less);
    unguarded_partition(v, first + 1, last, first, less)
}

/// `__move_median_to_first`: swaps the median of `a`, `b`, `c` into `result`.
fn move_median_to_first<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    less: &mut F,
) {
    let median = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(result, median);
}

/// `__unguarded_partition` around the element at `pivot`.
fn unguarded_partition<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    mut first: usize,
    mut last: usize,
    pivot: usize,
    less: &mut F,
) -> Result<usize, OffTheRange> {
    loop {
        while less(v.get(first).ok_or(OffTheRange)?, &v[pivot]) {
            first += 1;
        }
        last = last.checked_sub(1).ok_or(OffTheRange)?;
        while less(&v[pivot], &v[last]) {
            last = last.checked_sub(1).ok_or(OffTheRange)?;
        }
        if first >= last {
            return Ok(first);
        }
        v.swap(first, last);
        first += 1;
    }
}

/// `__final_insertion_sort`.
fn final_insertion_sort<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    less: &mut F,
) -> Result<(), OffTheRange> {
    if v.len() > THRESHOLD {
        insertion_sort(&mut v[..THRESHOLD], less)?;
        for i in THRESHOLD..v.len() {
            unguarded_linear_insert(v, i, less)?;
        }
        Ok(())
    } else {
        insertion_sort(v, less)
    }
}

/// `__insertion_sort`: an element smaller than the first goes straight to the front.
fn insertion_sort<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    less: &mut F,
) -> Result<(), OffTheRange> {
    for i in 1..v.len() {
        if less(&v[i], &v[0]) {
            let value = v[i];
            v.copy_within(0..i, 1);
            v[0] = value;
        } else {
            unguarded_linear_insert(v, i, less)?;
        }
    }
    Ok(())
}

/// `__unguarded_linear_insert`.
fn unguarded_linear_insert<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    mut last: usize,
    less: &mut F,
) -> Result<(), OffTheRange> {
    let value = v[last];
    while less(&value, v.get(last.wrapping_sub(1)).ok_or(OffTheRange)?) {
        v[last] = v[last - 1];
        last -= 1;
    }
    v[last] = value;
    Ok(())
}

/// `__partial_sort(first, last, last)`: `__make_heap` then `__sort_heap`.
fn heap_sort<T: Copy, F: FnMut(&T, &T) -> bool>(v: &mut [T], less: &mut F) {
    let len = v.len();
    if len >= 2 {
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[parent];
            adjust_heap(v, parent, len, value, less);
            if parent == 0 {
                break;
            }
            parent -= 1;
        }
    }
    let mut last = len;
    while last > 1 {
        last -= 1;
        // `__pop_heap(first, last, last)`.
        let value = v[last];
        v[last] = v[0];
        adjust_heap(v, 0, last, value, less);
    }
}

/// `__adjust_heap`: sinks a hole from `hole` to a leaf, then pushes `value` back up.
fn adjust_heap<T: Copy, F: FnMut(&T, &T) -> bool>(
    v: &mut [T],
    mut hole: usize,
    len: usize,
    value: T,
    less: &mut F,
) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if less(&v[child], &v[child - 1]) {
            child -= 1;
        }
        v[hole] = v[child];
        hole = child;
    }
    if len & 1 == 0 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    // `__push_heap`.
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(&v[parent], &value) {
            break;
        }
        v[hole] = v[parent];
        hole = parent;
    }
    v[hole] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_any_sort() {
        let mut seed = 12345u64;
        for n in 0..300 {
            let mut v: Vec<u64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 33) % 7
                })
                .collect();
            let mut expected = v.clone();
            expected.sort();
            sort_by(&mut v, |a, b| a < b);
            assert_eq!(v, expected);
        }
    }

    /// Up to 16 elements only the final insertion sort runs, which is stable.
    #[test]
    fn short_ranges_are_stable() {
        let key = [1, 0, 1, 0, 0];
        let mut ids = [0, 1, 2, 3, 4];
        sort_by(&mut ids, |&x, &y| key[x] < key[y]);
        assert_eq!(ids, [1, 3, 4, 0, 2]);
    }

    /// The `tie-high` rule case: 17 pieces, three of them (0, 1, 16) in the first cell.
    /// Worked by hand: the pivot is the median of keys at 1, 8, 15 (0, 1, 1), i.e. element 15
    /// (key 1), swapped to the front; the unguarded partition then swaps 16 to index 2 and 0 to
    /// index 3, and equal keys around the cut; the final insertion sort moves the three keys 0 to
    /// the front in the order they then stand: 1, 16, 0. g++'s `std::sort` gives the same.
    #[test]
    fn tie_high_case() {
        let key: Vec<u8> = (0..17).map(|i| u8::from(!(i < 2 || i == 16))).collect();
        let mut ids: Vec<usize> = (0..17).collect();
        sort_by(&mut ids, |&x, &y| key[x] < key[y]);
        assert_eq!(ids, [1, 16, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    }

    #[test]
    fn heap_sort_fallback_sorts() {
        let mut v: Vec<u32> = (0..100).rev().collect();
        heap_sort(&mut v, &mut |a: &u32, b: &u32| a < b);
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }
}
