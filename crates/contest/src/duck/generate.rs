//! Duck Chess inputs aimed at the corners of the rules, one profile each.
//!
//! Every generator plays a real game with arbiter's rules (`arbiter_duck::Game`) and writes down
//! the commands it tries, valid or not, steering the game towards its corner with simple move
//! preferences. Which moves a piece has, which points block it and which pieces attack a captain
//! all come from the movement table (`arbiter_duck::movement`), never from a copy of a rule.

use arbiter_duck::movement::{self, Movement, Reach};
use arbiter_duck::{Board, Color, Game, Move, Piece, Role, Square};

use super::{Command, DuckProfile};
use crate::rng::Rng;

/// The commands of one input of `profile`, the same for the same seed; `size` is Q (for
/// profiles whose games end, the most commands).
pub fn generate(profile: DuckProfile, size: Option<usize>, seed: u64) -> Vec<Command> {
    let mut commands = Vec::new();
    generate_each(profile, size, seed, &mut |command| commands.push(command));
    commands
}

/// What a seed decides before the first command: the profile (drawn for `mixed`), the limit on
/// the number of commands, and the draws still to come.
struct Plan {
    profile: DuckProfile,
    limit: usize,
    rng: Rng,
}

impl Plan {
    fn new(profile: DuckProfile, size: Option<usize>, seed: u64) -> Plan {
        let mut rng = Rng::new(seed);
        let profile = match profile {
            DuckProfile::Mixed => {
                // Weights: the small corner profiles most of the time, an official-size game now
                // and then.
                const DRAWN: [(DuckProfile, u32); 7] = [
                    (DuckProfile::Short, 4),
                    (DuckProfile::Checks, 4),
                    (DuckProfile::Captains, 2),
                    (DuckProfile::Blocked, 4),
                    (DuckProfile::Invalid, 3),
                    (DuckProfile::Official, 1),
                    (DuckProfile::Long, 1),
                ];
                let weights = DRAWN.map(|(_, w)| w);
                let i = rng.weighted(&weights).unwrap_or(0);
                DRAWN[i].0
            }
            profile => profile,
        };
        let mut limit = |low: usize, high: usize| {
            size.unwrap_or_else(|| rng.range(low as i64, high as i64) as usize)
        };
        let limit = match profile {
            DuckProfile::Official | DuckProfile::Long => size.unwrap_or(1000),
            DuckProfile::Short => limit(8, 60),
            DuckProfile::Checks | DuckProfile::Captains => limit(20, 120),
            DuckProfile::Blocked => limit(10, 80),
            DuckProfile::Invalid | DuckProfile::OffBoard | DuckProfile::Mixed => limit(10, 60),
        };
        Plan { profile, limit, rng }
    }
}

/// Q of the input for `seed` when it is known before generating: `official` and `long` write
/// commands up to their limit whatever happens in the game; the others stop when it ends.
pub fn known_count(profile: DuckProfile, size: Option<usize>, seed: u64) -> Option<usize> {
    let plan = Plan::new(profile, size, seed);
    matches!(plan.profile, DuckProfile::Official | DuckProfile::Long).then_some(plan.limit)
}

/// [`generate`], handing each command to `each` as it is made instead of keeping them: a long
/// input costs constant memory.
pub fn generate_each(
    profile: DuckProfile,
    size: Option<usize>,
    seed: u64,
    each: &mut dyn FnMut(Command),
) {
    let Plan { profile, limit, rng } = Plan::new(profile, size, seed);
    let mut walk = Walk { game: Game::new(), each, made: 0, limit, rng };
    match profile {
        DuckProfile::Short => short(&mut walk, limit),
        DuckProfile::Checks => checks(&mut walk, limit),
        DuckProfile::Captains => captains(&mut walk, limit),
        DuckProfile::Blocked => blocked(&mut walk, limit),
        DuckProfile::Invalid => invalid(&mut walk, limit),
        DuckProfile::Official => official(&mut walk, limit),
        DuckProfile::Long => long(&mut walk, limit),
        DuckProfile::OffBoard | DuckProfile::Mixed => off_board(&mut walk, limit),
    }
}

