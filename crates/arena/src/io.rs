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
//! Games are read one at a time ([`Games`]) so that a caller can play and print each before
//! reading the next: the output of the complete games stays when a later one is malformed. The
//! scanner may read a string or stream a reader in bounded chunks. Every guarantee of the
//! statement that the rules rely on is checked here, with the position of the token that
//! breaks it.

use arbiter_scan::{Found, Place, ScanError, Scanner, Source};

use crate::game::{Game, PieceSpec, Team, limits};
use crate::grid::{Dir, Grid, Pos};
use crate::skill::{Skill, SkillKind};

/// Reads T, the number of games.
pub fn parse_count<S: Source>(input: &mut Scanner<'_, S>) -> Result<usize, ScanError> {
    let count = input.int_in(1, limits::GAMES, "the number of games T (1..=20)")?;
    Ok(count as usize)
}

/// Reads one game.
pub fn parse_game<S: Source>(input: &mut Scanner<'_, S>) -> Result<Game, ScanError> {
    read_game(input, &mut Vec::new())
}

/// Reads one game, noting in `skills` where each piece's skill is written.
fn read_game<S: Source>(
    input: &mut Scanner<'_, S>,
    skills: &mut Vec<Place>,
) -> Result<Game, ScanError> {
    skills.clear();
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
        pieces.push(parse_piece(input, &grid, i, skills)?);
    }
    Game::new(grid, pieces, rounds).map_err(|e| input.error_here(e.to_string()))
}

/// The next token as an integer in `min..=max`, like [`Scanner::int_in`], with the message
/// built only for an error: a piece has a dozen numbers and the messages name the piece.
fn int_in<S: Source>(
    input: &mut Scanner<'_, S>,
    min: i64,
    max: i64,
    expected: impl FnOnce() -> String,
) -> Result<i64, ScanError> {
    match input.try_int_in(min, max) {
        Some(value) => Ok(value),
        None => Err(input.error_here(expected())),
    }
}

fn parse_piece<S: Source>(
    input: &mut Scanner<'_, S>,
    grid: &Grid,
    i: i64,
    skills: &mut Vec<Place>,
) -> Result<PieceSpec, ScanError> {
    // An obstacle is reported at the row, the piece's first number.
    let start = input.place();
    let row = int_in(input, 1, i64::from(grid.rows()), || format!("the row of piece {i} (1..=N)"))?;
    let col =
        int_in(input, 1, i64::from(grid.cols()), || format!("the column of piece {i} (1..=M)"))?;
    let pos = Pos::new(row as i32, col as i32);
    if grid.is_blocked(pos) {
        return Err(ScanError {
            place: start,
            expected: format!("a free cell for piece {i}, not an obstacle"),
            found: Found::token(&row.to_string()),
        });
    }
    let a = int_in(input, 0, limits::ATTRIBUTE, || format!("a of piece {i} (0..=1000)"))?;
    let b = int_in(input, 0, a, || format!("b of piece {i} (0..=a)"))?;
    let team = int_in(input, 0, 1, || format!("the team of piece {i} (0 red, 1 blue)"))?;
    let dir = int_in(input, 0, 3, || format!("the facing of piece {i} (0..=3)"))?;
    let timer = |input: &mut Scanner<'_, S>, what: &str| {
        int_in(input, 1, limits::TIMER, || format!("{what} of piece {i} (1..={})", limits::TIMER))
    };
    let first_cooldown = timer(input, "f")?;
    let cooldown = timer(input, "z")?;
    let respawn = timer(input, "r")?;
    let expected = || {
        let names = SkillKind::ALL.map(SkillKind::name).join(", ");
        format!("a skill name ({names})")
    };
    skills.push(input.place());
    let kind: SkillKind = match input.take_if(|text| text.parse().ok()) {
        Some(kind) => kind,
        None => return Err(input.error_here(expected())),
    };
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

/// The games of an input, read one at a time after the count T.
#[derive(Debug)]
pub struct Games<'a, S = arbiter_scan::Text<'a>> {
    input: Scanner<'a, S>,
    count: usize,
    count_place: Place,
    read: usize,
    failed: bool,
    skills: Vec<Place>,
}

impl<'a, S: Source> Games<'a, S> {
    /// Reads the count T.
    pub fn new(mut input: Scanner<'a, S>) -> Result<Games<'a, S>, ScanError> {
        let count_place = input.place();
        let count = parse_count(&mut input)?;
        Ok(Games { input, count, count_place, read: 0, failed: false, skills: Vec::new() })
    }

    /// T, the number of games announced.
    pub fn announced(&self) -> usize {
        self.count
    }

    /// Where T is written.
    pub fn count_place(&self) -> Place {
        self.count_place
    }

    /// Where each piece's skill is written in the last game read, in piece order.
    pub fn skill_places(&self) -> &[Place] {
        &self.skills
    }

    /// Where content after the last game starts, if there is any. Meaningful once every game
    /// has been read; reads on to the first token or the end of the input.
    pub fn trailing(&mut self) -> Option<Place> {
        if self.input.at_end() { None } else { Some(self.input.place()) }
    }
}

/// Each game with its number (from 1), until T games are read or one is malformed.
impl<S: Source> Iterator for Games<'_, S> {
    type Item = Result<(usize, Game), ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.read == self.count {
            return None;
        }
        self.read += 1;
        let game = read_game(&mut self.input, &mut self.skills);
        self.failed = game.is_err();
        Some(game.map(|game| (self.read, game)))
    }
}
