//! Self-play games that give training positions: the engine against itself at a fixed number
//! of nodes per move, from openings of a few random plies.
//!
//! Game `g` is played from seed `seed + g` with a cleared engine, so it is the same game
//! whichever thread plays it and whenever; games are handed on in the order of their numbers,
//! so a run cut short and continued writes the same file as one run.
//!
//! A position is kept when the side to move is not in check, the search's best move is not a
//! capture and its score is not a won or lost game: the score of such a quiet position is what
//! a static evaluation can learn, where a capture's or a check's score is mostly the tactic the
//! search resolves, and a found win says nothing about the position's other features.
//!
//! The games are searched with the evaluation the settings name: the classical one unless a
//! network is given, so the first networks learnt from the classical evaluation and a data file
//! made before networks played is given back byte for byte by the same command. A later
//! network learns from the games of the one before it; the file's header names the network
//! that played by its fingerprint.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use arbiter_duck::rules::MAX_PLIES;
use arbiter_duck::{Color, Position};
use arbiter_duck_engine::eval::Evaluation;
use arbiter_duck_engine::random::RandomMover;
use arbiter_duck_engine::search::{Limits, Searcher, StopFlag};
use arbiter_duck_engine::value;

use crate::record::{GameResult, Header, Record};

/// The hash table of each thread's engine, in MiB.
const HASH_MB: usize = 8;

/// What to play.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The first game's seed.
    pub seed: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: u32,
    /// The evaluation the games are searched with.
    pub evaluation: Evaluation,
}

impl Settings {
    /// The header of a file of these games, made by this version of arbiter.
    pub fn header(&self) -> Header {
        Header {
            seed: self.seed,
            nodes: self.nodes,
            random_plies: self.random_plies,
            generator: env!("CARGO_PKG_VERSION").to_owned(),
            network: match &self.evaluation {
                Evaluation::Classical => None,
                Evaluation::Network(model) => Some(model.network().fingerprint()),
            },
            rescore: None,
        }
    }
}

/// One game played: its kept positions and how it ended.
#[derive(Debug, Clone)]
pub struct Game {
    /// The game's number.
    pub number: u32,
    /// The kept positions, the last flagged.
    pub records: Vec<Record>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The game's length in plies.
    pub plies: usize,
}

/// A searcher for self-play games with `evaluation`.
pub fn searcher(evaluation: &Evaluation) -> Searcher {
    let mut engine = Searcher::new(HASH_MB);
    engine.set_evaluation(evaluation.clone());
    engine
}

/// Plays game `number` with `engine`.
pub fn play_game(engine: &mut Searcher, settings: &Settings, number: u32) -> Game {
    engine.clear();
    let mut position = Position::new();
    let mut random = RandomMover::new(settings.seed.wrapping_add(u64::from(number)));
    let stop = StopFlag::new();
    let limits = Limits::nodes(settings.nodes);
    // The position, its side to move, its score and its ply, before the result is known.
    let mut kept: Vec<(Position, i16, u16)> = Vec::new();
    let mut ply = 0;
    let winner = loop {
        // Games end as matches adjudicate them, the ply cap included.
        if let Some(outcome) = position.outcome_after(ply, MAX_PLIES) {
            break outcome.winner;
        }
        let mv = if ply < settings.random_plies as usize {
            random.choose(&position)
        } else {
            let result = engine.search(&position, &limits, &stop, |_| {});
            let quiet = result.best.is_some_and(|mv| position.piece_at(mv.to).is_none());
            if quiet && !position.in_check() && !value::is_decisive(result.value) {
                let score = result.value.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                kept.push((position.clone(), score, ply as u16));
            }
            result.best
        };
        let Some(mv) = mv else { break None };
        let _ = position.make(mv);
        ply += 1;
    };
    let count = kept.len();
    let records = kept
        .into_iter()
        .enumerate()
        .map(|(i, (position, score, ply))| Record {
            board: position.board().clone(),
            turn: position.turn(),
            score,
            result: GameResult::for_side(winner, position.turn()),
            ply,
            game: number,
            last: i + 1 == count,
        })
        .collect();
    Game { number, records, winner, plies: ply }
}

/// Plays games `first..end` on `threads` threads and hands each to `on_game` in the order of
/// their numbers. Once `stop` is raised no new game starts, and the games already started are
/// handed on as they finish. Stops at `on_game`'s first error and returns it.
pub fn play_games<E: Send>(
    settings: &Settings,
    first: u32,
    end: u32,
    threads: usize,
    stop: &AtomicBool,
    mut on_game: impl FnMut(Game) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicU64::new(u64::from(first));
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Game>();
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                let mut engine = searcher(&settings.evaluation);
                loop {
                    if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    let Ok(number) = u32::try_from(number) else { break };
                    if number >= end {
                        break;
                    }
                    if sender.send(play_game(&mut engine, settings, number)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games finish out of order; each waits here until those before it are handed on.
        let mut waiting = std::collections::BTreeMap::new();
        let mut expected = first;
        for game in receiver {
            waiting.insert(game.number, game);
            while let Some(game) = waiting.remove(&expected) {
                if let Err(error) = on_game(game) {
                    failed.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                expected += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_the_same_from_its_seed_and_keeps_only_quiet_positions() {
        let settings =
            Settings { seed: 5, nodes: 200, random_plies: 6, evaluation: Evaluation::Classical };
        let mut engine = Searcher::new(1);
        let game = play_game(&mut engine, &settings, 2);
        let again = play_game(&mut Searcher::new(1), &settings, 2);
        assert_eq!(game.records, again.records);
        assert!(!game.records.is_empty());
        for (i, record) in game.records.iter().enumerate() {
            assert_eq!(record.last, i + 1 == game.records.len());
            assert!(usize::from(record.ply) >= 6);
            let position = Position::from_board(record.board.clone(), record.turn).unwrap();
            assert!(!position.in_check());
        }
    }

    #[test]
    fn the_header_names_the_network_that_played() {
        let classical =
            Settings { seed: 1, nodes: 100, random_plies: 8, evaluation: Evaluation::Classical };
        assert_eq!(classical.header().network, None);
        let model = arbiter_duck_engine::nnue::embedded_model().unwrap();
        let fingerprint = model.network().fingerprint();
        let network = Settings { evaluation: Evaluation::Network(model), ..classical };
        assert_eq!(network.header().network, Some(fingerprint));
        let first = play_game(&mut searcher(&network.evaluation), &network, 0);
        let again = play_game(&mut searcher(&network.evaluation), &network, 0);
        assert_eq!(first.records, again.records);
    }

    #[test]
    fn games_are_handed_on_in_order_whatever_the_threads() {
        let settings =
            Settings { seed: 1, nodes: 100, random_plies: 8, evaluation: Evaluation::Classical };
        let stop = AtomicBool::new(false);
        let mut numbers = Vec::new();
        play_games::<()>(&settings, 3, 8, 3, &stop, |game| {
            numbers.push(game.number);
            Ok(())
        })
        .unwrap();
        assert_eq!(numbers, vec![3, 4, 5, 6, 7]);
    }
}