/// A game being played and the commands written so far.
struct Walk<'a> {
    game: Game,
    /// Takes each command written, up to the limit.
    each: &'a mut dyn FnMut(Command),
    /// Commands made so far, past the limit too: a profile may overshoot it by a few, which are
    /// dropped.
    made: usize,
    limit: usize,
    rng: Rng,
}

impl Walk<'_> {
    fn full(&self, limit: usize) -> bool {
        self.made >= limit
    }

    fn over(&self) -> bool {
        self.game.winner().is_some()
    }

    /// The valid moves of the side to move, sorted: which one a draw picks must not depend on
    /// the order move generation happens to list them in.
    fn moves(&self) -> Vec<Move> {
        let mut moves = self.game.legal_moves().to_vec();
        moves.sort_unstable();
        moves
    }

    /// Writes a command and plays it (an invalid one changes nothing).
    fn push(&mut self, command: Command) {
        let _ = self.game.play_coords(command.from(), command.to());
        self.made += 1;
        if self.made <= self.limit {
            (self.each)(command);
        }
    }

    fn play(&mut self, mv: Move) {
        self.push(command(mv.from, mv.to));
    }

    /// A command between two random points of the board.
    fn random_command(&mut self) -> Command {
        let from = self.random_square();
        let to = self.random_square();
        command(from, to)
    }

    fn random_square(&mut self) -> Square {
        Square::from_index(self.rng.below(Square::COUNT)).unwrap_or(CORNER)
    }

    /// Plays one of `moves`: with probability `greed`% one of those with the highest score, else
    /// any. Nothing when `moves` is empty.
    fn play_by(&mut self, moves: &[Move], greed: u32, score: impl Fn(&Game, Move) -> i32) {
        let Some(mv) = self.choose(moves, greed, score) else {
            return;
        };
        self.play(mv);
    }

    fn choose(
        &mut self,
        moves: &[Move],
        greed: u32,
        score: impl Fn(&Game, Move) -> i32,
    ) -> Option<Move> {
        if moves.is_empty() {
            return None;
        }
        if !self.rng.percent(greed) {
            return self.rng.pick(moves).copied();
        }
        let scores: Vec<i32> = moves.iter().map(|&mv| score(&self.game, mv)).collect();
        let best = scores.iter().copied().max()?;
        let top: Vec<Move> =
            moves.iter().zip(&scores).filter(|&(_, &s)| s == best).map(|(&mv, _)| mv).collect();
        self.rng.pick(&top).copied()
    }

    /// A few commands after the game has ended: moves of the side to move that would be valid
    /// if the game went on, and random ones.
    fn after_the_end(&mut self, limit: usize) {
        let extra = self.rng.range(1, 4) as usize;
        for _ in 0..extra {
            if self.full(limit) {
                return;
            }
            let moves = pattern_moves(self.game.board(), self.game.turn());
            match self.rng.pick(&moves).copied() {
                Some(mv) if self.rng.percent(75) => self.play(mv),
                _ => {
                    let command = self.random_command();
                    self.push(command);
                }
            }
        }
    }
}

/// Red's corner, (0,0).
const CORNER: Square = match Square::new(0, 0) {
    Some(square) => square,
    None => panic!("the board has a corner"),
};

fn command(from: Square, to: Square) -> Command {
    let c = |v: u8| i128::from(v);
    Command([c(from.row()), c(from.col()), c(to.row()), c(to.col())])
}

fn distance(a: Square, b: Square) -> i32 {
    (i32::from(a.row()) - i32::from(b.row())).abs()
        + (i32::from(a.col()) - i32::from(b.col())).abs()
}

/// The moves `color`'s pieces could make by their patterns, whoever is to move and whether or not
/// the game is over, sorted.
fn pattern_moves(board: &Board, color: Color) -> Vec<Move> {
    let mut moves = Vec::new();
    for from in board.by_color(color) {
        for to in board.moves_from(from) {
            moves.push(Move { from, to });
        }
    }
    moves.sort_unstable();
    moves
}

/// Whether `mv` captures a captain and so ends the game.
fn captures_captain(game: &Game, mv: Move) -> bool {
    game.board().piece_at(mv.to).is_some_and(|p| p.role == Role::Captain)
}

