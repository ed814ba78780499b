//! `arbiter duck analyse` and `arbiter duck puzzles`: a game analysed move by move, and puzzles
//! mined, listed, packed and checked. The work is `arbiter_duck_learn`'s; this module reads the
//! arguments and the files and writes what it returns.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arbiter_duck::judge::Commands;
use arbiter_duck::{Move, Position};
use arbiter_duck_engine::search::StopFlag;
use arbiter_duck_learn::analysis::Analyser;
use arbiter_duck_learn::mark::Mark;
use arbiter_duck_learn::mine::{self, Criteria, Verifier};
use arbiter_duck_learn::probe::Probe;
use arbiter_duck_learn::puzzle::{Collection, Puzzle, Theme};
use arbiter_duck_learn::report::{self, Report, Step};
use arbiter_scan::Scanner;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::input::{CliError, Opened, fen_error};

/// The most commands `arbiter duck analyse` reads: far more than a game has (the official
/// statement allows 1,000), few enough to hold in memory.
const MAX_COMMANDS: usize = 100_000;

/// Arguments of `arbiter duck analyse`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// A game as an official command list (Q, then Q lines `x1 y1 x2 y2`); standard input when
    /// absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Nodes searched per position (and again for a move played that is not the best).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: u64,
    /// The position the game starts from, in FEN (the official start when absent).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// One JSON object per command, then one with each side's accuracy.
    #[arg(long)]
    json: bool,
}

/// Runs `arbiter duck analyse`.
pub fn analyse(args: AnalyseArgs) -> Result<(), CliError> {
    let start = match &args.fen {
        Some(fen) => fen.parse().map_err(fen_error)?,
        None => Position::new(),
    };
    let input = Opened::open(args.file.as_deref())?;
    let (steps, moves) = read_game(&input, &start)?;
    let progress = bar(moves.len() as u64, "{bar:30} {pos}/{len} moves {elapsed} (ETA {eta})")?;
    let analysis = Analyser::new(args.nodes)
        .analyse(&start, &moves, |done, _| progress.set_position(done as u64))
        .map_err(|error| CliError::Message(format!("{}: {error}", input.name)))?;
    progress.finish_and_clear();
    let report = Report::new(&steps, &analysis);
    let mut out = io::BufWriter::new(io::stdout().lock());
    if args.json {
        write_json(&mut out, &report)?;
    } else {
        write_text(&mut out, &report)?;
    }
    out.flush()?;
    Ok(())
}

/// Reads the official command list and judges each command from `start`.
fn read_game(input: &Opened, start: &Position) -> Result<(Vec<Step>, Vec<Move>), CliError> {
    let mut commands = Commands::read_count(Scanner::from_reader(&input.file))
        .map_err(|error| input.error(error))?;
    let mut read = Vec::new();
    for command in commands.by_ref() {
        let command = command.map_err(|error| input.error(error))?;
        if read.len() == MAX_COMMANDS {
            let place = commands.place();
            return Err(CliError::Message(format!(
                "{}:{place}: expected at most {MAX_COMMANDS} commands to analyse, found more",
                input.name
            )));
        }
        read.push(command);
    }
    if let Some(place) = commands.trailing() {
        eprintln!(
            "{}:{place}: warning: ignoring input after the last of {} commands",
            input.name,
            read.len()
        );
    }
    Ok(report::judge(start, read))
}

/// A progress bar on a terminal's stderr, hidden elsewhere.
fn bar(len: u64, template: &str) -> Result<ProgressBar, CliError> {
    if !io::stderr().is_terminal() {
        return Ok(ProgressBar::hidden());
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(template)
            .map_err(|error| CliError::Message(error.to_string()))?
            .progress_chars("=> "),
    );
    Ok(bar)
}

