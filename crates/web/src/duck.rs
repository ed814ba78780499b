//! The Duck Chess endpoints: a game is its list of commands, replayed by [`arbiter_duck::Game`]
//! at every request, so the server keeps no state and the page knows no rule. The page is told,
//! for the position it shows, where every piece stands, which points each piece of the side to
//! move can reach, which pieces attack a captain, and the official result of every command.
//!
//! A command is text, `"x1 y1 x2 y2"`, four integers as in the official input (any size: off the
//! board or huge, it is an ordinary `Invalid command`, exactly as the judge says). A point is
//! `[x, y]`: row 0..=9 from red's side, column 0..=8.

use arbiter_duck::fen::Fen;
use arbiter_duck::judge::{Command, Commands};
use arbiter_duck::{Color, Game, Invalid, Move, Piece, Played, Position, Square, movement};
use arbiter_scan::{ScanError, Shown};
use axum::Json;
use axum::routing::post;
use serde::{Deserialize, Serialize};

use crate::api::{ApiError, Body, Endpoint};
use crate::notation::{self, Notation};
use crate::{limits, work};

/// The Duck Chess endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/duck/game",
            about: "replay {commands, at?}: every command's official result line, the game as an \
                    official command list, and the position after `at` commands (default all)",
            route: post(game),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/position",
            about: "the position after {commands, at?}: pieces, side to move, reachable points, \
                    check with its attackers, last move",
            route: post(position),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/move",
            about: "judge {commands, command}: the command's result (with the reason when it is \
                    invalid) and, when valid, the position after it",
            route: post(play),
        },
        Endpoint {
            method: "POST",
            path: "/api/duck/import",
            about: "read {text} in the official input format (Q, then Q commands) and replay it \
                    like /api/duck/game",
            route: post(import),
        },
    ]
}

/// A game and, optionally, how many of its commands the position shows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    commands: Vec<String>,
    #[serde(default)]
    at: Option<usize>,
    /// The position the game starts from (the official start when absent).
    #[serde(default)]
    fen: Option<String>,
}

/// A game and one more command to judge after it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    commands: Vec<String>,
    command: String,
    /// The position the game starts from (the official start when absent).
    #[serde(default)]
    fen: Option<String>,
}

/// A text in the official input format.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    text: String,
}

/// A point, `[x, y]`.
pub(crate) type Point = [u8; 2];

pub(crate) fn point(square: Square) -> Point {
    [square.row(), square.col()]
}

/// One command and what the judge says of it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The command, `x1 y1 x2 y2`.
    pub command: String,
    /// The official output line: `red guard;NA;no;no` or `Invalid command`.
    pub result: String,
    /// Whether the command was played.
    pub valid: bool,
    /// Why an invalid command is invalid (`duck explain`'s reason).
    pub reason: Option<String>,
    /// The command as the player sees it on the board (null when invalid).
    pub(crate) notation: Option<Notation>,
}

/// A piece on the board.
#[derive(Serialize)]
struct PieceView {
    point: Point,
    /// The official name, `red horse`.
    piece: &'static str,
    color: &'static str,
    role: &'static str,
    /// Its Chinese glyph (red and blue use different characters).
    glyph: char,
}

/// A move on the board.
#[derive(Serialize)]
struct MoveView {
    from: Point,
    to: Point,
}

/// A captain under attack and the pieces that could capture it.
#[derive(Serialize)]
struct CheckView {
    captain: Point,
    color: &'static str,
    attackers: Vec<Point>,
}

/// The points one piece of the side to move can reach.
#[derive(Serialize)]
pub(crate) struct Destinations {
    from: Point,
    to: Vec<Point>,
}

/// A position as the page draws it.
#[derive(Serialize)]
pub(crate) struct PositionView {
    /// How many commands were replayed to reach it.
    ply: usize,
    /// The side to move.
    turn: &'static str,
    /// The side that captured the other's captain, once the game is over.
    winner: Option<&'static str>,
    pieces: Vec<PieceView>,
    /// The last valid command before it, if any.
    last: Option<MoveView>,
    /// Whether either captain can be captured in one move (the official "check").
    check: bool,
    /// Each captain under attack, with its attackers.
    checks: Vec<CheckView>,
    /// For each piece of the side to move that can move, the points it can reach (empty once the
    /// game is over); a piece hemmed in on every side is not listed.
    pub(crate) moves: Vec<Destinations>,
    /// The position as FEN, as [`arbiter_duck::Position`] writes it.
    fen: String,
}

/// The reply to `/api/duck/game` and `/api/duck/import`.
#[derive(Serialize)]
struct GameReply {
    entries: Vec<Entry>,
    /// The game as an official command list: `Q`, then one command per line.
    input: String,
    position: PositionView,
    /// Something in the input that was ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<String>,
}

