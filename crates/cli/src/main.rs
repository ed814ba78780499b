//! `arbiter`: the official judges of Duck Chess, chess records and the skill arena, and the tools
//! around them. This crate only wires arguments to the rule crates and prints what they return.

mod arena;
mod background;
mod chess;
mod contest;
mod duck;
mod duck_engine;
mod duck_match;
mod duck_train;
mod input;
mod output;
mod package;
mod records;
mod serve;
mod serve_backup;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::input::CliError;

/// Referee and engine for grid board games.
///
/// The bare forms `arbiter duck`, `arbiter chess` and `arbiter arena` are drop-in replacements
/// for the official contest judges: same input, byte-identical output.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Duck Chess (鸭棋, THUPC 2019): replay move commands and judge each one.
    Duck(duck::Args),
    /// Chess game records: check that a record is legal and correctly written.
    Chess(chess::Args),
    /// The skill arena (组合数问题, THUPC 2018): simulate the games and print the final positions.
    Arena(arena::Args),
    /// The local web app: Duck Chess board, arena viewer, record checker (http://127.0.0.1:8080/).
    Serve(serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Duck(args) => duck::run(args),
        Command::Chess(args) => chess::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(CliError::Findings) => ExitCode::from(1),
        Err(CliError::Rejected) => ExitCode::from(3),
        Err(error @ CliError::Interrupted(_)) => {
            output::write_line(&error);
            ExitCode::from(130)
        }
        Err(error) => {
            output::write_line(&error);
            ExitCode::from(2)
        }
    }
}
