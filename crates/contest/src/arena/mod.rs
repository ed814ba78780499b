//! The skill arena (组合数问题) as a contest problem: games of pieces and skills, the official
//! program's answer under a rule reading, the events behind each answer line, and shrinking by
//! games, rounds, pieces, rows, columns, obstacles and numbers.
//!
//! ```
//! use arbiter_arena::rules::Rules;
//! use arbiter_contest::arena::{ArenaProblem, ArenaProfile};
//! use arbiter_contest::problem::Problem;
//!
//! let problem = ArenaProblem::new(ArenaProfile::Small, None, Rules::official());
//! let case = problem.generate(4);
//! assert_eq!(case, problem.generate(4));
//! let mut input = Vec::new();
//! problem.write_input(&case, &mut input);
//! assert!(problem.answer(std::str::from_utf8(&input).unwrap()).is_ok());
//! ```

mod explain;
mod generate;

use std::fmt;
use std::io::Write as _;
use std::str::FromStr;

use arbiter_arena::game::{PieceSpec, Team};
use arbiter_arena::grid::{Dir, Pos};
use arbiter_arena::rules::Rules;
use arbiter_arena::skill::Skill;

use crate::problem::{
    Explanation, InputError, Problem, UnknownProfile, profile_name, profile_named,
};
use crate::setup::Setup;
use crate::shrink::{Oracle, ddmin, lower, shortest_prefix};

pub use generate::generate;

/// One game as the input gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaGame {
    /// N.
    pub rows: i32,
    /// M.
    pub cols: i32,
    /// The map row by row: 0 is a free cell, any other number an obstacle.
    pub cells: Vec<i64>,
    /// The pieces, in input order.
    pub pieces: Vec<PieceSpec>,
    /// R.
    pub rounds: u32,
}

/// An arena input: its games (T is their number).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArenaCase {
    /// The games, in order.
    pub games: Vec<ArenaGame>,
}

/// Which corners of the rules the generated games aim at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArenaProfile {
    /// Each input drawn from one of the profiles below, except `max`.
    Mixed,
    /// Tiny games: a few pieces on a few cells for a few rounds.
    Small,
    /// Every one of the ten skills in every game.
    Skills,
    /// Many pieces on a few cells: fights of many against many.
    Crowded,
    /// Equal strengths (the same C(a, b) from different a, b) and near-ties, in crowded cells.
    Ties,
    /// rabiribi pushing pieces across the edge and over obstacles.
    Knockback,
    /// backward casters going back up to the first round.
    Backward,
    /// Deaths and respawns: weak pieces, short respawn times, viuganda, firework, faceking.
    Respawn,
    /// The largest input: T = 20, N = M = 100, K = 200, R = 1000.
    Max,
}

impl ArenaProfile {
    /// Every profile with its name and a one-line description, for help texts.
    pub const ALL: [(ArenaProfile, &'static str, &'static str); 9] = [
        (
            ArenaProfile::Mixed,
            "mixed",
            "each input from one of the profiles below except max (default)",
        ),
        (ArenaProfile::Small, "small", "tiny games: a few pieces on a few cells for a few rounds"),
        (ArenaProfile::Skills, "skills", "every one of the ten skills in every game"),
        (
            ArenaProfile::Crowded,
            "crowded",
            "many pieces on a few cells: fights of many against many",
        ),
        (
            ArenaProfile::Ties,
            "ties",
            "equal strengths from different a, b, and near-ties, in crowded cells",
        ),
        (
            ArenaProfile::Knockback,
            "knockback",
            "rabiribi pushing pieces across the edge and over obstacles",
        ),
        (ArenaProfile::Backward, "backward", "backward casters going back up to the first round"),
        (
            ArenaProfile::Respawn,
            "respawn",
            "deaths and respawns: weak pieces, viuganda, firework, faceking",
        ),
        (ArenaProfile::Max, "max", "the largest input: T = 20, N = M = 100, K = 200, R = 1000"),
    ];

    /// The profile's name.
    pub fn name(self) -> &'static str {
        profile_name(&ArenaProfile::ALL, self)
    }
}

