//! A game read into a row: its tags into typed columns, its mainline into moves, clocks and
//! evaluations, its verdict and findings.
//!
//! A tag with a column of its own goes there when the column gives it back exactly as written
//! (`[WhiteElo "1500"]` is 1500, `[Date "2024.01.15"]` the 15th of January); any other tag, and
//! one whose value the column cannot hold as written (`[WhiteElo "?"]`, `[TimeControl "-"]`,
//! `[Date "2024.??.??"]`), goes into `tags`, as written. Nothing of the tag section is lost.

use std::fmt;

use arbiter_chess_record::pgn::{
    Eval, GameReport, GameText, Listener, Mode, Problem, comment_clock, comment_eval, tag_value,
};
use arbiter_chess_record::shakmaty::uci::UciMove;
use arbiter_chess_record::shakmaty::{CastlingMode, Move, Position};
use arbiter_chess_record::{Start, escaped};

/// A calendar date, as PGN writes it: `2024.01.15`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    /// The year.
    pub year: i32,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day, 1 to the month's length.
    pub day: u32,
}

impl Date {
    /// The date written `YYYY.MM.DD`, when it is one (no `?` in it, a day the month has).
    pub fn parse(text: &str) -> Option<Date> {
        let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *text.as_bytes() else {
            return None;
        };
        let digits = [y0, y1, y2, y3, m0, m1, d0, d1];
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = |bytes: &[u8]| bytes.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'));
        let year = n(&[y0, y1, y2, y3]) as i32;
        let date = Date { year, month: n(&[m0, m1]), day: n(&[d0, d1]) };
        let valid = (1..=12).contains(&date.month) && (1..=date.month_length()).contains(&date.day);
        valid.then_some(date)
    }

    fn month_length(self) -> u32 {
        let leap = self.year % 4 == 0 && (self.year % 100 != 0 || self.year % 400 == 0);
        match self.month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }

    /// Days since 1970-01-01 (Arrow's `Date32`).
    pub fn days(self) -> i32 {
        // Howard Hinnant's days_from_civil.
        let (m, d) = (self.month as i32, self.day as i32);
        let y = self.year - i32::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date of a day counted from 1970-01-01.
    pub fn from_days(days: i32) -> Date {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Date { year: yoe + era * 400 + i32::from(month <= 2), month, day }
    }

    /// The partition of the dataset the date falls in: `2024-01`.
    pub fn month_key(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }
}

/// As PGN writes it: `2024.01.15`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// A time of day, to the second, as PGN writes it: `18:04:33`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOfDay(u32);

impl TimeOfDay {
    /// The time written `HH:MM:SS`, when it is one.
    pub fn parse(text: &str) -> Option<TimeOfDay> {
        let [h0, h1, b':', m0, m1, b':', s0, s1] = *text.as_bytes() else {
            return None;
        };
        if ![h0, h1, m0, m1, s0, s1].iter().all(u8::is_ascii_digit) {
            return None;
        }
        let two = |a: u8, b: u8| u32::from(a - b'0') * 10 + u32::from(b - b'0');
        let (h, m, s) = (two(h0, h1), two(m0, m1), two(s0, s1));
        (h < 24 && m < 60 && s < 60).then_some(TimeOfDay(h * 3600 + m * 60 + s))
    }

    /// The time `seconds` after midnight, when it is one.
    pub fn from_seconds(seconds: i32) -> Option<TimeOfDay> {
        u32::try_from(seconds).ok().filter(|&s| s < 86_400).map(TimeOfDay)
    }

    /// The time `millis` milliseconds after midnight, when it is one in whole seconds.
    pub fn from_millis(millis: i32) -> Option<TimeOfDay> {
        if millis % 1000 != 0 {
            return None;
        }
        TimeOfDay::from_seconds(millis / 1000)
    }

    /// Seconds since midnight.
    pub fn seconds(self) -> i32 {
        self.0 as i32
    }

