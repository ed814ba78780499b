//! The transposition table: what earlier searches found about a position, shared by every search
//! thread.
//!
//! Each entry keeps a move, a value with its bound, the static evaluation, the depth searched and
//! the search (its *generation*) that wrote it. Entries live in clusters of four that share a cache
//! line; a new result replaces the entry of its own position or else the entry of least worth:
//! shallow entries and entries left by earlier searches go first.
//!
//! An entry is two 64-bit words written without a lock: the data, and the key exclusive-or'ed
//! with the data. A read whose two words come from different writes (another thread wrote in
//! between) fails the key check and counts as a miss, so threads share the table with plain
//! relaxed atomics.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::tt::{Bound, Table};
//!
//! let table = Table::new(1);
//! let position = Position::new();
//! let mv = position.moves()[0];
//! table.store(position.key(), Some(mv), 25, 10, 4, Bound::Exact);
//! let hit = table.probe(position.key()).unwrap();
//! assert_eq!((hit.mv, hit.value, hit.eval, hit.depth, hit.bound), (Some(mv), 25, 10, 4, Bound::Exact));
//! assert!(table.probe(position.key() ^ 1).is_none());
//! ```

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use arbiter_duck::{Move, Square};

use crate::value::Value;

/// What a stored value says about the position's true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value is exact (it fell inside the window).
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What a search in the window (`alpha`, `beta`) that found `value` has proved.
    pub fn of(value: Value, alpha: Value, beta: Value) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What the table knows about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// The value, as stored (won and lost games counted from the node; see
    /// [`value::from_table`](crate::value::from_table)).
    pub value: Value,
    /// The static evaluation.
    pub eval: Value,
    /// The depth searched, in plies.
    pub depth: i32,
    /// What the value says.
    pub bound: Bound,
}

/// A move in 16 bits: the source's index times 128 plus the destination's; 0 for none (a move
/// never goes from a square to itself, so a1a1 is free).
fn pack_move(mv: Option<Move>) -> u64 {
    mv.map_or(0, |mv| (mv.from.index() << 7 | mv.to.index()) as u64)
}

fn unpack_move(bits: u64) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let from = Square::from_index((bits >> 7 & 0x7f) as usize)?;
    let to = Square::from_index((bits & 0x7f) as usize)?;
    Some(Move::new(from, to))
}

/// The data word: move (16 bits), value (16), evaluation (16), depth (8), generation (6) and
/// bound (2).
fn pack(
    mv: Option<Move>,
    value: Value,
    eval: Value,
    depth: i32,
    bound: Bound,
    generation: u8,
) -> u64 {
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    pack_move(mv)
        | u64::from(value.clamp(-32_767, 32_767) as i16 as u16) << 16
        | u64::from(eval.clamp(-32_767, 32_767) as i16 as u16) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | u64::from(generation & GENERATION_MASK) << 58
        | bound << 56
}

const GENERATION_MASK: u8 = 0x3f;

struct Unpacked {
    hit: Hit,
    generation: u8,
}

fn unpack(data: u64) -> Option<Unpacked> {
    let bound = match data >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Unpacked {
        hit: Hit {
            mv: unpack_move(data & 0xffff),
            value: Value::from((data >> 16) as u16 as i16),
            eval: Value::from((data >> 32) as u16 as i16),
            depth: (data >> 48 & 0xff) as i32,
            bound,
        },
        generation: (data >> 58) as u8 & GENERATION_MASK,
    })
}

#[derive(Default)]
struct Entry {
    /// The key exclusive-or'ed with `data`.
    check: AtomicU64,
    /// The packed data; 0 for an empty entry.
    data: AtomicU64,
}

const CLUSTER: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    entries: [Entry; CLUSTER],
}

/// A transposition table of a fixed size.
pub struct Table {
    clusters: Clusters,
    generation: AtomicU8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("megabytes", &self.megabytes()).finish()
    }
}

impl Table {
    /// The largest size accepted, in MiB.
    pub const MAX_MEGABYTES: usize = 65_536;