impl FromStr for ArenaProfile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<ArenaProfile, UnknownProfile> {
        profile_named(&ArenaProfile::ALL, name)
    }
}

impl fmt::Display for ArenaProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The dimensions `--size` fixes: `T,N,M,K,R`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaSize {
    /// T.
    pub games: u32,
    /// N.
    pub rows: i32,
    /// M.
    pub cols: i32,
    /// K.
    pub pieces: u32,
    /// R.
    pub rounds: u32,
}

/// A `--size` that is not five numbers within the statement's limits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}`: expected T,N,M,K,R with 1 ≤ T ≤ 20, 1 ≤ N, M ≤ 100, 1 ≤ K ≤ 200, 1 ≤ R ≤ 1000")]
pub struct ParseSizeError(String);

impl FromStr for ArenaSize {
    type Err = ParseSizeError;

    fn from_str(text: &str) -> Result<ArenaSize, ParseSizeError> {
        let error = || ParseSizeError(text.to_owned());
        let numbers: Vec<i64> = text
            .split(',')
            .map(|n| n.trim().parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| error())?;
        let [t, n, m, k, r] = numbers[..] else { return Err(error()) };
        let within = (1..=20).contains(&t)
            && (1..=100).contains(&n)
            && (1..=100).contains(&m)
            && (1..=200).contains(&k)
            && (1..=1000).contains(&r);
        if !within {
            return Err(error());
        }
        Ok(ArenaSize {
            games: t as u32,
            rows: n as i32,
            cols: m as i32,
            pieces: k as u32,
            rounds: r as u32,
        })
    }
}

impl fmt::Display for ArenaSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{},{},{}", self.games, self.rows, self.cols, self.pieces, self.rounds)
    }
}

/// The skill arena for the contest tools: a profile, optionally fixed dimensions, and the rule
/// reading that answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaProblem {
    profile: ArenaProfile,
    size: Option<ArenaSize>,
    rules: Rules,
}

impl ArenaProblem {
    /// Inputs of `profile` (of dimensions `size`, if given), answered under `rules`.
    pub fn new(profile: ArenaProfile, size: Option<ArenaSize>, rules: Rules) -> ArenaProblem {
        ArenaProblem { profile, size, rules }
    }
}

/// The input code of a facing.
pub(crate) fn dir_code(dir: Dir) -> u8 {
    match dir {
        Dir::Up => 0,
        Dir::Down => 1,
        Dir::Left => 2,
        Dir::Right => 3,
    }
}

/// A skill's name and parameters as the input writes them.
pub(crate) fn skill_text(skill: Skill) -> String {
    let name = skill.kind().name();
    match skill {
        Skill::Onepunch { boost, rounds } => format!("{name} {boost} {rounds}"),
        Skill::Rabiribi { size } => format!("{name} {size}"),
        Skill::Firework { rounds } => format!("{name} {rounds}"),
        Skill::Dsaigao { distance, radius, rounds } => {
            format!("{name} {distance} {radius} {rounds}")
        }
        Skill::Backward { rounds } => format!("{name} {rounds}"),
        _ => name.to_owned(),
    }
}

impl Setup for ArenaProblem {
    type Profile = ArenaProfile;
    type Size = ArenaSize;
    type Options = Rules;

    const SIZE_NAME: &'static str = "T,N,M,K,R";
    const SIZE_HELP: &'static str = "Games, rows, columns, pieces and rounds of every game, e.g. 1,5,5,8,20 [default: per profile]";
    const PROFILES: &'static [(ArenaProfile, &'static str, &'static str)] = &ArenaProfile::ALL;

    fn choose(profile: ArenaProfile, size: Option<ArenaSize>, rules: &Rules) -> ArenaProblem {
        ArenaProblem::new(profile, size, *rules)
    }
}

impl Problem for ArenaProblem {
    type Case = ArenaCase;

    const NAME: &'static str = "arena";
    const UNIT: &'static str = "pieces";
    const MINIMAL: &'static str = "any one piece or the last round of any game";

    fn generate(&self, seed: u64) -> ArenaCase {
        generate(self.profile, self.size, self.rules, seed)
    }

