//! The dataset read back in the order of its games: each input's parts (in every partition)
//! merged by game number, a batch of rows of each at a time, so memory holds a batch per part
//! of one input whatever the dataset's size.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, Int32Type, Int64Type, Time32MillisecondType};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};

use crate::Error;
use crate::row::{Date, Finding, GameRow, TimeOfDay};

/// Rows read from a part at a time.
const BATCH_ROWS: usize = 1024;

/// The parts of a dataset, by the number of their input file: every `part-FFFFF-...parquet`
/// in `dir` or a partition folder of it (`month=.../`); hidden files (temporary ones) are
/// passed over.
pub fn parts(dir: &Path) -> Result<BTreeMap<usize, Vec<PathBuf>>, Error> {
    let mut found: BTreeMap<usize, Vec<PathBuf>> = BTreeMap::new();
    let mut folders = vec![dir.to_owned()];
    let mut depth = 0;
    while !folders.is_empty() && depth < 2 {
        let mut next = Vec::new();
        for folder in folders {
            let entries =
                fs::read_dir(&folder).map_err(|error| Error::Io(folder.clone(), error))?;
            for entry in entries {
                let entry = entry.map_err(|error| Error::Io(folder.clone(), error))?;
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || name.starts_with('_') {
                    continue;
                }
                if path.is_dir() {
                    next.push(path);
                } else if let Some(file) = input_number(&name) {
                    found.entry(file).or_default().push(path);
                }
            }
        }
        folders = next;
        depth += 1;
    }
    if found.is_empty() {
        return Err(Error::Layout(dir.to_owned(), "no part-*.parquet file in it".to_owned()));
    }
    for paths in found.values_mut() {
        paths.sort();
    }
    Ok(found)
}

/// The input number of a part named `part-FFFFF-SSSSSS[-N].parquet`.
fn input_number(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("part-")?.strip_suffix(".parquet")?;
    rest.split('-').next()?.parse().ok()
}

/// A part being read: its batch and where in it.
struct Cursor {
    path: PathBuf,
    reader: ParquetRecordBatchReader,
    batch: RecordBatch,
    row: usize,
}

impl Cursor {
    fn open(path: &Path) -> Result<Option<Cursor>, Error> {
        let file = File::open(path).map_err(|error| Error::Io(path.to_owned(), error))?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .and_then(|builder| builder.with_batch_size(BATCH_ROWS).build())
            .map_err(|error| Error::Parquet(path.to_owned(), error))?;
        let mut cursor = Cursor {
            path: path.to_owned(),
            reader,
            batch: RecordBatch::new_empty(crate::columns::schema()),
            row: 0,
        };
        Ok(cursor.advance()?.then_some(cursor))
    }

