//! `arbiter duck match`: two UCI engines play Duck Chess game pairs, judged by arbiter's rules.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter_duck_match::adjudication::{Adjudication, DrawRule, ResignRule};
use arbiter_duck_match::clock::{Limits, TimeControl};
use arbiter_duck_match::compliance::Timing;
use arbiter_duck_match::game::MAX_PLIES;
use arbiter_duck_match::machine;
use arbiter_duck_match::opening::parse_openings;
use arbiter_duck_match::sprt::Sprt;
use arbiter_duck_match::{EngineSpec, Event, MatchConfig, Openings, Schedule};
use clap::parser::ValueSource;
use clap::{ArgMatches, FromArgMatches};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::{CliError, Opened};

/// The options of `arbiter duck match` as clap reads them; [`Args`] adds which engine each
/// `--option` and `--name` follows.
#[derive(Debug, clap::Args)]
#[command(after_long_help = AFTER_HELP)]
struct Flags {
    /// An engine's command line, split as a shell splits it (give it twice: the first engine is
    /// the one tested, the second the reference; or more, for a round robin or a gauntlet).
    #[arg(long = "engine", value_name = "CMD", required_unless_present_any = ["resume", "compliance"])]
    engines: Vec<String>,
    /// A UCI option for the engine given just before (`setoption name NAME value VALUE`);
    /// repeat it for more.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The name to show for the engine given just before, instead of its `id name`.
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// With more than two engines, play the first against each other only (a round robin,
    /// every engine against every other, otherwise).
    #[arg(long)]
    gauntlet: bool,
    /// Number of games, even: every opening is played twice, once with each engine as red (per
    /// pairing, with more than two engines).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = parse_games)]
    games: u64,
    /// A fixed time per move in milliseconds (`go movetime`); the default, at 100 ms, when no
    /// other limit is given.
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    movetime: Option<u64>,
    /// A clock per side: BASE seconds for the game plus INC seconds per move, e.g. `10+0.1`
    /// (`go wtime btime winc binc`).
    #[arg(long, value_name = "BASE+INC", value_parser = parse_time_control)]
    tc: Option<TimeControl>,
    /// A fixed depth in plies (`go depth`), alone or with a time limit.
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// A fixed number of nodes (`go nodes`), alone or with a time limit.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// A depth for the engine given just before, in place of --depth (a depth ladder: one
    /// engine at depth d + 1, the other at d).
    #[arg(long = "engine-depth", value_name = "PLIES")]
    engine_depths: Vec<u32>,
    /// A node count for the engine given just before, in place of --nodes.
    #[arg(long = "engine-nodes", value_name = "N")]
    engine_nodes: Vec<u64>,
    /// A clock for the engine given just before, in place of --tc or --movetime (time odds):
    /// BASE seconds plus INC per move, e.g. `0.4+0`.
    #[arg(long = "engine-tc", value_name = "BASE+INC", value_parser = parse_time_control)]
    engine_tcs: Vec<TimeControl>,
    /// A fixed time per move in milliseconds for the engine given just before, in place of
    /// --movetime or --tc (time odds: e.g. 400 for one engine against 100 for the other).
    #[arg(long = "engine-movetime", value_name = "MS")]
    engine_movetimes: Vec<u64>,
    /// Pin each engine process to a core of its own (sched_setaffinity), going round the cores
    /// again when there are more processes than cores.
    #[arg(long)]
    affinity: bool,
    /// How far past its time an engine may answer before it loses on time, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    time_margin: u64,
    /// How long to wait, in seconds, for answers no clock bounds: the handshake, `readyok`,
    /// and moves at a fixed depth or node count. A silent engine fails to start, or loses.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds)]
    timeout: f64,
    /// A file of openings, one per line (a move list in either notation, an official command
    /// list, or a FEN); each is played with both colours, in order.
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Begin with this opening of the file (the first is 1), to play another share of a book.
    #[arg(long, value_name = "N", requires = "openings", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    opening_start: u64,
    /// Random openings of this many plies from the start, one per pair (see `--seed`).
    #[arg(long, value_name = "PLIES")]
    random_openings: Option<usize>,
    /// The seed of the random openings.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    seed: u64,
    /// A game still going after this many plies (the opening's included) is a draw.
    #[arg(long, value_name = "PLIES", default_value_t = MAX_PLIES)]
    max_plies: u32,
    /// Resign a game for a side whose own score is at or below -CP hundredths of a soldier
    /// after each of --resign-moves moves of its own in a row (only the loser's scores count).
    #[arg(long, value_name = "CP", requires = "resign_moves", value_parser = clap::value_parser!(i32).range(0..))]
    resign_score: Option<i32>,
    /// How many moves in a row --resign-score must hold.
    #[arg(long, value_name = "N", requires = "resign_score", value_parser = clap::value_parser!(u32).range(1..))]
    resign_moves: Option<u32>,
    /// Draw a game in which both sides' scores stay within ±CP hundredths of a soldier for
    /// --draw-moves moves of each in a row.
    #[arg(long, value_name = "CP", requires = "draw_moves", value_parser = clap::value_parser!(i32).range(0..))]
    draw_score: Option<i32>,
    /// How many moves of each side in a row --draw-score must hold.
    #[arg(long, value_name = "N", requires = "draw_score", value_parser = clap::value_parser!(u32).range(1..))]
    draw_moves: Option<u32>,
    /// Moves count towards --draw-score only after this many plies (the opening's included).
    #[arg(long, value_name = "PLIES", default_value_t = 0, requires = "draw_score")]
    draw_after: u32,
    /// How many games to play at once, each with its own pair of engine processes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: u16,
    /// Stop when a sequential probability ratio test decides: `elo0=E0,elo1=E1[,alpha=A,beta=B]`
    /// (logistic Elo of the first engine over the second; alpha and beta 0.05 by default).
    #[arg(long, value_name = "TEST", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Save every game (official command format), results.jsonl and the engines' stderr here.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Check the UCI behaviour of the engine CMD instead of playing a match, and print a pass
    /// or fail line per check (exit status 1 if one fails); --option values go to it.
    #[arg(long, value_name = "CMD", conflicts_with_all = ["engines", "resume"])]
    compliance: Option<String>,
    /// Go on with the match saved in DIR (by --save DIR), stopped before its end: its games
    /// are kept and only the others played, with the options the match was started with. The
    /// saved engine commands run only once confirmed: each given again with --engine, in the
    /// same order, or --trust-saved-engines, or a yes on a terminal.
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// With --resume: run the engine commands the save directory names without asking.
    #[arg(long, requires = "resume")]
    trust_saved_engines: bool,
    /// Write one JSON object per game on stdout, then one with the summary.
    #[arg(long)]
    json: bool,
    /// Play only games FIRST to LAST of the match (numbered from 1, whole pairs: FIRST odd,
    /// LAST even), each as the whole match plays it: a share of a match spread over machines
    /// (`python -m arbiter.selfplay gate`). A share never stops on --sprt.
    #[arg(long, value_name = "FIRST-LAST", value_parser = parse_only_games)]
    only_games: Option<(u64, u64)>,
}

