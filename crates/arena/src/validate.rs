//! The strict validator of the official input, for problem setters, and the corners of the rules
//! a set of inputs reaches.
//!
//! The judge ([`crate::io`]) reads any whitespace. A test file must be stricter: each line of
//! the statement's format on a line of its own, one space between numbers, a line feed after
//! each line, nothing else, and every limit of the statement ([`limits`], [`Grid::MAX_SIDE`],
//! each skill's parameters as [`SkillKind::minimum`] and [`SkillKind::maximum`] give them): map
//! cells 0 or 1, pieces on free cells, a ≥ b, and no backward reaching before the first round,
//! which only playing the game tells.
//!
//! ```
//! use arbiter_arena::validate::validate;
//!
//! let input = b"1\n1 2 1 1\n0 1\n1 1 5 2 0 3 1 1 1 onepunch 1001 1\n";
//! let error = validate(input).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "4:28: expected v (the boost) of onepunch (piece 1) \u{2264} 1000, found 1001"
//! );
//! ```

use arbiter_scan::{Invalid, Shown, Strict};

use crate::event::Event;
use crate::float_ties::readings_differ;
use crate::game::{Game, PieceSpec, Team, limits};
use crate::grid::{Dir, Grid, Pos};
use crate::outcome::RunError;
use crate::rules::Rules;
use crate::sim::{play, play_with};
use crate::skill::{Skill, SkillKind};
use crate::strength::Strength;

/// Reads `input` strictly and returns its games, or where it breaks the format or a limit.
pub fn validate(input: &[u8]) -> Result<Vec<Game>, Invalid> {
    let mut reader = Strict::new(input);
    let count = reader.int_in(1, limits::GAMES, "T")?;
    reader.eoln()?;
    let mut games = Vec::with_capacity(count as usize);
    for number in 1..=count {
        let mut skills = Vec::new();
        let game = read_game(&mut reader, number, &mut skills)?;
        // The one guarantee that only playing tells: no backward before the first round.
        if let Err(RunError::BackwardBeforeStart { round, piece, rounds }) =
            play(&game, Rules::official())
        {
            let offset = skills.get(piece.wrapping_sub(1)).copied().unwrap_or(0);
            return Err(reader.error_at(
                offset,
                format!("a backward that stays within the game (game {number}, piece {piece})"),
                format!("backward {rounds} cast at round {round}"),
            ));
        }
        games.push(game);
    }
    reader.eof()?;
    Ok(games)
}

/// Reads game `number`, noting in `skills` the offset of each piece's skill name.
fn read_game(
    reader: &mut Strict<'_>,
    number: i64,
    skills: &mut Vec<usize>,
) -> Result<Game, Invalid> {
    let start = reader.offset();
    let rows = reader.int_in(1, Grid::MAX_SIDE, "N")?;
    reader.space()?;
    let cols = reader.int_in(1, Grid::MAX_SIDE, "M")?;
    reader.space()?;
    let count = reader.int_in(1, limits::PIECES, "K")?;
    reader.space()?;
    let rounds = reader.int_in(1, limits::ROUNDS, "R")?;
    reader.eoln()?;
    let mut cells = Vec::with_capacity((rows * cols) as usize);
    for row in 1..=rows {
        for col in 1..=cols {
            if col > 1 {
                reader.space()?;
            }
            cells.push(reader.int_in(0, 1, &format!("the map cell ({row}, {col})"))? != 0);
        }
        reader.eoln()?;
    }
    let grid = Grid::new(rows, cols, cells)
        .map_err(|error| reader.error_at(start, "a board", error.to_string()))?;
    let mut pieces = Vec::with_capacity(count as usize);
    for i in 1..=count {
        pieces.push(read_piece(reader, &grid, i, skills)?);
    }
    Game::new(grid, pieces, rounds)
        .map_err(|error| reader.error_at(start, format!("game {number}"), error.to_string()))
}

/// Reads the line of piece `i`.
fn read_piece(
    reader: &mut Strict<'_>,
    grid: &Grid,
    i: i64,
    skills: &mut Vec<usize>,
) -> Result<PieceSpec, Invalid> {
    let start = reader.offset();
    let row = reader.int_in(1, i64::from(grid.rows()), &format!("x of piece {i}"))?;
    reader.space()?;
    let col = reader.int_in(1, i64::from(grid.cols()), &format!("y of piece {i}"))?;
    reader.space()?;
    let pos = Pos::new(row as i32, col as i32);
    if grid.is_blocked(pos) {
        return Err(reader.error_at(
            start,
            format!("a free cell for piece {i}"),
            format!("an obstacle at ({row}, {col})"),
        ));
    }
    let a = reader.int_in(0, limits::ATTRIBUTE, &format!("a of piece {i}"))?;
    reader.space()?;
    let b_start = reader.offset();
    let b = reader.int_in(0, limits::ATTRIBUTE, &format!("b of piece {i}"))?;
    if b > a {
        return Err(reader.error_at(b_start, format!("b ≤ a = {a} (piece {i})"), b.to_string()));
    }
    reader.space()?;
    let team = reader.int_in(0, 1, &format!("c of piece {i}"))?;
    reader.space()?;
    let dir = reader.int_in(0, 3, &format!("d of piece {i}"))?;
    let mut timers = [0u32; 3];
    for (timer, name) in timers.iter_mut().zip(["f", "z", "r"]) {
        reader.space()?;
        *timer = reader.int_in(1, limits::TIMER, &format!("{name} of piece {i}"))? as u32;
    }
    reader.space()?;
    let names = SkillKind::ALL.map(SkillKind::name).join(", ");
    let skill_start = reader.offset();
    skills.push(skill_start);
    let name = reader.token(&format!("a skill name ({names})"))?;
    let Ok(kind) = name.parse::<SkillKind>() else {
        return Err(reader.error_at(
            skill_start,
            format!("a skill name ({names})"),
            format!("`{}`", Shown(name)),
        ));
    };
    let mut args = [0i64; 3];
    for (k, what) in kind.parameters().iter().enumerate() {
        reader.space()?;
        let (min, max) = (kind.minimum(k), kind.maximum(k));
        args[k] = reader.int_in(min, max, &format!("{what} of {kind} (piece {i})"))?;
    }
    reader.eoln()?;
    let skill = Skill::from_args(kind, &args[..kind.arity()]).ok_or_else(|| {
        reader.error_at(skill_start, format!("parameters of {kind}"), format!("`{}`", Shown(name)))
    })?;
    Ok(PieceSpec {
        pos,
        a: a as u32,
        b: b as u32,
        team: Team::from_code(team).unwrap_or(Team::Red),
        dir: Dir::from_code(dir).unwrap_or(Dir::Up),
        first_cooldown: timers[0],
        cooldown: timers[1],
        respawn: timers[2],
        skill,
    })
}

