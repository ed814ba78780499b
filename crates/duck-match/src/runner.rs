//! A match: game pairs between engines, played a few at a time, counted, tested, saved.
//!
//! Two engines play one pairing; more play a gauntlet (the first engine against each other) or
//! a round robin (every pair of engines), each pairing `games` games. Games are numbered from 1
//! and come in pairs: games 2k−1 and 2k share an opening, the pairing's first engine playing red
//! in the first and blue in the second. Pairs go round the pairings in turn (pair 1 to the first
//! pairing, pair 2 to the second, ...), so that a match stopped early has played every pairing
//! about as much, and the k-th pair of every pairing has the k-th opening. Each of the
//! `concurrency` workers owns one process of each engine, started once and reused from game to
//! game (`ucinewgame`, then `isready`); an engine that lost a game by a fault (a crash, a hang, a
//! refused or unreadable move, a lost flag) is killed and started afresh before its next game, so
//! that nothing it was still doing leaks into the next one. Workers take the next game number as
//! they become free, so games finish out of order; the runner counts each game as it finishes,
//! and each pair once both its games have.
//!
//! With an SPRT (two engines only), the test is updated with every complete pair, and the match
//! stops as soon as it accepts a hypothesis: the games still running are abandoned between two
//! moves and count nowhere, so the totals reported are those the decision was taken on.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;

use super::adjudication::Adjudication;
use super::clock::Limits;
use super::game::{self, Finished, GameRecord, GameResult, Setup, Termination};
use super::machine;
use super::opening::{InvalidOpening, Opening};
use super::process::{EngineError, EngineProcess, EngineSpec};
use super::report::Report;
use super::save::{ResultLine, SavedResult, Saver};
use super::schedule::Schedule;
use super::sprt::Sprt;
use super::standings::Standings;
use super::tally::Points;

/// Where the games start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the official starting position.
    Start,
    /// These openings in order, each for one pair, from the first again when they run out.
    List(Vec<Opening>),
    /// A random opening of `plies` moves for each pair (see [`Opening::random`]).
    Random {
        /// Its length.
        plies: usize,
        /// The seed of every opening of the match.
        seed: u64,
    },
}

impl Openings {
    /// The opening of pair `pair` (from 0).
    pub fn get(&self, pair: u64) -> Opening {
        match self {
            Openings::Start => Opening::default(),
            Openings::List(list) if list.is_empty() => Opening::default(),
            Openings::List(list) => list[(pair % list.len() as u64) as usize].clone(),
            Openings::Random { plies, seed } => Opening::random(*seed, pair, *plies),
        }
    }
}

/// Everything a match is played with.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines, two or more: with two, the first is the one tested and the second the
    /// reference.
    pub engines: Vec<EngineSpec>,
    /// Which engines meet, when there are more than two.
    pub schedule: Schedule,
    /// How many games each pairing plays, an even number (every opening is played with both
    /// colours).
    pub games: u64,
    /// Where they start.
    pub openings: Openings,
    /// The limits of each move.
    pub limits: Limits,
    /// The ply cap (see [`game::MAX_PLIES`]).
    pub max_plies: u32,
    /// When the engines' scores end a game (none by default).
    pub adjudication: Adjudication,
    /// How many games are played at once.
    pub concurrency: usize,
    /// The test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Where to save the games, the results and the engines' standard error.
    pub save: Option<PathBuf>,
    /// Pin each engine process to a core of its own (see [`machine`](super::machine)).
    pub affinity: bool,
    /// Go on with the match saved in [`save`](MatchConfig::save): its games are counted as they
    /// were, and only the others are played.
    pub resume: bool,
    /// Play only the games of these numbers (from 1), a share of the match another machine
    /// plays the rest of; each game is the one the whole match plays under its number (its
    /// engines, colours and opening). None: every game.
    pub only: Option<Range<u64>>,
}

/// What the runner reports as the match goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The engines of the first worker are ready: their names, and warnings about them.
    Ready {
        /// The names (made distinct), in the order of the engines.
        names: &'a [String],
        /// Things worth telling, e.g. options an engine did not declare.
        warnings: &'a [String],
    },
    /// A game has ended and been counted.
    Finished {
        /// The game.
        game: &'a Finished,
        /// Its line in the results.
        line: &'a ResultLine,
        /// The totals so far of the game's pairing.
        report: &'a Report,
    },
}

