//! Chess records (seed 002) as a contest problem: one record line, answered `Yes` or `No`, the
//! record check's mistake as the reason, and shrinking by dropping moves from the end.
//!
//! ```
//! use arbiter_contest::chess::{ChessProblem, ChessProfile};
//! use arbiter_contest::problem::Problem;
//!
//! let problem = ChessProblem::new(ChessProfile::Castling, None);
//! let case = problem.generate(3);
//! assert_eq!(case, problem.generate(3));
//! let why = problem.explain("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0\n", 1).unwrap();
//! assert_eq!(why.to_string(), "1:45: 5. white 0-0 (ply 9): castling is written with the letter O, not zeros; write O-O");
//! ```

mod generate;

use std::fmt;
use std::str::FromStr;

use arbiter_chess_record::shakmaty::{Chess, Color, Piece, Position, Role, Square, attacks};
use arbiter_chess_record::{Dialect, Shown, Verdict, check_record, read_move};
use arbiter_scan::place_at;

use crate::problem::{
    Explanation, InputError, Problem, UnknownProfile, normalized, profile_name, profile_named,
};
use crate::setup::Setup;
use crate::shrink::{Oracle, shortest_prefix};

pub use generate::generate;

/// A record: its tokens, move numbers included, as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChessCase {
    /// The tokens, in order (`1.`, `e4`, `e5`, `2.`, ...).
    pub tokens: Vec<String>,
}

impl ChessCase {
    /// The record without its last move, nor the move number left dangling before it: a record
    /// that ends after a move number breaks the statement's format (`x. s1 s2`), so shrinking
    /// never stops there.
    pub fn without_last_move(&self) -> ChessCase {
        let mut tokens = self.tokens.clone();
        tokens.pop();
        while tokens.last().is_some_and(|t| is_number(t)) {
            tokens.pop();
        }
        ChessCase { tokens }
    }
}

/// Which corners of the record format the generated records aim at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChessProfile {
    /// Each record drawn from one of the profiles below, except `numbers` and `beyond`.
    Mixed,
    /// Valid records rich in checks, mates, captures, promotions, castling and en passant.
    Correct,
    /// A capture written without `x`, or a quiet move with one.
    Capture,
    /// A check without `+`, or `+` on a move that gives no check.
    Check,
    /// Disambiguation missing, unneeded, by rank where the file decides, or by both.
    Disambiguation,
    /// A pinned piece that makes no ambiguity: no file or rank may be named for the other.
    Pinned,
    /// Promotions: every piece, and a missing or impossible promotion letter.
    Promotion,
    /// Castling, legal and not: through, into or out of check, without rights, blocked.
    Castling,
    /// En passant captures, and one written a move too late.
    EnPassant,
    /// A move after checkmate or stalemate.
    AfterEnd,
    /// Wrong move numbers (beyond the statement, which promises the `x. s1 s2` layout).
    Numbers,
    /// Spellings the statement promises never to use: `0-0`, `e8=Q`, `e8q`, `#`, `++`, `e.p.`.
    Beyond,
}

impl ChessProfile {
    /// Every profile with its name and a one-line description, for help texts.
    pub const ALL: [(ChessProfile, &'static str, &'static str); 12] = [
        (
            ChessProfile::Mixed,
            "mixed",
            "each record from one of the profiles below except numbers and beyond (default)",
        ),
        (
            ChessProfile::Correct,
            "correct",
            "valid records with checks, mates, promotions, castling, en passant",
        ),
        (ChessProfile::Capture, "capture", "a capture without x, or x on a quiet move"),
        (ChessProfile::Check, "check", "a check without +, or + on a move that gives no check"),
        (
            ChessProfile::Disambiguation,
            "disambiguation",
            "disambiguation missing, unneeded, by rank where the file decides, by both",
        ),
        (
            ChessProfile::Pinned,
            "pinned",
            "a pinned piece that makes no ambiguity, with or without a needless file",
        ),
        (
            ChessProfile::Promotion,
            "promotion",
            "promotions to every piece, a missing or impossible promotion letter",
        ),
        (
            ChessProfile::Castling,
            "castling",
            "castling legal and not: through, into or out of check, no rights, blocked",
        ),
        (
            ChessProfile::EnPassant,
            "en-passant",
            "en passant captures, and one written a move too late",
        ),
        (ChessProfile::AfterEnd, "after-end", "a move after checkmate or stalemate"),
        (ChessProfile::Numbers, "numbers", "wrong move numbers (beyond the statement)"),
        (
            ChessProfile::Beyond,
            "beyond",
            "0-0, e8=Q, e8q, #, ++, e.p. (spellings beyond the statement)",
        ),
    ];

    /// The profile's name.
    pub fn name(self) -> &'static str {
        profile_name(&ChessProfile::ALL, self)
    }
}

