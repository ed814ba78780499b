//! What a puzzle's solution is about, read from the line itself: a captain captured in N, decisive
//! material, a fork (by a duck or another piece), a pin, a sacrifice, a quiet first move, and its
//! length.
//!
//! Worth is counted in centipawns by [`worth`], the tuned material weights of the engine's
//! classical evaluation rounded (a car 1,270, a horse and a soldier 460, a duck 330, an elephant
//! 190, a guard 180); a piece "of worth" is one worth at least [`OF_WORTH`] (so not a guard or an
//! elephant). Who attacks what is the rules' own [`Board::attackers`].

use arbiter_duck::{Bitboard, Board, Color, Move, Position, Role, Square};

use crate::puzzle::Theme;

/// A piece's worth in centipawns, for counting material won (the captain counts nothing: taking
/// it ends the game).
pub const fn worth(role: Role) -> i32 {
    match role {
        Role::Car => 1270,
        Role::Horse => 460,
        Role::Soldier => 460,
        Role::Duck => 330,
        Role::Elephant => 190,
        Role::Guard => 180,
        Role::Captain => 0,
    }
}

/// The least worth of a piece that a fork or a sacrifice counts.
pub const OF_WORTH: i32 = 300;

/// `side`'s material less the other side's, in centipawns.
pub fn balance(board: &Board, side: Color) -> i32 {
    let mut total = 0;
    for sq in board.occupied() {
        if let Some(piece) = board.piece_at(sq) {
            let value = worth(piece.role);
            total += if piece.color == side { value } else { -value };
        }
    }
    total
}

/// The themes of the puzzle starting at `start` (the solver to move) with `solution`.
pub fn themes(start: &Position, solution: &[Move]) -> Vec<Theme> {
    let solver = start.turn();
    let mut themes = Vec::new();
    let mut positions = vec![start.clone()];
    let mut position = start.clone();
    for &mv in solution {
        let _ = position.make(mv);
        positions.push(position.clone());
    }
    let solver_moves = solution.len().div_ceil(2);
    if position.winner() == Some(solver) {
        themes.push(Theme::CaptureIn(solver_moves.min(usize::from(u8::MAX)) as u8));
    } else {
        themes.push(Theme::Material);
    }
    let captured: Vec<Square> = solution.iter().step_by(2).map(|mv| mv.to).collect();
    if let Some(&first) = solution.first() {
        if let Some(forker) = fork(start, &positions[1], first, &captured) {
            themes.push(if forker == Role::Duck { Theme::DuckFork } else { Theme::Fork });
        }
        if pinned_taken(start, &positions, solution) {
            themes.push(Theme::Pin);
        }
        let quiet = start.piece_at(first.to).is_none() && !attacks_captain(&positions[1], solver);
        if quiet {
            themes.push(Theme::QuietMove);
        }
    }
    let sacrifice = solution.iter().enumerate().skip(1).step_by(2).any(|(i, reply)| {
        positions[i].piece_at(reply.to).is_some_and(|piece| worth(piece.role) >= OF_WORTH)
    });
    if sacrifice {
        themes.push(Theme::Sacrifice);
    }
    themes.push(Theme::of_length(solver_moves));
    themes
}

/// Whether `side` attacks the other side's captain in `position`.
fn attacks_captain(position: &Position, side: Color) -> bool {
    let board = position.board();
    board.captain(!side).is_some_and(|sq| !board.attackers(sq, side, board.occupied()).is_empty())
}

/// The other side's pieces of worth (and its captain) that the piece on `from` attacks.
fn targets(board: &Board, from: Square, side: Color) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    for sq in board.by_color(!side) {
        let valuable = board
            .piece_at(sq)
            .is_some_and(|piece| piece.role == Role::Captain || worth(piece.role) >= OF_WORTH);
        if valuable && board.attackers(sq, side, board.occupied()).contains(from) {
            found = found.with(sq);
        }
    }
    found
}

/// The role of the piece that forks with the first move: after it the moved piece attacks at
/// least two pieces of worth (or the captain), one of them newly, and the solution later takes
/// one of them.
fn fork(start: &Position, after: &Position, first: Move, captured: &[Square]) -> Option<Role> {
    let solver = start.turn();
    let piece = after.piece_at(first.to)?;
    let now = targets(after.board(), first.to, solver);
    let before = targets(start.board(), first.from, solver);
    let new = now.into_iter().any(|sq| !before.contains(sq));
    let taken = captured.iter().skip(1).any(|&sq| now.contains(sq));
    (now.count() >= 2 && new && taken).then_some(piece.role)
}

/// Whether the solution takes a pinned piece: one of the opponent's that, in the position before
/// the capture, stood between its captain and a piece of the solver's (with it gone, the
/// solver could capture the captain).
fn pinned_taken(start: &Position, positions: &[Position], solution: &[Move]) -> bool {
    let solver = start.turn();
    solution.iter().enumerate().step_by(2).any(|(i, mv)| {
        let board = positions[i].board();
        let Some(piece) = board.piece_at(mv.to) else { return false };
        if piece.color == solver || piece.role == Role::Captain {
            return false;
        }
        let Some(captain) = board.captain(!solver) else { return false };
        let occupied = board.occupied();
        let open = board.attackers(captain, solver, occupied.without(mv.to));
        open != board.attackers(captain, solver, occupied)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &[&str]) -> Vec<Move> {
        text.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn a_captain_taken_at_once_is_a_capture_in_one() {
        let start: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let themes = themes(&start, &moves(&["e2e10"]));
        assert_eq!(themes, [Theme::CaptureIn(1), Theme::OneMove]);
    }

    #[test]
    fn a_car_behind_a_horse_pins_it() {
        // Red's car on e1 looks at the blue captain on e10 through the blue horse on e8.
        let start: Position = "4c4/9/4h4/9/9/9/9/9/9/3CR4 w".parse().unwrap();
        let themes = themes(&start, &moves(&["e1e8"]));
        assert!(themes.contains(&Theme::Pin), "{themes:?}");
        assert!(themes.contains(&Theme::Material), "{themes:?}");
    }

    #[test]
    fn material_is_counted_for_a_side() {
        let position: Position = "4c4/9/4h4/9/9/9/9/9/9/3CR4 w".parse().unwrap();
        assert_eq!(balance(position.board(), Color::Red), 1270 - 460);
        assert_eq!(balance(position.board(), Color::Blue), 460 - 1270);
    }
}