/// The limits at their extremes and the corners of the rules that [`corners`] looks for, in the
/// order of its answer.
pub const CORNERS: [&str; 35] = [
    "T = 20",
    "N = 1",
    "N = 100",
    "M = 1",
    "M = 100",
    "K = 1",
    "K = 200",
    "R = 1",
    "R = 1000",
    "a = 0",
    "a = 1000",
    "b = a",
    "pieces sharing a start cell",
    "cast: toolihai",
    "cast: faceking",
    "cast: onepunch",
    "cast: rabiribi",
    "cast: firework",
    "cast: viuganda",
    "cast: 2dsaigao",
    "cast: gugugugu",
    "cast: backward",
    "cast: hupraise",
    "fight",
    "both fighters die",
    "equal strengths from different (a, b)",
    "death",
    "respawn",
    "respawn by viuganda",
    "backward to round 1",
    "knockback over an obstacle or the edge",
    "boost expired",
    "freeze",
    "silence",
    "near-tie: float-ties decides otherwise",
];

/// Which of [`CORNERS`] the valid `games` reach, played under the official rules.
pub fn corners(games: &[Game]) -> [bool; CORNERS.len()] {
    let mut reached = [false; CORNERS.len()];
    let mut mark = |name: &str| {
        if let Some(i) = CORNERS.iter().position(|&corner| corner == name) {
            reached[i] = true;
        }
    };
    if games.len() as i64 == limits::GAMES {
        mark("T = 20");
    }
    for game in games {
        let grid = game.grid();
        let side = |value: i32, name: &str, mark: &mut dyn FnMut(&str)| {
            if value == 1 {
                mark(&format!("{name} = 1"));
            }
            if i64::from(value) == Grid::MAX_SIDE {
                mark(&format!("{name} = {}", Grid::MAX_SIDE));
            }
        };
        side(grid.rows(), "N", &mut mark);
        side(grid.cols(), "M", &mut mark);
        let pieces = game.pieces();
        if pieces.len() == 1 {
            mark("K = 1");
        }
        if pieces.len() as i64 == limits::PIECES {
            mark("K = 200");
        }
        if game.rounds() == 1 {
            mark("R = 1");
        }
        if i64::from(game.rounds()) == limits::ROUNDS {
            mark("R = 1000");
        }
        for (k, piece) in pieces.iter().enumerate() {
            if piece.a == 0 {
                mark("a = 0");
            }
            if i64::from(piece.a) == limits::ATTRIBUTE {
                mark("a = 1000");
            }
            if piece.b == piece.a {
                mark("b = a");
            }
            if pieces[..k].iter().any(|other| other.pos == piece.pos) {
                mark("pieces sharing a start cell");
            }
        }
        let mut sink = |_round: u32, event: Event| match event {
            Event::Cast { skill, .. } => mark(&format!("cast: {skill}")),
            Event::Fight { red_strength, blue_strength, loser, .. } => {
                mark("fight");
                let red = Strength::new(red_strength.0, red_strength.1);
                let blue = Strength::new(blue_strength.0, blue_strength.1);
                if readings_differ(red, blue) {
                    mark("near-tie: float-ties decides otherwise");
                }
                if loser.is_none() {
                    mark("both fighters die");
                    if red_strength != blue_strength {
                        mark("equal strengths from different (a, b)");
                    }
                }
            }
            Event::Death { .. } => mark("death"),
            Event::Respawn { by, .. } => {
                mark("respawn");
                if by.is_some() {
                    mark("respawn by viuganda");
                }
            }
            Event::Backward { to_round: 1, .. } => mark("backward to round 1"),
            Event::Knockback { from, to, .. }
                if from.row.abs_diff(to.row) + from.col.abs_diff(to.col) > 1 =>
            {
                mark("knockback over an obstacle or the edge");
            }
            Event::BoostEnd { .. } => mark("boost expired"),
            Event::Freeze { .. } => mark("freeze"),
            Event::Silence { .. } => mark("silence"),
            _ => {}
        };
        // A game that breaks a guarantee has been rejected by `validate`.
        let _ = play_with(game, Rules::official(), &mut sink);
    }
    reached
}
