//! How long engines may think: a fixed time per move, or a clock with a base time and an
//! increment, and the limits sent with `go`.
//!
//! ```
//! use std::time::Duration;
//! use arbiter_duck::Color;
//! use arbiter_duck_match::clock::{Clocks, Limits, TimeControl};
//!
//! let tc: TimeControl = "10+0.1".parse().unwrap();
//! assert_eq!(tc, TimeControl::Increment {
//!     base: Duration::from_secs(10),
//!     increment: Duration::from_millis(100),
//! });
//! assert_eq!(tc.to_string(), "10+0.1");
//!
//! let limits = Limits { clock: Some(tc), ..Limits::default() };
//! let mut clocks = Clocks::new(&limits);
//! assert_eq!(clocks.go().to_string(), "go wtime 10000 btime 10000 winc 100 binc 100");
//! // Red thinks 1.5 s: 8.5 s left, plus the increment.
//! clocks.spend(Color::Red, Duration::from_millis(1500)).unwrap();
//! assert_eq!(clocks.remaining(Color::Red), Some(Duration::from_millis(8600)));
//! // Blue thinks 11 s: its flag falls.
//! assert!(clocks.spend(Color::Blue, Duration::from_secs(11)).is_err());
//! ```
//!
//! Time is measured by the runner from the moment `go` has been written to the engine to the
//! moment its `bestmove` line is read, so it includes the time the engine's process takes to be
//! scheduled and to read and write the pipe. A flag falls only when an engine exceeds its
//! allowance by more than [`Limits::margin`] (100 ms unless set): a late move within the margin is
//! played, and the clock, which never goes below zero, is charged with it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use arbiter_duck::Color;
use arbiter_duck_protocol::Go;

/// A time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A fixed time for every move (`go movetime`).
    MoveTime(Duration),
    /// A clock per side: `base` for the game, `increment` added after each move
    /// (`go wtime btime winc binc`).
    Increment {
        /// The time on each clock at the start.
        base: Duration,
        /// The time added after each move.
        increment: Duration,
    },
}

/// Everything that bounds a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The time control, if the engines' thinking is bounded by time.
    pub clock: Option<TimeControl>,
    /// A fixed depth in plies (`go depth`).
    pub depth: Option<u32>,
    /// A fixed number of nodes (`go nodes`).
    pub nodes: Option<u64>,
    /// How far past its allowance an engine may answer before it loses on time.
    pub margin: Duration,
    /// How long to wait for an answer no clock bounds: the handshake, `readyok`, and moves at a
    /// fixed depth or node count. An engine silent for longer is taken to hang.
    pub timeout: Duration,
}

impl Default for Limits {
    /// No clock, depth or node limit; a margin of 100 ms and a timeout of 30 s.
    fn default() -> Limits {
        Limits {
            clock: None,
            depth: None,
            nodes: None,
            margin: Duration::from_millis(100),
            timeout: Duration::from_secs(30),
        }
    }
}

/// The two sides' clocks during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clocks {
    limits: Limits,
    /// Red's and blue's time controls (time odds: they may differ).
    controls: [Option<TimeControl>; 2],
    /// Red's and blue's remaining time under [`TimeControl::Increment`].
    remaining: [Duration; 2],
}

/// A flag fell: the engine took `elapsed`, and was allowed `allowed` (its margin included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("took {} ms, {} ms allowed", elapsed.as_millis(), allowed.as_millis())]
pub struct Flag {
    /// How long the engine took.
    pub elapsed: Duration,
    /// How long it could have taken.
    pub allowed: Duration,
}

impl Clocks {
    /// Both clocks at the start of a game, both sides on the limits' time control.
    pub fn new(limits: &Limits) -> Clocks {
        Clocks::with_odds(limits, [None, None])
    }

    /// Both clocks at the start of a game, red and blue each on its own time control where
    /// `controls` gives one (time odds), else on the limits'.
    pub fn with_odds(limits: &Limits, controls: [Option<TimeControl>; 2]) -> Clocks {
        let controls = controls.map(|control| control.or(limits.clock));
        let remaining = controls.map(|control| match control {
            Some(TimeControl::Increment { base, .. }) => base,
            _ => Duration::ZERO,
        });
        Clocks { limits: *limits, controls, remaining }
    }

