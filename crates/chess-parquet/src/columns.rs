//! The dataset's columns: their names, Arrow types and meaning, in one place, and the builders
//! that gather rows into Arrow record batches.
//!
//! The names are a contract (queries are written against them): `site`, `event`, `white`,
//! `black`, `result`, `white_elo`, `black_elo`, `white_rating_diff`, `black_rating_diff`,
//! `date`, `utc_time`, `tc_base_s`, `tc_increment_s`, `termination`, `eco`, `opening`,
//! `moves_uci`, `moves_san`, `clocks_s`, `evals_cp`, `evals_mate`, `plies`, `ok`, `error`,
//! `warnings`, `tags`; and to find a game again and give its text back, `file`, `game`,
//! `offset`, `line`, `variant` and `pgn`.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{
    ArrayBuilder, BinaryBuilder, BooleanBuilder, Date32Builder, Float64Builder, Int32Builder,
    Int64Builder, ListBuilder, MapBuilder, MapFieldNames, StringBuilder, StructBuilder,
    Time32MillisecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef, TimeUnit};

use crate::row::{Finding, GameRow, TimeOfDay};

/// The fields of a finding (the error, or a warning): its kind, place and message.
fn finding_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, false),
        Field::new("line", DataType::Int64, false),
        Field::new("column", DataType::Int64, false),
        Field::new("message", DataType::Utf8, false),
    ])
}

/// A list whose items may be null, as Arrow's list builders make it.
fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

/// The names of the entries of the `tags` map, as Parquet's own map layout names them.
fn map_names() -> MapFieldNames {
    MapFieldNames { entry: "key_value".into(), key: "key".into(), value: "value".into() }
}

/// The dataset's schema, one row per game.
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = |name: &str| Field::new(name, DataType::Utf8, true);
            let int = |name: &str| Field::new(name, DataType::Int32, true);
            let names = map_names();
            let entries = Field::new(
                names.entry,
                DataType::Struct(Fields::from(vec![
                    Field::new(names.key, DataType::Utf8, false),
                    Field::new(names.value, DataType::Utf8, true),
                ])),
                false,
            );
            Arc::new(Schema::new(vec![
                Field::new("file", DataType::Utf8, false),
                Field::new("game", DataType::Int64, false),
                Field::new("offset", DataType::Int64, false),
                Field::new("line", DataType::Int64, false),
                text("site"),
                text("event"),
                text("white"),
                text("black"),
                text("result"),
                int("white_elo"),
                int("black_elo"),
                int("white_rating_diff"),
                int("black_rating_diff"),
                Field::new("date", DataType::Date32, true),
                Field::new("utc_time", DataType::Time32(TimeUnit::Millisecond), true),
                int("tc_base_s"),
                int("tc_increment_s"),
                text("termination"),
                text("eco"),
                text("opening"),
                Field::new("variant", DataType::Utf8, false),
                Field::new("moves_uci", list_of(DataType::Utf8), false),
                Field::new("moves_san", list_of(DataType::Utf8), false),
                Field::new("clocks_s", list_of(DataType::Float64), false),
                Field::new("evals_cp", list_of(DataType::Int32), false),
                Field::new("evals_mate", list_of(DataType::Int32), false),
                Field::new("plies", DataType::Int32, false),
                Field::new("ok", DataType::Boolean, false),
                Field::new("error", DataType::Struct(finding_fields()), true),
                Field::new("warnings", list_of(DataType::Struct(finding_fields())), false),
                Field::new("tags", DataType::Map(Arc::new(entries), false), false),
                Field::new("pgn", DataType::Binary, true),
            ]))
        })
        .clone()
}

/// A finding's builder: a struct of kind, line, column and message.
fn finding_builder() -> StructBuilder {
    StructBuilder::new(
        finding_fields(),
        vec![
            Box::new(StringBuilder::new()) as Box<dyn ArrayBuilder>,
            Box::new(Int64Builder::new()),
            Box::new(Int64Builder::new()),
            Box::new(StringBuilder::new()),
        ],
    )
}

