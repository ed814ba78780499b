//! `arbiter <game> gen|test|check`: the contestant tools of `arbiter-contest` on the command line.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use arbiter_arena::rules::{Rules, RulesError};
use arbiter_contest::check::{self, Unusable};
use arbiter_contest::count;
use arbiter_contest::runner::Program;
use arbiter_contest::setup::Setup;
use arbiter_contest::stress::{self, Judgement, Kind, Settings};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::CliError;

/// A game's own options on the command line.
pub trait OptionArgs: Sized {
    /// The arguments that give them.
    type Args: clap::Args + clap::FromArgMatches + Clone + std::fmt::Debug + Send + Sync + 'static;
    /// The options the arguments give.
    fn from_args(args: &Self::Args) -> Self;
    /// The arguments again, as words to append to a command line (` --rules ...`).
    fn words(&self) -> String;
}

/// No options of a game's own.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct NoOptions {}

impl OptionArgs for () {
    type Args = NoOptions;

    fn from_args(_: &NoOptions) {}

    fn words(&self) -> String {
        String::new()
    }
}

/// The arena's `--rules`, as for `arbiter arena`.
#[derive(Debug, Clone, clap::Args)]
pub struct RulesOption {
    /// Rule reading that answers: `official` (default) or `statement`, then `,+NAME` / `,-NAME`
    /// switches, as for `arbiter arena`.
    #[arg(long, value_name = "RULES", default_value = "official", value_parser = parse_rules)]
    rules: Rules,
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse().map_err(|error: RulesError| error.to_string())
}

impl OptionArgs for Rules {
    type Args = RulesOption;

    fn from_args(args: &RulesOption) -> Rules {
        args.rules
    }

    fn words(&self) -> String {
        format!(" --rules {self}")
    }
}

/// The arguments of game `G`'s own options.
type ArgsOf<G> = <<G as Setup>::Options as OptionArgs>::Args;

/// The three contest subcommands of a game.
#[derive(Debug, clap::Subcommand)]
pub enum Command<G: Setup<Options: OptionArgs>> {
    /// Print one random valid input, the same for the same seed; profiles aim at the corners of
    /// the rules (listed under --profile).
    Gen(GenArgs<G>),
    /// Run PROGRAM on generated inputs (standard input to standard output), in parallel, with a
    /// time limit; compare with arbiter's answer token by token; shrink the first failing input
    /// and explain the right answer. Exit status 0 all passed, 1 a failure, 2 usage errors or a
    /// PROGRAM that cannot be started.
    Test(TestArgs<G>),
    /// A checker with testlib's interface: `check INPUT OUTPUT [ANSWER]`. Exit status 0 accepted,
    /// 1 wrong answer, 2 presentation error, 3 failure (e.g. an unreadable or malformed INPUT, an
    /// ANSWER that is not arbiter's answer); one line on standard error in testlib's words.
    Check(CheckArgs<G>),
}

/// What to generate.
#[derive(Debug, Clone, clap::Args)]
pub struct Choice<G: Setup<Options: OptionArgs>> {
    /// Which corners of the rules the inputs aim at.
    #[arg(long, value_name = "PROFILE", default_value = "mixed", value_parser = profile_parser::<G>())]
    profile: G::Profile,
    #[arg(long, value_name = G::SIZE_NAME, help = G::SIZE_HELP, value_parser = parse_size::<G>)]
    size: Option<G::Size>,
    #[command(flatten)]
    extra: ArgsOf<G>,
}

impl<G: Setup<Options: OptionArgs>> Choice<G> {
    /// The problem chosen.
    fn problem(&self) -> G {
        G::choose(self.profile, self.size, &G::Options::from_args(&self.extra))
    }
}

/// The `--profile` parser: the game's names, each with its description in `--help`.
fn profile_parser<G: Setup<Options: OptionArgs>>() -> impl TypedValueParser<Value = G::Profile> {
    let values: Vec<PossibleValue> =
        G::PROFILES.iter().map(|(_, name, help)| PossibleValue::new(name).help(help)).collect();
    PossibleValuesParser::new(values).try_map(|name: String| {
        G::PROFILES
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|&(profile, _, _)| profile)
            .ok_or_else(|| format!("unknown profile `{name}`"))
    })
}

fn parse_size<G: Setup<Options: OptionArgs>>(text: &str) -> Result<G::Size, String> {
    text.parse().map_err(|e: <G::Size as FromStr>::Err| e.to_string())
}

