//! `arbiter duck selfplay` and `arbiter duck train`: training positions from the engine's games
//! against itself, and a network trained on them.

use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arbiter_duck::Color;
use arbiter_duck_engine::eval::Evaluation;
use arbiter_duck_engine::nnue::{self, Network, NetworkError};
use arbiter_duck_train::output::Output;
use arbiter_duck_train::record::{DataFile, ReadError};
use arbiter_duck_train::selfplay::{self, Settings};
use arbiter_duck_train::trainer::{self, Config, Split};
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
    /// The first game a new file holds: a chunk of a longer run, games N to --games, whose
    /// records put after those of the games before make the file one run writes (how
    /// `python -m arbiter.selfplay` spreads a run over machines).
    #[arg(long, value_name = "N", default_value_t = 0)]
    first_game: u32,
    /// Search the games with this network (a `.nnue` file, or `<embedded>` for the engine's
    /// own) in place of the classical evaluation. The file's header records its fingerprint.
    #[arg(long, value_name = "NET")]
    eval_file: Option<String>,
}

/// Plays the games the file lacks and appends their positions, one game at a time.
pub fn selfplay(args: SelfplayArgs) -> Result<(), CliError> {
    let evaluation = match &args.eval_file {
        None => Evaluation::Classical,
        Some(name) => Evaluation::Network(Arc::new(
            nnue::load(name).map_err(|error| CliError::Message(error.to_string()))?,
        )),
    };
    let settings = Settings {
        seed: args.seed,
        nodes: args.nodes,
        random_plies: args.random_plies,
        evaluation,
    };
    let name = args.out.display().to_string();
    let failed = |error: io::Error| CliError::Message(format!("{name}: {error}"));
    // A FIFO or a device is refused without waiting on it: only a regular file is continued.
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let (mut file, metadata) =
        arbiter_duck_engine::file::open_with(&args.out, &mut options).map_err(failed)?;
    let (first, mut positions) =
        continue_file(&mut file, metadata.len(), &settings, args.first_game, &name).map_err(
            |error| match error {
                Continue::Io(error) => failed(error),
                Continue::Other(message) => CliError::Message(message),
            },
        )?;
    let first = first.min(args.games);
    if positions > 0 {
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
    let mut played = 0u64;
    let threads = usize::from(args.threads);
    // Ctrl-C (or SIGTERM) starts no new game: the games under way are finished and written, so
    // nothing searched is lost. A second one quits at once; the next run drops a partial game.
    static STOP: AtomicBool = AtomicBool::new(false);
    let handler = ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!(
            "stopping: finishing the {threads} game(s) under way (Ctrl-C again to quit at once)"
        );
    });
    if let Err(error) = handler {
        eprintln!("warning: Ctrl-C will stop the run at once: {error}");
    }
    let stop = &STOP;
    let mut bytes = Vec::new();
    selfplay::play_games(&settings, first, args.games, threads, stop, |game| {
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
        played += 1;
        progress.inc(1);
        progress.set_message(positions.to_string());
        Ok(())
    })
    .map_err(failed)?;
    file.sync_all().map_err(failed)?;
    progress.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{name}: {played} games ({} red won, {} drawn, {} blue won), {new_positions} positions \
         in {seconds:.1} s ({:.0} positions/s); {positions} positions in all",
        tally[0],
        tally[1],
        tally[2],
        new_positions as f64 / seconds.max(1e-9)
    );
    if stop.load(Ordering::SeqCst) && played < total {
        return Err(CliError::Interrupted(format!(
            "{name}: stopped with {} of {} games written; run the same command to go on",
            u64::from(first) + played,
            args.games
        )));
    }
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