/// Writes `--json`: an object per command, then the game's.
fn write_json(out: &mut impl Write, report: &Report) -> Result<(), CliError> {
    for entry in &report.commands {
        serde_json::to_writer(&mut *out, entry).map_err(io::Error::from)?;
        writeln!(out)?;
    }
    serde_json::to_writer(&mut *out, &report.summary).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// Writes the analysis for a person: a line per command, then each side's account.
fn write_text(out: &mut impl Write, report: &Report) -> Result<(), CliError> {
    for entry in &report.commands {
        let ply = entry.ply;
        match (&entry.eval, &entry.best) {
            (Some(eval), Some(best)) => {
                let mark = entry.mark.map_or("", Mark::symbol);
                let best = match entry.best_eval {
                    Some(best_eval) if best != &entry.command => {
                        format!("best {best} {}", report::shown(best_eval))
                    }
                    _ => "best".to_owned(),
                };
                let eval = report::shown(*eval);
                writeln!(out, "{ply:>4}  {:<9}{mark:<3} {eval:>9}  {best}", entry.command)?;
            }
            _ => {
                let reason = entry.reason.as_deref().unwrap_or("not analysed");
                writeln!(out, "{ply:>4}  {:<9}    invalid: {reason}", entry.command)?;
            }
        }
    }
    for (color, side) in [("red", &report.summary.red), ("blue", &report.summary.blue)] {
        let number = |value: Option<f64>| value.map_or("-".to_owned(), |v| format!("{v:.1}"));
        writeln!(
            out,
            "{color}: accuracy {}, average loss {}, inaccuracies {}, mistakes {}, blunders {}",
            number(side.accuracy),
            number(side.average_loss),
            side.inaccuracies,
            side.mistakes,
            side.blunders
        )?;
    }
    Ok(())
}

/// Arguments of `arbiter duck puzzles`.
#[derive(Debug, clap::Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Debug, Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles in games: the miner's own self-play games (`--selfplay N`) or official
    /// command lists (files or directories of them). Appends one line per game to `--out` and
    /// continues where an earlier run on the same file stopped.
    Mine(MineArgs),
    /// List puzzles: the collection built into arbiter, or a file of them.
    List(ListArgs),
    /// Gather the puzzles of miner outputs into a collection file (`.jsonl`, or zstd-compressed
    /// `.jsonl.zst`), one per position, ordered by id.
    Pack(PackArgs),
    /// Check puzzles again with a search of your choosing: every move of the solver must be the
    /// only winning one.
    Check(CheckArgs),
}

/// Arguments of `arbiter duck puzzles mine`.
#[derive(Debug, clap::Args)]
struct MineArgs {
    /// Official command lists to mine (files, or directories whose files are read).
    #[arg(value_name = "GAMES")]
    games: Vec<PathBuf>,
    /// The miner's output (JSON lines, one per game): created, or continued.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Mine this many self-play games (numbered from 0), played by the miner.
    #[arg(long, value_name = "N")]
    selfplay: Option<u64>,
    /// The self-play games' seed: game G starts with random plies drawn from seed + G.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes per move of the self-play games (few: weak play leaves tactics on the board).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    game_nodes: u64,
    /// Random plies at the start of each self-play game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// The share of the self-play games' later moves played at random (0 to 1).
    #[arg(long, default_value_t = 0.05)]
    blunders: f64,
    /// Nodes per position of the short search that scores each game's positions to find the
    /// candidates.
    #[arg(long, default_value_t = 3_000, value_parser = clap::value_parser!(u64).range(1..))]
    scan_nodes: u64,
    /// Nodes of each verifying search.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Nodes of each search of the second check every puzzle found must pass (0: none).
    #[arg(long, default_value_t = 200_000)]
    confirm_nodes: u64,
}

/// The first line of a miner's output: what it was made with, checked when it is continued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct MinerHeader {
    miner: String,
    seed: u64,
    game_nodes: u64,
    random_plies: u32,
    blunders: f64,
    hint: f64,
    scan_nodes: u64,
    nodes: u64,
    confirm_nodes: u64,
    win: f64,
    margin: f64,
    material: i32,
    max_moves: usize,
}

/// One line per game mined.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct GameLine {
    game: String,
    plies: usize,
    candidates: usize,
    #[serde(default)]
    refused: BTreeMap<String, usize>,
    puzzles: Vec<Puzzle>,
}

/// Runs `arbiter duck puzzles`.
pub fn puzzles(args: PuzzlesArgs) -> Result<(), CliError> {
    match args.command {
        PuzzlesCommand::Mine(args) => mine_games(args),
        PuzzlesCommand::List(args) => list(args),
        PuzzlesCommand::Pack(args) => pack(args),
        PuzzlesCommand::Check(args) => check(args),
    }
}

