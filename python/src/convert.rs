//! `convert_shard(shard, out, file_number, label)`: a shard's games written into a Parquet
//! dataset, a row per game with typed columns, by the Rust writer (`arbiter-chess-parquet`);
//! what `python -m arbiter.scale --games` runs in each task.

use std::borrow::Cow;
use std::path::PathBuf;

use arbiter_chess_parquet::DatasetWriter;
use arbiter_chess_parquet::convert::{ConvertError, convert};
use arbiter_chess_record::pgn::MAX_GAME_BYTES;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::pgn::mode;
use crate::shard::Shard;
use crate::source::read_error;

/// Converts the games of `shard` (placed, so that they are numbered as in the whole file) into
/// the dataset in the folder `out`: Hive partitions by month (`month=2024-01/`), one Parquet
/// file per month named by `file_number` and the shard's number, `label` in their `file`
/// column. Each game is checked in `mode` (`strict` or `lenient`).
///
/// Returns a dict: `games`, `ok`, `plies`, `wrong` (games by the kind of their error),
/// `kept_text` (games whose columns do not give their text back) and `parts` (a list of
/// `[path, rows]`, the path relative to `out`). The files get their names only once all are
/// written. A shard that cannot be read through raises as `check_pgn_file` does, leaving no
/// file.
#[pyfunction]
#[pyo3(
    signature = (shard, out, file_number, label, mode = Cow::Borrowed("strict"), *, max_game_bytes = MAX_GAME_BYTES),
    text_signature = "(shard, out, file_number, label, mode='strict', *, max_game_bytes=MAX_GAME_BYTES)"
)]
pub fn convert_shard<'py>(
    py: Python<'py>,
    shard: &Shard,
    out: PathBuf,
    file_number: usize,
    label: &str,
    mode: Cow<'_, str>,
    max_game_bytes: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let mode = self::mode(&mode)?;
    let splitter = shard.splitter(py)?;
    let mut writer = DatasetWriter::new(&out, label, file_number, shard.number());
    let outcome = py.detach(|| convert(splitter, max_game_bytes, mode, &mut writer));
    let tally = match outcome {
        Ok(tally) => tally,
        Err(ConvertError::Read { line, error }) => {
            writer.abort();
            let path = shard.file().to_owned();
            return Err(read_error(py, error, shard.compressed(), line, Some(&path)));
        }
        Err(ConvertError::Write(error)) => {
            writer.abort();
            return Err(PyOSError::new_err(error.to_string()));
        }
    };
    let parts =
        py.detach(|| writer.finish()).map_err(|error| PyOSError::new_err(error.to_string()))?;
    let result = PyDict::new(py);
    result.set_item("games", tally.games)?;
    result.set_item("ok", tally.ok)?;
    result.set_item("plies", tally.plies)?;
    result.set_item("wrong", tally.wrong)?;
    result.set_item("kept_text", tally.kept_text)?;
    let parts: Vec<(String, u64)> = parts.into_iter().map(|part| (part.path, part.rows)).collect();
    result.set_item("parts", parts)?;
    Ok(result)
}