/// Whether a piece of `color` (of `role`, if given) can capture the other side's captain.
fn attacks_captain(board: &Board, color: Color, role: Option<Role>) -> bool {
    let Some(captain) = board.captain(!color) else {
        return false;
    };
    let pieces = match role {
        Some(role) => board.by_piece(Piece::new(color, role)),
        None => board.by_color(color),
    };
    pieces.into_iter().any(|from| board.moves_from(from).contains(captain))
}

/// Whether a piece of `color` stands where its pattern would reach the other captain but a
/// point in between is occupied.
fn blocked_attack(board: &Board, color: Color) -> bool {
    let Some(captain) = board.captain(!color) else {
        return false;
    };
    board.by_color(color).into_iter().any(|from| {
        board.piece_at(from).is_some_and(|piece| {
            matches!(
                movement::reach(piece.role, from, captain, board.occupied()),
                Reach::Blocked(_)
            )
        })
    })
}

/// A crude value of a piece, to prefer some captures to others.
fn value(role: Role) -> i32 {
    match role {
        Role::Captain => 1000,
        Role::Car => 9,
        Role::Duck | Role::Horse => 5,
        Role::Elephant | Role::Guard => 3,
        Role::Soldier => 2,
    }
}

/// The board after `mv` (valid for the side to move), without the rest of a game's bookkeeping.
fn board_after(board: &Board, mv: Move) -> Board {
    let mut next = board.clone();
    if let Some(piece) = next.remove(mv.from) {
        next.put(mv.to, piece);
    }
    next
}

/// Moves of an aggressive player: capture the captain, give check, capture, come closer.
fn aggressive(game: &Game, mv: Move) -> i32 {
    let mover = game.turn();
    let board = game.board();
    let (Some(captain), target) = (board.captain(!mover), board.piece_at(mv.to)) else {
        return 0;
    };
    if target.is_some_and(|t| t.role == Role::Captain) {
        return 10_000;
    }
    let mut score = target.map_or(0, |t| 30 + value(t.role));
    if board_after(board, mv).attacked(captain, mover) {
        score += 100;
    }
    score - distance(mv.to, captain)
}

/// Short aggressive games that end early, and commands after the end.
fn short(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) && !walk.over() {
        if walk.rng.percent(10) {
            let command = walk.random_command();
            walk.push(command);
            continue;
        }
        let moves = walk.moves();
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
            continue;
        }
        walk.play_by(&moves, 85, aggressive);
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

/// Checks by one kind of piece of one side, the other side playing at random.
fn checks(walk: &mut Walk, limit: usize) {
    let role = *walk.rng.pick(&Role::ALL).unwrap_or(&Role::Horse);
    let attacker = if walk.rng.percent(50) { Color::Red } else { Color::Blue };
    let mut given = 0;
    let mut extra = 0;
    while !walk.full(limit) && !walk.over() {
        if given >= 2 && extra == 0 {
            break;
        }
        if given > 0 {
            extra -= 1;
        }
        let moves = walk.moves();
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
            continue;
        }
        if walk.game.turn() != attacker {
            // Leaving a check unanswered keeps it a check for the other side: captures of the
            // captain are avoided most of the time so that the game goes on.
            walk.play_by(&moves, 70, |game, mv| if captures_captain(game, mv) { -1 } else { 0 });
            continue;
        }
        walk.play_by(&moves, 90, |game, mv| {
            if captures_captain(game, mv) {
                return -1000;
            }
            if attacks_captain(&board_after(game.board(), mv), attacker, Some(role)) {
                return 1000;
            }
            match (game.board().piece_at(mv.from), game.board().captain(!attacker)) {
                (Some(piece), Some(captain)) if piece.role == role => {
                    let near = movement::sources(role, captain)
                        .into_iter()
                        .map(|s| distance(mv.to, s))
                        .min()
                        .unwrap_or(20);
                    100 - near
                }
                _ => 0,
            }
        });
        if attacks_captain(walk.game.board(), attacker, Some(role)) {
            given += 1;
            extra = walk.rng.range(1, 6) as i32;
        }
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

/// Captains walking out towards each other.
fn captains(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) && !walk.over() {
        let moves = walk.moves();
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
            continue;
        }
        let captain_moves: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| {
                walk.game.board().piece_at(mv.from).is_some_and(|p| p.role == Role::Captain)
            })
            .collect();
        if !captain_moves.is_empty() && walk.rng.percent(70) {
            walk.play_by(&captain_moves, 80, |game, mv| {
                game.board().captain(!game.turn()).map_or(0, |enemy| -distance(mv.to, enemy))
            });
        } else {
            walk.play_by(&moves, 0, |_, _| 0);
        }
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

