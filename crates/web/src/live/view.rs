//! What a live game's page is sent: the game as [`arbiter_live`] tells it, with what the page
//! draws and lists, in the very shapes the board page is given (`/api/duck/game`): each move as
//! the judge rules it, in the readable notation (`entries`), and the board after the last move
//! with the points each piece of the side to move can reach (`position`). The page replays
//! nothing: it draws the board it is sent.
//!
//! A page that already holds a version of the game is sent only what changed since
//! ([`Sent::change`]): the moves added (after a takeback, past the moves kept), the board when
//! it changed, and each other field that changed.
//!
//! The work of a change is the change's, not the game's: each game watched keeps its moves
//! judged ([`Judged`]), each as the JSON it is sent as, so a move is judged once as it is played;
//! and what the sockets were last sent is kept as the commands and the fields other than the
//! lists ([`Sent`]), so a change is found without building or comparing the whole game again.

use std::collections::BTreeMap;
use std::sync::Arc;

use arbiter_duck::Position;
use arbiter_duck::judge::Command;
use arbiter_live::View;
use arbiter_live::game::Played;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::duck::{PositionView, Replayer};

/// A live game as its page draws it.
#[derive(Serialize)]
pub(crate) struct Shown {
    /// The game: players, clocks, moves with their times, offers, the end.
    #[serde(flatten)]
    game: View,
    /// Each move as the judge rules it, with its readable notation.
    entries: Entries,
    /// The board after the last move; no piece can move once the game is over.
    position: PositionView,
}

/// Each move's entry, as JSON, shared with the [`Judged`] moves it was taken from.
struct Entries(Arc<Vec<Box<RawValue>>>);

impl Serialize for Entries {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// The moves of one game judged so far, kept between its changes: brought up to a view's
/// commands, it judges only those past the ones it holds (or, after a takeback, all again).
pub(crate) struct Judged {
    /// The commands judged, in order.
    commands: Vec<String>,
    replayer: Replayer,
    /// Each judged command's entry as JSON.
    entries: Arc<Vec<Box<RawValue>>>,
}

impl Default for Judged {
    fn default() -> Judged {
        Judged {
            commands: Vec::new(),
            replayer: Replayer::new(Position::new()),
            entries: Arc::new(Vec::new()),
        }
    }
}

impl Judged {
    /// Brought up to `commands`.
    fn follow(&mut self, commands: &[String]) {
        let kept = kept(&self.commands, commands);
        if kept < self.commands.len() {
            *self = Judged::default();
        }
        let entries = Arc::make_mut(&mut self.entries);
        for text in &commands[self.commands.len()..] {
            // The moves were valid when played, and are read back by the judge's own reader;
            // one that did not read would be left out of the entries.
            if let Ok(command) = text.parse::<Command>() {
                let entry = self.replayer.judge(command);
                // An entry is strings, numbers and booleans: it always serialises.
                if let Ok(json) = serde_json::value::to_raw_value(&entry) {
                    entries.push(json);
                }
            }
            self.commands.push(text.clone());
        }
    }
}

/// How many items two lists have in common from their start.
fn kept(old: &[String], new: &[String]) -> usize {
    old.iter().zip(new).take_while(|(a, b)| a == b).count()
}

impl Shown {
    /// `game` with its moves judged and its board described.
    pub(crate) fn of(game: View) -> Shown {
        Shown::judged(game, &mut Judged::default())
    }

    /// `game` with its moves judged by `judged`, brought up to them.
    pub(crate) fn judged(game: View, judged: &mut Judged) -> Shown {
        judged.follow(&game.commands);
        let mut position = judged.replayer.position();
        // Resigned, agreed or lost on time, the game takes no move though the board would.
        if game.end.is_some() {
            position.moves.clear();
        }
        Shown { game, entries: Entries(Arc::clone(&judged.entries)), position }
    }

    /// The game's version.
    pub(crate) fn version(&self) -> u64 {
        self.game.version
    }

    /// What the side to move has left on its running clock, if one runs.
    pub(crate) fn running_left(&self) -> Option<u64> {
        running_left(&self.game)
    }

    /// Every field but [`LISTS`], each as JSON.
    fn head(&mut self) -> Head {
        let commands = std::mem::take(&mut self.game.commands);
        let moves = std::mem::take(&mut self.game.moves);
        let entries = std::mem::replace(&mut self.entries, Entries(Arc::new(Vec::new())));
        let text = serde_json::to_string(&*self);
        (self.game.commands, self.game.moves, self.entries) = (commands, moves, entries);
        // A view is a struct of plain fields: it always serialises, and reads back, as an object.
        let mut head: Head =
            text.ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
        for list in LISTS {
            head.remove(list);
        }
        head
    }
}

/// A view's fields, each as the JSON it is sent as.
type Head = BTreeMap<String, Box<RawValue>>;

/// What the side to move has left on `game`'s running clock, if one runs.
pub(crate) fn running_left(game: &View) -> Option<u64> {
    let clocks = game.clocks?;
    clocks.running.map(|seat| if seat.index() == 0 { clocks.red_ms } else { clocks.blue_ms })
}

/// The lists of a view that change only at their end: a move adds one item to each, a takeback
/// removes the last ones.
pub(crate) const LISTS: [&str; 3] = ["commands", "moves", "entries"];

/// What the sockets of a game were last sent of it: enough to find the next change.
pub(crate) struct Sent {
    version: u64,
    commands: Vec<String>,
    /// Every other field but the lists.
    head: Head,
}

/// A change as a socket is sent it: `{"delta": CHANGE}`.
#[derive(Serialize)]
struct Delta<'a> {
    delta: Change<'a>,
}

