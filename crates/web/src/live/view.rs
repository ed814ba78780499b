//! What a live game's page is sent: the game as [`arbiter_live`] tells it, with what the page
//! draws and lists, in the very shapes the board page is given (`/api/duck/game`): each move as
//! the judge rules it, in the readable notation (`entries`), and the board after the last move
//! with the points each piece of the side to move can reach (`position`). The page replays
//! nothing: it draws the board it is sent.
//!
//! A page that already holds a version of the game is sent only what changed since
//! ([`delta`]): the moves added (after a takeback, past the moves kept), the board when it
//! changed, and each other field that changed.

use arbiter_duck::Position;
use arbiter_duck::judge::Command;
use arbiter_live::View;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::duck::{self, Entry, PositionView, Replay};

/// A live game as its page draws it.
#[derive(Serialize)]
pub(crate) struct Shown {
    /// The game: players, clocks, moves with their times, offers, the end.
    #[serde(flatten)]
    game: View,
    /// Each move as the judge rules it, with its readable notation.
    entries: Vec<Entry>,
    /// The board after the last move; no piece can move once the game is over.
    position: PositionView,
}

impl Shown {
    /// `game` with its moves judged and its board described.
    pub(crate) fn of(game: View) -> Shown {
        // The moves were valid when played, and are read back by the judge's own reader.
        let commands: Vec<Command> =
            game.commands.iter().filter_map(|text| text.parse().ok()).collect();
        let Replay { entries, mut position } =
            duck::replay(Position::new(), &commands, commands.len());
        // Resigned, agreed or lost on time, the game takes no move though the board would.
        if game.end.is_some() {
            position.moves.clear();
        }
        Shown { game, entries, position }
    }

    /// The game's version.
    pub(crate) fn version(&self) -> u64 {
        self.game.version
    }

    /// What the side to move has left on its running clock, if one runs.
    pub(crate) fn running_left(&self) -> Option<u64> {
        let clocks = self.game.clocks?;
        clocks.running.map(|seat| if seat.index() == 0 { clocks.red_ms } else { clocks.blue_ms })
    }
}

/// The lists of a view that change only at their end: a move adds one item to each, a takeback
/// removes the last ones.
pub(crate) const LISTS: [&str; 3] = ["commands", "moves", "entries"];

/// What turns `old` into `new`, two whole views as JSON: `base` (the version it applies to),
/// `keep` (how many items of each of [`LISTS`] stay), each list's items after those, and every
/// other field whose value changed. A page applies it only to the view of version `base`.
pub(crate) fn delta(old: &Value, new: &Value) -> Value {
    let empty = Map::new();
    let (old, new) = (old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty));
    let items = |view: &Map<String, Value>| view.get("commands").and_then(Value::as_array).cloned();
    let (before, after) = (items(old).unwrap_or_default(), items(new).unwrap_or_default());
    let keep = before.iter().zip(&after).take_while(|(a, b)| a == b).count();
    let mut change = Map::new();
    change.insert("base".to_owned(), old.get("version").cloned().unwrap_or(Value::Null));
    change.insert("keep".to_owned(), Value::from(keep));
    for (key, value) in new {
        if LISTS.contains(&key.as_str()) {
            let added = value.as_array().map_or(&[][..], |list| list.get(keep..).unwrap_or(&[]));
            if !added.is_empty() {
                change.insert(key.clone(), Value::from(added.to_vec()));
            }
        } else if old.get(key) != Some(value) {
            change.insert(key.clone(), value.clone());
        }
    }
    Value::Object(change)
}

/// `old` with `change` applied, as a page applies it (for tests).
#[cfg(test)]
pub(crate) fn apply(old: &Value, change: &Value) -> Value {
    let mut view = old.as_object().cloned().unwrap_or_default();
    let keep = change["keep"].as_u64().unwrap_or(0) as usize;
    for (key, value) in change.as_object().into_iter().flatten() {
        if key == "base" || key == "keep" {
            continue;
        }
        view.insert(key.clone(), value.clone());
    }
    for list in LISTS {
        let mut items: Vec<Value> = old[list]
            .as_array()
            .map(|l| l.iter().take(keep).cloned().collect())
            .unwrap_or_default();
        items.extend(change[list].as_array().into_iter().flatten().cloned());
        view.insert(list.to_owned(), Value::from(items));
    }
    Value::Object(view)
}

#[cfg(test)]
mod tests {
    use arbiter_live::{Action, Games, New, Seat, SqliteStore};

    use super::*;

    fn shown(games: &Games<SqliteStore>, id: &arbiter_live::GameId, now: u64) -> Value {
        serde_json::to_value(Shown::of(games.view(id, now).unwrap())).unwrap()
    }

    #[test]
    fn a_delta_carries_what_changed_and_rebuilds_the_whole_view() {
        let games = Games::new(SqliteStore::memory().unwrap());
        let new = New { name: "Ann".into(), seat: Some(Seat::Red), time: None };
        let created = games.create(new, 0).unwrap();
        let (id, red, blue) = (created.id, created.token, created.invite);
        let play = |token: &str, command: &str, now| {
            games.act(&id, token, Action::Move { command: command.into() }, now).unwrap();
        };
        let mut views = vec![shown(&games, &id, 1)];
        play(&red, "0 3 1 4", 2);
        views.push(shown(&games, &id, 2));
        games.act(&id, &blue, Action::OfferDraw, 3).unwrap();
        views.push(shown(&games, &id, 3));
        play(&blue, "9 4 8 4", 4);
        views.push(shown(&games, &id, 4));
        games.act(&id, &red, Action::RequestTakeback, 5).unwrap();
        games.act(&id, &blue, Action::AcceptTakeback, 6).unwrap();
        views.push(shown(&games, &id, 6));
        play(&red, "0 1 2 2", 7);
        views.push(shown(&games, &id, 7));
        for pair in views.windows(2) {
            let change = delta(&pair[0], &pair[1]);
            assert_eq!(apply(&pair[0], &change), pair[1], "{change}");
            assert_eq!(change["base"], pair[0]["version"]);
        }
        // A move: the move and its entry, the board; an offer: no list, no board.
        let moved = delta(&views[0], &views[1]);
        assert_eq!(moved["commands"], serde_json::json!(["0 3 1 4"]));
        assert_eq!(moved["entries"][0]["notation"]["letter"], "G 0,3→1,4");
        assert!(moved["position"]["moves"].as_array().is_some_and(|m| !m.is_empty()));
        let offered = delta(&views[1], &views[2]);
        assert_eq!(offered["draw_offer"], "blue");
        assert!(offered.get("position").is_none() && offered.get("moves").is_none());
        // The takeback removed red's move and blue's reply: nothing kept, nothing added.
        let taken_back = delta(&views[3], &views[4]);
        assert_eq!((taken_back["keep"].as_u64(), taken_back.get("commands")), (Some(0), None));
    }

    #[test]
    fn a_finished_game_offers_no_move() {
        let games = Games::new(SqliteStore::memory().unwrap());
        let new = New { name: "Ann".into(), seat: Some(Seat::Red), time: None };
        let created = games.create(new, 0).unwrap();
        let view = shown(&games, &created.id, 1);
        assert!(view["position"]["moves"].as_array().is_some_and(|m| !m.is_empty()));
        assert_eq!(view["position"]["pieces"].as_array().map(Vec::len), Some(32));
        games.act(&created.id, &created.token, Action::Resign, 2).unwrap();
        let view = shown(&games, &created.id, 2);
        assert_eq!(view["position"]["moves"], serde_json::json!([]));
    }
}
