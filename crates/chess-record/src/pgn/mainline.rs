//! A game's mainline as the check read it: where it starts, each move played up to the first
//! wrong one, that one, and the verdict.

use shakmaty::Move;

use crate::variant::Start;

use super::listener::Listener;
use super::report::{GameReport, Mode, Problem};
use super::split::GameText;

/// A game's mainline as [`GameText::check`] reads it, with its verdict.
///
/// ```
/// use arbiter_chess_record::pgn::{Mode, PgnGames};
///
/// let pgn = b"1. e4 {a comment with ) inside} e5 (1... c5 (1... e6)) 2. Ng1f3 Nc6 *\n";
/// let game = PgnGames::new(pgn).next().unwrap().mainline(Mode::Strict);
/// let tokens: Vec<_> = game.moves.iter().map(|m| m.token.as_str()).collect();
/// assert_eq!(tokens, ["e4", "e5"]);
/// let wrong = game.wrong.unwrap();
/// assert_eq!((wrong.ply, wrong.token.as_str()), (3, "Ng1f3"));
/// assert!(wrong.played.is_some() && !game.report.ok);
/// ```
#[derive(Clone, Debug)]
pub struct Mainline {
    /// The verdict, the same as [`GameText::check`] gives.
    pub report: GameReport,
    /// The position the game starts from, or `None` when its tags set none (a bad `FEN` or an
    /// unknown `Variant`: the report's error says which).
    pub start: Option<Start>,
    /// The moves played from the start, in order, up to the first wrong one.
    pub moves: Vec<PlayedMove>,
    /// The first wrong move, when the game's error is a move's.
    pub wrong: Option<WrongMove>,
}

/// A move of the mainline, as written and as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The token, its move number left out.
    pub token: String,
    /// The move, or `None` for a null move (the side to move passed).
    pub played: Option<Move>,
}

/// The first wrong move of a mainline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongMove {
    /// Counted from 1, from the game's start.
    pub ply: u32,
    /// As the error shows it.
    pub token: String,
    /// The legal move the token denotes, when it denotes one (it is misspelled).
    pub played: Option<Move>,
}

/// The listener that keeps everything.
#[derive(Default)]
struct Collector {
    start: Option<Start>,
    moves: Vec<PlayedMove>,
    refused: Option<(u32, Move)>,
}

impl Listener for Collector {
    fn start(&mut self, start: &Start) {
        self.start = Some(start.clone());
    }

    fn play(&mut self, _ply: u32, token: &str, played: Option<Move>, _canonical: &str) {
        self.moves.push(PlayedMove { token: token.to_owned(), played });
    }

    fn refuse(&mut self, ply: u32, played: Move) {
        self.refused = Some((ply, played));
    }
}

impl GameText {
    /// Reads and checks the game, keeping its mainline: the same reading as
    /// [`check`](GameText::check), so both agree on every token.
    pub fn mainline(&self, mode: Mode) -> Mainline {
        let mut collector = Collector::default();
        let report = self.check_with(mode, &mut collector);
        let Collector { start, mut moves, refused } = collector;
        let wrong = match &report.error {
            Some(Problem::Move(located)) => {
                let (ply, played) = match refused {
                    Some((ply, played)) => (ply, Some(played)),
                    None => (moves.len() as u32 + 1, None),
                };
                // A move found wrong by the token after it (a glued glyph, a lone `e.p.`) was
                // played before: the mainline stops before it.
                moves.truncate(ply.saturating_sub(1) as usize);
                Some(WrongMove { ply, token: located.mistake.token.clone(), played })
            }
            _ => None,
        };
        Mainline { report, start, moves, wrong }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnGames;

    fn mainline(pgn: &str, mode: Mode) -> Mainline {
        let game = PgnGames::new(pgn.as_bytes()).next().expect("a game");
        let mainline = game.mainline(mode);
        assert_eq!(mainline.report, game.check(mode), "the same verdict as the check");
        mainline
    }

    fn tokens(mainline: &Mainline) -> Vec<&str> {
        mainline.moves.iter().map(|m| m.token.as_str()).collect()
    }

    #[test]
    fn comments_variations_glyphs_and_escapes_are_no_moves() {
        let pgn = "[Event \"a \\\"quoted\\\" ] name\"]\n\n1. e4 {a ) and a { inside} $1 e5 \
                   (1... c5 (1... e6 {x}) 2. Nf3) ; to the end ) of the line\n%escaped Nf6 line\n\
                   2. Nf3 !? Nc6 3... a3 *\n";
        let strict = mainline(pgn, Mode::Strict);
        assert!(!strict.report.ok, "3... is the wrong number");
        assert_eq!(tokens(&strict), ["e4", "e5", "Nf3", "Nc6"]);
        assert!(strict.wrong.is_none(), "a syntax error is no wrong move");
        let lenient = mainline(pgn, Mode::Lenient);
        assert_eq!(tokens(&lenient), ["e4", "e5", "Nf3", "Nc6", "a3"]);
        assert!(lenient.report.ok);
    }

    #[test]
    fn a_misspelled_move_is_refused_with_its_move() {
        let game = mainline("1. e4 e5 2. Ng1f3 *\n", Mode::Strict);
        let wrong = game.wrong.expect("a wrong move");
        assert_eq!((wrong.ply, wrong.token.as_str()), (3, "Ng1f3"));
        assert_eq!(wrong.played.map(|m| m.to().to_string()), Some("f3".to_owned()));
        assert_eq!(game.moves.len(), 2);
        let lenient = mainline("1. e4 e5 2. Ng1f3 -- *\n", Mode::Lenient);
        assert_eq!(tokens(&lenient), ["e4", "e5", "Ng1f3", "--"]);
        assert_eq!(lenient.moves[3].played, None, "a null move");
    }

    #[test]
    fn a_move_found_wrong_by_what_follows_it_is_not_played() {
        let glued = mainline("1. e4!? e5 *\n", Mode::Strict);
        let wrong = glued.wrong.expect("a wrong move");
        assert_eq!((wrong.ply, wrong.token.as_str(), glued.moves.len()), (1, "e4!?", 0));
        assert!(wrong.played.is_some());
        let pgn = "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n[SetUp \"1\"]\n\n1. exd6 e.p. *\n";
        let marked = mainline(pgn, Mode::Strict);
        let wrong = marked.wrong.expect("a wrong move");
        assert_eq!((wrong.ply, wrong.token.as_str(), marked.moves.len()), (1, "e.p.", 0));
        assert!(wrong.played.is_some_and(|m| m.is_en_passant()));
        assert_eq!(tokens(&mainline(pgn, Mode::Lenient)), ["exd6"]);
    }

    #[test]
    fn an_illegal_move_has_no_move() {
        let game = mainline("1. e4 e5 2. Ke3 *\n", Mode::Lenient);
        let wrong = game.wrong.expect("a wrong move");
        assert_eq!((wrong.ply, wrong.token.as_str(), wrong.played), (3, "Ke3", None));
    }

    #[test]
    fn the_start_is_the_tags() {
        let fen = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *\n";
        assert!(matches!(mainline(fen, Mode::Strict).start, Some(Start::Chess(_))));
        let variant = "[Variant \"Atomic\"]\n\n1. e4 *\n";
        assert!(matches!(mainline(variant, Mode::Strict).start, Some(Start::Variant(_))));
        let bad = mainline("[FEN \"8/8 w\"]\n\n1. e4 *\n", Mode::Strict);
        assert!(bad.start.is_none() && bad.moves.is_empty() && !bad.report.ok);
    }
}