/// Readies `file`, of `length` bytes, for appending the games of `settings` from game
/// `first_game` on: writes the header into an empty file, or checks an existing file's header
/// and cuts it after its last complete game. Returns the next game's number and the positions
/// already in the file.
fn continue_file(
    file: &mut File,
    length: u64,
    settings: &Settings,
    first_game: u32,
    name: &str,
) -> Result<(u32, u64), Continue> {
    let header = settings.header();
    if length == 0 {
        file.write_all(&header.encode())?;
        return Ok((first_game, 0));
    }
    let data = DataFile::read_from(file, length).map_err(|error| match error {
        ReadError::Io(error) => Continue::Io(error),
        ReadError::Data(error) => Continue::Other(format!("{name}: {error}")),
    })?;
    if data.header != header {
        let found = &data.header;
        return Err(Continue::Other(format!(
            "{name}: made with other settings (seed {}, {} nodes, {} random plies, {}, arbiter \
             {}); continue it with the same ones, or write to another file",
            found.seed,
            found.nodes,
            found.random_plies,
            evaluation_name(found.network),
            found.generator
        )));
    }
    let next = match data.records.first() {
        None => first_game,
        // A game may keep no position: the first record may be of a later game.
        Some(record) if record.game >= first_game => data.next_game,
        Some(record) => {
            return Err(Continue::Other(format!(
                "{name}: it holds game {}, before --first-game {first_game}",
                record.game
            )));
        }
    };
    file.set_len(data.complete_len as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok((next, data.records.len() as u64))
}

/// How a data file's header names the evaluation its games were searched with.
fn evaluation_name(network: Option<u64>) -> String {
    match network {
        None => "the classical evaluation".to_owned(),
        Some(fingerprint) => format!("network {fingerprint:016x}"),
    }
}

/// Arguments of `arbiter duck train`.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Data files written by `arbiter duck selfplay`.
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (`.nnue`).
    #[arg(long, value_name = "NET")]
    out: PathBuf,
    /// Hidden units, H.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hidden: u16,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// The search's score's share of the target; the game's result has the rest.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Adam's step size at the start; it falls linearly to a tenth by the last epoch.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// The share of the games kept out of training to measure the validation loss.
    #[arg(long, default_value_t = 0.05)]
    validation: f32,
    /// Threads; all the cores when absent.
    #[arg(long)]
    threads: Option<usize>,
    /// Seeds the initial weights, the validation games and the order of the batches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hundredths of a soldier per unit of the network's output: a score is divided by it
    /// inside the target's sigmoid, and the engine multiplies the output by it.
    #[arg(long, default_value_t = 400)]
    scale: u16,
    /// Also train on each training position's mirror image (the board turned left to right,
    /// which the rules cannot tell apart): twice the positions from the same games.
    #[arg(long)]
    mirror: bool,
    /// A line added to the network's provenance text (for example the commit it was built at).
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
}

/// Trains a network on the data files and writes it with its provenance.
pub fn train(args: TrainArgs) -> Result<(), CliError> {
    let lambda_ok = (0.0..=1.0).contains(&args.lambda);
    let validation_ok = (0.0..1.0).contains(&args.validation);
    if !lambda_ok || !validation_ok || args.scale == 0 || args.epochs == 0 {
        return Err(CliError::Message(
            "--lambda must be within 0..=1, --validation within 0..1, --scale and --epochs \
             above 0"
                .to_owned(),
        ));
    }
    // Checked before any work: a run of hours must not fail at its end on its output, nor
    // write over its data.
    let inputs: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let mut output = Output::new(&args.out, &inputs)
        .map_err(|error| CliError::Message(format!("--out {error}")))?;
    let config = Config {
        hidden: usize::from(args.hidden),
        epochs: args.epochs,
        lambda: args.lambda,
        learning_rate: args.lr,
        batch: args.batch.max(1),
        validation: args.validation,
        seed: args.seed,
        scale: f32::from(args.scale),
        mirror: args.mirror,
    };
    let mut provenance = String::from("arbiter duck train\n");
    let mut split = Split::default();
    for path in &args.data {
        let name = path.display().to_string();
        let data =
            DataFile::load(path).map_err(|error| CliError::Message(format!("{name}: {error}")))?;
        let header = &data.header;
        let line = format!(
            "data {name}: {} positions of games 0..{}, arbiter {} selfplay, seed {}, {} nodes, \
             {} random plies, {}",
            data.records.len(),
            data.next_game,
            header.generator,
            header.seed,
            header.nodes,
            header.random_plies,
            evaluation_name(header.network)
        );
        eprintln!("{line}");
        provenance.push_str(&line);
        provenance.push('\n');
        split.add(&data.records, &config);
    }
    if split.training.is_empty() {
        return Err(CliError::Message("no training positions in the data".to_owned()));
    }
    let line = format!(
        "{} training positions{}, {} validation positions (a {} share of the games), {} skipped",
        split.training.len(),
        if args.mirror { " (half of them mirror images)" } else { "" },
        split.validation.len(),
        args.validation,
        split.skipped
    );
    eprintln!("{line}");
    provenance.push_str(&line);
    provenance.push_str(&format!(
        "\nhidden {}, epochs {}, lambda {}, lr {} falling to a tenth, batch {}, scale {}, seed {}\n",
        config.hidden, config.epochs, config.lambda, config.learning_rate, config.batch,
        args.scale, config.seed
    ));
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        builder = builder.num_threads(threads.max(1));
    }
    let pool = builder.build().map_err(|error| CliError::Message(error.to_string()))?;
    let mut last = None;
    let network = pool.install(|| {
        trainer::train(&split, &config, |epoch| {
            eprintln!(
                "epoch {}/{}: training loss {:.6}, validation loss {:.6} ({:.1} s)",
                epoch.number,
                config.epochs,
                epoch.training,
                epoch.validation,
                epoch.time.as_secs_f64()
            );
            last = Some(*epoch);
        })
    });
    if let Some(epoch) = last {
        provenance.push_str(&format!(
            "final training loss {:.6}, validation loss {:.6}\n",
            epoch.training, epoch.validation
        ));
    }
    if let Some(note) = &args.note {
        provenance.push_str(note);
        provenance.push('\n');
    }
    let network = network.quantise(i32::from(args.scale), provenance);
    let name = args.out.display().to_string();
    let mut bytes = Vec::new();
    network.write(&mut bytes).map_err(|error| CliError::Message(format!("{name}: {error}")))?;
    output
        .file()
        .write_all(&bytes)
        .map_err(|error| CliError::Message(format!("{name}: {error}")))?;
    output.commit().map_err(|error| CliError::Message(error.to_string()))?;
    eprintln!(
        "{name}: {} bytes, hidden {}, fingerprint {:016x}",
        bytes.len(),
        network.hidden,
        network.fingerprint()
    );
    Ok(())
}