    fn write_input(&self, case: &ArenaCase, out: &mut Vec<u8>) {
        let _ = writeln!(out, "{}", case.games.len());
        for game in &case.games {
            let _ =
                writeln!(out, "{} {} {} {}", game.rows, game.cols, game.pieces.len(), game.rounds);
            for row in game.cells.chunks(game.cols.max(1) as usize) {
                let line: Vec<String> = row.iter().map(i64::to_string).collect();
                let _ = writeln!(out, "{}", line.join(" "));
            }
            for p in &game.pieces {
                let _ = writeln!(
                    out,
                    "{} {} {} {} {} {} {} {} {} {}",
                    p.pos.row,
                    p.pos.col,
                    p.a,
                    p.b,
                    p.team.index(),
                    dir_code(p.dir),
                    p.first_cooldown,
                    p.cooldown,
                    p.respawn,
                    skill_text(p.skill)
                );
            }
        }
    }

    fn size(&self, case: &ArenaCase) -> usize {
        case.games.iter().map(|g| g.pieces.len()).sum()
    }

    fn answer(&self, input: &str) -> Result<String, InputError> {
        let mut out = String::new();
        match arbiter_arena::judge(input, self.rules, |text| out.push_str(text)) {
            Ok(_) => Ok(out),
            Err(error) => Err(InputError(error.to_string())),
        }
    }

    fn explain(&self, input: &str, line: usize) -> Result<Explanation, InputError> {
        explain::explain(input, line, self.rules)
    }

    fn is_answer_line(&self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        (1..=2).contains(&tokens.len()) && tokens.iter().all(|t| t.parse::<i64>().is_ok())
    }

    fn shrink(&self, case: ArenaCase, oracle: &mut dyn Oracle<ArenaCase>) -> ArenaCase {
        let mut case = case;
        // Each pass may let the next one remove more; the last pass changes nothing, so its
        // removal of pieces and rounds found nothing left to remove: the result is 1-minimal.
        loop {
            let before = case.clone();
            case.games = ddmin(case.games, |games| ArenaCase { games: games.to_vec() }, oracle);
            for g in 0..case.games.len() {
                shrink_game(&mut case, g, oracle);
            }
            if case == before {
                return case;
            }
        }
    }
}

/// `case` with game `g` replaced by `game`.
fn with_game(case: &ArenaCase, g: usize, game: ArenaGame) -> ArenaCase {
    let mut games = case.games.clone();
    games[g] = game;
    ArenaCase { games }
}

/// Shrinks game `g`: rounds, pieces, rows and columns, obstacles, numbers.
fn shrink_game(case: &mut ArenaCase, g: usize, oracle: &mut dyn Oracle<ArenaCase>) {
    // Rounds: the shortest failing R (an R of 0 is no game, which never fails).
    let game = case.games[g].clone();
    let rounds = shortest_prefix(
        game.rounds as usize,
        |r| with_game(case, g, ArenaGame { rounds: r as u32, ..game.clone() }),
        oracle,
    );
    case.games[g].rounds = rounds as u32;
    // Pieces.
    let game = case.games[g].clone();
    let pieces = ddmin(
        game.pieces.clone(),
        |pieces| with_game(case, g, ArenaGame { pieces: pieces.to_vec(), ..game.clone() }),
        oracle,
    );
    case.games[g].pieces = pieces;
    // Rows and columns without pieces, then obstacles.
    for columns in [false, true] {
        let game = case.games[g].clone();
        let side = if columns { game.cols } else { game.rows };
        let removable: Vec<i32> = (1..=side)
            .filter(|&i| {
                game.pieces.iter().all(|p| if columns { p.pos.col != i } else { p.pos.row != i })
            })
            .collect();
        let removed = ddmin_removal(
            &removable,
            |gone| with_game(case, g, without_lines(&game, gone, columns)),
            oracle,
        );
        case.games[g] = without_lines(&game, &removed, columns);
    }
    let game = case.games[g].clone();
    let obstacles: Vec<usize> = (0..game.cells.len()).filter(|&i| game.cells[i] != 0).collect();
    let freed = ddmin_removal(&obstacles, |gone| with_game(case, g, cleared(&game, gone)), oracle);
    case.games[g] = cleared(&game, &freed);
    shrink_numbers(case, g, oracle);
}

