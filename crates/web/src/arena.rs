//! The skill arena endpoints: the official judge on a whole input, and one game's trace, a
//! window of rounds at a time, with the state of every piece at the end of each round.
//!
//! The events are [`arbiter_arena::event::Event`] in their JSON form (schema in that module);
//! the piece states are [`PieceState`]. Every request simulates from the start: a game takes
//! milliseconds, and the server keeps no state.

use arbiter_arena::event::{Event, PieceState, Sink};
use arbiter_arena::game::Game;
use arbiter_arena::io::{parse_count, parse_game};
use arbiter_arena::rules::{Rules, SWITCHES};
use arbiter_arena::sim::{RoundState, play, play_with};
use arbiter_scan::Scanner;
use axum::Json;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use crate::api::{ApiError, Body, Endpoint};
use crate::{limits, work};

/// The arena endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "GET",
            path: "/api/arena/rules",
            about: "the rule presets and every switch with what it changes",
            route: get(rules),
        },
        Endpoint {
            method: "POST",
            path: "/api/arena/judge",
            about: "judge {input, rules?}: the official output, whole and per game, and each \
                    game's size",
            route: post(judge),
        },
        Endpoint {
            method: "POST",
            path: "/api/arena/trace",
            about: "trace {input, rules?, game, from?}: the set-up, then the events and piece \
                    states of the rounds from `from` on (a window; `next` says where the next \
                    one starts)",
            route: post(trace),
        },
    ]
}

/// A switch as the page lists it.
#[derive(Serialize)]
struct SwitchView {
    name: &'static str,
    about: &'static str,
    /// Whether the `statement` preset turns it on.
    statement: bool,
}

/// `GET /api/arena/rules`.
async fn rules() -> Json<serde_json::Value> {
    let switches: Vec<SwitchView> = SWITCHES
        .iter()
        .map(|&(name, about)| SwitchView { name, about, statement: Rules::statement().get(name) })
        .collect();
    Json(serde_json::json!({ "presets": ["official", "statement"], "switches": switches }))
}

/// An input and the rules to play it under.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeRequest {
    input: String,
    #[serde(default)]
    rules: Option<String>,
}

/// One game of an input, and the first round wanted.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceRequest {
    input: String,
    #[serde(default)]
    rules: Option<String>,
    /// 1-based.
    game: usize,
    /// The first round wanted; 0 or absent starts with the set-up.
    #[serde(default)]
    from: u32,
    /// Each piece's state as an array rather than an object (see [`Pieces::Compact`]).
    #[serde(default)]
    compact: bool,
}

/// A game's size and what it prints.
#[derive(Serialize)]
struct GameSummary {
    /// 1-based.
    game: usize,
    rows: i32,
    cols: i32,
    pieces: usize,
    rounds: u32,
    /// The lines the judge prints for it.
    output: String,
}

#[derive(Serialize)]
struct JudgeReply {
    rules: String,
    /// The official output of the whole input.
    output: String,
    games: Vec<GameSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<String>,
}

/// The events of one round and the pieces at its end.
#[derive(Serialize)]
struct RoundView {
    round: u32,
    events: Vec<Event>,
    pieces: Pieces,
}

/// The states of a game's pieces, in the order of the input.
#[derive(Serialize)]
#[serde(untagged)]
enum Pieces {
    /// Each an object: `{pos: {row, col}, dir, alive, a, b, respawn_round, cooldown, freeze,
    /// silence}`.
    Full(Vec<PieceState>),
    /// Each an array of the same fields in the same order, `[row, col, dir, alive, a, b,
    /// respawn_round, cooldown, freeze, silence]`: a window of rounds of the official game 20
    /// (194 pieces) is then a third smaller, before compression.
    Compact(Vec<CompactState>),
}

/// A piece's state as an array.
type CompactState =
    (i32, i32, arbiter_arena::grid::Dir, bool, u32, u32, Option<u64>, u64, u64, u64);

impl Pieces {
    fn new(states: Vec<PieceState>, compact: bool) -> Pieces {
        if !compact {
            return Pieces::Full(states);
        }
        let array = |s: PieceState| {
            let PieceState { pos, dir, alive, a, b, respawn_round, cooldown, freeze, silence } = s;
            (pos.row, pos.col, dir, alive, a, b, respawn_round, cooldown, freeze, silence)
        };
        Pieces::Compact(states.into_iter().map(array).collect())
    }
}

#[derive(Serialize)]
struct TraceReply {
    game: usize,
    rules: String,
    /// The `start` event: board, pieces, R, rules.
    start: Event,
    /// The pieces at the end of round `from − 1` (as they start, for `from` ≤ 1).
    before: Pieces,
    rounds: Vec<RoundView>,
    /// The first round of the next window, if the game goes on.
    next: Option<u32>,
}

fn read_rules(text: Option<&str>) -> Result<Rules, ApiError> {
    text.unwrap_or("official")
        .parse()
        .map_err(|error| ApiError::bad_request(format!("rules: {error}")))
}