/// The reply to `/api/duck/move`.
#[derive(Serialize)]
struct MoveReply {
    entry: Entry,
    /// The position after the command, when it was valid.
    position: Option<PositionView>,
}

/// A command read from its text by the judge's own reader ([`Command`]'s `FromStr`): four
/// integers, any size (huge ones are read as the extremes of `i64`, as the judge reads them).
fn parse_command(text: &str, number: usize) -> Result<Command, ApiError> {
    text.parse().map_err(|error: ScanError| {
        ApiError::bad_request(format!(
            "command {number}, `{}`: expected {}, found {}",
            Shown(text),
            error.expected,
            error.found
        ))
    })
}

/// Judges one command in `game`, playing it when valid.
fn judge(game: &mut Game, command: Command) -> (Entry, Result<Played, Invalid>) {
    let outcome = game.play_coords(command.from, command.to);
    let entry = match &outcome {
        Ok(played) => Entry {
            command: command.to_string(),
            result: played.to_string(),
            valid: true,
            reason: None,
            notation: Square::from_coords(command.from.0, command.from.1)
                .zip(Square::from_coords(command.to.0, command.to.1))
                .map(|(from, to)| notation::written(Move::new(from, to), played)),
        },
        Err(invalid) => Entry {
            command: command.to_string(),
            result: "Invalid command".to_owned(),
            valid: false,
            reason: Some(invalid.to_string()),
            notation: None,
        },
    };
    (entry, outcome)
}

/// A game replayed: its entries and the position after `at` of them.
pub(crate) struct Replay {
    pub(crate) entries: Vec<Entry>,
    pub(crate) position: PositionView,
}

/// Replays `commands` from `start`, keeping every entry, and describes the position after `at`
/// commands.
pub(crate) fn replay(start: Position, commands: &[Command], at: usize) -> Replay {
    let mut replayer = Replayer::new(start);
    let mut entries = Vec::with_capacity(commands.len());
    let mut position = None;
    for (i, &command) in commands.iter().enumerate() {
        if i == at {
            position = Some(replayer.position());
        }
        entries.push(replayer.judge(command));
    }
    let position = position.unwrap_or_else(|| replayer.position());
    Replay { entries, position }
}

/// A game judged one command at a time, which can be taken further later: a live game judges
/// each move once as it is played, not its whole list again at every change.
pub(crate) struct Replayer {
    game: Game,
    /// The commands judged.
    judged: usize,
    /// The last valid one.
    last: Option<Command>,
}

impl Replayer {
    /// At `start`, nothing judged.
    pub(crate) fn new(start: Position) -> Replayer {
        Replayer { game: Game::from_position(start), judged: 0, last: None }
    }

    /// Judges `command`, playing it when valid.
    pub(crate) fn judge(&mut self, command: Command) -> Entry {
        let (entry, outcome) = judge(&mut self.game, command);
        if outcome.is_ok() {
            self.last = Some(command);
        }
        self.judged += 1;
        entry
    }

    /// The position after the commands judged.
    pub(crate) fn position(&self) -> PositionView {
        describe(&self.game, self.judged, self.last)
    }
}

/// Plays `commands` from `start` and returns the game and its last valid move.
pub(crate) fn play_all(start: Position, commands: &[Command]) -> (Game, Option<Command>) {
    let mut game = Game::from_position(start);
    let mut last = None;
    for &command in commands {
        if game.play_coords(command.from, command.to).is_ok() {
            last = Some(command);
        }
    }
    (game, last)
}

/// What the page draws of `game`, reached after `ply` commands.
fn describe(game: &Game, ply: usize, last: Option<Command>) -> PositionView {
    let board = game.board();
    let pieces = Square::all()
        .filter_map(|sq| board.piece_at(sq).map(|piece| (sq, piece)))
        .map(|(sq, piece)| PieceView {
            point: point(sq),
            piece: piece.name(),
            color: piece.color.name(),
            role: piece.role.name(),
            glyph: piece.glyph(),
        })
        .collect();
    // A valid command's coordinates are on the board.
    let on_board = |(x, y): (i64, i64)| Square::from_coords(x, y).map(point);
    let last = last.and_then(|c| Some(MoveView { from: on_board(c.from)?, to: on_board(c.to)? }));
    let moves = if game.winner().is_some() {
        Vec::new()
    } else {
        board
            .by_color(game.turn())
            .into_iter()
            .map(|from| Destinations {
                from: point(from),
                to: board.moves_from(from).into_iter().map(point).collect(),
            })
            .filter(|destinations| !destinations.to.is_empty())
            .collect()
    };
    PositionView {
        ply,
        turn: game.turn().name(),
        winner: game.winner().map(Color::name),
        pieces,
        last,
        check: board.is_check(),
        checks: checks(game),
        moves,
        fen: game.position().to_string(),
    }
}

