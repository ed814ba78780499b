//! Arena inputs aimed at the corners of the rules, one profile each.
//!
//! A profile is a recipe of sizes, obstacles, skills, strengths and timers. Every game is judged
//! by arbiter under the rule reading in force before it is kept: a backward that would reach
//! before the first round (which the statement promises never happens) has its `l` lowered
//! until the game is valid.

use arbiter_arena::game::PieceSpec;
use arbiter_arena::grid::Pos;
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::RunError;
use arbiter_arena::skill::{Skill, SkillKind};
use arbiter_arena::{JudgeError, judge};

use super::{ArenaCase, ArenaGame, ArenaProblem, ArenaProfile, ArenaSize, dir, team};
use crate::problem::Problem;
use crate::rng::Rng;

/// The input of one case of `profile`, the same for the same seed; `size` fixes T, N, M, K, R.
pub fn generate(
    profile: ArenaProfile,
    size: Option<ArenaSize>,
    rules: Rules,
    seed: u64,
) -> ArenaCase {
    let mut rng = Rng::new(seed);
    let profile = match profile {
        ArenaProfile::Mixed => {
            const DRAWN: [(ArenaProfile, u32); 7] = [
                (ArenaProfile::Small, 3),
                (ArenaProfile::Skills, 2),
                (ArenaProfile::Crowded, 2),
                (ArenaProfile::Ties, 2),
                (ArenaProfile::Knockback, 2),
                (ArenaProfile::Backward, 2),
                (ArenaProfile::Respawn, 2),
            ];
            DRAWN[rng.weighted(&DRAWN.map(|(_, w)| w)).unwrap_or(0)].0
        }
        profile => profile,
    };
    let recipe = Recipe::of(profile);
    let games = size.map_or_else(
        || rng.range(recipe.games.0.into(), recipe.games.1.into()) as u32,
        |s| s.games,
    );
    let games = (0..games).map(|_| valid_game(&recipe, size, rules, &mut rng)).collect();
    ArenaCase { games }
}

/// How strong the pieces are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// Any a ≤ 1000, often small.
    Any,
    /// a ≤ 6: fights kill, ties are common.
    Weak,
    /// Drawn from groups of equal (or nearly equal) binomials.
    Ties,
}

/// A profile's recipe. Ranges are inclusive.
#[derive(Debug, Clone, Copy)]
struct Recipe {
    games: (u32, u32),
    rows: (i32, i32),
    cols: (i32, i32),
    pieces: (u32, u32),
    rounds: (u32, u32),
    /// Percentage of obstacle cells.
    obstacles: u32,
    /// Weights of the skills, in `SkillKind::ALL` order.
    skills: [u32; 10],
    /// Whether the first ten pieces take the ten skills.
    every_skill: bool,
    strength: Strength,
    /// f, z and r.
    timers: (u32, u32),
    /// Pieces start on at most this many cells (0: anywhere).
    start_cells: usize,
}

const UNIFORM: [u32; 10] = [1; 10];

