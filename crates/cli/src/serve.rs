//! `arbiter serve`: the local web app.

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Stdio};

use crate::input::CliError;

/// Arguments of `arbiter serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Port to listen on; 0 lets the system choose a free one (the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default serves this machine only; the app has no accounts or
    /// access control, so listen on other addresses only on networks you trust.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
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

/// Runs `arbiter serve` until Ctrl-C.
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
    arbiter_web::run(&args.host, args.port, listening).map_err(|error| {
        CliError::Message(format!(
            "arbiter serve: cannot serve on {}:{}: {error}",
            args.host, args.port
        ))
    })
}
