//! The board: cells, facings and obstacles.
//!
//! ```
//! use arbiter_arena::grid::{Dir, Grid, Pos};
//!
//! let grid = Grid::new(2, 3, vec![false, false, true, false, false, false]).unwrap();
//! assert!(grid.is_free(Pos::new(1, 2)));
//! assert!(!grid.is_free(Pos::new(1, 3))); // an obstacle
//! assert!(!grid.is_free(Pos::new(0, 1))); // off the board
//! assert_eq!(Pos::new(1, 2).step(Dir::Down), Pos::new(2, 2));
//! ```
//!
//! Rows and columns are 1-based as in the statement; row 1 is at the top, so `Up` decreases the row.

use serde::{Deserialize, Serialize};

/// A cell, 1-based (row, column). Positions next to the board (row 0 or N + 1) appear only while a
/// knockback or a wave is being computed; a piece always stands on a free cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Row, 1 = top.
    pub row: i32,
    /// Column, 1 = left.
    pub col: i32,
}

impl Pos {
    /// The cell at `row`, `col`.
    pub const fn new(row: i32, col: i32) -> Pos {
        Pos { row, col }
    }

    /// The neighbouring cell in direction `dir`.
    pub const fn step(self, dir: Dir) -> Pos {
        let (dr, dc) = dir.offset();
        Pos { row: self.row + dr, col: self.col + dc }
    }

    /// The cell displaced by (`dr`, `dc`).
    pub const fn offset(self, dr: i32, dc: i32) -> Pos {
        Pos { row: self.row + dr, col: self.col + dc }
    }

    /// Manhattan distance, the one every skill uses.
    pub const fn distance(self, other: Pos) -> i64 {
        (self.row - other.row).abs() as i64 + (self.col - other.col).abs() as i64
    }
}

/// A facing. The input codes are 0 up, 1 down, 2 left, 3 right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Towards row 1.
    Up,
    /// Towards row N.
    Down,
    /// Towards column 1.
    Left,
    /// Towards column M.
    Right,
}

impl Dir {
    /// The direction of input code `code` (0 up, 1 down, 2 left, 3 right).
    pub const fn from_code(code: i64) -> Option<Dir> {
        match code {
            0 => Some(Dir::Up),
            1 => Some(Dir::Down),
            2 => Some(Dir::Left),
            3 => Some(Dir::Right),
            _ => None,
        }
    }

    /// The (row, column) step of one move.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// The opposite direction (a piece that cannot move turns about).
    pub const fn reversed(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// A quarter turn counter-clockwise (faceking).
    pub const fn counter_clockwise(self) -> Dir {
        match self {
            Dir::Up => Dir::Left,
            Dir::Left => Dir::Down,
            Dir::Down => Dir::Right,
            Dir::Right => Dir::Up,
        }
    }
}

/// How a cell is numbered in per-cell tables: row × (M + 2) + column, one multiplication and
/// no subtraction for 1-based coordinates, the board surrounded by a frame of one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellIndex {
    width: usize,
}

impl CellIndex {
    /// The index of `pos`.
    #[inline]
    pub const fn of(self, pos: Pos) -> usize {
        pos.row as usize * self.width + pos.col as usize
    }
}

/// Why a grid cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// A side is 0 or larger than [`Grid::MAX_SIDE`].
    #[error("board size {rows}x{cols} is outside 1..={max}", max = Grid::MAX_SIDE)]
    Size {
        /// Rows asked for.
        rows: i64,
        /// Columns asked for.
        cols: i64,
    },
    /// The obstacle list does not have rows × cols entries.
    #[error("expected {expected} cells, got {got}")]
    Cells {
        /// rows × cols.
        expected: usize,
        /// Cells given.
        got: usize,
    },
}

/// An N × M board with obstacles, stored with a one-cell blocked frame so that the edge and an
/// obstacle are the same test, as they are in every rule that meets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    rows: i32,
    cols: i32,
    blocked: Vec<bool>,
}

impl Grid {
    /// Largest N and M the statement allows.
    pub const MAX_SIDE: i64 = 100;

