//! What a game's commit does for the accounts in SQLite, inside the commit's transaction: a
//! paired game's first commit records its [`Pairing`], and the commit of a rated game's end
//! updates both ratings.

use arbiter_rating::Rating;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::accounts::{Pairing, Rated, UserId, category, rate};
use crate::game::LiveGame;
use crate::seat::GameId;
use crate::store::{StoreError, int, uint};

/// What committing `game` does for the accounts, inside the commit's transaction: records the
/// pairing of a paired game's first version, and settles a paired game's end once.
pub(crate) fn saved(connection: &Connection, game: &LiveGame) -> Result<(), StoreError> {
    let Some(pairing) = game.pairing else { return Ok(()) };
    let key = game.id.as_str();
    if game.version == 1 {
        let category = category(game).name();
        connection.execute(
            "INSERT INTO pairings (game_id, red_user, blue_user, rated, category)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id) DO NOTHING",
            params![
                key,
                pairing.users[0].map(|u| u.0),
                pairing.users[1].map(|u| u.0),
                pairing.rated,
                category
            ],
        )?;
    }
    let Some(end) = game.end else { return Ok(()) };
    // Settled once: a stale copy saved again, or a retried commit, finds it settled.
    let row: Option<(Option<i64>, Option<i64>, bool, String)> = connection
        .query_row(
            "UPDATE pairings SET settled = 1 WHERE game_id = ?1 AND settled = 0
             RETURNING red_user, blue_user, rated, category",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((red, blue, true, category)) = row else { return Ok(()) };
    let users = [red.map(UserId), blue.map(UserId)];
    let before = [rated(connection, users[0], &category)?, rated(connection, users[1], &category)?];
    let Some(changes) = rate(game, end, users, before) else { return Ok(()) };
    for change in changes {
        let after = change.after;
        connection.execute(
            "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games,
                 played_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (user_id, category) DO UPDATE SET rating = ?3, deviation = ?4,
                 volatility = ?5, games = ?6, played_at = ?7",
            params![
                change.user.0,
                category,
                after.rating.rating,
                after.rating.deviation,
                after.rating.volatility,
                int(after.games),
                int(after.played_at)
            ],
        )?;
        connection.execute(
            "INSERT INTO rating_history (user_id, game_id, category, at, rating, deviation,
                 change)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                change.user.0,
                key,
                category,
                int(after.played_at),
                after.rating.rating,
                after.rating.deviation,
                change.change
            ],
        )?;
    }
    Ok(())
}

/// The rating of `user` in `category`, if rated there.
fn rated(
    connection: &Connection,
    user: Option<UserId>,
    category: &str,
) -> Result<Option<Rated>, StoreError> {
    let Some(user) = user else { return Ok(None) };
    Ok(connection
        .query_row(
            "SELECT rating, deviation, volatility, games, played_at FROM ratings
             WHERE user_id = ?1 AND category = ?2",
            params![user.0, category],
            rated_row,
        )
        .optional()?)
}

/// A rating read from the columns `rating, deviation, volatility, games, played_at`.
pub(crate) fn rated_row(r: &Row<'_>) -> rusqlite::Result<Rated> {
    Ok(Rated {
        rating: Rating { rating: r.get(0)?, deviation: r.get(1)?, volatility: r.get(2)? },
        games: uint(r.get(3)?),
        played_at: uint(r.get(4)?),
    })
}

/// The pairing of the game `id`, if the lobby paired it.
pub(crate) fn pairing(connection: &Connection, id: &GameId) -> Result<Option<Pairing>, StoreError> {
    Ok(connection
        .query_row(
            "SELECT red_user, blue_user, rated FROM pairings WHERE game_id = ?1",
            [id.as_str()],
            |r| {
                Ok(Pairing {
                    users: [
                        r.get::<_, Option<i64>>(0)?.map(UserId),
                        r.get::<_, Option<i64>>(1)?.map(UserId),
                    ],
                    rated: r.get(2)?,
                })
            },
        )
        .optional()?)
}
