//! The [`Store`] in PostgreSQL, for several servers sharing one database: its schema brought up to
//! date at every start by the migrations in `crates/live/migrations/postgres/` (one server at a
//! time, under an advisory lock), each change committed only over the version it was made from
//! (else [`StoreError::Stale`]), and announced in the same transaction by
//! `NOTIFY game_changed, 'ID:VERSION'`, which a [`Listener`] hears in every server.
//!
//! The store keeps a pool of connections ([`deadpool_postgres`] over [`tokio_postgres`]), so
//! that games are committed at once on several connections, made as they are needed, up to
//! `pool_max_size` (see [`address`]). They are driven by a small runtime of the store's own:
//! the store's methods block, and are called from threads that may block (a blocking task),
//! never from an async one. A connection found closed is dropped and another made at the next
//! request, so the store outlives a restart of the database; while the database is away every
//! request fails at once as [`StoreError::Unavailable`] and nothing is acknowledged.

pub mod address;
mod listener;

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use tokio_postgres::IsolationLevel;
use tokio_postgres::types::ToSql;

pub use self::address::Address;
pub use self::listener::{Change, Listener};
use crate::clock::TimeControl;
use crate::game::{End, LiveGame, Played};
use crate::seat::{GameId, Token};
use crate::store::{Filter, Page, Store, StoreError, Summary, game_id, int, seat, seat_name, uint};

/// The channel on which every committed change is announced, as `ID:VERSION`.
pub const CHANNEL: &str = "game_changed";

/// The schema's migrations, oldest first: the same schema as SQLite's, in PostgreSQL's types.
const MIGRATIONS: [&str; 3] = [
    include_str!("../migrations/postgres/01-games/up.sql"),
    include_str!("../migrations/postgres/02-clocks/up.sql"),
    include_str!("../migrations/postgres/03-rematch/up.sql"),
];

/// The advisory lock held while the schema is migrated, so that servers starting at once take
/// turns ("arbiter" in ASCII).
const MIGRATION_LOCK: i64 = 0x0061_7262_6974_6572;

/// How long a request waits for a connection of the pool, or for a new one to be made, before
/// it is refused: a move is answered (refused) within this even while the database is away.
const WAIT: Duration = Duration::from_secs(5);

/// The games in one PostgreSQL database.
pub struct PostgresStore {
    // Dropped before the runtime that drives its connections.
    pool: Pool,
    runtime: Driver,
}

/// The runtime that drives the pool's connections; shut down without waiting when dropped, so
/// that a store may be dropped anywhere (a blocking wait on an async thread would panic).
struct Driver(Option<tokio::runtime::Runtime>);

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// An error of the database, told with its causes; one that means the database cannot be
/// reached (the connection lost or refused, the server shutting down or starting) is
/// [`StoreError::Unavailable`].
impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> StoreError {
        let told = describe(&error);
        if unreachable(&error) { StoreError::Unavailable(told) } else { StoreError::Postgres(told) }
    }
}

impl From<PoolError> for StoreError {
    fn from(error: PoolError) -> StoreError {
        match error {
            PoolError::Backend(error) => error.into(),
            PoolError::Timeout(_) => {
                StoreError::Unavailable(format!("no connection within {} s", WAIT.as_secs()))
            }
            other => StoreError::Unavailable(other.to_string()),
        }
    }
}

/// `error` and its causes, in one line: tokio-postgres's own text says only "db error".
pub(crate) fn describe(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    let mut told = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(error) = cause {
        let text = error.to_string();
        if !told.contains(&text) {
            told = format!("{told}: {text}");
        }
        cause = error.source();
    }
    told
}

/// Whether `error` means the database cannot be reached now.
fn unreachable(error: &tokio_postgres::Error) -> bool {
    if error.is_closed() {
        return true;
    }
    if let Some(code) = error.code() {
        let code = code.code();
        // Class 08, connection exceptions; 57P01-57P03, the server shutting down or starting;
        // 53300, too many connections.
        return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "53300");
    }
    // No answer of the server's: the connection failed underneath (refused, reset, timed out),
    // unless TLS refused it (a certificate not trusted): that is no passing state.
    let mut cause = std::error::Error::source(error);
    while let Some(error) = cause {
        if let Some(io) = error.downcast_ref::<std::io::Error>() {
            return !io.get_ref().is_some_and(|inner| inner.is::<rustls::Error>());
        }
        cause = error.source();
    }
    false
}

/// Brings the schema up to date: each migration not yet recorded runs, all in one transaction
/// under the advisory lock.
async fn migrate(client: &mut deadpool_postgres::Client) -> Result<(), StoreError> {
    let transaction = client.transaction().await?;
    transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    transaction
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS arbiter_migrations (
                 version    INTEGER PRIMARY KEY,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
             )",
        )
        .await?;
    let done: i32 = transaction
        .query_one("SELECT COALESCE(MAX(version), 0) FROM arbiter_migrations", &[])
        .await?
        .get(0);
    if usize::try_from(done).unwrap_or(0) > MIGRATIONS.len() {
        return Err(StoreError::Newer);
    }
    for (index, migration) in MIGRATIONS.iter().enumerate() {
        let version = i32::try_from(index + 1).unwrap_or(i32::MAX);
        if version > done {
            transaction.batch_execute(migration).await?;
            transaction
                .execute("INSERT INTO arbiter_migrations (version) VALUES ($1)", &[&version])
                .await?;
        }
    }
    transaction.commit().await?;
    Ok(())
}