/// Appends a finding (or, for `None`, a null one) to a finding's builder.
fn append_finding(builder: &mut StructBuilder, finding: Option<&Finding>) {
    let (kind, line, column, message) = match finding {
        Some(f) => (f.kind, i64::from(f.line), i64::from(f.column), f.message.as_str()),
        None => ("", 0, 0, ""),
    };
    // The children of a null struct hold placeholders: Arrow needs every child as long as it.
    if let Some(b) = builder.field_builder::<StringBuilder>(0) {
        b.append_value(kind);
    }
    if let Some(b) = builder.field_builder::<Int64Builder>(1) {
        b.append_value(line);
    }
    if let Some(b) = builder.field_builder::<Int64Builder>(2) {
        b.append_value(column);
    }
    if let Some(b) = builder.field_builder::<StringBuilder>(3) {
        b.append_value(message);
    }
    builder.append(finding.is_some());
}

/// Rows gathered column by column, until they are written as a record batch.
pub struct Columns {
    rows: usize,
    /// The bytes the rows hold, about: what a batch is cut by.
    bytes: usize,
    file: StringBuilder,
    game: Int64Builder,
    offset: Int64Builder,
    line: Int64Builder,
    site: StringBuilder,
    event: StringBuilder,
    white: StringBuilder,
    black: StringBuilder,
    result: StringBuilder,
    white_elo: Int32Builder,
    black_elo: Int32Builder,
    white_rating_diff: Int32Builder,
    black_rating_diff: Int32Builder,
    date: Date32Builder,
    utc_time: Time32MillisecondBuilder,
    tc_base_s: Int32Builder,
    tc_increment_s: Int32Builder,
    termination: StringBuilder,
    eco: StringBuilder,
    opening: StringBuilder,
    variant: StringBuilder,
    moves_uci: ListBuilder<StringBuilder>,
    moves_san: ListBuilder<StringBuilder>,
    clocks_s: ListBuilder<Float64Builder>,
    evals_cp: ListBuilder<Int32Builder>,
    evals_mate: ListBuilder<Int32Builder>,
    plies: Int32Builder,
    ok: BooleanBuilder,
    error: StructBuilder,
    warnings: ListBuilder<StructBuilder>,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    pgn: BinaryBuilder,
}

impl Default for Columns {
    fn default() -> Columns {
        Columns::new()
    }
}

impl Columns {
    /// No rows yet.
    pub fn new() -> Columns {
        Columns {
            rows: 0,
            bytes: 0,
            file: StringBuilder::new(),
            game: Int64Builder::new(),
            offset: Int64Builder::new(),
            line: Int64Builder::new(),
            site: StringBuilder::new(),
            event: StringBuilder::new(),
            white: StringBuilder::new(),
            black: StringBuilder::new(),
            result: StringBuilder::new(),
            white_elo: Int32Builder::new(),
            black_elo: Int32Builder::new(),
            white_rating_diff: Int32Builder::new(),
            black_rating_diff: Int32Builder::new(),
            date: Date32Builder::new(),
            utc_time: Time32MillisecondBuilder::new(),
            tc_base_s: Int32Builder::new(),
            tc_increment_s: Int32Builder::new(),
            termination: StringBuilder::new(),
            eco: StringBuilder::new(),
            opening: StringBuilder::new(),
            variant: StringBuilder::new(),
            moves_uci: ListBuilder::new(StringBuilder::new()),
            moves_san: ListBuilder::new(StringBuilder::new()),
            clocks_s: ListBuilder::new(Float64Builder::new()),
            evals_cp: ListBuilder::new(Int32Builder::new()),
            evals_mate: ListBuilder::new(Int32Builder::new()),
            plies: Int32Builder::new(),
            ok: BooleanBuilder::new(),
            error: finding_builder(),
            warnings: ListBuilder::new(finding_builder()),
            tags: MapBuilder::new(Some(map_names()), StringBuilder::new(), StringBuilder::new()),
            pgn: BinaryBuilder::new(),
        }
    }

