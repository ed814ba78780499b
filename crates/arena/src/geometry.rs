//! The shapes the skills reach on the board: rabiribi's sector (its frame, its width and the
//! shadows obstacles cast in it), where a rabiribi push lands, and 2dsaigao's wave.
//!
//! Pure functions of the board and the rule readings: the skills that use them live in
//! [`crate::cast`].

use crate::grid::{Dir, Grid, Pos};
use crate::rules::Rules;

/// The axes of a rabiribi sector: unit steps forward and sideways, on the board's axes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) forward: (i32, i32),
    pub(crate) side: (i32, i32),
}

impl Frame {
    /// The (forward, sideways) unit vectors of a rabiribi cast facing `dir`.
    ///
    /// S5 `rabi-down`: the official program measures a down-facing caster's sector to its right
    /// (as if it faced right) while pushing down; the text puts the sector in front.
    pub(crate) fn facing(dir: Dir, rules: Rules) -> Frame {
        let (forward, side) = match dir {
            Dir::Up => ((-1, 0), (0, 1)),
            Dir::Left => ((0, -1), (1, 0)),
            Dir::Right => ((0, 1), (1, 0)),
            Dir::Down if rules.rabi_down => ((1, 0), (0, 1)),
            Dir::Down => ((0, 1), (1, 0)),
        };
        Frame { forward, side }
    }

    /// The cell `forward` ahead of `origin` and `side` aside.
    pub(crate) fn cell(self, origin: Pos, forward: i64, side: i64) -> Pos {
        let ((fr, fc), (sr, sc)) = (self.forward, self.side);
        let (f, s) = (forward as i32, side as i32);
        origin.offset(fr * f + sr * s, fc * f + sc * s)
    }
}

/// The widest sideways offset of a rabiribi sector at `forward` cells ahead: the official sector
/// (sideways ≤ forward), or the figure's 1, 3, 5, … cells (S4 `rabi-narrow`).
pub(crate) fn sector_width(rules: Rules, forward: i64) -> i64 {
    if rules.rabi_narrow { forward - 1 } else { forward }
}

