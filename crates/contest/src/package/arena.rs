//! The skill arena as a packaged problem: a summary of the rules in the project's words, the
//! official data, the official program and two variants of it that each break one rule. The
//! answers are the official reading's, and generated inputs whose answer turns on a near-tie
//! (where the official program's floating-point comparison differs from the exact one) are left
//! out, so that the official program is right on every test.

use arbiter_arena::rules::Rules;
use arbiter_scan::Invalid;

use super::{Code, Packaged, Solution, Statement, Verdict};
use crate::arena::ArenaProblem;
use crate::problem::Problem;
use crate::setup::Setup;

/// The official reference program (`crates/contest/tests/fixtures/arena/`).
const OFFICIAL: &str = include_str!("../../tests/fixtures/arena/official.cpp");

/// The winner of a fight is weakened by the loser's a; the variant leaves it as it was.
const WEAKENING: (&str, &str) =
    ("\tnown[j]=max(nown[j]-nown[i],0);\n\tnowm[j]=max(nowm[j]-nown[i],0);\n", "");

/// hupraise pairs a red and a blue piece when a_r xor a_b is a multiple of 3; the variant of 2.
const MATCH_MODULUS: (&str, &str) = ("((nown[i]^nown[now])%3==0)", "((nown[i]^nown[now])%2==0)");

/// The official program with one change, headed by a comment saying which rule it breaks.
fn variant(rule: &str, (old, new): (&str, &str)) -> String {
    debug_assert_eq!(OFFICIAL.matches(old).count(), 1);
    format!(
        "// Wrong answer on purpose: {rule}.\n// The official program with one change.\n{}",
        OFFICIAL.replacen(old, new, 1)
    )
}

impl Packaged for ArenaProblem {
    const TITLE: &'static str = "Skill Arena";
    const SHORT_NAME: &'static str = "skillarena";
    const UUID: &'static str = "c4e2a7d1-5b3f-4e8a-a1d6-2f9b0c7e3a58";
    // The official program takes about 4 s on the official data.
    const TIME_LIMIT_SECONDS: u32 = 10;
    const MEMORY_LIMIT_MIB: u32 = 256;
    const CORNERS: &'static [&'static str] = &arbiter_arena::validate::CORNERS;
    const PLAN: &'static [(&'static str, Option<&'static str>, usize)] = &[
        ("small", Some("1,1,1,1,1"), 1),
        ("small", None, 2),
        ("skills", None, 3),
        ("crowded", None, 2),
        ("ties", None, 2),
        ("knockback", None, 2),
        ("backward", None, 2),
        ("respawn", None, 2),
        // The largest board, piece count and round count in one game: the official program
        // takes seconds on `max` (20 such games), too long for a package checked in CI.
        ("respawn", Some("1,100,100,200,1000"), 1),
    ];

    const NORMALIZED: &'static str = " (every nonzero map cell then written as 1)";

    /// The input with every obstacle written as `1`: `gen` writes any nonzero number, which
    /// the judges take as an obstacle and the statement's format does not allow.
    fn normalize(input: &str) -> String {
        obstacles_as_ones(input).unwrap_or_else(|| input.to_owned())
    }

    fn options() -> Rules {
        Rules::official()
    }

    fn corners(input: &[u8]) -> Result<Vec<bool>, Invalid> {
        let games = arbiter_arena::validate::validate(input)?;
        Ok(arbiter_arena::validate::corners(&games).to_vec())
    }

    /// Whether the official program's floating-point comparison gives the same answer as the
    /// exact one.
    fn usable(input: &str) -> bool {
        let float_ties: Rules = "official,+float-ties".parse().expect("a known switch");
        let exact = ArenaProblem::for_check(&Rules::official()).answer(input);
        let float = ArenaProblem::for_check(&float_ties).answer(input);
        matches!((exact, float), (Ok(exact), Ok(float)) if exact == float)
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
        vec![("1", include_str!("../../../arena/tests/fixtures/sample/1.in"))]
    }

    fn official() -> Vec<(&'static str, &'static str)> {
        vec![("1", include_str!("../../../arena/tests/fixtures/official/1.in"))]
    }

    fn solutions() -> Vec<Solution> {
        vec![
            Solution {
                name: "official",
                verdict: Verdict::Accepted,
                code: Code::Cpp(OFFICIAL.to_owned()),
            },
            Solution {
                name: "winner-not-weakened",
                verdict: Verdict::WrongAnswer,
                code: Code::Cpp(variant(
                    "the winner of a fight keeps its (a, b) instead of losing the loser's a",
                    WEAKENING,
                )),
            },
            Solution {
                name: "hupraise-mod-2",
                verdict: Verdict::WrongAnswer,
                code: Code::Cpp(variant(
                    "hupraise pairs pieces whose a xor is even instead of a multiple of 3",
                    MATCH_MODULUS,
                )),
            },
        ]
    }
}

