//! `arbiter serve`: the local web app.

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Stdio};

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
    /// Address to listen on. The default serves this machine only; the app has no accounts or
    /// access control, so listen on other addresses only on networks you trust.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Also answer to requests whose Host header gives NAME (a host name or an IP address, on
    /// the port served), for example the machine's name on a trusted network. Repeatable.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Open the app in the default browser once it listens.
    #[arg(long)]
    open: bool,
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
    arbiter_web::run(&args.host, args.port, &args.allow_host, listening).map_err(|error| {
        CliError::Message(format!(
            "arbiter serve: cannot serve on {}:{}: {error}",
            args.host, args.port
        ))
    })
}
