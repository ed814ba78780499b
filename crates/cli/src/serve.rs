//! `arbiter serve`: the local web app.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use arbiter_web::proxy::{self, IpNet};
use arbiter_web::{Config, Limits, PublicUrl, Storage, limits};

use crate::input::CliError;

/// What the server promises whatever its clients do, for `arbiter serve --help`.
const PROMISES: &str = "\
Limits (crates/web/src/limits.rs):
  A client has 5 s to send a request's headers (or, on a connection kept alive, the next
  request's) and 10 s to send its body (1 MiB at most); then its connection is closed. At most 64
  requests are handled at once, each taking its place only once its body has arrived. A client
  (an IP address, or an IPv6 /64 network; behind --trusted-proxy, the client the proxy forwards)
  may hold --max-connections-per-client connections, WebSockets included, and the server
  --max-connections in all (never more than the open-files limit leaves room for: the soft limit
  is raised to the hard one at start). A connection beyond them is answered 429 or 503 with the
  limit's name, and closed. A WebSocket has 10 s to read what it is sent and may send 32
  messages at once, then 4 a second; beyond that it is cut off.

Cross-site rules:
  Every request must name the server in its Host header: localhost, 127.0.0.1 or [::1], the
  --host address, or a name given with --allow-host, each with the port served (else 403). An
  API request that carries an Origin header must come from the server's own pages (else 403), and
  API bodies must be sent as Content-Type: application/json (else 415), so that pages of other
  sites cannot drive the server through a visitor's browser.

Live games (Play a friend, /duck/games):
  Every game is kept in DIR/arbiter.sqlite3 (--data-dir), or in the PostgreSQL database given by
  --database, each move committed before it is answered. A client may create
  --max-games-per-client games at once, then one every --new-game-every seconds, send 10 game
  actions a second (20 at once), hold --max-sockets-per-client WebSockets open and open 20 at
  once, then one a second; beyond that it gets 429 naming the limit. Time while
  the server is down is not charged: after a restart the side to move has the time it had when
  the last move was committed. With --database, several servers may share one database, and a
  turn's time runs from when it began, whichever server saw it begin.

Behind a reverse proxy (nginx, Caddy: see docs/deploy.md):
  --trusted-proxy CIDR names the proxy's addresses: for connections from them the client is read
  from Forwarded or X-Forwarded-For (and the scheme from X-Forwarded-Proto), for every limit and
  log line; the same headers from any other peer are ignored. --public-url https://NAME is the
  site's address from outside: its name is accepted in Host and its origin in Origin.

Operators:
  GET /healthz answers while the process runs, GET /readyz once the store answers too (else 503),
  GET /metrics gives Prometheus metrics (connections, sockets and games open, moves, refusals by
  limit, request and commit latency, engine searches). They are served to loopback and
  --trusted-proxy addresses only, unless --metrics-public. Logs go to standard error, one line per
  event, as text or --log-format json; ARBITER_LOG sets the level (info; debug logs each request).

Shutdown:
  Ctrl-C (SIGINT) or SIGTERM stops the engine searches, finishes the requests under way and
  exits within 2 s; a second Ctrl-C exits at once.";