impl FromStr for ChessProfile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<ChessProfile, UnknownProfile> {
        profile_named(&ChessProfile::ALL, name)
    }
}

impl fmt::Display for ChessProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Chess records for the contest tools: a profile and, optionally, the number of plies before
/// the corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessProblem {
    profile: ChessProfile,
    size: Option<usize>,
}

impl ChessProblem {
    /// Records of `profile`; `size` bounds the plies played (at most 600: the statement's 300
    /// rounds).
    pub fn new(profile: ChessProfile, size: Option<usize>) -> ChessProblem {
        ChessProblem { profile, size }
    }
}

impl Setup for ChessProblem {
    type Profile = ChessProfile;
    type Size = usize;
    type Options = ();

    const SIZE_NAME: &'static str = "PLIES";
    const SIZE_HELP: &'static str = "Plies played before the corner is looked for (correct records: their length; at most 600) [default: random]";
    const PROFILES: &'static [(ChessProfile, &'static str, &'static str)] = &ChessProfile::ALL;

    fn choose(profile: ChessProfile, size: Option<usize>, _: &()) -> ChessProblem {
        ChessProblem::new(profile, size)
    }
}

impl Problem for ChessProblem {
    type Case = ChessCase;

    const NAME: &'static str = "chess";
    const UNIT: &'static str = "tokens";
    const MINIMAL: &'static str = "the last move";

    fn generate(&self, seed: u64) -> ChessCase {
        ChessCase { tokens: generate(self.profile, self.size, seed) }
    }

    fn write_input(&self, case: &ChessCase, out: &mut Vec<u8>) {
        out.extend_from_slice(case.tokens.join(" ").as_bytes());
        out.push(b'\n');
    }

    fn size(&self, case: &ChessCase) -> usize {
        case.tokens.len()
    }

    fn answer(&self, input: &str) -> Result<String, InputError> {
        Ok(format!("{}\n", check_record(input)))
    }

    fn explain(&self, input: &str, line: usize) -> Result<Explanation, InputError> {
        if line != 1 {
            return Ok(Explanation {
                what: format!("line {line}"),
                why: "the answer is one line".to_owned(),
                ..Explanation::default()
            });
        }
        Ok(match check_record(input) {
            Verdict::Yes { plies } => {
                let mut why = format!(
                    "Yes: each of its {} is a legal move in its canonical spelling, numbered right",
                    crate::count(plies as usize, "moves")
                );
                if let Some(last) = last_move(input) {
                    why.push_str("; the last, ");
                    why.push_str(&last);
                }
                Explanation { place: None, what: "the record".to_owned(), why, context: Vec::new() }
            }
            Verdict::No(mistake) => {
                let token = if mistake.token.is_empty() {
                    "<end>".to_owned()
                } else {
                    Shown(&mistake.token).to_string()
                };
                Explanation {
                    place: mistake.offset.map(|offset| place_at(input, offset)),
                    what: format!(
                        "{}. {} {token} (ply {})",
                        mistake.move_number, mistake.side, mistake.ply
                    ),
                    why: mistake.fault.to_string(),
                    context: board_before(input, mistake.ply),
                }
            }
        })
    }

    fn is_answer_line(&self, line: &str) -> bool {
        matches!(normalized(line).as_str(), "Yes" | "No")
    }

    fn shrink(&self, case: ChessCase, oracle: &mut dyn Oracle<ChessCase>) -> ChessCase {
        // The prefixes tried end after a move (or are the whole record): cut `i` is the record
        // cut `i + 1` gives without its last move.
        let cuts: Vec<usize> = std::iter::once(0)
            .chain(
                (1..=case.tokens.len())
                    .filter(|&k| k == case.tokens.len() || !is_number(&case.tokens[k - 1])),
            )
            .collect();
        let build = |i: usize| ChessCase { tokens: case.tokens[..cuts[i]].to_vec() };
        let cut = shortest_prefix(cuts.len() - 1, build, oracle);
        ChessCase { tokens: case.tokens[..cuts[cut]].to_vec() }
    }
}