    /// A table of `megabytes` MiB (at least one cluster; at most [`Table::MAX_MEGABYTES`]), or
    /// of the largest size memory allows: the size is halved until the allocation succeeds, so
    /// that asking too much never aborts. [`Table::megabytes`] tells the size in use.
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.clamp(0, Table::MAX_MEGABYTES) << 20;
        let mut count = (bytes / size_of::<Cluster>()).max(1);
        let clusters = loop {
            match Clusters::zeroed(count) {
                Some(clusters) => break clusters,
                // A single cluster is 64 bytes: when even that fails, nothing else would run.
                None if count == 1 => std::alloc::handle_alloc_error(Layout::new::<Cluster>()),
                None => count /= 2,
            }
        };
        Table { clusters, generation: AtomicU8::new(0) }
    }

    /// The size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.clusters.len() * size_of::<Cluster>()) >> 20
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        // Fresh zeroed memory rather than writing every cluster: a table of gigabytes is cleared
        // at once, its pages given back until the search writes them again.
        match Clusters::zeroed(self.clusters.len()) {
            Some(clusters) => self.clusters = clusters,
            None => self.clusters.iter_mut().for_each(|cluster| *cluster = Cluster::default()),
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: entries of earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        // The high bits of the key pick the cluster (a multiply instead of a division); the key
        // check uses all of it.
        let index = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Starts loading the cluster of `key` into the cache, for a probe soon after (the search
    /// calls it as soon as a move is made, before the checks that come first at the new node).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let cluster: *const Cluster = self.cluster(key);
            // SAFETY: a prefetch is only a hint: it reads nothing and cannot fault, and the
            // pointer is a valid reference besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What the table knows about the position with `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        self.cluster(key).entries.iter().find_map(|entry| {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key { unpack(data).map(|u| u.hit) } else { None }
        })
    }

    /// Stores what a search found about the position with `key`. The value must already be
    /// counted from this node ([`value::to_table`](crate::value::to_table)). A result without a
    /// move keeps the move already stored for the position.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = &cluster.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &cluster.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                let old = unpack(data);
                // A much deeper result of this same search stays, unless the new one is exact.
                if let Some(old) = &old
                    && old.generation == generation
                    && old.hit.depth > depth + 3
                    && bound != Bound::Exact
                {
                    return;
                }
                let mv = mv.or(old.and_then(|old| old.hit.mv));
                write(entry, key, pack(mv, value, eval, depth, bound, generation));
                return;
            }
            let worth = unpack(data).map_or(i32::MIN, |old| {
                let age = i32::from(generation.wrapping_sub(old.generation) & GENERATION_MASK);
                old.hit.depth - 8 * age
            });
            if worth < victim_worth {
                victim = entry;
                victim_worth = worth;
            }
        }
        write(victim, key, pack(mv, value, eval, depth, bound, generation));
    }

    /// The fill in permille, estimated from the first thousand clusters: the share of entries
    /// written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = &self.clusters[..self.clusters.len().min(1000)];
        let used: usize = sample
            .iter()
            .flat_map(|cluster| &cluster.entries)
            .filter(|entry| {
                let data = entry.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).is_some_and(|u| u.generation == generation)
            })
            .count();
        (used * 1000 / (sample.len() * CLUSTER)) as u32
    }
}

/// The clusters of a table: zeroed memory from the allocator, aligned to a cache line.
///
/// Not a `Box<[Cluster]>`: the allocator zeroes memory of a cache line's alignment by writing
/// it, page by page, while memory of its own alignment comes zeroed from the system (`calloc`,
/// fresh pages mapped only when written). So the memory is asked with the allocator's alignment
/// and one cluster more, and the clusters start at the first cache line in it: a table of
/// gigabytes is ready at once and costs nothing until the search writes it.
struct Clusters {
    /// The allocation, with its layout, to give back.
    base: NonNull<u8>,
    layout: Layout,
    /// The first cluster, at the first cache line of the allocation.
    first: NonNull<Cluster>,
    len: usize,
}

// SAFETY: `Clusters` owns its memory like a `Box<[Cluster]>`, and a cluster (atomic integers) is
// both `Send` and `Sync`.
unsafe impl Send for Clusters {}
// SAFETY: as above.
unsafe impl Sync for Clusters {}