/// The files to mine: each file named, and the files of each directory named, sorted.
fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let read = std::fs::read_dir(path).map_err(|error| CliError::Read {
                source_name: path.display().to_string(),
                error,
            })?;
            let mut inside: Vec<PathBuf> = read
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.is_file())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Opens the miner's output, checks or writes its header, cuts a partial last line, and returns
/// the games it already holds.
fn continue_output(
    file: &mut File,
    header: &MinerHeader,
    name: &str,
) -> Result<Vec<String>, CliError> {
    let failed = |error: io::Error| CliError::Message(format!("{name}: {error}"));
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(failed)?;
    if text.is_empty() {
        let mut line = serde_json::to_string(header).map_err(io::Error::from)?;
        line.push('\n');
        file.write_all(line.as_bytes()).map_err(failed)?;
        return Ok(Vec::new());
    }
    // Only whole lines count: a run killed in the middle of a line leaves a part, dropped here.
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    let mut lines = text[..complete].lines();
    let found: MinerHeader = lines
        .next()
        .and_then(|line| serde_json::from_str(line).ok())
        .ok_or_else(|| CliError::Message(format!("{name}:1:1: expected a miner's header line")))?;
    if &found != header {
        return Err(CliError::Message(format!(
            "{name}: made with other settings ({}); continue it with the same ones, or write \
             to another file",
            serde_json::to_string(&found).unwrap_or_default()
        )));
    }
    let mut done = Vec::new();
    for (index, line) in lines.enumerate() {
        let game: GameLine = serde_json::from_str(line).map_err(|error| {
            CliError::Message(format!(
                "{name}:{}:1: expected a mined game, found {error}",
                index + 2
            ))
        })?;
        done.push(game.game);
    }
    file.set_len(complete as u64).map_err(failed)?;
    file.seek(SeekFrom::End(0)).map_err(failed)?;
    Ok(done)
}

/// Runs `arbiter duck puzzles mine`.
fn mine_games(args: MineArgs) -> Result<(), CliError> {
    let files = game_files(&args.games)?;
    if files.is_empty() && args.selfplay.is_none() {
        return Err(CliError::Message(
            "nothing to mine: name game files or directories, or --selfplay N".to_owned(),
        ));
    }
    let criteria = Criteria { nodes: args.nodes, ..Criteria::default() };
    let header = MinerHeader {
        miner: format!("arbiter {}", env!("CARGO_PKG_VERSION")),
        seed: args.seed,
        game_nodes: args.game_nodes,
        random_plies: args.random_plies,
        blunders: args.blunders,
        hint: mine::HINT,
        scan_nodes: args.scan_nodes,
        nodes: criteria.nodes,
        confirm_nodes: args.confirm_nodes,
        win: criteria.win,
        margin: criteria.margin,
        material: criteria.material,
        max_moves: criteria.max_moves,
    };
    let name = args.out.display().to_string();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&args.out)
        .map_err(|error| CliError::Message(format!("{name}: {error}")))?;
    let done = continue_output(&mut file, &header, &name)?;
    let already: std::collections::HashSet<&str> = done.iter().map(String::as_str).collect();
    let mut jobs: Vec<Job> = Vec::new();
    for number in 0..args.selfplay.unwrap_or(0) {
        let job = Job::Selfplay(number);
        if !already.contains(job.name(args.seed).as_str()) {
            jobs.push(job);
        }
    }
    for path in files {
        let job = Job::File(path);
        if !already.contains(job.name(args.seed).as_str()) {
            jobs.push(job);
        }
    }
    if !done.is_empty() {
        eprintln!("{name}: {} games mined before, continuing", done.len());
    }
    static STOP: AtomicBool = AtomicBool::new(false);
    let stop_flag = StopFlag::new();
    let handler_flag = stop_flag.clone();
    let handler = ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        handler_flag.stop();
        eprintln!("stopping: the game under way is dropped (Ctrl-C again to quit at once)");
    });
    if let Err(error) = handler {
        eprintln!("warning: Ctrl-C will stop the run at once: {error}");
    }
    let progress =
        bar(jobs.len() as u64, "{bar:30} {pos}/{len} games {elapsed} (ETA {eta}) {msg}")?;
    let mut game_probe = Probe::with_stop(args.game_nodes, stop_flag.clone());
    let mut scan_probe = Probe::with_stop(args.scan_nodes, stop_flag.clone());
    let mut verifier =
        Verifier::with_probe(Probe::with_stop(criteria.nodes, stop_flag.clone()), criteria);
    let play =
        mine::Play { seed: args.seed, random_plies: args.random_plies, blunders: args.blunders };
    let mut confirmer = (args.confirm_nodes > 0).then(|| {
        let probe = Probe::with_stop(args.confirm_nodes, stop_flag.clone());
        Verifier::with_probe(probe, verifier.criteria().clone())
    });
    let started = Instant::now();
    let (mut games, mut found) = (0u64, 0u64);
    for job in jobs {
        let game = match &job {
            Job::Selfplay(number) => mine::play_game(&mut game_probe, &play, *number),
            Job::File(path) => match read_game_file(path) {
                Ok((start, moves)) => {
                    mine::MinedGame { name: job.name(args.seed), start, moves, hints: Vec::new() }
                }
                Err(error) => {
                    eprintln!("{error}; skipped");
                    continue;
                }
            },
        };
        let mined = mine::mine_game(&mut verifier, confirmer.as_mut(), &mut scan_probe, &game);
        if stop_flag.is_stopped() {
            break;
        }
        let line = GameLine {
            game: game.name.clone(),
            plies: game.moves.len(),
            candidates: mined.candidates,
            refused: mined.refused.iter().map(|(r, n)| (r.name().to_owned(), *n)).collect(),
            puzzles: mined.puzzles,
        };
        let mut text = serde_json::to_string(&line).map_err(io::Error::from)?;
        text.push('\n');
        file.write_all(text.as_bytes())
            .map_err(|error| CliError::Message(format!("{name}: {error}")))?;
        games += 1;
        found += line.puzzles.len() as u64;
        progress.inc(1);
        progress.set_message(format!("{found} puzzles"));
    }
    progress.finish_and_clear();
    let hours = started.elapsed().as_secs_f64() / 3600.0;
    eprintln!(
        "{name}: {games} games mined, {found} puzzles, in {:.2} h ({:.0} puzzles an hour)",
        hours,
        found as f64 / hours.max(1e-9)
    );
    if STOP.load(Ordering::SeqCst) {
        return Err(CliError::Interrupted(format!(
            "{name}: stopped after {games} games; run the same command to go on"
        )));
    }
    Ok(())
}