/// The last move of a valid record in words, with the pieces of its kind that could reach its
/// square by their pattern but not legally (pinned, or leaving a check unanswered), which name
/// no file or rank.
fn last_move(record: &str) -> Option<String> {
    let moves: Vec<&str> = record.split_ascii_whitespace().filter(|t| !is_number(t)).collect();
    let (&last, before) = moves.split_last()?;
    let mut pos = Chess::default();
    for token in before {
        read_move(&mut pos, token, Dialect::Contest).ok()?;
    }
    let prior = pos.clone();
    let reading = read_move(&mut pos, last, Dialect::Contest).ok()?;
    let m = reading.played;
    let from = m.from()?;
    let role = m.role();
    let name = format!("{role:?}").to_lowercase();
    let mut text = format!("{last}, moves the {name} from {from} to {}", m.to());
    if matches!(role, Role::Pawn | Role::King) || m.is_castle() {
        return Some(text);
    }
    let piece = Piece { color: prior.turn(), role };
    let reaching = attacks::attacks(m.to(), piece, prior.board().occupied()) & prior.our(role);
    let legal: Vec<Square> =
        prior.san_candidates(role, m.to()).iter().filter_map(|c| c.from()).collect();
    for twin in reaching.into_iter().filter(|s| !legal.contains(s)) {
        text.push_str(&format!(
            "; the {name} on {twin} could reach {} too, but not legally (its king would be in check), so it makes no ambiguity",
            m.to()
        ));
    }
    Some(text)
}

/// Whether `token` is a move number (`12.`).
fn is_number(token: &str) -> bool {
    token.ends_with('.') && token.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit())
}

/// The board before ply `ply` of a record valid up to there, as eight lines from rank 8 (white
/// pieces in capitals), with the side to move.
fn board_before(record: &str, ply: u32) -> Vec<String> {
    let mut pos = Chess::default();
    let mut played = 1;
    for token in record.split_ascii_whitespace() {
        if played >= ply {
            break;
        }
        if is_number(token) {
            continue;
        }
        if read_move(&mut pos, token, Dialect::Contest).is_err() {
            return Vec::new();
        }
        played += 1;
    }
    let side = if pos.turn() == Color::White { "white" } else { "black" };
    let mut lines = vec![format!("position before ply {ply} ({side} to move):")];
    let board = pos.board();
    for rank in (0..8u32).rev() {
        let mut line = format!("{} ", rank + 1);
        for file in 0..8u32 {
            let square = arbiter_chess_record::shakmaty::Square::from_coords(
                arbiter_chess_record::shakmaty::File::new(file),
                arbiter_chess_record::shakmaty::Rank::new(rank),
            );
            line.push(board.piece_at(square).map_or('.', |p| p.char()));
            line.push(' ');
        }
        lines.push(line.trim_end().to_owned());
    }
    lines.push("  a b c d e f g h".to_owned());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinking_never_stops_after_a_move_number() {
        let record = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0";
        let case = ChessCase { tokens: record.split(' ').map(str::to_owned).collect() };
        // A program that says Yes to everything fails wherever the answer is No: `1.` alone
        // would be the shortest such record, but it breaks the format.
        let says_no = |case: &ChessCase| !check_record(&case.tokens.join(" ")).is_yes();
        let problem = ChessProblem::new(ChessProfile::Mixed, None);
        let mut oracle = |candidates: &[ChessCase]| candidates.iter().position(says_no);
        let shrunk = problem.shrink(case.clone(), &mut oracle);
        assert_eq!(shrunk, case);
        let shorter = case.without_last_move();
        assert_eq!(shorter.tokens.join(" "), "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6");
        assert_eq!(shorter.without_last_move().tokens.len(), 11);
    }

    #[test]
    fn a_mistake_is_explained_with_the_board_before_it() {
        let problem = ChessProblem::new(ChessProfile::Mixed, None);
        let why = problem.explain("1. e4 e5 2. Nf3 Nc6 3. Nc3+", 1).unwrap();
        assert_eq!(why.what, "3. white Nc3+ (ply 5)");
        assert_eq!(why.why, "the move gives no check, so no +; write Nc3");
        assert_eq!(why.context[0], "position before ply 5 (white to move):");
        assert_eq!(why.context[1], "8 r . b q k b n r");
        assert_eq!(why.context[5], "4 . . . . P . . .");
        let yes = problem.explain("1. e4 e5", 1).unwrap();
        assert_eq!(
            yes.why,
            "Yes: each of its 2 moves is a legal move in its canonical spelling, numbered right; the last, e5, moves the pawn from e7 to e5"
        );
        let pinned = problem.explain("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Ne2", 1).unwrap();
        assert!(pinned.why.ends_with("the last, Ne2, moves the knight from g1 to e2; the knight on c3 could reach e2 too, but not legally (its king would be in check), so it makes no ambiguity"), "{}", pinned.why);
    }

    #[test]
    fn answer_lines_are_yes_or_no() {
        let problem = ChessProblem::new(ChessProfile::Mixed, None);
        assert!(problem.is_answer_line(" Yes "));
        assert!(!problem.is_answer_line("yes"));
        assert!(!problem.is_answer_line("Yes No"));
    }

    #[test]
    fn profiles_round_trip_by_name() {
        for (profile, name, _) in ChessProfile::ALL {
            assert_eq!(name.parse::<ChessProfile>().unwrap(), profile);
        }
    }
}