impl Recipe {
    fn of(profile: ArenaProfile) -> Recipe {
        let small = Recipe {
            games: (1, 3),
            rows: (1, 4),
            cols: (1, 4),
            pieces: (1, 6),
            rounds: (1, 12),
            obstacles: 15,
            skills: UNIFORM,
            every_skill: false,
            strength: Strength::Any,
            timers: (1, 4),
            start_cells: 0,
        };
        match profile {
            ArenaProfile::Mixed | ArenaProfile::Small => small,
            ArenaProfile::Skills => Recipe {
                games: (1, 2),
                rows: (3, 8),
                cols: (3, 8),
                pieces: (10, 20),
                rounds: (10, 40),
                obstacles: 10,
                every_skill: true,
                timers: (1, 5),
                ..small
            },
            ArenaProfile::Crowded => Recipe {
                rows: (1, 3),
                cols: (1, 3),
                pieces: (10, 40),
                rounds: (3, 15),
                obstacles: 5,
                start_cells: 3,
                ..small
            },
            ArenaProfile::Ties => Recipe {
                rows: (1, 2),
                cols: (1, 3),
                pieces: (17, 40),
                rounds: (2, 8),
                obstacles: 0,
                // toolihai, faceking, hupraise: nothing that changes a strength.
                skills: [4, 1, 0, 0, 0, 0, 0, 0, 0, 2],
                strength: Strength::Ties,
                start_cells: 2,
                ..small
            },
            ArenaProfile::Knockback => Recipe {
                rows: (3, 8),
                cols: (3, 8),
                pieces: (6, 16),
                rounds: (5, 20),
                obstacles: 20,
                skills: [1, 0, 0, 6, 0, 0, 0, 0, 0, 1],
                timers: (1, 3),
                ..small
            },
            ArenaProfile::Backward => Recipe {
                rows: (2, 6),
                cols: (2, 6),
                pieces: (4, 12),
                rounds: (10, 40),
                skills: [1, 1, 1, 1, 1, 1, 1, 0, 8, 1],
                timers: (1, 8),
                ..small
            },
            ArenaProfile::Respawn => Recipe {
                rows: (2, 5),
                cols: (2, 5),
                pieces: (6, 16),
                rounds: (8, 30),
                skills: [3, 2, 0, 1, 3, 5, 0, 2, 0, 1],
                strength: Strength::Weak,
                timers: (1, 3),
                ..small
            },
            ArenaProfile::Max => Recipe {
                games: (20, 20),
                rows: (100, 100),
                cols: (100, 100),
                pieces: (200, 200),
                rounds: (1000, 1000),
                obstacles: 10,
                timers: (1, 10),
                ..small
            },
        }
    }
}

/// Groups of (a, b) with equal binomials, and one pair that differs by less than the official
/// program's tolerance: C(974, 36) < C(229, 92).
const TIES: [&[(u32, u32)]; 6] = [
    &[(16, 2), (10, 3), (10, 7), (120, 1), (120, 119), (16, 14)],
    &[(21, 2), (10, 4), (10, 6), (210, 1), (21, 19)],
    &[(15, 5), (14, 6), (78, 2), (15, 10), (14, 8), (78, 76)],
    &[(974, 36), (229, 92), (974, 938), (229, 137)],
    &[(0, 0), (5, 0), (7, 7), (1000, 0), (1000, 1000)],
    &[(6, 3), (20, 1), (20, 19), (6, 3)],
];

/// A game of `recipe` that arbiter can judge under `rules`.
fn valid_game(recipe: &Recipe, size: Option<ArenaSize>, rules: Rules, rng: &mut Rng) -> ArenaGame {
    let mut game = game(recipe, size, rng);
    let problem = ArenaProblem::new(ArenaProfile::Mixed, None, rules);
    // Each failed judgement lowers the l of the backward that broke the guarantee, so this ends.
    for _ in 0..=game.pieces.len() * 64 {
        let case = ArenaCase { games: vec![game.clone()] };
        let mut text = Vec::new();
        problem.write_input(&case, &mut text);
        match judge(&String::from_utf8_lossy(&text), rules, |_| {}) {
            Err(JudgeError::Run {
                error: RunError::BackwardBeforeStart { round, piece, .. },
                ..
            }) => {
                let spec = &mut game.pieces[piece - 1];
                spec.skill = Skill::Backward { rounds: round.saturating_sub(1) };
            }
            _ => return game,
        }
    }
    game
}

