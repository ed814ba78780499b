//! The accounts in SQLite, in the games' database (migration `04-accounts`). What a game's commit
//! does for them is in [`super::commit::sqlite`].

use arbiter_rating::Category;
use rusqlite::{OptionalExtension, Row, params};

use super::commit::sqlite::rated_row;
use super::{
    AccountStore, Counts, DELETED, GameFilter, Leader, Outcome, PlayerGame, Point, Rated, Session,
    User, UserId, UserName,
};
use crate::clock::TimeControl;
use crate::seat::{GameId, Seat};
use crate::sqlite::SqliteStore;
use crate::store::{StoreError, int, seat, uint};
/// A category read back, `Corrupt` if it is not one.
fn category_of(id: &str, text: &str) -> Result<Category, StoreError> {
    text.parse().map_err(|_| StoreError::Corrupt(id.to_owned(), format!("category {text}")))
}

/// The user of the columns `id, name, created_at`.
fn user_row(r: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User { id: UserId(r.get(0)?), name: r.get(1)?, created_at: uint(r.get(2)?) })
}

impl AccountStore for SqliteStore {
    fn add_user(
        &self,
        name: &UserName,
        password: &str,
        now: u64,
    ) -> Result<Option<User>, StoreError> {
        let connection = self.connection();
        let added = connection.execute(
            "INSERT INTO users (name, name_key, password, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (name_key) DO NOTHING",
            params![name.as_str(), name.key(), password, int(now)],
        )?;
        if added == 0 {
            return Ok(None);
        }
        let id = UserId(connection.last_insert_rowid());
        Ok(Some(User { id, name: name.as_str().to_owned(), created_at: now }))
    }

    fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError> {
        Ok(self
            .connection()
            .query_row(
                "SELECT id, name, created_at, password FROM users WHERE name_key = ?1",
                [name.to_ascii_lowercase()],
                |r| Ok((user_row(r)?, r.get(3)?)),
            )
            .optional()?)
    }

    fn set_password(&self, user: UserId, password: &str) -> Result<(), StoreError> {
        let mut connection = self.connection();
        let transaction = connection.transaction()?;
        transaction
            .execute("UPDATE users SET password = ?2 WHERE id = ?1", params![user.0, password])?;
        transaction.execute("DELETE FROM sessions WHERE user_id = ?1", [user.0])?;
        transaction.commit()?;
        Ok(())
    }

    fn delete_user(&self, user: UserId) -> Result<(), StoreError> {
        let mut connection = self.connection();
        let transaction = connection.transaction()?;
        for (column, seat) in [("red_name", "red_user"), ("blue_name", "blue_user")] {
            transaction.execute(
                &format!(
                    "UPDATE games SET {column} = ?2
                     WHERE id IN (SELECT game_id FROM pairings WHERE {seat} = ?1)"
                ),
                params![user.0, DELETED],
            )?;
        }
        // Sessions, ratings and history go with the account; the pairings keep the games with
        // no account at that seat.
        transaction.execute("DELETE FROM users WHERE id = ?1", [user.0])?;
        transaction.commit()?;
        Ok(())
    }

