//! An efficiently updatable neural network (NNUE) evaluation: the engine's default, with the
//! network built into it ([`embedded`]); another network loads with [`load`] (UCI's `EvalFile`),
//! and the classical evaluation ([`eval`](crate::eval)) stays available for comparison.
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

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub use accumulator::Accumulators;
pub use model::Model;
pub use network::{Network, NetworkError};

/// The `EvalFile` that names the network built into the engine, rather than a file.
pub const EMBEDDED: &str = "<embedded>";

/// The network built into the engine: `networks/duck-h256-gen5.nnue`, the best network that won
/// its matches against the one before it (the fourth network, `networks/duck-h256-gen4.nnue`,
/// which played its training games, and before it the third, the second, the first and the
/// classical evaluation; the provenance and the matches: `networks/PROVENANCE.md`).
pub fn embedded() -> &'static [u8] {
    include_bytes!("../../networks/duck-h256-gen5.nnue")
}

/// The built-in network laid out for the search, read once per process; `None` only if the
/// bytes built in are not a network, which a test rules out.
pub fn embedded_model() -> Option<Arc<Model>> {
    static MODEL: OnceLock<Option<Arc<Model>>> = OnceLock::new();
    MODEL.get_or_init(|| load(EMBEDDED).ok().map(Arc::new)).clone()
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
}

/// The network `name` names, laid out for the search: the file at that path, or the embedded
/// network for [`EMBEDDED`].
///
/// The file must be a regular file (a FIFO or a device is refused without waiting on it), and
/// its header is read first: a file whose length is not the one its header declares is refused
/// before the rest is read.
pub fn load(name: &str) -> Result<Model, LoadError> {
    let read = |bytes: &[u8], path: PathBuf| {
        Network::read(bytes)
            .and_then(Model::new)
            .map_err(|source| LoadError::Network { path, source })
    };
    if name == EMBEDDED {
        return read(embedded(), PathBuf::from(EMBEDDED));
    }
    let path = PathBuf::from(name);
    match read_file(&path) {
        Ok(bytes) => read(&bytes, path),
        Err(Failed::Io(source)) => Err(LoadError::Read { path, source }),
        Err(Failed::Network(source)) => Err(LoadError::Network { path, source }),
    }
}

/// Why a network file's bytes could not be had.
enum Failed {
    Io(io::Error),
    Network(NetworkError),
}

/// The bytes of the network file at `path`, its length checked against its header's first.
fn read_file(path: &Path) -> Result<Vec<u8>, Failed> {
    let (mut file, metadata) = crate::file::open(path).map_err(Failed::Io)?;
    // The longest header; a shorter one is followed by the payload, which no file lacks.
    let longest = network::HEADER_LEN_V3;
    let mut header = Vec::with_capacity(longest);
    (&mut file).take(longest as u64).read_to_end(&mut header).map_err(Failed::Io)?;
    let declared = Network::declared_len(&header).map_err(Failed::Network)?;
    if metadata.len() != declared {
        return Err(Failed::Network(NetworkError::Length { found: metadata.len(), declared }));
    }
    let rest = crate::file::read_opened(file, declared - header.len() as u64, declared)
        .map_err(Failed::Io)?;
    header.extend_from_slice(&rest);
    Ok(header)
}