/// The largest set of `items` whose removal ddmin finds while the case fails: ddmin over the
/// items kept, so the items it could not remove are the ones that matter.
fn ddmin_removal<T: Clone + PartialEq>(
    items: &[T],
    build: impl Fn(&[T]) -> ArenaCase,
    oracle: &mut dyn Oracle<ArenaCase>,
) -> Vec<T> {
    let kept = ddmin(
        items.to_vec(),
        |kept| {
            let gone: Vec<T> = items.iter().filter(|i| !kept.contains(i)).cloned().collect();
            build(&gone)
        },
        oracle,
    );
    items.iter().filter(|i| !kept.contains(i)).cloned().collect()
}

/// `game` without the rows (or columns) numbered in `gone`; the pieces move up (or left).
fn without_lines(game: &ArenaGame, gone: &[i32], columns: bool) -> ArenaGame {
    let (rows, cols) = (game.rows, game.cols);
    let keep = |r: i32, c: i32| !gone.contains(&if columns { c } else { r });
    let cells: Vec<i64> = (1..=rows)
        .flat_map(|r| (1..=cols).map(move |c| (r, c)))
        .filter(|&(r, c)| keep(r, c))
        .map(|(r, c)| game.cells[((r - 1) * cols + (c - 1)) as usize])
        .collect();
    let shift = |i: i32| i - gone.iter().filter(|&&g| g < i).count() as i32;
    let pieces = game
        .pieces
        .iter()
        .map(|p| {
            let pos = if columns {
                Pos::new(p.pos.row, shift(p.pos.col))
            } else {
                Pos::new(shift(p.pos.row), p.pos.col)
            };
            PieceSpec { pos, ..*p }
        })
        .collect();
    let n = gone.len() as i32;
    let (rows, cols) = if columns { (rows, cols - n) } else { (rows - n, cols) };
    ArenaGame { rows, cols, cells, pieces, rounds: game.rounds }
}

/// `game` with the obstacles at the cell indices in `gone` made free.
fn cleared(game: &ArenaGame, gone: &[usize]) -> ArenaGame {
    let mut game = game.clone();
    for &i in gone {
        game.cells[i] = 0;
    }
    game
}

/// Lowers each number of each piece of game `g` while the case fails, and replaces skills by
/// toolihai (which does nothing) where that keeps it failing.
fn shrink_numbers(case: &mut ArenaCase, g: usize, oracle: &mut dyn Oracle<ArenaCase>) {
    for i in 0..case.games[g].pieces.len() {
        let piece = |case: &ArenaCase| case.games[g].pieces[i];
        let set = |case: &ArenaCase, spec: PieceSpec| {
            let mut game = case.games[g].clone();
            game.pieces[i] = spec;
            with_game(case, g, game)
        };
        if piece(case).skill != Skill::Toolihai {
            let simpler = set(case, PieceSpec { skill: Skill::Toolihai, ..piece(case) });
            if oracle.first_failing(std::slice::from_ref(&simpler)).is_some() {
                *case = simpler;
            }
        }
        let spec = piece(case);
        let b =
            lower(u64::from(spec.b), 0, |v| set(case, PieceSpec { b: v as u32, ..spec }), oracle);
        *case = set(case, PieceSpec { b: b as u32, ..spec });
        let spec = piece(case);
        let a = lower(
            u64::from(spec.a),
            u64::from(spec.b),
            |v| set(case, PieceSpec { a: v as u32, ..spec }),
            oracle,
        );
        *case = set(case, PieceSpec { a: a as u32, ..spec });
        for field in 0..3 {
            let spec = piece(case);
            let value = [spec.first_cooldown, spec.cooldown, spec.respawn][field];
            let with = |v: u64| {
                let mut s = spec;
                *[&mut s.first_cooldown, &mut s.cooldown, &mut s.respawn][field] = v as u32;
                s
            };
            let v = lower(u64::from(value), 1, |v| set(case, with(v)), oracle);
            *case = set(case, with(v));
        }
        let spec = piece(case);
        let kind = spec.skill.kind();
        for k in 0..kind.arity() {
            let spec = piece(case);
            let args = skill_args(spec.skill);
            let with = |v: u64| {
                let mut args = args.clone();
                args[k] = v as i64;
                Skill::from_args(kind, &args).map_or(spec, |skill| PieceSpec { skill, ..spec })
            };
            let v = lower(args[k] as u64, kind.minimum(k) as u64, |v| set(case, with(v)), oracle);
            *case = set(case, with(v));
        }
    }
}