impl PostgresStore {
    /// The store in the database at `url` (see [`Address`]), its schema brought up to date.
    /// Fails if the database cannot be reached now.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let address = Address::parse(url)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("postgres")
            .enable_all()
            .build()?;
        let manager = Manager::from_config(
            address.config,
            address.tls,
            // A connection the database closed is seen closed, dropped and replaced.
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = Pool::builder(manager)
            .max_size(address.pool_max_size)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .recycle_timeout(Some(WAIT))
            .build()
            .map_err(|error| StoreError::Postgres(error.to_string()))?;
        let store = PostgresStore { pool, runtime: Driver(Some(runtime)) };
        store.run(async |pool| migrate(&mut pool.get().await?).await)?;
        Ok(store)
    }

    /// The pool of connections, for queries of other tables (run them through
    /// [`PostgresStore::run`]).
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Runs `job` on the pool, on the store's runtime, and waits for it.
    pub fn run<T>(
        &self,
        job: impl AsyncFnOnce(&Pool) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match &self.runtime.0 {
            Some(runtime) => runtime.block_on(job(&self.pool)),
            None => Err(StoreError::Unavailable("the store is closed".into())),
        }
    }
}

/// Both clocks, when both are stored.
fn pair(red: Option<i64>, blue: Option<i64>) -> Option<(u64, u64)> {
    Some((uint(red?), uint(blue?)))
}

/// The time control, when one is stored.
fn control(initial: Option<i64>, increment: Option<i64>) -> Option<TimeControl> {
    Some(TimeControl { initial_ms: uint(initial?), increment_ms: uint(increment?) })
}

