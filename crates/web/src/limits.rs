//! How much the server takes and does per request, so that memory and time stay bounded whatever
//! a client sends. A request beyond a limit gets a 413 whose message names the limit.
//!
//! The limits on connections, WebSockets and games created are the operator's to set
//! ([`Limits`], `arbiter serve --max-connections` and the others); the table gives their
//! defaults, made for the app on one machine. A client is one IP address, or one /64 network for
//! IPv6 (a single subscriber is commonly given a whole /64), and behind a trusted reverse proxy
//! the address the proxy forwards (`crate::proxy`). A refusal names the limit hit ([`Limit`]).
//!
//! | limit | value | why |
//! | --- | --- | --- |
//! | request body | 1 MiB | the official data files are at most 210 kB |
//! | request headers | 5 s | to send them, or the next request's on a kept-alive connection; then the connection is closed |
//! | request body | 10 s | to send it all; then a 408 with `Connection: close` |
//! | requests in progress | 64 | a request takes its place once its body is read whole, so slow senders hold none |
//! | request bodies in progress | 8 MiB in all | what a request holds grows with its body: at most 8 bodies of 1 MiB are parsed and answered at once, the others wait |
//! | connections per client | 32 (`--max-connections-per-client`) | a connection beyond them gets a 429 and is closed; an open WebSocket counts as one |
//! | connections | 1,024 (`--max-connections`) | a connection beyond them gets a 503 and is closed; open WebSockets count; never more than the file descriptors allow |
//! | WebSockets per client | 16 (`--max-sockets-per-client`) | a 429 beyond them |
//! | WebSockets | 7/8 of the connections | a 429 beyond them: the rest is kept for pages and moves when watchers fill the server |
//! | WebSockets opened per client | 20 at once, then 1 a second | a 429 with `Retry-After` beyond them: a client churning sockets cannot make a game's watchers be told again and again |
//! | a WebSocket's buffers | 2 KiB read, 256 KiB of messages waiting to be sent | a socket whose client reads nothing is cut off once 256 KiB wait, or after 10 s waiting to send |
//! | messages a WebSocket may send | 32 at once, then 4 a second | pings included; beyond that it is cut off |
//! | games created per client | 20 at once, then one every 30 s (`--max-games-per-client`, `--new-game-every`) | a 429 beyond them |
//! | game actions per client | 20 at once, then 10 a second | a 429 beyond them |
//! | `Host` header | loopback names, `--host`, `--allow-host`, with the port | else a 403: a site that resolves to this machine (DNS rebinding) is not served |
//! | `Origin` of an API request | none, or this server's | else a 403: other sites' pages cannot use the API |
//! | API body type | `application/json` | else a 415: the types other sites' pages may send freely are refused |
//! | shutdown | 2 s | after Ctrl-C or SIGTERM: searches stopped, idle connections closed, the rest dropped |
//! | rule work at once | the number of cores | CPU-bound work runs off the async threads |
//! | Duck commands per game | 100,000 | a game's replay and its list of results |
//! | chess plies per record or game | 10,000 | one board per ply is sent back |
//! | PGN games per request | 10,000 | one verdict per game is sent back |
//! | arena rounds per trace reply | 50 | the page asks for the next rounds as it plays |
//! | arena events per trace reply | 50,000 | a round with many casts ends the reply early |
//! | cells of a 2dsaigao wave path sent | 512 | the blast is always sent; longer paths are cut |
//! | engine searches at once | the number of cores | a search keeps its core busy all its time |
//! | engine searches waiting | 8 | more get a 429 at once instead of waiting long |
//! | engine time per move | 10 s (1 s by default) | longer requests are refused with a 400 |
//! | engine depth | 64 plies | the engine's deepest iteration |
//! | engine hash | 16 MiB per engine, one engine per core | engines are kept and lent to one search at a time |

use std::time::Duration;

/// The largest request body read, in bytes (1 MiB).
pub const BODY: usize = 1 << 20;

/// Requests handled at once, once their bodies are read; the others wait.
pub const IN_FLIGHT: usize = 64;

