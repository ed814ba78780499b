//! Why a line of the arena's answer is what it is, from the event trace of `arbiter_arena`: for a
//! hupraise number, the events of the round it was cast in; for a final position, the events of
//! the last round that moved the piece.

use arbiter_arena::event::Event;
use arbiter_arena::float_ties::{official_cmp, readings_differ};
use arbiter_arena::io::{parse_count, parse_game};
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::play_with;
use arbiter_arena::strength::Strength;
use arbiter_scan::{Place, Scanner};
use serde_json::Value;

use crate::problem::{Explanation, InputError};

/// The most events shown for a round.
const SHOWN: usize = 24;

/// Explains line `line` (1-based) of the answer to `input` under `rules`.
pub(super) fn explain(input: &str, line: usize, rules: Rules) -> Result<Explanation, InputError> {
    let error = |e: &dyn std::fmt::Display| InputError(e.to_string());
    let mut scanner = Scanner::new(input);
    let count = parse_count(&mut scanner).map_err(|e| error(&e))?;
    let mut first_line = 1;
    for number in 1..=count {
        let header = scanner.place();
        let game = parse_game(&mut scanner).map_err(|e| error(&e))?;
        let mut events: Vec<(u32, Event)> = Vec::new();
        let outcome =
            play_with(&game, rules, |round: u32, event: Event| events.push((round, event)))
                .map_err(|e| InputError(format!("game {number}, {e}")))?;
        let lines = outcome.matchings.len() + outcome.positions.len();
        if line >= first_line + lines {
            first_line += lines;
            continue;
        }
        let item = line - first_line;
        let place = |piece: usize| piece_place(input, header, &game, piece);
        let mut explanation = explain_item(&events, &outcome, item, number, rules, place)?;
        if let Some(note) = near_tie(&events, rules) {
            explanation.why.push_str("; ");
            explanation.why.push_str(&note);
        }
        return Ok(explanation);
    }
    Ok(Explanation {
        what: format!("line {line}"),
        why: format!("the answer has {}", crate::count(first_line - 1, "lines")),
        ..Explanation::default()
    })
}

/// The first fight of a game that the exact comparison and the official program's logarithms
/// decide differently, in words that name the switch: a near-tie, on which a program written
/// like the official one answers differently from the exact reading.
fn near_tie(events: &[(u32, Event)], rules: Rules) -> Option<String> {
    let (round, pos, red, blue) = events.iter().find_map(|(round, event)| match event {
        Event::Fight { pos, red_strength, blue_strength, .. } => {
            let red = Strength::new(red_strength.0, red_strength.1);
            let blue = Strength::new(blue_strength.0, blue_strength.1);
            readings_differ(red, blue).then_some((*round, *pos, red, blue))
        }
        _ => None,
    })?;
    let word = |order: std::cmp::Ordering| match order {
        std::cmp::Ordering::Less => "weaker than",
        std::cmp::Ordering::Equal => "as strong as",
        std::cmp::Ordering::Greater => "stronger than",
    };
    let reading = if rules.float_ties {
        "this run follows the official program (`float-ties`); without it the exact comparison decides"
    } else {
        "`--rules official,+float-ties` compares as the official program does"
    };
    Some(format!(
        "the game turns on a near-tie: in round {round} at ({},{}), red {red} is {} blue {blue} exactly, but {} it by the official program's logarithms within 1e-8; {reading}",
        pos.row,
        pos.col,
        word(red.cmp(&blue)),
        word(official_cmp(red, blue)),
    ))
}