/// Arguments of `arbiter serve`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = PROMISES, args_conflicts_with_subcommands = true)]
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
    /// Trust the reverse proxy at these addresses (an address, or a network such as
    /// 10.0.0.0/8) to say who its clients are, in Forwarded or X-Forwarded-For. Repeatable.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_parser = proxy::network)]
    trusted_proxy: Vec<IpNet>,
    /// The site's address from outside, through its proxy (https://NAME, with :PORT if not
    /// the scheme's own): accepted in Host and Origin, and printed.
    #[arg(long = "public-url", value_name = "URL")]
    public_url: Option<PublicUrl>,
    /// Connections open at once, WebSockets included.
    #[arg(long = "max-connections", value_name = "N", default_value_t = limits::CONNECTIONS,
        value_parser = clap::value_parser!(usize))]
    max_connections: usize,
    /// Connections one client may hold open, WebSockets included.
    #[arg(long = "max-connections-per-client", value_name = "N",
        default_value_t = limits::CONNECTIONS_PER_ADDRESS)]
    max_connections_per_client: usize,
    /// WebSockets (live pages) one client may hold open.
    #[arg(long = "max-sockets-per-client", value_name = "N",
        default_value_t = limits::SOCKETS_PER_CLIENT)]
    max_sockets_per_client: usize,
    /// Live games one client may create at once, before it must wait for --new-game-every.
    #[arg(long = "max-games-per-client", value_name = "N", default_value_t = limits::GAMES_AT_ONCE)]
    max_games_per_client: u32,
    /// Seconds after which a client may create one more game.
    #[arg(long = "new-game-every", value_name = "SECONDS",
        default_value_t = limits::NEW_GAME_EVERY.as_secs())]
    new_game_every: u64,
    /// Serve /healthz, /readyz and /metrics to every client, not only to loopback and the
    /// trusted proxies.
    #[arg(long = "metrics-public")]
    metrics_public: bool,
    /// How log lines (on standard error) are written.
    #[arg(long = "log-format", value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    #[command(subcommand)]
    task: Option<crate::serve_backup::Task>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    /// For people: time, level, message, fields.
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

/// Sends the server's log lines to standard error in `format`, at the level `ARBITER_LOG` gives
/// (`info` by default, the store's migrations `warn`).
fn log_to_stderr(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    // The schema's migrations are the store's business: a line only when one fails.
    let filter = EnvFilter::try_from_env("ARBITER_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,rusqlite_migration=warn"));
    // Colours only for a terminal: a file or a journal gets the plain text.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour);
    // Another subscriber already set (a test harness) keeps the lines.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

impl Args {
    /// The server's configuration from the flags.
    fn config(&self) -> Result<Config, CliError> {
        let usage = |message: &str| CliError::Message(format!("arbiter serve: {message}"));
        let at_least_one = [
            ("--max-connections", self.max_connections),
            ("--max-connections-per-client", self.max_connections_per_client),
            ("--max-sockets-per-client", self.max_sockets_per_client),
            ("--max-games-per-client", self.max_games_per_client as usize),
            ("--new-game-every", usize::try_from(self.new_game_every).unwrap_or(usize::MAX)),
        ];
        if let Some((flag, _)) = at_least_one.iter().find(|(_, value)| *value == 0) {
            return Err(usage(&format!("{flag} must be at least 1")));
        }
        let mut config = Config {
            limits: Limits {
                connections: self.max_connections,
                connections_per_client: self.max_connections_per_client,
                sockets_per_client: self.max_sockets_per_client,
                games_at_once: self.max_games_per_client,
                new_game_every: Duration::from_secs(self.new_game_every),
            },
            proxies: self.trusted_proxy.iter().copied().collect(),
            public_url: self.public_url.clone(),
            metrics_public: self.metrics_public,
            ..Config::default()
        };
        for name in &self.allow_host {
            config.hosts.allow(name);
        }
        Ok(config)
    }
}

/// The default data directory: `$XDG_DATA_HOME/arbiter`, else `~/.local/share/arbiter`, else
/// `./arbiter-data`.
pub(crate) fn default_data_dir() -> PathBuf {
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
pub fn run(mut args: Args) -> Result<(), CliError> {
    if let Some(task) = args.task.take() {
        return crate::serve_backup::run(task);
    }
    let config = args.config()?;
    log_to_stderr(args.log_format);
    let public = args.public_url.clone();
    let listening = |addr: SocketAddr| {
        let url = url(addr);
        // The URL is the first line on standard output, for people and for scripts that start
        // the server on port 0.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "arbiter serve: listening on {url} (Ctrl-C stops)");
        if let Some(public) = &public {
            let _ = writeln!(stdout, "arbiter serve: public at {public}");
        }
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
    let served = arbiter_web::run_config(&args.host, args.port, config, &storage, listening);
    served.map_err(|error| {
        CliError::Message(format!(
            "arbiter serve: cannot serve on {}:{}: {error}",
            args.host, args.port
        ))
    })
}
