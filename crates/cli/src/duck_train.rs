//! `arbiter duck selfplay`: training positions from the engine's games against itself.

use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use arbiter_duck::Color;
use arbiter_duck_train::record::DataFile;
use arbiter_duck_train::selfplay::{self, Settings};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::CliError;

/// Arguments of `arbiter duck selfplay`.
#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    /// The data file: created, or continued from its last complete game when it exists.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The number of games the file holds at the end, those already in it included.
    #[arg(long)]
    games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// The first game's seed; game G is played from seed + G.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies at the start of each game, for varied openings.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
}

/// Plays the games the file lacks and appends their positions, one game at a time.
pub fn selfplay(args: SelfplayArgs) -> Result<(), CliError> {
    let settings = Settings { seed: args.seed, nodes: args.nodes, random_plies: args.random_plies };
    let name = args.out.display().to_string();
    let failed = |error: io::Error| CliError::Message(format!("{name}: {error}"));
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&args.out)
        .map_err(failed)?;
    let (first, mut positions) =
        continue_file(&mut file, &settings, &name).map_err(|error| match error {
            Continue::Io(error) => failed(error),
            Continue::Other(message) => CliError::Message(message),
        })?;
    let first = first.min(args.games);
    if first > 0 {
        eprintln!("{name}: {positions} positions from games before {first}, continuing");
    }
    let total = u64::from(args.games - first);
    let progress = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games {elapsed} (ETA {eta}) {msg} positions",
        )
        .map_err(|error| CliError::Message(error.to_string()))?
        .progress_chars("=> ");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let mut tally = [0u64; 3];
    let mut new_positions = 0u64;
    let stop = AtomicBool::new(false);
    let threads = usize::from(args.threads);
    let mut bytes = Vec::new();
    selfplay::play_games(&settings, first, args.games, threads, &stop, |game| {
        // One write per game: a run stopped in the middle of one leaves a partial game, which
        // the next run drops.
        bytes.clear();
        for record in &game.records {
            bytes.extend_from_slice(&record.encode());
        }
        file.write_all(&bytes)?;
        tally[match game.winner {
            Some(Color::Red) => 0,
            None => 1,
            Some(Color::Blue) => 2,
        }] += 1;
        new_positions += game.records.len() as u64;
        positions += game.records.len() as u64;
        progress.inc(1);
        progress.set_message(positions.to_string());
        Ok(())
    })
    .map_err(failed)?;
    file.sync_all().map_err(failed)?;
    progress.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{name}: {total} games ({} red won, {} drawn, {} blue won), {new_positions} positions \
         in {seconds:.1} s ({:.0} positions/s); {positions} positions in all",
        tally[0],
        tally[1],
        tally[2],
        new_positions as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// Why a data file cannot be continued.
enum Continue {
    Io(io::Error),
    Other(String),
}

impl From<io::Error> for Continue {
    fn from(error: io::Error) -> Continue {
        Continue::Io(error)
    }
}

/// Readies `file` for appending the games of `settings`: writes the header into an empty file,
/// or checks an existing file's header and cuts it after its last complete game. Returns the
/// next game's number and the positions already in the file.
fn continue_file(file: &mut File, settings: &Settings, name: &str) -> Result<(u32, u64), Continue> {
    let header = settings.header();
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    if bytes.is_empty() {
        file.write_all(&header.encode())?;
        return Ok((0, 0));
    }
    let data =
        DataFile::read(&bytes).map_err(|error| Continue::Other(format!("{name}: {error}")))?;
    if data.header != header {
        return Err(Continue::Other(format!(
            "{name}: made with other settings (seed {}, {} nodes, {} random plies, arbiter {}); \
             continue it with the same ones, or write to another file",
            data.header.seed, data.header.nodes, data.header.random_plies, data.header.generator
        )));
    }
    file.set_len(data.complete_len as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok((data.next_game, data.records.len() as u64))
}
