//! The test loop: generated inputs through a program, in parallel, until the first failure, which
//! is then shrunk and explained.
//!
//! ```
//! use std::time::Duration;
//! use arbiter_contest::duck::{DuckProblem, DuckProfile};
//! use arbiter_contest::runner::Program;
//! use arbiter_contest::stress::{Kind, Settings, stress};
//!
//! // A "solution" that says every command is invalid.
//! let program = Program::new(["sh".into(), "-c".into(), "read q; yes 'Invalid command' | head -n $q".into()]).unwrap();
//! let settings = Settings {
//!     cases: 20,
//!     seed: 1,
//!     time_limit: Duration::from_secs(10),
//!     jobs: 2,
//!     memory_limit: None,
//! };
//! let report = stress(&DuckProblem::new(DuckProfile::Short, None), &program, &settings, &()).unwrap();
//! let failure = report.failure.unwrap();
//! assert_eq!(failure.judgement.kind(), Kind::WrongAnswer);
//! // One valid first move is all it takes.
//! assert_eq!(failure.shrunk.commands.len(), 1);
//! ```

use std::io;
use std::process::ExitStatus;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::compare::{Difference, compare, output_bound};
use crate::problem::{Explanation, Problem};
use crate::rng::case_seed;
use crate::runner::{self, Limits, Outcome, Program, Termination};
use crate::shrink::Oracle;

/// How to test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// How many cases to run at most.
    pub cases: u64,
    /// The seed of the whole run; case `i` has seed `case_seed(seed, i)`.
    pub seed: u64,
    /// The time limit of one run.
    pub time_limit: Duration,
    /// How many runs at a time.
    pub jobs: usize,
    /// The peak resident memory of one run, in bytes; `None` for no limit.
    pub memory_limit: Option<u64>,
}

/// A verdict without its details: what must stay the same while a case is shrunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The output holds arbiter's answer.
    Accepted,
    /// The output differs from the answer.
    WrongAnswer,
    /// The program ran past the time limit.
    TimeLimit,
    /// The program exited with a non-zero status or was killed by a signal.
    RuntimeError,
    /// The program wrote more than any answer could be.
    OutputLimit,
    /// The program's peak resident memory passed the memory limit.
    MemoryLimit,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Accepted => "accepted",
            Kind::WrongAnswer => "wrong answer",
            Kind::TimeLimit => "time limit exceeded",
            Kind::RuntimeError => "runtime error",
            Kind::OutputLimit => "output limit exceeded",
            Kind::MemoryLimit => "memory limit exceeded",
        })
    }
}

/// The verdict on one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// The output holds arbiter's answer.
    Accepted,
    /// The output differs here.
    WrongAnswer(Difference),
    /// Killed at the time limit.
    TimeLimit,
    /// Exited with this status (non-zero, or a signal).
    RuntimeError(ExitStatus),
    /// Killed after writing more than this many bytes ([`output_bound`] of the answer).
    OutputLimit(u64),
    /// Its peak resident memory, in bytes, passed the limit.
    MemoryLimit(u64),
}

impl Judgement {
    /// The judgement of a run that gave `outcome` and `output` where `expected` was due.
    pub fn of(expected: &str, outcome: &Outcome, output: &[u8]) -> Judgement {
        match outcome.termination {
            Termination::TimedOut => Judgement::TimeLimit,
            Termination::OutputLimit => Judgement::OutputLimit(output_bound(expected)),
            Termination::MemoryLimit => Judgement::MemoryLimit(outcome.peak_memory.unwrap_or(0)),
            Termination::Exited(status) if !status.success() => Judgement::RuntimeError(status),
            Termination::Exited(_) => match compare(expected, output) {
                None => Judgement::Accepted,
                Some(difference) => Judgement::WrongAnswer(difference),
            },
        }
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Judgement::Accepted => Kind::Accepted,
            Judgement::WrongAnswer(_) => Kind::WrongAnswer,
            Judgement::TimeLimit => Kind::TimeLimit,
            Judgement::RuntimeError(_) => Kind::RuntimeError,
            Judgement::OutputLimit(_) => Kind::OutputLimit,
            Judgement::MemoryLimit(_) => Kind::MemoryLimit,
        }
    }
}

