//! `arbiter <game> package`: a problem package for a judge system, written to a directory.

use std::io::Write;
use std::path::PathBuf;

use arbiter_contest::count;
use arbiter_contest::package::{self, Format, Packaged};

use crate::input::CliError;

/// Arguments of `arbiter <game> package`.
#[derive(Debug, clap::Args)]
pub struct PackageArgs {
    /// The package's layout: `kattis` (the Kattis problem package format, which DOMjudge
    /// imports) or `polygon` (a Polygon package with problem.xml).
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    format: Format,
    /// The directory to write the package into; it must not exist or be empty.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

fn parse_format(name: &str) -> Result<Format, String> {
    Format::ALL
        .iter()
        .find(|(_, n)| *n == name)
        .map(|&(format, _)| format)
        .ok_or_else(|| format!("unknown format `{name}` (known: kattis, polygon)"))
}

/// Runs `arbiter <game> package` for game `G`: writes the package, then says how large it is.
pub fn run<G: Packaged>(args: PackageArgs) -> Result<(), CliError> {
    let package = package::build::<G>(args.format);
    let size = package
        .write(&args.dir)
        .map_err(|error| CliError::Message(format!("arbiter {} package: {error}", G::NAME)))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} package of {}, {}, {}",
        args.dir.display(),
        args.format,
        G::NAME,
        count(size.files, "files"),
        count(size.bytes as usize, "bytes")
    )?;
    Ok(())
}
