//! `arbiter serve`: the local web app.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use arbiter_web::Storage;

use crate::input::CliError;

/// What the server promises whatever its clients do, for `arbiter serve --help`.
const PROMISES: &str = "\
Limits (crates/web/src/limits.rs):
  A client has 5 s to send a request's headers (or, on a connection kept alive, the next
  request's) and 10 s to send its body (1 MiB at most); then its connection is closed. A client
  address may hold 32 connections at once, 1,024 in all; more are closed at once. At most 64
  requests are handled at once, each taking its place only once its body has arrived.

Cross-site rules:
  Every request must name the server in its Host header: localhost, 127.0.0.1 or [::1], the
  --host address, or a name given with --allow-host, each with the port served (else 403). An
  API request that carries an Origin header must come from the server's own pages (else 403), and
  API bodies must be sent as Content-Type: application/json (else 415), so that pages of other
  sites cannot drive the server through a visitor's browser.

Live games (Play a friend, /duck/games):
  Every game is kept in DIR/arbiter.sqlite3 (--data-dir), or in the PostgreSQL database given by
  --database, each move committed before it is answered. A client address may create 20 games at once, then one every 30 s, send 10 game
  actions a second (20 at once) and hold 16 WebSockets open; beyond that it gets 429. Time while
  the server is down is not charged: after a restart the side to move has the time it had when
  the last move was committed. With --database, several servers may share one database, and a
  turn's time runs from when it began, whichever server saw it begin.

Shutdown:
  Ctrl-C (SIGINT) or SIGTERM stops the engine searches, finishes the requests under way and
  exits within 2 s; a second Ctrl-C exits at once.";

/// Arguments of `arbiter serve`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = PROMISES)]
pub struct Args {
    /// Port to listen on; 0 lets the system choose a free one (the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default serves this machine only. The app has no accounts:
    /// anyone who can reach the address can use the engine, create live games and watch them
    /// (a seat is held by its secret link, nothing more), so listen on other addresses (0.0.0.0
    /// opens it to the whole network) only on networks you trust.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Also answer to requests whose Host header gives NAME (a host name or an IP address, on
    /// the port served), for example the machine's name on a trusted network. Repeatable.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Open the app in the default browser once it listens.
    #[arg(long)]
    open: bool,
    /// Where the live games are kept (created on first start): by default
    /// $XDG_DATA_HOME/arbiter, else ~/.local/share/arbiter, else ./arbiter-data.
    #[arg(long = "data-dir", value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Keep the live games in a PostgreSQL database instead of the data directory:
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (a HOST that is a path, or
    /// ?host=/PATH, names a Unix socket's directory). Several servers may share it; each sends
    /// its pages the changes the others commit.
    #[arg(long, value_name = "URL", conflicts_with = "data_dir")]
    database: Option<String>,
    /// Game analyses run at once, each searching on a thread of its own; more wait in the
    /// store's queue (0: this server runs none, another sharing the database may).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=64))]
    analysis_workers: u16,
    /// A directory of official command lists (self-play games, a match's saves) for the opening
    /// explorer to read at start, beside the live games as they end. Repeatable.
    #[arg(long, value_name = "DIR")]
    explorer_games: Vec<PathBuf>,
}

/// The default data directory: `$XDG_DATA_HOME/arbiter`, else `~/.local/share/arbiter`, else
/// `./arbiter-data`.
fn default_data_dir() -> PathBuf {
    let from = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(data) = from("XDG_DATA_HOME") {
        return PathBuf::from(data).join("arbiter");
    }
    match from("HOME") {
        Some(home) => PathBuf::from(home).join(".local/share/arbiter"),
        None => PathBuf::from("arbiter-data"),
    }
}

/// The URL of the app listening on `addr`.
fn url(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(v4) => format!("http://{v4}/"),
        SocketAddr::V6(v6) => format!("http://[{}]:{}/", v6.ip(), v6.port()),
    }
}

/// Hands `url` to the desktop's opener; a failure is only reported, the server goes on.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let spawned = Command::new(opener).arg(url).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    if let Err(error) = spawned {
        eprintln!("arbiter serve: cannot open a browser with {opener}: {error}");
    }
}

/// Runs `arbiter serve` until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> Result<(), CliError> {
    let listening = |addr: SocketAddr| {
        let url = url(addr);
        // The URL is the first line on standard output, for people and for scripts that start
        // the server on port 0.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "arbiter serve: listening on {url} (Ctrl-C stops)");
        let _ = stdout.flush();
        if args.open {
            open_browser(&url);
        }
    };
    let storage = match &args.database {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Storage::Postgres(url.clone())
        }
        Some(_) => {
            return Err(CliError::Message(
                "arbiter serve: --database takes a postgres:// or postgresql:// URL".into(),
            ));
        }
        None => Storage::Directory(args.data_dir.clone().unwrap_or_else(default_data_dir)),
    };
    arbiter_web::configure_learning(arbiter_web::LearnSettings {
        workers: usize::from(args.analysis_workers),
        explorer_games: args.explorer_games.clone(),
    });
    let served =
        arbiter_web::run_games(&args.host, args.port, &args.allow_host, &storage, listening);
    served.map_err(|error| {
        CliError::Message(format!(
            "arbiter serve: cannot serve on {}:{}: {error}",
            args.host, args.port
        ))
    })
}