fn game(recipe: &Recipe, size: Option<ArenaSize>, rng: &mut Rng) -> ArenaGame {
    let mut draw = |range: (i64, i64)| rng.range(range.0, range.1);
    let rows =
        size.map_or_else(|| draw((recipe.rows.0.into(), recipe.rows.1.into())) as i32, |s| s.rows);
    let cols =
        size.map_or_else(|| draw((recipe.cols.0.into(), recipe.cols.1.into())) as i32, |s| s.cols);
    let count = size.map_or_else(
        || draw((recipe.pieces.0.into(), recipe.pieces.1.into())) as u32,
        |s| s.pieces,
    );
    let rounds = size.map_or_else(
        || draw((recipe.rounds.0.into(), recipe.rounds.1.into())) as u32,
        |s| s.rounds,
    );
    let cells_count = (rows * cols) as usize;
    // Obstacles are any nonzero number: mostly 1, sometimes another.
    let mut cells: Vec<i64> = (0..cells_count)
        .map(|_| match rng.percent(recipe.obstacles) {
            false => 0,
            true if rng.percent(80) => 1,
            true => *rng.pick(&[2, 7, -1, 1_000_000]).unwrap_or(&1),
        })
        .collect();
    if cells.iter().all(|&c| c != 0) {
        let i = rng.below(cells_count);
        cells[i] = 0;
    }
    let free: Vec<usize> = (0..cells_count).filter(|&i| cells[i] == 0).collect();
    let starts: Vec<usize> = if recipe.start_cells > 0 {
        (0..recipe.start_cells).filter_map(|_| rng.pick(&free).copied()).collect()
    } else {
        free.clone()
    };
    let mut skills: Vec<SkillKind> = Vec::new();
    if recipe.every_skill {
        skills.extend(SkillKind::ALL);
        rng.shuffle(&mut skills);
    }
    let tie_groups: Vec<&[(u32, u32)]> = (0..2).filter_map(|_| rng.pick(&TIES).copied()).collect();
    let pieces = (0..count as usize)
        .map(|i| {
            let cell = *rng.pick(&starts).unwrap_or(&0);
            let pos = Pos::new(cell as i32 / cols + 1, cell as i32 % cols + 1);
            let (a, b) = strength(recipe.strength, &tie_groups, rng);
            let kind = match skills.get(i) {
                Some(&kind) => kind,
                None => SkillKind::ALL[rng.weighted(&recipe.skills).unwrap_or(0)],
            };
            let mut timer = || rng.range(recipe.timers.0.into(), recipe.timers.1.into()) as u32;
            let (first_cooldown, cooldown, respawn) = (timer(), timer(), timer());
            let skill = skill(kind, first_cooldown, rng);
            PieceSpec {
                pos,
                a,
                b,
                team: if i < 2 { team(i as u64) } else { team(rng.next_u64()) },
                dir: dir(rng.next_u64()),
                first_cooldown,
                cooldown,
                respawn,
                skill,
            }
        })
        .collect();
    ArenaGame { rows, cols, cells, pieces, rounds }
}

fn strength(strength: Strength, groups: &[&[(u32, u32)]], rng: &mut Rng) -> (u32, u32) {
    let any = |rng: &mut Rng, top: i64| {
        let a = rng.range(0, top) as u32;
        (a, rng.range(0, i64::from(a)) as u32)
    };
    match strength {
        Strength::Weak => any(rng, 6),
        Strength::Any if rng.percent(50) => any(rng, 30),
        Strength::Any => any(rng, 1000),
        Strength::Ties => match rng.pick(groups) {
            Some(group) if rng.percent(85) => *rng.pick(group).unwrap_or(&(1, 1)),
            _ => any(rng, 30),
        },
    }
}

