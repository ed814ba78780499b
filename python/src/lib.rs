//! The extension module `arbiter._arbiter`, which the Python package `arbiter` re-exports: the
//! library crates' record check, PGN validation, rewriting into canonical SAN and the three
//! official judges, for Python.
//!
//! ```python
//! import arbiter
//!
//! verdict = arbiter.check_record("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0")
//! assert not verdict.ok and verdict.canonical == "O-O"
//! ```
//!
//! Modules, one concept each: [`record`] (the contest record check), [`pgn`] (PGN validation, an
//! iterator of per-game reports), [`source`] (where PGN comes from: text, a path, a Python file
//! object), [`shard`] (a file cut into parts checked apart), [`convert`] (a shard's games into a Parquet
//! dataset, by `arbiter-chess-parquet`), [`fix`] (rewriting into canonical SAN), [`judges`] (the official judges, text in,
//! text out), [`errors`] (the exceptions and how library errors become them), [`names`] (the
//! names of faults and rules), [`interrupt`] (Ctrl-C during long calls).
//!
//! Every function copies its input out of Python objects, then releases the GIL
//! ([`pyo3::Python::detach`]) for the work itself, so Python threads run meanwhile. The package
//! is built with PyO3's stable ABI for CPython 3.9 (`abi3-py39`): one wheel serves every CPython
//! from 3.9 on. It is a member of the Cargo workspace, so the workspace's tests, clippy and fmt
//! cover it and it is built with the workspace's lock file. It does not use PyO3's deprecated
//! `extension-module` feature: maturin (1.9.4 or later) sets `PYO3_BUILD_EXTENSION_MODULE` when
//! it builds the wheel, so that PyO3 does not link libpython there, and plain `cargo` builds
//! link it as usual, so `cargo test --workspace` needs no flags.
//! Its behaviour is tested from Python, with pytest, in `python/tests`.

mod convert;
mod errors;
mod fix;
mod interrupt;
mod judges;
mod names;
mod pgn;
mod record;
mod shard;
mod source;

use pyo3::prelude::*;

/// Fast referee for chess records and PGN, Duck Chess (鸭棋) and the skill arena.
#[pymodule]
mod _arbiter {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::convert::convert_shard;
    #[pymodule_export]
    use crate::errors::{FixError, InputError, InputWarning};
    #[pymodule_export]
    use crate::fix::fix;
    #[pymodule_export]
    use crate::judges::{judge_arena, judge_duck};
    #[pymodule_export]
    use crate::pgn::{GameReport, GameReports, Problem, check_pgn, check_pgn_file};
    #[pymodule_export]
    use crate::record::{Verdict, check_record, judge_chess};
    #[pymodule_export]
    use crate::shard::{Shard, shard_extent, shards};

    /// The largest game `check_pgn` and `check_pgn_file` read by default, in bytes (64 MiB).
    #[pymodule_export]
    const MAX_GAME_BYTES: usize = arbiter_chess_record::pgn::MAX_GAME_BYTES;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
