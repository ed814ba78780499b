//! Rescoring: each position of a data file searched again, deeper, so that the network learns
//! from better scores than the self-play search's.
//!
//! Self-play searches each move with few nodes, so that games are cheap; the score it keeps is
//! that shallow search's. Rescoring searches every kept position again by itself, with a
//! cleared engine, to a fixed number of nodes: the new score depends only on the position,
//! the nodes and the evaluation, not on the threads or on which positions came before. The
//! record keeps everything else (the game's result, its number, its ply), and the file's
//! header says how the scores were made ([`Rescore`]).
//!
//! A deeper search may find a position won or lost that the shallow one did not: its score is
//! then the search's value kept within an `i16`, far beyond any evaluation, whose sigmoid in
//! the training target is the result it found.
//!
//! ```
//! use arbiter_duck::{Color, Position};
//! use arbiter_duck_engine::eval::Evaluation;
//! use arbiter_duck_train::record::{GameResult, Record};
//! use arbiter_duck_train::rescore::{self, Settings};
//!
//! let record = Record {
//!     board: Position::new().board().clone(),
//!     turn: Color::Red,
//!     score: 0,
//!     result: GameResult::Draw,
//!     ply: 0,
//!     game: 0,
//!     last: true,
//! };
//! let settings = Settings { nodes: 300, evaluation: Evaluation::Classical };
//! let mut engine = rescore::searcher(&settings.evaluation);
//! let again = rescore::rescore(&mut engine, &settings, &record);
//! assert_eq!(again, rescore::rescore(&mut rescore::searcher(&settings.evaluation), &settings, &record));
//! ```

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use arbiter_duck::Position;
use arbiter_duck_engine::eval::Evaluation;
use arbiter_duck_engine::search::{Limits, Searcher, StopFlag};

use crate::record::{Header, Record, Rescore};

/// The hash table of each thread's engine, in MiB: cleared before every position, so small
/// enough that clearing it costs little beside a search of some thousands of nodes.
const HASH_MB: usize = 2;

/// The positions a thread takes at a time, handed on together.
pub const BATCH: usize = 64;

/// How to search the positions again.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Nodes searched per position.
    pub nodes: u64,
    /// The evaluation that searches.
    pub evaluation: Evaluation,
}

impl Settings {
    /// The header of the rescored file of a file whose header is `games`.
    pub fn header(&self, games: &Header) -> Header {
        let network = match &self.evaluation {
            Evaluation::Classical => None,
            Evaluation::Network(model) => Some(model.network().fingerprint()),
        };
        Header { rescore: Some(Rescore { nodes: self.nodes, network }), ..games.clone() }
    }
}

/// A searcher for rescoring with `evaluation`.
pub fn searcher(evaluation: &Evaluation) -> Searcher {
    let mut engine = Searcher::new(HASH_MB);
    engine.set_evaluation(evaluation.clone());
    engine
}

/// Whether `record` holds a position the search can set up (a side to move with its captain,
/// the other side too, no more pieces than the game starts with): `Err` says why not.
pub fn check(record: &Record) -> Result<(), String> {
    Position::from_board(record.board.clone(), record.turn).map(|_| ()).map_err(|e| e.to_string())
}

/// `record` with the score of its position searched again with a cleared `engine`; a record
/// whose position cannot be set up ([`check`]) is given back as it was.
pub fn rescore(engine: &mut Searcher, settings: &Settings, record: &Record) -> Record {
    let Ok(position) = Position::from_board(record.board.clone(), record.turn) else {
        return record.clone();
    };
    engine.clear();
    let result = engine.search(&position, &Limits::nodes(settings.nodes), &StopFlag::new(), |_| {});
    let score = result.value.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    Record { score, ..record.clone() }
}

