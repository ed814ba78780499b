//! The opening explorer on the server: `POST /api/duck/explorer` with a game's commands answers
//! the moves played from the position they reach, in the live games that ended and the games of
//! the directories given at start (`arbiter serve --explorer-games DIR`), with their counts,
//! scores and the engine's evaluation where an analysis found one.
//!
//! The index ([`arbiter_duck_learn::explorer`]) lives in memory: the first worker reads the
//! directories at start, then, every few seconds, the live games that ended since it last
//! looked (in the order they ended), so the explorer is built as games end and never rebuilt.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use arbiter_duck::{Color, Move, Position};
use arbiter_duck_learn::analysis::Analysis;
use arbiter_duck_learn::explorer::{Explorer, Row};
use arbiter_duck_learn::report;
use arbiter_duck_learn::score::RedScore;
use axum::routing::post;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use super::Learn;
use crate::api::{ApiError, Body, Endpoint};
use crate::duck;
use crate::live::AnyStore;

/// Finished games read from the store at a time.
const BATCH: u64 = 500;

/// The explorer and where its reading of the store stands.
pub(crate) struct Index {
    explorer: Explorer,
    /// The last finished game read: its time and id.
    cursor: (u64, String),
    /// The live games already in it (a finished game changes again when a rematch is offered).
    seen: HashSet<String>,
}

impl Index {
    pub(super) fn new(explorer: Explorer) -> Index {
        Index { explorer, cursor: (0, String::new()), seen: HashSet::new() }
    }
}

/// The endpoint.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![Endpoint {
        method: "POST",
        path: "/api/duck/explorer",
        about: "the moves played from the position after {commands, fen?} in the games that \
                ended: {games, moves: [{command, uci, games, red_wins, draws, blue_wins, score, \
                eval}]}",
        route: post(explore),
    }]
}

/// Reads the live games that ended since the last look.
pub(super) fn catch_up(index: &RwLock<Index>, store: &AnyStore) {
    loop {
        let cursor = index.read().unwrap_or_else(PoisonError::into_inner).cursor.clone();
        let finished = match store.finished_since((cursor.0, &cursor.1), BATCH) {
            Ok(finished) => finished,
            Err(error) => {
                eprintln!("arbiter serve: the explorer cannot read the finished games: {error}");
                return;
            }
        };
        let Some(last) = finished.last() else { return };
        let cursor = (last.updated_at, last.id.clone());
        let full = finished.len() as u64 == BATCH;
        // The games are judged before the index is locked: queries wait for nothing slow.
        let games: Vec<(String, Vec<Move>, Option<Color>)> = finished
            .into_iter()
            .map(|game| {
                let commands = duck::read_commands(&game.commands).unwrap_or_default();
                let (_, moves) = report::judge(&Position::new(), commands);
                let winner = match game.winner.as_deref() {
                    Some("red") => Some(Color::Red),
                    Some("blue") => Some(Color::Blue),
                    _ => None,
                };
                (game.id, moves, winner)
            })
            .collect();
        let mut index = index.write().unwrap_or_else(PoisonError::into_inner);
        for (id, moves, winner) in games {
            if index.seen.insert(id) {
                index.explorer.add_game(&Position::new(), &moves, winner, &[]);
            }
        }
        index.cursor = cursor;
        if !full {
            return;
        }
    }
}

/// Reads the official command lists of `directories` (each file one game, judged as the judge
/// does; a file that is not one is skipped with a word on stderr). A game's result is the
/// captain's capture, or a draw.
pub(super) fn read_directories(
    index: &RwLock<Index>,
    directories: &[PathBuf],
    closed: &AtomicBool,
) {
    for directory in directories {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(directory) {
            Ok(read) => {
                read.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect()
            }
            Err(error) => {
                eprintln!("arbiter serve: --explorer-games {}: {error}", directory.display());
                continue;
            }
        };
        files.sort();
        let mut read = 0;
        for file in files {
            if closed.load(Ordering::Relaxed) {
                return;
            }
            let Some((moves, winner)) = read_game(&file) else {
                eprintln!(
                    "arbiter serve: --explorer-games: {} is not a game; skipped",
                    file.display()
                );
                continue;
            };
            index.write().unwrap_or_else(PoisonError::into_inner).explorer.add_game(
                &Position::new(),
                &moves,
                winner,
                &[],
            );
            read += 1;
        }
        eprintln!("arbiter serve: the explorer read {read} games of {}", directory.display());
    }
}

/// The moves of an official command list and its winner, if the file is one (at most 1 MiB).
fn read_game(file: &std::path::Path) -> Option<(Vec<Move>, Option<Color>)> {
    let size = std::fs::metadata(file).ok()?.len();
    if size > 1 << 20 {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let commands = arbiter_duck::judge::Commands::new(&text).ok()?;
    let commands: Vec<_> = commands.collect::<Result<_, _>>().ok()?;
    let (_, moves) = report::judge(&Position::new(), commands);
    let mut position = Position::new();
    for &mv in &moves {
        let _ = position.make(mv);
    }
    Some((moves, position.winner()))
}

/// Keeps the evaluations of an analysed game in the explorer (the game itself is counted when
/// it ends, or not at all for an import).
pub(super) fn evaluations(index: &RwLock<Index>, moves: &[Move], analysis: &Analysis) {
    let evals: Vec<Option<RedScore>> = analysis.moves.iter().map(|m| Some(m.eval)).collect();
    index.write().unwrap_or_else(PoisonError::into_inner).explorer.set_evals(
        &Position::new(),
        moves,
        &evals,
    );
}

/// The position to explore.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    commands: Vec<String>,
    #[serde(default)]
    fen: Option<String>,
}

/// A row of the reply.
#[derive(Serialize)]
struct Shown {
    /// The move as an official command.
    command: String,
    /// In fairy-stockfish's notation.
    uci: String,
    games: u32,
    red_wins: u32,
    draws: u32,
    blue_wins: u32,
    /// The share of the points the side that played it scored, 0 to 1.
    score: f64,
    /// The engine's evaluation after it, from red's side, where an analysis found one.
    eval: Option<RedScore>,
}

/// The reply.
#[derive(Serialize)]
struct Reply {
    /// The games that reached the position and moved from it.
    games: u32,
    moves: Vec<Shown>,
}

/// `POST /api/duck/explorer`.
async fn explore(
    Extension(learn): Extension<Arc<Learn>>,
    Body(request): Body<Request>,
) -> Result<Json<Reply>, ApiError> {
    let start = duck::start(request.fen.as_deref())?;
    let commands = duck::read_commands(&request.commands)?;
    let explorer = Arc::clone(&learn.explorer);
    let rows = crate::work::run(move || {
        let (_, moves) = report::judge(&start, commands);
        let mut position = start;
        for &mv in &moves {
            let _ = position.make(mv);
        }
        let turn = position.turn();
        let rows: Vec<Row> =
            explorer.read().unwrap_or_else(PoisonError::into_inner).explorer.moves(&position);
        Ok((rows, turn))
    })
    .await?;
    let (rows, turn) = rows;
    let games = rows.iter().map(|row| row.games).sum();
    let moves = rows
        .into_iter()
        .map(|row| Shown {
            command: row.mv.to_string(),
            uci: row.mv.uci().to_string(),
            score: (row.score(turn) * 1000.0).round() / 1000.0,
            games: row.games,
            red_wins: row.red_wins,
            draws: row.draws,
            blue_wins: row.blue_wins,
            eval: row.eval,
        })
        .collect();
    Ok(Json(Reply { games, moves }))
}
