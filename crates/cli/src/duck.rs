//! `arbiter duck`.

use crate::input::{CliError, FileArg};

/// Arguments of `arbiter duck`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: FileArg,
}

/// Runs `arbiter duck`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::Message("arbiter duck: not available yet".into()))
}