/// Explains item `item` (0-based: hupraise numbers first, then positions) of game `number`.
fn explain_item(
    events: &[(u32, Event)],
    outcome: &arbiter_arena::outcome::Outcome,
    item: usize,
    number: usize,
    rules: Rules,
    place: impl Fn(usize) -> Option<Place>,
) -> Result<Explanation, InputError> {
    if item < outcome.matchings.len() {
        // The item-th hupraise of this game.
        let found = events.iter().filter(|(_, e)| matches!(e, Event::Matching { .. })).nth(item);
        let Some(&(round, Event::Matching { piece, pairs })) = found else {
            return Err(InputError(format!("no hupraise {} in game {number}", item + 1)));
        };
        let context = round_events(events, round, None);
        return Ok(Explanation {
            place: place(piece),
            what: format!("game {number}, hupraise {} (piece {piece}, round {round})", item + 1),
            why: format!(
                "a maximum matching of red with blue pieces whose a xor to a multiple of 3 ({}, with their {} a) has {}",
                if rules.hup_alive { "living pieces only" } else { "dead pieces included" },
                if rules.hup_orig { "starting" } else { "current" },
                crate::count(pairs, "pairs")
            ),
            context,
        });
    }
    let piece = item - outcome.matchings.len() + 1;
    let pos = outcome.positions[piece - 1];
    let last_moved = events.iter().rev().find(|(_, e)| moves(e, piece));
    let what = format!("game {number}, piece {piece}");
    Ok(match last_moved {
        Some(&(round, ref event)) => Explanation {
            place: place(piece),
            what,
            why: format!(
                "ends on ({},{}); it last changed place in round {round}: {}",
                pos.row,
                pos.col,
                describe(event)
            ),
            context: round_events(events, round, Some(piece)),
        },
        None => Explanation {
            place: place(piece),
            what,
            why: format!("ends on ({},{}), where it started: it never moved", pos.row, pos.col),
            context: Vec::new(),
        },
    })
}

/// Whether `event` puts `piece` somewhere (a step, a knockback, a backward).
fn moves(event: &Event, piece: usize) -> bool {
    match event {
        Event::Move { piece: p, .. }
        | Event::Knockback { piece: p, .. }
        | Event::Backward { piece: p, .. } => *p == piece,
        _ => false,
    }
}

/// Where piece `piece` (1-based) of the game whose header starts at `header` is written.
fn piece_place(
    input: &str,
    header: Place,
    game: &arbiter_arena::game::Game,
    piece: usize,
) -> Option<Place> {
    let mut scanner = Scanner::new(input);
    // Find the header token again, then skip the header, the map and the earlier pieces.
    while scanner.place() < header {
        scanner.next_token()?;
    }
    let grid = game.grid();
    let before = 4 + (grid.rows() * grid.cols()) as usize;
    let pieces: usize =
        game.pieces()[..piece - 1].iter().map(|p| 10 + p.skill.kind().arity()).sum();
    for _ in 0..before + pieces {
        scanner.next_token()?;
    }
    Some(scanner.place())
}

/// The events of round `round` in words: those that concern `piece` when it is given, else
/// those that can change an attribute a (steps and turns cannot, and would hide the others).
fn round_events(events: &[(u32, Event)], round: u32, piece: Option<usize>) -> Vec<String> {
    let chosen: Vec<String> = events
        .iter()
        .filter(|(r, e)| {
            *r == round
                && match piece {
                    Some(p) => concerns(e, p),
                    None => !matches!(e, Event::Move { .. } | Event::Turn { .. }),
                }
        })
        .map(|(_, e)| format!("  {}", describe(e)))
        .collect();
    let mut lines = vec![match piece {
        Some(piece) => format!("round {round}, the events of piece {piece}:"),
        None => format!("round {round}, its events but steps and turns:"),
    }];
    let total = chosen.len();
    lines.extend(chosen.into_iter().take(SHOWN));
    if total > SHOWN {
        lines.push(format!("  ... ({} more)", total - SHOWN));
    }
    lines
}

/// Whether `event` names `piece` in any role (mover, caster, fighter, loser).
fn concerns(event: &Event, piece: usize) -> bool {
    let Ok(Value::Object(fields)) = serde_json::to_value(event) else { return false };
    ["piece", "by", "red", "blue", "loser"]
        .iter()
        .any(|key| fields.get(*key).and_then(Value::as_u64) == Some(piece as u64))
}

