//! A match runner for Duck Chess: where games start, how long engines may think, and the
//! statistics engine testers read a match with.
//!
//! [`opening`] reads openings files and makes random openings, [`clock`] keeps the time,
//! [`tally`] keeps the totals, [`elo`] turns them into an Elo difference with its 95% interval
//! and the likelihood of superiority, and [`sprt`] decides when a match may stop.

pub mod clock;
pub mod elo;
pub mod opening;
pub mod sprt;
pub mod tally;
