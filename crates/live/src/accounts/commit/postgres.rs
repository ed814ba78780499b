//! What a game's commit does for the accounts in PostgreSQL, inside the commit's transaction:
//! the same as in SQLite ([`super::sqlite`]), in PostgreSQL's dialect.

use arbiter_rating::Rating;
use tokio_postgres::{Row, Transaction};

use crate::accounts::{Pairing, Rated, UserId, category, rate};
use crate::game::LiveGame;
use crate::seat::GameId;
use crate::store::{StoreError, int, uint};

/// What committing `game` does for the accounts, inside the commit's transaction (see
/// [`super::sqlite::saved`]).
pub(crate) async fn saved(client: &Transaction<'_>, game: &LiveGame) -> Result<(), StoreError> {
    let Some(pairing) = game.pairing else { return Ok(()) };
    let key = game.id.as_str();
    if game.version == 1 {
        client
            .execute(
                "INSERT INTO pairings (game_id, red_user, blue_user, rated, category)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
                &[
                    &key,
                    &pairing.users[0].map(|u| u.0),
                    &pairing.users[1].map(|u| u.0),
                    &pairing.rated,
                    &category(game).name(),
                ],
            )
            .await?;
    }
    let Some(end) = game.end else { return Ok(()) };
    let row = client
        .query_opt(
            "UPDATE pairings SET settled = TRUE WHERE game_id = $1 AND NOT settled
         RETURNING red_user, blue_user, rated, category",
            &[&key],
        )
        .await?;
    let Some(row) = row else { return Ok(()) };
    if !row.get::<_, bool>(2) {
        return Ok(());
    }
    let category: String = row.get(3);
    let users =
        [row.get::<_, Option<i64>>(0).map(UserId), row.get::<_, Option<i64>>(1).map(UserId)];
    let before =
        [rated(client, users[0], &category).await?, rated(client, users[1], &category).await?];
    let Some(changes) = rate(game, end, users, before) else { return Ok(()) };
    for change in changes {
        let after = change.after;
        client
            .execute(
                "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games,
                 played_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (user_id, category) DO UPDATE SET rating = $3, deviation = $4,
                 volatility = $5, games = $6, played_at = $7",
                &[
                    &change.user.0,
                    &category,
                    &after.rating.rating,
                    &after.rating.deviation,
                    &after.rating.volatility,
                    &int(after.games),
                    &int(after.played_at),
                ],
            )
            .await?;
        client
            .execute(
                "INSERT INTO rating_history (user_id, game_id, category, at, rating, deviation,
                 change)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &change.user.0,
                    &key,
                    &category,
                    &int(after.played_at),
                    &after.rating.rating,
                    &after.rating.deviation,
                    &change.change,
                ],
            )
            .await?;
    }
    Ok(())
}

/// The rating of `user` in `category`, if rated there.
async fn rated(
    client: &Transaction<'_>,
    user: Option<UserId>,
    category: &str,
) -> Result<Option<Rated>, StoreError> {
    let Some(user) = user else { return Ok(None) };
    let row = client
        .query_opt(
            "SELECT rating, deviation, volatility, games, played_at FROM ratings
         WHERE user_id = $1 AND category = $2",
            &[&user.0, &category],
        )
        .await?;
    Ok(row.as_ref().map(rated_row))
}

/// A rating read from the columns `rating, deviation, volatility, games, played_at`.
pub(crate) fn rated_row(r: &Row) -> Rated {
    Rated {
        rating: Rating { rating: r.get(0), deviation: r.get(1), volatility: r.get(2) },
        games: uint(r.get(3)),
        played_at: uint(r.get(4)),
    }
}

/// The pairing of the game `id`, if the lobby paired it.
pub(crate) async fn pairing(
    client: &Transaction<'_>,
    id: &GameId,
) -> Result<Option<Pairing>, StoreError> {
    let row = client
        .query_opt(
            "SELECT red_user, blue_user, rated FROM pairings WHERE game_id = $1",
            &[&id.as_str()],
        )
        .await?;
    Ok(row.map(|r| Pairing {
        users: [r.get::<_, Option<i64>>(0).map(UserId), r.get::<_, Option<i64>>(1).map(UserId)],
        rated: r.get(2),
    }))
}