/// The first failing case, before and after shrinking.
#[derive(Debug, Clone)]
pub struct Failure<C> {
    /// Its number, from 1.
    pub case: u64,
    /// Its own seed (the one `gen --seed` takes to print it again).
    pub case_seed: u64,
    /// The case as generated.
    pub original: C,
    /// The case after shrinking.
    pub shrunk: C,
    /// Candidates tried while shrinking, counted as a search one at a time would try them (a
    /// parallel search starts a few more), so that the count is the same on any machine.
    pub tries: u64,
    /// The input text of the shrunk case.
    pub input: String,
    /// arbiter's answer to it.
    pub expected: String,
    /// The program's output on it.
    pub output: Vec<u8>,
    /// The start of the program's standard error on it.
    pub errors: Vec<u8>,
    /// The wall-clock time of the program's run on it.
    pub elapsed: Duration,
    /// The program's peak resident memory on it, in bytes, where known.
    pub peak_memory: Option<u64>,
    /// The verdict on it.
    pub judgement: Judgement,
    /// arbiter's reason for the first line that differs, for a wrong answer.
    pub explanation: Option<Explanation>,
    /// Whether a last run of the shrunk case failed again as it did while shrinking; when not, the
    /// details above are those of the original case (the program's behaviour changes from run
    /// to run).
    pub reproduced: bool,
}

/// What a test run found.
#[derive(Debug, Clone)]
pub struct TestRun<C> {
    /// Cases run to the end.
    pub cases: u64,
    /// The first failing case, if any.
    pub failure: Option<Failure<C>>,
}

/// Hears about the progress of a run (for a progress bar); every method does nothing by default.
pub trait Progress: Sync {
    /// One more case ran.
    fn case_done(&self) {}
    /// Case `case` failed with `kind`; shrinking starts.
    fn failed(&self, _case: u64, _kind: Kind) {}
    /// Shrinking has spent `runs` runs; `size` is that of a smaller failing case just found.
    fn shrinking(&self, _runs: u64, _size: Option<usize>) {}
}

impl Progress for () {}

/// Why a test run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The program could not be started (or its pipes could not be watched).
    #[error("cannot run the program: {0}")]
    Start(#[from] io::Error),
    /// A generated input that arbiter itself rejects: a bug of the generator.
    #[error("generated an input arbiter cannot judge (case seed {seed}): {error}")]
    Generated {
        /// The case's seed.
        seed: u64,
        /// arbiter's complaint.
        error: String,
    },
}

/// The first failure among the cases run so far.
struct Found<C> {
    index: u64,
    case: C,
    kind: Kind,
    output: Vec<u8>,
    judgement: Judgement,
    outcome: Outcome,
}

