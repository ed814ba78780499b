//! How much the server takes and does per request, so that memory and time stay bounded whatever
//! a client sends. A request beyond a limit gets a 413 whose message names the limit.
//!
//! | limit | value | why |
//! | --- | --- | --- |
//! | request body | 1 MiB | the official data files are at most 210 kB |
//! | request headers | 5 s | to send them, or the next request's on a kept-alive connection; then the connection is closed |
//! | request body | 10 s | to send it all; then a 408 with `Connection: close` |
//! | requests in progress | 64 | a request takes its place once its body is read whole, so slow senders hold none |
//! | request bodies in progress | 8 MiB in all | what a request holds grows with its body: at most 8 bodies of 1 MiB are parsed and answered at once, the others wait |
//! | connections per client address | 32 | a connection beyond them is closed at once |
//! | connections | 1,024 | a connection beyond them is closed at once |
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

/// Connections open at once from one client address.
pub const CONNECTIONS_PER_ADDRESS: usize = 32;

/// Connections open at once.
pub const CONNECTIONS: usize = 1024;

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
