//! How long to think: a budget computed from the limits of a search alone, so it can be tested
//! without a clock.
//!
//! A search has two times: `optimum`, after which it starts no new iteration (an iteration takes
//! a few times longer than the one before, so it stops well before that when an iteration would
//! not finish), and `maximum`, at which it stops whatever it is doing. With `movetime` both are
//! the time given less a small margin for answering, and every moment of it is used: an
//! iteration cut short still tells which root moves proved better than the last best one. With a clock, the remaining time is shared
//! among the moves still to play (`movestogo`, or an estimate), the increment is mostly spent, and
//! the maximum stays a fraction of what is left, so a clock never runs out.
//!
//! ```
//! use std::time::Duration;
//! use arbiter_duck_engine::timeman::{Budget, Clock};
//!
//! let ms = Duration::from_millis;
//! let budget = Budget::for_movetime(ms(100));
//! assert_eq!((budget.optimum, budget.maximum), (ms(100) - Budget::MARGIN, ms(100) - Budget::MARGIN));
//!
//! let clock = Clock { time: ms(10_000), increment: ms(100), moves_to_go: None };
//! let budget = Budget::for_clock(&clock, ms(10));
//! assert!(budget.optimum > ms(200) && budget.optimum < ms(600));
//! assert!(budget.maximum <= ms(10_000) / 4);
//! ```

use std::time::Duration;

/// The clock of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The time left.
    pub time: Duration,
    /// What each move adds.
    pub increment: Duration,
    /// The moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// How long a search may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Budget {
    /// After this, start no new iteration.
    pub optimum: Duration,
    /// At this, stop.
    pub maximum: Duration,
    /// Whether to use all of it (a fixed time per move) rather than save what an unfinished
    /// iteration would waste.
    pub use_all: bool,
}

/// The moves a game is assumed still to last when the clock does not say.
const MOVES_LEFT: u32 = 30;

impl Budget {
    /// Kept back from a fixed time per move for printing the answer.
    pub const MARGIN: Duration = Duration::from_millis(3);

    /// The budget for `go movetime`: all of it, less [`Budget::MARGIN`].
    pub fn for_movetime(movetime: Duration) -> Budget {
        let time = movetime.saturating_sub(Budget::MARGIN);
        Budget { optimum: time, maximum: time, use_all: true }
    }

    /// The budget for a clock, keeping `overhead` per move for the time lost outside the search
    /// (communication, the GUI).
    pub fn for_clock(clock: &Clock, overhead: Duration) -> Budget {
        let moves = clock.moves_to_go.map_or(MOVES_LEFT, |m| m.clamp(1, MOVES_LEFT));
        // The time left, less the overhead of every move until the control or the estimate.
        let usable = clock.time.saturating_sub(overhead * moves.min(10));
        let share = usable / moves + clock.increment * 3 / 4;
        let ceiling = if moves == 1 { usable * 9 / 10 } else { usable / 4 };
        let maximum = (share * 4).min(ceiling).min(clock.time.saturating_sub(overhead));
        Budget { optimum: share.min(maximum), maximum, use_all: false }
    }

    /// Whether an iteration that would start at `elapsed` should be started.
    pub fn starts_iteration(&self, elapsed: Duration) -> bool {
        // The next iteration takes about twice as long as all before it together.
        if self.use_all { elapsed < self.maximum } else { elapsed * 2 < self.optimum }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let budget = Budget::for_movetime(ms(1000));
        assert_eq!(budget.maximum, ms(997));
        assert_eq!(Budget::for_movetime(ms(1)).maximum, ms(0));
    }

    #[test]
    fn a_clock_is_shared_among_the_moves_left() {
        let plain = Budget::for_clock(
            &Clock { time: ms(60_000), increment: ms(0), moves_to_go: None },
            ms(0),
        );
        assert_eq!(plain.optimum, ms(2000));
        assert_eq!(plain.maximum, ms(8000));
        let with_increment = Budget::for_clock(
            &Clock { time: ms(60_000), increment: ms(1000), moves_to_go: None },
            ms(0),
        );
        assert_eq!(with_increment.optimum, ms(2750));
        // Five moves to the control: a fifth each, at most four times that.
        let control = Budget::for_clock(
            &Clock { time: ms(10_000), increment: ms(0), moves_to_go: Some(5) },
            ms(0),
        );
        assert_eq!((control.optimum, control.maximum), (ms(2000), ms(2500)));
        // The last move before the control may use most of the time.
        let last = Budget::for_clock(
            &Clock { time: ms(10_000), increment: ms(0), moves_to_go: Some(1) },
            ms(0),
        );
        assert_eq!((last.optimum, last.maximum), (ms(9000), ms(9000)));
    }

    #[test]
    fn a_short_clock_never_runs_out() {
        for time in [0, 1, 5, 20, 50, 100, 1000] {
            for increment in [0, 10, 100, 1000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock { time: ms(time), increment: ms(increment), moves_to_go };
                    let budget = Budget::for_clock(&clock, ms(10));
                    assert!(
                        budget.maximum <= ms(time).saturating_sub(ms(10)),
                        "{clock:?} {budget:?}"
                    );
                    assert!(budget.optimum <= budget.maximum, "{clock:?} {budget:?}");
                }
            }
        }
    }

    #[test]
    fn iterations_start_while_half_the_optimum_is_left() {
        let clock = Clock { time: ms(3000), increment: ms(0), moves_to_go: Some(30) };
        let budget = Budget::for_clock(&clock, ms(0));
        assert_eq!(budget.optimum, ms(100));
        assert!(budget.starts_iteration(ms(49)));
        assert!(!budget.starts_iteration(ms(50)));
        // A fixed time per move is used to its end.
        let fixed = Budget::for_movetime(ms(103));
        assert!(fixed.starts_iteration(ms(99)));
        assert!(!fixed.starts_iteration(ms(100)));
    }
}