    /// Moves to the next row; `false` at the end of the part.
    fn advance(&mut self) -> Result<bool, Error> {
        self.row += 1;
        while self.row >= self.batch.num_rows() {
            match self.reader.next() {
                Some(batch) => {
                    self.batch =
                        batch.map_err(|error| Error::Parquet(self.path.clone(), error.into()))?;
                    self.row = 0;
                }
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    fn game(&self) -> Result<i64, Error> {
        let games = self.column("game")?.as_primitive_opt::<Int64Type>();
        games.map(|games| games.value(self.row)).ok_or_else(|| self.layout("game"))
    }

    fn column(&self, name: &str) -> Result<&dyn Array, Error> {
        self.batch.column_by_name(name).map(|c| c.as_ref()).ok_or_else(|| self.layout(name))
    }

    fn layout(&self, name: &str) -> Error {
        Error::Layout(self.path.clone(), format!("no column `{name}` of the expected type"))
    }
}

/// What was written back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Games written.
    pub games: u64,
    /// Games written from their columns alone.
    pub from_columns: u64,
    /// Games that could not be written: those too large to convert, which have no text (their
    /// input's name and game number).
    pub missing: Vec<(String, i64)>,
}

/// Writes the games of the dataset at `dir` as PGN to `out`, input after input, each in the
/// order of its games: what `arbiter chess fix` writes for the inputs, but for games too large
/// to convert.
pub fn write_pgn(dir: &Path, out: &mut impl Write) -> Result<Written, Error> {
    let mut written = Written::default();
    for (_, paths) in parts(dir)? {
        let mut cursors = Vec::new();
        for path in &paths {
            if let Some(cursor) = Cursor::open(path)? {
                cursors.push(cursor);
            }
        }
        let mut heap = BinaryHeap::new();
        for (i, cursor) in cursors.iter().enumerate() {
            heap.push(Reverse((cursor.game()?, i)));
        }
        while let Some(Reverse((_, i))) = heap.pop() {
            let cursor = &mut cursors[i];
            write_row(cursor, out, &mut written)?;
            if cursor.advance()? {
                heap.push(Reverse((cursor.game()?, i)));
            }
        }
    }
    Ok(written)
}

/// Writes the game of the cursor's row.
fn write_row(cursor: &Cursor, out: &mut impl Write, written: &mut Written) -> Result<(), Error> {
    let io = |error| Error::Io(PathBuf::from("<output>"), error);
    let pgn = cursor.column("pgn")?.as_binary_opt::<i32>().ok_or_else(|| cursor.layout("pgn"))?;
    if pgn.is_valid(cursor.row) {
        out.write_all(pgn.value(cursor.row)).map_err(io)?;
        written.games += 1;
        return Ok(());
    }
    let row = row_at(cursor)?;
    if row.error.as_ref().is_some_and(|error| error.kind == "too_large") {
        let file =
            cursor.column("file")?.as_string_opt::<i32>().ok_or_else(|| cursor.layout("file"))?;
        written.missing.push((file.value(cursor.row).to_owned(), row.game as i64));
        return Ok(());
    }
    let text = crate::text::layout_text(&row).ok_or_else(|| {
        Error::Layout(cursor.path.clone(), format!("game {} has no text", row.game))
    })?;
    out.write_all(&text).map_err(io)?;
    written.games += 1;
    written.from_columns += 1;
    Ok(())
}

/// The row at the cursor, with what the text's layout needs.
fn row_at(cursor: &Cursor) -> Result<GameRow, Error> {
    let i = cursor.row;
    let text = |name: &str| -> Result<Option<String>, Error> {
        let column =
            cursor.column(name)?.as_string_opt::<i32>().ok_or_else(|| cursor.layout(name))?;
        Ok(column.is_valid(i).then(|| column.value(i).to_owned()))
    };
    let int = |name: &str| -> Result<Option<i32>, Error> {
        let column = cursor
            .column(name)?
            .as_primitive_opt::<Int32Type>()
            .ok_or_else(|| cursor.layout(name))?;
        Ok(column.is_valid(i).then(|| column.value(i)))
    };
    let list = |name: &str| -> Result<_, Error> {
        let column =
            cursor.column(name)?.as_list_opt::<i32>().ok_or_else(|| cursor.layout(name))?;
        Ok(column.value(i))
    };
    let strings = |name: &str| -> Result<Vec<String>, Error> {
        let values = list(name)?;
        let values = values.as_string_opt::<i32>().ok_or_else(|| cursor.layout(name))?;
        Ok(values.iter().map(|v| v.unwrap_or_default().to_owned()).collect())
    };
    let ints = |name: &str| -> Result<Vec<Option<i32>>, Error> {
        let values = list(name)?;
        let values = values.as_primitive_opt::<Int32Type>().ok_or_else(|| cursor.layout(name))?;
        Ok(values.iter().collect())
    };
    let date = cursor
        .column("date")?
        .as_primitive_opt::<Date32Type>()
        .ok_or_else(|| cursor.layout("date"))?;
    let time = cursor
        .column("utc_time")?
        .as_primitive_opt::<Time32MillisecondType>()
        .ok_or_else(|| cursor.layout("utc_time"))?;
    let clocks = list("clocks_s")?;
    let clocks =
        clocks.as_primitive_opt::<Float64Type>().ok_or_else(|| cursor.layout("clocks_s"))?;
    let games = cursor
        .column("game")?
        .as_primitive_opt::<Int64Type>()
        .ok_or_else(|| cursor.layout("game"))?;
    let error = cursor.column("error")?.as_struct_opt().ok_or_else(|| cursor.layout("error"))?;
    let error_kind = error
        .column_by_name("kind")
        .and_then(|kind| kind.as_string_opt::<i32>())
        .ok_or_else(|| cursor.layout("error"))?;
    let tags = cursor.column("tags")?.as_map_opt().ok_or_else(|| cursor.layout("tags"))?;
    let entries = tags.value(i);
    let (keys, values) =
        (entries.column(0).as_string_opt::<i32>(), entries.column(1).as_string_opt::<i32>());
    let (Some(keys), Some(values)) = (keys, values) else {
        return Err(cursor.layout("tags"));
    };
    Ok(GameRow {
        game: u64::try_from(games.value(i)).unwrap_or_default(),
        site: text("site")?,
        event: text("event")?,
        white: text("white")?,
        black: text("black")?,
        result: text("result")?,
        white_elo: int("white_elo")?,
        black_elo: int("black_elo")?,
        white_rating_diff: int("white_rating_diff")?,
        black_rating_diff: int("black_rating_diff")?,
        date: date.is_valid(i).then(|| Date::from_days(date.value(i))),
        utc_time: match time.is_valid(i) {
            // Whole seconds, as the tag writes them: anything else is not this writer's.
            true => Some(
                TimeOfDay::from_millis(time.value(i)).ok_or_else(|| cursor.layout("utc_time"))?,
            ),
            false => None,
        },
        tc_base_s: int("tc_base_s")?,
        tc_increment_s: int("tc_increment_s")?,
        termination: text("termination")?,
        eco: text("eco")?,
        opening: text("opening")?,
        moves_san: strings("moves_san")?,
        clocks_s: clocks.iter().collect(),
        evals_cp: ints("evals_cp")?,
        evals_mate: ints("evals_mate")?,
        error: error.is_valid(i).then(|| Finding {
            kind: if error_kind.value(i) == "too_large" { "too_large" } else { "" },
            ..Finding::default()
        }),
        tags: (0..keys.len())
            .map(|k| (keys.value(k).to_owned(), values.value(k).to_owned()))
            .collect(),
        ..GameRow::default()
    })
}
