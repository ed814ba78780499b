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
use arbiter_duck_engine::nnue::features::FeatureSet;
use arbiter_duck_engine::nnue::{self, Network, NetworkError};
use arbiter_duck_train::net::FloatNetwork;
use arbiter_duck_train::output::{self, Output};
use arbiter_duck_train::record::{DataFile, Header, ReadError, Record};
use arbiter_duck_train::rescore;
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

/// Arguments of `arbiter duck rescore`.
#[derive(Debug, clap::Args)]
pub struct RescoreArgs {
    /// The data file whose positions are searched again (its complete games).
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// The rescored file: created, or continued from its last whole record when it exists.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// The evaluation that searches: a network (a `.nnue` file, or `<embedded>` for the
    /// engine's own), or empty for the classical evaluation.
    #[arg(long, value_name = "NET", default_value = nnue::EMBEDDED)]
    eval_file: String,
}

/// Searches every position of a data file again and writes the file with the new scores,
/// continuing a file an earlier run left.
pub fn rescore(args: RescoreArgs) -> Result<(), CliError> {
    let evaluation = match args.eval_file.as_str() {
        "" | "<empty>" => Evaluation::Classical,
        name => Evaluation::Network(Arc::new(
            nnue::load(name).map_err(|error| CliError::Message(error.to_string()))?,
        )),
    };
    let settings = rescore::Settings { nodes: args.nodes, evaluation };
    let data_name = args.data.display().to_string();
    let data = DataFile::load(&args.data)
        .map_err(|error| CliError::Message(format!("{data_name}: {error}")))?;
    for (number, record) in data.records.iter().enumerate() {
        rescore::check(record)
            .map_err(|why| CliError::Message(format!("{data_name}: record {number}: {why}")))?;
    }
    let header = settings.header(&data.header);
    let name = args.out.display().to_string();
    output::not_an_input(&args.out, &[&args.data])
        .map_err(|error| CliError::Message(format!("--out {error}")))?;
    let failed = |error: io::Error| CliError::Message(format!("{name}: {error}"));
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let (mut file, metadata) =
        arbiter_duck_engine::file::open_with(&args.out, &mut options).map_err(failed)?;
    let done =
        continue_rescore(&mut file, metadata.len(), &header, &data.records).map_err(|error| {
            match error {
                Continue::Io(error) => failed(error),
                Continue::Other(message) => CliError::Message(format!("{name}: {message}")),
            }
        })?;
    if done > 0 {
        eprintln!("{name}: {done} positions rescored before, continuing");
    }
    let rest = &data.records[done..];
    let progress = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(rest.len() as u64);
        let style =
            ProgressStyle::with_template("{bar:30} {pos}/{len} positions {elapsed} (ETA {eta})")
                .map_err(|error| CliError::Message(error.to_string()))?
                .progress_chars("=> ");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    static STOP: AtomicBool = AtomicBool::new(false);
    let handler = ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("stopping: finishing the positions under way (Ctrl-C again to quit at once)");
    });
    if let Err(error) = handler {
        eprintln!("warning: Ctrl-C will stop the run at once: {error}");
    }
    let start = Instant::now();
    let (mut written, mut changed) = (0usize, 0usize);
    let mut bytes = Vec::new();
    let threads = usize::from(args.threads);
    rescore::rescore_all(&settings, rest, threads, &STOP, |batch| {
        // One write per batch: a run stopped in the middle of one leaves a partial record,
        // which the next run drops.
        bytes.clear();
        for (record, before) in batch.iter().zip(&rest[written..]) {
            bytes.extend_from_slice(&record.encode());
            changed += usize::from(record.score != before.score);
        }
        file.write_all(&bytes)?;
        written += batch.len();
        progress.inc(batch.len() as u64);
        Ok(())
    })
    .map_err(failed)?;
    file.sync_all().map_err(failed)?;
    progress.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{name}: {written} positions searched again at {} nodes in {seconds:.1} s ({:.0} \
         positions/s), {changed} scores changed; {} of {} positions in all",
        args.nodes,
        written as f64 / seconds.max(1e-9),
        done + written,
        data.records.len()
    );
    if STOP.load(Ordering::SeqCst) && written < rest.len() {
        return Err(CliError::Interrupted(format!(
            "{name}: stopped with {} of {} positions written; run the same command to go on",
            done + written,
            data.records.len()
        )));
    }
    Ok(())
}