/// The cells of the sector of a rabiribi cast from `origin`: on the board, not obstacles, not
/// hidden by `shadows`, nearest first.
pub(crate) fn sector_cells(
    grid: &Grid,
    rules: Rules,
    origin: Pos,
    frame: Frame,
    size: u32,
    shadows: Option<&Shadows>,
) -> Vec<Pos> {
    let reach = i64::from(grid.rows().max(grid.cols()));
    let mut cells = Vec::new();
    for f in 1..=reach.min(i64::from(size)) {
        let width = sector_width(rules, f);
        for s in -width..=width {
            let cell = frame.cell(origin, f, s);
            if grid.is_free(cell) && !shadows.is_some_and(|shadows| shadows.hidden(f, s)) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// Where a rabiribi push from `from` in direction `dir` lands: past obstacles, and round to the
/// opposite edge when it leaves the board.
pub(crate) fn knock(grid: &Grid, from: Pos, dir: Dir) -> Pos {
    let mut pos = from.step(dir);
    // Every pass either wraps or moves one cell along a line that holds `from`, which is free,
    // so this ends within one lap.
    while grid.is_blocked(pos) {
        if pos.row == 0 {
            pos.row = grid.rows();
        } else if pos.row == grid.rows() + 1 {
            pos.row = 1;
        } else if pos.col == 0 {
            pos.col = grid.cols();
        } else if pos.col == grid.cols() + 1 {
            pos.col = 1;
        } else {
            pos = pos.step(dir);
        }
    }
    pos
}

/// Which cells of a rabiribi frame are hidden by obstacles. An obstacle at (f′, s′) hides the
/// cone f > f′, |s − s′| ≤ f − f′ (the statement's figure); equivalently a cell is hidden when
/// one of the three cells one row nearer the caster (sideways s − 1, s, s + 1) holds an obstacle
/// that counts or is hidden itself, which is how the table is filled, row by row.
#[derive(Debug, Clone)]
pub(crate) struct Shadows {
    /// Rows 1..=`rows` ahead are in the table; further ones are not hidden.
    rows: i64,
    /// Sideways −`span`..=`span`.
    span: i64,
    /// Words per row.
    words: usize,
    /// A bit per cell, row after row: bit s + span of row f − 1.
    hidden: Vec<u64>,
}

impl Shadows {
    /// Whether the cell `forward` ahead and `side` aside is hidden.
    pub(crate) fn hidden(&self, forward: i64, side: i64) -> bool {
        if !(1..=self.rows).contains(&forward) || !(-self.span..=self.span).contains(&side) {
            return false;
        }
        let bit = (side + self.span) as usize;
        self.hidden[(forward - 1) as usize * self.words + bit / 64] >> (bit % 64) & 1 == 1
    }
}

/// The cells of a rabiribi frame hidden by obstacles, up to `rows` ahead, when a shadow reading
/// is on: S3 `rabi-shadow` counts the obstacles inside the sector, as the figure shows;
/// `shadow-any` every obstacle ahead of the caster. The official program has no shadows (`None`).
pub(crate) fn shadows(
    grid: &Grid,
    rules: Rules,
    origin: Pos,
    frame: Frame,
    size: u32,
    rows: i64,
) -> Option<Shadows> {
    if !rules.rabi_shadow && !rules.shadow_any {
        return None;
    }
    // The cells asked about lie in the sector (|s| ≤ f ≤ rows). A cone reaching one starts at
    // |s′| ≤ |s| + (f − f′): inside the sector for `rabi-shadow` (|s′| ≤ f′), so |s′| ≤ rows;
    // anywhere for `shadow-any`, so |s′| < 2 · rows. No cell of the board lies further aside
    // than the board's longer side.
    let reach = i64::from(grid.rows().max(grid.cols()));
    let span = if rules.shadow_any { 2 * rows } else { rows }.min(reach);
    let words = (2 * span as usize + 1).div_ceil(64);
    if rows <= 1 {
        // Nothing lies behind the first row: no table, no allocation.
        return Some(Shadows { rows: 0, span, words, hidden: Vec::new() });
    }
    // Row f's bit s + span: whether (f, s) is hidden. Row f + 1 is row f's counted obstacles
    // and hidden cells, each spread one place aside.
    let mut hidden = vec![0u64; rows as usize * words];
    let mut behind = [0u64; MAX_SHADOW_WORDS];
    let behind = &mut behind[..words];
    for f in 1..rows {
        let row = (f - 1) as usize * words;
        behind.copy_from_slice(&hidden[row..row + words]);
        // Only obstacles inside the sector count for `rabi-shadow`, and only cells on the board
        // can be obstacles: the side axis (a unit step along a row or a column, increasing)
        // leaves the board at the first and last row or column.
        let aside = if rules.shadow_any { span } else { sector_width(rules, f).min(span) };
        let counted = rules.shadow_any || f <= i64::from(size);
        let base = frame.cell(origin, f, 0);
        let (on_line, first, last) = if frame.side.0 == 0 {
            ((1..=grid.rows()).contains(&base.row), 1 - base.col, grid.cols() - base.col)
        } else {
            ((1..=grid.cols()).contains(&base.col), 1 - base.row, grid.rows() - base.row)
        };
        let (low, high) = (i64::from(first).max(-aside), i64::from(last).min(aside));
        if counted && on_line && low <= high {
            let cells = grid.obstacles_along(frame.cell(origin, f, low), frame.side);
            for (bit, obstacle) in
                ((low + span) as usize..).zip(cells.take((high - low + 1) as usize))
            {
                behind[bit / 64] |= u64::from(obstacle) << (bit % 64);
            }
        }
        let next = row + words;
        for w in 0..words {
            let left = (behind[w] << 1) | if w > 0 { behind[w - 1] >> 63 } else { 0 };
            let right = (behind[w] >> 1) | behind.get(w + 1).map_or(0, |&b| b << 63);
            hidden[next + w] = behind[w] | left | right;
        }
    }
    Some(Shadows { rows, span, words, hidden })
}

/// Words of a row of [`Shadows`]: a row spans at most 2 · 2 · 100 + 1 cells.
const MAX_SHADOW_WORDS: usize = (4 * Grid::MAX_SIDE as usize + 1).div_ceil(64);

/// Longest wave path kept for the trace.
const MAX_PATH: usize = 4096;

/// Where a 2dsaigao wave cast from `start` facing `dir` blows after `distance` steps (see
/// `dsaigao` in [`crate::cast`]); `clockwise` is S6 `wave-cw`. `path` receives the start and the
/// cell after each step; a wave of [`MAX_PATH`] steps or more skips its repeating cycles and
/// records at most [`MAX_PATH`] cells.
pub(crate) fn wave_blast(
    grid: &Grid,
    start: Pos,
    dir: Dir,
    distance: u32,
    clockwise: bool,
    mut path: Option<&mut Vec<Pos>>,
) -> Pos {
    let mut pos = start;
    let mut d = match dir {
        Dir::Up => (-1, 1),
        Dir::Down => (1, -1),
        Dir::Left => (-1, -1),
        Dir::Right => (1, 1),
    };
    let turn = |(dr, dc): (i32, i32)| if clockwise { (dc, -dr) } else { (dc, -dc) };
    if let Some(path) = path.as_deref_mut() {
        path.push(pos);
    }
    // The wave's state (cell, direction) repeats within 4·(N+2)·(M+2) steps; a long wave jumps
    // over whole cycles instead of walking them.
    let states = 4 * grid.cells();
    // A recorded path stays whole while it fits in MAX_PATH; beyond, cycles are skipped too.
    let skip = distance as usize > states && (path.is_none() || distance as usize >= MAX_PATH);
    let mut seen: Vec<u32> = if skip { vec![u32::MAX; states] } else { Vec::new() };
    let mut remaining = distance;
    let mut step = 0u32;
    while remaining > 0 {
        if !seen.is_empty() {
            let heading = match d {
                (-1, -1) => 0,
                (-1, 1) => 1,
                (1, -1) => 2,
                _ => 3,
            };
            let key = grid.cell(pos) * 4 + heading;
            if seen[key] == u32::MAX {
                seen[key] = step;
            } else {
                remaining %= step - seen[key];
                seen = Vec::new();
                if remaining == 0 {
                    break;
                }
            }
        }
        let next = pos.offset(d.0, d.1);
        if grid.is_blocked(next) {
            let old = d;
            d = turn(d);
            let middle = pos.offset((old.0 + d.0) / 2, (old.1 + d.1) / 2);
            if grid.is_blocked(middle) {
                d = turn(d);
            } else {
                pos = middle;
            }
        } else {
            pos = next;
        }
        if let Some(path) = path.as_deref_mut().filter(|path| path.len() < MAX_PATH) {
            path.push(pos);
        }
        remaining -= 1;
        step += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The wave walked step by step, as the statement describes it.
    fn walk(grid: &Grid, start: Pos, dir: Dir, distance: u32, clockwise: bool) -> Pos {
        let mut pos = start;
        let mut d = match dir {
            Dir::Up => (-1, 1),
            Dir::Down => (1, -1),
            Dir::Left => (-1, -1),
            Dir::Right => (1, 1),
        };
        for _ in 0..distance {
            let next = pos.offset(d.0, d.1);
            if grid.is_blocked(next) {
                let old = d;
                d = if clockwise { (d.1, -d.0) } else { (d.1, -d.1) };
                let middle = pos.offset((old.0 + d.0) / 2, (old.1 + d.1) / 2);
                if grid.is_blocked(middle) {
                    d = if clockwise { (d.1, -d.0) } else { (d.1, -d.1) };
                } else {
                    pos = middle;
                }
            } else {
                pos = next;
            }
        }
        pos
    }

    #[test]
    fn sample_corner_wave_comes_back() {
        // The statement's first sample: from (1, 1) facing left, distance 1, the wave hits the
        // corner and blows on the caster.
        let grid =
            Grid::new(2, 4, vec![false, false, false, false, false, false, false, true]).unwrap();
        assert_eq!(wave_blast(&grid, Pos::new(1, 2), Dir::Left, 1, false, None), Pos::new(1, 2));
    }

    proptest! {
        #[test]
        fn long_waves_skip_cycles_exactly(
            rows in 1i64..6, cols in 1i64..6, bits in any::<u64>(), start in 0usize..36,
            dir in 0i64..4, distance in 0u32..3000, clockwise in any::<bool>(),
        ) {
            let cells: Vec<bool> = (0..rows * cols).map(|k| bits >> k & 1 == 1 && k % 3 != 0).collect();
            let grid = Grid::new(rows, cols, cells).unwrap();
            let free: Vec<Pos> = (1..=rows as i32)
                .flat_map(|r| (1..=cols as i32).map(move |c| Pos::new(r, c)))
                .filter(|&p| grid.is_free(p))
                .collect();
            prop_assume!(!free.is_empty());
            let start = free[start % free.len()];
            let dir = Dir::from_code(dir).unwrap();
            let mut path = Vec::new();
            let blast = wave_blast(&grid, start, dir, distance, clockwise, Some(&mut path));
            prop_assert_eq!(blast, walk(&grid, start, dir, distance, clockwise));
            prop_assert_eq!(path.len(), (distance as usize + 1).min(MAX_PATH));
        }
    }

    /// The figure's cone, tested directly: some counted obstacle at (f′, s′) with f′ < f and
    /// |s − s′| ≤ f − f′.
    fn hidden_by_a_cone(
        grid: &Grid,
        rules: Rules,
        origin: Pos,
        frame: Frame,
        size: u32,
        forward: i64,
        side: i64,
    ) -> bool {
        (1..forward).any(|f| {
            let spread = forward - f;
            (side - spread..=side + spread).any(|s| {
                (rules.shadow_any || (f <= i64::from(size) && s.abs() <= sector_width(rules, f)))
                    && grid.is_obstacle(frame.cell(origin, f, s))
            })
        })
    }

    proptest! {
        #[test]
        fn shadows_are_the_figures_cones(
            rows in 1i64..9, cols in 1i64..9, bits in any::<u64>(), start in 0usize..64,
            dir in 0i64..4, size in 0u32..12, narrow in any::<bool>(), any_obstacle in any::<bool>(),
            down in any::<bool>(),
        ) {
            let cells: Vec<bool> = (0..rows * cols).map(|k| bits >> k & 1 == 1).collect();
            let grid = Grid::new(rows, cols, cells).unwrap();
            let origin = Pos::new((start as i64 / cols % rows) as i32 + 1, (start as i64 % cols) as i32 + 1);
            let rules = Rules {
                rabi_shadow: !any_obstacle,
                shadow_any: any_obstacle,
                rabi_narrow: narrow,
                rabi_down: down,
                ..Rules::official()
            };
            let (forward, side) = match (Dir::from_code(dir).unwrap(), down) {
                (Dir::Up, _) => ((-1, 0), (0, 1)),
                (Dir::Left, _) => ((0, -1), (1, 0)),
                (Dir::Right, _) | (Dir::Down, false) => ((0, 1), (1, 0)),
                (Dir::Down, true) => ((1, 0), (0, 1)),
            };
            let frame = Frame { forward, side };
            let reach = rows.max(cols);
            let table = shadows(&grid, rules, origin, frame, size, reach.min(i64::from(size))).unwrap();
            for f in 1..=reach.min(i64::from(size)) {
                let width = sector_width(rules, f);
                for s in -width..=width {
                    if grid.contains(frame.cell(origin, f, s)) {
                        let expected = hidden_by_a_cone(&grid, rules, origin, frame, size, f, s);
                        prop_assert_eq!(table.hidden(f, s), expected, "({}, {})", f, s);
                    }
                }
            }
            prop_assert!(shadows(&grid, Rules::official(), origin, frame, size, reach).is_none());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn very_long_waves(bits in any::<u64>(), distance in 5000u32..100_000, clockwise in any::<bool>()) {
            let cells: Vec<bool> = (0..20).map(|k| bits >> k & 1 == 1 && k != 7).collect();
            let grid = Grid::new(4, 5, cells).unwrap();
            let start = Pos::new(2, 3);
            for dir in [Dir::Up, Dir::Down, Dir::Left, Dir::Right] {
                let mut path = Vec::new();
                let blast = wave_blast(&grid, start, dir, distance, clockwise, Some(&mut path));
                prop_assert_eq!(blast, walk(&grid, start, dir, distance, clockwise));
                prop_assert_eq!(wave_blast(&grid, start, dir, distance, clockwise, None), blast);
                prop_assert!(path.len() <= MAX_PATH);
            }
        }
    }
}