/// An event in words: its kind, then its fields, positions written `(row,col)`. Built from the
/// event's JSON form, so that every kind the trace has is shown the same way.
pub(crate) fn describe(event: &Event) -> String {
    let Ok(Value::Object(fields)) = serde_json::to_value(event) else {
        return format!("{event:?}");
    };
    let kind = fields.get("kind").and_then(Value::as_str).unwrap_or("event").replace('_', " ");
    let mut text = kind;
    // The piece first and the caster last read best; JSON objects keep no order of their own.
    let first = ["piece", "team"];
    let last = ["by"];
    let keys = first
        .iter()
        .copied()
        .chain(
            fields
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "kind" && !first.contains(k) && !last.contains(k)),
        )
        .chain(last);
    for key in keys {
        if let Some(value) = fields.get(key) {
            text.push_str(&format!(" {key} {}", value_text(value)));
        }
    }
    text
}

fn value_text(value: &Value) -> String {
    match value {
        Value::Object(map) => match (map.get("row"), map.get("col")) {
            (Some(row), Some(col)) => format!("({row},{col})"),
            _ => value.to_string(),
        },
        Value::Array(items) if items.len() > 8 => format!("[{} items]", items.len()),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(value_text).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Null => "none".to_owned(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arena crate's example: red C(3, 1) beats blue C(1, 1) in round 1; blue respawns, and
    /// its hupraise pairs them in round 2. The answer: `0`, `1`, `1 3`, `1 1`.
    const INPUT: &str =
        "1\n1 3 2 2\n0 0 0\n1 1 3 1 0 3 1 1 1 toolihai\n1 3 1 1 1 2 1 1 1 hupraise\n";

    #[test]
    fn a_position_is_explained_by_its_last_move() {
        let why = explain(INPUT, 3, Rules::official()).unwrap();
        assert_eq!(why.what, "game 1, piece 1");
        assert_eq!(why.place.map(|p| (p.line, p.column)), Some((4, 1)));
        assert!(
            why.why.starts_with(
                "ends on (1,3); it last changed place in round 2: move piece 1 from (1,2) to (1,3)"
            ),
            "{}",
            why.why
        );
        assert!(why.context.iter().any(|l| l.contains("move piece 1")), "{:?}", why.context);
    }

    #[test]
    fn a_hupraise_number_is_explained_by_its_round() {
        let why = explain(INPUT, 2, Rules::official()).unwrap();
        assert_eq!(why.what, "game 1, hupraise 2 (piece 2, round 2)");
        assert!(why.why.contains("has 1 pair"), "{}", why.why);
        assert_eq!(why.place.map(|p| (p.line, p.column)), Some((5, 1)));
        assert_eq!(why.context[0], "round 2, its events but steps and turns:");
        assert!(why.context.iter().all(|l| !l.contains("move piece")), "{:?}", why.context);
    }

    /// Red C(229, 92) meets blue C(974, 938) = C(974, 36): exactly red is stronger, for the
    /// official program they are equal and both die.
    const NEAR_TIE: &str =
        "1\n1 1 2 1\n0\n1 1 229 92 1 3 1 1 2 toolihai\n1 1 974 938 0 1 1 1 1 toolihai\n";

    #[test]
    fn a_near_tie_is_named_with_its_switch() {
        let why = explain(NEAR_TIE, 1, Rules::official()).unwrap();
        assert!(
            why.why.ends_with(
                "the game turns on a near-tie: in round 1 at (1,1), red C(974, 938) is weaker than \
             blue C(229, 92) exactly, but as strong as it by the official program's logarithms \
             within 1e-8; `--rules official,+float-ties` compares as the official program does"
            ),
            "{}",
            why.why
        );
        let rules: Rules = "official,+float-ties".parse().unwrap();
        let why = explain(NEAR_TIE, 1, rules).unwrap();
        assert!(
            why.why.contains("this run follows the official program (`float-ties`)"),
            "{}",
            why.why
        );
        assert!(!explain(INPUT, 3, Rules::official()).unwrap().why.contains("near-tie"));
    }

    #[test]
    fn lines_past_the_answer_say_so() {
        assert_eq!(explain(INPUT, 9, Rules::official()).unwrap().why, "the answer has 4 lines");
    }
}