/// The bytes of the bodies of the requests handled at once (8 MiB); the others wait. A request's
/// memory grows with its body, so this bounds the server's working memory: 64 games of 100,000
/// Duck commands (1 MiB of JSON each) sent at once took the server to 314 MiB, and take it to
/// 138 MiB with this bound (`tests/memory.rs`).
pub const BODIES_IN_FLIGHT: usize = 8 << 20;

/// The time a client has to send a request's headers, or the next request's on a connection
/// kept alive.
pub const HEADER_TIME: Duration = Duration::from_secs(5);

/// The time a client has to send a request's body.
pub const BODY_TIME: Duration = Duration::from_secs(10);

/// Connections open at once from one client, by default.
pub const CONNECTIONS_PER_ADDRESS: usize = 32;

/// Connections open at once, by default.
pub const CONNECTIONS: usize = 1024;

/// WebSockets one client may hold open, by default.
pub const SOCKETS_PER_CLIENT: usize = 16;

/// Games a client may create at once, by default, before it must wait for [`NEW_GAME_EVERY`].
pub const GAMES_AT_ONCE: u32 = 20;

/// The time after which a client may create one more game, by default.
pub const NEW_GAME_EVERY: Duration = Duration::from_secs(30);

/// WebSockets a client may open at once; then one more every [`SOCKET_OPEN_EVERY`].
pub const SOCKET_OPENS: u32 = 20;

/// The time after which a client may open one more WebSocket once it used [`SOCKET_OPENS`].
pub const SOCKET_OPEN_EVERY: Duration = Duration::from_secs(1);

/// Game actions (moves, offers, resignations) a client may send at once.
pub const ACTIONS_AT_ONCE: u32 = 20;

/// Game actions a client may send a second, once it used [`ACTIONS_AT_ONCE`].
pub const ACTIONS_PER_SECOND: u32 = 10;

/// A WebSocket's read buffer: the largest message a page sends is its hello (256 bytes). The
/// default (128 KiB, allocated for every socket) made 2,000 idle sockets cost 270 MB.
pub const SOCKET_READ_BUFFER: usize = 2 << 10;

/// The largest message or frame a WebSocket may send.
pub const SOCKET_MESSAGE: usize = 4 << 10;

/// The bytes that may wait to be sent on one WebSocket: more than the largest game view (a
/// 300-ply game with its clocks is about 40 KB). Without a bound, a client that sent pings
/// without reading the pongs grew the server by 400 MB a second.
pub const SOCKET_UNSENT: usize = 256 << 10;

/// The longest a WebSocket may leave a message (or a pong) unread before it is cut off.
pub const SOCKET_SEND_TIME: Duration = Duration::from_secs(10);

/// Messages (pings included) a WebSocket may send at once; then [`SOCKET_MESSAGES_PER_SECOND`].
pub const SOCKET_MESSAGES: u32 = 32;

/// Messages a WebSocket may send a second once it used [`SOCKET_MESSAGES`]; beyond that it is
/// cut off: a page sends one hello, and a flood of pings costs the server a pong each.
pub const SOCKET_MESSAGES_PER_SECOND: u32 = 4;

/// File descriptors kept free of connections: the listener, the store, the engine, logs.
pub const SPARE_FILES: usize = 64;

/// The limits an operator may set (`arbiter serve --max-connections` and the others); the
/// defaults are those of the app on one machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once, WebSockets included.
    pub connections: usize,
    /// Connections one client may hold open, WebSockets included.
    pub connections_per_client: usize,
    /// WebSockets one client may hold open.
    pub sockets_per_client: usize,
    /// Games a client may create at once.
    pub games_at_once: u32,
    /// The time after which a client may create one more game.
    pub new_game_every: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: CONNECTIONS,
            connections_per_client: CONNECTIONS_PER_ADDRESS,
            sockets_per_client: SOCKETS_PER_CLIENT,
            games_at_once: GAMES_AT_ONCE,
            new_game_every: NEW_GAME_EVERY,
        }
    }
}