/// The input's games, read one by one, each handed to `each` with its number.
fn read_games(
    input: &str,
    mut each: impl FnMut(usize, Game) -> Result<bool, ApiError>,
) -> Result<Option<String>, ApiError> {
    let text = input.strip_prefix('\u{feff}').unwrap_or(input);
    let mut scanner = Scanner::new(text);
    let count = parse_count(&mut scanner).map_err(|e| ApiError::bad_request(e.to_string()))?;
    for number in 1..=count {
        let game = parse_game(&mut scanner).map_err(|e| ApiError::bad_request(e.to_string()))?;
        if !each(number, game)? {
            return Ok(None);
        }
    }
    Ok((!scanner.at_end())
        .then(|| format!("{}: ignoring input after the last game", scanner.place())))
}

fn run_error(game: usize, error: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("game {game}, {error}"))
}

/// `POST /api/arena/judge`.
async fn judge(Body(request): Body<JudgeRequest>) -> Result<Json<JudgeReply>, ApiError> {
    work::run(move || {
        let rules = read_rules(request.rules.as_deref())?;
        let mut games = Vec::new();
        let warning = read_games(&request.input, |number, game| {
            let outcome = play(&game, rules).map_err(|e| run_error(number, e))?;
            games.push(GameSummary {
                game: number,
                rows: game.grid().rows(),
                cols: game.grid().cols(),
                pieces: game.pieces().len(),
                rounds: game.rounds(),
                output: outcome.to_string(),
            });
            Ok(true)
        })?;
        let output = games.iter().map(|g| g.output.as_str()).collect();
        Ok(Json(JudgeReply { rules: rules.to_string(), output, games, warning }))
    })
    .await
}

/// Keeps the events and states of a window of rounds, and builds no event outside it.
struct Window {
    from: u32,
    /// The round being played (the one after the last `round_end`).
    current: u32,
    /// The last round kept, once the window is full.
    closed: Option<u32>,
    before: Vec<PieceState>,
    rounds: Vec<RoundView>,
    pending: Vec<Event>,
    events: usize,
    last_round: u32,
    compact: bool,
}

impl Window {
    fn keeping(&self) -> bool {
        self.current >= self.from && self.closed.is_none()
    }
}

impl Sink for &mut Window {
    fn emit(&mut self, _round: u32, event: impl FnOnce() -> Event) {
        if self.keeping() {
            let mut event = event();
            if let Event::Wave { path, .. } = &mut event {
                path.truncate(limits::WAVE_PATH);
            }
            self.pending.push(event);
        }
    }

    fn listening(&self) -> bool {
        self.keeping()
    }

    fn round_end(&mut self, state: &RoundState<'_>) {
        let round = state.round();
        if round + 1 == self.from.max(1) {
            self.before = state.pieces().collect();
        }
        if self.keeping() && round >= 1 {
            self.events += self.pending.len();
            let events = std::mem::take(&mut self.pending);
            let pieces = Pieces::new(state.pieces().collect(), self.compact);
            self.rounds.push(RoundView { round, events, pieces });
            let full = self.rounds.len() as u32 >= limits::ARENA_ROUNDS
                || self.events >= limits::ARENA_EVENTS;
            if full && round < self.last_round {
                self.closed = Some(round);
            }
        }
        self.current = round + 1;
    }
}

/// `POST /api/arena/trace`.
async fn trace(Body(request): Body<TraceRequest>) -> Result<Json<TraceReply>, ApiError> {
    work::run(move || {
        let rules = read_rules(request.rules.as_deref())?;
        let wanted = request.game;
        let mut found = None;
        let mut count = 0;
        read_games(&request.input, |number, game| {
            count = number;
            if number == wanted {
                found = Some(game);
                return Ok(false);
            }
            Ok(true)
        })?;
        let Some(game) = found else {
            return Err(ApiError::bad_request(format!(
                "no game {wanted}: the input has {count} game{}",
                if count == 1 { "" } else { "s" }
            )));
        };
        let from = request.from.min(game.rounds());
        let mut window = Window {
            from: from.max(1),
            current: 0,
            closed: None,
            before: Vec::new(),
            rounds: Vec::new(),
            pending: Vec::new(),
            events: 0,
            last_round: game.rounds(),
            compact: request.compact,
        };
        play_with(&game, rules, &mut window).map_err(|e| run_error(wanted, e))?;
        // The `end` event comes after the last round's state: it belongs to that round.
        if window.closed.is_none()
            && let Some(last) = window.rounds.last_mut()
        {
            last.events.append(&mut window.pending);
        }
        Ok(Json(TraceReply {
            game: wanted,
            rules: rules.to_string(),
            start: Event::start_under(&game, rules),
            before: Pieces::new(window.before, request.compact),
            rounds: window.rounds,
            next: window.closed.map(|round| round + 1),
        }))
    })
    .await
}
