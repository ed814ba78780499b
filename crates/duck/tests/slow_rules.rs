//! The fast rules against a deliberately simple checker written from the statement's text.
//!
//! The checker below knows nothing of the movement tables, bitboards or reverse lookups: a position
//! is a plain grid, and each piece's rule is the statement's sentence turned into arithmetic on the
//! difference between the two squares. On random games, for every position visited, it must agree
//! with the crate on every one of the 90×90 (from, to) pairs, on check detection, and on the list of
//! valid moves.

use arbiter_duck::{Board, Color, Game, Piece, Role, Square};
use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A position as the statement describes it: `grid[x][y]` is the piece on row x, column y.
type Grid = [[Option<Piece>; 9]; 10];

fn grid(board: &Board) -> Grid {
    let mut grid = [[None; 9]; 10];
    for sq in Square::all() {
        grid[sq.row() as usize][sq.col() as usize] = board.piece_at(sq);
    }
    grid
}

fn empty(grid: &Grid, x: i32, y: i32) -> bool {
    grid[x as usize][y as usize].is_none()
}

/// Whether the piece on (x, y) may move to (u, v) by the statement's text, own pieces aside.
fn slow_pattern(grid: &Grid, (x, y): (i32, i32), (u, v): (i32, i32)) -> bool {
    let Some(piece) = grid[x as usize][y as usize] else {
        return false;
    };
    let (dx, dy) = (u - x, v - y);
    let (sx, sy) = (dx.signum(), dy.signum());
    match piece.role {
        // Captain: (x±1, y) and (x, y±1).
        Role::Captain => dx.abs() + dy.abs() == 1,
        // Guard: (x±1, y±1).
        Role::Guard => dx.abs() == 1 && dy.abs() == 1,
        // Elephant: (x±2, y±2) when (x±1, y±1) is empty.
        Role::Elephant => dx.abs() == 2 && dy.abs() == 2 && empty(grid, x + sx, y + sy),
        // Horse: (x±1, y±2) when (x, y±1) is empty; (x±2, y±1) when (x±1, y) is empty.
        Role::Horse => {
            (dx.abs() == 1 && dy.abs() == 2 && empty(grid, x, y + sy))
                || (dx.abs() == 2 && dy.abs() == 1 && empty(grid, x + sx, y))
        }
        // Car: along a row or a column without jumping over any piece.
        Role::Car => {
            (dx == 0) != (dy == 0)
                && (1..dx.abs().max(dy.abs())).all(|k| empty(grid, x + k * sx, y + k * sy))
        }
        // Duck: (x±2, y±3) when (x, y±1) and (x±1, y±2) are empty; (x±3, y±2) when (x±1, y)
        // and (x±2, y±1) are empty.
        Role::Duck => {
            (dx.abs() == 2
                && dy.abs() == 3
                && empty(grid, x, y + sy)
                && empty(grid, x + sx, y + 2 * sy))
                || (dx.abs() == 3
                    && dy.abs() == 2
                    && empty(grid, x + sx, y)
                    && empty(grid, x + 2 * sx, y + sy))
        }
        // Soldier: the eight neighbours.
        Role::Soldier => dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
    }
}

fn squares() -> impl Iterator<Item = (i32, i32)> {
    (0..10).flat_map(|x| (0..9).map(move |y| (x, y)))
}

/// The game ends when a captain is removed.
fn over(grid: &Grid) -> bool {
    let captains = squares()
        .filter(|&(x, y)| grid[x as usize][y as usize].is_some_and(|p| p.role == Role::Captain))
        .count();
    captains < 2
}

/// Whether `turn` may move the piece on `from` to `to` while the game goes on: its own piece, the
/// pattern, and no own piece on the destination.
fn slow_valid(grid: &Grid, turn: Color, from: (i32, i32), to: (i32, i32)) -> bool {
    let mine = |(x, y): (i32, i32)| grid[x as usize][y as usize].is_some_and(|p| p.color == turn);
    mine(from) && !mine(to) && slow_pattern(grid, from, to)
}

/// A check position: the game goes on and some piece can capture the other side's captain.
fn slow_check(grid: &Grid) -> bool {
    !over(grid)
        && squares().any(|captain| {
            let Some(target) = grid[captain.0 as usize][captain.1 as usize] else {
                return false;
            };
            target.role == Role::Captain
                && squares().any(|from| slow_valid(grid, !target.color, from, captain))
        })
}

/// Compares the crate with the slow checker on one position; returns the valid moves.
fn compare(game: &Game) -> Vec<(Square, Square)> {
    let grid = grid(game.board());
    let over = over(&grid);
    let mut valid = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            let at = |sq: Square| (i32::from(sq.row()), i32::from(sq.col()));
            let slow = !over && slow_valid(&grid, game.turn(), at(from), at(to));
            let fast = game.validate(from, to).is_ok();
            assert_eq!(fast, slow, "{from} -> {to}, {:?} to move{:?}", game.turn(), game.board());
            if fast {
                valid.push((from, to));
            }
        }
    }
    let listed: Vec<_> = game.legal_moves().into_iter().map(|mv| (mv.from, mv.to)).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, valid, "move generation differs{:?}", game.board());
    assert_eq!(game.board().is_check(), slow_check(&grid), "check differs{:?}", game.board());
    listed
}

/// Plays `plies` random valid moves from `game`, comparing every position on the way.
fn random_game(mut game: Game, seed: u64, plies: usize) -> usize {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut positions = 0;
    for _ in 0..plies {
        let moves = compare(&game);
        positions += 1;
        if moves.is_empty() {
            break;
        }
        let (from, to) = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let played = game.play(from, to).expect("a listed move is valid");
        let grid_after = grid(game.board());
        assert_eq!(played.check, !played.game_over && slow_check(&grid_after));
    }
    positions
}

/// Two captains and up to 40 other pieces anywhere: positions no game reaches, with pieces on
/// every edge.
fn arbitrary_game() -> impl Strategy<Value = Game> {
    let piece = (0..2usize, 0..7usize).prop_filter_map("one captain per side", |(c, r)| {
        (Role::ALL[r] != Role::Captain).then(|| Piece::new(Color::ALL[c], Role::ALL[r]))
    });
    let captains = (0..90usize, 0..90usize).prop_filter("distinct", |(a, b)| a != b);
    let others = prop::collection::vec((0..90usize, piece), 0..40);
    (captains, others, any::<bool>()).prop_map(|((red, blue), others, red_to_move)| {
        let mut board = Board::empty();
        for (index, piece) in others {
            board.put(Square::from_index(index).unwrap(), piece);
        }
        for (index, color) in [(red, Color::Red), (blue, Color::Blue)] {
            board.put(Square::from_index(index).unwrap(), Piece::new(color, Role::Captain));
        }
        let turn = if red_to_move { Color::Red } else { Color::Blue };
        Game::from_board(board, turn).unwrap()
    })
}

/// Random games from the start, each from a seed proptest picks (and shrinks on failure), until
/// at least 10,000 positions have been compared.
#[test]
fn random_games_agree_with_the_statement() {
    let mut runner = TestRunner::new(ProptestConfig::with_cases(80));
    let positions = Cell::new(0);
    runner
        .run(&any::<u64>(), |seed| {
            positions.set(positions.get() + random_game(Game::new(), seed, 160));
            Ok(())
        })
        .unwrap();
    assert!(positions.get() >= 10_000, "only {} positions", positions.get());
}

proptest! {
    #[test]
    fn random_placements_agree_with_the_statement(game in arbitrary_game(), seed: u64) {
        random_game(game, seed, 4);
    }
}