/// A game to mine.
enum Job {
    Selfplay(u64),
    File(PathBuf),
}

impl Job {
    /// The game's name, as the output records it.
    fn name(&self, seed: u64) -> String {
        match self {
            Job::Selfplay(number) => format!("selfplay:{seed}:{number}"),
            Job::File(path) => path.display().to_string(),
        }
    }
}

/// The valid moves of an official command list, from the start (invalid commands are skipped,
/// as the judge skips them).
fn read_game_file(path: &Path) -> Result<(Position, Vec<Move>), CliError> {
    let input = Opened::open(Some(path))?;
    let (_, moves) = read_game(&input, &Position::new())?;
    Ok((Position::new(), moves))
}

/// Arguments of `arbiter duck puzzles list`.
#[derive(Debug, clap::Args)]
struct ListArgs {
    /// A collection (`.jsonl` or `.jsonl.zst`) or a miner's output, in place of the built-in one.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// One JSON object per puzzle: `id`, `fen`, `solution`, `themes`, `rating` (and `origin`).
    #[arg(long)]
    json: bool,
    /// Only puzzles with this theme (e.g. `capture-in-2`, `fork`, `material`).
    #[arg(long, value_name = "THEME")]
    theme: Option<Theme>,
    /// Only puzzles rated at least this.
    #[arg(long, value_name = "RATING")]
    min_rating: Option<u32>,
    /// Only puzzles rated at most this.
    #[arg(long, value_name = "RATING")]
    max_rating: Option<u32>,
    /// At most this many puzzles.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

/// Reads a collection or a miner's output.
fn read_puzzles(path: Option<&Path>) -> Result<Collection, CliError> {
    let Some(path) = path else {
        return Collection::shipped().map_err(|error| CliError::Message(error.to_string()));
    };
    let name = path.display().to_string();
    let unreadable = |error: io::Error| CliError::Read { source_name: name.clone(), error };
    let file = File::open(path).map_err(unreadable)?;
    let mut reader = BufReader::new(file);
    let zstd_magic = reader.fill_buf().map_err(unreadable)?.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]);
    let reader: Box<dyn BufRead> = if zstd_magic {
        Box::new(BufReader::new(zstd::Decoder::with_buffer(reader).map_err(unreadable)?))
    } else {
        Box::new(reader)
    };
    let mut puzzles = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(unreadable)?;
        if line.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(&line).map_err(|error| {
            CliError::Message(format!(
                "{name}:{}:{}: expected a JSON line, found {error}",
                index + 1,
                error.column()
            ))
        })?;
        let bad = |error: serde_json::Error| {
            CliError::Message(format!("{name}:{}:1: expected a puzzle, found {error}", index + 1))
        };
        if value.get("miner").is_some() {
            continue;
        }
        if value.get("puzzles").is_some() {
            let game: GameLine = serde_json::from_value(value).map_err(bad)?;
            puzzles.extend(game.puzzles);
        } else {
            puzzles.push(serde_json::from_value(value).map_err(bad)?);
        }
    }
    Ok(Collection::new(puzzles))
}

