//! `arbiter chess`.

use crate::input::{CliError, FileArg};

/// Arguments of `arbiter chess`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: FileArg,
}

/// Runs `arbiter chess`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::Message("arbiter chess: not available yet".into()))
}