/// Arguments of `gen`.
#[derive(Debug, Clone, clap::Args)]
pub struct GenArgs<G: Setup<Options: OptionArgs>> {
    #[command(flatten)]
    choice: Choice<G>,
    /// Seed; the same seed and profile always give the same input. Drawn at random (and said on
    /// standard error) when absent.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
}

/// Arguments of `test`.
#[derive(Debug, Clone, clap::Args)]
pub struct TestArgs<G: Setup<Options: OptionArgs>> {
    #[command(flatten)]
    choice: Choice<G>,
    /// How many cases to run at most.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    cases: u64,
    /// Seed of the run (case i has its own seed, derived from it). Drawn at random when absent;
    /// the report says which.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Time limit of one run, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    time_limit: u64,
    /// Runs at a time [default: the number of cores].
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Memory limit of one run, in MiB of peak resident memory (memory limit exceeded past it);
    /// the program's address space is also limited to four times it and 256 MiB more.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    memory_limit: Option<u64>,
    /// Write the shrunk failing case to DIR/failing.in, arbiter's answer to DIR/expected.ans and
    /// the program's output to DIR/got.out.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Report as one JSON object on standard output instead of text.
    #[arg(long)]
    json: bool,
    /// The program to test and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    program: Vec<OsString>,
}

/// Arguments of `check`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs<G: Setup<Options: OptionArgs>> {
    #[command(flatten)]
    extra: ArgsOf<G>,
    /// INPUT OUTPUT [ANSWER]: the test's input, the program's output, and optionally the
    /// problem's reference answer (checked to be arbiter's). `-` reads standard input.
    #[arg(value_names = ["INPUT", "OUTPUT", "ANSWER"], num_args = 0.., allow_hyphen_values = true)]
    files: Vec<PathBuf>,
}

/// Runs a contest subcommand of game `G`.
pub fn run<G: Setup<Options: OptionArgs>>(command: Command<G>) -> Result<(), CliError> {
    match command {
        Command::Gen(args) => generate::<G>(args),
        Command::Test(args) => test::<G>(args),
        Command::Check(args) => checker::<G>(args),
    }
}

/// A seed nobody chose: the clock and the process id, mixed.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    arbiter_contest::rng::case_seed(nanos, u64::from(std::process::id())) % 1_000_000_000
}

fn generate<G: Setup<Options: OptionArgs>>(args: GenArgs<G>) -> Result<(), CliError> {
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed {seed}");
        seed
    });
    let problem = args.choice.problem();
    let mut bar = GenBar::new();
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = problem.write_generated(seed, &mut stdout, &mut |done, total| {
        bar.show(done, total, G::UNIT);
    });
    bar.clear();
    written?;
    stdout.flush()?;
    Ok(())
}

/// The progress of a long `gen` on a terminal: shown only once a run has taken half a second,
/// so that the usual small inputs print nothing on standard error.
struct GenBar {
    start: Instant,
    bar: Option<ProgressBar>,
    terminal: bool,
}

impl GenBar {
    fn new() -> GenBar {
        GenBar { start: Instant::now(), bar: None, terminal: io::stderr().is_terminal() }
    }

    fn show(&mut self, done: u64, total: u64, unit: &str) {
        if !self.terminal || self.start.elapsed() < Duration::from_millis(500) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::new(total);
            if let Ok(style) =
                ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent}% {msg}")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(format!("{unit} written"));
            bar
        });
        bar.set_length(total);
        bar.set_position(done);
    }

    fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn test<G: Setup<Options: OptionArgs>>(args: TestArgs<G>) -> Result<(), CliError> {
    let game = G::NAME;
    let program = Program::new(args.program.iter().cloned())
        .map_err(|e| CliError::Message(format!("arbiter {game} test: {e}")))?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let settings = Settings {
        cases: args.cases,
        seed,
        time_limit: Duration::from_millis(args.time_limit),
        jobs,
        memory_limit: args.memory_limit.map(|mib| mib << 20),
    };
    let choice = &args.choice;
    let problem = choice.problem();
    let bar = Bar::new(args.cases, G::UNIT);
    let start = Instant::now();
    let report = stress::stress(&problem, &program, &settings, &bar).map_err(|e| {
        bar.clear();
        CliError::Message(format!("arbiter {game} test: {}: {e}", program.path().display()))
    })?;
    bar.clear();
    let seconds = start.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if args.json {
        let saved = match (&args.save, &report.failure) {
            (Some(dir), Some(failure)) => Some(save(dir, failure)?),
            _ => None,
        };
        let object = json_report::<G>(&problem, &report, &args, seed, saved.as_deref());
        writeln!(out, "{object}")?;
        out.flush()?;
        return if report.failure.is_some() { Err(CliError::Findings) } else { Ok(()) };
    }
    let Some(failure) = report.failure else {
        writeln!(
            out,
            "all {} passed (seed {seed}, profile {}, {seconds:.1} s, {:.0} cases/s)",
            count(report.cases as usize, "cases"),
            choice.profile,
            report.cases as f64 / seconds.max(1e-9)
        )?;
        return Ok(());
    };
    let saved = match &args.save {
        Some(dir) => Some(save(dir, &failure)?),
        None => None,
    };
    let text = failure_report::<G>(&problem, &failure, &args, seed, saved.as_deref());
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Err(CliError::Findings)
}