/// A command of the side to move that follows a piece's pattern but is blocked: a leg, an eye,
/// a duck point (the second one preferred, as it is the one most often forgotten), a car's path.
fn blocked_command(walk: &mut Walk) -> Option<Command> {
    let board = walk.game.board();
    let turn = walk.game.turn();
    let occupied = board.occupied();
    let mut found: Vec<(Command, u32)> = Vec::new();
    for from in board.by_color(turn) {
        let Some(piece) = board.piece_at(from) else { continue };
        match piece.role.movement() {
            Movement::Leaps(leaps) => {
                for leap in leaps {
                    let Some(to) = from.offset(leap.to.rows, leap.to.cols) else { continue };
                    if board.by_color(turn).contains(to) {
                        continue;
                    }
                    let points: Vec<Option<Square>> =
                        leap.blockers.iter().map(|d| from.offset(d.rows, d.cols)).collect();
                    let Some(first_blocked) =
                        points.iter().position(|p| p.is_some_and(|p| occupied.contains(p)))
                    else {
                        continue;
                    };
                    // The last point blocked with the earlier ones free: the duck's second point.
                    let weight = if first_blocked > 0 { 6 } else { 3 };
                    found.push((command(from, to), weight));
                }
            }
            Movement::Slides(_) => {
                for to in movement::targets(piece.role, from, arbiter_duck::Bitboard::EMPTY) {
                    if !board.by_color(turn).contains(to)
                        && matches!(
                            movement::reach(piece.role, from, to, occupied),
                            Reach::Blocked(_)
                        )
                    {
                        found.push((command(from, to), 1));
                    }
                }
            }
        }
    }
    // In a fixed order, whatever order the movement table lists the leaps in.
    found.sort_unstable();
    let weights: Vec<u32> = found.iter().map(|&(_, w)| w).collect();
    walk.rng.weighted(&weights).map(|i| found[i].0)
}

/// Blocked moves, and attacks on a captain blocked by a leg, an eye or a duck point.
fn blocked(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) && !walk.over() {
        let roll = walk.rng.below(100);
        if roll < 35
            && let Some(command) = blocked_command(walk)
        {
            walk.push(command);
            continue;
        }
        let moves = walk.moves();
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
            continue;
        }
        if roll < 60 {
            let mover = walk.game.turn();
            walk.play_by(&moves, 80, |game, mv| {
                if captures_captain(game, mv) {
                    -100
                } else {
                    let next = board_after(game.board(), mv);
                    i32::from(blocked_attack(&next, mover)) * 10
                        + i32::from(attacks_captain(&next, mover, None))
                }
            });
        } else {
            // Leapers more often than not: they are the pieces that can be blocked.
            walk.play_by(&moves, 60, |game, mv| {
                let role = game.board().piece_at(mv.from).map(|p| p.role);
                i32::from(matches!(role, Some(Role::Duck | Role::Horse | Role::Elephant)))
            });
        }
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