    /// How many rows are gathered.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// About how many bytes the rows gathered hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Adds a row, of the input named `file`.
    pub fn push(&mut self, file: &str, row: &GameRow) {
        self.rows += 1;
        self.bytes += row.size();
        self.file.append_value(file);
        self.game.append_value(i64::try_from(row.game).unwrap_or(i64::MAX));
        self.offset.append_value(i64::try_from(row.offset).unwrap_or(i64::MAX));
        self.line.append_value(i64::from(row.line));
        self.site.append_option(row.site.as_deref());
        self.event.append_option(row.event.as_deref());
        self.white.append_option(row.white.as_deref());
        self.black.append_option(row.black.as_deref());
        self.result.append_option(row.result.as_deref());
        self.white_elo.append_option(row.white_elo);
        self.black_elo.append_option(row.black_elo);
        self.white_rating_diff.append_option(row.white_rating_diff);
        self.black_rating_diff.append_option(row.black_rating_diff);
        self.date.append_option(row.date.map(|date| date.days()));
        self.utc_time.append_option(row.utc_time.map(TimeOfDay::millis));
        self.tc_base_s.append_option(row.tc_base_s);
        self.tc_increment_s.append_option(row.tc_increment_s);
        self.termination.append_option(row.termination.as_deref());
        self.eco.append_option(row.eco.as_deref());
        self.opening.append_option(row.opening.as_deref());
        self.variant.append_value(&row.variant);
        for m in &row.moves_uci {
            self.moves_uci.values().append_value(m);
        }
        self.moves_uci.append(true);
        for m in &row.moves_san {
            self.moves_san.values().append_value(m);
        }
        self.moves_san.append(true);
        for &clock in &row.clocks_s {
            self.clocks_s.values().append_option(clock);
        }
        self.clocks_s.append(true);
        for &cp in &row.evals_cp {
            self.evals_cp.values().append_option(cp);
        }
        self.evals_cp.append(true);
        for &mate in &row.evals_mate {
            self.evals_mate.values().append_option(mate);
        }
        self.evals_mate.append(true);
        self.plies.append_value(i32::try_from(row.plies).unwrap_or(i32::MAX));
        self.ok.append_value(row.ok);
        append_finding(&mut self.error, row.error.as_ref());
        for warning in &row.warnings {
            append_finding(self.warnings.values(), Some(warning));
        }
        self.warnings.append(true);
        for (name, value) in &row.tags {
            self.tags.keys().append_value(name);
            self.tags.values().append_value(value);
        }
        // Appending to a map whose keys and values are as long as each other cannot fail.
        let _ = self.tags.append(true);
        self.pgn.append_option(row.pgn.as_deref());
    }

    /// The rows gathered as a record batch; the builders start again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        self.bytes = 0;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.site.finish()),
            Arc::new(self.event.finish()),
            Arc::new(self.white.finish()),
            Arc::new(self.black.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.white_elo.finish()),
            Arc::new(self.black_elo.finish()),
            Arc::new(self.white_rating_diff.finish()),
            Arc::new(self.black_rating_diff.finish()),
            Arc::new(self.date.finish()),
            Arc::new(self.utc_time.finish()),
            Arc::new(self.tc_base_s.finish()),
            Arc::new(self.tc_increment_s.finish()),
            Arc::new(self.termination.finish()),
            Arc::new(self.eco.finish()),
            Arc::new(self.opening.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(self.moves_uci.finish()),
            Arc::new(self.moves_san.finish()),
            Arc::new(self.clocks_s.finish()),
            Arc::new(self.evals_cp.finish()),
            Arc::new(self.evals_mate.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.ok.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.warnings.finish()),
            Arc::new(self.tags.finish()),
            Arc::new(self.pgn.finish()),
        ];
        RecordBatch::try_new(schema(), columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builders_give_the_schema() {
        let mut columns = Columns::new();
        columns.push("f.pgn", &GameRow::default());
        let batch = columns.finish().expect("a batch of the schema");
        assert_eq!(batch.num_rows(), 1);
        assert_eq!(batch.schema(), schema());
        assert_eq!(columns.finish().expect("empty").num_rows(), 0);
    }
}