/// The report as one JSON object: `{"game", "seed", "profile", "cases", "passed", "failure"}`,
/// the failure with its case number and seed, verdict, sizes, input, expected and got lines,
/// explanation and the program's output and standard error.
fn json_report<G: Setup<Options: OptionArgs>>(
    problem: &G,
    report: &stress::TestRun<G::Case>,
    args: &TestArgs<G>,
    seed: u64,
    saved: Option<&Path>,
) -> serde_json::Value {
    let failure = report.failure.as_ref().map(|failure| {
        let (line, expected, got) = match &failure.judgement {
            Judgement::WrongAnswer(d) => (Some(d.line), d.expected.clone(), d.got.clone()),
            _ => (None, None, None),
        };
        let explanation = failure.explanation.as_ref().map(|e| {
            serde_json::json!({
                "line": e.place.map(|p| p.line),
                "column": e.place.map(|p| p.column),
                "what": e.what,
                "why": e.why,
                "context": e.context,
            })
        });
        let exit = match failure.judgement {
            Judgement::RuntimeError(status) => Some(exit_words(status)),
            _ => None,
        };
        serde_json::json!({
            "case": failure.case,
            "case_seed": failure.case_seed,
            "verdict": failure.judgement.kind().to_string(),
            "size_before": problem.size(&failure.original),
            "size": problem.size(&failure.shrunk),
            "tries": failure.tries,
            "reproduced": failure.reproduced,
            "input": failure.input,
            "expected_output": failure.expected,
            "output": String::from_utf8_lossy(&failure.output),
            "errors": String::from_utf8_lossy(&failure.errors),
            "exit": exit,
            "time_ms": failure.elapsed.as_millis() as u64,
            "peak_memory_kib": failure.peak_memory.map(|bytes| bytes / 1024),
            "line": line,
            "expected": expected,
            "got": got,
            "explanation": explanation,
            "saved": saved.map(|p| p.display().to_string()),
        })
    });
    serde_json::json!({
        "game": G::NAME,
        "seed": seed,
        "profile": args.choice.profile.to_string(),
        "cases": report.cases,
        "passed": failure.is_none(),
        "failure": failure,
    })
}

/// Writes the three files of `--save`; the path of the input file.
fn save<C>(dir: &Path, failure: &stress::Failure<C>) -> Result<PathBuf, CliError> {
    let write = |name: &str, bytes: &[u8]| -> Result<PathBuf, CliError> {
        let path = dir.join(name);
        std::fs::write(&path, bytes)
            .map_err(|e| CliError::Message(format!("{}: cannot write: {e}", path.display())))?;
        Ok(path)
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::Message(format!("{}: cannot create: {e}", dir.display())))?;
    let input = write("failing.in", failure.input.as_bytes())?;
    write("expected.ans", failure.expected.as_bytes())?;
    write("got.out", &failure.output)?;
    Ok(input)
}

/// Shows at most this many lines of an input, an answer or standard error.
const SHOWN_LINES: usize = 40;

