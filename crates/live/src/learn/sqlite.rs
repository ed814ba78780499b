//! The learning side in SQLite, in the games' database (migration `05-learn`).

use arbiter_rating::Rating;
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{
    AnalysisRequest, AnalysisState, Attempted, Finished, LearnStore, PuzzlePoint, PuzzleRated,
    StoredAnalysis, commands_of, commands_text, counted, rate_attempt, state_of,
};
use crate::pairing::UserId;
use crate::sqlite::SqliteStore;
use crate::store::{StoreError, int, uint};

/// The columns of an analysis, in the order [`analysis_row`] reads them.
const COLUMNS: &str = "id, key, game_id, fen, commands, nodes, state, result, error, created_at,
    started_at, finished_at";

/// An analysis read from a row of [`COLUMNS`].
fn analysis_row(r: &Row) -> rusqlite::Result<(StoredAnalysis, String, String)> {
    let id: String = r.get(0)?;
    let commands: String = r.get(4)?;
    let state: String = r.get(6)?;
    let analysis = StoredAnalysis {
        request: AnalysisRequest {
            key: r.get(1)?,
            game_id: r.get(2)?,
            fen: r.get(3)?,
            commands: Vec::new(),
            nodes: uint(r.get(5)?),
        },
        id,
        state: AnalysisState::Queued,
        result: r.get(7)?,
        error: r.get(8)?,
        created_at: uint(r.get(9)?),
        started_at: r.get::<_, Option<i64>>(10)?.map(uint),
        finished_at: r.get::<_, Option<i64>>(11)?.map(uint),
    };
    Ok((analysis, commands, state))
}

/// The analysis a query of [`COLUMNS`] finds, its commands and state checked.
fn one(
    connection: &Connection,
    sql: &str,
    values: impl rusqlite::Params,
) -> Result<Option<StoredAnalysis>, StoreError> {
    let found = connection.query_row(sql, values, analysis_row).optional()?;
    found
        .map(|(mut analysis, commands, state)| {
            analysis.request.commands = commands_of(&analysis.id, &commands)?;
            analysis.state = state_of(&analysis.id, &state)?;
            Ok(analysis)
        })
        .transpose()
}

/// A rating with its counts, from `rating, deviation, volatility, attempts, solved`.
fn rated_row(r: &Row) -> rusqlite::Result<PuzzleRated> {
    Ok(PuzzleRated {
        rating: Rating { rating: r.get(0)?, deviation: r.get(1)?, volatility: r.get(2)? },
        attempts: uint(r.get(3)?),
        solved: uint(r.get(4)?),
    })
}