/// Each captain that a piece of the other side could capture in one move, with those pieces.
/// The test is the movement table's own ([`movement::reaches`]), asked for every enemy piece.
fn checks(game: &Game) -> Vec<CheckView> {
    let board = game.board();
    if game.winner().is_some() {
        return Vec::new();
    }
    let occupied = board.occupied();
    Color::ALL
        .into_iter()
        .filter_map(|color| {
            let captain = board.captain(color)?;
            let attackers: Vec<Point> = board
                .by_color(!color)
                .into_iter()
                .filter(|&from| {
                    board.piece_at(from).is_some_and(|Piece { role, .. }| {
                        movement::reaches(role, from, captain, occupied)
                    })
                })
                .map(point)
                .collect();
            (!attackers.is_empty()).then(|| CheckView {
                captain: point(captain),
                color: color.name(),
                attackers,
            })
        })
        .collect()
}

/// Reads a request's commands, refusing more than [`limits::DUCK_COMMANDS`].
pub(crate) fn read_commands(commands: &[String]) -> Result<Vec<Command>, ApiError> {
    if commands.len() > limits::DUCK_COMMANDS {
        return Err(too_many(commands.len()));
    }
    commands.iter().enumerate().map(|(i, text)| parse_command(text, i + 1)).collect()
}

fn too_many(count: usize) -> ApiError {
    ApiError::too_large(format!(
        "{count} commands; the server replays games of at most {} (use `arbiter duck` for longer \
         ones)",
        limits::DUCK_COMMANDS
    ))
}

/// The official command list of `entries`.
fn official_input(entries: &[Entry]) -> String {
    let mut text = format!("{}\n", entries.len());
    for entry in entries {
        text.push_str(&entry.command);
        text.push('\n');
    }
    text
}

/// The position a game starts from: the FEN given, or the official start. A FEN that does not
/// describe a position of the game is refused with the reason `arbiter_duck` gives (a piece
/// letter it cannot read, more pieces of a kind than a side starts with, no captain for the side
/// that has just moved).
pub(crate) fn start(fen: Option<&str>) -> Result<Position, ApiError> {
    let Some(text) = fen else { return Ok(Position::new()) };
    let fen: Fen = text.parse().map_err(|error| ApiError::bad_request(format!("FEN: {error}")))?;
    Position::from_fen(&fen).map_err(|error| ApiError::bad_request(format!("FEN: {error}")))
}

fn game_reply(start: Position, commands: Vec<Command>, at: Option<usize>) -> GameReply {
    let at = at.unwrap_or(commands.len()).min(commands.len());
    let Replay { entries, position } = replay(start, &commands, at);
    GameReply { input: official_input(&entries), entries, position, warning: None }
}

/// `POST /api/duck/game`.
async fn game(Body(request): Body<GameRequest>) -> Result<Json<GameReply>, ApiError> {
    work::run(move || {
        let start = start(request.fen.as_deref())?;
        let commands = read_commands(&request.commands)?;
        Ok(Json(game_reply(start, commands, request.at)))
    })
    .await
}

/// `POST /api/duck/position`.
async fn position(Body(request): Body<GameRequest>) -> Result<Json<PositionView>, ApiError> {
    work::run(move || {
        let start = start(request.fen.as_deref())?;
        let commands = read_commands(&request.commands)?;
        let at = request.at.unwrap_or(commands.len()).min(commands.len());
        let (game, last) = play_all(start, &commands[..at]);
        Ok(Json(describe(&game, at, last)))
    })
    .await
}

/// `POST /api/duck/move`.
async fn play(Body(request): Body<MoveRequest>) -> Result<Json<MoveReply>, ApiError> {
    work::run(move || {
        let start = start(request.fen.as_deref())?;
        let commands = read_commands(&request.commands)?;
        if commands.len() >= limits::DUCK_COMMANDS {
            return Err(too_many(commands.len() + 1));
        }
        let command = parse_command(&request.command, commands.len() + 1)?;
        let (mut game, _) = play_all(start, &commands);
        let (entry, outcome) = judge(&mut game, command);
        let position = outcome.is_ok().then(|| describe(&game, commands.len() + 1, Some(command)));
        Ok(Json(MoveReply { entry, position }))
    })
    .await
}

