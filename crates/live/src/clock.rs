//! Time controls and the clocks the server keeps. Times are milliseconds; instants are
//! milliseconds since the Unix epoch, given by the caller, so that the clocks are tested without
//! waiting.
//!
//! A side's clock runs only once both sides have moved once (from the third ply on), as on most
//! servers: a game whose invitation has not been taken up yet loses no time. A move adds the
//! increment to the clock of the side that made it.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::seat::Seat;

/// The longest starting time accepted: 3 hours.
pub const MAX_INITIAL_MS: u64 = 3 * 60 * 60 * 1000;

/// The largest increment accepted: 3 minutes.
pub const MAX_INCREMENT_MS: u64 = 3 * 60 * 1000;

/// A time control: a starting time per side and an increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub initial_ms: u64,
    /// Added to a side's clock after each of its moves.
    pub increment_ms: u64,
}

/// Why a time control's text is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a time control is `MINUTES+SECONDS` (e.g. `5+3`, at most 180+180) or `none`")]
pub struct BadTimeControl;

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `5+3`: five minutes each, three seconds more per move. Minutes may have a fraction
    /// (`0.5+0`).
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let (minutes, seconds) = text.trim().split_once('+').ok_or(BadTimeControl)?;
        let minutes: f64 = minutes.trim().parse().map_err(|_| BadTimeControl)?;
        let seconds: u64 = seconds.trim().parse().map_err(|_| BadTimeControl)?;
        if !(minutes.is_finite() && minutes > 0.0) {
            return Err(BadTimeControl);
        }
        let initial_ms = (minutes * 60_000.0).round() as u64;
        let increment_ms = seconds.checked_mul(1000).ok_or(BadTimeControl)?;
        if initial_ms == 0 || initial_ms > MAX_INITIAL_MS || increment_ms > MAX_INCREMENT_MS {
            return Err(BadTimeControl);
        }
        Ok(TimeControl { initial_ms, increment_ms })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.initial_ms as f64 / 60_000.0;
        write!(f, "{minutes}+{}", self.increment_ms / 1000)
    }
}

/// Both clocks: each side's time left when its current turn (or its last one) began, and since
/// when the side to move's clock has run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// Red's time left, not counting the turn under way.
    pub red_ms: u64,
    /// Blue's time left, not counting the turn under way.
    pub blue_ms: u64,
    /// When the clock of the side to move started, if it runs.
    #[serde(skip)]
    pub since: Option<u64>,
}

impl Clocks {
    /// Both clocks at `control`'s starting time, stopped.
    pub fn start(control: TimeControl) -> Clocks {
        Clocks { red_ms: control.initial_ms, blue_ms: control.initial_ms, since: None }
    }

    /// The time `seat` had when its turn began.
    pub fn left(&self, seat: Seat) -> u64 {
        match seat {
            Seat::Red => self.red_ms,
            Seat::Blue => self.blue_ms,
        }
    }

    fn set(&mut self, seat: Seat, ms: u64) {
        match seat {
            Seat::Red => self.red_ms = ms,
            Seat::Blue => self.blue_ms = ms,
        }
    }

    /// The time `to_move` has left at `now` (0 once it has run out).
    pub fn left_at(&self, to_move: Seat, now: u64) -> u64 {
        let used = self.since.map_or(0, |since| now.saturating_sub(since));
        self.left(to_move).saturating_sub(used)
    }

    /// Charges `mover` for the turn that ends at `now`, adds `increment`, and starts the other
    /// side's clock at `now` when `run_next`. Returns `false`, changing nothing, when `mover`'s
    /// time had run out.
    pub fn after_move(&mut self, mover: Seat, now: u64, increment: u64, run_next: bool) -> bool {
        let left = self.left_at(mover, now);
        if self.since.is_some() && left == 0 {
            return false;
        }
        self.set(mover, left.saturating_add(increment));
        self.since = run_next.then_some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_minutes_and_seconds() {
        let control: TimeControl = "5+3".parse().unwrap();
        assert_eq!(control, TimeControl { initial_ms: 300_000, increment_ms: 3_000 });
        assert_eq!(control.to_string(), "5+3");
        assert_eq!("0.5+0".parse::<TimeControl>().unwrap().initial_ms, 30_000);
        for bad in ["", "5", "0+3", "-1+0", "5+-1", "181+0", "5+181", "nan+0", "inf+0", "5+3+1"] {
            assert_eq!(bad.parse::<TimeControl>(), Err(BadTimeControl), "{bad}");
        }
    }

    #[test]
    fn a_move_charges_its_side_and_adds_the_increment() {
        let mut clocks = Clocks::start(TimeControl { initial_ms: 10_000, increment_ms: 1_000 });
        assert!(clocks.after_move(Seat::Red, 500, 1_000, true));
        // Not yet running: red lost nothing, gained the increment.
        assert_eq!((clocks.red_ms, clocks.since), (11_000, Some(500)));
        assert_eq!(clocks.left_at(Seat::Blue, 3_500), 7_000);
        assert!(clocks.after_move(Seat::Blue, 3_500, 1_000, true));
        assert_eq!(clocks.blue_ms, 8_000);
        assert!(!clocks.after_move(Seat::Red, 3_500 + 11_000, 1_000, true));
        assert_eq!(clocks.red_ms, 11_000);
    }
}
