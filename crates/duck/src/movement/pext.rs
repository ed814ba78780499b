//! [`targets`](super::targets) by table lookup, with BMI2's `pext` gathering the occupancy of the
//! points that matter into an index: a few instructions per piece instead of a test per group of
//! leaps or a scan per ray. Only x86-64 CPUs with BMI2 run it, chosen at run time (see
//! [`perft`](crate::perft)); `pext` and `pdep` are one fast instruction each on Intel since
//! Haswell and AMD since Zen 3 (microcoded and slow on Zen 1 and 2).
//!
//! The leaps of a role are split into *bundles*: leaps that share a blocking point are in the same
//! bundle, and bundles hold at most [`MAX_BITS`] points between them. The horse's four legs and
//! the elephant's four eyes are one bundle each; the duck's twelve points are two bundles of two
//! orthogonal neighbours each with the two points beyond each. A bundle's leaps then depend only
//! on the occupancy of its own points, so each bundle is one table lookup, and a piece's targets
//! are the union of its bundles' entries.
//!
//! A slider's targets along its row depend only on its column and the row's occupancy, the same
//! on every row (and likewise along its column): the row is gathered into an index, a table of 9
//! columns by 2^9 occupancies gives the targets as the same kind of index, and `pdep` spreads them
//! back onto the row. The bundles and all the tables are computed at compile time from
//! [`Role::movement`].

use std::arch::x86_64::{__cpuid, _pdep_u64, _pext_u64};
use std::sync::OnceLock;

use super::{BLOCKABLE, Leap, Movement, SLIDERS, offset, square};
use crate::{Bitboard, Role, Square};

/// The most blocking points one lookup gathers: tables of 2^6 = 64 entries per square and bundle.
const MAX_BITS: usize = 6;
/// The most bundles a role has.
const MAX_BUNDLES: usize = 2;
/// The most leaps a role has.
const MAX_LEAPS: usize = 8;

/// How a role's leaps are split into bundles.
#[derive(Clone, Copy)]
struct Plan {
    /// The bundle of each leap, in the order of the role's leaps.
    bundle: [usize; MAX_LEAPS],
    /// How many bundles (0 for a role that slides or cannot be blocked).
    bundles: usize,
    /// The most blocking points any bundle has: its tables have `1 << bits` entries.
    bits: usize,
}

const NO_PLAN: Plan = Plan { bundle: [0; MAX_LEAPS], bundles: 0, bits: 0 };

const fn same(a: super::Delta, b: super::Delta) -> bool {
    a.rows == b.rows && a.cols == b.cols
}

