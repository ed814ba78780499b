//! The fast rules against a deliberately simple checker written from the statement's text.
//!
//! The checker below knows nothing of the movement tables, bitboards or reverse lookups: a position
//! is a plain grid, and each piece's rule is the statement's sentence turned into arithmetic on the
//! difference between the two squares. On random games, for every position visited, it must agree
//! with the crate on every one of the 90×90 (from, to) pairs, on check detection, on the list of
//! valid moves (all, captures only, quiet only), and on the attackers of every square, also with
//! pieces taken off as a static exchange evaluation does; and on the game's check after each move,
//! also after a move taken back and played again. Making and unmaking each move must restore the
//! position and its key exactly, and the key kept up to date move by move must equal the key
//! computed from scratch.

use arbiter_duck::{Bitboard, Board, Color, Game, Piece, Position, Role, Square};
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

fn at(sq: Square) -> (i32, i32) {
    (i32::from(sq.row()), i32::from(sq.col()))
}

/// The pieces of `by` that could move to `to` on `grid` (whatever stands on `to`).
fn slow_attackers(grid: &Grid, to: (i32, i32), by: Color) -> Bitboard {
    Square::all()
        .filter(|&from| {
            let (x, y) = at(from);
            grid[x as usize][y as usize].is_some_and(|p| p.color == by)
                && slow_pattern(grid, (x, y), to)
        })
        .collect()
}

/// `grid` with the pieces outside `kept` taken off.
fn keep_only(grid: &Grid, kept: Bitboard) -> Grid {
    let mut out = *grid;
    for sq in Square::all().filter(|&sq| !kept.contains(sq)) {
        out[sq.row() as usize][sq.col() as usize] = None;
    }
    out
}

/// Compares the attack queries with the slow checker: every square, both sides, with the whole
/// board and with the pieces outside `kept` taken off.
fn compare_attacks(position: &Position, kept: Bitboard) {
    let board = position.board();
    let full = grid(board);
    for occupied in [board.occupied(), board.occupied() & kept] {
        let grid = keep_only(&full, occupied);
        for to in Square::all() {
            for by in Color::ALL {
                let fast = board.attackers(to, by, occupied);
                assert_eq!(
                    fast,
                    slow_attackers(&grid, at(to), by),
                    "attackers of {to} by {by}{board:?}"
                );
                assert_eq!(board.attacked_with(to, by, occupied), !fast.is_empty());
            }
        }
    }
    for color in Color::ALL {
        let slow = board
            .captain(color)
            .is_some_and(|sq| !slow_attackers(&full, at(sq), !color).is_empty());
        assert_eq!(board.captain_attacked(color), slow, "{color} captain{board:?}");
    }
    assert_eq!(position.in_check(), board.captain_attacked(position.turn()));
}

/// Compares a position with the slow checker: moves of each kind, the count, make and unmake,
/// the key. Returns the valid moves in the slow checker's order.
fn compare_position(position: &Position) -> Vec<(Square, Square)> {
    let grid = grid(position.board());
    let over = over(&grid);
    let turn = position.turn();
    let mut valid = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            let slow = !over && slow_valid(&grid, turn, at(from), at(to));
            let mv = arbiter_duck::Move::new(from, to);
            assert_eq!(position.is_legal(mv), slow, "{from} -> {to}{:?}", position.board());
            if slow {
                valid.push((from, to));
            }
        }
    }
    let pairs = |moves: arbiter_duck::MoveList| -> Vec<_> {
        let mut pairs: Vec<_> = moves.iter().map(|mv| (mv.from, mv.to)).collect();
        pairs.sort();
        pairs
    };
    let enemy =
        |&(_, to): &(Square, Square)| position.piece_at(to).is_some_and(|p| p.color != turn);
    let captures: Vec<_> = valid.iter().copied().filter(enemy).collect();
    let quiets: Vec<_> = valid.iter().copied().filter(|m| !enemy(m)).collect();
    assert_eq!(pairs(position.moves()), valid, "moves differ{:?}", position.board());
    assert_eq!(pairs(position.captures()), captures, "captures differ{:?}", position.board());
    assert_eq!(pairs(position.quiets()), quiets, "quiet moves differ{:?}", position.board());
    // Written over a list that holds moves already: the same moves, none of the old ones.
    let mut list = position.moves();
    position.captures_into(&mut list);
    assert_eq!(pairs(list.clone()), captures, "captures_into differs{:?}", position.board());
    position.quiets_into(&mut list);
    assert_eq!(pairs(list), quiets, "quiets_into differs{:?}", position.board());
    assert_eq!(position.count_moves(), valid.len() as u64);
    assert_eq!(position.has_moves(), !valid.is_empty());
    assert_eq!(position.is_over(), over);
    assert_eq!(position.key(), position.key_from_scratch());
    // FEN round trip.
    assert_eq!(position.to_string().parse::<Position>().as_ref(), Ok(position));

    let mut played = position.clone();
    for mv in position.moves() {
        let undo = played.make(mv);
        assert_eq!(played.turn(), !turn);
        assert_eq!(played.piece_at(mv.to), position.piece_at(mv.from));
        assert_eq!(played.piece_at(mv.from), None);
        assert_eq!(undo.captured(), position.piece_at(mv.to));
        assert_eq!(played.key(), played.key_from_scratch());
        played.unmake(mv, undo);
        assert_eq!(&played, position, "{mv} was not taken back exactly");
        assert_eq!(played.key(), position.key());
    }
    valid
}

