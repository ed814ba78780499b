//! The event trace is complete: the state of every piece rebuilt from the events alone equals the
//! simulation's own state at the end of every round, and every event survives a JSON round trip.

use arbiter_arena::event::{Event, PieceState, Sink};
use arbiter_arena::game::Game;
use arbiter_arena::grid::{Dir, Pos};
use arbiter_arena::io::{parse_count, parse_game};
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::{RoundState, play, play_with};
use arbiter_scan::Scanner;

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn games(text: &str) -> Vec<Game> {
    let mut input = Scanner::new(text);
    let count = parse_count(&mut input).expect("a count");
    (0..count).map(|_| parse_game(&mut input).expect("a game")).collect()
}

/// What a viewer knows of a piece from the events: the fields the simulation reports at the end
/// of a round, but the cooldown, and the effects as the rounds at whose start they run out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    pos: Pos,
    dir: Dir,
    alive: bool,
    a: u32,
    b: u32,
    freeze_end: u64,
    silence_end: u64,
}

impl Seen {
    /// The fields of `state` that the events carry, in the same form.
    fn of(state: PieceState, round: u32) -> Seen {
        let round = u64::from(round);
        Seen {
            pos: state.pos,
            dir: state.dir,
            alive: state.alive,
            a: state.a,
            b: state.b,
            freeze_end: round + state.freeze,
            silence_end: round + state.silence,
        }
    }

    /// `self` with the effects that ran out by `round` shown as ending at it, so that a state
    /// read from the simulation and one rebuilt from events compare equal.
    fn at(self, round: u32) -> Seen {
        let round = u64::from(round);
        Seen {
            freeze_end: self.freeze_end.max(round),
            silence_end: self.silence_end.max(round),
            ..self
        }
    }
}

/// The events of each round and the simulation's state at its end (round 0 first: the set-up,
/// without events), then the events after the last round.
#[derive(Default)]
struct Record {
    rounds: Vec<(Vec<Event>, Vec<PieceState>)>,
    pending: Vec<Event>,
}

/// Fills a [`Record`].
struct Recorder<'a>(&'a mut Record);

impl Sink for Recorder<'_> {
    fn emit(&mut self, _round: u32, event: impl FnOnce() -> Event) {
        self.0.pending.push(event());
    }

    fn round_end(&mut self, state: &RoundState<'_>) {
        let record = &mut *self.0;
        assert_eq!(state.round() as usize, record.rounds.len(), "rounds in order, from 0");
        record.rounds.push((std::mem::take(&mut record.pending), state.pieces().collect()));
    }
}

/// Applies one event to the rebuilt pieces, checking that a move or a push starts where the
/// piece stands and that a piece dies and respawns where it stands.
fn apply(pieces: &mut [Seen], round: u32, event: &Event) {
    let now = u64::from(round);
    match *event {
        Event::Move { piece, from, to } | Event::Knockback { piece, from, to, .. } => {
            assert_eq!(pieces[piece - 1].pos, from, "round {round}: {event:?}");
            pieces[piece - 1].pos = to;
        }
        Event::Turn { piece, dir, .. } => pieces[piece - 1].dir = dir,
        Event::Boost { piece, a, b } | Event::BoostEnd { piece, a, b } => {
            pieces[piece - 1].a = a;
            pieces[piece - 1].b = b;
        }
        Event::Respawn { piece, pos, a, b, freeze, silence, .. } => {
            let p = &mut pieces[piece - 1];
            assert!(!p.alive, "round {round}: {event:?} respawns a living piece");
            assert_eq!(p.pos, pos, "round {round}: {event:?}");
            *p = Seen {
                alive: true,
                a,
                b,
                freeze_end: now + freeze,
                silence_end: now + silence,
                ..*p
            };
        }
        Event::Freeze { piece, rounds, .. } => pieces[piece - 1].freeze_end = now + rounds,
        Event::Silence { piece, rounds, .. } => pieces[piece - 1].silence_end = now + rounds,
        Event::Backward {
            piece, pos, dir, a, b, alive, respawn_round, freeze, silence, ..
        } => {
            assert_eq!(alive, respawn_round.is_none(), "round {round}: {event:?}");
            let p = &mut pieces[piece - 1];
            *p = Seen {
                pos,
                dir,
                alive,
                a,
                b,
                freeze_end: now + freeze,
                silence_end: now + silence,
            };
        }
        Event::Fight { red, blue, loser, winner_after, .. } => match (loser, winner_after) {
            (Some(loser), Some((a, b))) => {
                let winner = if loser == red { blue } else { red };
                pieces[winner - 1].a = a;
                pieces[winner - 1].b = b;
            }
            (None, None) => {}
            _ => panic!("round {round}: {event:?}: a winner's attributes exactly when one wins"),
        },
        Event::Death { piece, pos, .. } => {
            let p = &mut pieces[piece - 1];
            assert!(p.alive, "round {round}: {event:?} kills a dead piece");
            assert_eq!(p.pos, pos, "round {round}: {event:?}");
            p.alive = false;
        }
        Event::Start { .. } => panic!("a second start"),
        Event::Cast { .. }
        | Event::Skip { .. }
        | Event::Sector { .. }
        | Event::Wave { .. }
        | Event::Matching { .. }
        | Event::End { .. } => {}
    }
}

