//! The learning side in PostgreSQL (migration `05-learn`), safe for several servers sharing the
//! database: a queued analysis is claimed by one of them (`FOR UPDATE SKIP LOCKED`), and an
//! attempt rates a puzzle under a lock on its row.

use arbiter_rating::Rating;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::{
    AnalysisRequest, Attempted, Finished, LearnStore, PuzzlePoint, PuzzleRated, StoredAnalysis,
    commands_of, commands_text, counted, rate_attempt, state_of,
};
use crate::pairing::UserId;
use crate::postgres::PostgresStore;
use crate::store::{StoreError, int, uint};

/// The columns of an analysis, in the order [`analysis_row`] reads them.
const COLUMNS: &str = "id, key, game_id, fen, commands, nodes, state, result, error, created_at,
    started_at, finished_at";

/// An analysis read from a row of [`COLUMNS`].
fn analysis_row(r: &Row) -> Result<StoredAnalysis, StoreError> {
    let id: String = r.get(0);
    let commands: String = r.get(4);
    let state: String = r.get(6);
    Ok(StoredAnalysis {
        request: AnalysisRequest {
            key: r.get(1),
            game_id: r.get(2),
            fen: r.get(3),
            commands: commands_of(&id, &commands)?,
            nodes: uint(r.get(5)),
        },
        state: state_of(&id, &state)?,
        result: r.get(7),
        error: r.get(8),
        created_at: uint(r.get(9)),
        started_at: r.get::<_, Option<i64>>(10).map(uint),
        finished_at: r.get::<_, Option<i64>>(11).map(uint),
        id,
    })
}

/// A rating with its counts, from `rating, deviation, volatility, attempts, solved`.
fn rated_row(r: &Row) -> PuzzleRated {
    PuzzleRated {
        rating: Rating { rating: r.get(0), deviation: r.get(1), volatility: r.get(2) },
        attempts: uint(r.get(3)),
        solved: uint(r.get(4)),
    }
}