    /// Milliseconds since midnight: Arrow's `Time32(Millisecond)`, which Parquet stores as a
    /// `TIME(MILLIS)` that every reader takes for a time (it has no type for seconds).
    pub fn millis(self) -> i32 {
        self.0 as i32 * 1000
    }
}

/// As PGN writes it: `18:04:33`.
impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}:{:02}", self.0 / 3600, self.0 / 60 % 60, self.0 % 60)
    }
}

/// A finding on a game, as the dataset holds it: the error, or a warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finding {
    /// Its kind: `move`, `syntax`, `fen`, `variant`, `no_result`, `too_large`, and for
    /// warnings `result`, `truncated`, `clock`.
    pub kind: &'static str,
    /// Its line in the file.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// What `arbiter chess pgn` says of it.
    pub message: String,
}

impl From<&Problem> for Finding {
    fn from(problem: &Problem) -> Finding {
        let at = problem.at();
        Finding {
            kind: problem.kind(),
            line: at.line,
            column: at.column,
            message: problem.to_string(),
        }
    }
}

/// One game as a row of the dataset (see [`crate::columns`] for each column's meaning).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRow {
    /// Its number in its file, from 1.
    pub game: u64,
    /// Where its first character stands in the file's text, in bytes.
    pub offset: u64,
    /// The line it starts on.
    pub line: u32,
    /// The `Site` tag.
    pub site: Option<String>,
    /// The `Event` tag.
    pub event: Option<String>,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Result` tag.
    pub result: Option<String>,
    /// The `WhiteElo` tag.
    pub white_elo: Option<i32>,
    /// The `BlackElo` tag.
    pub black_elo: Option<i32>,
    /// The `WhiteRatingDiff` tag.
    pub white_rating_diff: Option<i32>,
    /// The `BlackRatingDiff` tag.
    pub black_rating_diff: Option<i32>,
    /// The `UTCDate` tag, else the `Date` tag.
    pub date: Option<Date>,
    /// The `UTCTime` tag.
    pub utc_time: Option<TimeOfDay>,
    /// The base time of the `TimeControl` tag (`180+2`: 180), in seconds.
    pub tc_base_s: Option<i32>,
    /// The increment of the `TimeControl` tag (`180+2`: 2), in seconds.
    pub tc_increment_s: Option<i32>,
    /// The `Termination` tag.
    pub termination: Option<String>,
    /// The `ECO` tag.
    pub eco: Option<String>,
    /// The `Opening` tag.
    pub opening: Option<String>,
    /// The variant it is played in: `Standard`, `Chess960`, `Atomic`, ...
    pub variant: String,
    /// The mainline's moves in UCI, up to the first wrong one (`0000` for a null move).
    pub moves_uci: Vec<String>,
    /// The same moves in standard SAN (`--` for a null move).
    pub moves_san: Vec<String>,
    /// The clock after each move, in seconds, where a `[%clk ...]` comment gives it.
    pub clocks_s: Vec<Option<f64>>,
    /// The evaluation after each move in centipawns, where a `[%eval ...]` comment gives one.
    pub evals_cp: Vec<Option<i32>>,
    /// The evaluation after each move as a mate in so many moves (negative: black mates).
    pub evals_mate: Vec<Option<i32>>,
    /// The mainline's moves read and accepted.
    pub plies: u32,
    /// Whether the game has no error.
    pub ok: bool,
    /// The first error.
    pub error: Option<Finding>,
    /// The warnings.
    pub warnings: Vec<Finding>,
    /// Every other tag, and every tag its column cannot give back as written, in order.
    pub tags: Vec<(String, String)>,
    /// The game's text, when its columns do not give it back (see [`crate::text`]).
    pub pgn: Option<Vec<u8>>,
}

impl GameRow {
    /// About how many bytes the row holds.
    pub fn size(&self) -> usize {
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let strings = [&self.site, &self.event, &self.white, &self.black, &self.result];
        let more = [&self.termination, &self.eco, &self.opening];
        256 + strings.iter().chain(&more).map(|s| text(s)).sum::<usize>()
            + self.moves_uci.iter().chain(&self.moves_san).map(|m| m.len() + 4).sum::<usize>()
            + self.clocks_s.len() * 24
            + self.warnings.iter().chain(&self.error).map(|w| w.message.len() + 24).sum::<usize>()
            + self.tags.iter().map(|(k, v)| k.len() + v.len() + 8).sum::<usize>()
            + self.pgn.as_ref().map_or(0, Vec::len)
    }

    /// The partition the game falls in: the month of its date, or `None` when it has none.
    pub fn month(&self) -> Option<String> {
        self.date.map(Date::month_key)
    }

    /// The row of a game too large to read, which the report tells of.
    pub fn too_large(report: &GameReport) -> GameRow {
        GameRow {
            game: report.index as u64,
            offset: report.offset,
            line: report.line,
            variant: report.variant.name().to_owned(),
            error: report.error.as_ref().map(Finding::from),
            ..GameRow::default()
        }
    }

    /// Reads and checks `game` in `mode` into a row (without its text: see
    /// [`crate::text::settle`]), and its report.
    pub fn read(game: &GameText, mode: Mode) -> (GameRow, GameReport) {
        let mut heard = Heard::default();
        let report = game.check_with(mode, &mut heard);
        let mut row = GameRow {
            game: report.index as u64,
            offset: report.offset,
            line: report.line,
            variant: report.variant.name().to_owned(),
            plies: report.plies,
            ok: report.ok,
            error: report.error.as_ref().map(Finding::from),
            warnings: report.warnings.iter().map(Finding::from).collect(),
            ..GameRow::default()
        };
        let mut utc_date = None;
        let mut date_tag = None;
        for (name, raw) in &heard.tags {
            let name = escaped(name);
            let value = escaped(&tag_value(raw));
            if !row.take_tag(&name, &value, &mut utc_date, &mut date_tag) {
                row.tags.push((name, value));
            }
        }
        row.settle_dates(utc_date, date_tag);
        let plies = heard.moves_san.len();
        row.moves_uci = heard.moves_uci;
        row.moves_san = heard.moves_san;
        row.clocks_s = heard.clocks;
        row.clocks_s.resize(plies, None);
        row.evals_cp.resize(plies, None);
        row.evals_mate.resize(plies, None);
        for (ply, eval) in heard.evals.into_iter().enumerate().take(plies) {
            match eval {
                Some(Eval::Centipawns(cp)) => row.evals_cp[ply] = Some(cp),
                Some(Eval::Mate(n)) => row.evals_mate[ply] = Some(n),
                None => {}
            }
        }
        (row, report)
    }

    /// Puts a tag into its column, when it has one that gives it back exactly and is not yet
    /// taken: whether it did. The dates are settled once every tag is read.
    fn take_tag(
        &mut self,
        name: &str,
        value: &str,
        utc_date: &mut Option<String>,
        date_tag: &mut Option<String>,
    ) -> bool {
        fn text(column: &mut Option<String>, value: &str) -> bool {
            column.is_none() && {
                *column = Some(value.to_owned());
                true
            }
        }
        fn number(column: &mut Option<i32>, value: &str, signed: bool) -> bool {
            let Ok(n) = value.parse::<i32>() else {
                return false;
            };
            // Only the spelling the number is written back in: `1500`, and `+5` or `-5`.
            let again = if signed { format!("{n:+}") } else { n.to_string() };
            column.is_none() && again == value && {
                *column = Some(n);
                true
            }
        }
        match name {
            "Site" => text(&mut self.site, value),
            "Event" => text(&mut self.event, value),
            "White" => text(&mut self.white, value),
            "Black" => text(&mut self.black, value),
            "Result" => text(&mut self.result, value),
            "Termination" => text(&mut self.termination, value),
            "ECO" => text(&mut self.eco, value),
            "Opening" => text(&mut self.opening, value),
            "WhiteElo" => number(&mut self.white_elo, value, false),
            "BlackElo" => number(&mut self.black_elo, value, false),
            "WhiteRatingDiff" => number(&mut self.white_rating_diff, value, true),
            "BlackRatingDiff" => number(&mut self.black_rating_diff, value, true),
            "UTCTime" => match TimeOfDay::parse(value) {
                Some(time) if self.utc_time.is_none() => {
                    self.utc_time = Some(time);
                    true
                }
                _ => false,
            },
            "TimeControl" => match time_control(value) {
                Some((base, increment)) if self.tc_base_s.is_none() => {
                    (self.tc_base_s, self.tc_increment_s) = (Some(base), Some(increment));
                    true
                }
                _ => false,
            },
            // Held until every tag is read: the column takes UTCDate, else Date.
            "UTCDate" if utc_date.is_none() && Date::parse(value).is_some() => {
                *utc_date = Some(value.to_owned());
                true
            }
            "Date" if date_tag.is_none() && Date::parse(value).is_some() => {
                *date_tag = Some(value.to_owned());
                true
            }
            _ => false,
        }
    }

    /// `date` from the `UTCDate` tag, else from the `Date` tag; a `Date` tag that says another
    /// day than `UTCDate` goes into `tags`.
    fn settle_dates(&mut self, utc_date: Option<String>, date_tag: Option<String>) {
        self.date = utc_date.as_deref().or(date_tag.as_deref()).and_then(Date::parse);
        if let (Some(utc), Some(date)) = (&utc_date, date_tag)
            && *utc != date
        {
            self.tags.push(("Date".to_owned(), date));
        }
    }
}

/// The base and increment of a time control written `BASE+INCREMENT` in seconds (`180+2`).
fn time_control(text: &str) -> Option<(i32, i32)> {
    let (base, increment) = text.split_once('+')?;
    let (base, increment) = (base.parse::<i32>().ok()?, increment.parse::<i32>().ok()?);
    (base >= 0 && increment >= 0 && format!("{base}+{increment}") == text)
        .then_some((base, increment))
}

/// What a check tells of a game's tags and mainline.
#[derive(Default)]
struct Heard {
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    castling: Option<CastlingMode>,
    moves_uci: Vec<String>,
    moves_san: Vec<String>,
    clocks: Vec<Option<f64>>,
    evals: Vec<Option<Eval>>,
}

impl Listener for Heard {
    fn start(&mut self, start: &Start) {
        self.castling = Some(match start {
            Start::Chess(pos) => pos.castles().mode(),
            Start::Variant(pos) => pos.castles().mode(),
        });
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.tags.push((name.to_vec(), value.to_vec()));
    }

    fn play(&mut self, _ply: u32, _token: &str, played: Option<Move>, canonical: &str) {
        let uci = match played {
            Some(m) => {
                UciMove::from_move(m, self.castling.unwrap_or(CastlingMode::Standard)).to_string()
            }
            None => "0000".to_owned(),
        };
        self.moves_uci.push(uci);
        self.moves_san.push(canonical.to_owned());
    }

    fn comment(&mut self, ply: u32, text: &[u8]) {
        // A comment before the first move has no move to be after.
        let Some(index) = (ply as usize).checked_sub(1) else {
            return;
        };
        if index >= self.clocks.len() {
            self.clocks.resize(index + 1, None);
            self.evals.resize(index + 1, None);
        }
        // The first command of each kind after a move counts.
        if self.clocks[index].is_none() {
            self.clocks[index] = comment_clock(text);
        }
        if self.evals[index].is_none() {
            self.evals[index] = comment_eval(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_chess_record::pgn::PgnGames;

    use super::*;

    fn row(pgn: &str, mode: Mode) -> GameRow {
        let game = PgnGames::new(pgn.as_bytes()).next().expect("a game");
        GameRow::read(&game, mode).0
    }

    #[test]
    fn dates_are_days_and_back() {
        for text in ["1970.01.01", "2024.02.29", "1999.12.31", "2000.03.01", "1600.01.01"] {
            let date = Date::parse(text).expect(text);
            assert_eq!(Date::from_days(date.days()), date);
            assert_eq!(date.to_string(), text);
        }
        assert_eq!(Date::parse("1970.01.02").map(Date::days), Some(1));
        for wrong in ["2023.02.29", "2024.13.01", "2024.??.??", "2024.1.1", "????.??.??"] {
            assert_eq!(Date::parse(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn tags_go_to_their_columns_when_given_back_exactly() {
        let pgn = "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n\
                   [Date \"2024.01.15\"]\n[Round \"-\"]\n[White \"A\"]\n[Black \"B\"]\n\
                   [Result \"1-0\"]\n[UTCDate \"2024.01.15\"]\n[UTCTime \"18:04:33\"]\n\
                   [WhiteElo \"1500\"]\n[BlackElo \"?\"]\n[WhiteRatingDiff \"+5\"]\n\
                   [BlackRatingDiff \"-05\"]\n[TimeControl \"180+2\"]\n[Annotator \"\\\"me\\\"\"]\n\n\
                   1. e4 { [%eval 0.17] [%clk 0:02:58] } 1... e5 { [%clk 0:02:59] } 2. Qh5 1-0\n";
        let row = row(pgn, Mode::Strict);
        assert!(row.ok, "{:?}", row.error);
        assert_eq!(row.site.as_deref(), Some("https://lichess.org/abc"));
        assert_eq!((row.white_elo, row.black_elo), (Some(1500), None));
        assert_eq!((row.white_rating_diff, row.black_rating_diff), (Some(5), None));
        assert_eq!(row.date, Date::parse("2024.01.15"));
        assert_eq!(row.utc_time.map(TimeOfDay::seconds), Some(18 * 3600 + 4 * 60 + 33));
        assert_eq!((row.tc_base_s, row.tc_increment_s), (Some(180), Some(2)));
        let tags: Vec<(&str, &str)> =
            row.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            tags,
            [
                ("Round", "-"),
                ("BlackElo", "?"),
                ("BlackRatingDiff", "-05"),
                ("Annotator", "\"me\"")
            ]
        );
        assert_eq!(row.moves_uci, ["e2e4", "e7e5", "d1h5"]);
        assert_eq!(row.moves_san, ["e4", "e5", "Qh5"]);
        assert_eq!(row.clocks_s, [Some(178.0), Some(179.0), None]);
        assert_eq!(row.evals_cp, [Some(17), None, None]);
        assert_eq!(row.evals_mate, [None, None, None]);
        assert_eq!(row.month().as_deref(), Some("2024-01"));
    }

    #[test]
    fn the_moves_stop_at_the_first_wrong_one() {
        let strict = row("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. 0-0 *\n", Mode::Strict);
        assert_eq!((strict.ok, strict.plies, strict.moves_san.len()), (false, 6, 6));
        assert_eq!(strict.error.as_ref().map(|e| e.kind), Some("move"));
        let lenient = row("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. 0-0 -- *\n", Mode::Lenient);
        assert_eq!(lenient.moves_san[6..], ["O-O", "--"]);
        assert_eq!(lenient.moves_uci[6..], ["e1g1", "0000"]);
        assert_eq!(lenient.warnings.len(), 2);
    }

    #[test]
    fn chess960_castles_onto_its_rook_in_uci() {
        let pgn = "[Variant \"Chess960\"]\n[FEN \"rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1\"]\n\n\
                   1. O-O-O *\n";
        let row = row(pgn, Mode::Strict);
        assert!(row.ok, "{:?}", row.error);
        assert_eq!(row.moves_uci, ["b1a1"]);
        assert_eq!(row.variant, "Chess960");
    }
}
