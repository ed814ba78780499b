//! The accounts in PostgreSQL, in the games' database (migration `04-accounts`): the same
//! queries as SQLite's, in PostgreSQL's dialect. What a game's commit does for them is in
//! [`super::commit::postgres`].

use arbiter_rating::Category;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::commit::postgres::rated_row;
use super::{
    AccountStore, Counts, DELETED, GameFilter, Leader, Outcome, PlayerGame, Point, Rated, Session,
    User, UserId, UserName,
};
use crate::clock::TimeControl;
use crate::postgres::PostgresStore;
use crate::seat::{GameId, Seat};
use crate::store::{StoreError, int, seat, uint};
/// A category read back, `Corrupt` if it is not one.
fn category_of(id: &str, text: &str) -> Result<Category, StoreError> {
    text.parse().map_err(|_| StoreError::Corrupt(id.to_owned(), format!("category {text}")))
}

/// The user of the columns `id, name, created_at`.
fn user_row(r: &Row) -> User {
    User { id: UserId(r.get(0)), name: r.get(1), created_at: uint(r.get(2)) }
}

/// Runs one query of `sql` with `values` on a connection of the store's pool: its rows.
fn query(
    store: &PostgresStore,
    sql: &str,
    values: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, StoreError> {
    store.run(async |pool| Ok(pool.get().await?.query(sql, values).await?))
}

impl AccountStore for PostgresStore {
    fn add_user(
        &self,
        name: &UserName,
        password: &str,
        now: u64,
    ) -> Result<Option<User>, StoreError> {
        let rows = query(
            self,
            "INSERT INTO users (name, name_key, password, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (name_key) DO NOTHING RETURNING id",
            &[&name.as_str(), &name.key(), &password, &int(now)],
        )?;
        Ok(rows.first().map(|row| User {
            id: UserId(row.get(0)),
            name: name.as_str().to_owned(),
            created_at: now,
        }))
    }

    fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError> {
        let rows = query(
            self,
            "SELECT id, name, created_at, password FROM users WHERE name_key = $1",
            &[&name.to_ascii_lowercase()],
        )?;
        Ok(rows.first().map(|r| (user_row(r), r.get(3))))
    }

    fn set_password(&self, user: UserId, password: &str) -> Result<(), StoreError> {
        self.run(async |pool| {
            let mut client = pool.get().await?;
            let transaction = client.transaction().await?;
            transaction
                .execute("UPDATE users SET password = $2 WHERE id = $1", &[&user.0, &password])
                .await?;
            transaction.execute("DELETE FROM sessions WHERE user_id = $1", &[&user.0]).await?;
            transaction.commit().await?;
            Ok(())
        })
    }

    fn delete_user(&self, user: UserId) -> Result<(), StoreError> {
        self.run(async |pool| {
            let mut client = pool.get().await?;
            let transaction = client.transaction().await?;
            for (column, seat) in [("red_name", "red_user"), ("blue_name", "blue_user")] {
                transaction
                    .execute(
                        &format!(
                            "UPDATE games SET {column} = $2
                             WHERE id IN (SELECT game_id FROM pairings WHERE {seat} = $1)"
                        ),
                        &[&user.0, &DELETED],
                    )
                    .await?;
            }
            transaction.execute("DELETE FROM users WHERE id = $1", &[&user.0]).await?;
            transaction.commit().await?;
            Ok(())
        })
    }

    fn ongoing(&self, user: UserId) -> Result<Vec<GameId>, StoreError> {
        let rows = query(
            self,
            "SELECT g.id FROM pairings p JOIN games g ON g.id = p.game_id
             WHERE (p.red_user = $1 OR p.blue_user = $1) AND g.status = 'ongoing'",
            &[&user.0],
        )?;
        Ok(rows.iter().filter_map(|row| GameId::parse(row.get(0))).collect())
    }

    fn add_session(
        &self,
        key: &str,
        user: UserId,
        csrf: &str,
        now: u64,
        expires_at: u64,
    ) -> Result<(), StoreError> {
        self.run(async |pool| {
            let mut client = pool.get().await?;
            let transaction = client.transaction().await?;
            // The account's sessions that have ended go: none is ever looked up again.
            transaction
                .execute(
                    "DELETE FROM sessions WHERE user_id = $1 AND expires_at <= $2",
                    &[&user.0, &int(now)],
                )
                .await?;
            transaction
                .execute(
                    "INSERT INTO sessions (id, user_id, csrf, created_at, expires_at)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[&key, &user.0, &csrf, &int(now), &int(expires_at)],
                )
                .await?;
            transaction.commit().await?;
            Ok(())
        })
    }

    fn session(&self, key: &str, now: u64) -> Result<Option<Session>, StoreError> {
        let rows = query(
            self,
            "SELECT u.id, u.name, u.created_at, s.csrf, s.expires_at
             FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1",
            &[&key],
        )?;
        let found = rows.first().map(|r| Session {
            user: user_row(r),
            csrf: r.get(3),
            expires_at: uint(r.get(4)),
        });
        match found {
            Some(session) if session.expires_at <= now => {
                self.end_session(key)?;
                Ok(None)
            }
            found => Ok(found),
        }
    }

    fn end_session(&self, key: &str) -> Result<(), StoreError> {
        query(self, "DELETE FROM sessions WHERE id = $1", &[&key])?;
        Ok(())
    }

    fn ratings(&self, user: UserId) -> Result<Vec<(Category, Rated)>, StoreError> {
        let rows = query(
            self,
            "SELECT rating, deviation, volatility, games, played_at, category FROM ratings
             WHERE user_id = $1",
            &[&user.0],
        )?;
        let mut ratings = rows
            .iter()
            .map(|r| Ok((category_of("ratings", r.get(5))?, rated_row(r))))
            .collect::<Result<Vec<_>, StoreError>>()?;
        ratings.sort_by_key(|(category, _)| *category);
        Ok(ratings)
    }

    fn counts(&self, user: UserId) -> Result<Counts, StoreError> {
        let rows = query(
            self,
            "SELECT g.winner, CASE WHEN p.red_user = $1 THEN 'red' ELSE 'blue' END, COUNT(*)
             FROM pairings p JOIN games g ON g.id = p.game_id
             WHERE (p.red_user = $1 OR p.blue_user = $1) AND g.status = 'over'
                 AND g.reason <> 'aborted'
             GROUP BY 1, 2",
            &[&user.0],
        )?;
        let mut counts = Counts::default();
        for row in rows {
            let own = seat("counts", Some(row.get(1)))?.unwrap_or(Seat::Red);
            let count = uint(row.get(2));
            match Outcome::of(own, seat("counts", row.get(0))?) {
                Outcome::Win => counts.win += count,
                Outcome::Draw => counts.draw += count,
                Outcome::Loss => counts.loss += count,
            }
        }
        Ok(counts)
    }

    fn history(&self, user: UserId) -> Result<Vec<Point>, StoreError> {
        let rows = query(
            self,
            "SELECT game_id, category, at, rating, deviation, change FROM rating_history
             WHERE user_id = $1 ORDER BY at, game_id COLLATE \"C\"",
            &[&user.0],
        )?;
        rows.iter()
            .map(|r| {
                let game: String = r.get(0);
                let category = category_of(&game, r.get(1))?;
                Ok(Point {
                    category,
                    at: uint(r.get(2)),
                    rating: r.get(3),
                    deviation: r.get(4),
                    change: r.get(5),
                    game,
                })
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
        let games = "SELECT g.id, g.status, g.winner, g.reason, g.initial_ms, g.increment_ms,
                            g.created_at, p.rated, p.category,
                            CASE WHEN p.red_user = $1 THEN 'red' ELSE 'blue' END AS seat,
                            CASE WHEN p.red_user = $1 THEN g.blue_name ELSE g.red_name END
                                AS opponent,
                            CASE WHEN g.status <> 'over' OR g.reason = 'aborted' THEN NULL
                                 WHEN g.winner IS NULL THEN 'draw'
                                 WHEN g.winner = (CASE WHEN p.red_user = $1 THEN 'red'
                                                  ELSE 'blue' END) THEN 'win'
                                 ELSE 'loss' END AS result,
                            h.change, h.rating
                     FROM pairings p JOIN games g ON g.id = p.game_id
                     LEFT JOIN rating_history h ON h.user_id = $1 AND h.game_id = g.id
                     WHERE p.red_user = $1 OR p.blue_user = $1";
        let condition = "($2::TEXT IS NULL OR result = $2)
                         AND ($3::TEXT IS NULL OR category = $3)
                         AND ($4::TEXT IS NULL OR lower(opponent) = lower($4))";
        let result = filter.result.map(Outcome::name);
        let category = filter.category.map(Category::name);
        let opponent = filter.opponent.as_deref().map(str::trim).filter(|name| !name.is_empty());
        let (total, rows) = self.run(async |pool| {
            let client = pool.get().await?;
            let total: i64 = client
                .query_one(
                    &format!("SELECT COUNT(*) FROM ({games}) AS mine WHERE {condition}"),
                    &[&user.0, &result, &category, &opponent],
                )
                .await?
                .get(0);
            let rows = client
                .query(
                    &format!(
                        "SELECT * FROM ({games}) AS mine WHERE {condition}
                         ORDER BY created_at DESC, id COLLATE \"C\" LIMIT $5 OFFSET $6"
                    ),
                    &[&user.0, &result, &category, &opponent, &int(limit), &int(offset)],
                )
                .await?;
            Ok((total, rows))
        })?;
        let games = rows
            .iter()
            .map(|r| {
                let id: String = r.get(0);
                let category = category_of(&id, r.get(8))?;
                let seat = seat(&id, Some(r.get(9)))?.unwrap_or(Seat::Red);
                let time = match (r.get::<_, Option<i64>>(4), r.get::<_, Option<i64>>(5)) {
                    (Some(initial), Some(increment)) => Some(
                        TimeControl { initial_ms: uint(initial), increment_ms: uint(increment) }
                            .to_string(),
                    ),
                    _ => None,
                };
                Ok(PlayerGame {
                    seat,
                    opponent: r.get(10),
                    status: r.get(1),
                    result: r.get::<_, Option<&str>>(11).and_then(Outcome::parse),
                    reason: r.get(3),
                    time,
                    category,
                    rated: r.get(7),
                    change: r.get(12),
                    rating: r.get(13),
                    created_at: uint(r.get(6)),
                    id,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((games, uint(total)))
    }

    fn leaderboard(
        &self,
        category: Category,
        since: u64,
        limit: u64,
    ) -> Result<Vec<Leader>, StoreError> {
        let rows = query(
            self,
            "SELECT r.rating, r.deviation, r.volatility, r.games, r.played_at, u.name
             FROM ratings r JOIN users u ON u.id = r.user_id
             WHERE r.category = $1 AND r.played_at >= $2
             ORDER BY r.rating DESC, u.name_key COLLATE \"C\" LIMIT $3",
            &[&category.name(), &int(since), &int(limit)],
        )?;
        Ok(rows
            .iter()
            .map(|r| {
                let rated = rated_row(r);
                Leader { name: r.get(5), provisional: rated.rating.is_provisional(), rated }
            })
            .collect())
    }
}