/// Whether two leaps share a blocking point.
const fn share_a_point(a: &Leap, b: &Leap) -> bool {
    let mut i = 0;
    while i < a.blockers.len() {
        let mut j = 0;
        while j < b.blockers.len() {
            if same(a.blockers[i], b.blockers[j]) {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

/// The number of distinct blocking points of the leaps marked in `members`.
const fn points(leaps: &[Leap], members: [bool; MAX_LEAPS]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < leaps.len() {
        let mut p = 0;
        while members[i] && p < leaps[i].blockers.len() {
            // Counted at its first occurrence among the members.
            let point = leaps[i].blockers[p];
            let mut seen = false;
            let mut j = 0;
            while j <= i {
                let mut q = 0;
                let end = if j == i { p } else { leaps[j].blockers.len() };
                while members[j] && q < end {
                    seen |= same(leaps[j].blockers[q], point);
                    q += 1;
                }
                j += 1;
            }
            if !seen {
                count += 1;
            }
            p += 1;
        }
        i += 1;
    }
    count
}

/// Splits the role's leaps into bundles: leaps that share a point, directly or through others,
/// stay together, and such groups fill the bundles in the order of their first leap.
const fn plan(role: Role) -> Plan {
    let leaps = match role.movement() {
        Movement::Leaps(leaps) if BLOCKABLE[role.index()] => leaps,
        _ => return NO_PLAN,
    };
    assert!(leaps.len() <= MAX_LEAPS, "more leaps than MAX_LEAPS");
    // Groups of leaps connected by shared points, as a label per leap.
    let mut group = [0; MAX_LEAPS];
    let mut i = 0;
    while i < leaps.len() {
        group[i] = i;
        i += 1;
    }
    i = 0;
    while i < leaps.len() {
        let mut j = i + 1;
        while j < leaps.len() {
            if share_a_point(&leaps[i], &leaps[j]) && group[i] != group[j] {
                let (from, to) = (group[j], group[i]);
                let mut k = 0;
                while k < leaps.len() {
                    if group[k] == from {
                        group[k] = to;
                    }
                    k += 1;
                }
            }
            j += 1;
        }
        i += 1;
    }
    // First fit of the groups into bundles.
    let mut plan = NO_PLAN;
    let mut placed = [false; MAX_LEAPS];
    i = 0;
    while i < leaps.len() {
        if !placed[i] {
            let mut members = [false; MAX_LEAPS];
            let mut k = 0;
            while k < leaps.len() {
                members[k] = group[k] == group[i];
                k += 1;
            }
            assert!(points(leaps, members) <= MAX_BITS, "leaps sharing points need a bigger table");
            let mut b = 0;
            loop {
                let mut together = members;
                k = 0;
                while k < leaps.len() {
                    together[k] |= placed[k] && plan.bundle[k] == b;
                    k += 1;
                }
                let bits = points(leaps, together);
                if bits <= MAX_BITS {
                    k = 0;
                    while k < leaps.len() {
                        if members[k] {
                            plan.bundle[k] = b;
                            placed[k] = true;
                        }
                        k += 1;
                    }
                    if b == plan.bundles {
                        plan.bundles += 1;
                    }
                    if bits > plan.bits {
                        plan.bits = bits;
                    }
                    break;
                }
                b += 1;
            }
        }
        i += 1;
    }
    assert!(plan.bundles <= MAX_BUNDLES, "more bundles than MAX_BUNDLES");
    plan
}

/// The plan of each role.
const PLANS: [Plan; 7] = {
    let mut plans = [NO_PLAN; 7];
    let mut r = 0;
    while r < 7 {
        plans[r] = plan(Role::ALL[r]);
        r += 1;
    }
    plans
};

// The shapes the module docs describe; a change of movement that breaks them is worth a look at
// the tables' size.
const _: () = {
    assert!(PLANS[Role::Horse as usize].bundles == 1 && PLANS[Role::Horse as usize].bits == 4);
    assert!(
        PLANS[Role::Elephant as usize].bundles == 1 && PLANS[Role::Elephant as usize].bits == 4
    );
    assert!(PLANS[Role::Duck as usize].bundles == 2 && PLANS[Role::Duck as usize].bits == 6);
};

/// Where each role's tables start in [`TARGETS`]: the tables of square `s` and bundle `b` start
/// `(s * bundles + b) << bits` entries further.
const BASES: [usize; 8] = {
    let mut bases = [0; 8];
    let mut r = 0;
    while r < 7 {
        let plan = PLANS[r];
        bases[r + 1] = bases[r] + ((Square::COUNT * plan.bundles) << plan.bits);
        r += 1;
    }
    bases
};

/// The number of entries of all tables.
const ENTRIES: usize = BASES[7];

/// How to find the entry of one bundle from one square: the blocking points, split into the two
/// 64-bit halves of a [`Bitboard`], and where the bundle's table starts.
#[derive(Clone, Copy)]
struct Lookup {
    low: u64,
    high: u64,
    /// The number of points in `low`, where the bits gathered from `high` go in the index.
    shift: u32,
    base: u32,
}

const NO_LOOKUP: Lookup = Lookup { low: 0, high: 0, shift: 0, base: 0 };

/// The blocking points of bundle `b` of a role's leaps from `from`, for leaps landing on the
/// board.
const fn bundle_points(leaps: &[Leap], plan: &Plan, b: usize, from: Square) -> u128 {
    let mut mask = 0;
    let mut i = 0;
    while i < leaps.len() {
        if plan.bundle[i] == b && offset(from, leaps[i].to).is_some() {
            let mut p = 0;
            while p < leaps[i].blockers.len() {
                match offset(from, leaps[i].blockers[p]) {
                    Some(sq) => mask |= Bitboard::from_square(sq).0,
                    None => {
                        panic!("a blocking point lies off the board while the landing does not")
                    }
                }
                p += 1;
            }
        }
        i += 1;
    }
    mask
}

/// The lookups of each role, square and bundle.
static LOOKUPS: [[[Lookup; MAX_BUNDLES]; Square::COUNT]; 7] = {
    let mut lookups = [[[NO_LOOKUP; MAX_BUNDLES]; Square::COUNT]; 7];
    let mut r = 0;
    while r < 7 {
        let plan = PLANS[r];
        if let Movement::Leaps(leaps) = Role::ALL[r].movement() {
            let mut s = 0;
            while s < Square::COUNT {
                let mut b = 0;
                while b < plan.bundles {
                    let mask = bundle_points(leaps, &plan, b, square(s));
                    let low = mask as u64;
                    let base = BASES[r] + ((s * plan.bundles + b) << plan.bits);
                    assert!(base + (1 << plan.bits) <= u32::MAX as usize);
                    lookups[r][s][b] = Lookup {
                        low,
                        high: (mask >> 64) as u64,
                        shift: low.count_ones(),
                        base: base as u32,
                    };
                    b += 1;
                }
                s += 1;
            }
        }
        r += 1;
    }
    lookups
};

/// The set of points of `mask` picked by the bits of `index`: bit `k` stands for the `k`-th
/// lowest point, as `pext` gathers them.
const fn deposit(index: usize, mask: u128) -> u128 {
    let (mut occupied, mut rest, mut k) = (0, mask, 0);
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if index >> k & 1 != 0 {
            occupied |= lowest;
        }
        rest ^= lowest;
        k += 1;
    }
    occupied
}

/// Where the leaps of each bundle land, for each occupancy of its points.
static TARGETS: [Bitboard; ENTRIES] = {
    let mut targets = [Bitboard::EMPTY; ENTRIES];
    let mut r = 0;
    while r < 7 {
        let plan = PLANS[r];
        if let Movement::Leaps(leaps) = Role::ALL[r].movement() {
            let mut s = 0;
            while s < Square::COUNT {
                let from = square(s);
                let mut b = 0;
                while b < plan.bundles {
                    let mask = bundle_points(leaps, &plan, b, from);
                    let base = LOOKUPS[r][s][b].base as usize;
                    let mut index = 0;
                    while index < 1 << mask.count_ones() {
                        let occupied = deposit(index, mask);
                        let mut reached = 0;
                        let mut i = 0;
                        while i < leaps.len() {
                            if plan.bundle[i] == b
                                && let Some(to) = offset(from, leaps[i].to)
                            {
                                let mut clear = true;
                                let mut p = 0;
                                while p < leaps[i].blockers.len() {
                                    if let Some(sq) = offset(from, leaps[i].blockers[p]) {
                                        clear &= occupied & Bitboard::from_square(sq).0 == 0;
                                    }
                                    p += 1;
                                }
                                if clear {
                                    reached |= Bitboard::from_square(to).0;
                                }
                            }
                            i += 1;
                        }
                        targets[base + index] = Bitboard(reached);
                        index += 1;
                    }
                    b += 1;
                }
                s += 1;
            }
        }
        r += 1;
    }
    targets
};

/// Whether this CPU is AMD's (or Hygon's, a licensed Zen) from before Zen 3; asked once (CPUID
/// is slow, and in a virtual machine a trap to the host).
fn slow_pext() -> bool {
    static SLOW: OnceLock<bool> = OnceLock::new();
    *SLOW.get_or_init(amd_before_zen_3)
}

fn amd_before_zen_3() -> bool {
    let vendor = __cpuid(0);
    let name: Vec<u8> =
        [vendor.ebx, vendor.edx, vendor.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
    if name != *b"AuthenticAMD" && name != *b"HygonGenuine" {
        return false;
    }
    // The family: the base family, plus the extended family when the base is 0xF.
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF { base + ((eax >> 20) & 0xFF) } else { base };
    family < 0x19
}

/// A row or a column of the board, split into the two 64-bit halves of a [`Bitboard`]: `pext`
/// gathers its occupancy into a number, bit `k` for its `k`-th point, and `pdep` spreads such a
/// number back onto it.
#[derive(Clone, Copy)]
struct Line {
    low: u64,
    high: u64,
    /// The number of points in `low`.
    shift: u32,
    /// Where the square's entries start in [`ROW_TARGETS`] or [`COL_TARGETS`]: its place along
    /// the line times the entries per place.
    base: u32,
}

const fn line(mask: u128, place: u8, points: u8) -> Line {
    let low = mask as u64;
    let base = (place as u32) << points;
    Line { low, high: (mask >> 64) as u64, shift: low.count_ones(), base }
}

/// The squares of row `row` (`Square::COLS` points) or of column `col` (`Square::ROWS` points).
const fn row_squares(row: u8) -> u128 {
    let mut mask = 0;
    let mut col = 0;
    while col < Square::COLS {
        mask |= Bitboard::from_square(on_board(Square::new(row, col))).0;
        col += 1;
    }
    mask
}

const fn col_squares(col: u8) -> u128 {
    let mut mask = 0;
    let mut row = 0;
    while row < Square::ROWS {
        mask |= Bitboard::from_square(on_board(Square::new(row, col))).0;
        row += 1;
    }
    mask
}

const fn on_board(sq: Option<Square>) -> Square {
    match sq {
        Some(sq) => sq,
        None => panic!("off the board"),
    }
}

/// The index `pext` gathers from `set` under `mask`: bit `k` is whether the `k`-th lowest point
/// of `mask` is in `set`.
const fn gather(set: u128, mask: u128) -> usize {
    let (mut index, mut rest, mut k) = (0, mask, 0);
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if set & lowest != 0 {
            index |= 1 << k;
        }
        rest ^= lowest;
        k += 1;
    }
    index
}

/// Where the sliders go from `from` along its row (`along_row`) or its column, with `occupied`
/// in the way: the directions of [`SLIDERS`]' movement that keep to that line.
const fn slide_along(from: Square, occupied: u128, along_row: bool) -> u128 {
    let Movement::Slides(directions) = SLIDERS[0].movement() else {
        panic!("SLIDERS holds a role that does not slide")
    };
    let mut reached = 0;
    let mut d = 0;
    while d < directions.len() {
        let dir = directions[d];
        assert!(dir.rows == 0 || dir.cols == 0, "a slide leaves its row and its column");
        if (dir.rows == 0) == along_row {
            let mut cur = offset(from, dir);
            while let Some(sq) = cur {
                let bit = Bitboard::from_square(sq).0;
                reached |= bit;
                cur = if occupied & bit != 0 { None } else { offset(sq, dir) };
            }
        }
        d += 1;
    }
    reached
}

/// Where a slider goes along a row from column `c`, for each occupancy of the row (as `pext`
/// gathers it), as the same kind of index: the same for every row. The entries of column `c`
/// start at `c << Square::COLS`.
static ROW_TARGETS: [u16; (Square::COLS as usize) << Square::COLS] = line_targets(true);

/// [`ROW_TARGETS`] for a column from row `r`.
static COL_TARGETS: [u16; (Square::ROWS as usize) << Square::ROWS] = line_targets(false);

/// [`ROW_TARGETS`] (`along_row`) or [`COL_TARGETS`], computed on the first row or column.
const fn line_targets<const N: usize>(along_row: bool) -> [u16; N] {
    let (mask, len) =
        if along_row { (row_squares(0), Square::COLS) } else { (col_squares(0), Square::ROWS) };
    let mut table = [0; N];
    let mut k = 0;
    while k < len {
        let from = on_board(if along_row { Square::new(0, k) } else { Square::new(k, 0) });
        let mut index = 0;
        while index < 1 << len {
            let reached = slide_along(from, deposit(index, mask), along_row);
            table[(k as usize) << len | index] = gather(reached, mask) as u16;
            index += 1;
        }
        k += 1;
    }
    table
}

/// The row and the column of each square.
static LINES: [[Line; 2]; Square::COUNT] = {
    let mut lines = [[line(0, 0, 0); 2]; Square::COUNT];
    let mut s = 0;
    while s < Square::COUNT {
        let sq = square(s);
        lines[s] = [
            line(row_squares(sq.row()), sq.col(), Square::COLS),
            line(col_squares(sq.col()), sq.row(), Square::ROWS),
        ];
        s += 1;
    }
    lines
};

/// Proof that the CPU has BMI2, which [`Bmi2::targets`] needs: its code is compiled into callers
/// without the feature, so that it is inlined (and specialised for a constant role) wherever it
/// is called; only a caller compiled for BMI2 gets `pext` as one instruction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bmi2(());

impl Bmi2 {
    /// The proof, when this CPU has BMI2 with a fast `pext`: AMD's CPUs before Zen 3 (family
    /// 0x19) run it as microcode, dozens of cycles or more, slower than the code it replaces.
    pub(crate) fn detect() -> Option<Bmi2> {
        (std::is_x86_feature_detected!("bmi2") && !slow_pext()).then_some(Bmi2(()))
    }

    /// The proof, when this CPU has a fast BMI2 and the bit instructions the copies compiled
    /// with `#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]` use (x86-64-v3's): found once,
    /// so that a caller on a hot path (move generation) pays one load.
    pub(crate) fn detect_with_bit_counts() -> Option<Bmi2> {
        static FOUND: OnceLock<Option<Bmi2>> = OnceLock::new();
        *FOUND.get_or_init(|| {
            Bmi2::detect().filter(|_| {
                std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("lzcnt")
            })
        })
    }

    /// [`targets`](super::targets), with a table lookup per bundle for the roles whose leaps can
    /// be blocked.
    #[inline(always)]
    pub(crate) fn targets(self, role: Role, from: Square, occupied: Bitboard) -> Bitboard {
        let (low, high) = (occupied.0 as u64, (occupied.0 >> 64) as u64);
        if let Movement::Slides(_) = role.movement() {
            return self.slide(from, low, high);
        }
        let plan = &PLANS[role.index()];
        if plan.bundles == 0 {
            return super::targets(role, from, occupied);
        }
        let lookups = &LOOKUPS[role.index()][from.index()];
        let mut reached = Bitboard::EMPTY;
        for lookup in &lookups[..plan.bundles] {
            // SAFETY: `self` proves that the CPU has BMI2.
            let (low, high) = unsafe { (_pext_u64(low, lookup.low), _pext_u64(high, lookup.high)) };
            reached |= TARGETS[lookup.base as usize + (low | high << lookup.shift) as usize];
        }
        reached
    }

    /// Where a slider goes from `from` with `low` and `high` occupied: its row and its column
    /// each gathered into an index, looked up, and spread back.
    #[inline(always)]
    fn slide(self, from: Square, low: u64, high: u64) -> Bitboard {
        let [row, col] = &LINES[from.index()];
        let along_row = ROW_TARGETS[row.base as usize + self.gather(low, high, row)];
        let along_col = COL_TARGETS[col.base as usize + self.gather(low, high, col)];
        self.spread(along_row, row) | self.spread(along_col, col)
    }

    /// The occupancy of `line` as an index.
    #[inline(always)]
    fn gather(self, low: u64, high: u64, line: &Line) -> usize {
        // SAFETY: `self` proves that the CPU has BMI2.
        let (low, high) = unsafe { (_pext_u64(low, line.low), _pext_u64(high, line.high)) };
        (low | high << line.shift) as usize
    }

    /// The points of `line` that an index stands for.
    #[inline(always)]
    fn spread(self, index: u16, line: &Line) -> Bitboard {
        let index = u64::from(index);
        // SAFETY: `self` proves that the CPU has BMI2.
        let (low, high) =
            unsafe { (_pdep_u64(index, line.low), _pdep_u64(index >> line.shift, line.high)) };
        Bitboard(u128::from(high) << 64 | u128::from(low))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few thousand occupancies from a fixed seed: every subset of the points that matter from
    /// one square (4096 random ones when there are more), each with random pieces elsewhere.
    fn occupancies(points: u128, seed: &mut u64) -> impl Iterator<Item = Bitboard> {
        let mut next = move || {
            // xorshift64*
            *seed ^= *seed >> 12;
            *seed ^= *seed << 25;
            *seed ^= *seed >> 27;
            let a = seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
            *seed ^= *seed >> 12;
            *seed ^= *seed << 25;
            *seed ^= *seed >> 27;
            let b = seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
            u128::from(a) << 64 | u128::from(b)
        };
        let randoms: Vec<u128> = (0..4).map(|_| next()).collect();
        let bits = points.count_ones().min(12);
        let subsets: Vec<usize> = match points.count_ones() {
            0..=12 => (0..1 << bits).collect(),
            _ => (0..1 << bits).map(|_| next() as usize).collect(),
        };
        subsets.into_iter().flat_map(move |index| {
            let on = deposit(index, points);
            randoms
                .clone()
                .into_iter()
                .map(move |r| Bitboard((r & !points | on) & Bitboard::FULL.0))
        })
    }

    #[test]
    fn the_lookup_gives_the_targets_of_the_portable_code() {
        let Some(bmi2) = Bmi2::detect() else { return };
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for role in Role::ALL {
            for from in Square::all() {
                let mask = |low, high| u128::from(high) << 64 | u128::from(low);
                let points = match role.movement() {
                    Movement::Slides(_) => {
                        LINES[from.index()].iter().fold(0, |all, l| all | mask(l.low, l.high))
                    }
                    Movement::Leaps(_) => LOOKUPS[role.index()][from.index()]
                        .iter()
                        .fold(0, |all, l| all | mask(l.low, l.high)),
                };
                for occupied in occupancies(points, &mut seed) {
                    let fast = bmi2.targets(role, from, occupied);
                    assert_eq!(
                        fast,
                        super::super::targets(role, from, occupied),
                        "{role} {from} {occupied:?}"
                    );
                }
            }
        }
    }
}