/// `input` with every map cell other than `0` written as `1`; `None` if its lines are not laid
/// out as `gen` writes them (a count, then per game a header line, N map lines, K piece lines).
fn obstacles_as_ones(input: &str) -> Option<String> {
    let mut lines = input.lines();
    let mut out = String::with_capacity(input.len());
    let games: usize = lines.next()?.trim().parse().ok()?;
    out.push_str(&format!("{games}\n"));
    for _ in 0..games {
        let header = lines.next()?;
        let numbers: Vec<usize> =
            header.split_whitespace().map(|n| n.parse().ok()).collect::<Option<_>>()?;
        let [rows, _, pieces, _] = numbers[..] else { return None };
        out.push_str(header);
        out.push('\n');
        for _ in 0..rows {
            let cells: Vec<&str> = lines
                .next()?
                .split_whitespace()
                .map(|cell| if cell == "0" { "0" } else { "1" })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        for _ in 0..pieces {
            out.push_str(lines.next()?);
            out.push('\n');
        }
    }
    lines.next().is_none().then_some(out)
}

const LEGEND: &str = r"Pieces of two teams, red (0) and blue (1), play on a grid of $N$ rows
and $M$ columns, numbered from $1$; some cells are obstacles. Piece $i$ has two attributes
$a_i \ge b_i \ge 0$, and its strength is the binomial coefficient $\binom{a_i}{b_i}$, compared
exactly. Each piece faces up (0), down (1), left (2) or right (3), and has one skill, a first
cooldown $f$, a cooldown $z$ and a respawn time $r$. The pieces are numbered $1$ to $K$ in the
order of their starting cells, row first, then column.

A game lasts $R$ rounds. In each round, in this order:
\begin{enumerate}
\item a dead piece whose respawn time has run out comes back with its starting attributes, where
  it died; cooldowns, silences and freezes count down; boosts that have run their time end;
\item every living piece that is not frozen moves one cell the way it faces, or, when an obstacle
  or the edge of the grid is in the way, turns around instead;
\item in index order, every living piece whose cooldown is $0$, that is not silenced and whose
  team has not been told to wait this round casts its skill, and its cooldown becomes $z$;
\item in every cell holding living pieces of both teams, the two teams fight: each sends its
  strongest piece; the weaker dies, and the stronger loses the loser's $a$ from both its
  attributes (never going below $0$); equal strengths kill both. This goes on until one team has
  nobody left in the cell. A piece dead at round $H$ respawns at round $H + r$.
\end{enumerate}

The skills: \texttt{toolihai} does nothing by itself but marks its caster; \texttt{faceking} turns
every living piece a quarter turn counter-clockwise; \texttt{onepunch v l} adds $v$ to the
caster's $a$ for $l$ rounds; \texttt{rabiribi v} knocks the pieces in a sector of $v$ rows in
front of the caster one cell further; \texttt{firework l} freezes, for $l$ rounds, the last piece
that cast \texttt{toolihai}; \texttt{viuganda} brings a dead piece back to life (the farthest dead
piece of its own team, otherwise the nearest dead enemy); \texttt{2dsaigao o v l} sends a wave $o$
steps diagonally, turning when blocked, and silences for $l$ rounds every piece within distance
$v$ of where it stops; \texttt{gugugugu} makes the rest of the caster's team skip casting this
round; \texttt{backward l} takes the caster back to its state of $l$ rounds earlier;
\texttt{hupraise} prints the size of a largest set of disjoint red--blue pairs whose $a$
attributes have an exclusive or that is a multiple of $3$.

Where this summary leaves a detail open, the official reference program of the problem decides,
as arbiter's rule decisions describe it (docs/rules.md, ``Skill arena'').";

const INPUT: &str = r"The first line holds $T$ ($1 \le T \le 20$), the number of games. Each
game starts with a line $N$ $M$ $K$ $R$ ($1 \le N, M \le 100$, $1 \le K \le 200$,
$1 \le R \le 1000$), followed by $N$ lines of $M$ integers, $0$ for a free cell and $1$ for an
obstacle, then $K$ lines, one per piece: its row and column (a free cell), $a$ and $b$
($0 \le b \le a \le 1000$), its team ($0$ or $1$), its facing ($0$ to $3$), $f$, $z$ and $r$
(each at least $1$), the name of its skill and the skill's parameters (onepunch's $v$ at most
$1000$, durations at least $1$, the others at least $0$). No \texttt{backward} reaches before the
first round.";

const OUTPUT: &str = r"For each game, print the number that each \texttt{hupraise} gives, one
per line, in the order they are cast, then $K$ lines: the row and column of each piece at the end
of the game, in index order.";

const NOTES: &str = r"The answer to the sample's fourth game is the official program's, which
differs from the answer published with the original statement in four lines. Output is compared
token by token.";
