//! `arbiter chess convert`: PGN files into a Parquet dataset of one row per game, and a dataset
//! back into PGN (what `chess fix` writes for the files).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use arbiter_chess_parquet::convert::{ConvertError, convert};
use arbiter_chess_parquet::read::parts;
use arbiter_chess_parquet::{DatasetWriter, write_pgn};
use arbiter_chess_record::pgn::{Mode, Splitter};

use super::source::{Source, progress_bar};
use crate::input::CliError;
use crate::output::Output;

/// What `arbiter chess convert --help` promises after its options.
const PROMISES: &str = "\
--to parquet: one row per game, typed columns (site, event, white, black, result, white_elo, \
black_elo, white_rating_diff, black_rating_diff, date, utc_time, tc_base_s, tc_increment_s, \
termination, eco, opening, moves_uci, moves_san, clocks_s, evals_cp, evals_mate, plies, ok, \
error, warnings, tags), DIR/month=YYYY-MM/part-FFFFF-000000.parquet, Zstandard, in bounded \
memory; a file that cannot be read through keeps the games before the error and ends with \
status 2. --to pgn: the dataset's games in order, as `arbiter chess fix` writes the files; \
status 1 when games too large to convert are missing.";

/// What to convert into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A Parquet dataset: FILES are PGN files, `--out` the dataset's folder.
    Parquet,
    /// PGN: the one input is a dataset's folder, `--out` a file (standard output by default).
    Pgn,
}

/// Arguments of `arbiter chess convert`.
#[derive(Debug, clap::Args)]
#[command(after_help = PROMISES)]
pub struct ConvertArgs {
    /// PGN files (plain or compressed; `-` for standard input), or with `--to pgn` a dataset's
    /// folder.
    #[arg(value_name = "FILES", required = true)]
    inputs: Vec<PathBuf>,
    /// What to write.
    #[arg(long, value_enum)]
    to: Format,
    /// The dataset's folder (`--to parquet`, required), or the PGN file (`--to pgn`).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Accept what real files hold, with warnings (the verdict columns; default: strict).
    #[arg(long)]
    lenient: bool,
    /// The largest game read, in MiB: a larger one is a row of its error, without its text.
    #[arg(long, value_name = "MIB", default_value_t = 48)]
    max_game_mib: usize,
}

/// Runs `arbiter chess convert`.
pub fn run(args: ConvertArgs) -> Result<(), CliError> {
    match args.to {
        Format::Parquet => to_parquet(args),
        Format::Pgn => to_pgn(args),
    }
}

fn to_parquet(args: ConvertArgs) -> Result<(), CliError> {
    let Some(dir) = args.out.clone() else {
        return Err(CliError::Message(
            "chess convert --to parquet: expected --out DIR, the dataset's folder".to_owned(),
        ));
    };
    // Parts of another conversion would be overwritten: their names are the files' numbers.
    if dir.is_dir() && parts(&dir).is_ok() {
        return Err(CliError::Message(format!(
            "{}: expected an empty or new folder, found a dataset already",
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(|error| {
        CliError::Message(format!("{}: cannot create the folder: {error}", dir.display()))
    })?;
    let mode = if args.lenient { Mode::Lenient } else { Mode::Strict };
    let limit = args.max_game_mib.saturating_mul(1 << 20);
    let mut failures: Vec<CliError> = Vec::new();
    for (number, path) in args.inputs.iter().enumerate() {
        let mut source = match Source::open(Some(path)) {
            Ok(source) => source,
            Err(error) => {
                failures.push(error);
                continue;
            }
        };
        let label = match path.file_name() {
            Some(name) if path != Path::new("-") => name.to_string_lossy().into_owned(),
            _ => source.name.clone(),
        };
        let progress = progress_bar(&source);
        let mut writer = DatasetWriter::new(&dir, &label, number, 0);
        let outcome = convert(Splitter::new(source.take_reader()), limit, mode, &mut writer);
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        // What was read before an error is kept, as `chess pgn` reports it.
        let written = writer.finish().map_err(|error| CliError::Message(error.to_string()))?;
        let tally = match outcome {
            Ok(tally) => tally,
            Err(ConvertError::Write(error)) => return Err(CliError::Message(error.to_string())),
            Err(ConvertError::Read { line, error }) => {
                failures.push(CliError::Message(source.error(line, &error)));
                continue;
            }
        };
        let mut out = Output::new(&source.name);
        let wrong = tally.games - tally.ok;
        let rows: u64 = written.iter().map(|part| part.rows).sum();
        let files = if written.len() == 1 { "file" } else { "files" };
        writeln!(
            out,
            "{}: {} games: {} ok, {wrong} with errors; {rows} rows in {} {files}, {} with their text",
            source.name,
            tally.games,
            tally.ok,
            written.len(),
            tally.kept_text
        )?;
        out.flush()?;
    }
    let last = failures.pop();
    if !failures.is_empty() {
        let mut messages = Output::new("");
        for failure in &failures {
            messages.attach(format!("{failure}\n").as_bytes());
        }
        messages.flush()?;
    }
    match last {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

fn to_pgn(args: ConvertArgs) -> Result<(), CliError> {
    let [dir] = &args.inputs[..] else {
        return Err(CliError::Message(
            "chess convert --to pgn: expected one dataset's folder, found several inputs"
                .to_owned(),
        ));
    };
    let sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(File::create(path).map_err(|error| {
            CliError::Message(format!("{}: cannot create the file: {error}", path.display()))
        })?),
        None => Box::new(io::stdout().lock()),
    };
    let mut sink = BufWriter::with_capacity(1 << 16, sink);
    let written = write_pgn(dir, &mut sink).map_err(|error| CliError::Message(error.to_string()));
    sink.flush()?;
    let written = written?;
    if written.missing.is_empty() {
        return Ok(());
    }
    let mut messages = Output::new(&dir.display().to_string());
    for (file, game) in &written.missing {
        messages.attach(
            format!(
                "{}: {file}: game {game} was too large to convert and has no text: not written\n",
                dir.display()
            )
            .as_bytes(),
        );
    }
    messages.flush()?;
    Err(CliError::Findings)
}
