//! The chess record endpoint: a contest record gets its verdict, the first wrong token with the
//! rule it breaks and its canonical spelling, and a board (FEN) for every ply up to it; a PGN
//! text gets a verdict per game. The checking is `arbiter_chess_record`'s; a record's boards come
//! from replaying the tokens it accepted with its own [`read_move`], a PGN game's from the
//! mainline its check read ([`GameText::mainline`](arbiter_chess_record::pgn::GameText::mainline)).

use arbiter_chess_record::fix::looks_like_pgn;
use arbiter_chess_record::pgn::{Mainline, Mode, PgnGames, Problem};
use arbiter_chess_record::shakmaty::fen::Fen;
use arbiter_chess_record::shakmaty::uci::UciMove;
use arbiter_chess_record::shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};
use arbiter_chess_record::{Dialect, Fault, Playable, Start, Verdict, check_record, read_move};
use arbiter_scan::Scanner;
use axum::Json;
use axum::routing::post;
use serde::{Deserialize, Serialize};

use crate::api::{ApiError, Body, Endpoint};
use crate::{limits, work};

/// The chess endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            method: "POST",
            path: "/api/chess/check",
            about: "check {text, mode?}: a contest record (verdict, first wrong token, rule, \
                    canonical spelling, a FEN per ply) or a PGN text (a verdict per game; mode \
                    `strict` or `lenient`)",
            route: post(check),
        },
        Endpoint {
            method: "POST",
            path: "/api/chess/game",
            about: "one game {text, mode?, game} of a PGN text (1-based): its verdict, a FEN per \
                    ply of its mainline up to the first wrong move, and that move",
            route: post(pgn_game),
        },
    ]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    text: String,
    /// For PGN: `strict` (default) or `lenient`.
    #[serde(default)]
    mode: Option<String>,
}

/// One game of a PGN text, to be shown on the board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    text: String,
    /// `strict` (default) or `lenient`.
    #[serde(default)]
    mode: Option<String>,
    /// 1-based.
    game: usize,
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

/// The first wrong move of a PGN game's mainline.
#[derive(Serialize)]
struct WrongMove {
    /// Counted from 1, from the game's first position.
    ply: u32,
    /// As written.
    token: String,
    /// The move the token denotes, when it denotes one (a misspelled legal move).
    #[serde(rename = "move")]
    played: Option<MoveView>,
}