const AFTER_HELP: &str = "\
Example (fairy-stockfish against itself, from random openings):
  arbiter duck match \\
    --engine /usr/games/fairy-stockfish \\
      --option VariantPath=crates/duck/tests/fixtures/duck-variants.ini --option UCI_Variant=duck \\
    --engine /usr/games/fairy-stockfish \\
      --option VariantPath=crates/duck/tests/fixtures/duck-variants.ini --option UCI_Variant=duck \\
    --games 20 --movetime 50 --random-openings 8 --concurrency 2

Every move is judged by arbiter's rules. A game ends when a captain is captured (the capturer
wins), when the side to move has no valid move (a draw), at the ply cap (a draw), or when the
engine to move faults, which loses: an invalid move, `bestmove (none)` with moves left, an
unreadable `bestmove`, a move later than its time plus the margin, or its process ending. An
engine that faulted is restarted before its next game. Engines that fail the handshake
(`uci`/`uciok`, options, `isready`/`readyok`) end the match before it starts, with status 2.

The summary goes to stdout: the first engine's wins, draws and losses, its score, the Elo
difference with its 95% interval and the likelihood of superiority (from game pairs: the
pentanomial model), and with --sprt the log-likelihood ratio against its bounds. While games
are played, stderr shows a progress bar on a terminal, else one line per finished game.

