//! The figures of a run and the table they are printed as.

use std::fmt;
use std::time::Duration;

use crate::Options;
use crate::check::Check;
use crate::play::Record;
use crate::server;

/// How long each phase took.
#[derive(Debug, Clone, Copy)]
pub struct Phases {
    /// Creating, joining and opening the sockets of every game.
    pub set_up: Duration,
    /// Playing them all, from the first move sent to the last game left.
    pub played: Duration,
}

/// The server's memory over the run.
#[derive(Debug, Clone, Copy)]
pub struct Memory {
    /// Before the games were set up.
    pub idle: Option<server::Memory>,
    /// Once every game was set up, its players' sockets open.
    pub seated: Option<server::Memory>,
    /// Once the spectators' sockets were open too.
    pub watched: Option<server::Memory>,
    /// The most resident memory seen while the games were played, in KiB (0 if unread).
    pub in_play_kib: u64,
    /// Once every game was left: `peak_kib` is the peak of the whole run.
    pub after: Option<server::Memory>,
}

/// A distribution's figures: p50, p90, p99 and the largest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spread {
    /// The median.
    pub p50: Duration,
    /// The 90th percentile.
    pub p90: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// The largest.
    pub max: Duration,
}

impl Spread {
    /// The figures of `samples` (all zero when there are none).
    pub fn of(mut samples: Vec<Duration>) -> Spread {
        samples.sort_unstable();
        let at = |q: f64| {
            // The nearest-rank percentile: the smallest sample at or above the fraction q.
            let rank = (q * samples.len() as f64).ceil() as usize;
            samples.get(rank.saturating_sub(1)).copied().unwrap_or_default()
        };
        Spread { p50: at(0.50), p90: at(0.90), p99: at(0.99), max: at(1.0) }
    }
}

impl fmt::Display for Spread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// What a run measured and found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The load asked for.
    pub options: Options,
    /// Games played (set up without failure).
    pub played: usize,
    /// Games that ended by the rules before the move limit.
    pub ended: usize,
    /// Moves acknowledged in all.
    pub moves: u64,
    /// How long each phase took.
    pub phases: Phases,
    /// From a move sent to the opponent's socket showing it.
    pub shown: Spread,
    /// From a move sent to each spectator's socket showing it.
    pub spectated: Spread,
    /// From a move sent to its acknowledgement.
    pub answered: Spread,
    /// Actions answered 429 and sent again.
    pub busy: u64,
    /// The server's memory.
    pub memory: Memory,
    /// The database against what was acknowledged.
    pub check: Check,
    /// What went wrong, game by game.
    pub failures: Vec<String>,
}

impl Report {
    /// The report of `records`.
    pub fn new(
        options: &Options,
        records: &[Record],
        phases: Phases,
        memory: Memory,
        check: Check,
        failures: Vec<String>,
    ) -> Report {
        let all = |each: fn(&Record) -> &Vec<Duration>| {
            records.iter().flat_map(|r| each(r).iter().copied()).collect::<Vec<_>>()
        };
        Report {
            options: options.clone(),
            played: records.len(),
            ended: records.iter().filter(|r| r.ended).count(),
            moves: records.iter().map(|r| r.acknowledged.len() as u64).sum(),
            phases,
            shown: Spread::of(all(|r| &r.shown)),
            spectated: Spread::of(all(|r| &r.spectated)),
            answered: Spread::of(all(|r| &r.answered)),
            busy: records.iter().map(|r| r.busy).sum(),
            memory,
            check,
            failures,
        }
    }

    /// Whether every game was played without failure and the database holds exactly what was
    /// acknowledged.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.played == self.options.games && self.check.passed()
    }

    /// Moves acknowledged a second while the games were played.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.phases.played.as_secs_f64().max(1e-9)
    }
}

/// KiB as MiB, one decimal.
fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        writeln!(
            f,
            "live games load: {} games of 2 WebSocket clients and {} spectators, at most {} moves a \
             game, {} ms to think, seed {}",
            o.games,
            o.spectators,
            o.moves,
            o.think.as_millis(),
            o.seed
        )?;
        writeln!(f)?;
        writeln!(f, "| figure | value |")?;
        writeln!(f, "| --- | --- |")?;
        writeln!(
            f,
            "| games | {} set up in {:.2} s; {} ended by the rules, {} left at the move limit |",
            self.played,
            self.phases.set_up.as_secs_f64(),
            self.ended,
            self.played - self.ended
        )?;
        writeln!(
            f,
            "| moves acknowledged | {} in {:.2} s: {:.0} moves/s |",
            self.moves,
            self.phases.played.as_secs_f64(),
            self.moves_per_second()
        )?;
        writeln!(f, "| move sent → opponent's socket | {} |", self.shown)?;
        if o.spectators > 0 {
            writeln!(f, "| move sent → each spectator's socket | {} |", self.spectated)?;
        }
        writeln!(f, "| move sent → acknowledged | {} |", self.answered)?;
        writeln!(f, "| actions answered 429, sent again | {} |", self.busy)?;
        let memory = &self.memory;
        match (memory.idle, memory.after) {
            (Some(idle), Some(after)) => writeln!(
                f,
                "| server memory (RSS) | idle {}, most seen in play {}, peak (VmHWM) {}, after \
                 {} |",
                mib(idle.now_kib),
                mib(memory.in_play_kib),
                // VmHWM is updated lazily: a sample may have seen more.
                mib(after.peak_kib.max(memory.in_play_kib)),
                mib(after.now_kib)
            )?,
            _ => writeln!(f, "| server memory (RSS) | not read |")?,
        }
        let sockets = self.played * (2 + o.spectators);
        if let (Some(idle), Some(seated), Some(watched)) =
            (memory.idle, memory.seated, memory.watched)
        {
            let per = |kib: u64, count: usize| kib as f64 / count.max(1) as f64;
            writeln!(
                f,
                "| server memory per game set up (its players' 2 sockets and HTTP connection \
                 included) | {:.1} KiB |",
                per(seated.now_kib.saturating_sub(idle.now_kib), self.played)
            )?;
            if o.spectators > 0 {
                writeln!(
                    f,
                    "| server memory per idle spectator socket | {:.1} KiB ({} sockets open in \
                     all, {} at the peak) |",
                    per(watched.now_kib.saturating_sub(seated.now_kib), self.played * o.spectators),
                    sockets,
                    mib(watched.now_kib)
                )?;
            }
        }
        let c = &self.check;
        writeln!(
            f,
            "| database | {} moves stored: {} lost, {} extra or duplicated, {} games' rows wrong, \
             {} strangers; {} moves sent unanswered but stored |",
            c.stored, c.lost, c.extra, c.bad_rows, c.strangers, c.unanswered_stored
        )?;
        writeln!(f)?;
        for failure in self.failures.iter().take(10) {
            writeln!(f, "failed: {failure}")?;
        }
        if self.failures.len() > 10 {
            writeln!(f, "failed: ... and {} more", self.failures.len() - 10)?;
        }
        let verdict = if self.passed() {
            "passed: every acknowledged move is stored once, in order, and nothing else"
        } else {
            "FAILED"
        };
        write!(f, "{verdict}")
    }
}
