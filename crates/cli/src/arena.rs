//! `arbiter arena`.

use crate::input::{CliError, FileArg};

/// Arguments of `arbiter arena`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: FileArg,
}

/// Runs `arbiter arena`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::Message("arbiter arena: not available yet".into()))
}