/// Invalid commands of every kind between valid moves.
fn invalid(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) && !walk.over() {
        let board = walk.game.board().clone();
        let turn = walk.game.turn();
        if walk.rng.percent(50) {
            let command = match walk.rng.below(4) {
                // An empty source.
                0 => {
                    let empty: Vec<Square> =
                        Square::all().filter(|&s| board.piece_at(s).is_none()).collect();
                    let from = walk.rng.pick(&empty).copied();
                    from.map(|from| {
                        let to = walk.random_square();
                        command(from, to)
                    })
                }
                // The other side's piece, moved by its own pattern.
                1 => {
                    let moves = pattern_moves(&board, !turn);
                    walk.rng.pick(&moves).map(|mv| command(mv.from, mv.to))
                }
                // A move onto a piece of one's own, within the pattern when there is one.
                2 => {
                    let mut onto_own = Vec::new();
                    for from in board.by_color(turn) {
                        if let Some(piece) = board.piece_at(from) {
                            let reach = movement::targets(piece.role, from, board.occupied());
                            for to in reach & board.by_color(turn) {
                                onto_own.push(command(from, to));
                            }
                        }
                    }
                    walk.rng.pick(&onto_own).copied()
                }
                // A move the piece's pattern does not have.
                _ => {
                    let own: Vec<Square> = board.by_color(turn).into_iter().collect();
                    let from = walk.rng.pick(&own).copied();
                    from.and_then(|from| {
                        let reach = board.moves_from(from);
                        let outside: Vec<Square> = Square::all()
                            .filter(|&s| !reach.contains(s) && !board.by_color(turn).contains(s))
                            .collect();
                        walk.rng.pick(&outside).map(|&to| command(from, to))
                    })
                }
            };
            if let Some(command) = command {
                walk.push(command);
                continue;
            }
        }
        let moves = walk.moves();
        match walk.rng.pick(&moves).copied() {
            Some(mv) => walk.play(mv),
            None => {
                let command = walk.random_command();
                walk.push(command);
            }
        }
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

/// The official data's shape: most commands between random squares, the rest valid moves of a
/// mildly aggressive game that may end.
fn official(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) {
        let moves = if walk.rng.percent(75) { Vec::new() } else { walk.moves() };
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
        } else {
            walk.play_by(&moves, 20, aggressive);
        }
    }
}

/// One game that never ends: valid moves that leave both captains alone, some random commands.
fn long(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) {
        let board = walk.game.board();
        let safe: Vec<Move> = walk
            .moves()
            .into_iter()
            .filter(|mv| board.piece_at(mv.to).is_none_or(|p| p.role != Role::Captain))
            .collect();
        if walk.rng.percent(10) || safe.is_empty() {
            // A random command, unless it would capture a captain.
            let command = walk.random_command();
            let captures_captain = walk
                .game
                .clone()
                .play_coords(command.from(), command.to())
                .is_ok_and(|p| p.game_over);
            if !captures_captain {
                walk.push(command);
                continue;
            }
            // An empty point is never a valid source.
            if let Some(empty) = Square::all().find(|&s| walk.game.board().piece_at(s).is_none()) {
                walk.push(command_from(empty));
            }
            continue;
        }
        walk.play_by(&safe, 0, |_, _| 0);
    }
}

fn command_from(square: Square) -> Command {
    command(square, square)
}

/// Values off the board: just past each edge, far past it, and past what 32-bit and 64-bit
/// integers hold.
const OFF_BOARD: [i128; 12] = [
    -1,
    -2,
    10,
    11,
    100,
    -100,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_649,
    4_294_967_296,
    1_000_000_000_000_000_000,
    99_999_999_999_999_999_999,
];

