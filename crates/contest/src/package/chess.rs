//! Chess records as a packaged problem: the statement in the project's words, the published
//! sample, and solutions that are shell scripts around `arbiter chess`, since no C++ solution
//! was published with the problem.

use arbiter_scan::Invalid;

use super::{Code, Packaged, Solution, Statement, Verdict};
use crate::chess::ChessProblem;

/// A solution that answers as arbiter does except when the first wrong token of a record breaks
/// only the rule `rule`, whose mistakes arbiter explains with one of `reasons`: then it answers
/// `Yes`, as a program that never looks at that rule would.
fn tolerant(rule: &str, reasons: &[&str]) -> String {
    let patterns: Vec<String> = reasons.iter().map(|reason| format!("*\"{reason}\"*")).collect();
    format!(
        "#!/bin/sh\n\
         # Wrong answer on purpose: {rule}.\n\
         # arbiter chess --explain names the rule the first wrong token breaks; when it is this\n\
         # rule, the record is taken as correct.\n\
         why=$(arbiter chess --explain 2>&1 > /dev/null)\n\
         case $why in\n  \"\" | {}) echo Yes ;;\n  *) echo No ;;\nesac\n",
        patterns.join(" | ")
    )
}

impl Packaged for ChessProblem {
    const TITLE: &'static str = "Chess Records";
    const SHORT_NAME: &'static str = "chessrecords";
    const UUID: &'static str = "3f0b8e52-6a4c-4f1e-9d2b-7c5a1e8f4d60";
    const TIME_LIMIT_SECONDS: u32 = 1;
    const MEMORY_LIMIT_MIB: u32 = 256;
    const CORNERS: &'static [&'static str] = &arbiter_chess_record::validate::CORNERS;
    const PLAN: &'static [(&'static str, Option<&'static str>, usize)] = &[
        ("correct", Some("600"), 1),
        ("correct", None, 2),
        ("capture", None, 2),
        ("check", None, 2),
        ("disambiguation", None, 2),
        ("pinned", None, 2),
        ("promotion", None, 2),
        ("castling", None, 3),
        ("en-passant", None, 2),
        ("after-end", None, 2),
    ];

    fn options() {}

    fn corners(input: &[u8]) -> Result<Vec<bool>, Invalid> {
        let moves = arbiter_chess_record::validate::validate(input)?;
        Ok(arbiter_chess_record::validate::corners(&moves).to_vec())
    }

    fn statement() -> Statement {
        Statement {
            legend: LEGEND.to_owned(),
            input: INPUT.to_owned(),
            output: OUTPUT.to_owned(),
            notes: NOTES.to_owned(),
        }
    }

    fn samples() -> Vec<(&'static str, &'static str)> {
        vec![("1", include_str!("../../../chess-record/tests/fixtures/sample/1.in"))]
    }

    fn official() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    fn handwritten() -> Vec<(&'static str, &'static str)> {
        vec![("empty-record", "\n")]
    }

    fn solutions() -> Vec<Solution> {
        vec![
            Solution {
                name: "arbiter",
                verdict: Verdict::Accepted,
                code: Code::Shell(
                    "#!/bin/sh\n# arbiter's record check, the reference of this problem.\n\
                     exec arbiter chess\n"
                        .to_owned(),
                ),
            },
            Solution {
                name: "check-marks-unchecked",
                verdict: Verdict::WrongAnswer,
                code: Code::Shell(tolerant(
                    "a + is not looked at, missing on a check or written on a move that gives none",
                    &["so it needs a +;", "gives no check, so no +;"],
                )),
            },
            Solution {
                name: "capture-marks-unchecked",
                verdict: Verdict::WrongAnswer,
                code: Code::Shell(tolerant(
                    "an x is not looked at, missing on a capture or written on a move that captures nothing",
                    &["so it needs an x;", "captures nothing, so no x;"],
                )),
            },
        ]
    }
}

const LEGEND: &str = r"A chess game is written down as a record: move numbers, each followed by
white's move and then black's, every move in standard algebraic notation. You are given a record
and must say whether it is \emph{correct}: every move is legal under the rules of chess, and every
move is written exactly as this problem writes it.

A move is written as follows. A pawn move is its destination square (\texttt{e4}); a pawn capture
starts with the file the pawn leaves (\texttt{exd5}), en passant included. Any other move starts
with the piece's letter, \texttt{K}, \texttt{Q}, \texttt{R}, \texttt{B} or \texttt{N}. When two or
more pieces of that kind could legally go to the destination, the move names the file the piece
leaves if that tells them apart, otherwise its rank, otherwise both (\texttt{Nbd2},
\texttt{R1e2}, \texttt{Qh4e1}); a piece that cannot legally make the move (a pinned one, say) does
not count, and naming the file or rank when nothing needs telling apart is wrong. An
\texttt{x} comes before the destination exactly when the move captures. A pawn reaching the last
rank names the piece it becomes right after the square, without \texttt{=} (\texttt{e8Q}).
Castling is \texttt{O-O} on the king's side and \texttt{O-O-O} on the queen's side, with capital
letters O. A move that gives check ends with one \texttt{+}, a checkmate too; \texttt{\#} is never
written. Nothing else belongs in a record: no comments, no result, no \texttt{!} or \texttt{?}.

The game starts from the usual position, white to move, with the usual rules: castling only if
neither the king nor that rook has moved, the squares between them are empty and the king is not
in check, does not pass over an attacked square and does not land on one; en passant only on the
move right after the pawn's double step; a move may not leave one's own king in check. After
checkmate or stalemate no move is legal. Draws by repetition or by the fifty-move rule are not
applied. A record with no moves is correct.";

const INPUT: &str = r"One line holding the record: tokens separated by single spaces, move
numbers \texttt{1.}, \texttt{2.}, \ldots{} in order, each followed by white's move and black's
move; only the last round may lack black's move. There are at most $300$ rounds, and every move
has one of the shapes above (a square with an optional piece letter, file or rank, \texttt{x},
promotion letter and \texttt{+}, or \texttt{O-O} and \texttt{O-O-O}), though it may be illegal or
written wrongly.";

const OUTPUT: &str = r"Print \texttt{Yes} if the record is correct and \texttt{No} otherwise.";

const NOTES: &str = r"In the sample, every move is legal and written as this problem writes it:
captures with \texttt{x}, checks with \texttt{+}, a promotion as \texttt{dxe8Q+}, castling on the
queen's side as \texttt{O-O-O}. Output is compared token by token, letter case included.";
