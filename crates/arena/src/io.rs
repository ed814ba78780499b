//! The official text format: reading games, writing what they print.
//!
//! ```
//! use arbiter_arena::io::{parse_count, parse_game};
//! use arbiter_scan::Scanner;
//!
//! let mut input = Scanner::new("1\n1 2 1 1\n0 1\n1 1 1 1 0 3 1 1 1 toolihai\n");
//! assert_eq!(parse_count(&mut input).unwrap(), 1);
//! let game = parse_game(&mut input).unwrap();
//! assert_eq!(game.pieces().len(), 1);
//!
//! let error = parse_game(&mut Scanner::new("1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 fly\n")).unwrap_err();
//! assert_eq!(error.to_string(), "3:19: expected a skill name (toolihai, faceking, onepunch, \
//!     rabiribi, firework, viuganda, 2dsaigao, gugugugu, backward, hupraise), found `fly`");
//! ```
//!
//! Games are read one at a time so that a caller can play and print each before reading the
//! next: the output of the complete games stays when a later one is malformed. Every guarantee
//! of the statement that the rules rely on is checked here, with the position of the token that
//! breaks it.

use arbiter_scan::{ScanError, Scanner};

use crate::game::{Game, PieceSpec, Team, limits};
use crate::grid::{Dir, Grid, Pos};
use crate::skill::{Skill, SkillKind};

/// Reads T, the number of games.
pub fn parse_count(input: &mut Scanner<'_>) -> Result<usize, ScanError> {
    let count = input.int_in(1, limits::GAMES, "the number of games T (1..=20)")?;
    Ok(count as usize)
}

/// Reads one game.
pub fn parse_game(input: &mut Scanner<'_>) -> Result<Game, ScanError> {
    let rows = input.int_in(1, Grid::MAX_SIDE, "N, the number of rows (1..=100)")?;
    let cols = input.int_in(1, Grid::MAX_SIDE, "M, the number of columns (1..=100)")?;
    let count = input.int_in(1, limits::PIECES, "K, the number of pieces (1..=200)")?;
    let rounds = input.int_in(1, limits::ROUNDS, "R, the number of rounds (1..=1000)")?;
    let mut cells = Vec::with_capacity((rows * cols) as usize);
    for _ in 0..rows * cols {
        cells.push(input.int("a map cell (0 = free, else an obstacle)")? != 0);
    }
    let grid = Grid::new(rows, cols, cells).map_err(|e| input.error_here(e.to_string()))?;
    let mut pieces = Vec::with_capacity(count as usize);
    for i in 1..=count {
        pieces.push(parse_piece(input, &grid, i)?);
    }
    Game::new(grid, pieces, rounds).map_err(|e| input.error_here(e.to_string()))
}

/// The next token as an integer in `min..=max`, like [`Scanner::int_in`], with the message
/// built only for an error: a piece has a dozen numbers and the messages name the piece.
fn int_in(
    input: &mut Scanner<'_>,
    min: i64,
    max: i64,
    expected: impl FnOnce() -> String,
) -> Result<i64, ScanError> {
    let before = input.clone();
    match input.try_int() {
        Some(value) if (min..=max).contains(&value) => Ok(value),
        _ => {
            *input = before;
            Err(input.error_here(expected()))
        }
    }
}

fn parse_piece(input: &mut Scanner<'_>, grid: &Grid, i: i64) -> Result<PieceSpec, ScanError> {
    let before = input.clone();
    let row = int_in(input, 1, i64::from(grid.rows()), || format!("the row of piece {i} (1..=N)"))?;
    let col =
        int_in(input, 1, i64::from(grid.cols()), || format!("the column of piece {i} (1..=M)"))?;
    let pos = Pos::new(row as i32, col as i32);
    if grid.is_blocked(pos) {
        *input = before;
        return Err(input.error_here(format!("a free cell for piece {i}, not an obstacle")));
    }
    let a = int_in(input, 0, limits::ATTRIBUTE, || format!("a of piece {i} (0..=1000)"))?;
    let b = int_in(input, 0, a, || format!("b of piece {i} (0..=a)"))?;
    let team = int_in(input, 0, 1, || format!("the team of piece {i} (0 red, 1 blue)"))?;
    let dir = int_in(input, 0, 3, || format!("the facing of piece {i} (0..=3)"))?;
    let timer = |input: &mut Scanner<'_>, what: &str| {
        int_in(input, 1, limits::TIMER, || format!("{what} of piece {i} (1..={})", limits::TIMER))
    };
    let first_cooldown = timer(input, "f")?;
    let cooldown = timer(input, "z")?;
    let respawn = timer(input, "r")?;
    let expected = || {
        let names = SkillKind::ALL.map(SkillKind::name).join(", ");
        format!("a skill name ({names})")
    };
    let token = match input.next_token() {
        Some(token) => token,
        None => return Err(input.error_here(expected())),
    };
    let kind: SkillKind = token.text.parse().map_err(|_| input.error_at(token, expected()))?;
    let mut args = [0i64; 3];
    for (k, what) in kind.parameters().iter().enumerate() {
        let (min, max) = (kind.minimum(k), kind.maximum(k));
        args[k] =
            int_in(input, min, max, || format!("{what} of {kind} (piece {i}, {min}..={max})"))?;
    }
    let skill = Skill::from_args(kind, &args[..kind.arity()])
        .ok_or_else(|| input.error_here(format!("parameters of {kind}")))?;
    Ok(PieceSpec {
        pos,
        a: a as u32,
        b: b as u32,
        team: Team::from_code(team).unwrap_or(Team::Red),
        dir: Dir::from_code(dir).unwrap_or(Dir::Up),
        first_cooldown: first_cooldown as u32,
        cooldown: cooldown as u32,
        respawn: respawn as u32,
        skill,
    })
}
