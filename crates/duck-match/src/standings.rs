//! The result of a match of any number of engines: each pairing's [`Report`], each engine's
//! totals and Elo against the others, and the crosstable; as text and as JSON.
//!
//! ```
//! use arbiter_duck_match::Schedule;
//! use arbiter_duck_match::standings::Standings;
//! use arbiter_duck_match::Report;
//! use arbiter_duck_match::tally::{Pentanomial, Tally, Trinomial};
//!
//! let names = ["a", "b", "c"].map(String::from);
//! let pairing = |first: usize, second: usize, wins, losses, pairs| {
//!     let mut report = Report::new([names[first].clone(), names[second].clone()], 4, None);
//!     report.tally = Tally { games: Trinomial { wins, draws: 0, losses }, pairs: Pentanomial(pairs) };
//!     report.endings.insert("captain-captured", 4);
//!     report
//! };
//! let standings = Standings {
//!     names: names.to_vec(),
//!     pairings: vec![pairing(0, 1, 3, 1, [0, 0, 1, 0, 1]), pairing(0, 2, 4, 0, [0, 0, 0, 0, 2]),
//!         pairing(1, 2, 2, 2, [0, 0, 2, 0, 0])],
//!     engines: vec![[0, 1], [0, 2], [1, 2]],
//!     schedule: Schedule::RoundRobin,
//!     games: 12,
//! };
//! assert_eq!(standings.to_string(), "\
//! Games: 12 of 12, a round robin of 3 engines
//! Rank Engine Games Score           Elo (95% interval)                  LOS
//!    1 a          8 7.0/8 = 87.5%   +338.0 ± inf (+117.4 to +inf)       100.0%
//!    2 b          8 3.0/8 = 37.5%   -88.7 ± 172.8 (-284.4 to +61.2)     12.4%
//!    3 c          8 2.0/8 = 25.0%   -190.8 ± 458.0 (-919.4 to -3.5)      2.3%
//! Crosstable, the row's points against the column's:
//!           a        b        c
//!   a       -        3.0/4    4.0/4
//!   b       1.0/4    -        2.0/4
//!   c       0.0/4    2.0/4    -
//! a vs b: 3 wins, 0 draws, 1 losses; score 3.0/4 = 75.0%; Elo +190.8 ± inf (95% interval -67.9 to +inf)
//! a vs c: 4 wins, 0 draws, 0 losses; score 4.0/4 = 100.0%; Elo +inf ± inf (95% interval +inf to +inf)
//! b vs c: 2 wins, 0 draws, 2 losses; score 2.0/4 = 50.0%; Elo +0.0 ± 0.0 (95% interval +0.0 to +0.0)
//! Endings: captain-captured 12
//! ");
//! ```
//!
//! Each engine's Elo is that of its games against all the others pooled, from its side: its game
//! pairs counted by its points (the pentanomial model of a two-engine match), so the figure is
//! its strength against the field it met, with the same 95% interval and LOS.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::json;

use super::report::Report;
use super::schedule::Schedule;
use super::tally::{Pentanomial, Tally, Trinomial};

/// Where a match of any number of engines stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// The engines' names, in the order given.
    pub names: Vec<String>,
    /// Each pairing's report, from its first engine's side.
    pub pairings: Vec<Report>,
    /// Each pairing's first and second engine, as indices into [`names`](Standings::names).
    pub engines: Vec<[usize; 2]>,
    /// Which engines meet.
    pub schedule: Schedule,
    /// The games the match was to play, all pairings together.
    pub games: u64,
}

/// A tally seen from the other engine's side.
fn reversed(tally: Tally) -> Tally {
    let Trinomial { wins, draws, losses } = tally.games;
    let mut pairs = tally.pairs.0;
    pairs.reverse();
    Tally { games: Trinomial { wins: losses, draws, losses: wins }, pairs: Pentanomial(pairs) }
}

impl Standings {
    /// Engine `engine`'s games against all the others, as a report of it against the field.
    pub fn engine(&self, engine: usize) -> Report {
        let name = self.names.get(engine).cloned().unwrap_or_default();
        let mut report = Report::new([name, "the others".to_owned()], 0, None);
        for (pairing, players) in self.pairings.iter().zip(&self.engines) {
            let (tally, faults) = match players.iter().position(|&p| p == engine) {
                Some(0) => (pairing.tally, &pairing.faults[0]),
                Some(_) => (reversed(pairing.tally), &pairing.faults[1]),
                None => continue,
            };
            report.games += pairing.games;
            let total = &mut report.tally;
            total.games.wins += tally.games.wins;
            total.games.draws += tally.games.draws;
            total.games.losses += tally.games.losses;
            for (sum, count) in total.pairs.0.iter_mut().zip(tally.pairs.0) {
                *sum += count;
            }
            for (code, count) in faults {
                *report.faults[0].entry(code).or_default() += count;
            }
        }
        report
    }

    /// The engines by their score, best first (the order given among equals).
    pub fn ranking(&self) -> Vec<(usize, Report)> {
        let mut ranked: Vec<(usize, Report)> =
            (0..self.names.len()).map(|engine| (engine, self.engine(engine))).collect();
        ranked.sort_by(|(_, a), (_, b)| b.percent().total_cmp(&a.percent()));
        ranked
    }