/// Runs `arbiter duck puzzles list`.
fn list(args: ListArgs) -> Result<(), CliError> {
    let collection = read_puzzles(args.file.as_deref())?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let chosen = collection
        .puzzles()
        .iter()
        .filter(|p| args.theme.is_none_or(|theme| p.themes.contains(&theme)))
        .filter(|p| args.min_rating.is_none_or(|min| p.rating >= min))
        .filter(|p| args.max_rating.is_none_or(|max| p.rating <= max))
        .take(args.limit.unwrap_or(usize::MAX));
    for puzzle in chosen {
        if args.json {
            serde_json::to_writer(&mut out, puzzle).map_err(io::Error::from)?;
            writeln!(out)?;
        } else {
            let themes: Vec<String> = puzzle.themes.iter().map(Theme::to_string).collect();
            let solution: Vec<String> = puzzle.solution.iter().map(Move::to_string).collect();
            writeln!(
                out,
                "{} {:>4} {} | {} | {}",
                puzzle.id,
                puzzle.rating,
                puzzle.fen,
                solution.join(", "),
                themes.join(" ")
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Arguments of `arbiter duck puzzles pack`.
#[derive(Debug, clap::Args)]
struct PackArgs {
    /// Miner outputs or collections to gather.
    #[arg(value_name = "FILE", required = true)]
    inputs: Vec<PathBuf>,
    /// The collection to write: zstd-compressed when its name ends in `.zst`.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Runs `arbiter duck puzzles pack`.
fn pack(args: PackArgs) -> Result<(), CliError> {
    let mut puzzles = Vec::new();
    for input in &args.inputs {
        puzzles.extend(read_puzzles(Some(input))?.puzzles().iter().cloned());
    }
    let collection = Collection::new(puzzles);
    let name = args.out.display().to_string();
    let failed = |error: io::Error| CliError::Message(format!("{name}: {error}"));
    let file = File::create(&args.out).map_err(failed)?;
    let mut out = io::BufWriter::new(file);
    if name.ends_with(".zst") {
        collection.write_zstd(&mut out).map_err(failed)?;
    } else {
        collection.write_lines(&mut out).map_err(failed)?;
    }
    out.flush().map_err(failed)?;
    eprintln!("{name}: {} puzzles", collection.puzzles().len());
    Ok(())
}

/// Arguments of `arbiter duck puzzles check`.
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// A collection or a miner's output, in place of the built-in one.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Nodes of each search.
    #[arg(long, default_value_t = 400_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Check every Nth puzzle only.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
}

/// Runs `arbiter duck puzzles check`: exit status 1 when a puzzle fails.
fn check(args: CheckArgs) -> Result<(), CliError> {
    let collection = read_puzzles(args.file.as_deref())?;
    let mut verifier = Verifier::new(Criteria { nodes: args.nodes, ..Criteria::default() });
    let chosen: Vec<&Puzzle> = collection.puzzles().iter().step_by(args.every as usize).collect();
    let progress = bar(chosen.len() as u64, "{bar:30} {pos}/{len} puzzles {elapsed} (ETA {eta})")?;
    let mut failed = 0;
    for puzzle in &chosen {
        if let Err(reason) = verifier.check(puzzle) {
            progress.suspend(|| println!("{}: {reason}", puzzle.id));
            failed += 1;
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    eprintln!("{} puzzles checked at {} nodes, {failed} failed", chosen.len(), args.nodes);
    if failed > 0 { Err(CliError::Findings) } else { Ok(()) }
}
