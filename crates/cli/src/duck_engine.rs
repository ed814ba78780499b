//! `arbiter duck uci`: the Duck Chess engine over the Universal Chess Interface.

use std::io;

use arbiter_duck_engine::uci::{self, Player};

use crate::input::CliError;

/// Arguments of `arbiter duck uci`.
#[derive(Debug, clap::Args)]
pub struct UciArgs {
    /// Play uniformly random valid moves instead of searching (the weakest opponent, for
    /// measuring strength).
    #[arg(long)]
    random: bool,
    /// The seed of `--random`'s choices.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "random")]
    seed: u64,
}

/// Speaks UCI on standard input and output until `quit` or the end of the input.
pub fn uci(args: UciArgs) -> Result<(), CliError> {
    let player = if args.random { Player::Random { seed: args.seed } } else { Player::Engine };
    uci::run(io::stdin().lock(), io::stdout(), player)
        .map_err(|error| CliError::Message(format!("<stdin>: cannot read the commands: {error}")))
}