/// What turns one view into the next ([`Sent::change`]).
#[derive(Serialize)]
struct Change<'a> {
    base: u64,
    keep: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    commands: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a [Played]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<&'a [Box<RawValue>]>,
    #[serde(flatten)]
    fields: BTreeMap<&'a str, &'a RawValue>,
}

impl Sent {
    /// What a socket sent `shown` holds.
    pub(crate) fn of(shown: &mut Shown) -> Sent {
        Sent { version: shown.version(), commands: shown.game.commands.clone(), head: shown.head() }
    }

    /// The version sent.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// What turns the view sent into `new`, as a socket is sent it, `{"delta": CHANGE}`: `base`
    /// (the version it applies to), `keep` (how many items of each of [`LISTS`] stay), each
    /// list's items after those, and every other field whose value changed; with what the
    /// sockets then hold. A page applies it only to the view of version `base`.
    pub(crate) fn change(&self, new: &mut Shown) -> (String, Sent) {
        let keep = kept(&self.commands, &new.game.commands);
        let sent = Sent::of(new);
        let added = |count: usize| (count > keep).then_some(keep..count);
        let fields = sent
            .head
            .iter()
            .filter(|(key, value)| self.head.get(*key).is_none_or(|old| old.get() != value.get()))
            .map(|(key, value)| (key.as_str(), &**value))
            .collect();
        let change = Change {
            base: self.version,
            keep,
            commands: added(new.game.commands.len()).map(|range| &new.game.commands[range]),
            moves: added(new.game.moves.len()).map(|range| &new.game.moves[range]),
            entries: added(new.entries.0.len()).map(|range| &new.entries.0[range]),
            fields,
        };
        // Strings, numbers and raw JSON under string keys: it always serialises.
        let text = serde_json::to_string(&Delta { delta: change }).unwrap_or_default();
        (text, sent)
    }
}

/// What turns `old` into `new`, two whole views as JSON, found by comparing them whole: what
/// [`Sent::change`] must find (for tests).
#[cfg(test)]
pub(crate) fn delta(old: &serde_json::Value, new: &serde_json::Value) -> serde_json::Value {
    use serde_json::{Map, Value};
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
pub(crate) fn apply(old: &serde_json::Value, change: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
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

    use serde_json::Value;

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

    /// The change found from what was kept ([`Sent::change`], the moves judged once each by a
    /// kept [`Judged`]) is the one found by comparing the two whole views, at every step of a
    /// game with offers, takebacks (one past a new move) and an end; and the view shown with the
    /// kept judging is the view judged afresh.
    #[test]
    fn the_change_from_what_was_kept_is_the_change_between_the_whole_views() {
        let games = Games::new(SqliteStore::memory().unwrap());
        let new = New { name: "Ann".into(), seat: Some(Seat::Red), time: None };
        let created = games.create(new, 0).unwrap();
        let (id, red, blue) = (created.id, created.token, created.invite);
        games.act(&id, &blue, Action::Join { name: "Bo".into() }, 1).unwrap();
        let mut judged = Judged::default();
        let mut shown = Shown::judged(games.view(&id, 1).unwrap(), &mut judged);
        let (mut whole, mut sent) = (serde_json::to_value(&shown).unwrap(), Sent::of(&mut shown));
        let mv = |command: &str| Action::Move { command: command.into() };
        let steps: Vec<(&str, Action)> = vec![
            (&red, mv("0 3 1 4")),
            (&blue, mv("9 4 8 4")),
            (&red, Action::OfferDraw),
            (&blue, Action::DeclineDraw),
            (&red, mv("0 1 2 2")),
            (&blue, Action::RequestTakeback),
            (&red, Action::AcceptTakeback),
            (&blue, mv("9 0 8 0")),
            (&red, mv("3 0 4 0")),
            (&blue, Action::RequestTakeback),
            (&red, mv("0 0 1 0")),
            (&red, Action::AcceptTakeback),
            (&blue, Action::Resign),
        ];
        let mut taken_back = 0;
        for (now, (token, action)) in (2..).zip(steps) {
            // Some are refused (a takeback asked while a move is owed): nothing changes then.
            let _ = games.act(&id, token, action, now);
            let view = games.view(&id, now).unwrap();
            let afresh = serde_json::to_value(Shown::of(view.clone())).unwrap();
            let mut shown = Shown::judged(view, &mut judged);
            assert_eq!(serde_json::to_value(&shown).unwrap(), afresh, "step {now}");
            let (text, next) = sent.change(&mut shown);
            let change = serde_json::from_str::<Value>(&text).unwrap()["delta"].take();
            assert_eq!(change, delta(&whole, &afresh), "step {now}");
            assert_eq!(apply(&whole, &change), afresh, "step {now}");
            if change["keep"].as_u64() < whole["commands"].as_array().map(|c| c.len() as u64) {
                taken_back += 1;
            }
            (whole, sent) = (afresh, next);
        }
        assert_eq!((whole["status"].as_str(), taken_back), (Some("over"), 2));
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