/// Commands with coordinates off the board, between valid moves.
fn off_board(walk: &mut Walk, limit: usize) {
    while !walk.full(limit) && !walk.over() {
        if walk.rng.percent(35) {
            let moves = pattern_moves(walk.game.board(), walk.game.turn());
            let mut command = match walk.rng.pick(&moves) {
                Some(mv) => command(mv.from, mv.to),
                None => walk.random_command(),
            };
            // One to four coordinates off the board; a column of 9 is off the board too.
            let count = walk.rng.range(1, 4) as usize;
            let mut which = [0usize, 1, 2, 3];
            walk.rng.shuffle(&mut which);
            for &i in &which[..count] {
                let column = i % 2 == 1;
                command.0[i] = if column && walk.rng.percent(25) {
                    9
                } else {
                    *walk.rng.pick(&OFF_BOARD).unwrap_or(&-1)
                };
            }
            walk.push(command);
            continue;
        }
        let moves = walk.moves();
        if moves.is_empty() {
            let command = walk.random_command();
            walk.push(command);
        } else {
            walk.play_by(&moves, 30, aggressive);
        }
    }
    if walk.over() {
        walk.after_the_end(limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_duck::Invalid;

    /// Replays commands and counts what happened.
    #[derive(Default, Debug)]
    struct Seen {
        over: usize,
        after_end: usize,
        check_by: [usize; 7],
        blocked: [usize; 7],
        duck_second_point: usize,
        own_target: usize,
        empty: usize,
        not_yours: usize,
        not_in_pattern: usize,
        off_board: usize,
    }

    fn replay(commands: &[Command], seen: &mut Seen) {
        let mut game = Game::new();
        for c in commands {
            let before = game.clone();
            match game.play_coords(c.from(), c.to()) {
                Ok(played) => {
                    if played.game_over {
                        seen.over += 1;
                    }
                    for role in Role::ALL {
                        for color in Color::ALL {
                            if played.check && attacks_captain(game.board(), color, Some(role)) {
                                seen.check_by[role.index()] += 1;
                            }
                        }
                    }
                }
                Err(Invalid::GameOver { .. }) => seen.after_end += 1,
                Err(Invalid::Blocked { piece, square, .. }) => {
                    seen.blocked[piece.role.index()] += 1;
                    if piece.role == Role::Duck {
                        let (from, to) = (c.from(), c.to());
                        let first =
                            (from.0 + (to.0 - from.0).signum(), from.1 + (to.1 - from.1).signum());
                        let straight = if (to.0 - from.0).abs() == 2 {
                            (from.0, first.1)
                        } else {
                            (first.0, from.1)
                        };
                        if (i64::from(square.row()), i64::from(square.col())) != straight {
                            seen.duck_second_point += 1;
                        }
                    }
                    let _ = before;
                }
                Err(Invalid::OwnPiece { .. }) => seen.own_target += 1,
                Err(Invalid::Empty { .. }) => seen.empty += 1,
                Err(Invalid::NotYours { .. }) => seen.not_yours += 1,
                Err(Invalid::NotInPattern { .. }) => seen.not_in_pattern += 1,
                Err(Invalid::OffBoard { .. }) => seen.off_board += 1,
            }
        }
    }

    fn survey(profile: DuckProfile, cases: u64) -> Seen {
        let mut seen = Seen::default();
        for seed in 0..cases {
            replay(&generate(profile, None, seed), &mut seen);
        }
        seen
    }

    #[test]
    fn generation_is_deterministic() {
        for (profile, _, _) in DuckProfile::ALL {
            assert_eq!(generate(profile, None, 3), generate(profile, None, 3), "{profile}");
        }
        assert_eq!(generate(DuckProfile::Official, None, 1).len(), 1000);
        assert_eq!(generate(DuckProfile::Long, Some(77), 1).len(), 77);
        assert!(generate(DuckProfile::Short, Some(5), 1).len() <= 5);
    }

    #[test]
    fn short_games_end_and_go_on_after_the_end() {
        let seen = survey(DuckProfile::Short, 40);
        assert!(seen.over >= 20, "{seen:?}");
        assert!(seen.after_end >= 20, "{seen:?}");
    }

    #[test]
    fn every_kind_of_piece_gives_check() {
        let seen = survey(DuckProfile::Checks, 100);
        for role in Role::ALL {
            assert!(seen.check_by[role.index()] > 0, "{role}: {seen:?}");
        }
    }

    #[test]
    fn every_blocking_point_is_met() {
        let seen = survey(DuckProfile::Blocked, 60);
        for role in [Role::Horse, Role::Elephant, Role::Duck, Role::Car] {
            assert!(seen.blocked[role.index()] > 0, "{role}: {seen:?}");
        }
        assert!(seen.duck_second_point > 0, "{seen:?}");
    }

    #[test]
    fn every_kind_of_invalid_command_is_met() {
        let seen = survey(DuckProfile::Invalid, 30);
        assert!(
            seen.own_target > 0 && seen.empty > 0 && seen.not_yours > 0 && seen.not_in_pattern > 0,
            "{seen:?}"
        );
        let off = survey(DuckProfile::OffBoard, 20);
        assert!(off.off_board > 20, "{off:?}");
        let on = survey(DuckProfile::Mixed, 40);
        assert_eq!(on.off_board, 0, "{on:?}");
    }

    #[test]
    fn captains_meet_and_long_games_never_end() {
        let seen = survey(DuckProfile::Captains, 30);
        assert!(seen.check_by[Role::Captain.index()] > 0, "{seen:?}");
        let long = survey(DuckProfile::Long, 3);
        assert_eq!(long.over, 0);
    }
}
