//! The [`Store`] in PostgreSQL, for several servers sharing one database: its schema brought up to
//! date at every start by the migrations in `crates/live/migrations/postgres/` (one server at a
//! time, under an advisory lock), each change committed only over the version it was made from
//! (else [`StoreError::Stale`]), and announced in the same transaction by
//! `NOTIFY game_changed, 'ID:VERSION'`, which a [`Listener`] hears in every server.
//!
//! The client is the synchronous `postgres` crate, which runs a small runtime of its own: call
//! the store from a thread of its own (a blocking task), never from an async one.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{Client, Config, IsolationLevel, NoTls};

use crate::clock::TimeControl;
use crate::game::{End, LiveGame, Played};
use crate::seat::{GameId, Token};
use crate::store::{Filter, Page, Store, StoreError, Summary, int, seat, seat_name, uint};

/// The channel on which every committed change is announced, as `ID:VERSION`.
pub const CHANNEL: &str = "game_changed";

/// The schema's migrations, oldest first: the same schema as SQLite's, in PostgreSQL's types.
const MIGRATIONS: [&str; 3] = [
    include_str!("../migrations/postgres/01-games/up.sql"),
    include_str!("../migrations/postgres/02-clocks/up.sql"),
    include_str!("../migrations/postgres/03-accounts/up.sql"),
];

/// The advisory lock held while the schema is migrated, so that servers starting at once take
/// turns ("arbiter" in ASCII).
const MIGRATION_LOCK: i64 = 0x0061_7262_6974_6572;

/// How long a connection may take unless the URL says (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The games in one PostgreSQL database.
pub struct PostgresStore {
    config: Config,
    client: Client,
}

/// The connection settings in `url` (`postgres://` or `postgresql://`; a host that is a path is
/// a Unix socket's directory). The error never repeats the address, which may hold a password.
pub fn config(url: &str) -> Result<Config, StoreError> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(StoreError::Address("it must begin with postgres:// or postgresql://".into()));
    }
    let mut config =
        Config::from_str(url).map_err(|error| StoreError::Address(error.to_string()))?;
    // An unreachable server fails a start, or a reconnection, rather than hanging it.
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    Ok(config)
}

/// Brings the schema up to date: each migration not yet recorded runs, all in one transaction
/// under the advisory lock.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut transaction = client.transaction()?;
    transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    transaction.batch_execute(
        "CREATE TABLE IF NOT EXISTS arbiter_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )?;
    let done: i32 = transaction
        .query_one("SELECT COALESCE(MAX(version), 0) FROM arbiter_migrations", &[])?
        .get(0);
    for (index, migration) in MIGRATIONS.iter().enumerate() {
        let version = i32::try_from(index + 1).unwrap_or(i32::MAX);
        if version > done {
            transaction.batch_execute(migration)?;
            transaction
                .execute("INSERT INTO arbiter_migrations (version) VALUES ($1)", &[&version])?;
        }
    }
    transaction.commit()?;
    Ok(())
}