/// `POST /api/duck/import`.
async fn import(Body(request): Body<ImportRequest>) -> Result<Json<GameReply>, ApiError> {
    work::run(move || {
        let text = request.text.strip_prefix('\u{feff}').unwrap_or(&request.text);
        let mut reader = Commands::new(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
        if reader.announced() > limits::DUCK_COMMANDS as u64 {
            return Err(ApiError::too_large(format!(
                "the input announces {} commands; the server replays games of at most {} (use \
                 `arbiter duck` for longer ones)",
                reader.announced(),
                limits::DUCK_COMMANDS
            )));
        }
        let mut commands = Vec::new();
        for command in reader.by_ref() {
            commands.push(command.map_err(|e| ApiError::bad_request(e.to_string()))?);
        }
        let warning = reader.trailing().map(|position| {
            format!(
                "{position}: ignoring input after the last of {} command{}",
                commands.len(),
                if commands.len() == 1 { "" } else { "s" }
            )
        });
        let mut reply = game_reply(Position::new(), commands, None);
        reply.warning = warning;
        Ok(Json(reply))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_four_integers_of_any_size() {
        assert_eq!(parse_command(" 0 3\t1 4 ", 1).unwrap(), Command { from: (0, 3), to: (1, 4) });
        let huge = parse_command("99999999999999999999 -1 0 0", 1).unwrap();
        assert_eq!(huge.from, (i64::MAX, -1));
        for bad in ["", "0 3 1", "0 3 1 4 5", "a b c d", "0 3 1 4.0"] {
            let error = parse_command(bad, 7).unwrap_err();
            assert!(error.message.starts_with("command 7, "), "{bad}: {}", error.message);
        }
    }

    #[test]
    fn replay_matches_the_judge() {
        let commands = [((0, 0), (7, 0)), ((0, 3), (1, 4)), ((9, 4), (8, 4))]
            .map(|(from, to)| Command { from, to });
        let Replay { entries, position } = replay(Position::new(), &commands, 1);
        let results: Vec<_> = entries.iter().map(|e| e.result.as_str()).collect();
        assert_eq!(results, ["Invalid command", "red guard;NA;no;no", "blue captain;NA;no;no"]);
        assert_eq!(entries[0].reason.as_deref(), Some("car path (2,0) is occupied by red duck"));
        // After the invalid first command red is still to move, and nothing has moved.
        assert_eq!((position.ply, position.turn, position.last.is_none()), (1, "red", true));
        // 14 of red's 16 pieces can move: the ducks on (2,0) and (2,8) are hemmed in.
        assert_eq!(position.moves.len(), 14);
        assert_eq!(position.fen, arbiter_duck::fen::INITIAL);
    }

    /// Plays `games` random games of at most `plies` moves (a fixed linear congruential sequence
    /// from `seed` picks the moves) and shows `visit` every position reached, with the result of
    /// the move that reached it (`None` for the starting position).
    fn random_positions(
        mut seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Game, Option<&Played>),
    ) {
        for _ in 0..games {
            let mut game = Game::new();
            visit(&game, None);
            for _ in 0..plies {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = moves[(seed >> 33) as usize % moves.len()];
                let played = game.play(mv.from, mv.to).unwrap();
                visit(&game, Some(&played));
            }
        }
    }

    #[test]
    fn the_pieces_listed_as_movable_are_exactly_those_with_a_valid_move() {
        // In every position of random games the listed destinations are the judge's valid
        // moves, and no piece is listed without one, so that the page never offers a piece that
        // cannot go anywhere.
        let mut hemmed_in = 0;
        random_positions(2018, 100, 120, |game, _| {
            let view = describe(game, 0, None);
            let mut listed: Vec<(Point, Point)> =
                view.moves.iter().flat_map(|d| d.to.iter().map(|&to| (d.from, to))).collect();
            let mut valid: Vec<(Point, Point)> =
                game.legal_moves().iter().map(|m| (point(m.from), point(m.to))).collect();
            listed.sort_unstable();
            valid.sort_unstable();
            assert_eq!(listed, valid);
            assert!(view.moves.iter().all(|d| !d.to.is_empty()));
            let board = game.board();
            hemmed_in += board
                .by_color(game.turn())
                .into_iter()
                .filter(|&from| board.moves_from(from).is_empty())
                .count();
        });
        // The games do reach pieces that cannot move.
        assert!(hemmed_in > 100, "{hemmed_in}");
    }

    #[test]
    fn attackers_are_the_pieces_that_could_capture_a_captain() {
        // In every position of random games reached by a move, the attackers listed are exactly
        // the enemy pieces whose moves include the captain's point, and there are some exactly
        // when the judge says "check".
        let mut checks_seen = 0;
        random_positions(2019, 200, 120, |game, played| {
            let Some(played) = played else { return };
            let listed = checks(game);
            assert_eq!(played.check, !listed.is_empty());
            let board = game.board();
            for check in &listed {
                let captain = Square::new(check.captain[0], check.captain[1]).unwrap();
                let color = board.piece_at(captain).unwrap().color;
                let expected: Vec<Point> = board
                    .by_color(!color)
                    .into_iter()
                    .filter(|&from| board.moves_from(from).contains(captain))
                    .map(point)
                    .collect();
                assert_eq!(check.attackers, expected);
                checks_seen += 1;
            }
        });
        assert!(checks_seen > 100, "{checks_seen}");
    }
}