/// Why a match could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine could not be started or did not shake hands.
    #[error("engine {} (`{command}`) failed to start: {error}", engine + 1)]
    Start {
        /// The engine's index: 0 for the first.
        engine: usize,
        /// Its command.
        command: String,
        /// What went wrong.
        error: EngineError,
    },
    /// An opening's moves cannot be played.
    #[error(transparent)]
    Opening(#[from] InvalidOpening),
    /// A saved match to resume does not match this one.
    #[error("cannot resume from {}: {reason}", dir.display())]
    Resume {
        /// The directory.
        dir: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// The save directory could not be written.
    #[error("cannot save to {}: {error}", dir.display())]
    Save {
        /// The directory.
        dir: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
}

/// What a worker tells the runner.
enum Message {
    Started { names: Vec<String>, warnings: Vec<String> },
    Finished(Box<Finished>),
    Failed(MatchError),
}

/// Plays a match of two engines, telling `on_event` as it goes; the final report (of the first
/// pairing, when there are more engines: see [`run_all`]).
pub fn run(config: &MatchConfig, on_event: impl FnMut(Event<'_>)) -> Result<Report, MatchError> {
    let standings = run_all(config, on_event)?;
    Ok(standings
        .pairings
        .into_iter()
        .next()
        .unwrap_or_else(|| Report::new([String::new(), String::new()], config.games, config.sprt)))
}

/// Plays the match, with any number of engines, telling `on_event` as it goes; the final
/// standings.
pub fn run_all(
    config: &MatchConfig,
    mut on_event: impl FnMut(Event<'_>),
) -> Result<Standings, MatchError> {
    // A bad opening ends the match before any engine starts, not in the middle of it.
    if let Openings::List(openings) = &config.openings {
        for opening in openings {
            opening.game()?;
        }
    }
    let pairings = config.schedule.pairings(config.engines.len());
    let total = config.games * pairings.len() as u64;
    let save_error =
        |error| MatchError::Save { dir: config.save.clone().unwrap_or_default(), error };
    let (mut saver, saved) = match &config.save {
        Some(dir) if config.resume => {
            let (saver, saved) = Saver::resume(dir, total).map_err(save_error)?;
            (Some(saver), saved)
        }
        Some(dir) => (Some(Saver::create(dir, total).map_err(save_error)?), Vec::new()),
        None => (None, Vec::new()),
    };
    // The test needs one pairing: with more, what it decided would be unclear. A share of a
    // match never stops early: the test is for the whole, once the shares are put together.
    let sprt = if pairings.len() == 1 && config.only.is_none() { config.sprt } else { None };
    let mut standings = Standings {
        names: vec![String::new(); config.engines.len()],
        pairings: pairings
            .iter()
            .map(|_| Report::new([String::new(), String::new()], config.games, sprt))
            .collect(),
        engines: pairings.clone(),
        schedule: config.schedule,
        games: total,
    };
    let mut first_games: HashMap<u64, Points> = HashMap::new();
    let mut done = HashSet::new();
    for result in sorted_by_game(saved) {
        let resume_error = |reason: String| MatchError::Resume {
            dir: config.save.clone().unwrap_or_default(),
            reason: format!("game {}: {reason}", result.game),
        };
        let counted = restore(&result, &pairings, total).map_err(resume_error)?;
        if !done.insert(result.game - 1) {
            return Err(resume_error("counted twice".to_owned()));
        }
        let report = &mut standings.pairings[counted.pairing];
        count(report, &mut first_games, &counted);
        // Counted in the order of their numbers, the games after a decision count nowhere, as
        // in a match played one game at a time (games spread over machines are merged so).
        if report.sprt.is_some_and(|sprt| sprt.decision.is_some()) {
            break;
        }
    }
    let decided = standings.pairings.iter().any(|r| r.sprt.is_some_and(|s| s.decision.is_some()));
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(decided);
    let workers = config.concurrency.clamp(1, total.max(1) as usize);
    let mut failure = None;
    thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for worker in 0..workers {
            let send = send.clone();
            let (next, stop, pairings, done) = (&next, &stop, &pairings, &done);
            scope.spawn(move || {
                Worker { config, pairings, done, id: worker, next, stop, send }.run();
            });
        }
        drop(send);
        let mut started = false;
        for message in receive {
            match message {
                Message::Started { names, warnings } if !started => {
                    started = true;
                    standings.names = distinct(names);
                    for (report, [first, second]) in standings.pairings.iter_mut().zip(&pairings) {
                        report.names =
                            [standings.names[*first].clone(), standings.names[*second].clone()];
                    }
                    on_event(Event::Ready { names: &standings.names, warnings: &warnings });
                }
                Message::Started { .. } => {}
                Message::Failed(error) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(error);
                }
                // After a decision or a failure, games still ending count nowhere.
                Message::Finished(_) if stop.load(Ordering::Relaxed) => {}
                Message::Finished(finished) => {
                    let report = &mut standings.pairings[finished.pairing];
                    count(report, &mut first_games, &Counted::of(&finished));
                    if report.sprt.is_some_and(|sprt| sprt.decision.is_some()) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    let line = ResultLine::new(&finished, &standings.names);
                    if let Some(saver) = &mut saver
                        && let Err(error) = saver.save(&finished, &line)
                    {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(save_error(error));
                    }
                    let report = &standings.pairings[finished.pairing];
                    on_event(Event::Finished { game: &finished, line: &line, report });
                }
            }
        }
    });
    match failure {
        Some(error) => Err(error),
        None => Ok(standings),
    }
}

/// A game as the totals count it.
struct Counted {
    pair: u64,
    pairing: usize,
    points: Points,
    code: &'static str,
    /// The engine of the pairing (0 or 1) that lost by a fault.
    faulty: Option<usize>,
}

impl Counted {
    fn of(finished: &Finished) -> Counted {
        Counted {
            pair: finished.pair,
            pairing: finished.pairing,
            points: finished.points(),
            code: finished.record.result.termination.code(),
            faulty: finished.faulty_engine(),
        }
    }
}

/// The saved games in the order they were numbered, so that pairs complete as they did.
fn sorted_by_game(mut saved: Vec<SavedResult>) -> Vec<SavedResult> {
    saved.sort_by_key(|result| result.game);
    saved
}

/// A saved game as the totals count it, checked against the match's schedule: the game must be
/// one of the match's, between the engines the schedule gives it.
fn restore(result: &SavedResult, pairings: &[[usize; 2]], total: u64) -> Result<Counted, String> {
    if result.game == 0 || result.game > total {
        return Err(format!("not one of the match's {total} games"));
    }
    let pair = (result.game - 1) / 2;
    let pairing = (pair % pairings.len() as u64) as usize;
    let players = pairings[pairing];
    let red = ((result.game - 1) % 2) as usize;
    let blue_engine = result.blue_engine.unwrap_or(3 - result.red_engine);
    if [result.red_engine, blue_engine] != [players[red] + 1, players[1 - red] + 1] {
        return Err(format!(
            "engines {} (red) and {blue_engine} (blue), where this match plays {} and {}",
            result.red_engine,
            players[red] + 1,
            players[1 - red] + 1
        ));
    }
    let Some(&(code, fault)) =
        Termination::CODES.iter().find(|(code, _)| *code == result.termination)
    else {
        return Err(format!("unknown ending `{}`", result.termination));
    };
    let red_won = match result.winner.as_deref() {
        Some("red") => Some(true),
        Some("blue") => Some(false),
        None => None,
        Some(other) => return Err(format!("unknown winner `{other}`")),
    };
    // From the pairing's first engine's side, which played red in the odd games.
    let points = match red_won {
        None => Points::Draw,
        Some(red_won) if red_won == (red == 0) => Points::Win,
        Some(_) => Points::Loss,
    };
    let loser = match red_won {
        Some(true) => 1 - red,
        Some(false) => red,
        None => 0,
    };
    let faulty = (fault && red_won.is_some()).then_some(loser);
    Ok(Counted { pair: result.pair, pairing, points, code, faulty })
}

/// Counts a finished game, and its pair if its partner has finished.
fn count(report: &mut Report, first_games: &mut HashMap<u64, Points>, game: &Counted) {
    let points = game.points;
    report.tally.add_game(points);
    *report.endings.entry(game.code).or_default() += 1;
    if let Some(engine) = game.faulty {
        *report.faults[engine].entry(game.code).or_default() += 1;
    }
    match first_games.remove(&game.pair) {
        None => {
            first_games.insert(game.pair, points);
        }
        Some(partner) => {
            report.tally.complete_pair(partner, points);
            if let Some(sprt) = &mut report.sprt {
                sprt.llr = sprt.test.llr(report.tally.pairs);
                sprt.decision = sprt.test.decision(sprt.llr);
            }
        }
    }
}

/// The names, each marked with its engine's number when an earlier engine has the same (the
/// second of two `arbiter 0.1.0` is `arbiter 0.1.0 (2)`).
fn distinct(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for (index, name) in names.into_iter().enumerate() {
        if out.contains(&name) {
            out.push(format!("{name} ({})", index + 1));
        } else {
            out.push(name);
        }
    }
    out
}

/// One worker: a process of each engine, and the games they play one after another.
struct Worker<'a> {
    config: &'a MatchConfig,
    pairings: &'a [[usize; 2]],
    /// The games (from 0) an earlier run played.
    done: &'a HashSet<u64>,
    id: usize,
    next: &'a AtomicU64,
    stop: &'a AtomicBool,
    send: mpsc::Sender<Message>,
}