/// A limit a client can hit: the refusal names it, and the metrics count refusals by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Limits::connections`].
    Connections,
    /// [`Limits::connections_per_client`].
    ConnectionsPerClient,
    /// [`Limits::sockets_per_client`].
    SocketsPerClient,
    /// WebSockets in all: 7/8 of [`Limits::connections`].
    Sockets,
    /// [`SOCKET_OPENS`].
    SocketOpens,
    /// [`Limits::games_at_once`].
    Games,
    /// [`ACTIONS_AT_ONCE`].
    Actions,
}

impl Limit {
    /// Every limit, for the metrics.
    pub const ALL: [Limit; 7] = [
        Limit::Connections,
        Limit::ConnectionsPerClient,
        Limit::SocketsPerClient,
        Limit::Sockets,
        Limit::SocketOpens,
        Limit::Games,
        Limit::Actions,
    ];

    /// Its name, as refusals and metrics give it: the flag that sets it, where there is one.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Connections => "max-connections",
            Limit::ConnectionsPerClient => "max-connections-per-client",
            Limit::SocketsPerClient => "max-sockets-per-client",
            Limit::Sockets => "sockets",
            Limit::SocketOpens => "socket-opens",
            Limit::Games => "max-games-per-client",
            Limit::Actions => "actions",
        }
    }

    /// What a refused client is told, with `limits` in force.
    pub fn message(self, limits: &Limits) -> String {
        match self {
            Limit::Connections => format!(
                "the server is full: it holds {} connections, the most it serves at once \
                 (--max-connections); try again shortly",
                limits.connections
            ),
            Limit::ConnectionsPerClient => format!(
                "this client holds {} connections, the most one client may \
                 (--max-connections-per-client)",
                limits.connections_per_client
            ),
            Limit::SocketsPerClient => format!(
                "this client holds {} open WebSockets, the most one client may \
                 (--max-sockets-per-client)",
                limits.sockets_per_client
            ),
            Limit::Sockets => format!(
                "the server holds {} open WebSockets, the most it keeps (7/8 of \
                 --max-connections, the rest kept for pages and moves); try again shortly",
                limits.connections - limits.connections / 8
            ),
            Limit::SocketOpens => format!(
                "this client opens WebSockets too fast: {SOCKET_OPENS} at once, then one every \
                 {} s (socket-opens)",
                SOCKET_OPEN_EVERY.as_secs()
            ),
            Limit::Games => format!(
                "this client created {} games lately, the most it may at once \
                 (--max-games-per-client); then one every {} s (--new-game-every)",
                limits.games_at_once,
                limits.new_game_every.as_secs()
            ),
            Limit::Actions => format!(
                "too many game actions from this client: {ACTIONS_AT_ONCE} at once, then \
                 {ACTIONS_PER_SECOND} a second (actions)"
            ),
        }
    }
}

/// The longest a shutdown waits for requests under way.
pub const SHUTDOWN: Duration = Duration::from_secs(2);

/// Commands in one Duck game.
pub const DUCK_COMMANDS: usize = 100_000;

/// Plies of one chess record or PGN game whose boards are sent.
pub const CHESS_PLIES: usize = 10_000;

/// Games of one PGN text.
pub const PGN_GAMES: usize = 10_000;

/// Rounds in one arena trace reply.
pub const ARENA_ROUNDS: u32 = 50;

/// Events in one arena trace reply (a reply always holds at least one whole round).
pub const ARENA_EVENTS: usize = 50_000;

/// Cells of a 2dsaigao wave path in a trace reply.
pub const WAVE_PATH: usize = 512;

/// Engine searches waiting for a core; a request beyond them gets a 429.
pub const SEARCH_QUEUE: usize = 8;

/// The longest time per move a search may be given, in milliseconds (the time cap).
pub const SEARCH_TIME: u64 = 10_000;

/// The time per move of a request that gives none, in milliseconds.
pub const SEARCH_TIME_DEFAULT: u64 = 1_000;

/// The deepest search a request may ask for, in plies.
pub const SEARCH_DEPTH: u32 = 64;

/// The transposition table of each engine (one per core), in MiB.
pub const SEARCH_HASH_MB: usize = 16;

/// Engine searches running at once: one per core.
pub fn search_slots() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}
