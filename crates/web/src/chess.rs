//! The chess record endpoint: a contest record gets its verdict, the first wrong token with the
//! rule it breaks and its canonical spelling, and a board (FEN) for every ply up to it; a PGN
//! text gets a verdict per game. The checking is `arbiter_chess_record`'s; the boards come from
//! replaying the tokens it accepted with its own [`read_move`].

use arbiter_chess_record::fix::looks_like_pgn;
use arbiter_chess_record::pgn::{Mode, PgnGames};
use arbiter_chess_record::shakmaty::fen::Fen;
use arbiter_chess_record::shakmaty::uci::UciMove;
use arbiter_chess_record::shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};
use arbiter_chess_record::{Dialect, Fault, Verdict, check_record, read_move};
use arbiter_scan::Scanner;
use axum::Json;
use axum::routing::post;
use serde::{Deserialize, Serialize};

use crate::api::{ApiError, Body, Endpoint};
use crate::{limits, work};

/// The chess endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![Endpoint {
        method: "POST",
        path: "/api/chess/check",
        about: "check {text, mode?}: a contest record (verdict, first wrong token, rule, \
                canonical spelling, a FEN per ply) or a PGN text (a verdict per game; mode \
                `strict` or `lenient`)",
        route: post(check),
    }]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    text: String,
    /// For PGN: `strict` (default) or `lenient`.
    #[serde(default)]
    mode: Option<String>,
}

/// A move on the board, in UCI squares (castling as the king's move).
#[derive(Serialize)]
struct MoveView {
    from: String,
    to: String,
}

/// The position after a ply.
#[derive(Serialize)]
struct Board {
    /// 0 for the initial position.
    ply: u32,
    fen: String,
    /// The token of the record that made the move, and its move.
    token: Option<String>,
    #[serde(rename = "move")]
    played: Option<MoveView>,
    /// The square of a king in check.
    check: Option<String>,
}

/// The first wrong token.
#[derive(Serialize)]
struct MistakeView {
    ply: u32,
    move_number: u32,
    side: &'static str,
    /// As written; empty when the record ends too early.
    token: String,
    /// Byte offset of the token in the text.
    offset: Option<usize>,
    /// The whole explanation, as `arbiter chess --explain` words it.
    message: String,
    /// What is wrong, without the place.
    reason: String,
    /// The correct spelling, when there is exactly one.
    canonical: Option<String>,
    /// The correct spellings when the token fits several moves or promotions.
    alternatives: Vec<String>,
    /// The move the token denotes, when it is a legal move misspelled.
    #[serde(rename = "move")]
    played: Option<MoveView>,
}