With three or more --engine, the match is a round robin (or with --gauntlet, the first engine
against each other), reported with each engine's Elo against the field and a crosstable.
--resume DIR goes on with a match saved by --save DIR; --compliance CMD checks one engine's UCI
and plays no match. docs/match.md has the details.";

/// Arguments of `arbiter duck match`.
#[derive(Debug)]
pub struct Args {
    flags: Flags,
    /// Where each `--engine`, `--option` and `--name` value stands on the command line.
    engine_at: Vec<usize>,
    option_at: Vec<usize>,
    name_at: Vec<usize>,
    depth_at: Vec<usize>,
    nodes_at: Vec<usize>,
    tc_at: Vec<usize>,
    movetime_at: Vec<usize>,
    /// The flags given on the command line (their ids), which `--resume` checks.
    given: Vec<String>,
}

impl FromArgMatches for Args {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Args, clap::Error> {
        let at = |id: &str| matches.indices_of(id).map(Iterator::collect).unwrap_or_default();
        // The arguments given, not the group clap forms of them all.
        let command = <Flags as clap::Args>::augment_args(clap::Command::new("match"));
        let given = command
            .get_arguments()
            .map(|argument| argument.get_id().as_str())
            .filter(|&id| matches.value_source(id) == Some(ValueSource::CommandLine))
            .map(str::to_owned)
            .collect();
        Ok(Args {
            given,
            engine_at: at("engines"),
            option_at: at("options"),
            name_at: at("names"),
            depth_at: at("engine_depths"),
            nodes_at: at("engine_nodes"),
            tc_at: at("engine_tcs"),
            movetime_at: at("engine_movetimes"),
            flags: Flags::from_arg_matches(matches)?,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Args::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for Args {
    fn augment_args(command: clap::Command) -> clap::Command {
        Flags::augment_args(command)
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Flags::augment_args_for_update(command)
    }
}

fn parse_games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(games) if games > 0 && games % 2 == 0 => Ok(games),
        _ => Err("expected an even number of games above 0 (each opening is played with both \
                  colours)"
            .to_owned()),
    }
}

fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    text.parse()
        .map_err(|error: arbiter_duck_match::clock::ParseTimeControlError| error.to_string())
}

fn parse_sprt(text: &str) -> Result<Sprt, String> {
    text.parse().map_err(|error: arbiter_duck_match::sprt::ParseSprtError| error.to_string())
}

fn parse_only_games(text: &str) -> Result<(u64, u64), String> {
    let numbers = text.split_once('-').and_then(|(first, last)| {
        Some((first.trim().parse::<u64>().ok()?, last.trim().parse::<u64>().ok()?))
    });
    match numbers {
        Some((first, last)) if first % 2 == 1 && last % 2 == 0 && first < last => Ok((first, last)),
        _ => Err("expected FIRST-LAST, whole pairs of games numbered from 1: FIRST odd, LAST \
                  even and larger (e.g. 5-8)"
            .to_owned()),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err("expected a number of seconds above 0 (at most a day)".to_owned()),
    }
}

/// A usage error in the form every message takes: `--FLAG: expected ..., found ...`.
fn usage(flag: &str, expected: &str, found: &str) -> CliError {
    CliError::Message(format!("{flag}: expected {expected}, found {found}"))
}

/// The error for a per-engine flag given before any `--engine`.
fn before_any(flag: &str, value: &str) -> CliError {
    let found = format!("`{flag} {value}` before any");
    usage(flag, "to follow the --engine it applies to", &found)
}

/// The engines with the options, names and limits that follow each.
fn engines(args: &Args) -> Result<Vec<EngineSpec>, CliError> {
    let flags = &args.flags;
    if flags.engines.len() < 2 {
        let found = format!("{} --engine", flags.engines.len());
        return Err(usage("--engine", "two engines (--engine CMD --engine CMD)", &found));
    }
    let mut specs = Vec::with_capacity(2);
    for command in &flags.engines {
        let spec: EngineSpec =
            command.parse().map_err(|error| CliError::Message(format!("--engine: {error}")))?;
        specs.push(spec);
    }
    // The engine an option belongs to: the last `--engine` before it.
    let owner = |at: usize| args.engine_at.iter().rposition(|&engine| engine < at);
    for (option, &at) in flags.options.iter().zip(&args.option_at) {
        let engine = owner(at).ok_or_else(|| before_any("--option", option))?;
        let Some((name, value)) = option.split_once('=').filter(|(name, _)| !name.is_empty())
        else {
            return Err(usage("--option", "NAME=VALUE", &format!("`{option}`")));
        };
        specs[engine].options.push((name.to_owned(), value.to_owned()));
    }
    for (name, &at) in flags.names.iter().zip(&args.name_at) {
        let engine = owner(at).ok_or_else(|| before_any("--name", name))?;
        if specs[engine].name.replace(name.clone()).is_some() {
            let found = format!("a second name `{name}`");
            return Err(usage("--name", "one name per engine", &found));
        }
    }
    for (&depth, &at) in flags.engine_depths.iter().zip(&args.depth_at) {
        let engine = owner(at).ok_or_else(|| before_any("--engine-depth", &depth.to_string()))?;
        specs[engine].depth = Some(depth);
    }
    for (&nodes, &at) in flags.engine_nodes.iter().zip(&args.nodes_at) {
        let engine = owner(at).ok_or_else(|| before_any("--engine-nodes", &nodes.to_string()))?;
        specs[engine].nodes = Some(nodes);
    }
    for (&tc, &at) in flags.engine_tcs.iter().zip(&args.tc_at) {
        let engine = owner(at).ok_or_else(|| before_any("--engine-tc", &tc.to_string()))?;
        specs[engine].clock = Some(tc);
    }
    for (&ms, &at) in flags.engine_movetimes.iter().zip(&args.movetime_at) {
        let engine = owner(at).ok_or_else(|| before_any("--engine-movetime", &ms.to_string()))?;
        if specs[engine].clock.is_some() {
            return Err(usage("--engine-movetime", "one time limit per engine", "--engine-tc too"));
        }
        specs[engine].clock = Some(TimeControl::MoveTime(Duration::from_millis(ms)));
    }
    Ok(specs)
}

/// Runs `--compliance CMD`: every check, one line each, and status 1 if one failed.
fn compliance(command: &str, flags: &Flags) -> Result<(), CliError> {
    let mut spec: EngineSpec =
        command.parse().map_err(|error| CliError::Message(format!("--compliance: {error}")))?;
    for option in &flags.options {
        let Some((name, value)) = option.split_once('=').filter(|(name, _)| !name.is_empty())
        else {
            return Err(usage("--option", "NAME=VALUE", &format!("`{option}`")));
        };
        spec.options.push((name.to_owned(), value.to_owned()));
    }
    let timing = Timing {
        movetime: Duration::from_millis(flags.movetime.unwrap_or(200)),
        margin: Duration::from_millis(flags.time_margin),
        timeout: Duration::from_secs_f64(flags.timeout),
    };
    let stderr = || {
        let dir = flags.save.as_ref()?;
        std::fs::create_dir_all(dir).ok()?;
        arbiter_duck_match::save::Saver::stderr_log(dir, 0, 0).ok()
    };
    let checks = arbiter_duck_match::compliance::check(&spec, stderr, &timing);
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "Compliance of `{spec}`:")?;
    for check in &checks {
        writeln!(stdout, "{check}")?;
    }
    let failed = checks.iter().filter(|check| !check.passed).count();
    if failed == 0 {
        writeln!(stdout, "{} checks, all passed", checks.len())?;
        Ok(())
    } else {
        writeln!(stdout, "{} checks, {failed} failed", checks.len())?;
        stdout.flush()?;
        Err(CliError::Findings)
    }
}

