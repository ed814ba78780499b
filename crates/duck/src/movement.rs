//! How each piece moves: the one place where the rules of movement are written down.
//!
//! Every role is either a list of [`Leap`]s — a displacement plus the squares (relative to the start)
//! that must be empty for it — or a list of directions it slides along without jumping. Everything
//! else is derived from [`Role::movement`] at compile time: validation of a command ([`reach`]),
//! move generation ([`targets`]), and the reverse lookup used by check detection ([`sources`]).
//!
//! ```
//! use arbiter_duck::movement::{reach, Reach};
//! use arbiter_duck::{Bitboard, Role, Square};
//!
//! let sq = |x, y| Square::new(x, y).unwrap();
//! // A horse on (0,1) jumping to (2,2) needs its leg (1,1) empty.
//! assert_eq!(reach(Role::Horse, sq(0, 1), sq(2, 2), Bitboard::EMPTY), Reach::Yes);
//! let leg = Bitboard::from_square(sq(1, 1));
//! assert_eq!(reach(Role::Horse, sq(0, 1), sq(2, 2), leg), Reach::Blocked(sq(1, 1)));
//! assert_eq!(reach(Role::Horse, sq(0, 1), sq(3, 3), leg), Reach::Never);
//! ```

use crate::{Bitboard, Role, Square};

#[cfg(target_arch = "x86_64")]
pub(crate) mod pext;

/// A displacement: rows towards blue, columns to the right (as red sees the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Delta {
    /// Change of the row `x`.
    pub rows: i8,
    /// Change of the column `y`.
    pub cols: i8,
}

const fn delta(rows: i8, cols: i8) -> Delta {
    Delta { rows, cols }
}

/// One leap of a piece: where it lands, and the points that must be empty for it to get there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leap {
    /// Where the piece lands, relative to its start.
    pub to: Delta,
    /// Points relative to the start that block the leap when occupied, in the order they are crossed.
    pub blockers: &'static [Delta],
}

const fn leap(rows: i8, cols: i8, blockers: &'static [Delta]) -> Leap {
    Leap { to: delta(rows, cols), blockers }
}

