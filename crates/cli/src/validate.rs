//! `arbiter <game> validate`: the strict validators of the rule crates on the command line, and
//! the coverage table of a set of test files.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use arbiter_scan::Invalid;

use crate::input::{CliError, Opened};
use crate::output::write_line;

/// Arguments of `arbiter <game> validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Test files; standard input when none is given (or `-`).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Also print which limits the files meet at their extremes and which corners of the rules
    /// they reach, with how many files reach each and the first one that does.
    #[arg(long)]
    coverage: bool,
}

/// The game whose inputs are validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Duck Chess commands.
    Duck,
    /// A chess record.
    Chess,
    /// Skill-arena games.
    Arena,
}

/// The largest file read: far above any valid input of the three statements (an arena input at
/// every limit is under 1 MB), and a bound on the memory of a file read whole.
const MAX_FILE: u64 = 64 << 20;

impl Format {
    /// The names of the corners of [`Format::check`]'s answer.
    fn corners(self) -> &'static [&'static str] {
        match self {
            Format::Duck => &arbiter_duck::validate::CORNERS,
            Format::Chess => &arbiter_chess_record::validate::CORNERS,
            Format::Arena => &arbiter_arena::validate::CORNERS,
        }
    }

    /// Validates `input`; with `coverage`, also says which corners it reaches.
    fn check(self, input: &[u8], coverage: bool) -> Result<Vec<bool>, Invalid> {
        Ok(match self {
            Format::Duck => {
                let commands = arbiter_duck::validate::validate(input)?;
                if coverage { arbiter_duck::validate::corners(&commands).to_vec() } else { vec![] }
            }
            Format::Chess => {
                let moves = arbiter_chess_record::validate::validate(input)?;
                if coverage {
                    arbiter_chess_record::validate::corners(&moves).to_vec()
                } else {
                    vec![]
                }
            }
            Format::Arena => {
                let games = arbiter_arena::validate::validate(input)?;
                if coverage { arbiter_arena::validate::corners(&games).to_vec() } else { vec![] }
            }
        })
    }
}

/// Reads a whole file, up to [`MAX_FILE`] bytes.
fn read(path: Option<&Path>) -> Result<(String, Vec<u8>), CliError> {
    let opened = Opened::open(path)?;
    let mut bytes = Vec::new();
    let read = (&opened.file).take(MAX_FILE + 1).read_to_end(&mut bytes);
    if let Err(error) = read {
        return Err(CliError::Read { source_name: opened.name, error });
    }
    if bytes.len() as u64 > MAX_FILE {
        return Err(CliError::Message(format!(
            "{}:1:1: expected a test file of at most {} MiB, found a larger one",
            opened.name,
            MAX_FILE >> 20
        )));
    }
    Ok((opened.name, bytes))
}

/// Runs `arbiter <game> validate`: one line `FILE:LINE:COL: expected ..., found ...` on
/// standard error per invalid file, then exit status 3 (testlib's) if there was one; with
/// `--coverage`, the table on standard output.
pub fn run(format: Format, args: ValidateArgs) -> Result<(), CliError> {
    let paths: Vec<Option<&Path>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().map(|path| Some(path.as_path())).collect()
    };
    let names = format.corners();
    let mut reached: Vec<(usize, Option<String>)> = vec![(0, None); names.len()];
    let mut valid = 0usize;
    let mut rejected = false;
    for path in paths {
        let (name, bytes) = match read(path) {
            Ok(read) => read,
            Err(error) => {
                write_line(&error);
                rejected = true;
                continue;
            }
        };
        match format.check(&bytes, args.coverage) {
            Ok(corners) => {
                valid += 1;
                for ((count, first), hit) in reached.iter_mut().zip(corners) {
                    if hit {
                        *count += 1;
                        first.get_or_insert_with(|| name.clone());
                    }
                }
            }
            Err(invalid) => {
                write_line(format_args!("{name}:{invalid}"));
                rejected = true;
            }
        }
    }
    if args.coverage {
        let table = coverage_table(names, &reached, valid);
        io::stdout().lock().write_all(table.as_bytes())?;
    }
    if rejected { Err(CliError::Rejected) } else { Ok(()) }
}

/// The coverage table: one row per corner, with the number of valid files that reach it and the
/// first of them, `-` when none does.
fn coverage_table(names: &[&str], reached: &[(usize, Option<String>)], valid: usize) -> String {
    let width = names.iter().map(|name| name.chars().count()).max().unwrap_or(0).max(6);
    let mut table = format!("{:<width$}  files  first\n", "corner");
    for (name, (count, first)) in names.iter().zip(reached) {
        let pad = width - name.chars().count();
        let first = first.as_deref().unwrap_or("-");
        table.push_str(&format!("{name}{:pad$}  {count:>5}  {first}\n", ""));
    }
    let missed = reached.iter().filter(|(count, _)| *count == 0).count();
    let (files, reach) = if valid == 1 { ("file", "reaches") } else { ("files", "reach") };
    table.push_str(&format!(
        "{valid} valid {files} {reach} {} of {} corners\n",
        names.len() - missed,
        names.len()
    ));
    table
}