/// A skill's parameters in input order.
pub(crate) fn skill_args(skill: Skill) -> Vec<i64> {
    match skill {
        Skill::Onepunch { boost, rounds } => vec![i64::from(boost), i64::from(rounds)],
        Skill::Rabiribi { size } => vec![i64::from(size)],
        Skill::Firework { rounds } | Skill::Backward { rounds } => vec![i64::from(rounds)],
        Skill::Dsaigao { distance, radius, rounds } => {
            vec![i64::from(distance), i64::from(radius), i64::from(rounds)]
        }
        _ => Vec::new(),
    }
}

/// The red and blue teams' input codes, for tests and generators.
pub(crate) fn team(code: u64) -> Team {
    if code.is_multiple_of(2) { Team::Red } else { Team::Blue }
}

/// The facing of an input code taken modulo 4.
pub(crate) fn dir(code: u64) -> Dir {
    [Dir::Up, Dir::Down, Dir::Left, Dir::Right][(code % 4) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(row: i32, col: i32) -> PieceSpec {
        PieceSpec {
            pos: Pos::new(row, col),
            a: 3,
            b: 1,
            team: Team::Red,
            dir: Dir::Right,
            first_cooldown: 1,
            cooldown: 1,
            respawn: 1,
            skill: Skill::Rabiribi { size: 2 },
        }
    }

    #[test]
    fn removing_lines_moves_the_pieces() {
        let game = ArenaGame {
            rows: 3,
            cols: 3,
            cells: vec![0, 1, 0, 0, 0, 2, 0, 0, 0],
            pieces: vec![piece(3, 3)],
            rounds: 4,
        };
        let smaller = without_lines(&game, &[1], false);
        assert_eq!((smaller.rows, smaller.cols, smaller.pieces[0].pos), (2, 3, Pos::new(2, 3)));
        assert_eq!(smaller.cells, [0, 0, 2, 0, 0, 0]);
        let narrower = without_lines(&game, &[1, 2], true);
        assert_eq!((narrower.cols, narrower.pieces[0].pos), (1, Pos::new(3, 1)));
        assert_eq!(narrower.cells, [0, 2, 0]);
    }

    #[test]
    fn input_text_reads_back() {
        let problem = ArenaProblem::new(ArenaProfile::Small, None, Rules::official());
        let text = |case: &ArenaCase| {
            let mut out = Vec::new();
            problem.write_input(case, &mut out);
            String::from_utf8(out).unwrap()
        };
        let case = ArenaCase {
            games: vec![ArenaGame {
                rows: 1,
                cols: 2,
                cells: vec![0, 0],
                pieces: vec![piece(1, 1)],
                rounds: 2,
            }],
        };
        assert_eq!(text(&case), "1\n1 2 1 2\n0 0\n1 1 3 1 0 3 1 1 1 rabiribi 2\n");
        assert_eq!(problem.answer(&text(&case)).unwrap(), "1 2\n");
    }

    #[test]
    fn sizes_read_and_refuse() {
        assert_eq!("2,3,4,5,6".parse::<ArenaSize>().unwrap().to_string(), "2,3,4,5,6");
        assert!("21,3,4,5,6".parse::<ArenaSize>().is_err());
        assert!("1,2,3".parse::<ArenaSize>().is_err());
    }

    #[test]
    fn answer_lines_are_one_or_two_integers() {
        let problem = ArenaProblem::new(ArenaProfile::Small, None, Rules::official());
        assert!(problem.is_answer_line("3") && problem.is_answer_line(" 1  2 "));
        assert!(
            !problem.is_answer_line("1 2 3")
                && !problem.is_answer_line("x")
                && !problem.is_answer_line("")
        );
    }
}