/// Arguments of `arbiter duck network`.
#[derive(Debug, clap::Args)]
pub struct NetworkArgs {
    #[command(subcommand)]
    command: NetworkCommand,
}

#[derive(Debug, clap::Subcommand)]
enum NetworkCommand {
    /// Print a network file's shape, checksum, fingerprint and provenance (it must load).
    Show {
        /// The network (`.nnue`), or `<embedded>` for the engine's own.
        #[arg(value_name = "NET")]
        file: String,
    },
    /// Write a network of the first format (`ARBNNUE1`, without a checksum) in the current
    /// one: the same weights and provenance, the same fingerprint.
    Upgrade {
        /// The network of the first format.
        #[arg(value_name = "OLD")]
        file: PathBuf,
        /// The network file to write.
        #[arg(long, value_name = "NEW")]
        out: PathBuf,
    },
}

/// Runs `arbiter duck network`.
pub fn network(args: NetworkArgs) -> Result<(), CliError> {
    match args.command {
        NetworkCommand::Show { file } => {
            let model = nnue::load(&file).map_err(|error| CliError::Message(error.to_string()))?;
            let network = model.network();
            let mut bytes = Vec::new();
            network.write(&mut bytes)?;
            let checksum = &bytes[nnue::network::HEADER_LEN - 4..nnue::network::HEADER_LEN];
            let checksum = u32::from_le_bytes([checksum[0], checksum[1], checksum[2], checksum[3]]);
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{file}: {} bytes, format {}", bytes.len(), nnue::network::VERSION)?;
            writeln!(stdout, "hidden {}, scale {}", network.hidden, network.scale)?;
            writeln!(stdout, "CRC-32 {checksum:08x}, fingerprint {:016x}", network.fingerprint())?;
            writeln!(stdout, "provenance:")?;
            write!(stdout, "{}", network.provenance)?;
            if !network.provenance.ends_with('\n') {
                writeln!(stdout)?;
            }
            Ok(())
        }
        NetworkCommand::Upgrade { file, out } => {
            let name = file.display().to_string();
            let failed =
                |error: &dyn std::fmt::Display| CliError::Message(format!("{name}: {error}"));
            let mut output = Output::new(&out, &[&file])
                .map_err(|error| CliError::Message(format!("--out {error}")))?;
            // The largest file of the first format: the largest network with the longest
            // provenance the current format takes.
            let limit = nnue::network::MAX_FILE_LEN;
            let bytes =
                arbiter_duck_engine::file::read_limited(&file, limit).map_err(|e| failed(&e))?;
            let network = match Network::read_v1(&bytes) {
                Ok(network) => network,
                Err(NetworkError::Magic) if Network::read(&bytes).is_ok() => {
                    return Err(failed(&"already in the current format"));
                }
                Err(error) => return Err(failed(&error)),
            };
            let mut new = Vec::new();
            network.write(&mut new).map_err(|e| failed(&e))?;
            output.file().write_all(&new).map_err(|e| failed(&e))?;
            output.commit().map_err(|error| CliError::Message(error.to_string()))?;
            eprintln!(
                "{}: {} bytes, hidden {}, fingerprint {:016x} (unchanged)",
                out.display(),
                new.len(),
                network.hidden,
                network.fingerprint()
            );
            Ok(())
        }
    }
}