/// A skill of `kind` with parameters drawn for it; backward's `l` stays below the first cast
/// round `first` (its first chance to be cast).
fn skill(kind: SkillKind, first: u32, rng: &mut Rng) -> Skill {
    let mut draw = |low: i64, high: i64| rng.range(low, high);
    let args: Vec<i64> = match kind {
        SkillKind::Onepunch => vec![draw(0, 1000), draw(1, 6)],
        SkillKind::Rabiribi => vec![draw(0, 6)],
        SkillKind::Firework => vec![draw(1, 6)],
        SkillKind::Dsaigao => vec![draw(0, 30), draw(0, 4), draw(1, 6)],
        SkillKind::Backward => vec![draw(0, i64::from(first) - 1)],
        _ => Vec::new(),
    };
    Skill::from_args(kind, &args).unwrap_or(Skill::Toolihai)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_arena::event::Event;

    fn text(case: &ArenaCase) -> String {
        let mut out = Vec::new();
        ArenaProblem::new(ArenaProfile::Mixed, None, Rules::official()).write_input(case, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// Every event kind seen over some cases of `profile`.
    fn events(profile: ArenaProfile, cases: u64) -> Vec<String> {
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..cases {
            let case = generate(profile, None, Rules::official(), seed);
            let text = text(&case);
            let mut scanner = arbiter_scan::Scanner::new(&text);
            let count = arbiter_arena::io::parse_count(&mut scanner).unwrap();
            for _ in 0..count {
                let game = arbiter_arena::io::parse_game(&mut scanner).unwrap();
                let _ = arbiter_arena::sim::play_with(
                    &game,
                    Rules::official(),
                    |_: u32, event: Event| {
                        let value = serde_json::to_value(&event).unwrap();
                        kinds.insert(value["kind"].as_str().unwrap_or("").to_owned());
                        if let Event::Knockback { from, to, .. } = event
                            && (from.row - to.row).abs() + (from.col - to.col).abs() > 1
                        {
                            kinds.insert("long knockback".to_owned());
                        }
                        if let Event::Matching { pairs, .. } = event
                            && pairs >= 3
                        {
                            kinds.insert("crowded matching".to_owned());
                        }
                        if let Event::Fight { red_strength: (a, b), blue_strength: (c, d), .. } =
                            event
                            && (a, b) != (c, d)
                            && arbiter_arena::strength::Strength::new(a, b)
                                .cmp(&arbiter_arena::strength::Strength::new(c, d))
                                == std::cmp::Ordering::Equal
                        {
                            kinds.insert("equal fight".to_owned());
                        }
                    },
                );
            }
        }
        kinds.into_iter().collect()
    }

    #[test]
    fn every_profile_gives_valid_deterministic_inputs() {
        for (profile, _, _) in ArenaProfile::ALL {
            if profile == ArenaProfile::Max {
                continue;
            }
            for seed in 0..10 {
                let case = generate(profile, None, Rules::official(), seed);
                assert_eq!(case, generate(profile, None, Rules::official(), seed));
                let text = text(&case);
                judge(&text, Rules::official(), |_| {}).unwrap();
                judge(&text, Rules::statement(), |_| {})
                    .unwrap_or_else(|e| panic!("{profile} {seed}: {e}"));
            }
        }
    }

    #[test]
    fn the_corners_happen() {
        let all = events(ArenaProfile::Skills, 6);
        for kind in [
            "cast",
            "skip",
            "boost",
            "boost_end",
            "knockback",
            "freeze",
            "wave",
            "silence",
            "backward",
            "matching",
            "fight",
            "death",
            "respawn",
            "turn",
            "move",
        ] {
            assert!(all.iter().any(|k| k == kind), "{kind}: {all:?}");
        }
        assert!(events(ArenaProfile::Knockback, 10).iter().any(|k| k == "long knockback"));
        assert!(events(ArenaProfile::Ties, 10).iter().any(|k| k == "equal fight"));
        assert!(events(ArenaProfile::Crowded, 10).iter().any(|k| k == "crowded matching"));
        assert!(events(ArenaProfile::Backward, 10).iter().any(|k| k == "backward"));
        let respawns = events(ArenaProfile::Respawn, 10);
        assert!(["death", "respawn"].iter().all(|kind| respawns.iter().any(|k| k == kind)));
    }

    #[test]
    fn sizes_are_obeyed() {
        let size = ArenaSize { games: 2, rows: 3, cols: 4, pieces: 5, rounds: 6 };
        let case = generate(ArenaProfile::Skills, Some(size), Rules::official(), 1);
        assert_eq!(case.games.len(), 2);
        assert!(
            case.games.iter().all(|g| (g.rows, g.cols, g.pieces.len(), g.rounds) == (3, 4, 5, 6))
        );
    }
}