/// Compares the crate with the slow checker on one position; returns the valid moves.
fn compare(game: &Game) -> Vec<(Square, Square)> {
    let grid = grid(game.board());
    let over = over(&grid);
    let mut valid = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
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
    assert_eq!(compare_position(game.position()), valid);
    listed
}

/// Plays `plies` random valid moves from `game`, comparing every position on the way (and the
/// attack queries on every `attacks_every`-th, with a random half of the pieces taken off).
fn random_game(mut game: Game, seed: u64, plies: usize, attacks_every: usize) -> usize {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut positions = 0;
    let start = game.clone();
    for ply in 0..plies {
        let moves = compare(&game);
        if ply % attacks_every == 0 {
            compare_attacks(
                game.position(),
                Bitboard(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())),
            );
        }
        positions += 1;
        if moves.is_empty() {
            break;
        }
        let (from, to) = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let played = game.play(from, to).expect("a listed move is valid");
        let grid_after = grid(game.board());
        assert_eq!(played.check, !played.game_over && slow_check(&grid_after));
        assert_eq!(game.winner(), game.position().winner());
        if ply % 16 == 15 {
            // What the game keeps from move to move for check detection is taken back with the
            // move: played again, it gives the same answer.
            assert_eq!(game.undo(), Some(arbiter_duck::Move::new(from, to)));
            assert_eq!(game.play(from, to), Ok(played));
        }
    }
    // Undo takes the whole game back.
    while game.undo().is_some() {}
    assert_eq!(game.position(), start.position());
    positions
}

/// Both captains (or, one time in eight, only the side not to move's: a finished game) and any
/// subset of the other 30 pieces on random squares: positions no game reaches, with pieces on
/// every edge.
fn arbitrary_game() -> impl Strategy<Value = Game> {
    let others: Vec<Piece> = Board::initial()
        .occupied()
        .filter_map(|sq| Board::initial().piece_at(sq))
        .filter(|p| p.role != Role::Captain)
        .collect();
    let squares = Just((0..Square::COUNT).collect::<Vec<_>>()).prop_shuffle();
    let subset = prop::collection::vec(any::<bool>(), others.len());
    (squares, subset, any::<bool>(), 0..8u8).prop_map(
        move |(squares, subset, red_to_move, lost)| {
            let turn = if red_to_move { Color::Red } else { Color::Blue };
            let mut board = Board::empty();
            let mut free = squares.into_iter().map(|i| Square::from_index(i).unwrap());
            for color in Color::ALL {
                let square = free.next().unwrap();
                if color != turn || lost != 0 {
                    board.put(square, Piece::new(color, Role::Captain));
                }
            }
            for (&piece, _) in others.iter().zip(subset).filter(|(_, keep)| *keep) {
                board.put(free.next().unwrap(), piece);
            }
            Game::from_board(board, turn).unwrap()
        },
    )
}

/// Random games from the start, each from a seed proptest picks (and shrinks on failure), until
/// at least 10,000 positions have been compared.
#[test]
fn random_games_agree_with_the_statement() {
    let mut runner = TestRunner::new(ProptestConfig::with_cases(80));
    let positions = Cell::new(0);
    runner
        .run(&any::<u64>(), |seed| {
            positions.set(positions.get() + random_game(Game::new(), seed, 160, 8));
            Ok(())
        })
        .unwrap();
    assert!(positions.get() >= 10_000, "only {} positions", positions.get());
}

proptest! {
    #[test]
    fn random_placements_agree_with_the_statement(game in arbitrary_game(), seed: u64) {
        random_game(game, seed, 4, 1);
    }
}
