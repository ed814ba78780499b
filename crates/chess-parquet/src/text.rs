//! A row written back as PGN: the layout of lichess's database, from the columns alone, or the
//! text the row keeps when the columns cannot give it back.
//!
//! The layout, for a row whose tags and moves fill the columns: the tags in lichess's order
//! (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`, `UTCDate`, `UTCTime`,
//! `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff`, the other tags in their order,
//! then `ECO`, `Opening`, `TimeControl`, `Termination`), a blank line, the movetext on one line
//! (`1. e4 { [%eval 0.17] [%clk 0:02:58] } 1... e5 { [%clk 0:02:59] } ... 1-0`: a comment after
//! each move that has a clock or an evaluation, black's move numbered again after one), and the
//! blank line that ends the game.
//!
//! When converting, a game whose text is exactly that layout with every move in canonical SAN
//! keeps no text (its `pgn` column is null); any other game keeps the text `arbiter chess fix`
//! writes for it, byte for byte, with the blank lines after it. Written back one after the other,
//! the rows give `chess fix`'s output for the file, whichever way each game was written.

use std::fmt::Write as _;

use arbiter_chess_record::Dialect;
use arbiter_chess_record::fix::rewrite_game;
use arbiter_chess_record::pgn::{GameReport, GameText};

use crate::row::{Date, GameRow};

/// Where each tag stands in the layout.
enum Slot {
    /// A tag with a column of its own (written from it, else from `tags` as written).
    Column(&'static str),
    /// A tag without one, written from `tags` here when it is there.
    Tag(&'static str),
    /// Every tag of `tags` not written elsewhere, in its order.
    Others,
}

const LAYOUT: [Slot; 18] = [
    Slot::Column("Event"),
    Slot::Column("Site"),
    Slot::Column("Date"),
    Slot::Tag("Round"),
    Slot::Column("White"),
    Slot::Column("Black"),
    Slot::Column("Result"),
    Slot::Column("UTCDate"),
    Slot::Column("UTCTime"),
    Slot::Column("WhiteElo"),
    Slot::Column("BlackElo"),
    Slot::Column("WhiteRatingDiff"),
    Slot::Column("BlackRatingDiff"),
    Slot::Others,
    Slot::Column("ECO"),
    Slot::Column("Opening"),
    Slot::Column("TimeControl"),
    Slot::Column("Termination"),
];

/// The value the columns give a tag that has one.
fn column_value(row: &GameRow, name: &str) -> Option<String> {
    match name {
        "Event" => row.event.clone(),
        "Site" => row.site.clone(),
        "Date" | "UTCDate" => row.date.map(|date| date.to_string()),
        "White" => row.white.clone(),
        "Black" => row.black.clone(),
        "Result" => row.result.clone(),
        "UTCTime" => row.utc_time.map(|time| time.to_string()),
        "WhiteElo" => row.white_elo.map(|n| n.to_string()),
        "BlackElo" => row.black_elo.map(|n| n.to_string()),
        "WhiteRatingDiff" => row.white_rating_diff.map(|n| format!("{n:+}")),
        "BlackRatingDiff" => row.black_rating_diff.map(|n| format!("{n:+}")),
        "ECO" => row.eco.clone(),
        "Opening" => row.opening.clone(),
        "TimeControl" => match (row.tc_base_s, row.tc_increment_s) {
            (Some(base), Some(increment)) => Some(format!("{base}+{increment}")),
            _ => None,
        },
        "Termination" => row.termination.clone(),
        _ => None,
    }
}

/// A tag pair as PGN writes it, its value escaped.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, "[{name} \"");
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]\n");
}

/// An evaluation in pawns as lichess writes it: `0.17`, `-1.5`, `3.0`.
pub fn pawns(centipawns: i32) -> String {
    let sign = if centipawns < 0 { "-" } else { "" };
    let abs = centipawns.unsigned_abs();
    let (whole, hundredths) = (abs / 100, abs % 100);
    match hundredths {
        0 => format!("{sign}{whole}.0"),
        h if h % 10 == 0 => format!("{sign}{whole}.{}", h / 10),
        h => format!("{sign}{whole}.{h:02}"),
    }
}

/// A clock as `[%clk ...]` writes it: `0:02:58`, with a fraction when it has one (`0:00:07.5`).
fn clock(seconds: f64) -> String {
    let whole = seconds.trunc();
    let s = whole as u64;
    let mut text = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if seconds != whole {
        let fraction = format!("{}", seconds - whole);
        text.push_str(fraction.trim_start_matches('0'));
    }
    text
}

/// The side to move and the move number of the game's first move: from its `FEN` tag, else
/// white's first move.
fn first_turn(row: &GameRow) -> Option<(bool, u32)> {
    let Some((_, fen)) = row.tags.iter().find(|(name, _)| name == "FEN") else {
        return Some((true, 1));
    };
    let mut fields = fen.split(' ');
    let white = match fields.nth(1)? {
        "w" => true,
        "b" => false,
        _ => return None,
    };
    let number = fields.nth(3).map_or(Some(1), |n| n.parse().ok())?;
    Some((white, number))
}

