//! Duck Chess as a packaged problem: the statement in the project's words, the official data,
//! the statement's solution and three variants of it that each break one rule.

use arbiter_scan::Invalid;

use super::{Code, Packaged, Solution, Statement, Verdict};
use crate::duck::DuckProblem;

/// The solution printed with the statement (`crates/contest/tests/fixtures/duck/`).
const STATEMENT_SOLUTION: &str = include_str!("../../tests/fixtures/duck/seed000.cpp");

/// The horse-leg table of the statement's solution, and the same table emptied.
const HORSE_LEGS: (&str, &str) =
    ("\t{{0,1},{1,0},{0,1},{-1,0},{0,-1},{1,0},{0,-1},{-1,0}},//绊马腿", "\t{{0}},//绊马腿");

/// The elephant-eye table of the statement's solution, and the same table emptied.
const ELEPHANT_EYES: (&str, &str) =
    ("\t{{1,1},{-1,1},{1,-1},{-1,-1}},//绊象腿", "\t{{0}},//绊象腿");

/// The duck's two blocking points, and only the first of them.
const DUCK_POINTS: (&str, &str) = (
    "if(!mp[sx+err[7][i][0]][sy+err[7][i][1]]&&!mp[sx+ducke[i][0]][sy+ducke[i][1]])return 1;",
    "if(!mp[sx+err[7][i][0]][sy+err[7][i][1]])return 1;",
);

/// The statement's solution with one line replaced, headed by a comment saying which rule the
/// change breaks.
fn variant(rule: &str, (old, new): (&str, &str)) -> String {
    debug_assert_eq!(STATEMENT_SOLUTION.matches(old).count(), 1);
    format!(
        "// Wrong answer on purpose: {rule}.\n// The statement's solution with one line changed.\n{}",
        STATEMENT_SOLUTION.replacen(old, new, 1)
    )
}

impl Packaged for DuckProblem {
    const TITLE: &'static str = "Duck Chess";
    const SHORT_NAME: &'static str = "duckchess";
    const UUID: &'static str = "8c63eb35-8d71-46a5-9eac-67ec2447c27f";
    const TIME_LIMIT_SECONDS: u32 = 1;
    const MEMORY_LIMIT_MIB: u32 = 256;
    const CORNERS: &'static [&'static str] = &arbiter_duck::validate::CORNERS;
    const PLAN: &'static [(&'static str, Option<&'static str>, usize)] = &[
        ("short", Some("0"), 1),
        ("short", None, 3),
        ("checks", None, 3),
        ("captains", None, 3),
        ("blocked", None, 3),
        ("invalid", None, 3),
        ("official", None, 2),
        ("long", None, 2),
    ];

    fn options() {}

    fn corners(input: &[u8]) -> Result<Vec<bool>, Invalid> {
        let commands = arbiter_duck::validate::validate(input)?;
        Ok(arbiter_duck::validate::corners(&commands).to_vec())
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
        vec![("1", include_str!("../../../duck/tests/fixtures/sample/1.in"))]
    }

    fn official() -> Vec<(&'static str, &'static str)> {
        vec![
            ("1", include_str!("../../../duck/tests/fixtures/official/1.in")),
            ("2", include_str!("../../../duck/tests/fixtures/official/2.in")),
            ("3", include_str!("../../../duck/tests/fixtures/official/3.in")),
            ("4", include_str!("../../../duck/tests/fixtures/official/4.in")),
        ]
    }

    fn solutions() -> Vec<Solution> {
        vec![
            Solution {
                name: "seed000",
                verdict: Verdict::Accepted,
                code: Code::Cpp(STATEMENT_SOLUTION.to_owned()),
            },
            Solution {
                name: "forgets-duck-point",
                verdict: Verdict::WrongAnswer,
                code: Code::Cpp(variant(
                    "the duck's second blocking point is never looked at",
                    DUCK_POINTS,
                )),
            },
            Solution {
                name: "ignores-horse-leg",
                verdict: Verdict::WrongAnswer,
                code: Code::Cpp(variant("a horse jumps over a piece on its leg", HORSE_LEGS)),
            },
            Solution {
                name: "ignores-elephant-eye",
                verdict: Verdict::WrongAnswer,
                code: Code::Cpp(variant(
                    "an elephant jumps over a piece on its eye",
                    ELEPHANT_EYES,
                )),
            },
        ]
    }
}