/// The movement of one role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    /// A fixed set of leaps, each with its blocking points.
    Leaps(&'static [Leap]),
    /// Any distance along these directions, stopping at (and possibly capturing) the first piece.
    Slides(&'static [Delta]),
}

/// One orthogonal step.
const CAPTAIN: &[Leap] = &[leap(1, 0, &[]), leap(0, 1, &[]), leap(-1, 0, &[]), leap(0, -1, &[])];

/// One diagonal step.
const GUARD: &[Leap] = &[leap(1, 1, &[]), leap(-1, 1, &[]), leap(1, -1, &[]), leap(-1, -1, &[])];

/// Two diagonal steps; the point in between is the elephant's eye.
const ELEPHANT: &[Leap] = &[
    leap(2, 2, &[delta(1, 1)]),
    leap(-2, 2, &[delta(-1, 1)]),
    leap(2, -2, &[delta(1, -1)]),
    leap(-2, -2, &[delta(-1, -1)]),
];

/// One orthogonal step then one diagonal step outwards; the orthogonal neighbour is the horse's leg.
const HORSE: &[Leap] = &[
    leap(1, 2, &[delta(0, 1)]),
    leap(2, 1, &[delta(1, 0)]),
    leap(-1, 2, &[delta(0, 1)]),
    leap(-2, 1, &[delta(-1, 0)]),
    leap(1, -2, &[delta(0, -1)]),
    leap(2, -1, &[delta(1, 0)]),
    leap(-1, -2, &[delta(0, -1)]),
    leap(-2, -1, &[delta(-1, 0)]),
];

/// One step in any of the eight directions.
const SOLDIER: &[Leap] = &[
    leap(1, 1, &[]),
    leap(1, 0, &[]),
    leap(0, 1, &[]),
    leap(1, -1, &[]),
    leap(-1, 1, &[]),
    leap(0, -1, &[]),
    leap(-1, 0, &[]),
    leap(-1, -1, &[]),
];

/// One orthogonal step then two diagonal steps outwards: a (2,3) leap with two blocking points.
const DUCK: &[Leap] = &[
    leap(2, 3, &[delta(0, 1), delta(1, 2)]),
    leap(3, 2, &[delta(1, 0), delta(2, 1)]),
    leap(-2, 3, &[delta(0, 1), delta(-1, 2)]),
    leap(3, -2, &[delta(1, 0), delta(2, -1)]),
    leap(-3, 2, &[delta(-1, 0), delta(-2, 1)]),
    leap(2, -3, &[delta(0, -1), delta(1, -2)]),
    leap(-2, -3, &[delta(0, -1), delta(-1, -2)]),
    leap(-3, -2, &[delta(-1, 0), delta(-2, -1)]),
];

/// Rows up and down, columns left and right. Directions 0 and 1 raise the square index, 2 and 3
/// lower it, which [`targets`] relies on to find the nearest piece on a ray; direction `d ^ 2` is
/// the reverse of `d`, so a car reaches `b` from `a` exactly when it reaches `a` from `b`, which
/// check detection relies on.
const CAR: &[Delta] = &[delta(1, 0), delta(0, 1), delta(-1, 0), delta(0, -1)];

// The ray tables and the line test between two squares are computed for exactly these directions
// in this order; a change to them, or another sliding role, must come with new ray code.
const _: () = {
    const ORTHOGONAL: [Delta; 4] = [delta(1, 0), delta(0, 1), delta(-1, 0), delta(0, -1)];
    let mut r = 0;
    while r < Role::ALL.len() {
        if let Movement::Slides(directions) = Role::ALL[r].movement() {
            assert!(directions.len() == 4, "sliders move along the four orthogonal directions");
            let mut d = 0;
            while d < 4 {
                let (got, want) = (directions[d], ORTHOGONAL[d]);
                assert!(
                    got.rows == want.rows && got.cols == want.cols,
                    "sliders move along the four orthogonal directions, in the order of CAR"
                );
                d += 1;
            }
        }
        r += 1;
    }
};

impl Role {
    /// How this role moves.
    pub const fn movement(self) -> Movement {
        match self {
            Role::Car => Movement::Slides(CAR),
            Role::Horse => Movement::Leaps(HORSE),
            Role::Elephant => Movement::Leaps(ELEPHANT),
            Role::Guard => Movement::Leaps(GUARD),
            Role::Captain => Movement::Leaps(CAPTAIN),
            Role::Soldier => Movement::Leaps(SOLDIER),
            Role::Duck => Movement::Leaps(DUCK),
        }
    }

    /// What blocks this role, in words: `leg`, `eye` or `path`.
    pub const fn blocker_name(self) -> &'static str {
        match self {
            Role::Car => "path",
            Role::Elephant => "eye",
            _ => "leg",
        }
    }
}

/// Whether a piece can go from one square to another, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reach {
    /// The move follows the piece's pattern and nothing is in the way.
    Yes,
    /// The move follows the pattern but the piece on this square is in the way (the first one
    /// crossed).
    Blocked(Square),
    /// The move is not in the piece's pattern at all.
    Never,
}

/// The leaps of one role from one square, resolved to squares. Leaps that land off the board are
/// left out.
#[derive(Debug, Clone, Copy)]
struct LeapSet {
    len: u8,
    to: [u8; 8],
    /// The blocking squares of each leap as one set, for the test on the hot paths.
    blockers: [Bitboard; 8],
    /// The same squares in the order they are crossed, to name the one in the way; [`NO_SQUARE`]
    /// pads.
    crossed: [[u8; MAX_BLOCKERS]; 8],
}

/// The most blocking points any leap has (the duck's two).
const MAX_BLOCKERS: usize = 2;
/// Pads `crossed`.
const NO_SQUARE: u8 = u8::MAX;
/// Pads `to`: no square has this index, so a padding byte never matches a target.
const NO_TARGET: u8 = u8::MAX;
const EMPTY_SET: LeapSet = LeapSet {
    len: 0,
    to: [NO_TARGET; 8],
    blockers: [Bitboard::EMPTY; 8],
    crossed: [[NO_SQUARE; MAX_BLOCKERS]; 8],
};

impl LeapSet {
    /// The index of the leap landing on `to`, found without a loop: the eight targets are compared
    /// at once as the bytes of one word (a data-dependent loop exit mispredicts on random moves).
    #[inline]
    fn find(&self, to: Square) -> Option<usize> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let diff = u64::from_le_bytes(self.to) ^ (ONES * to.index() as u64);
        // A byte of `diff` is zero where the target matches; this sets its top bit (bytes above
        // the lowest match may be set too, but the lowest set bit is exact).
        let zero = diff.wrapping_sub(ONES) & !diff & (ONES << 7);
        (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
    }