/// Plays `game`, rebuilds it from its events and compares at the end of every round; with
/// `json`, every event also goes through JSON and back unchanged.
fn check(game: &Game, rules: Rules, json: bool, what: &str) {
    let mut recorder = Record::default();
    let Ok(outcome) = play_with(game, rules, Recorder(&mut recorder)) else {
        // A reading under which the game breaks a guarantee (a backward before the first
        // round): nothing to compare.
        assert!(play(game, rules).is_err(), "{what}: listening changes nothing");
        return;
    };
    assert_eq!(outcome, play(game, rules).expect("plays"), "{what}: listening changes nothing");
    assert_eq!(recorder.rounds.len() as u32, game.rounds() + 1, "{what}");

    let start = Event::start_under(game, rules);
    let round_trip = |event: &Event| {
        let text = serde_json::to_string(event).expect("serialises");
        let back: Event = serde_json::from_str(&text).expect("deserialises");
        assert_eq!(&back, event, "{what}: {text}");
    };
    round_trip(&start);
    let Event::Start { pieces: setup, rounds, rules: Some(in_force), .. } = &start else {
        panic!("{what}: not a start event");
    };
    assert_eq!((*rounds, *in_force), (game.rounds(), rules), "{what}");
    let mut pieces: Vec<Seen> = setup
        .iter()
        .map(|p| Seen {
            pos: p.pos,
            dir: p.dir,
            alive: true,
            a: p.a,
            b: p.b,
            freeze_end: 0,
            silence_end: 0,
        })
        .collect();
    for (round, (events, states)) in recorder.rounds.iter().enumerate() {
        let round = round as u32;
        for event in events {
            if json {
                round_trip(event);
            }
            apply(&mut pieces, round, event);
        }
        for (k, (seen, &state)) in pieces.iter().zip(states).enumerate() {
            assert_eq!(
                seen.at(round),
                Seen::of(state, round).at(round),
                "{what}, round {round}, piece {}",
                k + 1
            );
        }
    }
    let end = recorder.pending.last().expect("an end event");
    assert_eq!(end, &Event::End { positions: outcome.positions.clone() }, "{what}");
}

#[test]
fn official_data_rebuilt_from_its_events() {
    let text = fixture("official/1.in");
    for (n, game) in games(&text).iter().enumerate() {
        for rules in ["official", "statement"] {
            let what = format!("official game {} under {rules}", n + 1);
            check(game, rules.parse().unwrap(), n < 4, &what);
        }
    }
}

#[test]
fn random_and_adversarial_inputs_rebuilt_from_their_events() {
    let inputs = (1..=6)
        .map(|n| format!("random/{n}.in"))
        .chain(["adversarial/1.in", "adversarial/2.in", "sample/1.in"].map(String::from));
    for name in inputs {
        for (n, game) in games(&fixture(&name)).iter().enumerate() {
            for rules in ["official", "statement", "official,+shadow-any,+cd-reset,+keep-freeze"] {
                check(
                    game,
                    rules.parse().unwrap(),
                    true,
                    &format!("{name} game {} under {rules}", n + 1),
                );
            }
        }
    }
}

/// Every rule case of docs/rules.md#skill-arena with its switch on and off: each reading's own
/// corner.
#[test]
fn rule_cases_rebuilt_from_their_events() {
    let index = fixture("rules/INDEX");
    for line in index.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let name = line.split('|').next().unwrap().trim();
        for game in games(&fixture(&format!("rules/{name}.in"))) {
            // `eps-neartie` is no switch: its exact answer holds in every mode.
            let switched = format!("official,+{name}").parse().unwrap_or(Rules::statement());
            for rules in [Rules::official(), switched] {
                check(&game, rules, true, &format!("{name} under {rules}"));
            }
        }
    }
}
