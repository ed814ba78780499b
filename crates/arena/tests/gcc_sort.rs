//! `gcc_sort` against permutations recorded from libstdc++'s `std::sort` (g++ 12.2, see
//! `fixtures/README.md`).

use arbiter_arena::gcc_sort::sort_by;

const CASES: &str = include_str!("fixtures/gcc_sort.txt");

#[test]
fn equal_keys_end_where_libstdcxx_puts_them() {
    let mut checked = 0;
    for line in CASES.lines().filter(|line| !line.starts_with("adversary")) {
        let (keys, expected) = line.split_once(':').expect("a `:` in every case");
        let keys: Vec<u32> = keys.split_whitespace().skip(1).map(|k| k.parse().unwrap()).collect();
        let expected: Vec<usize> =
            expected.split_whitespace().map(|k| k.parse().unwrap()).collect();
        let mut ids: Vec<usize> = (0..keys.len()).collect();
        sort_by(&mut ids, |&x, &y| keys[x] < keys[y]);
        assert_eq!(ids, expected, "keys {keys:?}");
        checked += 1;
    }
    assert!(checked > 200);
}

/// McIlroy's adversary decides keys lazily so that quicksort degrades; libstdc++ then falls back
/// to heap sort. The same comparisons in the same order give the same keys and permutation.
#[test]
fn adversary_follows_the_same_comparisons_through_heap_sort() {
    let mut checked = 0;
    for line in CASES.lines().filter(|line| line.starts_with("adversary")) {
        let (head, expected) = line.split_once(':').unwrap();
        let mut head = head.split_whitespace().skip(1).map(|k| k.parse::<usize>().unwrap());
        let (n, comparisons) = (head.next().unwrap(), head.next().unwrap());
        let expected: Vec<usize> =
            expected.split_whitespace().map(|k| k.parse().unwrap()).collect();
        let gas = n;
        let mut val = vec![gas; n];
        let (mut solid, mut candidate, mut count) = (0, 0, 0);
        let mut ids: Vec<usize> = (0..n).collect();
        sort_by(&mut ids, |&x, &y| {
            count += 1;
            if val[x] == gas && val[y] == gas {
                if x == candidate {
                    val[x] = solid;
                } else {
                    val[y] = solid;
                }
                solid += 1;
            }
            if val[x] == gas {
                candidate = x;
            } else if val[y] == gas {
                candidate = y;
            }
            val[x] < val[y]
        });
        assert_eq!(count, comparisons, "n = {n}");
        assert_eq!(ids, expected, "n = {n}");
        checked += 1;
    }
    assert_eq!(checked, 3);
}