    /// Whether leap `i` has none of its blocking points occupied.
    #[inline]
    fn clear(&self, i: usize, occupied: Bitboard) -> bool {
        !self.blockers[i].intersects(occupied)
    }
}

const fn offset(sq: Square, d: Delta) -> Option<Square> {
    sq.offset(d.rows, d.cols)
}

const fn leap_set(leaps: &[Leap], from: Square) -> LeapSet {
    let mut set = EMPTY_SET;
    let mut i = 0;
    while i < leaps.len() {
        if let Some(to) = offset(from, leaps[i].to) {
            let n = set.len as usize;
            let mut j = 0;
            assert!(leaps[i].blockers.len() <= MAX_BLOCKERS, "too many blocking points");
            while j < leaps[i].blockers.len() {
                match offset(from, leaps[i].blockers[j]) {
                    Some(b) => {
                        set.blockers[n] = set.blockers[n].with(b);
                        set.crossed[n][j] = b.index() as u8;
                    }
                    None => {
                        panic!("a blocking point lies off the board while the landing does not")
                    }
                }
                j += 1;
            }
            set.to[n] = to.index() as u8;
            set.len += 1;
        }
        i += 1;
    }
    set
}

const fn square(index: usize) -> Square {
    match Square::from_index(index) {
        Some(sq) => sq,
        None => panic!("square index out of range"),
    }
}

const fn square_of(index: u8) -> Square {
    square(index as usize)
}

/// Leap tables per role and start square (empty for the car).
static LEAPS: [[LeapSet; Square::COUNT]; 7] = {
    let mut table = [[EMPTY_SET; Square::COUNT]; 7];
    let mut r = 0;
    while r < 7 {
        if let Movement::Leaps(leaps) = Role::ALL[r].movement() {
            let mut s = 0;
            while s < Square::COUNT {
                table[r][s] = leap_set(leaps, square(s));
                s += 1;
            }
        }
        r += 1;
    }
    table
};

