//! What a match has shown so far: the totals, the Elo estimate, the test, how games ended; as
//! text for people and as JSON for programs.
//!
//! ```
//! use std::collections::BTreeMap;
//! use arbiter_duck_match::Report;
//! use arbiter_duck_match::tally::{Pentanomial, Tally, Trinomial};
//!
//! let report = Report {
//!     names: ["new".into(), "old".into()],
//!     tally: Tally {
//!         games: Trinomial { wins: 7, draws: 2, losses: 3 },
//!         pairs: Pentanomial([0, 1, 1, 3, 1]),
//!     },
//!     games: 12,
//!     sprt: None,
//!     endings: BTreeMap::from([("captain-captured", 10), ("ply-cap", 2)]),
//!     faults: [BTreeMap::new(), BTreeMap::new()],
//! };
//! assert_eq!(report.to_string(), "\
//! Games: 12 of 12, new vs old
//! new: 7 wins, 2 draws, 3 losses; score 8.0/12 = 66.7%
//! Elo difference: +120.4 ± 161.9 (95% interval -15.2 to +308.6); LOS 95.8%
//! Pairs by new's points (0, ½, 1, 1½, 2): 0, 1, 1, 3, 1 (the pentanomial model the Elo uses)
//! Endings: captain-captured 10, ply-cap 2
//! ");
//! assert_eq!(report.status(), "new 7-2-3 (66.7%), Elo +120.4 ± 161.9");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde_json::json;

use super::elo::Estimate;
use super::sprt::{Decision, Sprt};
use super::tally::Tally;

/// The SPRT's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtState {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio on the complete pairs.
    pub llr: f64,
    /// The hypothesis accepted, once one is.
    pub decision: Option<Decision>,
}

/// The state of a match: names, totals, test.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The engines' names.
    pub names: [String; 2],
    /// The totals, from the first engine's point of view.
    pub tally: Tally,
    /// The games the match was to play.
    pub games: u64,
    /// The test, if any.
    pub sprt: Option<SprtState>,
    /// How many games ended each way, by [`Termination::code`](super::game::Termination::code).
    pub endings: BTreeMap<&'static str, u64>,
    /// For each engine, how many games it lost by each kind of fault.
    pub faults: [BTreeMap<&'static str, u64>; 2],
}

/// Which counts an estimate rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Model {
    /// Complete game pairs.
    Pentanomial,
    /// Single games (before the first pair is complete).
    Trinomial,
}

impl Report {
    /// The report of a pairing before any game: `games` planned, the test not started.
    pub fn new(names: [String; 2], games: u64, sprt: Option<Sprt>) -> Report {
        Report {
            names,
            tally: Tally::default(),
            games,
            sprt: sprt.map(|test| SprtState { test, llr: 0.0, decision: None }),
            endings: BTreeMap::new(),
            faults: [BTreeMap::new(), BTreeMap::new()],
        }
    }

    /// The Elo estimate: from the complete pairs when there are any, else game by game.
    pub fn estimate(&self) -> Option<(Estimate, Model)> {
        match Estimate::pentanomial(self.tally.pairs) {
            Some(estimate) => Some((estimate, Model::Pentanomial)),
            None => Estimate::trinomial(self.tally.games).map(|e| (e, Model::Trinomial)),
        }
    }

    /// The first engine's score in percent of the games played.
    pub fn percent(&self) -> f64 {
        100.0 * self.tally.points() / self.tally.games.total().max(1) as f64
    }

    /// One line for a progress display: the first engine's wins, draws and losses, score, Elo
    /// and LLR.
    pub fn status(&self) -> String {
        let games = self.tally.games;
        let mut line = format!(
            "{} {}-{}-{} ({:.1}%)",
            self.names[0],
            games.wins,
            games.draws,
            games.losses,
            self.percent()
        );
        if let Some((estimate, _)) = self.estimate() {
            line += &format!(", Elo {:+.1} ± {:.1}", estimate.elo, estimate.margin());
        }
        if let Some(sprt) = &self.sprt {
            let (lower, upper) = sprt.test.bounds();
            line += &format!(", LLR {:.2} ({lower:.2}, {upper:.2})", sprt.llr);
        }
        line
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        self.json().to_string()
    }

