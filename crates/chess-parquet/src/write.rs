//! The dataset written: Hive partitions by month, Parquet files compressed with Zstandard,
//! streamed in bounded memory, each file written under a hidden name and renamed when whole.
//!
//! ```text
//! DIR/month=2024-01/part-00000-000000.parquet
//! DIR/month=2024-02/part-00000-000000.parquet
//! DIR/month=__HIVE_DEFAULT_PARTITION__/part-00001-000000.parquet    (games without a date)
//! ```
//!
//! A part is named by the number of its input file and of the shard of it (`part-FFFFF-SSSSSS`,
//! shard 0 for a file converted whole); its rows are in the order of their games. Rows are
//! gathered a few thousand at a time, then encoded into the row group being written, and a row
//! group is closed at about 8 MiB of encoded data; at most [`MAX_OPEN`] partitions are open at
//! once (a file whose games come in many months closes the one used least recently, and opens
//! a new part for it when it comes again, `part-FFFFF-SSSSSS-1`). So memory is bounded whatever
//! the input's size.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::Error;
use crate::columns::{Columns, schema};
use crate::row::GameRow;

/// The most partitions open for writing at once.
pub const MAX_OPEN: usize = 4;

/// Rows are encoded into the row group a batch at a time: at this many rows...
const BATCH_ROWS: usize = 4096;

/// ... or this many bytes of rows.
const BATCH_BYTES: usize = 4 << 20;

/// A row group is closed once it holds about this many bytes, encoded.
const ROW_GROUP_BYTES: usize = 8 << 20;

/// The name of the partition of games without a date, as Hive, pyarrow and DuckDB name it.
pub const NO_MONTH: &str = "__HIVE_DEFAULT_PARTITION__";

/// The name of a part: the number of its input file, of the shard of it, and of the part of
/// the shard in its partition (0 but when a partition was closed and opened again).
pub fn part_name(file: usize, shard: usize, again: usize) -> String {
    match again {
        0 => format!("part-{file:05}-{shard:06}.parquet"),
        n => format!("part-{file:05}-{shard:06}-{n}.parquet"),
    }
}

/// The folder of a month's partition: `month=2024-01`.
pub fn partition_dir(month: Option<&str>) -> String {
    format!("month={}", month.unwrap_or(NO_MONTH))
}

/// A file of the dataset, written: its path in the dataset's folder and its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its path, relative to the dataset's folder: `month=2024-01/part-00000-000000.parquet`.
    pub path: String,
    /// Its rows.
    pub rows: u64,
}

/// A partition being written.
struct Open {
    month: Option<String>,
    columns: Columns,
    writer: ArrowWriter<File>,
    temporary: PathBuf,
    part: Part,
    /// When it was last written to, to close the one used least recently.
    used: u64,
}

/// The rows of one input (a file, or a shard of one) written into the dataset at `dir`.
pub struct DatasetWriter {
    dir: PathBuf,
    label: String,
    file: usize,
    shard: usize,
    open: Vec<Open>,
    /// Parts closed, with their temporary names: renamed when the writer finishes.
    closed: Vec<(PathBuf, Part)>,
    /// How many parts each month has had, to name the next.
    opened: Vec<(Option<String>, usize)>,
    clock: u64,
}

impl DatasetWriter {
    /// Writes the rows of input number `file` (shard `shard` of it), named `label` in the
    /// `file` column, into the dataset at `dir`.
    pub fn new(dir: &Path, label: &str, file: usize, shard: usize) -> DatasetWriter {
        DatasetWriter {
            dir: dir.to_owned(),
            label: label.to_owned(),
            file,
            shard,
            open: Vec::new(),
            closed: Vec::new(),
            opened: Vec::new(),
            clock: 0,
        }
    }

