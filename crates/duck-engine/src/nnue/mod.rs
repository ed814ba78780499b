//! An efficiently updatable neural network (NNUE) evaluation, chosen instead of the classical
//! one ([`eval`](crate::eval)) by loading a network ([`load`]; UCI's `EvalFile`).
//!
//! - [`features`]: the inputs a position gives, the one definition shared with the trainer.
//! - [`network`]: the quantised [`Network`], its `.nnue` file, and a from-scratch evaluation,
//!   the reference for the search's incremental one.
//! - [`model`]: the network laid out for the search, in blocks the compiler vectorises.
//! - [`accumulator`]: the [`Accumulators`] along the search's path, updated by each move.

pub mod accumulator;
pub mod features;
pub mod model;
pub mod network;

use std::io;
use std::path::PathBuf;

pub use accumulator::Accumulators;
pub use model::Model;
pub use network::{Network, NetworkError};

/// The `EvalFile` that names the network built into the engine, rather than a file.
pub const EMBEDDED: &str = "<embedded>";

/// The network built into the engine, if this build has one: none yet. A network that wins its
/// matches against the classical evaluation is to be committed and included here (with
/// `include_bytes!`), and `EvalFile`'s default becomes [`EMBEDDED`].
pub fn embedded() -> Option<&'static [u8]> {
    None
}

/// Why a network could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a network this engine reads.
    #[error("{}: {source}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: NetworkError,
    },
    /// [`EMBEDDED`] was asked for, and this build has no network.
    #[error("this build has no embedded network")]
    NoEmbedded,
}

/// The network `name` names, laid out for the search: the file at that path, or the embedded
/// network for [`EMBEDDED`].
pub fn load(name: &str) -> Result<Model, LoadError> {
    let read = |bytes: &[u8], path: PathBuf| {
        Network::read(bytes)
            .and_then(Model::new)
            .map_err(|source| LoadError::Network { path, source })
    };
    if name == EMBEDDED {
        let bytes = embedded().ok_or(LoadError::NoEmbedded)?;
        return read(bytes, PathBuf::from(EMBEDDED));
    }
    let path = PathBuf::from(name);
    match std::fs::read(&path) {
        Ok(bytes) => read(&bytes, path),
        Err(source) => Err(LoadError::Read { path, source }),
    }
}
