//! `arbiter serve backup`: a consistent copy of a server's SQLite store, taken while it runs.

use std::path::PathBuf;

use arbiter_live::sqlite::backup;

use crate::input::CliError;

/// What `arbiter serve` does besides serving.
#[derive(Debug, clap::Subcommand)]
pub enum Task {
    /// Write a consistent copy of the live games' store to OUT, while the server runs.
    ///
    /// The copy is the SQLite store as of one commit (every move acknowledged before the backup
    /// began is in it), checked, written under a temporary name and renamed, so OUT is never
    /// half-written. The server need not stop. To restore: stop the server, copy OUT to
    /// DIR/arbiter.sqlite3 (removing DIR/arbiter.sqlite3-wal and -shm), start it (docs/deploy.md).
    Backup(Args),
}

/// Arguments of `arbiter serve backup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's data directory (as given to `arbiter serve --data-dir`; the same default).
    #[arg(long = "data-dir", value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The file to write: one SQLite database, replaced whole if it exists.
    #[arg(value_name = "OUT")]
    out: PathBuf,
}

/// Runs a task of `arbiter serve`.
pub fn run(task: Task) -> Result<(), CliError> {
    match task {
        Task::Backup(args) => {
            let dir = args.data_dir.unwrap_or_else(crate::serve::default_data_dir);
            let copied = backup::backup(&dir, &args.out)
                .map_err(|error| CliError::Message(format!("arbiter serve backup: {error}")))?;
            println!(
                "arbiter serve backup: {} games, {} moves, {} bytes written to {}",
                copied.games,
                copied.moves,
                copied.bytes,
                args.out.display()
            );
            Ok(())
        }
    }
}
