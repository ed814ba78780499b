//! `live-load`: the live games' load test (see the library's documentation). Prints the table of
//! figures; exits with 1 when a game failed or the database does not hold exactly the moves
//! acknowledged, 2 when the load could not run.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use arbiter_live_load::server::{self, Started};
use arbiter_live_load::{LoadError, Options, Target};
use clap::Parser;

/// Many live games at once against `arbiter serve`, each of two WebSocket clients playing random
/// valid moves; then the server's database is checked against every move acknowledged.
#[derive(Debug, Parser)]
#[command(name = "live-load")]
struct Args {
    /// Games played at once.
    #[arg(long, default_value_t = 1_000)]
    games: usize,
    /// Plies after which a game is left if it has not ended.
    #[arg(long, default_value_t = 100)]
    moves: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games set up at once.
    #[arg(long, default_value_t = 32)]
    setting_up: usize,
    /// Milliseconds each player waits before each move on average, as if thinking (each pause
    /// drawn between half and one and a half times it); 0 sends each move as soon as the
    /// opponent's is shown, which keeps the server saturated.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    think: u64,
    /// Spectators watching each game, each on a WebSocket of its own.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// The arbiter binary to start as `serve --port 0 --data-dir DIR`.
    #[arg(long, default_value = "target/release/arbiter", conflicts_with = "addr")]
    server: PathBuf,
    /// Load a server already running at this address (IPv4 loopback, e.g. 127.0.0.1:8080)
    /// instead of starting one; needs --data-dir, its data directory.
    #[arg(long, requires = "data_dir")]
    addr: Option<SocketAddr>,
    /// The running server's process id, to read its memory.
    #[arg(long, requires = "addr")]
    pid: Option<u32>,
    /// The server's data directory: with --addr, the running server's; else where the server
    /// started is to keep its games (by default a fresh temporary directory, removed after).
    #[arg(long = "data-dir", value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("live-load: {error}");
            ExitCode::from(2)
        }
    }
}

/// Raises this process's soft limit on open files to the hard one: each socket is a file.
fn raise_file_limit() {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` and `setrlimit` read and write the struct given, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

fn run(args: &Args) -> Result<bool, LoadError> {
    let options = Options {
        games: args.games,
        moves: args.moves,
        seed: args.seed,
        setting_up: args.setting_up,
        think: Duration::from_millis(args.think),
        spectators: args.spectators,
    };
    raise_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let report = match (&args.addr, &args.data_dir) {
        (Some(addr), Some(dir)) => {
            let target = Target { addr: *addr, data_dir: dir.clone(), pid: args.pid };
            runtime.block_on(arbiter_live_load::run(&options, &target))?
        }
        _ => {
            let (dir, temporary) = match &args.data_dir {
                Some(dir) => (dir.clone(), false),
                None => (server::fresh_dir()?, true),
            };
            // Every socket within the 7/8 of the connections sockets may take, each game's HTTP
            // connection, and room to spare.
            let sockets = args.games * (2 + args.spectators);
            let connections = sockets.div_ceil(7) * 8 + args.games + 256;
            let started = Started::start(&args.server, &dir, connections)?;
            let target =
                Target { addr: started.addr, data_dir: dir.clone(), pid: Some(started.pid()) };
            let report = runtime.block_on(arbiter_live_load::run(&options, &target));
            drop(started);
            if temporary {
                let _ = std::fs::remove_dir_all(&dir);
            }
            report?
        }
    };
    println!("{report}");
    Ok(report.passed())
}