/// Readies `file`, of `length` bytes, for appending the rescored `records`: writes `header`
/// into an empty file, or checks that an existing file has that header and holds the first
/// records (their scores apart), and cuts it after its last whole record. Returns how many
/// records it holds.
fn continue_rescore(
    file: &mut File,
    length: u64,
    header: &Header,
    records: &[Record],
) -> Result<usize, Continue> {
    if length == 0 {
        file.write_all(&header.encode())?;
        return Ok(0);
    }
    let size = header.size() as u64;
    let limit = size + (records.len() * Record::SIZE) as u64;
    if length > limit + Record::SIZE as u64 {
        return Err(Continue::Other(format!(
            "{length} bytes, more than the rescored file of --data would hold ({limit}); \
             write to another file"
        )));
    }
    let bytes = arbiter_duck_engine::file::read_opened(file.try_clone()?, length, length)?;
    let found = Header::decode(&bytes).map_err(|error| Continue::Other(error.to_string()))?;
    if found != *header {
        return Err(Continue::Other(format!(
            "made from other data or with other settings ({}); continue it with the same ones, \
             or write to another file",
            describe(&found)
        )));
    }
    let (chunks, _partial) = bytes[header.size()..].as_chunks::<{ Record::SIZE }>();
    let done = chunks.len().min(records.len());
    for (number, (chunk, record)) in chunks.iter().zip(records).enumerate() {
        let rescored =
            Record::decode_at(chunk, number).map_err(|error| Continue::Other(error.to_string()))?;
        if (Record { score: record.score, ..rescored }) != *record {
            return Err(Continue::Other(format!(
                "record {number} is not the position of --data's record {number}; write to \
                 another file"
            )));
        }
    }
    file.set_len(size + (done * Record::SIZE) as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok(done)
}

/// How a data file's header says its positions were made.
fn describe(header: &Header) -> String {
    let mut text = format!(
        "seed {}, {} nodes, {} random plies, {}, arbiter {}",
        header.seed,
        header.nodes,
        header.random_plies,
        evaluation_name(header.network),
        header.generator
    );
    if let Some(rescore) = header.rescore {
        text.push_str(&format!(
            ", rescored at {} nodes by {}",
            rescore.nodes,
            evaluation_name(rescore.network)
        ));
    }
    text
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
    /// The inputs: `pieces` (every piece on its point) or `captain` (the same in the bucket of
    /// the own captain's point, mirrored when it stands right of the middle).
    #[arg(long, default_value = "pieces", value_name = "SET")]
    features: FeatureSet,
    /// Output layers, the one that evaluates a position chosen by its number of pieces.
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = clap::value_parser!(u16).range(1..=16))]
    output_buckets: u16,
    /// Start from this network's weights (a `.nnue` of the plain feature set with one output
    /// layer and at most as many hidden units, or `<embedded>`) rather than random ones: its
    /// rows become the shared rows of the captain's buckets, its output layer every output
    /// layer; hidden units it lacks start random, with output weights of zero.
    #[arg(long, value_name = "NET")]
    init: Option<String>,
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
    /// Decoupled weight decay (AdamW): each step shrinks every weight (not the biases) by the
    /// step size times this share of itself.
    #[arg(long, default_value_t = 0.0, value_name = "DECAY")]
    weight_decay: f32,
    /// Train on each position once: positions the network cannot tell apart (the same pieces
    /// on the same points, seen from the side to move) are merged into the first of them,
    /// with the mean of their targets.
    #[arg(long)]
    dedup: bool,
    /// A line added to the network's provenance text (for example the commit it was built at).
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
}

