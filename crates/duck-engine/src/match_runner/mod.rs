//! A match runner for Duck Chess: the statistics engine testers read a match with.
//!
//! [`tally`] keeps the totals, [`elo`] turns them into an Elo difference with its 95% interval
//! and the likelihood of superiority, and [`sprt`] decides when a match may stop.

pub mod elo;
pub mod sprt;
pub mod tally;