    /// A board of `rows` × `cols` whose cell (r, c) is an obstacle when
    /// `obstacles[(r - 1) * cols + (c - 1)]`.
    pub fn new(rows: i64, cols: i64, obstacles: Vec<bool>) -> Result<Grid, GridError> {
        if !(1..=Self::MAX_SIDE).contains(&rows) || !(1..=Self::MAX_SIDE).contains(&cols) {
            return Err(GridError::Size { rows, cols });
        }
        let (r, c) = (rows as usize, cols as usize);
        if obstacles.len() != r * c {
            return Err(GridError::Cells { expected: r * c, got: obstacles.len() });
        }
        let mut grid =
            Grid { rows: rows as i32, cols: cols as i32, blocked: vec![true; (r + 2) * (c + 2)] };
        for (i, &obstacle) in obstacles.iter().enumerate() {
            let cell = grid.cell(Pos::new((i / c) as i32 + 1, (i % c) as i32 + 1));
            grid.blocked[cell] = obstacle;
        }
        Ok(grid)
    }

    /// The index of `pos` in tables of one entry per cell of the board and its frame:
    /// [`CellIndex::of`]. Every per-cell table of the crate is indexed this way; `pos` must be on
    /// the board or its frame (rows 0..=N + 1, columns 0..=M + 1).
    #[inline]
    pub const fn cell(&self, pos: Pos) -> usize {
        self.cell_index().of(pos)
    }

    /// The formula of [`Grid::cell`] on its own, for loops that index a table many times.
    #[inline]
    pub const fn cell_index(&self) -> CellIndex {
        CellIndex { width: self.cols as usize + 2 }
    }

    /// The length of tables indexed by [`Grid::cell`]: (N + 2) × (M + 2).
    pub const fn cells(&self) -> usize {
        (self.rows as usize + 2) * (self.cols as usize + 2)
    }

    /// N, the number of rows.
    pub const fn rows(&self) -> i32 {
        self.rows
    }

    /// M, the number of columns.
    pub const fn cols(&self) -> i32 {
        self.cols
    }

    /// Whether `pos` is on the board.
    pub const fn contains(&self, pos: Pos) -> bool {
        pos.row >= 1 && pos.row <= self.rows && pos.col >= 1 && pos.col <= self.cols
    }

    /// Whether `pos` is on the board and not an obstacle.
    pub fn is_free(&self, pos: Pos) -> bool {
        !self.is_blocked(pos)
    }

    /// Whether `pos` is an obstacle or off the board.
    pub fn is_blocked(&self, pos: Pos) -> bool {
        // One unsigned comparison per coordinate also catches negative values.
        let (row, col) = (pos.row as u32, pos.col as u32);
        if row > self.rows as u32 + 1 || col > self.cols as u32 + 1 {
            return true;
        }
        self.blocked[self.cell(pos)]
    }

    /// Whether `pos` is an obstacle on the board (not the edge).
    pub fn is_obstacle(&self, pos: Pos) -> bool {
        self.contains(pos) && self.is_blocked(pos)
    }

    /// Whether each cell from `from` on, stepping by `step` (one of (0, 1) and (1, 0)), is an
    /// obstacle, until the edge; `from` must be on the board.
    pub(crate) fn obstacles_along(
        &self,
        from: Pos,
        step: (i32, i32),
    ) -> impl Iterator<Item = bool> + '_ {
        let stride = if step == (0, 1) { 1 } else { self.cols as usize + 2 };
        let start = if self.contains(from) { self.cell(from) } else { self.blocked.len() };
        // The frame's cells count as blocked; the caller stops at the edge.
        self.blocked[start..].iter().step_by(stride).copied()
    }

    /// Every obstacle on the board, row by row.
    pub fn obstacles(&self) -> impl Iterator<Item = Pos> + '_ {
        (1..=self.rows)
            .flat_map(move |row| (1..=self.cols).map(move |col| Pos::new(row, col)))
            .filter(|&pos| self.is_blocked(pos))
    }
}