/// A PGN game's mainline on the board: its verdict and a board per ply up to its first wrong
/// move.
#[derive(Serialize)]
struct GameBoards {
    index: usize,
    white: String,
    black: String,
    ok: bool,
    /// The first error, with its place, as the game's verdict words it.
    error: Option<String>,
    boards: Vec<Board>,
    wrong: Option<WrongMove>,
    /// Why the boards stop early or are missing (a variant other than standard chess).
    note: Option<String>,
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
    // The contest's checker calls an empty record correct (no move is wrong); a person who
    // pressed Check on an empty box wants to be told there is nothing to check.
    if text.strip_prefix('\u{feff}').unwrap_or(text).trim().is_empty() {
        return Err(ApiError::bad_request(
            "the record is empty: paste or upload a record such as `1. e4 e5 2. Nf3`, or PGN games",
        ));
    }
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

/// The PGN reading mode a request names.
fn read_mode(mode: Option<&str>) -> Result<Mode, ApiError> {
    match mode {
        None | Some("strict") => Ok(Mode::Strict),
        Some("lenient") => Ok(Mode::Lenient),
        Some(other) => {
            Err(ApiError::bad_request(format!("mode `{other}`: expected `strict` or `lenient`")))
        }
    }
}

/// The boards of game `number` of a PGN text: its mainline as the check read it, each move
/// played on the board.
fn pgn_boards(text: &str, mode: Mode, number: usize) -> Result<GameBoards, ApiError> {
    let game = PgnGames::new(text.as_bytes())
        .nth(number.saturating_sub(1))
        .filter(|_| number >= 1)
        .ok_or_else(|| ApiError::bad_request(format!("the text has no game {number}")))?;
    let Mainline { report, start, moves, wrong } = game.mainline(mode);
    let mut reply = GameBoards {
        index: report.index,
        white: report.white,
        black: report.black,
        ok: report.error.is_none(),
        error: report.error.as_ref().map(ToString::to_string),
        boards: Vec::new(),
        wrong: None,
        note: None,
    };
    let mut pos = match start {
        Some(Start::Chess(pos)) => pos,
        Some(Start::Variant(_)) => {
            reply.note =
                Some(format!("the board shows standard chess only, not {}", report.variant.name()));
            return Ok(reply);
        }
        None => {
            let why = match &report.error {
                Some(Problem::Fen { message, .. }) => message.clone(),
                Some(problem) => problem.to_string(),
                None => "its tags set none".to_owned(),
            };
            reply.note = Some(format!("the game's start cannot be shown: {why}"));
            return Ok(reply);
        }
    };
    reply.boards.push(board(&pos, 0, None, None));
    for (ply, step) in (1u32..).zip(&moves) {
        if ply as usize > limits::CHESS_PLIES {
            reply.note = Some(format!("the board shows the first {} plies", limits::CHESS_PLIES));
            return Ok(reply);
        }
        match step.played {
            // The check read the move in this very position: it is legal there.
            Some(played) => pos.play_unchecked(played),
            None => {
                pos = pos.pass().ok_or_else(|| {
                    ApiError::bad_request(format!("ply {ply}: `{}` passes in check", step.token))
                })?;
            }
        }
        reply.boards.push(board(&pos, ply, Some(&step.token), step.played));
    }
    reply.wrong = wrong.map(|wrong| WrongMove {
        ply: wrong.ply,
        token: wrong.token,
        played: wrong.played.map(move_view),
    });
    Ok(reply)
}

/// `POST /api/chess/game`.
async fn pgn_game(Body(request): Body<GameRequest>) -> Result<Json<GameBoards>, ApiError> {
    let mode = read_mode(request.mode.as_deref())?;
    work::run(move || Ok(Json(pgn_boards(&request.text, mode, request.game)?))).await
}

/// `POST /api/chess/check`.
async fn check(Body(request): Body<CheckRequest>) -> Result<Json<CheckReply>, ApiError> {
    let mode = read_mode(request.mode.as_deref())?;
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
    fn an_empty_record_is_an_error() {
        for empty in ["", "  \n\t", "\u{feff}\n"] {
            let error = check_one_record(empty).err().expect("an error");
            assert!(error.message.starts_with("the record is empty"), "{}", error.message);
        }
    }

    #[test]
    fn a_pgn_game_is_replayed_up_to_its_first_wrong_move() {
        let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {a comment} e5 (1... c5 2. Nf3) \
                   2. Ng1f3 Nc6 *\n\n1. d4 d5 $1 2. c4 1-0\n";
        let first = pgn_boards(pgn, Mode::Strict, 1).unwrap();
        assert!(!first.ok);
        assert_eq!(first.boards.len(), 3);
        let wrong = first.wrong.unwrap();
        assert_eq!((wrong.ply, wrong.token.as_str()), (3, "Ng1f3"));
        assert_eq!(wrong.played.map(|m| m.to), Some("f3".to_owned()));
        let lenient = pgn_boards(pgn, Mode::Lenient, 1).unwrap();
        assert_eq!((lenient.boards.len(), lenient.wrong.is_none()), (5, true));
        let second = pgn_boards(pgn, Mode::Strict, 2).unwrap();
        assert!(second.ok && second.wrong.is_none());
        assert_eq!(second.boards[3].token.as_deref(), Some("c4"));
        assert!(pgn_boards(pgn, Mode::Strict, 3).is_err());
        assert!(pgn_boards(pgn, Mode::Strict, 0).is_err());
    }

    #[test]
    fn a_pgn_game_is_read_as_its_check_reads_it() {
        // A `]` and a quote escaped in a tag, a `)` in a comment, a `}` and a `)` in a comment to
        // the end of the line, a `%` escape line, a nested variation, NAGs glued and apart: no
        // move among them, and the mainline is the five moves the check accepted.
        let pgn = "[Event \"a \\\"]\\\" b\"]\n[White \"A\"]\n\n1. e4 {a ) comment} $1 e5 \
                   (1... c5 (1... e6) 2. Nf3) 2. Nf3 !? ; a } and ) here\n%eval Nc6 +0.3\n\
                   Nc6 3. Bb5 *\n";
        let game = pgn_boards(pgn, Mode::Strict, 1).unwrap();
        assert!(game.ok, "{:?}", game.error);
        let tokens: Vec<_> = game.boards.iter().filter_map(|b| b.token.as_deref()).collect();
        assert_eq!(tokens, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert!(game.wrong.is_none() && game.note.is_none());
        assert!(game.boards[5].fen.starts_with("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2"));
        // A null move is a pass on the board in lenient mode, and the first wrong move in strict.
        let null = "1. e4 -- 2. d4 *\n";
        let lenient = pgn_boards(null, Mode::Lenient, 1).unwrap();
        assert_eq!(lenient.boards.len(), 4);
        assert!(lenient.boards[2].fen.ends_with(" w KQkq - 1 2"));
        let strict = pgn_boards(null, Mode::Strict, 1).unwrap();
        let wrong = strict.wrong.unwrap();
        assert_eq!((strict.boards.len(), wrong.ply, wrong.token.as_str()), (2, 2, "--"));
    }

    #[test]
    fn a_pgn_game_starts_from_its_fen_tag() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n";
        let game = pgn_boards(pgn, Mode::Strict, 1).unwrap();
        assert_eq!(game.boards.len(), 3);
        assert!(game.boards[2].fen.starts_with("8/3k4/8/8/4P3/8/8/4K3 w"));
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