    fn ongoing(&self, user: UserId) -> Result<Vec<GameId>, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT g.id FROM pairings p JOIN games g ON g.id = p.game_id
             WHERE (p.red_user = ?1 OR p.blue_user = ?1) AND g.status = 'ongoing'",
        )?;
        let ids = statement
            .query_map([user.0], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids.iter().filter_map(|id| GameId::parse(id)).collect())
    }

    fn add_session(
        &self,
        key: &str,
        user: UserId,
        csrf: &str,
        now: u64,
        expires_at: u64,
    ) -> Result<(), StoreError> {
        let mut connection = self.connection();
        let transaction = connection.transaction()?;
        // The account's sessions that have ended go: none is ever looked up again.
        transaction.execute(
            "DELETE FROM sessions WHERE user_id = ?1 AND expires_at <= ?2",
            params![user.0, int(now)],
        )?;
        transaction.execute(
            "INSERT INTO sessions (id, user_id, csrf, created_at, expires_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, user.0, csrf, int(now), int(expires_at)],
        )?;
        transaction.commit()?;
        Ok(())
    }

    fn session(&self, key: &str, now: u64) -> Result<Option<Session>, StoreError> {
        let found = self
            .connection()
            .query_row(
                "SELECT u.id, u.name, u.created_at, s.csrf, s.expires_at
                 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1",
                [key],
                |r| {
                    Ok(Session { user: user_row(r)?, csrf: r.get(3)?, expires_at: uint(r.get(4)?) })
                },
            )
            .optional()?;
        match found {
            Some(session) if session.expires_at <= now => {
                self.end_session(key)?;
                Ok(None)
            }
            found => Ok(found),
        }
    }

    fn end_session(&self, key: &str) -> Result<(), StoreError> {
        self.connection().execute("DELETE FROM sessions WHERE id = ?1", [key])?;
        Ok(())
    }

    fn ratings(&self, user: UserId) -> Result<Vec<(Category, Rated)>, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT rating, deviation, volatility, games, played_at, category FROM ratings
             WHERE user_id = ?1",
        )?;
        let rows = statement
            .query_map([user.0], |r| Ok((r.get::<_, String>(5)?, rated_row(r)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        let mut ratings = rows
            .into_iter()
            .map(|(name, rated)| Ok((category_of("ratings", &name)?, rated)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        ratings.sort_by_key(|(category, _)| *category);
        Ok(ratings)
    }

    fn counts(&self, user: UserId) -> Result<Counts, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT g.winner, CASE WHEN p.red_user = ?1 THEN 'red' ELSE 'blue' END, COUNT(*)
             FROM pairings p JOIN games g ON g.id = p.game_id
             WHERE (p.red_user = ?1 OR p.blue_user = ?1) AND g.status = 'over'
                 AND g.reason <> 'aborted'
             GROUP BY 1, 2",
        )?;
        let rows = statement
            .query_map([user.0], |r| {
                Ok((r.get::<_, Option<String>>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut counts = Counts::default();
        for (winner, own, count) in rows {
            let outcome = Outcome::of(
                seat("counts", Some(own))?.unwrap_or(Seat::Red),
                seat("counts", winner)?,
            );
            match outcome {
                Outcome::Win => counts.win += uint(count),
                Outcome::Draw => counts.draw += uint(count),
                Outcome::Loss => counts.loss += uint(count),
            }
        }
        Ok(counts)
    }

    fn history(&self, user: UserId) -> Result<Vec<Point>, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT game_id, category, at, rating, deviation, change FROM rating_history
             WHERE user_id = ?1 ORDER BY at, game_id",
        )?;
        let rows = statement
            .query_map([user.0], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    uint(r.get(2)?),
                    (r.get(3)?, r.get(4)?, r.get(5)?),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(game, name, at, (rating, deviation, change))| {
                let category = category_of(&game, &name)?;
                Ok(Point { game, category, at, rating, deviation, change })
            })
            .collect()
    }

    fn player_games(
        &self,
        user: UserId,
        filter: &GameFilter,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<PlayerGame>, u64), StoreError> {
        // The player's seat, the opponent's name and the result, as columns to filter on.
        let games = "SELECT g.id, g.status, g.winner, g.reason, g.initial_ms, g.increment_ms,
                            g.created_at, p.rated, p.category,
                            CASE WHEN p.red_user = ?1 THEN 'red' ELSE 'blue' END AS seat,
                            CASE WHEN p.red_user = ?1 THEN g.blue_name ELSE g.red_name END
                                AS opponent,
                            CASE WHEN g.status <> 'over' OR g.reason = 'aborted' THEN NULL
                                 WHEN g.winner IS NULL THEN 'draw'
                                 WHEN g.winner = (CASE WHEN p.red_user = ?1 THEN 'red'
                                                  ELSE 'blue' END) THEN 'win'
                                 ELSE 'loss' END AS result,
                            h.change, h.rating
                     FROM pairings p JOIN games g ON g.id = p.game_id
                     LEFT JOIN rating_history h ON h.user_id = ?1 AND h.game_id = g.id
                     WHERE p.red_user = ?1 OR p.blue_user = ?1";
        let condition = "(?2 IS NULL OR result = ?2) AND (?3 IS NULL OR category = ?3)
                         AND (?4 IS NULL OR lower(opponent) = lower(?4))";
        let values = params![
            user.0,
            filter.result.map(Outcome::name),
            filter.category.map(Category::name),
            filter.opponent.as_deref().map(str::trim).filter(|name| !name.is_empty()),
        ];
        let connection = self.connection();
        let total: i64 = connection.query_row(
            &format!("SELECT COUNT(*) FROM ({games}) WHERE {condition}"),
            values,
            |r| r.get(0),
        )?;
        let mut statement = connection.prepare_cached(&format!(
            "SELECT * FROM ({games}) WHERE {condition} ORDER BY created_at DESC, id
             LIMIT ?5 OFFSET ?6"
        ))?;
        let rows = statement
            .query_map(
                params![
                    user.0,
                    filter.result.map(Outcome::name),
                    filter.category.map(Category::name),
                    filter.opponent.as_deref().map(str::trim).filter(|name| !name.is_empty()),
                    int(limit),
                    int(offset)
                ],
                |r| {
                    let time = match (r.get::<_, Option<i64>>(4)?, r.get::<_, Option<i64>>(5)?) {
                        (Some(initial), Some(increment)) => Some(
                            TimeControl {
                                initial_ms: uint(initial),
                                increment_ms: uint(increment),
                            }
                            .to_string(),
                        ),
                        _ => None,
                    };
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, Option<String>>(3)?,
                        ),
                        (time, uint(r.get(6)?), r.get::<_, bool>(7)?, r.get::<_, String>(8)?),
                        (r.get::<_, String>(9)?, r.get::<_, Option<String>>(10)?),
                        (
                            r.get::<_, Option<String>>(11)?,
                            r.get::<_, Option<f64>>(12)?,
                            r.get::<_, Option<f64>>(13)?,
                        ),
                    ))
                },
            )?
            .collect::<Result<Vec<_>, _>>()?;
        let games = rows
            .into_iter()
            .map(
                |(
                    (id, status, reason),
                    (time, created_at, rated, name),
                    (own, opponent),
                    (result, change, rating),
                )| {
                    let category = category_of(&id, &name)?;
                    let seat = seat(&id, Some(own))?.unwrap_or(Seat::Red);
                    let result = result.as_deref().and_then(Outcome::parse);
                    Ok(PlayerGame {
                        id,
                        seat,
                        opponent,
                        status,
                        result,
                        reason,
                        time,
                        category,
                        rated,
                        change,
                        rating,
                        created_at,
                    })
                },
            )
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((games, uint(total)))
    }

    fn leaderboard(
        &self,
        category: Category,
        since: u64,
        limit: u64,
    ) -> Result<Vec<Leader>, StoreError> {
        let connection = self.connection();
        let mut statement = connection.prepare_cached(
            "SELECT r.rating, r.deviation, r.volatility, r.games, r.played_at, u.name
             FROM ratings r JOIN users u ON u.id = r.user_id
             WHERE r.category = ?1 AND r.played_at >= ?2
             ORDER BY r.rating DESC, u.name_key LIMIT ?3",
        )?;
        let leaders = statement
            .query_map(params![category.name(), int(since), int(limit)], |r| {
                let rated = rated_row(r)?;
                Ok(Leader { name: r.get(5)?, provisional: rated.rating.is_provisional(), rated })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(leaders)
    }
}