/// The file of a save directory that holds the match's own arguments, for `--resume`.
const ARGUMENTS: &str = "arguments.json";

/// The largest `arguments.json` read back: a command line is far shorter.
const MAX_ARGUMENTS: u64 = 1 << 20;

/// The largest `--openings` file: every opening is kept for the whole match.
const MAX_OPENINGS: u64 = 64 << 20;

/// The flags `--resume` takes beside it: the rest comes from the save directory.
const WITH_RESUME: [&str; 3] = ["resume", "engines", "trust_saved_engines"];

/// Runs `arbiter duck match`.
pub fn run(args: Args) -> Result<(), CliError> {
    if let Some(command) = &args.flags.compliance {
        return compliance(command, &args.flags);
    }
    match args.flags.resume.clone() {
        Some(dir) => {
            if let Some(other) = args.given.iter().find(|id| !WITH_RESUME.contains(&id.as_str())) {
                let found = format!("--{}", other.replace('_', "-"));
                return Err(usage(
                    "--resume",
                    "no other flag than --engine and --trust-saved-engines (the match's own \
                     come from its directory)",
                    &found,
                ));
            }
            let saved = saved_arguments(&dir)?;
            let command = <Args as clap::Args>::augment_args(clap::Command::new("match"));
            let matches = command
                .try_get_matches_from(std::iter::once("match".to_owned()).chain(saved))
                .and_then(|matches| Args::from_arg_matches(&matches))
                .map_err(|error| {
                    let file = dir.join(ARGUMENTS);
                    CliError::Message(format!("{}: {}", file.display(), error.kind()))
                })?;
            confirm_engines(&dir, &matches.flags.engines, &args.flags)?;
            play(matches, Some(dir))
        }
        None => play(args, None),
    }
}