/// Trains a network on the data files and writes it with its provenance.
pub fn train(args: TrainArgs) -> Result<(), CliError> {
    let lambda_ok = (0.0..=1.0).contains(&args.lambda);
    let validation_ok = (0.0..1.0).contains(&args.validation);
    let decay_ok = args.weight_decay >= 0.0 && args.weight_decay * args.lr < 1.0;
    if !lambda_ok || !validation_ok || args.scale == 0 || args.epochs == 0 || !decay_ok {
        return Err(CliError::Message(
            "--lambda must be within 0..=1, --validation within 0..1, --scale and --epochs \
             above 0, --weight-decay at least 0 and below 1 / --lr"
                .to_owned(),
        ));
    }
    // Checked before any work: a run of hours must not fail at its end on its output, nor
    // write over its data.
    let inputs: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let mut output = Output::new(&args.out, &inputs)
        .map_err(|error| CliError::Message(format!("--out {error}")))?;
    // The network to start from, checked before any work.
    let start_network = match &args.init {
        None => None,
        Some(name) => {
            let model = nnue::load(name).map_err(|error| CliError::Message(error.to_string()))?;
            Some(model.network().clone())
        }
    };
    let config = Config {
        features: args.features,
        output_buckets: usize::from(args.output_buckets),
        hidden: usize::from(args.hidden),
        epochs: args.epochs,
        lambda: args.lambda,
        learning_rate: args.lr,
        batch: args.batch.max(1),
        validation: args.validation,
        seed: args.seed,
        scale: f32::from(args.scale),
        mirror: args.mirror,
        weight_decay: args.weight_decay,
    };
    let start = match &start_network {
        None => None,
        Some(network) => Some(
            FloatNetwork::from_network(network, config.shape(), config.seed)
                .map_err(|error| CliError::Message(format!("--init: {error}")))?,
        ),
    };
    let mut provenance = String::from("arbiter duck train\n");
    let mut split = Split::default();
    for path in &args.data {
        let name = path.display().to_string();
        let data =
            DataFile::load(path).map_err(|error| CliError::Message(format!("{name}: {error}")))?;
        let header = &data.header;
        let mut line = format!(
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
        if let Some(rescore) = header.rescore {
            line.push_str(&format!(
                ", rescored at {} nodes by {}",
                rescore.nodes,
                evaluation_name(rescore.network)
            ));
        }
        eprintln!("{line}");
        provenance.push_str(&line);
        provenance.push('\n');
        split.add(&data.records, &config);
    }
    if split.training.is_empty() {
        return Err(CliError::Message("no training positions in the data".to_owned()));
    }
    let kinds = match (args.mirror, args.dedup.then(|| split.dedup())) {
        (false, None) => String::new(),
        (true, None) => " (half of them mirror images)".to_owned(),
        (false, Some(merged)) => format!(" ({merged} duplicates merged)"),
        (true, Some(merged)) => format!(" (with mirror images; {merged} duplicates merged)"),
    };
    let line = format!(
        "{} training positions{kinds}, {} validation positions (a {} share of the games), {} \
         skipped",
        split.training.len(),
        split.validation.len(),
        args.validation,
        split.skipped
    );
    eprintln!("{line}");
    provenance.push_str(&line);
    provenance.push_str(&format!(
        "\nhidden {}, epochs {}, lambda {}, lr {} falling to a tenth, batch {}, scale {}, seed {}",
        config.hidden,
        config.epochs,
        config.lambda,
        config.learning_rate,
        config.batch,
        args.scale,
        config.seed
    ));
    // Only when used: the provenance of a network trained without them stays as it was.
    if config.weight_decay > 0.0 {
        provenance.push_str(&format!(", weight decay {}", config.weight_decay));
    }
    if config.features != FeatureSet::Pieces {
        provenance.push_str(&format!(", features {}", config.features.name()));
    }
    if config.output_buckets > 1 {
        provenance.push_str(&format!(", {} output layers", config.output_buckets));
    }
    if let (Some(name), Some(network)) = (&args.init, &start_network) {
        provenance
            .push_str(&format!(", started from {name} (network {:016x})", network.fingerprint()));
    }
    provenance.push('\n');
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        builder = builder.num_threads(threads.max(1));
    }
    let pool = builder.build().map_err(|error| CliError::Message(error.to_string()))?;
    let mut last = None;
    let network = pool.install(|| {
        trainer::train(&split, &config, start, |epoch| {
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
        "{name}: {} bytes, {}, fingerprint {:016x}",
        bytes.len(),
        network.shape_text(),
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
            let checksum = network.checksum();
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{file}: {} bytes, format {}", bytes.len(), network.version())?;
            write!(stdout, "hidden {}, scale {}", network.hidden, network.scale)?;
            // The plain shape's line is as it was; another names its features and layers.
            if network.version() != nnue::network::VERSION {
                write!(
                    stdout,
                    ", features {}, {} output layers",
                    network.features.name(),
                    network.output_buckets()
                )?;
            }
            writeln!(stdout)?;
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