const LEGEND: &str = r"Duck Chess is played by two sides, red and blue, on a board of 10 rows and
9 columns. A point is written $(x, y)$: $x$ is the row, from $0$ on red's side to $9$ on blue's,
and $y$ is the column, from $0$ to $8$. Pieces stand on points.

Red's pieces start on rows $0$ to $3$: on row $0$, from column $0$ to column $8$, a car, a horse,
an elephant, a guard, the captain, a guard, an elephant, a horse and a car; a duck on $(2, 0)$ and
one on $(2, 8)$; soldiers on $(3, 0)$, $(3, 2)$, $(3, 4)$, $(3, 6)$ and $(3, 8)$. Blue's pieces
start on the mirror points: a red piece on $(x, y)$ has a blue one of the same kind on
$(9 - x, y)$.

A move takes one piece of the side to move to another point. The destination must not hold a
piece of the same side; if it holds a piece of the other side, that piece is captured and leaves
the board. Each kind of piece moves in its own way:
\begin{itemize}
\item a \emph{captain} moves one step along a row or a column;
\item a \emph{guard} moves one step diagonally;
\item an \emph{elephant} moves two steps diagonally, and only if the point between (its eye) is
  empty;
\item a \emph{horse} moves one step along a row or column and then one step diagonally away from
  its start, and only if the point of that first step (its leg) is empty;
\item a \emph{car} moves any number of steps along a row or a column, and may not pass over a
  piece: every point between its start and its destination is empty;
\item a \emph{soldier} moves one step in any of the eight directions;
\item a \emph{duck} moves one step along a row or column and then two steps diagonally away from
  its start (three rows and two columns, or two rows and three columns, in all), and only if the
  two points it crosses are empty: the point of its first step and the point of its first
  diagonal step.
\end{itemize}
There is nothing else: no river, no palace, no rule against facing captains, and a side may leave
its own captain where it can be captured.

Red moves first, then the sides take turns. You are given a list of commands, each naming a
start point and a destination. A command is \emph{invalid} when the game is over, when its start
holds no piece of the side to move, when its destination holds a piece of that side, or when the
piece cannot move there as described above. An invalid command changes nothing, and the same side
is still to move. A valid command makes the move. The game is over as soon as a captain is
captured; every later command is invalid.";

const INPUT: &str = r"The first line holds an integer $Q$ ($0 \le Q \le 1000$), the number of
commands. Each of the next $Q$ lines holds four integers $x_1$, $y_1$, $x_2$, $y_2$
($0 \le x_1, x_2 \le 9$, $0 \le y_1, y_2 \le 8$): a command to move the piece on $(x_1, y_1)$ to
$(x_2, y_2)$.";

const OUTPUT: &str = r"Print one line per command. For an invalid command, print
\texttt{Invalid command}. For a valid one, print four fields separated by semicolons, with no
spaces around them: the piece that moved, written as its side and its kind (for example
\texttt{red horse} or \texttt{blue duck}); the piece it captured, written the same way, or
\texttt{NA} when it captured nothing; \texttt{yes} if, after the move, the game is not over and
some piece of either side could capture the other side's captain with one move, and \texttt{no}
otherwise; \texttt{yes} if the move captured a captain and so ended the game, and \texttt{no}
otherwise. The kinds are written \texttt{captain}, \texttt{guard}, \texttt{elephant},
\texttt{horse}, \texttt{car}, \texttt{soldier} and \texttt{duck}.";

const NOTES: &str = r"In the sample, the first commands try moves that the pieces cannot make.
Output is compared token by token, so the amount of white space between tokens does not matter,
but letter case does.";