/// Lets the engine commands `saved` in `dir` run only when the user confirmed them: given again
/// with `--engine` in `flags`, or `--trust-saved-engines`, or a yes typed on a terminal. A save
/// directory comes from anyone: its commands are never run on its word alone.
fn confirm_engines(dir: &Path, saved: &[String], flags: &Flags) -> Result<(), CliError> {
    if flags.trust_saved_engines || (!flags.engines.is_empty() && flags.engines == saved) {
        return Ok(());
    }
    let file = dir.join(ARGUMENTS);
    let mut listed = String::new();
    for (number, command) in saved.iter().enumerate() {
        listed.push_str(&format!("\n  {}. {command}", number + 1));
    }
    if !flags.engines.is_empty() {
        return Err(CliError::Message(format!(
            "--engine: expected the engines of the saved match, in the same order, found other \
             ones; {} names:{listed}",
            file.display()
        )));
    }
    let terminal = io::stdin().is_terminal() && io::stderr().is_terminal();
    if terminal {
        eprint!("{} runs these engine commands:{listed}\nRun them? [y/N] ", file.display());
        let mut answer = String::new();
        io::stdin().lock().take(64).read_line(&mut answer)?;
        if matches!(answer.trim(), "y" | "Y" | "yes") {
            return Ok(());
        }
    }
    let again: String = saved.iter().map(|command| format!(" --engine '{command}'")).collect();
    Err(CliError::Message(format!(
        "{} would run these engine commands:{listed}\na save directory may come from anyone, so \
         they run only once confirmed: give them again (`--resume {}{again}`) or add \
         --trust-saved-engines",
        file.display(),
        dir.display()
    )))
}

/// The arguments a match saved in `dir` was started with.
fn saved_arguments(dir: &Path) -> Result<Vec<String>, CliError> {
    let file = dir.join(ARGUMENTS);
    let bytes = arbiter_duck_match::save::read_in(dir, ARGUMENTS, MAX_ARGUMENTS)
        .map_err(|error| CliError::Read { source_name: file.display().to_string(), error })?;
    serde_json::from_slice(&bytes).map_err(|error| {
        CliError::Message(format!("{}: expected a JSON list of arguments: {error}", file.display()))
    })
}

/// The games of the whole match: `--games` for each pairing of its engines.
fn total_games(flags: &Flags, engines: usize) -> u64 {
    let schedule = if flags.gauntlet { Schedule::Gauntlet } else { Schedule::RoundRobin };
    flags.games * schedule.pairings(engines).len() as u64
}

/// The warning a timed match deserves on this machine's load (`/proc/loadavg`, or the file
/// `ARBITER_LOADAVG` names, which tests use to set the figure), if any.
fn load_warning(concurrency: usize) -> Option<String> {
    let path = std::env::var_os("ARBITER_LOADAVG").unwrap_or_else(|| "/proc/loadavg".into());
    // A line of a few numbers: the first bytes are enough, whatever the variable names.
    let mut loadavg = String::new();
    std::fs::File::open(path).ok()?.take(4096).read_to_string(&mut loadavg).ok()?;
    machine::load_warning(&loadavg, machine::cores().len(), concurrency)
}