/// The rows `sql` answers.
fn query(
    store: &PostgresStore,
    sql: &str,
    values: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, StoreError> {
    store.run(async |pool| Ok(pool.get().await?.query(sql, values).await?))
}

/// The analysis `sql` answers, if any.
fn one(
    store: &PostgresStore,
    sql: &str,
    values: &[&(dyn ToSql + Sync)],
) -> Result<Option<StoredAnalysis>, StoreError> {
    query(store, sql, values)?.first().map(analysis_row).transpose()
}

impl LearnStore for PostgresStore {
    fn finished_since(&self, after: (u64, &str), limit: u64) -> Result<Vec<Finished>, StoreError> {
        let rows = query(
            self,
            "SELECT g.id, g.winner, g.updated_at,
                 COALESCE((SELECT array_agg(m.command ORDER BY m.ply) FROM moves m
                           WHERE m.game_id = g.id), ARRAY[]::TEXT[])
             FROM games g
             WHERE g.status = 'over' AND (g.updated_at, g.id) > ($1, $2)
             ORDER BY g.updated_at, g.id LIMIT $3",
            &[&int(after.0), &after.1, &int(limit)],
        )?;
        Ok(rows
            .iter()
            .map(|r| Finished {
                id: r.get(0),
                winner: r.get(1),
                updated_at: uint(r.get(2)),
                commands: r.get(3),
            })
            .collect())
    }

    fn request_analysis(
        &self,
        request: &AnalysisRequest,
        id: &str,
        now: u64,
    ) -> Result<StoredAnalysis, StoreError> {
        let commands = commands_text(&request.commands);
        query(
            self,
            "INSERT INTO analyses (id, key, game_id, fen, commands, nodes, state, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7) ON CONFLICT (key) DO NOTHING",
            &[
                &id,
                &request.key,
                &request.game_id,
                &request.fen,
                &commands,
                &int(request.nodes),
                &int(now),
            ],
        )?;
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE key = $1");
        one(self, &sql, &[&request.key])?
            .ok_or_else(|| StoreError::Corrupt(id.to_owned(), "analysis not kept".into()))
    }

    fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        one(self, &format!("SELECT {COLUMNS} FROM analyses WHERE id = $1"), &[&id])
    }

    fn analysis_by_key(&self, key: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        one(self, &format!("SELECT {COLUMNS} FROM analyses WHERE key = $1"), &[&key])
    }

    fn claim_analysis(&self, now: u64) -> Result<Option<StoredAnalysis>, StoreError> {
        let sql = format!(
            "UPDATE analyses SET state = 'running', started_at = $1
             WHERE id = (SELECT id FROM analyses WHERE state = 'queued'
                         ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
             RETURNING {COLUMNS}"
        );
        one(self, &sql, &[&int(now)])
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
        query(
            self,
            "UPDATE analyses SET state = $2, result = $3, error = $4, finished_at = $5
             WHERE id = $1",
            &[&id, &state, &result, &error, &int(now)],
        )?;
        Ok(())
    }

    fn requeue_analyses(&self, started_before: u64) -> Result<u64, StoreError> {
        let rows = query(
            self,
            "UPDATE analyses SET state = 'queued', started_at = NULL
             WHERE state = 'running' AND started_at < $1 RETURNING id",
            &[&int(started_before)],
        )?;
        Ok(rows.len() as u64)
    }

    fn queue_length(&self, created_at: u64) -> Result<(u64, u64), StoreError> {
        let rows = query(
            self,
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE created_at < $1) FROM analyses
             WHERE state = 'queued'",
            &[&int(created_at)],
        )?;
        Ok(rows.first().map_or((0, 0), |r| (uint(r.get(0)), uint(r.get(1)))))
    }

    fn puzzle_rating(&self, puzzle: &str) -> Result<Option<PuzzleRated>, StoreError> {
        let rows = query(
            self,
            "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings
             WHERE puzzle_id = $1",
            &[&puzzle],
        )?;
        Ok(rows.first().map(rated_row))
    }

    fn player_puzzle_rating(&self, user: UserId) -> Result<Option<PuzzleRated>, StoreError> {
        let rows = query(
            self,
            "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_players
             WHERE user_id = $1",
            &[&user.0],
        )?;
        Ok(rows.first().map(rated_row))
    }

    fn puzzle_history(&self, user: UserId) -> Result<Vec<PuzzlePoint>, StoreError> {
        let rows = query(
            self,
            "SELECT puzzle_id, at, solved, rating, deviation FROM puzzle_attempts
             WHERE user_id = $1 ORDER BY at, puzzle_id",
            &[&user.0],
        )?;
        Ok(rows
            .iter()
            .map(|r| PuzzlePoint {
                puzzle_id: r.get(0),
                at: uint(r.get(1)),
                solved: r.get(2),
                rating: r.get(3),
                deviation: r.get(4),
            })
            .collect())
    }

    fn attempt_puzzle(
        &self,
        user: UserId,
        puzzle: &str,
        start: Rating,
        solved: bool,
        now: u64,
    ) -> Result<Attempted, StoreError> {
        self.run(async |pool| {
            let mut client = pool.get().await?;
            let transaction = client.transaction().await?;
            // The attempt's row first: a second attempt (here or on another server) finds it.
            let first = transaction
                .execute(
                    "INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rating,
                         deviation)
                     VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
                    &[&user.0, &puzzle, &int(now), &solved],
                )
                .await?
                == 1;
            // Rows to lock: two servers rating a puzzle at once take turns on its row.
            transaction
                .execute(
                    "INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempts,
                         solved)
                     VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (user_id) DO NOTHING",
                    &[
                        &user.0,
                        &Rating::START.rating,
                        &Rating::START.deviation,
                        &Rating::START.volatility,
                    ],
                )
                .await?;
            transaction
                .execute(
                    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility,
                         attempts, solved)
                     VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (puzzle_id) DO NOTHING",
                    &[&puzzle, &start.rating, &start.deviation, &start.volatility],
                )
                .await?;
            let player = transaction
                .query_opt(
                    "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_players
                     WHERE user_id = $1 FOR UPDATE",
                    &[&user.0],
                )
                .await?
                .as_ref()
                .map(rated_row);
            let rated_puzzle = transaction
                .query_opt(
                    "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings
                     WHERE puzzle_id = $1 FOR UPDATE",
                    &[&puzzle],
                )
                .await?
                .as_ref()
                .map(rated_row);
            if !first {
                transaction.rollback().await?;
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
            transaction
                .execute(
                    "INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempts,
                         solved)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (user_id) DO UPDATE SET rating = $2, deviation = $3,
                         volatility = $4, attempts = $5, solved = $6",
                    &[
                        &user.0,
                        &player_after.rating,
                        &player_after.deviation,
                        &player_after.volatility,
                        &int(player_now.attempts),
                        &int(player_now.solved),
                    ],
                )
                .await?;
            transaction
                .execute(
                    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility,
                         attempts, solved)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (puzzle_id) DO UPDATE SET rating = $2, deviation = $3,
                         volatility = $4, attempts = $5, solved = $6",
                    &[
                        &puzzle,
                        &puzzle_after.rating,
                        &puzzle_after.deviation,
                        &puzzle_after.volatility,
                        &int(puzzle_now.attempts),
                        &int(puzzle_now.solved),
                    ],
                )
                .await?;
            transaction
                .execute(
                    "UPDATE puzzle_attempts SET rating = $3, deviation = $4
                     WHERE user_id = $1 AND puzzle_id = $2",
                    &[&user.0, &puzzle, &player_after.rating, &player_after.deviation],
                )
                .await?;
            transaction.commit().await?;
            Ok(Attempted { rated: true, player: player_now, puzzle: puzzle_now })
        })
    }
}