impl Clusters {
    /// `count` empty clusters, or `None` when memory refuses them.
    fn zeroed(count: usize) -> Option<Clusters> {
        let size = count.checked_add(1)?.checked_mul(size_of::<Cluster>())?;
        let layout = Layout::from_size_align(size, align_of::<u128>()).ok()?;
        // SAFETY: the layout has a nonzero size (a cluster is 64 bytes).
        let base = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let skip = base.as_ptr().align_offset(align_of::<Cluster>());
        // SAFETY: `skip` < 64 bytes, and the allocation holds one cluster more than `count`: the
        // clusters lie inside it. All-zero bytes are a valid cluster (atomic integers at 0, the
        // empty entry).
        let first = unsafe { base.add(skip) }.cast::<Cluster>();
        Some(Clusters { base, layout, first, len: count })
    }
}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];

    fn deref(&self) -> &[Cluster] {
        // SAFETY: `first` points at `len` initialised, aligned clusters that `self` owns.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Clusters {
    fn deref_mut(&mut self) -> &mut [Cluster] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        // SAFETY: `base` came from the global allocator with `layout`.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

#[inline]
fn write(entry: &Entry, key: u64, data: u64) {
    entry.data.store(data, Ordering::Relaxed);
    entry.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_duck::Position;

    #[test]
    fn every_move_packs_into_sixteen_bits() {
        for from in Square::all() {
            for to in Square::all().filter(|&to| to != from) {
                let mv = Move::new(from, to);
                assert!(pack_move(Some(mv)) < 1 << 16);
                assert_eq!(unpack_move(pack_move(Some(mv))), Some(mv));
            }
        }
        assert_eq!(unpack_move(pack_move(None)), None);
        assert_eq!(size_of::<Cluster>(), 64);
        assert_eq!(size_of::<Option<Move>>(), 3);
    }

    #[test]
    fn values_and_bounds_read_back() {
        let table = Table::new(1);
        let mv = Position::new().moves()[5];
        for (value, eval, depth, bound) in [
            (-31_990, 5, 0, Bound::Upper),
            (31_990, -300, 255, Bound::Lower),
            (0, 0, 7, Bound::Exact),
        ] {
            table.store(99, Some(mv), value, eval, depth, bound);
            let hit = table.probe(99).unwrap();
            assert_eq!(
                (hit.mv, hit.value, hit.eval, hit.depth, hit.bound),
                (Some(mv), value, eval, depth, bound)
            );
        }
        // A result without a move keeps the stored one.
        table.store(99, None, 3, 3, 9, Bound::Exact);
        assert_eq!(table.probe(99).unwrap().mv, Some(mv));
    }

    #[test]
    fn a_table_too_large_for_memory_falls_back_to_a_smaller_one() {
        // Far more than any machine this runs on has: the size is halved until memory allows.
        let table = Table::new(Table::MAX_MEGABYTES);
        assert!(table.megabytes() >= 1);
        assert!(table.megabytes() <= Table::MAX_MEGABYTES);
        assert!(Clusters::zeroed(usize::MAX / size_of::<Cluster>()).is_none());
        let small = Table::new(2);
        assert_eq!(small.megabytes(), 2);
        assert!(small.probe(7).is_none());
    }

    #[test]
    fn shallow_old_entries_are_replaced_first() {
        let table = Table::new(0);
        assert_eq!(table.clusters.len(), 1);
        for key in 1..=4 {
            table.store(key, None, 0, 0, 10 + key as i32, Bound::Exact);
        }
        table.store(5, None, 0, 0, 1, Bound::Exact);
        // The shallowest entry (key 1, depth 11) made room.
        assert!(table.probe(1).is_none());
        assert!((2..=5).all(|key| table.probe(key).is_some()));
        table.new_search();
        table.new_search();
        table.store(6, None, 0, 0, 3, Bound::Exact);
        // Now all are two searches old: the new result takes the shallowest of them (key 5).
        assert!(table.probe(5).is_none());
        assert!(table.probe(4).is_some());
    }
}