/// The game's text in the layout (see the module documentation), from its columns alone, with
/// the blank line that ends it; `None` when they cannot give one (a `FEN` tag that says no turn).
pub fn layout_text(row: &GameRow) -> Option<Vec<u8>> {
    let mut out = String::with_capacity(1024);
    let mut used = vec![false; row.tags.len()];
    let from_tags = |out: &mut String, name: &str, used: &mut [bool]| {
        if let Some(i) = row.tags.iter().position(|(n, _)| n == name) {
            used[i] = true;
            write_tag(out, name, &row.tags[i].1);
        }
    };
    for slot in &LAYOUT {
        match *slot {
            Slot::Column(name) => match column_value(row, name) {
                // A Date tag in `tags` is another day than UTCDate, which the column holds.
                Some(_) if name == "Date" && row.tags.iter().any(|(n, _)| n == "Date") => {
                    from_tags(&mut out, name, &mut used);
                }
                Some(value) => write_tag(&mut out, name, &value),
                None => from_tags(&mut out, name, &mut used),
            },
            Slot::Tag(name) => from_tags(&mut out, name, &mut used),
            Slot::Others => {
                for (i, (name, value)) in row.tags.iter().enumerate() {
                    if !used[i]
                        && !LAYOUT
                            .iter()
                            .any(|s| matches!(s, Slot::Tag(n) | Slot::Column(n) if n == name))
                    {
                        used[i] = true;
                        write_tag(&mut out, name, value);
                    }
                }
            }
        }
    }
    out.push('\n');
    let (mut white, mut number) = first_turn(row)?;
    let mut after_comment = true;
    for (ply, san) in row.moves_san.iter().enumerate() {
        if ply > 0 {
            out.push(' ');
        }
        if white {
            let _ = write!(out, "{number}. {san}");
        } else if after_comment {
            let _ = write!(out, "{number}... {san}");
        } else {
            out.push_str(san);
        }
        let eval = match (
            row.evals_cp.get(ply).copied().flatten(),
            row.evals_mate.get(ply).copied().flatten(),
        ) {
            (Some(cp), _) => Some(pawns(cp)),
            (None, Some(mate)) => Some(format!("#{mate}")),
            (None, None) => None,
        };
        let clock = row.clocks_s.get(ply).copied().flatten().map(clock);
        after_comment = eval.is_some() || clock.is_some();
        if after_comment {
            out.push_str(" {");
            if let Some(eval) = eval {
                let _ = write!(out, " [%eval {eval}]");
            }
            if let Some(clock) = clock {
                let _ = write!(out, " [%clk {clock}]");
            }
            out.push_str(" }");
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    if !row.moves_san.is_empty() {
        out.push(' ');
    }
    out.push_str(row.result.as_deref().unwrap_or("*"));
    out.push_str("\n\n");
    Some(out.into_bytes())
}

/// What a converted game keeps as its text: `None` when its columns give back exactly the text
/// `chess fix` writes for it; else that text.
///
/// The text of a row is the game's own (`game.text()`), with `before` it the bytes of the
/// stream before the game that belong to no other row (a byte order mark, blank lines before
/// the first game) and `after` it the bytes up to the next game (the blank lines that end it).
/// The check accepts every move of a game without a finding as its canonical spelling, so
/// `fix` would leave such a game as it is and only the layout is compared; any other game is
/// rewritten first.
pub fn settle(
    row: &GameRow,
    game: &GameText,
    report: &GameReport,
    before: &[u8],
    after: &[u8],
) -> Option<Vec<u8>> {
    let layout = layout_text(row);
    let text = game.text();
    let whole = |text: &[u8]| [before, text, after].concat();
    if report.ok && report.warnings.is_empty() {
        match &layout {
            Some(layout)
                if before.is_empty()
                    && layout.len() == text.len() + after.len()
                    && layout.starts_with(text)
                    && layout.ends_with(after) =>
            {
                return None;
            }
            _ => {}
        }
    }
    let rewrite = rewrite_game(game, Dialect::Standard);
    let mut fixed = Vec::with_capacity(game.bytes.len() + 64);
    // Writing into memory fails never.
    let _ = rewrite.write(game, &mut fixed);
    // The rewrite starts with the blank lines before the game, which `before` holds.
    let lead = game.bytes.len() - text.len();
    let fixed = whole(&fixed[lead.min(fixed.len())..]);
    if layout.as_deref() == Some(&fixed[..]) { None } else { Some(fixed) }
}

/// The day a [`Date`] column holds, back as a date: for readers of the dataset.
pub fn date_of_days(days: i32) -> Date {
    Date::from_days(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_and_clocks_as_lichess_writes_them() {
        assert_eq!(pawns(17), "0.17");
        assert_eq!(pawns(-150), "-1.5");
        assert_eq!(pawns(300), "3.0");
        assert_eq!(pawns(-5), "-0.05");
        assert_eq!(clock(178.0), "0:02:58");
        assert_eq!(clock(7.5), "0:00:07.5");
        assert_eq!(clock(36_000.0), "10:00:00");
    }
}