/// The arguments after `duck match` on this command line, which `--resume` starts again with.
fn own_arguments() -> Vec<String> {
    let all: Vec<String> = std::env::args().collect();
    let at = all.windows(2).position(|pair| pair[0] == "duck" && pair[1] == "match");
    at.map(|at| all[at + 2..].to_vec()).unwrap_or_default()
}

/// Plays the match of `args`, going on with the one saved in `resume` if given.
fn play(args: Args, resume: Option<PathBuf>) -> Result<(), CliError> {
    let engines = engines(&args)?;
    let flags = args.flags;
    let openings = match (&flags.openings, flags.random_openings) {
        (Some(path), _) => {
            // A resumed match's file is named by its directory: only a regular file is read
            // then (no FIFO to wait on), where a user's own command line may give a pipe.
            if resume.is_some() {
                arbiter_duck_engine::file::open(path).map_err(|error| CliError::Read {
                    source_name: path.display().to_string(),
                    error,
                })?;
            }
            // Every opening is kept for the whole match, so the file is read whole, within a
            // bound.
            let input = Opened::open(Some(path))?;
            let mut bytes = Vec::new();
            (&input.file)
                .take(MAX_OPENINGS + 1)
                .read_to_end(&mut bytes)
                .map_err(|error| CliError::Read { source_name: input.name.clone(), error })?;
            if bytes.len() as u64 > MAX_OPENINGS {
                return Err(CliError::Message(format!(
                    "{}: expected at most {MAX_OPENINGS} bytes of openings, found more",
                    input.name
                )));
            }
            let text = String::from_utf8_lossy(&bytes);
            let mut openings = parse_openings(&text).map_err(|error| input.error(error))?;
            let name = &input.name;
            if openings.is_empty() {
                return Err(CliError::Message(format!(
                    "{name}:1:1: expected at least one opening, found none"
                )));
            }
            let skip = usize::try_from(flags.opening_start - 1).unwrap_or(usize::MAX);
            if skip >= openings.len() {
                return Err(CliError::Message(format!(
                    "--opening-start {}: {name} has {} opening(s)",
                    flags.opening_start,
                    openings.len()
                )));
            }
            // The ones skipped come last, for a match that needs more than the rest.
            openings.rotate_left(skip);
            Openings::List(openings)
        }
        (None, Some(plies)) => Openings::Random { plies, seed: flags.seed },
        (None, None) => Openings::Start,
    };
    let mut clock =
        flags.tc.or(flags.movetime.map(|ms| TimeControl::MoveTime(Duration::from_millis(ms))));
    if clock.is_none() && flags.depth.is_none() && flags.nodes.is_none() {
        // Without a time limit every engine needs a depth or node limit of its own.
        let unlimited =
            |e: &&EngineSpec| e.depth.is_none() && e.nodes.is_none() && e.clock.is_none();
        match engines.iter().filter(unlimited).count() {
            0 => {}
            missing if missing == engines.len() => {
                clock = Some(TimeControl::MoveTime(Duration::from_millis(100)));
            }
            1 if engines.len() == 2 => {
                let found = "one engine without any limit";
                return Err(usage("--engine-depth", "a limit for both engines", found));
            }
            missing => {
                let found = format!("{missing} engines without any limit");
                return Err(usage("--engine-depth", "a limit for every engine", &found));
            }
        }
    }
    let limits = Limits {
        clock,
        depth: flags.depth,
        nodes: flags.nodes,
        margin: Duration::from_millis(flags.time_margin),
        timeout: Duration::from_secs_f64(flags.timeout),
    };
    if let Some((first, last)) = flags.only_games
        && last > total_games(&flags, engines.len())
    {
        let found = format!("{first}-{last}");
        let expected = format!("games within the match's {}", total_games(&flags, engines.len()));
        return Err(usage("--only-games", &expected, &found));
    }
    if engines.len() > 2 && flags.sprt.is_some() {
        let found = format!("{} engines", engines.len());
        return Err(usage("--sprt", "two engines (the test compares two)", &found));
    }
    // Said once the engines have started, with what the runner has to say about them.
    let mut machine_warnings = Vec::new();
    let timed = clock.is_some() || engines.iter().any(|engine| engine.clock.is_some());
    if timed && let Some(warning) = load_warning(usize::from(flags.concurrency)) {
        machine_warnings.push(warning);
    }
    if flags.affinity {
        let cores = machine::cores();
        let processes = engines.len() * usize::from(flags.concurrency);
        if processes > cores.len() {
            machine_warnings.push(format!(
                "--affinity: {processes} engine processes on {} cores: some share a core",
                cores.len()
            ));
        }
    }
    let schedule = if flags.gauntlet { Schedule::Gauntlet } else { Schedule::RoundRobin };
    let total = flags.games * schedule.pairings(engines.len()).len() as u64;
    let config = MatchConfig {
        engines,
        schedule,
        games: flags.games,
        openings,
        limits,
        max_plies: flags.max_plies,
        adjudication: Adjudication {
            resign: flags
                .resign_score
                .zip(flags.resign_moves)
                .map(|(score, moves)| ResignRule { score, moves }),
            draw: flags.draw_score.zip(flags.draw_moves).map(|(score, moves)| DrawRule {
                score,
                moves,
                after: flags.draw_after,
            }),
        },
        concurrency: usize::from(flags.concurrency),
        sprt: flags.sprt,
        affinity: flags.affinity,
        save: resume.clone().or(flags.save),
        resume: resume.is_some(),
        only: flags.only_games.map(|(first, last)| first..last + 1),
    };
    if let (Some(dir), None) = (&config.save, &resume) {
        // A new match would start its results file afresh: the games of the one saved there
        // would be lost.
        if dir.join(arbiter_duck_match::save::RESULTS).exists() {
            return Err(CliError::Message(format!(
                "{} already holds a match ({}): `--resume {0}` goes on with it; a new match \
                 needs a directory of its own",
                dir.display(),
                arbiter_duck_match::save::RESULTS
            )));
        }
        // What `--resume DIR` needs to start the same match again.
        let arguments = serde_json::to_string(&own_arguments()).unwrap_or_default() + "\n";
        std::fs::create_dir_all(dir)
            .and_then(|()| arbiter_duck_match::save::write_in(dir, ARGUMENTS, arguments.as_bytes()))
            .map_err(|error| {
                CliError::Message(format!("cannot save to {}: {error}", dir.display()))
            })?;
    }
    let progress = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} {msg}")
            .map_err(|error| CliError::Message(error.to_string()))?
            .progress_chars("=> ");
        bar.set_style(style);
        Some(bar)
    } else {
        None
    };
    let mut stdout = io::stdout().lock();
    let mut written = Ok(());
    let result = arbiter_duck_match::run_all(&config, |event| match event {
        Event::Ready { names, warnings } => {
            for warning in machine_warnings.iter().chain(warnings) {
                let line = format!("warning: {warning}");
                match &progress {
                    Some(bar) => bar.println(line),
                    None => eprintln!("{line}"),
                }
            }
            if let Some(bar) = &progress {
                bar.set_message(names.join(" vs "));
            }
        }
        Event::Finished { game, line, report } => {
            if flags.json && written.is_ok() {
                written = writeln!(stdout, "{}", line.to_json()).and_then(|()| stdout.flush());
            }
            match &progress {
                Some(bar) => {
                    bar.inc(1);
                    bar.set_message(report.status());
                }
                None => eprintln!(
                    "game {} of {}: {} (red) vs {} (blue): {}, {} plies; {}",
                    game.number,
                    total,
                    line.red,
                    line.blue,
                    game.record.result,
                    line.plies,
                    report.status()
                ),
            }
        }
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    written?;
    let standings = result.map_err(|error| CliError::Message(error.to_string()))?;
    // Two engines: the report of their one pairing, as it always was.
    match (standings.pairings.as_slice(), flags.json) {
        ([report], true) => writeln!(stdout, "{}", report.to_json())?,
        ([report], false) => write!(stdout, "{report}")?,
        (_, true) => writeln!(stdout, "{}", standings.to_json())?,
        (_, false) => write!(stdout, "{standings}")?,
    }
    stdout.flush()?;
    Ok(())
}