    /// How many games ended each way, all pairings together.
    pub fn endings(&self) -> BTreeMap<&'static str, u64> {
        let mut endings = BTreeMap::new();
        for pairing in &self.pairings {
            for (code, count) in &pairing.endings {
                *endings.entry(*code).or_default() += count;
            }
        }
        endings
    }

    /// The games counted, all pairings together.
    pub fn played(&self) -> u64 {
        self.pairings.iter().map(|pairing| pairing.tally.games.total()).sum()
    }

    /// The points of `row` against `column` and the games between them, if they met.
    fn cell(&self, row: usize, column: usize) -> Option<(f64, u64)> {
        self.pairings.iter().zip(&self.engines).find_map(|(pairing, players)| {
            let games = pairing.tally.games.total();
            match *players {
                [first, second] if [first, second] == [row, column] => {
                    Some((pairing.tally.points(), games))
                }
                [first, second] if [second, first] == [row, column] => {
                    Some((games as f64 - pairing.tally.points(), games))
                }
                _ => None,
            }
        })
    }

    /// The standings as one JSON object.
    pub fn to_json(&self) -> String {
        let standings: Vec<serde_json::Value> = self
            .ranking()
            .into_iter()
            .map(|(engine, report)| {
                let mut value = report.json();
                value["engine"] = json!(self.names[engine]);
                value
            })
            .collect();
        json!({
            "engines": self.names,
            "schedule": match self.schedule {
                Schedule::RoundRobin => "round-robin",
                Schedule::Gauntlet => "gauntlet",
            },
            "games": self.played(),
            "planned": self.games,
            "standings": standings,
            "pairings": self.pairings.iter().map(Report::json).collect::<Vec<_>>(),
            "endings": self.endings(),
        })
        .to_string()
    }
}

/// An Elo figure, `inf` when infinite.
fn elo(value: f64) -> String {
    format!("{value:+.1}")
}

impl fmt::Display for Standings {
    /// The standings, the crosstable and the pairings, one fact per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let schedule = match self.schedule {
            Schedule::RoundRobin => "a round robin",
            Schedule::Gauntlet => "a gauntlet",
        };
        let engines = self.names.len();
        writeln!(f, "Games: {} of {}, {schedule} of {engines} engines", self.played(), self.games)?;
        let width = self.names.iter().map(|name| name.chars().count()).max().unwrap_or(0).max(6);
        let ranking = self.ranking();
        writeln!(
            f,
            "Rank {:<width$} Games {:<15} {:<35} LOS",
            "Engine", "Score", "Elo (95% interval)"
        )?;
        for (rank, (engine, report)) in ranking.iter().enumerate() {
            let games = report.tally.games.total();
            let score = format!("{:.1}/{games} = {:.1}%", report.tally.points(), report.percent());
            let (estimate, los) = match report.estimate() {
                Some((e, _)) => (
                    format!(
                        "{} ± {:.1} ({} to {})",
                        elo(e.elo),
                        e.margin(),
                        elo(e.lower),
                        elo(e.upper)
                    ),
                    format!("{:.1}%", e.los * 100.0),
                ),
                None => ("-".to_owned(), "-".to_owned()),
            };
            writeln!(
                f,
                "{:>4} {:<width$} {games:>5} {score:<15} {estimate:<35} {los:>5}",
                rank + 1,
                self.names[*engine]
            )?;
        }
        writeln!(f, "Crosstable, the row's points against the column's:")?;
        let cells = width.max(7);
        let mut header = format!("  {:<width$}", "");
        for name in &self.names {
            header += &format!("  {name:<cells$}");
        }
        writeln!(f, "{}", header.trim_end())?;
        for row in 0..engines {
            let mut line = format!("  {:<width$}", self.names[row]);
            for column in 0..engines {
                let cell = match self.cell(row, column) {
                    _ if row == column => "-".to_owned(),
                    Some((points, games)) => format!("{points:.1}/{games}"),
                    None => ".".to_owned(),
                };
                line += &format!("  {cell:<cells$}");
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        for pairing in &self.pairings {
            let [first, second] = &pairing.names;
            let games = pairing.tally.games;
            write!(
                f,
                "{first} vs {second}: {} wins, {} draws, {} losses; score {:.1}/{} = {:.1}%",
                games.wins,
                games.draws,
                games.losses,
                pairing.tally.points(),
                games.total(),
                pairing.percent()
            )?;
            match pairing.estimate() {
                Some((e, _)) => writeln!(
                    f,
                    "; Elo {} ± {:.1} (95% interval {} to {})",
                    elo(e.elo),
                    e.margin(),
                    elo(e.lower),
                    elo(e.upper)
                )?,
                None => writeln!(f)?,
            }
        }
        let endings = self.endings();
        if !endings.is_empty() {
            let endings: Vec<String> =
                endings.iter().map(|(code, count)| format!("{code} {count}")).collect();
            writeln!(f, "Endings: {}", endings.join(", "))?;
        }
        for (engine, report) in ranking {
            let faults = &report.faults[0];
            if !faults.is_empty() {
                let faults: Vec<String> =
                    faults.iter().map(|(code, count)| format!("{code} {count}")).collect();
                writeln!(f, "Games {} lost by a fault: {}", self.names[engine], faults.join(", "))?;
            }
        }
        Ok(())
    }
}