/// The squares strictly beyond each square along each of the car's directions, nearest first.
static RAYS: [[Bitboard; Square::COUNT]; 4] = {
    let mut rays = [[Bitboard::EMPTY; Square::COUNT]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < Square::COUNT {
            let mut ray = Bitboard::EMPTY;
            let mut cur = offset(square(s), CAR[d]);
            while let Some(sq) = cur {
                ray = ray.with(sq);
                cur = offset(sq, CAR[d]);
            }
            rays[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    rays
};

/// For each role and target, the squares from which that role could reach the target on an empty
/// board: the reverse of [`LEAPS`] and [`RAYS`].
static SOURCES: [[Bitboard; Square::COUNT]; 7] = {
    let mut sources = [[Bitboard::EMPTY; Square::COUNT]; 7];
    let mut r = 0;
    while r < 7 {
        let mut s = 0;
        while s < Square::COUNT {
            match Role::ALL[r].movement() {
                Movement::Leaps(_) => {
                    let set = &LEAPS[r][s];
                    let mut i = 0;
                    while i < set.len as usize {
                        let t = set.to[i] as usize;
                        sources[r][t] = sources[r][t].with(square(s));
                        i += 1;
                    }
                }
                Movement::Slides(_) => {
                    let mut d = 0;
                    while d < 4 {
                        let mut ray = RAYS[d][s];
                        while let Some(t) = ray.first() {
                            sources[r][t.index()] = sources[r][t.index()].with(square(s));
                            ray = ray.without(t);
                        }
                        d += 1;
                    }
                }
            }
            s += 1;
        }
        r += 1;
    }
    sources
};

/// The squares along direction `d` from `from` that a slider reaches: up to and including the
/// first occupied one.
#[inline(always)]
fn slide(d: usize, from: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[d][from.index()];
    let hit = (ray & occupied).0;
    if d < 2 {
        // The ray runs towards higher bits: keep the bits up to the lowest one hit (all of them
        // when nothing is hit, as `hit - 1` then wraps to all ones).
        return Bitboard(ray.0 & (hit ^ hit.wrapping_sub(1)));
    }
    // The ray runs towards lower bits: cut it beyond the highest bit hit.
    match Bitboard(hit).last() {
        Some(sq) => ray ^ RAYS[d][sq.index()],
        None => ray,
    }
}

/// The leaps of one role from one square, grouped by their blocking points: leaps that share the
/// same points (a horse's two leaps over one leg; every leap of a piece that cannot be blocked)
/// are tested together, so move generation tests each point once.
#[derive(Debug, Clone, Copy)]
struct LeapGroups {
    len: u8,
    /// The blocking points of each group.
    blockers: [Bitboard; 8],
    /// Where the leaps of each group land.
    targets: [Bitboard; 8],
}

const NO_GROUPS: LeapGroups =
    LeapGroups { len: 0, blockers: [Bitboard::EMPTY; 8], targets: [Bitboard::EMPTY; 8] };

/// [`LEAPS`] grouped by blocking points.
static LEAP_GROUPS: [[LeapGroups; Square::COUNT]; 7] = {
    let mut table = [[NO_GROUPS; Square::COUNT]; 7];
    let mut r = 0;
    while r < 7 {
        let mut s = 0;
        while s < Square::COUNT {
            let set = &LEAPS[r][s];
            let groups = &mut table[r][s];
            let mut i = 0;
            while i < set.len as usize {
                let to = Bitboard::from_square(square_of(set.to[i]));
                let mut g = 0;
                while g < groups.len as usize && groups.blockers[g].0 != set.blockers[i].0 {
                    g += 1;
                }
                if g == groups.len as usize {
                    groups.blockers[g] = set.blockers[i];
                    groups.len += 1;
                }
                groups.targets[g] = Bitboard(groups.targets[g].0 | to.0);
                i += 1;
            }
            s += 1;
        }
        r += 1;
    }
    table
};

/// The most groups of leaps the role has on any square.
static MAX_GROUPS: [usize; 7] = {
    let mut most = [0; 7];
    let mut r = 0;
    while r < 7 {
        let mut s = 0;
        while s < Square::COUNT {
            if LEAP_GROUPS[r][s].len as usize > most[r] {
                most[r] = LEAP_GROUPS[r][s].len as usize;
            }
            s += 1;
        }
        r += 1;
    }
    most
};

/// Whether some leap of the role can be blocked, per role: the others' targets are a table
/// lookup.
static BLOCKABLE: [bool; 7] = {
    let mut blockable = [false; 7];
    let mut r = 0;
    while r < 7 {
        if let Movement::Leaps(leaps) = Role::ALL[r].movement() {
            let mut i = 0;
            while i < leaps.len() {
                if !leaps[i].blockers.is_empty() {
                    blockable[r] = true;
                }
                i += 1;
            }
        }
        r += 1;
    }
    blockable
};

/// Every square `role` can move to from `from` when `occupied` holds the pieces of both sides,
/// including occupied squares it could capture on (own pieces are the caller's to remove).
///
/// Always inlined: called with a constant `role`, it compiles to that role's code alone.
#[inline(always)]
pub fn targets(role: Role, from: Square, occupied: Bitboard) -> Bitboard {
    if let Movement::Slides(_) = role.movement() {
        return slide(0, from, occupied)
            | slide(1, from, occupied)
            | slide(2, from, occupied)
            | slide(3, from, occupied);
    }
    let groups = &LEAP_GROUPS[role.index()][from.index()];
    if !BLOCKABLE[role.index()] {
        return groups.targets[0];
    }
    // Always the role's largest number of groups (missing ones are empty and add nothing), and
    // a mask rather than a branch: whether a leg is free is a coin toss to the branch predictor.
    let mut reached = 0;
    for g in 0..MAX_GROUPS[role.index()] {
        let clear = u128::from(!groups.blockers[g].intersects(occupied));
        reached |= groups.targets[g].0 & clear.wrapping_neg();
    }
    Bitboard(reached)
}

/// The squares from which `role` could reach `to` on an empty board.
#[inline]
pub fn sources(role: Role, to: Square) -> Bitboard {
    SOURCES[role.index()][to.index()]
}

/// The most squares `role` can reach from any one square (on an empty board).
pub const fn max_targets(role: Role) -> u32 {
    let mut most = 0;
    let mut s = 0;
    while s < Square::COUNT {
        let from = square(s);
        let mut count = 0;
        match role.movement() {
            Movement::Leaps(leaps) => {
                let mut i = 0;
                while i < leaps.len() {
                    if offset(from, leaps[i].to).is_some() {
                        count += 1;
                    }
                    i += 1;
                }
            }
            Movement::Slides(directions) => {
                let mut d = 0;
                while d < directions.len() {
                    let mut cur = offset(from, directions[d]);
                    while let Some(sq) = cur {
                        count += 1;
                        cur = offset(sq, directions[d]);
                    }
                    d += 1;
                }
            }
        }
        if count > most {
            most = count;
        }
        s += 1;
    }
    most
}

/// The union of [`sources`] over the roles that slide (`slides`) or over those that leap.
const fn union_of_sources(slides: bool) -> [Bitboard; Square::COUNT] {
    let mut union = [Bitboard::EMPTY; Square::COUNT];
    let mut r = 0;
    while r < 7 {
        if matches!(Role::ALL[r].movement(), Movement::Slides(_)) == slides {
            let mut t = 0;
            while t < Square::COUNT {
                union[t] = Bitboard(union[t].0 | SOURCES[r][t].0);
                t += 1;
            }
        }
        r += 1;
    }
    union
}

/// The union of [`sources`] over the roles that leap: a quick test that no leaper can be near.
static LEAPER_SOURCES: [Bitboard; Square::COUNT] = union_of_sources(false);

/// The squares from which some leaping role could reach `to` on an empty board.
#[inline]
pub fn leaper_sources(to: Square) -> Bitboard {
    LEAPER_SOURCES[to.index()]
}

/// The union of [`sources`] over the roles that slide.
static SLIDER_SOURCES: [Bitboard; Square::COUNT] = union_of_sources(true);

/// [`LEAPER_SOURCES`] xor [`SLIDER_SOURCES`], so that [`attacker_squares`] picks either with one
/// mask.
static SOURCES_XOR: [Bitboard; Square::COUNT] = {
    let mut xor = [Bitboard::EMPTY; Square::COUNT];
    let mut t = 0;
    while t < Square::COUNT {
        xor[t] = Bitboard(LEAPER_SOURCES[t].0 ^ SLIDER_SOURCES[t].0);
        t += 1;
    }
    xor
};

/// The squares from which a piece could reach `to` on an empty board, given the squares of the
/// sliding pieces `sliders`: a slider's square when a slider could reach `to` from there, any
/// other square when some leaping role could.
#[inline(always)]
pub(crate) fn attacker_squares(to: Square, sliders: Bitboard) -> Bitboard {
    // Leaper sources everywhere, switched to slider sources on the sliders' squares.
    LEAPER_SOURCES[to.index()] ^ (sliders & SOURCES_XOR[to.index()])
}

/// The direction (index into [`CAR`] and [`RAYS`]) from `from` to `to`, which share a row or a
/// column, and the squares strictly between them.
#[inline]
fn line_between(from: Square, to: Square) -> (usize, Bitboard) {
    let d = match (from.row() == to.row(), to > from) {
        (false, true) => 0,
        (true, true) => 1,
        (false, false) => 2,
        (true, false) => 3,
    };
    // Directions d and d ^ 2 are opposite.
    (d, RAYS[d][from.index()] & RAYS[d ^ 2][to.index()])
}

/// The roles that slide, in the official order.
pub const SLIDERS: [Role; 1] = roles_that(true);

/// The `N` roles whose movement slides (or leaps); a compile error if `N` is not their number.
const fn roles_that<const N: usize>(slide: bool) -> [Role; N] {
    let mut roles = [Role::Car; N];
    let mut n = 0;
    let mut r = 0;
    while r < Role::ALL.len() {
        if matches!(Role::ALL[r].movement(), Movement::Slides(_)) == slide {
            assert!(n < N, "more roles of this kind than declared");
            roles[n] = Role::ALL[r];
            n += 1;
        }
        r += 1;
    }
    assert!(n == N, "fewer roles of this kind than declared");
    roles
}

/// Whether `role` can go from `from` to `to` with `occupied` in the way. Whose piece stands on
/// `to` is not considered here. [`reach`] says why not.
///
/// Always inlined: the judge validates every command with it, and a call costs more than the
/// test.
#[inline(always)]
pub fn reaches(role: Role, from: Square, to: Square, occupied: Bitboard) -> bool {
    match role.movement() {
        Movement::Slides(_) => {
            sources(role, to).contains(from) && reaches_from_source(role, from, to, occupied)
        }
        // The leap table of `from` lists `to` exactly when `to` is in the pattern: no need to
        // look at the sources first.
        Movement::Leaps(_) => reaches_from_source(role, from, to, occupied),
    }
}

/// [`reaches`] for a `from` known to be in `sources(role, to)`.
#[inline]
pub(crate) fn reaches_from_source(
    role: Role,
    from: Square,
    to: Square,
    occupied: Bitboard,
) -> bool {
    match role.movement() {
        Movement::Slides(_) => !line_between(from, to).1.intersects(occupied),
        Movement::Leaps(_) => leaps_to(role, from, to, occupied),
    }
}

/// [`reaches`] for a role that leaps.
#[inline(always)]
pub(crate) fn leaps_to(role: Role, from: Square, to: Square, occupied: Bitboard) -> bool {
    let set = &LEAPS[role.index()][from.index()];
    set.find(to).is_some_and(|i| set.clear(i, occupied))
}

/// Whether `role` can go from `from` to `to` with `occupied` in the way, and if not, why. Whose
/// piece stands on `to` is not considered here.
#[inline]
pub fn reach(role: Role, from: Square, to: Square, occupied: Bitboard) -> Reach {
    if reaches(role, from, to, occupied) { Reach::Yes } else { why_not(role, from, to, occupied) }
}

/// The piece in the way, or `Never` when the move is not in the pattern at all.
#[cold]
fn why_not(role: Role, from: Square, to: Square, occupied: Bitboard) -> Reach {
    if !sources(role, to).contains(from) {
        return Reach::Never;
    }
    match role.movement() {
        Movement::Slides(_) => {
            let (d, between) = line_between(from, to);
            let hit = between & occupied;
            let nearest = if d < 2 { hit.first() } else { hit.last() };
            nearest.map_or(Reach::Never, Reach::Blocked)
        }
        Movement::Leaps(_) => {
            let set = &LEAPS[role.index()][from.index()];
            (0..set.len as usize)
                .filter(|&i| usize::from(set.to[i]) == to.index())
                .flat_map(|i| set.crossed[i])
                .filter(|&b| b != NO_SQUARE)
                .map(square_of)
                .find(|&b| occupied.contains(b))
                .map_or(Reach::Never, Reach::Blocked)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    #[test]
    fn leap_counts_on_an_empty_board() {
        let centre = sq(4, 4);
        let counts: Vec<u32> =
            Role::ALL.iter().map(|&r| targets(r, centre, Bitboard::EMPTY).count()).collect();
        // car: 9 + 8 squares on its row and column; the others their full patterns.
        assert_eq!(counts, [17, 8, 4, 4, 4, 8, 8]);
        assert_eq!(targets(Role::Duck, sq(0, 0), Bitboard::EMPTY).count(), 2);
    }

    #[test]
    fn car_stops_at_the_first_piece() {
        let occupied: Bitboard = [sq(0, 3), sq(5, 0)].into_iter().collect();
        let reached = targets(Role::Car, sq(0, 0), occupied);
        let expected: Bitboard =
            [sq(0, 1), sq(0, 2), sq(0, 3), sq(1, 0), sq(2, 0), sq(3, 0), sq(4, 0), sq(5, 0)]
                .into_iter()
                .collect();
        assert_eq!(reached, expected);
        assert_eq!(reach(Role::Car, sq(0, 0), sq(0, 5), occupied), Reach::Blocked(sq(0, 3)));
        assert_eq!(reach(Role::Car, sq(9, 0), sq(0, 0), occupied), Reach::Blocked(sq(5, 0)));
        assert_eq!(reach(Role::Car, sq(0, 0), sq(1, 1), occupied), Reach::Never);
        assert_eq!(reach(Role::Car, sq(0, 0), sq(0, 0), occupied), Reach::Never);
    }

    #[test]
    fn duck_reports_the_first_blocker_crossed() {
        let both: Bitboard = [sq(0, 1), sq(1, 2)].into_iter().collect();
        assert_eq!(reach(Role::Duck, sq(0, 0), sq(2, 3), both), Reach::Blocked(sq(0, 1)));
        let outer = Bitboard::from_square(sq(1, 2));
        assert_eq!(reach(Role::Duck, sq(0, 0), sq(2, 3), outer), Reach::Blocked(sq(1, 2)));
        assert_eq!(reach(Role::Duck, sq(0, 0), sq(3, 2), outer), Reach::Yes);
    }

    #[test]
    fn sources_reverse_targets() {
        for role in Role::ALL {
            for from in Square::all() {
                for to in targets(role, from, Bitboard::EMPTY) {
                    assert!(sources(role, to).contains(from), "{role} {from} {to}");
                }
            }
            for to in Square::all() {
                for from in sources(role, to) {
                    assert!(
                        targets(role, from, Bitboard::EMPTY).contains(to),
                        "{role} {from} {to}"
                    );
                }
            }
        }
    }
}