    /// Adds a row to the partition of its month.
    pub fn push(&mut self, row: &GameRow) -> Result<(), Error> {
        self.clock += 1;
        let month = row.month();
        let index = match self.open.iter().position(|open| open.month == month) {
            Some(index) => index,
            None => self.open_partition(month)?,
        };
        let open = &mut self.open[index];
        open.used = self.clock;
        open.columns.push(&self.label, row);
        open.part.rows += 1;
        if open.columns.rows() >= BATCH_ROWS || open.columns.bytes() >= BATCH_BYTES {
            write_batch(open)?;
        }
        Ok(())
    }

    /// Opens a new part for `month`, closing the partition used least recently when too many
    /// are open; its index among the open ones.
    fn open_partition(&mut self, month: Option<String>) -> Result<usize, Error> {
        if self.open.len() >= MAX_OPEN
            && let Some(oldest) = (0..self.open.len()).min_by_key(|&i| self.open[i].used)
        {
            let open = self.open.swap_remove(oldest);
            self.closed.push(close(open)?);
        }
        let again = match self.opened.iter_mut().find(|(m, _)| *m == month) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                self.opened.push((month.clone(), 1));
                0
            }
        };
        let folder = partition_dir(month.as_deref());
        let dir = self.dir.join(&folder);
        fs::create_dir_all(&dir).map_err(|error| Error::Io(dir.clone(), error))?;
        let name = part_name(self.file, self.shard, again);
        let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::create(&temporary).map_err(|error| Error::Io(temporary.clone(), error))?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .build();
        let writer = ArrowWriter::try_new(file, schema(), Some(properties))
            .map_err(|error| Error::Parquet(temporary.clone(), error))?;
        let part = Part { path: format!("{folder}/{name}"), rows: 0 };
        self.open.push(Open { month, columns: Columns::new(), writer, temporary, part, used: 0 });
        Ok(self.open.len() - 1)
    }

    /// Writes what is gathered, closes every part and gives each its name: the parts written,
    /// in the order they were opened.
    pub fn finish(mut self) -> Result<Vec<Part>, Error> {
        let mut done = std::mem::take(&mut self.closed);
        for open in std::mem::take(&mut self.open) {
            done.push(close(open)?);
        }
        let mut parts = Vec::with_capacity(done.len());
        for (temporary, part) in done {
            let path = self.dir.join(&part.path);
            fs::rename(&temporary, &path).map_err(|error| Error::Io(path, error))?;
            parts.push(part);
        }
        Ok(parts)
    }

    /// Gives up: removes every file it wrote, none of which has its name yet.
    pub fn abort(mut self) {
        for open in std::mem::take(&mut self.open) {
            let _ = fs::remove_file(&open.temporary);
        }
        for (temporary, _) in std::mem::take(&mut self.closed) {
            let _ = fs::remove_file(temporary);
        }
    }
}

impl Drop for DatasetWriter {
    /// A writer dropped unfinished (an error on the way) leaves no temporary file behind.
    fn drop(&mut self) {
        for open in &self.open {
            let _ = fs::remove_file(&open.temporary);
        }
        for (temporary, _) in &self.closed {
            let _ = fs::remove_file(temporary);
        }
    }
}

/// Encodes the rows gathered into the row group, closing it once it is large.
fn write_batch(open: &mut Open) -> Result<(), Error> {
    let failed = |error| Error::Parquet(open.temporary.clone(), error);
    let batch = open.columns.finish().map_err(|error| failed(error.into()))?;
    open.writer.write(&batch).map_err(failed)?;
    if open.writer.in_progress_size() >= ROW_GROUP_BYTES {
        open.writer.flush().map_err(failed)?;
    }
    Ok(())
}

/// Writes a partition's last rows and its footer, and syncs it.
fn close(mut open: Open) -> Result<(PathBuf, Part), Error> {
    if open.columns.rows() > 0 {
        write_batch(&mut open)?;
    }
    let temporary = open.temporary;
    let file =
        open.writer.into_inner().map_err(|error| Error::Parquet(temporary.clone(), error))?;
    file.sync_all().map_err(|error: io::Error| Error::Io(temporary.clone(), error))?;
    Ok((temporary, open.part))
}