    /// `side`'s remaining time, when its time control is a clock.
    pub fn remaining(&self, side: Color) -> Option<Duration> {
        match self.controls[side.index()] {
            Some(TimeControl::Increment { .. }) => Some(self.remaining[side.index()]),
            _ => None,
        }
    }

    /// The `go` command for red's next move (see [`go_for`](Clocks::go_for)).
    pub fn go(&self) -> Go {
        self.go_for(Color::Red)
    }

    /// The `go` command for `side`'s next move: `movetime` under a fixed time per move, or every
    /// clock (`wtime`/`winc` for red, `btime`/`binc` for blue), each side's own.
    pub fn go_for(&self, side: Color) -> Go {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let mut go = Go { depth: self.limits.depth, nodes: self.limits.nodes, ..Go::default() };
        match self.controls[side.index()] {
            Some(TimeControl::MoveTime(time)) => go.movetime = Some(millis(time)),
            Some(TimeControl::Increment { .. }) => {
                for color in [Color::Red, Color::Blue] {
                    let Some(TimeControl::Increment { increment, .. }) =
                        self.controls[color.index()]
                    else {
                        continue;
                    };
                    let (time, inc) = match color {
                        Color::Red => (&mut go.wtime, &mut go.winc),
                        Color::Blue => (&mut go.btime, &mut go.binc),
                    };
                    *time = Some(millis(self.remaining[color.index()]));
                    *inc = Some(millis(increment));
                }
            }
            None => {}
        }
        go
    }

    /// How long `side` may take for this move before it loses on time (the margin included);
    /// without a clock, the timeout.
    pub fn allowed(&self, side: Color) -> Duration {
        match self.controls[side.index()] {
            Some(TimeControl::MoveTime(time)) => time + self.limits.margin,
            Some(TimeControl::Increment { .. }) => {
                self.remaining[side.index()] + self.limits.margin
            }
            None => self.limits.timeout,
        }
    }

    /// Charges `side` with a move that took `elapsed`; a [`Flag`] if that was too long.
    pub fn spend(&mut self, side: Color, elapsed: Duration) -> Result<(), Flag> {
        let allowed = self.allowed(side);
        if elapsed > allowed {
            return Err(Flag { elapsed, allowed });
        }
        if let Some(TimeControl::Increment { increment, .. }) = self.controls[side.index()] {
            let clock = &mut self.remaining[side.index()];
            *clock = clock.saturating_sub(elapsed) + increment;
        }
        Ok(())
    }
}

/// A time control that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found `{found}`")]
pub struct ParseTimeControlError {
    /// What was expected.
    pub expected: &'static str,
    /// What stands there.
    pub found: String,
}