impl LearnStore for SqliteStore {
    fn finished_since(&self, after: (u64, &str), limit: u64) -> Result<Vec<Finished>, StoreError> {
        let connection = self.connection();
        let mut games = connection.prepare_cached(
            "SELECT id, winner, updated_at FROM games
             WHERE status = 'over' AND (updated_at > ?1 OR (updated_at = ?1 AND id > ?2))
             ORDER BY updated_at, id LIMIT ?3",
        )?;
        let mut found = games
            .query_map(params![int(after.0), after.1, int(limit)], |r| {
                Ok(Finished {
                    id: r.get(0)?,
                    winner: r.get(1)?,
                    commands: Vec::new(),
                    updated_at: uint(r.get(2)?),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut moves = connection
            .prepare_cached("SELECT command FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        for game in &mut found {
            game.commands =
                moves.query_map([&game.id], |r| r.get(0))?.collect::<Result<Vec<_>, _>>()?;
        }
        Ok(found)
    }

    fn request_analysis(
        &self,
        request: &AnalysisRequest,
        id: &str,
        now: u64,
    ) -> Result<StoredAnalysis, StoreError> {
        let connection = self.connection();
        connection.execute(
            "INSERT INTO analyses (id, key, game_id, fen, commands, nodes, state, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7) ON CONFLICT (key) DO NOTHING",
            params![
                id,
                request.key,
                request.game_id,
                request.fen,
                commands_text(&request.commands),
                int(request.nodes),
                int(now)
            ],
        )?;
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE key = ?1");
        one(&connection, &sql, [&request.key])?
            .ok_or_else(|| StoreError::Corrupt(id.to_owned(), "analysis not kept".into()))
    }

    fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE id = ?1");
        one(&self.connection(), &sql, [id])
    }

    fn analysis_by_key(&self, key: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE key = ?1");
        one(&self.connection(), &sql, [key])
    }

    fn claim_analysis(&self, now: u64) -> Result<Option<StoredAnalysis>, StoreError> {
        // One statement: the connection is the database's one writer, so no two workers claim
        // the same analysis.
        let sql = format!(
            "UPDATE analyses SET state = 'running', started_at = ?1
             WHERE id = (SELECT id FROM analyses WHERE state = 'queued'
                         ORDER BY created_at, id LIMIT 1)
             RETURNING {COLUMNS}"
        );
        one(&self.connection(), &sql, [int(now)])
    }

    fn finish_analysis(
        &self,
        id: &str,
        outcome: Result<&str, &str>,
        now: u64,
    ) -> Result<(), StoreError> {
        let (state, result, error) = match outcome {
            Ok(result) => ("done", Some(result), None),
            Err(error) => ("failed", None, Some(error)),
        };
        self.connection().execute(
            "UPDATE analyses SET state = ?2, result = ?3, error = ?4, finished_at = ?5
             WHERE id = ?1",
            params![id, state, result, error, int(now)],
        )?;
        Ok(())
    }

    fn requeue_analyses(&self, started_before: u64) -> Result<u64, StoreError> {
        let count = self.connection().execute(
            "UPDATE analyses SET state = 'queued', started_at = NULL
             WHERE state = 'running' AND started_at < ?1",
            [int(started_before)],
        )?;
        Ok(count as u64)
    }

    fn queue_length(&self, created_at: u64) -> Result<(u64, u64), StoreError> {
        let (all, before): (i64, i64) = self.connection().query_row(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE created_at < ?1) FROM analyses
             WHERE state = 'queued'",
            [int(created_at)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok((uint(all), uint(before)))
    }

    fn puzzle_rating(&self, puzzle: &str) -> Result<Option<PuzzleRated>, StoreError> {
        Ok(self
            .connection()
            .query_row(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings
                 WHERE puzzle_id = ?1",
                [puzzle],
                rated_row,
            )
            .optional()?)
    }

    fn player_puzzle_rating(&self, user: UserId) -> Result<Option<PuzzleRated>, StoreError> {
        Ok(self
            .connection()
            .query_row(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_players
                 WHERE user_id = ?1",
                [user.0],
                rated_row,
            )
            .optional()?)
    }

    fn puzzle_history(&self, user: UserId) -> Result<Vec<PuzzlePoint>, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT puzzle_id, at, solved, rating, deviation FROM puzzle_attempts
             WHERE user_id = ?1 ORDER BY at, puzzle_id",
        )?;
        let points = statement
            .query_map([user.0], |r| {
                Ok(PuzzlePoint {
                    puzzle_id: r.get(0)?,
                    at: uint(r.get(1)?),
                    solved: r.get(2)?,
                    rating: r.get(3)?,
                    deviation: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(points)
    }

    fn attempt_puzzle(
        &self,
        user: UserId,
        puzzle: &str,
        start: Rating,
        solved: bool,
        now: u64,
    ) -> Result<Attempted, StoreError> {
        let mut connection = self.connection();
        let transaction = connection.transaction()?;
        let player: Option<PuzzleRated> = transaction
            .query_row(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_players
                 WHERE user_id = ?1",
                [user.0],
                rated_row,
            )
            .optional()?;
        let rated_puzzle: Option<PuzzleRated> = transaction
            .query_row(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings
                 WHERE puzzle_id = ?1",
                [puzzle],
                rated_row,
            )
            .optional()?;
        let tried: bool = transaction
            .query_row(
                "SELECT 1 FROM puzzle_attempts WHERE user_id = ?1 AND puzzle_id = ?2",
                params![user.0, puzzle],
                |_| Ok(true),
            )
            .optional()?
            .unwrap_or(false);
        if tried {
            let fresh = PuzzleRated { rating: Rating::START, attempts: 0, solved: 0 };
            let kept = PuzzleRated { rating: start, attempts: 0, solved: 0 };
            return Ok(Attempted {
                rated: false,
                player: player.unwrap_or(fresh),
                puzzle: rated_puzzle.unwrap_or(kept),
            });
        }
        let player_before = player.map_or(Rating::START, |p| p.rating);
        let puzzle_before = rated_puzzle.map_or(start, |p| p.rating);
        let (player_after, puzzle_after) = rate_attempt(player_before, puzzle_before, solved);
        let player_now = counted(player, Rating::START, player_after, solved);
        let puzzle_now = counted(rated_puzzle, start, puzzle_after, solved);
        transaction.execute(
            "INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempts, solved)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (user_id) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
                 attempts = ?5, solved = ?6",
            params![
                user.0,
                player_after.rating,
                player_after.deviation,
                player_after.volatility,
                int(player_now.attempts),
                int(player_now.solved)
            ],
        )?;
        transaction.execute(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts,
                 solved)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (puzzle_id) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
                 attempts = ?5, solved = ?6",
            params![
                puzzle,
                puzzle_after.rating,
                puzzle_after.deviation,
                puzzle_after.volatility,
                int(puzzle_now.attempts),
                int(puzzle_now.solved)
            ],
        )?;
        transaction.execute(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![user.0, puzzle, int(now), solved, player_after.rating, player_after.deviation],
        )?;
        transaction.commit()?;
        Ok(Attempted { rated: true, player: player_now, puzzle: puzzle_now })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{AccountStore, UserName};
    use crate::learn::puzzle_start;

    fn request(key: &str) -> AnalysisRequest {
        AnalysisRequest {
            key: key.into(),
            game_id: None,
            fen: None,
            commands: vec!["3 4 4 4".into(), "6 4 5 4".into()],
            nodes: 500,
        }
    }

    #[test]
    fn analyses_are_claimed_oldest_first_and_requeued_after_a_stop() {
        let store = SqliteStore::memory().unwrap();
        store.request_analysis(&request("import:b"), "b", 20).unwrap();
        store.request_analysis(&request("import:a"), "a", 10).unwrap();
        assert_eq!(store.queue_length(15).unwrap(), (2, 1));
        let first = store.claim_analysis(30).unwrap().unwrap();
        assert_eq!(first.id, "a");
        assert_eq!(first.request.commands, ["3 4 4 4", "6 4 5 4"]);
        assert_eq!(first.started_at, Some(30));
        // The server stops while "a" runs; the next one requeues it.
        assert_eq!(store.requeue_analyses(31).unwrap(), 1);
        assert_eq!(store.claim_analysis(40).unwrap().unwrap().id, "a");
        assert_eq!(store.claim_analysis(41).unwrap().unwrap().id, "b");
        assert!(store.claim_analysis(42).unwrap().is_none());
        store.finish_analysis("b", Err("no"), 50).unwrap();
        let b = store.analysis("b").unwrap().unwrap();
        assert_eq!(
            (b.state, b.error.as_deref(), b.finished_at),
            (AnalysisState::Failed, Some("no"), Some(50))
        );
        assert_eq!(store.analysis_by_key("import:a").unwrap().unwrap().id, "a");
    }

    #[test]
    fn a_first_attempt_rates_the_player_and_the_puzzle_once() {
        let store = SqliteStore::memory().unwrap();
        let ann =
            store.add_user(&UserName::parse("ann").unwrap(), "$argon2id$", 1).unwrap().unwrap();
        let start = puzzle_start(1500.0);
        let first = store.attempt_puzzle(ann.id, "p1", start, true, 10).unwrap();
        assert!(first.rated);
        assert!(first.player.rating.rating > 1500.0);
        assert!(first.puzzle.rating.rating < 1500.0);
        assert_eq!((first.player.attempts, first.player.solved), (1, 1));
        let again = store.attempt_puzzle(ann.id, "p1", start, false, 20).unwrap();
        assert!(!again.rated);
        assert_eq!(again.player, first.player);
        assert_eq!(store.puzzle_rating("p1").unwrap(), Some(first.puzzle));
        let lost = store.attempt_puzzle(ann.id, "p2", start, false, 30).unwrap();
        assert!(lost.player.rating.rating < first.player.rating.rating);
        let history = store.puzzle_history(ann.id).unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!((history[0].puzzle_id.as_str(), history[0].solved), ("p1", true));
        assert_eq!(store.player_puzzle_rating(ann.id).unwrap(), Some(lost.player));
    }
}