/// Rescores `records` on `threads` threads, [`BATCH`] at a time, and hands the batches to
/// `on_batch` in order. Once `stop` is raised no new batch starts, and those under way are
/// handed on as they finish. Stops at `on_batch`'s first error and returns it.
pub fn rescore_all<E: Send>(
    settings: &Settings,
    records: &[Record],
    threads: usize,
    stop: &AtomicBool,
    mut on_batch: impl FnMut(Vec<Record>) -> Result<(), E>,
) -> Result<(), E> {
    let batches = records.len().div_ceil(BATCH);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, Vec<Record>)>();
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
                    if number >= batches {
                        break;
                    }
                    let batch = &records[number * BATCH..records.len().min((number + 1) * BATCH)];
                    let rescored =
                        batch.iter().map(|record| rescore(&mut engine, settings, record)).collect();
                    if sender.send((number, rescored)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Batches finish out of order; each waits here until those before it are handed on.
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        for (number, batch) in receiver {
            waiting.insert(number, batch);
            while let Some(batch) = waiting.remove(&expected) {
                if let Err(error) = on_batch(batch) {
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
    use crate::selfplay::{self, Settings as Selfplay};

    fn records() -> Vec<Record> {
        let settings =
            Selfplay { seed: 3, nodes: 150, random_plies: 8, evaluation: Evaluation::Classical };
        let mut engine = selfplay::searcher(&settings.evaluation);
        (0..3).flat_map(|game| selfplay::play_game(&mut engine, &settings, game).records).collect()
    }

    #[test]
    fn a_rescore_is_a_cleared_search_of_the_position_alone() {
        let records = records();
        assert!(records.len() > BATCH + 10, "{} records", records.len());
        let settings = Settings { nodes: 2000, evaluation: Evaluation::Classical };
        let mut engine = searcher(&settings.evaluation);
        let mut changed = 0;
        for record in &records[..20] {
            let again = rescore(&mut engine, &settings, record);
            assert_eq!(Record { score: record.score, ..again.clone() }, *record);
            let position = Position::from_board(record.board.clone(), record.turn).unwrap();
            let mut fresh = searcher(&Evaluation::Classical);
            let limits = Limits::nodes(2000);
            let expected = fresh.search(&position, &limits, &StopFlag::new(), |_| {}).value;
            assert_eq!(i32::from(again.score), expected);
            changed += usize::from(again.score != record.score);
        }
        assert!(changed > 5, "a deeper search changes most scores: {changed} of 20");
    }

    #[test]
    fn batches_come_in_order_and_the_same_on_any_threads() {
        let records = records();
        let settings = Settings { nodes: 200, evaluation: Evaluation::Classical };
        let stop = AtomicBool::new(false);
        let run = |threads| {
            let mut out = Vec::new();
            rescore_all::<()>(&settings, &records, threads, &stop, |batch| {
                assert!(batch.len() == BATCH || out.len() + batch.len() == records.len());
                out.extend(batch);
                Ok(())
            })
            .unwrap();
            out
        };
        let one = run(1);
        assert_eq!(one.len(), records.len());
        assert_eq!(run(3), one);
        let mut engine = searcher(&settings.evaluation);
        let last = records.len() - 1;
        assert_eq!(one[last], rescore(&mut engine, &settings, &records[last]));
        stop.store(true, Ordering::Relaxed);
        assert!(run(2).is_empty(), "a raised stop starts nothing");
    }

    #[test]
    fn the_header_says_how_the_scores_were_made() {
        let games =
            Selfplay { seed: 3, nodes: 150, random_plies: 8, evaluation: Evaluation::Classical }
                .header();
        let model = arbiter_duck_engine::nnue::embedded_model().unwrap();
        let fingerprint = model.network().fingerprint();
        let settings = Settings { nodes: 777, evaluation: Evaluation::Network(model) };
        let header = settings.header(&games);
        assert_eq!(header.rescore, Some(Rescore { nodes: 777, network: Some(fingerprint) }));
        assert_eq!(Header { rescore: None, ..header }, games);
    }
}