/// Reads a number of seconds with at most three decimals (`10`, `0.5`, `2.125`) exactly.
fn seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 3 {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let millis: u64 = format!("{fraction:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(millis).map(Duration::from_millis)
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Reads `BASE+INCREMENT` or `BASE`, in seconds with up to three decimals (`10+0.1`, `60`):
    /// a clock. (A fixed time per move is given in milliseconds elsewhere.)
    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let error = |expected, found: &str| ParseTimeControlError { expected, found: found.into() };
        let base = seconds(base)
            .filter(|base| !base.is_zero())
            .ok_or_else(|| error("a base time in seconds above 0, such as 10 or 0.5", base))?;
        let increment = seconds(increment)
            .ok_or_else(|| error("an increment in seconds, such as 0.1", increment))?;
        Ok(TimeControl::Increment { base, increment })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |d: &Duration| {
            let text = format!("{}.{:03}", d.as_secs(), d.subsec_millis());
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        };
        match self {
            TimeControl::MoveTime(time) => write!(f, "{} ms per move", time.as_millis()),
            TimeControl::Increment { base, increment } if increment.is_zero() => {
                write!(f, "{}", seconds(base))
            }
            TimeControl::Increment { base, increment } => {
                write!(f, "{}+{}", seconds(base), seconds(increment))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn time_controls_read_and_write() {
        for (text, base, increment, shown) in [
            ("10+0.1", 10_000, 100, "10+0.1"),
            ("60", 60_000, 0, "60"),
            ("0.5+0.05", 500, 50, "0.5+0.05"),
            ("2.125+1", 2125, 1000, "2.125+1"),
            ("1.0+0.000", 1000, 0, "1"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc, TimeControl::Increment { base: ms(base), increment: ms(increment) });
            assert_eq!(tc.to_string(), shown);
        }
        for (text, message) in [
            ("", "expected a base time in seconds above 0, such as 10 or 0.5, found ``"),
            ("0+1", "expected a base time in seconds above 0, such as 10 or 0.5, found `0`"),
            ("10+", "expected an increment in seconds, such as 0.1, found ``"),
            ("10+0.0001", "expected an increment in seconds, such as 0.1, found `0.0001`"),
            ("1e3", "expected a base time in seconds above 0, such as 10 or 0.5, found `1e3`"),
            ("-5+1", "expected a base time in seconds above 0, such as 10 or 0.5, found `-5`"),
            ("40/60", "expected a base time in seconds above 0, such as 10 or 0.5, found `40/60`"),
            ("99999999999999999999", "expected a base time in seconds above 0"),
        ] {
            let error = text.parse::<TimeControl>().unwrap_err().to_string();
            assert!(error.starts_with(message), "{text}: {error}");
        }
    }

    #[test]
    fn a_fixed_time_per_move() {
        let limits = Limits { clock: Some(TimeControl::MoveTime(ms(50))), ..Limits::default() };
        let mut clocks = Clocks::new(&limits);
        assert_eq!(clocks.go().to_string(), "go movetime 50");
        assert_eq!(clocks.allowed(Color::Blue), ms(150));
        assert_eq!(clocks.remaining(Color::Blue), None);
        assert!(clocks.spend(Color::Blue, ms(150)).is_ok());
        let flag = clocks.spend(Color::Blue, ms(151)).unwrap_err();
        assert_eq!(flag.to_string(), "took 151 ms, 150 ms allowed");
    }

    #[test]
    fn a_clock_is_charged_and_refilled() {
        let limits =
            Limits { clock: Some("1+0.5".parse().unwrap()), margin: ms(20), ..Limits::default() };
        let mut clocks = Clocks::new(&limits);
        clocks.spend(Color::Red, ms(1010)).unwrap();
        // Over the clock but within the margin: the move stands, the clock stops at zero.
        assert_eq!(clocks.remaining(Color::Red), Some(ms(500)));
        assert_eq!(clocks.go().to_string(), "go wtime 500 btime 1000 winc 500 binc 500");
        assert_eq!(clocks.allowed(Color::Red), ms(520));
        assert!(clocks.spend(Color::Red, ms(521)).is_err());
    }

    #[test]
    fn time_odds_give_each_side_its_own_clock() {
        let limits = Limits { clock: Some("1+0.5".parse().unwrap()), ..Limits::default() };
        let odds = [None, Some("0.25+0.01".parse().unwrap())];
        let mut clocks = Clocks::with_odds(&limits, odds);
        let both = "go wtime 1000 btime 250 winc 500 binc 10";
        assert_eq!(clocks.go_for(Color::Red).to_string(), both);
        assert_eq!(clocks.go_for(Color::Blue).to_string(), both);
        assert_eq!(clocks.allowed(Color::Blue), ms(350));
        clocks.spend(Color::Blue, ms(100)).unwrap();
        assert_eq!(clocks.remaining(Color::Blue), Some(ms(160)));
        // A fixed time per move against a clock: each is sent its own.
        let limits = Limits { clock: Some(TimeControl::MoveTime(ms(50))), ..Limits::default() };
        let clocks = Clocks::with_odds(&limits, [Some("2+0".parse().unwrap()), None]);
        assert_eq!(clocks.go_for(Color::Red).to_string(), "go wtime 2000 winc 0");
        assert_eq!(clocks.go_for(Color::Blue).to_string(), "go movetime 50");
        assert_eq!(clocks.remaining(Color::Blue), None);
    }

    #[test]
    fn depth_and_nodes_without_a_clock() {
        let limits = Limits { depth: Some(3), nodes: Some(1000), ..Limits::default() };
        let clocks = Clocks::new(&limits);
        assert_eq!(clocks.go().to_string(), "go depth 3 nodes 1000");
        assert_eq!(clocks.allowed(Color::Red), Duration::from_secs(30));
    }
}