    /// The report as a JSON value.
    pub fn json(&self) -> serde_json::Value {
        let games = self.tally.games;
        let estimate = self.estimate();
        let number = |value: f64| if value.is_finite() { json!(value) } else { json!(null) };
        let elo = estimate.map(|(e, model)| {
            json!({
                "elo": number(e.elo),
                "lower": number(e.lower),
                "upper": number(e.upper),
                "los": e.los,
                "model": match model {
                    Model::Pentanomial => "pentanomial",
                    Model::Trinomial => "trinomial",
                },
            })
        });
        let sprt = self.sprt.map(|s| {
            let (lower, upper) = s.test.bounds();
            json!({
                "elo0": s.test.elo0,
                "elo1": s.test.elo1,
                "alpha": s.test.alpha,
                "beta": s.test.beta,
                "llr": s.llr,
                "lower": lower,
                "upper": upper,
                "decision": s.decision.map(|d| match d {
                    Decision::H0 => "H0",
                    Decision::H1 => "H1",
                }),
            })
        });
        json!({
            "engines": self.names,
            "games": games.total(),
            "planned": self.games,
            "wins": games.wins,
            "draws": games.draws,
            "losses": games.losses,
            "score": self.tally.points() / games.total().max(1) as f64,
            "pentanomial": self.tally.pairs.0,
            "elo": elo,
            "sprt": sprt,
            "endings": self.endings,
            "faults": {
                self.names[0].clone(): self.faults[0],
                self.names[1].clone(): self.faults[1],
            },
        })
    }
}

impl fmt::Display for Report {
    /// The summary a match ends with, one fact per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second] = &self.names;
        let games = self.tally.games;
        writeln!(f, "Games: {} of {}, {first} vs {second}", games.total(), self.games)?;
        writeln!(
            f,
            "{first}: {} wins, {} draws, {} losses; score {:.1}/{} = {:.1}%",
            games.wins,
            games.draws,
            games.losses,
            self.tally.points(),
            games.total(),
            self.percent()
        )?;
        if let Some((e, model)) = self.estimate() {
            writeln!(
                f,
                "Elo difference: {:+.1} ± {:.1} (95% interval {:+.1} to {:+.1}); LOS {:.1}%",
                e.elo,
                e.margin(),
                e.lower,
                e.upper,
                e.los * 100.0
            )?;
            let [p0, p1, p2, p3, p4] = self.tally.pairs.0;
            let used = match model {
                Model::Pentanomial => "the pentanomial model the Elo uses",
                Model::Trinomial => "none complete: the Elo counts games one by one",
            };
            writeln!(
                f,
                "Pairs by {first}'s points (0, ½, 1, 1½, 2): {p0}, {p1}, {p2}, {p3}, {p4} ({used})"
            )?;
        }
        if let Some(sprt) = &self.sprt {
            let (lower, upper) = sprt.test.bounds();
            let test = sprt.test;
            write!(
                f,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} (bounds {lower:.2}, {upper:.2})",
                test.elo0, test.elo1, test.alpha, test.beta, sprt.llr
            )?;
            match sprt.decision {
                Some(Decision::H1) => writeln!(f, ": H1 accepted, {first} is the stronger")?,
                Some(Decision::H0) => writeln!(f, ": H0 accepted, {first} is not the stronger")?,
                None => writeln!(f, ": no decision")?,
            }
        }
        if !self.endings.is_empty() {
            let endings: Vec<String> =
                self.endings.iter().map(|(code, count)| format!("{code} {count}")).collect();
            writeln!(f, "Endings: {}", endings.join(", "))?;
        }
        for (name, faults) in self.names.iter().zip(&self.faults) {
            if !faults.is_empty() {
                let faults: Vec<String> =
                    faults.iter().map(|(code, count)| format!("{code} {count}")).collect();
                writeln!(f, "Games {name} lost by a fault: {}", faults.join(", "))?;
            }
        }
        Ok(())
    }
}