impl Worker<'_> {
    fn run(self) {
        let mut engines: Vec<Option<EngineProcess>> = Vec::new();
        for index in 0..self.config.engines.len() {
            match self.start(index) {
                Ok(engine) => engines.push(Some(engine)),
                Err(error) => return self.fail(error),
            }
        }
        let names = engines
            .iter()
            .map(|e| e.as_ref().map_or_else(String::new, |e| e.name.clone()))
            .collect();
        let warnings = engines
            .iter()
            .enumerate()
            .filter_map(|(index, engine)| Some((index, engine.as_ref()?)))
            .flat_map(|(index, engine)| {
                engine.undeclared.iter().map(move |name| {
                    format!(
                        "engine {} ({}) declares no option `{name}`; it was sent anyway",
                        index + 1,
                        engine.name
                    )
                })
            })
            .collect();
        // Every worker tells its names; the runner takes the first it hears.
        let _ = self.send.send(Message::Started { names, warnings });
        while !self.stop.load(Ordering::Relaxed) {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            if index >= self.config.games * self.pairings.len() as u64 {
                break;
            }
            if self.done.contains(&index)
                || self.config.only.as_ref().is_some_and(|only| !only.contains(&(index + 1)))
            {
                continue;
            }
            let finished = match self.play(&mut engines, index) {
                Ok(Some(finished)) => finished,
                Ok(None) => break,
                Err(error) => return self.fail(error),
            };
            if let Some(engine) = finished.faulty_engine() {
                engines[finished.engines[engine]] = None;
            }
            if self.send.send(Message::Finished(Box::new(finished))).is_err() {
                break;
            }
        }
        for engine in engines.into_iter().flatten() {
            engine.quit();
        }
    }

    fn fail(&self, error: MatchError) {
        let _ = self.send.send(Message::Failed(error));
    }

    fn start(&self, index: usize) -> Result<EngineProcess, MatchError> {
        let spec = &self.config.engines[index];
        let stderr = match &self.config.save {
            Some(dir) => Some(
                Saver::stderr_log(dir, index, self.id)
                    .map_err(|error| MatchError::Save { dir: dir.clone(), error })?,
            ),
            None => None,
        };
        let core = if self.config.affinity {
            machine::core_of(&machine::cores(), self.config.engines.len(), self.id, index)
        } else {
            None
        };
        EngineProcess::start_on(spec, stderr, self.config.limits.timeout, core)
            .map_err(|error| MatchError::Start { engine: index, command: spec.to_string(), error })
    }

    /// Plays game `index` (from 0); `None` if the match stopped meanwhile.
    fn play(
        &self,
        engines: &mut [Option<EngineProcess>],
        index: u64,
    ) -> Result<Option<Finished>, MatchError> {
        let pair = index / 2;
        let pairing = (pair % self.pairings.len() as u64) as usize;
        let pair_of_pairing = pair / self.pairings.len() as u64;
        let players = self.pairings[pairing];
        let red = (index % 2) as usize;
        let opening = self.config.openings.get(pair_of_pairing);
        let finished = |record| Finished {
            number: index + 1,
            pair: pair + 1,
            pairing,
            engines: players,
            red,
            record,
        };
        let [red_index, blue_index] = [players[red], players[1 - red]];
        // Red first, then blue: an engine that is not ready loses the game.
        for (side, engine_index) in
            [(arbiter_duck::Color::Red, red_index), (arbiter_duck::Color::Blue, blue_index)]
        {
            if engines[engine_index].is_none() {
                engines[engine_index] = Some(self.start(engine_index)?);
            }
            let Some(engine) = engines[engine_index].as_mut() else { continue };
            if let Err(error) = engine.new_game(self.config.limits.timeout) {
                let reason = error.to_string();
                let result = GameResult {
                    winner: Some(!side),
                    termination: Termination::NotReady { reason },
                };
                let moves = opening.moves.clone();
                let record = GameRecord { moves, thoughts: Vec::new(), opening, result };
                return Ok(Some(finished(record)));
            }
        }
        let (Some(mut red_engine), Some(mut blue_engine)) =
            (engines[red_index].take(), engines[blue_index].take())
        else {
            unreachable!("both engines were started above");
        };
        let setup = Setup {
            opening: &opening,
            limits: &self.config.limits,
            max_plies: self.config.max_plies,
            adjudication: &self.config.adjudication,
            stop: self.stop,
        };
        let played = game::play(&mut red_engine, &mut blue_engine, &setup);
        engines[red_index] = Some(red_engine);
        engines[blue_index] = Some(blue_engine);
        Ok(played?.map(finished))
    }
}