/// A PGN game's verdict.
#[derive(Serialize)]
struct GameView {
    index: usize,
    line: u32,
    variant: String,
    white: String,
    black: String,
    plies: u32,
    ok: bool,
    /// The first error, with its place.
    error: Option<String>,
    line_of_error: Option<u32>,
    column_of_error: Option<u32>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum CheckReply {
    /// A contest record.
    Record { verdict: &'static str, plies: u32, mistake: Option<MistakeView>, boards: Vec<Board> },
    /// A PGN text.
    Pgn { mode: &'static str, games: Vec<GameView>, ok: usize, wrong: usize },
}

fn side(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

fn move_view(played: Move) -> MoveView {
    let uci = UciMove::from_move(played, CastlingMode::Standard).to_string();
    MoveView { from: uci[..2].to_owned(), to: uci[2..4].to_owned() }
}

fn board(pos: &Chess, ply: u32, token: Option<&str>, played: Option<Move>) -> Board {
    let check = pos
        .is_check()
        .then(|| pos.board().king_of(pos.turn()))
        .flatten()
        .map(|square| square.to_string());
    Board {
        ply,
        fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        token: token.map(str::to_owned),
        played: played.map(move_view),
        check,
    }
}

/// The record's move tokens, in order: the record layout (`1. e4 e5 2. Nf3`) puts a move number
/// before white's move, so in the part the checker accepted the moves are the tokens after each
/// number and the one after that.
fn move_tokens(record: &str, plies: u32) -> Vec<&str> {
    let mut scanner = Scanner::new(record.strip_prefix('\u{feff}').unwrap_or(record));
    let tokens = std::iter::from_fn(|| scanner.next_token().map(|token| token.text));
    tokens.enumerate().filter(|(i, _)| i % 3 != 0).map(|(_, t)| t).take(plies as usize).collect()
}

fn check_one_record(text: &str) -> Result<CheckReply, ApiError> {
    let verdict = check_record(text);
    let (plies, mistake) = match verdict {
        Verdict::Yes { plies } => (plies, None),
        Verdict::No(mistake) => (mistake.ply - 1, Some(mistake)),
    };
    if plies as usize > limits::CHESS_PLIES {
        return Err(ApiError::too_large(format!(
            "the record has over {} plies; the web app shows records of at most {} (use \
             `arbiter chess` for longer ones)",
            limits::CHESS_PLIES,
            limits::CHESS_PLIES
        )));
    }
    let mut pos = Chess::default();
    let mut boards = vec![board(&pos, 0, None, None)];
    for (ply, token) in (1..).zip(move_tokens(text, plies)) {
        let reading = read_move(&mut pos, token, Dialect::Contest)
            .map_err(|fault| ApiError::bad_request(format!("ply {ply}, `{token}`: {fault}")))?;
        boards.push(board(&pos, ply, Some(token), Some(reading.played)));
    }
    let mistake = mistake.map(|mistake| {
        let played = match &mistake.fault {
            Fault::Misspelled { .. } => {
                read_move(&mut pos.clone(), &mistake.token, Dialect::Contest).ok()
            }
            _ => None,
        };
        let (canonical, alternatives) = match &mistake.fault {
            Fault::Misspelled { canonical, .. } => (Some(canonical.clone()), Vec::new()),
            Fault::Ambiguous { alternatives, .. } | Fault::MissingPromotion { alternatives } => {
                (None, alternatives.clone())
            }
            _ => (None, Vec::new()),
        };
        MistakeView {
            ply: mistake.ply,
            move_number: mistake.move_number,
            side: side(mistake.side),
            token: mistake.token.clone(),
            offset: mistake.offset,
            message: mistake.to_string(),
            reason: mistake.fault.to_string(),
            canonical,
            alternatives,
            played: played.map(|reading| move_view(reading.played)),
        }
    });
    let verdict = if mistake.is_none() { "Yes" } else { "No" };
    Ok(CheckReply::Record { verdict, plies, mistake, boards })
}

fn check_pgn(text: &str, mode: Mode) -> Result<CheckReply, ApiError> {
    let mut games = Vec::new();
    for game in PgnGames::new(text.as_bytes()) {
        if games.len() == limits::PGN_GAMES {
            return Err(ApiError::too_large(format!(
                "the text has over {} games; the web app checks at most {} at a time (use \
                 `arbiter chess pgn` for more)",
                limits::PGN_GAMES,
                limits::PGN_GAMES
            )));
        }
        let report = game.check(mode);
        let (error, at) = match &report.error {
            None => (None, None),
            Some(error) => (Some(error.to_string()), Some(error.at())),
        };
        games.push(GameView {
            index: report.index,
            line: report.line,
            variant: report.variant.to_string(),
            white: report.white,
            black: report.black,
            plies: report.plies,
            ok: error.is_none(),
            error,
            line_of_error: at.map(|at| at.line),
            column_of_error: at.map(|at| at.column),
            warnings: report.warnings.iter().map(ToString::to_string).collect(),
        });
    }
    let ok = games.iter().filter(|g| g.ok).count();
    let mode = if mode == Mode::Strict { "strict" } else { "lenient" };
    Ok(CheckReply::Pgn { mode, ok, wrong: games.len() - ok, games })
}

/// `POST /api/chess/check`.
async fn check(Body(request): Body<CheckRequest>) -> Result<Json<CheckReply>, ApiError> {
    let mode = match request.mode.as_deref() {
        None | Some("strict") => Mode::Strict,
        Some("lenient") => Mode::Lenient,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "mode `{other}`: expected `strict` or `lenient`"
            )));
        }
    };
    work::run(move || {
        let reply = if looks_like_pgn(&request.text) {
            check_pgn(&request.text, mode)?
        } else {
            check_one_record(&request.text)?
        };
        Ok(Json(reply))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_record_stops_its_boards_before_the_mistake() {
        let CheckReply::Record { verdict, plies, mistake, boards } =
            check_one_record("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0").unwrap()
        else {
            panic!("not a record");
        };
        assert_eq!((verdict, plies, boards.len()), ("No", 8, 9));
        let mistake = mistake.unwrap();
        assert_eq!((mistake.token.as_str(), mistake.canonical.as_deref()), ("0-0", Some("O-O")));
        let played = mistake.played.unwrap();
        assert_eq!((played.from.as_str(), played.to.as_str()), ("e1", "g1"));
        assert_eq!(boards[1].played.as_ref().map(|m| m.to.as_str()), Some("e4"));
        assert!(boards[8].fen.starts_with("r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2"));
    }

    #[test]
    fn a_check_is_shown_on_the_king() {
        let CheckReply::Record { verdict, boards, .. } =
            check_one_record("1. e4 f5 2. Qh5+").unwrap()
        else {
            panic!("not a record");
        };
        assert_eq!(verdict, "Yes");
        assert_eq!(boards[3].check.as_deref(), Some("e8"));
    }
}