impl Store for PostgresStore {
    fn save(&self, game: &LiveGame) -> Result<(), StoreError> {
        let key = game.id.as_str();
        let (status, winner, reason) = match game.end {
            Some(end) => ("over", seat_name(end.winner), Some(end.reason)),
            None => ("ongoing", None, None),
        };
        let plies = int(game.moves.len() as u64);
        let version = int(game.version);
        let values: [&(dyn ToSql + Sync); 18] = [
            &key,
            &game.tokens[0].reveal(),
            &game.tokens[1].reveal(),
            &game.names[0],
            &game.names[1],
            &game.time.map(|t| int(t.initial_ms)),
            &game.time.map(|t| int(t.increment_ms)),
            &status,
            &winner,
            &reason,
            &seat_name(game.draw_offer),
            &seat_name(game.takeback),
            &plies,
            &version,
            &int(game.created_at),
            &int(game.turn_since),
            &game.clocks.map(|c| int(c.red_ms)),
            &game.clocks.map(|c| int(c.blue_ms)),
        ];
        self.run(async |pool| {
            let mut client = pool.get().await?;
            let transaction = client.transaction().await?;
            let upsert = transaction
                .prepare_cached(
                    "INSERT INTO games (id, red_token, blue_token, red_name, blue_name, initial_ms,
                         increment_ms, status, winner, reason, draw_offer, takeback, plies,
                         version, created_at, updated_at, red_ms, blue_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                         $16, $17, $18)
                     ON CONFLICT (id) DO UPDATE SET red_name = $4, blue_name = $5, status = $8,
                         winner = $9, reason = $10, draw_offer = $11, takeback = $12,
                         plies = $13, version = $14, updated_at = $16, red_ms = $17,
                         blue_ms = $18
                     WHERE games.version = $14 - 1",
                )
                .await?;
            if transaction.execute(&upsert, &values).await? == 0 {
                // Dropped, the transaction rolls back.
                return Err(StoreError::Stale(key.to_owned()));
            }
            transaction
                .execute(
                    "UPDATE games SET rematch_offer = $2, rematch = $3 WHERE id = $1",
                    &[
                        &key,
                        &seat_name(game.rematch_offer),
                        &game.rematch.as_ref().map(GameId::as_str),
                    ],
                )
                .await?;
            transaction
                .execute("DELETE FROM moves WHERE game_id = $1 AND ply >= $2", &[&key, &plies])
                .await?;
            let stored: i64 = transaction
                .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&key])
                .await?
                .get(0);
            let insert = transaction
                .prepare_cached(
                    "INSERT INTO moves (game_id, ply, command, took_ms, played_at, red_ms,
                         blue_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .await?;
            for (ply, played) in game.moves.iter().enumerate().skip(uint(stored) as usize) {
                transaction
                    .execute(
                        &insert,
                        &[
                            &key,
                            &int(ply as u64),
                            &played.command,
                            &int(played.took_ms),
                            &int(played.at),
                            &played.clocks.map(|c| int(c.0)),
                            &played.clocks.map(|c| int(c.1)),
                        ],
                    )
                    .await?;
            }
            // Delivered to every listening server once, and only if, the transaction commits.
            let change = format!("{key}:{}", game.version);
            transaction.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &change]).await?;
            transaction.commit().await?;
            Ok(())
        })
    }

    fn load(&self, id: &GameId, _now: u64) -> Result<Option<LiveGame>, StoreError> {
        let key = id.as_str();
        let found = self.run(async |pool| {
            let mut client = pool.get().await?;
            // One snapshot for the row and its moves: a change committed between the two
            // reads must not mix two versions.
            let transaction = client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let Some(row) = transaction
                .query_opt(
                    "SELECT red_token, blue_token, red_name, blue_name, initial_ms,
                            increment_ms, winner, reason, draw_offer, takeback, version,
                            created_at, red_ms, blue_ms, updated_at
                     FROM games WHERE id = $1",
                    &[&key],
                )
                .await?
            else {
                return Ok(None);
            };
            let rematch = transaction
                .query_one("SELECT rematch_offer, rematch FROM games WHERE id = $1", &[&key])
                .await?;
            let moves = transaction
                .query(
                    "SELECT command, took_ms, played_at, red_ms, blue_ms FROM moves
                     WHERE game_id = $1 ORDER BY ply",
                    &[&key],
                )
                .await?;
            transaction.commit().await?;
            Ok(Some((row, rematch, moves)))
        })?;
        let Some((row, rematch, moves)) = found else { return Ok(None) };
        let moves = moves
            .iter()
            .map(|r| Played {
                command: r.get(0),
                took_ms: uint(r.get(1)),
                at: uint(r.get(2)),
                clocks: pair(r.get(3), r.get(4)),
            })
            .collect();
        let end = match row.get::<_, Option<String>>(7) {
            Some(reason) => {
                Some(End::from_stored(seat(key, row.get(6))?, &reason).ok_or_else(|| {
                    StoreError::Corrupt(key.to_owned(), format!("reason {reason}"))
                })?)
            }
            None => None,
        };
        // The turn goes on from when it began: another server may have been serving the game
        // all along, so no time is known not to count.
        let turn_since = uint(row.get(14));
        let game = LiveGame::restore(
            id.clone(),
            [Token::from_stored(row.get(0)), Token::from_stored(row.get(1))],
            [row.get(2), row.get(3)],
            control(row.get(4), row.get(5)),
            (moves, pair(row.get(12), row.get(13))),
            (seat(key, row.get(8))?, seat(key, row.get(9))?),
            end,
            uint(row.get(11)),
            uint(row.get(10)),
            turn_since,
        )
        .map_err(|refusal| StoreError::Corrupt(key.to_owned(), refusal.to_string()))?;
        let mut game = game;
        game.rematch_offer = seat(key, rematch.get(0))?;
        game.rematch = game_id(key, rematch.get(1))?;
        Ok(Some(game))
    }

    fn list(&self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError> {
        let status = filter.status.as_deref().filter(|s| matches!(*s, "ongoing" | "over"));
        // LIKE's own wildcards in a name are matched as themselves.
        let player = filter.player.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(|p| {
            let escaped = p.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            format!("%{escaped}%")
        });
        let condition = "($1::TEXT IS NULL OR status = $1)
                         AND ($2::TEXT IS NULL OR red_name ILIKE $2 ESCAPE '\\'
                              OR blue_name ILIKE $2 ESCAPE '\\')";
        let (total, rows) = self.run(async |pool| {
            let client = pool.get().await?;
            let total: i64 = client
                .query_one(
                    &format!("SELECT COUNT(*) FROM games WHERE {condition}"),
                    &[&status, &player],
                )
                .await?
                .get(0);
            let rows = client
                .query(
                    &format!(
                        "SELECT id, red_name, blue_name, status, winner, reason, plies,
                                initial_ms, increment_ms, created_at
                         FROM games WHERE {condition}
                         ORDER BY created_at DESC, id COLLATE \"C\" LIMIT $3 OFFSET $4"
                    ),
                    &[&status, &player, &int(page.limit), &int(page.offset)],
                )
                .await?;
            Ok((total, rows))
        })?;
        let games = rows
            .iter()
            .map(|r| Summary {
                id: r.get(0),
                red: r.get(1),
                blue: r.get(2),
                status: r.get(3),
                winner: r.get(4),
                reason: r.get(5),
                moves: uint(r.get(6)),
                time: control(r.get(7), r.get(8)).map(|time| time.to_string()),
                created_at: uint(r.get(9)),
            })
            .collect();
        Ok((games, uint(total)))
    }

    fn version(&self, id: &GameId) -> Result<Option<u64>, StoreError> {
        let version = self.run(async |pool| {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT version FROM games WHERE id = $1", &[&id.as_str()])
                .await?;
            Ok(row.map(|row| row.get::<_, i64>(0)))
        })?;
        Ok(version.map(uint))
    }

    fn shared(&self) -> bool {
        true
    }
}