/// The report of a failure, as printed on standard output.
fn failure_report<G: Setup<Options: OptionArgs>>(
    problem: &G,
    failure: &stress::Failure<G::Case>,
    args: &TestArgs<G>,
    seed: u64,
    saved: Option<&Path>,
) -> String {
    let game = G::NAME;
    let unit = G::UNIT;
    let mut text = String::new();
    let kind = failure.judgement.kind();
    let _ = writeln!(text, "case {} of {} failed: {kind}", failure.case, args.cases);
    let mut generate = format!(
        "arbiter {game} gen --profile {} --seed {}",
        args.choice.profile, failure.case_seed
    );
    generate.push_str(&G::Options::from_args(&args.choice.extra).words());
    if let Some(size) = &args.choice.size {
        let _ = write!(generate, " --size {size}");
    }
    let _ = writeln!(text, "  run seed {seed}; `{generate}` prints the case as generated");
    let (before, after) = (problem.size(&failure.original), problem.size(&failure.shrunk));
    if !failure.reproduced {
        let _ = writeln!(
            text,
            "  shrunk to {}, but that case passed when run again (does the program behave the same on every run?): shown as generated",
            count(after, unit)
        );
    } else if before == after {
        let _ = writeln!(
            text,
            "  shrinking kept all {} ({}): removing {} makes the failure disappear",
            count(before, unit),
            count(failure.tries as usize, "tries"),
            G::MINIMAL
        );
    } else {
        let _ = writeln!(
            text,
            "  shrunk from {} to {} in {}: removing {} makes the failure disappear",
            count(before, unit),
            count(after, unit),
            count(failure.tries as usize, "tries"),
            G::MINIMAL
        );
    }
    let name = saved.map_or_else(|| "input".to_owned(), |p| p.display().to_string());
    let _ = writeln!(text, "\n{name} ({}):", count(problem.size(&failure.shrunk), unit));
    shown_lines(&mut text, &failure.input);
    match &failure.judgement {
        Judgement::WrongAnswer(difference) => {
            let _ = writeln!(text, "\nline {} differs:", difference.line);
            let _ = writeln!(
                text,
                "  expected: {}",
                difference.expected.as_deref().unwrap_or("(the end of the output)")
            );
            let got = difference.got.as_deref().map_or_else(
                || "(the end of the output)".to_owned(),
                |l| arbiter_scan::Shown(l).to_string(),
            );
            let _ = writeln!(text, "  got:      {got}");
            if let Some(explanation) = &failure.explanation {
                text.push('\n');
                for line in &explanation.context {
                    let _ = writeln!(text, "{line}");
                }
                match explanation.place {
                    Some(place) => {
                        let _ = writeln!(
                            text,
                            "{name}:{place}: {}: {}",
                            explanation.what, explanation.why
                        );
                    }
                    None => {
                        let _ = writeln!(text, "{name}: {}: {}", explanation.what, explanation.why);
                    }
                }
            }
        }
        Judgement::TimeLimit => {
            let _ = writeln!(
                text,
                "\nthe program ran past the time limit of {} ms and was killed",
                args.time_limit
            );
        }
        Judgement::OutputLimit(bytes) => {
            let _ = writeln!(
                text,
                "\nthe program wrote more than {bytes} bytes (twice arbiter's answer and 64 KiB) and was killed"
            );
        }
        Judgement::RuntimeError(status) => {
            let _ = writeln!(text, "\nthe program {}", exit_words(*status));
        }
        Judgement::MemoryLimit(peak) => {
            let _ = writeln!(
                text,
                "\nthe program's peak resident memory was {:.1} MiB, past the limit of {} MiB",
                *peak as f64 / f64::from(1 << 20),
                args.memory_limit.unwrap_or(0)
            );
        }
        Judgement::Accepted => {}
    }
    if kind != Kind::WrongAnswer && !failure.errors.is_empty() {
        let _ = writeln!(text, "\nits standard error:");
        shown_lines(&mut text, &String::from_utf8_lossy(&failure.errors));
    }
    if saved.is_none() {
        let _ = writeln!(
            text,
            "\n(--save DIR writes the input, arbiter's answer and the program's output to files)"
        );
    }
    text
}

/// `exited with status 3`, `was killed by signal 11 (SIGSEGV)`.
fn exit_words(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => {
            let name = match signal {
                6 => " (SIGABRT)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                13 => " (SIGPIPE)",
                _ => "",
            };
            format!("was killed by signal {signal}{name}")
        }
        (None, None) => "ended abnormally".to_owned(),
    }
}

/// Appends `body`'s lines indented, at most [`SHOWN_LINES`] of them.
fn shown_lines(text: &mut String, body: &str) {
    let total = body.lines().count();
    for line in body.lines().take(SHOWN_LINES) {
        let _ = writeln!(text, "  {line}");
    }
    if total > SHOWN_LINES {
        let _ = writeln!(text, "  ... ({} more)", count(total - SHOWN_LINES, "lines"));
    }
}

/// The progress bar of `test` on a terminal, nothing elsewhere.
struct Bar {
    bar: Option<ProgressBar>,
    /// What a case's size counts.
    unit: &'static str,
}

impl Bar {
    fn new(cases: u64, unit: &'static str) -> Bar {
        if !io::stderr().is_terminal() {
            return Bar { bar: None, unit };
        }
        let bar = ProgressBar::new(cases);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} cases, {per_sec} {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Bar { bar: Some(bar), unit }
    }

    fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl stress::Progress for Bar {
    fn case_done(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn failed(&self, case: u64, kind: Kind) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("case {case}: {kind}; shrinking"));
        }
    }

    fn shrinking(&self, runs: u64, size: Option<usize>) {
        if let Some(bar) = &self.bar {
            match size {
                Some(size) => bar
                    .set_message(format!("shrinking: {runs} runs, now {}", count(size, self.unit))),
                None => bar.set_message(format!("shrinking: {runs} runs")),
            }
        }
    }
}

/// The largest INPUT the checker reads: the largest test the statements allow is about 0.5 MiB
/// (the arena at T = 20, N = M = 100, K = 200, R = 1000); eight times that keeps the answer and
/// the checker's memory within tens of MiB whatever the file holds.
const INPUT_LIMIT: u64 = 4 << 20;

/// Opens one of the checker's files (`-` is standard input) and drops a UTF-8 byte-order mark
/// at its start, as every command of arbiter drops it from its input: an answer saved by an
/// editor that writes one is still the same answer.
fn open(path: &Path) -> io::Result<impl Read> {
    let mut reader: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin())
    } else {
        Box::new(std::fs::File::open(path)?)
    };
    let mut start = [0u8; BOM.len()];
    let mut filled = 0;
    while filled < start.len() {
        match reader.read(&mut start[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let skip = if start[..filled] == *BOM { filled } else { 0 };
    let mut head = io::Cursor::new(start);
    head.set_position(skip as u64);
    Ok(head.take((filled - skip) as u64).chain(reader))
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why INPUT cannot be read.
#[derive(Debug, thiserror::Error)]
enum InputReadError {
    #[error("cannot read: {0}")]
    Io(#[from] io::Error),
    #[error("larger than {} MiB, beyond any test of the problem", INPUT_LIMIT >> 20)]
    TooLarge,
}

/// Reads INPUT whole (the judges answer a text), refusing one beyond [`INPUT_LIMIT`].
fn read_input(path: &Path) -> Result<String, InputReadError> {
    let mut bytes = Vec::new();
    open(path)?.take(INPUT_LIMIT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > INPUT_LIMIT {
        return Err(InputReadError::TooLarge);
    }
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
}

fn checker<G: Setup<Options: OptionArgs>>(args: CheckArgs<G>) -> Result<(), CliError> {
    let verdict = check_files::<G>(&args);
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{verdict}");
    let _ = stderr.flush();
    let _ = io::stdout().flush();
    // testlib's exit codes, which the other commands' error path (status 2) cannot give.
    std::process::exit(i32::from(verdict.exit_code()));
}

fn check_files<G: Setup<Options: OptionArgs>>(args: &CheckArgs<G>) -> check::Ruling {
    let unusable = |message: String| check::Ruling::Failure(Unusable::Files(message));
    let [input, output, answer @ ..] = &args.files[..] else {
        return unusable(format!(
            "expected INPUT OUTPUT [ANSWER], found {}",
            count(args.files.len(), "files")
        ));
    };
    if answer.len() > 1 {
        return unusable(format!(
            "expected INPUT OUTPUT [ANSWER], found {} files",
            args.files.len()
        ));
    }
    let input_name =
        if input == Path::new("-") { "<stdin>".to_owned() } else { input.display().to_string() };
    let input_text = match read_input(input) {
        Ok(text) => text,
        Err(error) => return unusable(format!("INPUT {input_name}: {error}")),
    };
    // A missing OUTPUT is the contestant's (no output written); any other failure to read it is
    // the machine's.
    let output_name = output.display();
    let output_stream = match open(output) {
        Ok(stream) => stream,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return check::Ruling::PresentationError(format!(
                "OUTPUT {output_name}: cannot read: {error}"
            ));
        }
        Err(error) => return unusable(format!("OUTPUT {output_name}: cannot read: {error}")),
    };
    let answer_name = answer.first().map_or_else(String::new, |p| p.display().to_string());
    let answer_stream = match answer.first().map(|path| open(path)).transpose() {
        Ok(stream) => stream,
        Err(error) => return unusable(format!("ANSWER {answer_name}: cannot read: {error}")),
    };
    let problem = G::for_check(&G::Options::from_args(&args.extra));
    match check::check_streams(&problem, &input_text, output_stream, answer_stream) {
        // The input is named as the command line gave it.
        Ok(check::Ruling::Failure(Unusable::Input(error))) => {
            unusable(format!("INPUT {input_name}:{error}"))
        }
        Ok(ruling) => ruling,
        Err(check::Unreadable::Output(error)) => {
            unusable(format!("OUTPUT {output_name}: cannot read: {error}"))
        }
        Err(check::Unreadable::Answer(error)) => {
            unusable(format!("ANSWER {answer_name}: cannot read: {error}"))
        }
    }
}