/// Runs `program` on up to `settings.cases` generated inputs; on the first failure, shrinks it.
pub fn stress<P: Problem>(
    problem: &P,
    program: &Program,
    settings: &Settings,
    progress: &dyn Progress,
) -> Result<TestRun<P::Case>, StressError> {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let found: Mutex<Option<Found<P::Case>>> = Mutex::new(None);
    let error: Mutex<Option<StressError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| {
                let (mut input, mut output) = (Vec::new(), Vec::new());
                while !stop.load(Ordering::Relaxed) {
                    // Cases are handed out in order: once a case fails, every earlier case has
                    // been handed out, and the earliest failure can be told for certain.
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.cases {
                        break;
                    }
                    let seed = case_seed(settings.seed, index);
                    let case = problem.generate(seed);
                    match run_case(problem, program, settings, &case, &mut input, &mut output) {
                        Ok((judgement, outcome)) => {
                            let kind = judgement.kind();
                            done.fetch_add(1, Ordering::Relaxed);
                            progress.case_done();
                            if kind != Kind::Accepted {
                                let mut first = found.lock().unwrap_or_else(|e| e.into_inner());
                                if first.as_ref().is_none_or(|f| f.index > index) {
                                    *first = Some(Found {
                                        index,
                                        case,
                                        kind,
                                        output: output.clone(),
                                        judgement,
                                        outcome,
                                    });
                                }
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Err(e) => {
                            let e = match e {
                                CaseError::Start(e) => StressError::Start(e),
                                CaseError::Input(error) => StressError::Generated { seed, error },
                            };
                            error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    if let Some(error) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    let cases = done.load(Ordering::Relaxed);
    let Some(found) = found.into_inner().unwrap_or_else(|e| e.into_inner()) else {
        return Ok(TestRun { cases, failure: None });
    };
    progress.failed(found.index + 1, found.kind);
    let failure = shrink_failure(problem, program, settings, found, progress)?;
    Ok(TestRun { cases, failure: Some(failure) })
}

enum CaseError {
    Start(io::Error),
    Input(String),
}

/// Runs one case: its judgement and how the run went; `output` holds what the program wrote.
fn run_case<P: Problem>(
    problem: &P,
    program: &Program,
    settings: &Settings,
    case: &P::Case,
    input: &mut Vec<u8>,
    output: &mut Vec<u8>,
) -> Result<(Judgement, Outcome), CaseError> {
    input.clear();
    problem.write_input(case, input);
    let text = std::str::from_utf8(input).map_err(|e| CaseError::Input(e.to_string()))?;
    let expected = problem.answer(text).map_err(|e| CaseError::Input(e.to_string()))?;
    let outcome = runner::run_limited(program, input, &limits(settings, &expected), output, None)
        .map_err(CaseError::Start)?;
    Ok((Judgement::of(&expected, &outcome, output), outcome))
}

/// The limits of a run whose answer is `expected`: no more output is read than any layout of
/// that answer needs, so a program that floods its output costs little memory.
fn limits(settings: &Settings, expected: &str) -> Limits {
    let output = usize::try_from(output_bound(expected)).unwrap_or(usize::MAX);
    Limits { time: settings.time_limit, output, memory: settings.memory_limit }
}

/// Shrinks the failing case and runs the result once more to report on it.
fn shrink_failure<P: Problem>(
    problem: &P,
    program: &Program,
    settings: &Settings,
    found: Found<P::Case>,
    progress: &dyn Progress,
) -> Result<Failure<P::Case>, StressError> {
    let mut oracle = ProgramOracle {
        problem,
        program,
        settings,
        target: found.kind,
        runs: AtomicU64::new(0),
        tries: 0,
        progress,
    };
    let shrunk = problem.shrink(found.case.clone(), &mut oracle);
    let tries = oracle.tries;
    let seed = case_seed(settings.seed, found.index);
    let (mut text, mut output, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    problem.write_input(&shrunk, &mut text);
    let input = String::from_utf8_lossy(&text).into_owned();
    let expected = problem
        .answer(&input)
        .map_err(|e| StressError::Generated { seed, error: e.to_string() })?;
    let limits = limits(settings, &expected);
    let outcome = runner::run_limited(program, &text, &limits, &mut output, Some(&mut errors))?;
    let judgement = Judgement::of(&expected, &outcome, &output);
    let (shrunk, input, expected, output, judgement, outcome, reproduced) = if judgement.kind()
        == found.kind
    {
        (shrunk, input, expected, output, judgement, outcome, true)
    } else {
        let mut text = Vec::new();
        problem.write_input(&found.case, &mut text);
        let input = String::from_utf8_lossy(&text).into_owned();
        let expected = problem
            .answer(&input)
            .map_err(|e| StressError::Generated { seed, error: e.to_string() })?;
        (found.case.clone(), input, expected, found.output, found.judgement, found.outcome, false)
    };
    let explanation = match &judgement {
        Judgement::WrongAnswer(difference) if difference.expected.is_some() => {
            problem.explain(&input, difference.line).ok()
        }
        _ => None,
    };
    Ok(Failure {
        case: found.index + 1,
        case_seed: seed,
        original: found.case,
        shrunk,
        tries,
        input,
        expected,
        output,
        errors,
        judgement,
        explanation,
        reproduced,
        elapsed: outcome.elapsed,
        peak_memory: outcome.peak_memory,
    })
}

/// Tells whether candidates fail the way the original case did, running up to `jobs` at a time.
struct ProgramOracle<'a, P: Problem> {
    problem: &'a P,
    program: &'a Program,
    settings: &'a Settings,
    target: Kind,
    /// Program runs started.
    runs: AtomicU64,
    /// Candidates tried, as one at a time.
    tries: u64,
    progress: &'a dyn Progress,
}

impl<P: Problem> ProgramOracle<'_, P> {
    /// Whether `case` fails with the target kind. A candidate arbiter cannot judge (it breaks a
    /// guarantee of the statement) does not count as failing, nor does one the program cannot
    /// be started on.
    fn fails(&self, case: &P::Case, input: &mut Vec<u8>, output: &mut Vec<u8>) -> bool {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let result = run_case(self.problem, self.program, self.settings, case, input, output);
        matches!(result, Ok((judgement, _)) if judgement.kind() == self.target)
    }
}

impl<P: Problem> Oracle<P::Case> for ProgramOracle<'_, P> {
    fn first_failing(&mut self, candidates: &[P::Case]) -> Option<usize> {
        let jobs = self.settings.jobs.max(1);
        for (chunk_index, chunk) in candidates.chunks(jobs).enumerate() {
            let this = &*self;
            let failing: Vec<bool> = std::thread::scope(|scope| {
                let handles: Vec<_> = chunk
                    .iter()
                    .map(|case| {
                        scope.spawn(move || this.fails(case, &mut Vec::new(), &mut Vec::new()))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(false)).collect()
            });
            if let Some(i) = failing.iter().position(|&f| f) {
                self.tries += i as u64 + 1;
                let runs = self.runs.load(Ordering::Relaxed);
                self.progress.shrinking(runs, Some(self.problem.size(&chunk[i])));
                return Some(chunk_index * jobs + i);
            }
            self.tries += chunk.len() as u64;
            self.progress.shrinking(self.runs.load(Ordering::Relaxed), None);
        }
        None
    }
}
