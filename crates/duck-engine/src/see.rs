//! Static exchange evaluation: what a capture wins once both sides have recaptured on its square
//! as long as it pays, each with its least valuable piece.
//!
//! The attackers come from [`Board::attackers`] asked again with the pieces that have already
//! captured taken off the board, so a horse whose leg such a piece blocked, an elephant whose eye
//! it blocked, a duck behind either of its two points or a car behind it joins the exchange; no
//! movement rule is written here.
//!
//! ```
//! use arbiter_duck::{Move, Position};
//! use arbiter_duck_engine::see;
//!
//! // The red car on e3 may take the soldier on e7 guarded by the blue horse on d9 (whose leg d8
//! // is empty): it wins a soldier but loses the car.
//! let position: Position = "2e1c4/3h5/9/4s4/9/9/9/4R4/9/4C4 w".parse().unwrap();
//! let takes: Move = "e3e7".parse().unwrap();
//! assert!(!see::see_ge(position.board(), takes, 0));
//! assert!(see::see_ge(position.board(), takes, see::VALUE[5] - see::VALUE[0]));
//! // With a piece on the horse's leg, the soldier hangs.
//! let blocked: Position = "2e1c4/3h5/3S5/4s4/9/9/9/4R4/9/4C4 w".parse().unwrap();
//! assert!(see::see_ge(blocked.board(), takes, see::VALUE[5]));
//! ```

use arbiter_duck::{Bitboard, Board, Color, Move, Role, Square};

use crate::value::Value;

/// The value of each role for exchanges, in [`Role::index`] order: car, horse, elephant, guard,
/// captain, soldier, duck. The captain's is larger than everything else together.
pub const VALUE: [Value; 7] = [950, 380, 220, 200, 20_000, 260, 360];

/// The roles from least to most valuable, the order in which an exchange brings them in.
const CHEAPEST_FIRST: [Role; 7] = {
    let mut roles = Role::ALL;
    // Insertion sort by value, at compile time.
    let mut i = 1;
    while i < roles.len() {
        let mut j = i;
        while j > 0 && VALUE[roles[j - 1].index()] > VALUE[roles[j].index()] {
            let swap = roles[j - 1];
            roles[j - 1] = roles[j];
            roles[j] = swap;
            j -= 1;
        }
        i += 1;
    }
    roles
};

/// The value of what stands on `sq`, 0 when it is empty.
#[inline]
pub fn victim_value(board: &Board, sq: Square) -> Value {
    board.piece_at(sq).map_or(0, |piece| VALUE[piece.role.index()])
}

/// The least valuable of `attackers` (all of one side), with its role.
#[inline]
fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(Square, Role)> {
    CHEAPEST_FIRST
        .iter()
        .find_map(|&role| (attackers & board.by_role(role)).first().map(|sq| (sq, role)))
}

/// Whether the exchange that `mv` starts wins at least `threshold` for the side that moves (the
/// piece on `mv.from`). Either side may stop recapturing when going on would lose more; a captain
/// recaptures only when nothing can take it back.
pub fn see_ge(board: &Board, mv: Move, threshold: Value) -> bool {
    let Some(mover) = board.piece_at(mv.from) else { return false };
    let to = mv.to;
    // `swap` is what the side to recapture next gains if it stops now, seen by whoever is ahead.
    let mut swap = victim_value(board, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = VALUE[mover.role.index()] - swap;
    if swap <= 0 {
        return true;
    }
    // Nothing on `to` blocks a move to `to`: taking it off the board only leaves out the piece
    // captured first.
    let mut occupied = board.occupied().without(mv.from).without(to);
    let mut side: Color = mover.color;
    // Whether the side that made the first capture is ahead when the exchange stops here.
    let mut ahead = true;
    loop {
        side = !side;
        let attackers = board.attackers(to, side, occupied);
        let Some((sq, role)) = least_valuable(board, attackers) else { break };
        ahead = !ahead;
        if role == Role::Captain {
            // The captain may only take if the other side has nothing left to take it with.
            let answer = board.attackers(to, !side, occupied.without(sq));
            return if answer.is_empty() { ahead } else { !ahead };
        }
        swap = VALUE[role.index()] - swap;
        if swap < Value::from(ahead) {
            break;
        }
        occupied = occupied.without(sq);
    }
    ahead
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_duck::Position;

    fn see(fen: &str, mv: &str) -> Value {
        // The exact exchange value, by bisection over `see_ge`.
        let position: Position = fen.parse().unwrap();
        let mv: Move = mv.parse().unwrap();
        let (mut low, mut high): (Value, Value) = (-30_000, 30_000);
        while low < high {
            let mid = (low + high + 1).div_euclid(2);
            if see_ge(position.board(), mv, mid) { low = mid } else { high = mid - 1 }
        }
        low
    }

    #[test]
    fn cheapest_first_is_sorted() {
        assert_eq!(CHEAPEST_FIRST[0], Role::Guard);
        assert_eq!(CHEAPEST_FIRST[6], Role::Captain);
    }

    #[test]
    fn exchanges_respect_blocking_points() {
        let [car, horse, _, _, _, soldier, _] = VALUE;
        // An undefended soldier.
        assert_eq!(see("4c4/9/9/4s4/9/9/9/4R4/9/4C4 w", "e3e7"), soldier);
        // Defended by a horse on d9: car for soldier.
        assert_eq!(see("4c4/3h5/9/4s4/9/9/9/4R4/9/4C4 w", "e3e7"), soldier - car);
        // The horse's leg d8 is blocked.
        assert_eq!(see("4c4/3h5/3S5/4s4/9/9/9/4R4/9/4C4 w", "e3e7"), soldier);
        // An elephant on c9 guards e7 through its eye d8; blocked, it does not.
        assert_eq!(see("4c4/2e6/9/4s4/9/9/9/4R4/9/4C4 w", "e3e7"), soldier - car);
        assert_eq!(see("4c4/2e6/3S5/4s4/9/9/9/4R4/9/4C4 w", "e3e7"), soldier);
        // A blue duck on b10 reaches e8 over c10 and d9 (a 2-3 leap); either point blocks it.
        assert_eq!(see("1d2c4/9/4s4/9/9/9/9/4R4/9/4C4 w", "e3e8"), soldier - car);
        assert_eq!(see("1ds1c4/9/4s4/9/9/9/9/4R4/9/4C4 w", "e3e8"), soldier);
        assert_eq!(see("1d2c4/3S5/4s4/9/9/9/9/4R4/9/4C4 w", "e3e8"), soldier);
        // A second red car behind the first recaptures: soldier + horse - car.
        assert_eq!(see("4c4/3h5/9/4s4/9/9/9/4R4/4R4/3C5 w", "e3e7"), soldier - car + horse);
    }

    #[test]
    fn a_captain_recaptures_only_when_safe() {
        let soldier = VALUE[5];
        // The blue captain on e8 guards e7; a red car on e1 behind the red soldier on e6 would
        // take it back, so the captain must not recapture.
        assert_eq!(see("9/9/4c4/4s4/4S4/9/9/9/9/C3R4 w", "e6e7"), soldier);
        // Without the car, the captain recaptures: soldier for soldier.
        assert_eq!(see("9/9/4c4/4s4/4S4/9/9/9/9/C8 w", "e6e7"), 0);
    }
}