impl PostgresStore {
    /// The store in the database at `url`, its schema brought up to date.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config = config(url)?;
        let mut client = config.connect(NoTls)?;
        migrate(&mut client)?;
        Ok(PostgresStore { config, client })
    }

    /// The client, connected again if the connection was lost (the server restarted, say).
    pub(crate) fn client(&mut self) -> Result<&mut Client, StoreError> {
        if self.client.is_closed() {
            self.client = self.config.connect(NoTls)?;
        }
        Ok(&mut self.client)
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
    fn save(&mut self, game: &LiveGame) -> Result<(), StoreError> {
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
        let mut transaction = self.client()?.transaction()?;
        let written = transaction.execute(
            "INSERT INTO games (id, red_token, blue_token, red_name, blue_name, initial_ms,
                 increment_ms, status, winner, reason, draw_offer, takeback, plies, version,
                 created_at, updated_at, red_ms, blue_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18)
             ON CONFLICT (id) DO UPDATE SET red_name = $4, blue_name = $5, status = $8,
                 winner = $9, reason = $10, draw_offer = $11, takeback = $12, plies = $13,
                 version = $14, updated_at = $16, red_ms = $17, blue_ms = $18
             WHERE games.version = $14 - 1",
            &values,
        )?;
        if written == 0 {
            // Dropped, the transaction rolls back.
            return Err(StoreError::Stale(key.to_owned()));
        }
        transaction
            .execute("DELETE FROM moves WHERE game_id = $1 AND ply >= $2", &[&key, &plies])?;
        let stored: i64 =
            transaction.query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&key])?.get(0);
        let insert = transaction.prepare(
            "INSERT INTO moves (game_id, ply, command, took_ms, played_at, red_ms, blue_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )?;
        for (ply, played) in game.moves.iter().enumerate().skip(uint(stored) as usize) {
            transaction.execute(
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
            )?;
        }
        crate::accounts::postgres::saved(&mut transaction, game)?;
        // Delivered to every listening server once, and only if, the transaction commits.
        let change = format!("{key}:{}", game.version);
        transaction.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &change])?;
        transaction.commit()?;
        Ok(())
    }

    fn load(&mut self, id: &GameId, _now: u64) -> Result<Option<LiveGame>, StoreError> {
        let key = id.as_str();
        // One snapshot for the row and its moves: a change committed between the two reads
        // must not mix two versions.
        let mut transaction = self
            .client()?
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let Some(row) = transaction.query_opt(
            "SELECT red_token, blue_token, red_name, blue_name, initial_ms, increment_ms,
                    winner, reason, draw_offer, takeback, version, created_at, red_ms, blue_ms,
                    updated_at
             FROM games WHERE id = $1",
            &[&key],
        )?
        else {
            return Ok(None);
        };
        let moves = transaction
            .query(
                "SELECT command, took_ms, played_at, red_ms, blue_ms FROM moves
                 WHERE game_id = $1 ORDER BY ply",
                &[&key],
            )?
            .iter()
            .map(|r| Played {
                command: r.get(0),
                took_ms: uint(r.get(1)),
                at: uint(r.get(2)),
                clocks: pair(r.get(3), r.get(4)),
            })
            .collect();
        transaction.commit()?;
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
        let mut game = LiveGame::restore(
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
        game.pairing = crate::accounts::postgres::pairing(self.client()?, id)?;
        Ok(Some(game))
    }

    fn list(&mut self, filter: &Filter, page: Page) -> Result<(Vec<Summary>, u64), StoreError> {
        let status = filter.status.as_deref().filter(|s| matches!(*s, "ongoing" | "over"));
        // LIKE's own wildcards in a name are matched as themselves.
        let player = filter.player.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(|p| {
            let escaped = p.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            format!("%{escaped}%")
        });
        let condition = "($1::TEXT IS NULL OR status = $1)
                         AND ($2::TEXT IS NULL OR red_name ILIKE $2 ESCAPE '\\'
                              OR blue_name ILIKE $2 ESCAPE '\\')";
        let client = self.client()?;
        let total: i64 = client
            .query_one(
                &format!("SELECT COUNT(*) FROM games WHERE {condition}"),
                &[&status, &player],
            )?
            .get(0);
        let rows = client.query(
            &format!(
                "SELECT id, red_name, blue_name, status, winner, reason, plies, initial_ms,
                        increment_ms, created_at
                 FROM games WHERE {condition}
                 ORDER BY created_at DESC, id COLLATE \"C\" LIMIT $3 OFFSET $4"
            ),
            &[&status, &player, &int(page.limit), &int(page.offset)],
        )?;
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

    fn version(&mut self, id: &GameId) -> Result<Option<u64>, StoreError> {
        let row =
            self.client()?.query_opt("SELECT version FROM games WHERE id = $1", &[&id.as_str()])?;
        Ok(row.map(|row| uint(row.get(0))))
    }

    fn shared(&self) -> bool {
        true
    }
}

/// What a [`Listener`] heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The game was committed at this version by some server.
    Game(GameId, u64),
    /// The connection was lost and made again: changes in between may have gone unheard.
    Missed,
}

/// How often the listening thread looks whether it is to stop.
const POLL: Duration = Duration::from_millis(250);

/// How long the listening thread waits before connecting again after losing its connection.
const RECONNECT: Duration = Duration::from_secs(1);

/// A thread that listens to every committed change of the database's games, until dropped.
pub struct Listener {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Listens on the database at `url` and calls `heard` with each change, on a thread of its
    /// own. Fails if the first connection does.
    pub fn start(
        url: &str,
        mut heard: impl FnMut(Change) + Send + 'static,
    ) -> Result<Listener, StoreError> {
        let config = config(url)?;
        let mut client = listening(&config)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new().name("game_changed".into()).spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match hear(&mut client, &mut heard) {
                    Ok(()) => {}
                    Err(_) => loop {
                        std::thread::sleep(RECONNECT);
                        if stopped.load(Ordering::Relaxed) {
                            return;
                        }
                        if let Ok(again) = listening(&config) {
                            client = again;
                            heard(Change::Missed);
                            break;
                        }
                    },
                }
            }
        })?;
        Ok(Listener { stop, thread: Some(thread) })
    }
}

/// A connection listening on [`CHANNEL`].
fn listening(config: &Config) -> Result<Client, StoreError> {
    let mut client = config.connect(NoTls)?;
    client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
    Ok(client)
}

/// Hands `heard` the changes that arrive within [`POLL`].
fn hear(client: &mut Client, heard: &mut impl FnMut(Change)) -> Result<(), postgres::Error> {
    {
        let mut notifications = client.notifications();
        let mut arrived = notifications.timeout_iter(POLL);
        while let Some(notification) = arrived.next()? {
            let parsed = notification.payload().split_once(':').and_then(|(id, version)| {
                Some(Change::Game(GameId::parse(id)?, version.parse().ok()?))
            });
            if let Some(change) = parsed {
                heard(change);
            }
        }
    }
    // A connection that died quietly ends the iteration without an error.
    if client.is_closed() {
        client.batch_execute("")?;
    }
    Ok(())
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
