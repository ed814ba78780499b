//! What can be wrong with a record: the typed verdict on the first wrong token.
//!
//! Each variant names the rule broken, so that `--explain` can say it in words and callers can
//! match on it.
//!
//! ```
//! use arbiter_chess_record::{check_record, Fault, Rule, Verdict};
//!
//! let Verdict::No(mistake) = check_record("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3+")
//! else { panic!("the last move gives no check") };
//! assert_eq!(mistake.ply, 11);
//! assert!(matches!(mistake.fault, Fault::Misspelled { rule: Rule::ExtraCheck, .. }));
//! assert_eq!(mistake.to_string(), "6. white Nf3+ (ply 11): the move gives no check, so no +; write Nf3");
//! ```

use std::fmt;

use arbiter_scan::Shown;
use shakmaty::variant::Variant;
use shakmaty::{CastlingSide, Color, File, Rank, Role, Square};

use crate::turn::Turn;

/// The first wrong token of a record, where it stands and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{move_number}. {side} {token} (ply {ply}): {fault}", token = TokenDisplay(token))]
pub struct Mistake {
    /// The ply the token belongs to, counted from 1.
    pub ply: u32,
    /// The move number of that ply.
    pub move_number: u32,
    /// The side whose move it is.
    pub side: Color,
    /// The token as written (empty when the record ends too early).
    pub token: String,
    /// The byte offset of the token in the record checked; `None` for PGN games, whose reader
    /// does not report positions.
    pub offset: Option<usize>,
    /// The rule it breaks.
    pub fault: Fault,
}

impl Mistake {
    /// The mistake of `token`, the move to be played at `turn`, which stands at byte `offset`
    /// of the record (`None` in PGN, whose places are lines and columns).
    pub(crate) fn new(turn: Turn, token: &str, offset: Option<usize>, fault: Fault) -> Mistake {
        Mistake {
            ply: turn.ply,
            move_number: turn.move_number,
            side: turn.side,
            token: token.to_owned(),
            offset,
            fault,
        }
    }
}

/// Shows an empty token (the record ended) as `<end>`, any other as [`Shown`].
struct TokenDisplay<'a>(&'a str);

impl fmt::Display for TokenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() { f.write_str("<end>") } else { Shown(self.0).fmt(f) }
    }
}

/// What is wrong with a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A move number was expected here (white's move starts a round: `14.`).
    MoveNumber {
        /// The number this round needs.
        expected: u32,
    },
    /// A move number stands where black's move belongs: only the last round may lack it.
    MissingBlackMove,
    /// Black's move is numbered like PGN does (`1...`): this format numbers white's moves only.
    BlackMoveNumber,
    /// The record ends right after a move number.
    MissingMove,
    /// Not a move at all: an annotation, comment, result, a lone `e.p.` or other text.
    NotAMove,
    /// No legal move fits the token.
    Illegal(Illegal),
    /// Several legal moves fit the token: the disambiguation is missing or too weak.
    Ambiguous {
        /// The piece that moves.
        role: Role,
        /// Where it goes.
        to: Square,
        /// Whether it captures there.
        capture: bool,
        /// How many pieces of that kind can make a legal move there.
        pieces: usize,
        /// How many of them stand where the token says (all of them when it names no file or
        /// rank).
        fitting: usize,
        /// The file the token names the piece on, if any.
        file: Option<File>,
        /// The rank the token names the piece on, if any.
        rank: Option<Rank>,
        /// The canonical spelling of every move that fits the token.
        alternatives: Vec<String>,
    },
    /// A pawn reaches the last rank but the token names no promotion piece.
    MissingPromotion {
        /// The canonical spelling of each promotion.
        alternatives: Vec<String>,
    },
    /// The token denotes one legal move, but not in its canonical spelling.
    Misspelled {
        /// How the move must be written.
        canonical: String,
        /// The first rule of the spelling that the token breaks.
        rule: Rule,
    },
    /// The game is already over (checkmate or stalemate): no move may follow.
    AfterGameEnd(Ending),
    /// A null move (`--`, `Z0`): the side to move passes, which no chess rule allows.
    NullMove,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::MoveNumber { expected } => {
                write!(f, "expected the move number `{expected}.` here, as a token of its own")
            }
            Fault::MissingBlackMove => {
                f.write_str("black's move is missing: only the last round may lack it")
            }
            Fault::BlackMoveNumber => f.write_str(
                "a move number for black's move (`N...`) is not allowed in this format: \
                 black's move follows white's without a number",
            ),
            Fault::MissingMove => f.write_str("the record ends after a move number"),
            Fault::NotAMove => f.write_str(
                "not a move in algebraic notation (annotations, comments, `e.p.` and results \
                 have no place in a record)",
            ),
            Fault::Illegal(illegal) => write!(f, "illegal move: {illegal}"),
            Fault::Ambiguous { role, to, capture, pieces, fitting, file, rank, alternatives } => {
                let verb = if *capture { "capture on" } else { "move to" };
                write!(f, "{} {} can {verb} {to}", number_word(*pieces), plural(*role))?;
                if fitting < pieces {
                    write!(f, ", {} of them ", number_word(*fitting))?;
                    match (file, rank) {
                        (Some(file), None) => write!(f, "on the {}-file", file.char())?,
                        (None, Some(rank)) => write!(f, "on rank {}", rank.char())?,
                        _ => f.write_str("as written")?,
                    }
                }
                write!(f, "; write {}", Alternatives(alternatives))
            }
            Fault::MissingPromotion { alternatives } => write!(
                f,
                "a promotion must name the new piece; write {}",
                Alternatives(alternatives)
            ),
            Fault::Misspelled { canonical, rule } => write!(f, "{rule}; write {canonical}"),
            Fault::AfterGameEnd(ending) => {
                write!(f, "the game is already over ({ending}): no move may follow")
            }
            Fault::NullMove => {
                f.write_str("a null move: the side to move passes, which is no chess move")
            }
        }
    }
}

/// How a game ended before the record did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A variant's own ending: a king exploded or on the hill, the third check, no pieces left,
    /// a king on the eighth rank.
    Variant(Variant),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::Variant(Variant::Atomic) => "a king has exploded",
            Ending::Variant(Variant::Antichess) => "a side has no piece left",
            Ending::Variant(Variant::KingOfTheHill) => "a king stands on the hill",
            Ending::Variant(Variant::ThreeCheck) => "the third check was given",
            Ending::Variant(Variant::RacingKings) => "a king reached the eighth rank",
            Ending::Variant(_) => "the variant's goal was reached",
        })
    }
}

/// Why no legal move fits a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No piece of that kind (on the named file or rank, if any) can go to the square.
    Unreachable {
        /// The piece named.
        role: Role,
        /// The file the token said the piece comes from, if any.
        file: Option<File>,
        /// The rank the token said the piece comes from, if any.
        rank: Option<Rank>,
        /// The square named.
        to: Square,
    },
    /// A piece could go there, but its own king would then be in check (a pin, or a check not
    /// answered, or the king walking into an attack).
    KingInCheck {
        /// The piece named.
        role: Role,
        /// The square named.
        to: Square,
    },
    /// A promotion to a king, or a promotion piece on a move that does not reach the last rank.
    Promotion,
    /// A pawn capture onto an empty square beside an enemy pawn that did not just make its
    /// double step: en passant is allowed only on the move right after it.
    EnPassantGone {
        /// The empty square named.
        to: Square,
    },
    /// Castling is not allowed now.
    Castling {
        /// Which castling.
        side: CastlingSide,
        /// The condition that fails.
        bar: CastlingBar,
    },
    /// A token naming a source square (`g1f3`) where the side to move has no piece.
    EmptySquare(Square),
    /// A drop (`N@f3`) that is not allowed.
    Drop {
        /// The piece dropped.
        role: Role,
        /// Where.
        to: Square,
        /// Why not.
        bar: DropBar,
    },
    /// Antichess: a capture is possible, so the side to move must capture.
    CaptureRequired,
    /// A move the piece could make in standard chess that the variant forbids (Atomic: a king
    /// may not capture, a capture may not explode its own king; Racing Kings: no check).
    Variant(Variant),
}

/// Why a drop is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropBar {
    /// Only Crazyhouse has drops.
    NotCrazyhouse,
    /// The side to move holds no such piece.
    NoneInHand,
    /// The square is taken.
    Occupied,
    /// A pawn is never dropped on the first or last rank.
    BackRank,
    /// The king is in check and the drop does not answer it.
    KingInCheck,
}

impl fmt::Display for DropBar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DropBar::NotCrazyhouse => "drops are moves of Crazyhouse only",
            DropBar::NoneInHand => "none is in hand",
            DropBar::Occupied => "the square is taken",
            DropBar::BackRank => "a pawn is never dropped on the first or last rank",
            DropBar::KingInCheck => "the king is in check and stays so",
        })
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Unreachable { role, file, rank, to } => {
                write!(f, "no {}", name(*role))?;
                match (file, rank) {
                    (Some(file), Some(rank)) => write!(f, " on {}{}", file.char(), rank.char())?,
                    (Some(file), None) => write!(f, " on the {}-file", file.char())?,
                    (None, Some(rank)) => write!(f, " on rank {}", rank.char())?,
                    (None, None) => {}
                }
                write!(f, " can go to {to}")
            }
            Illegal::KingInCheck { role: Role::King, to } => {
                write!(f, "the king cannot go to {to}: it would be in check there")
            }
            Illegal::KingInCheck { role, to } => {
                write!(f, "the {} cannot go to {to}: its king would be in check", name(*role))
            }
            Illegal::EnPassantGone { to } => write!(
                f,
                "{to} is empty, and en passant is allowed only right after the enemy pawn's double step"
            ),
            Illegal::Promotion => {
                f.write_str("a pawn promotes on the last rank, to a queen, rook, bishop or knight")
            }
            Illegal::Castling { side, bar } => {
                let name = match side {
                    CastlingSide::KingSide => "O-O",
                    CastlingSide::QueenSide => "O-O-O",
                };
                write!(f, "cannot castle {name}: {bar}")
            }
            Illegal::EmptySquare(square) => {
                write!(f, "no piece of the side to move stands on {square}")
            }
            Illegal::Drop { role, to, bar } => {
                write!(f, "cannot drop a {} on {to}: {bar}", name(*role))
            }
            Illegal::CaptureRequired => {
                f.write_str("a capture is possible, and antichess makes capturing compulsory")
            }
            Illegal::Variant(Variant::Atomic) => f.write_str(
                "atomic chess forbids it (a king never captures, a capture never explodes its \
                 own king, and the king is never left in check)",
            ),
            Illegal::Variant(Variant::RacingKings) => {
                f.write_str("racing kings forbids giving check and leaving the king in check")
            }
            Illegal::Variant(variant) => write!(f, "the rules of {variant} forbid it"),
        }
    }
}

/// The castling condition that fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingBar {
    /// The king or that rook has moved, or the rook was captured.
    NoRight,
    /// A piece stands between the king and the rook.
    Blocked,
    /// The king is in check.
    InCheck,
    /// The king would cross an attacked square.
    ThroughCheck(Square),
    /// The king would land on an attacked square.
    IntoCheck(Square),
}

impl fmt::Display for CastlingBar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CastlingBar::NoRight => {
                f.write_str("the king or that rook has moved, or the rook was captured")
            }
            CastlingBar::Blocked => f.write_str("a piece stands between the king and the rook"),
            CastlingBar::InCheck => f.write_str("the king is in check"),
            CastlingBar::ThroughCheck(square) => {
                write!(f, "the king would pass {square}, which is attacked")
            }
            CastlingBar::IntoCheck(square) => {
                write!(f, "the king would land on {square}, which is attacked")
            }
        }
    }
}

/// The first rule of the canonical spelling that a token breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Castling is written with the letter O (`O-O`), not zeros.
    ZeroCastling,
    /// The move captures, so it needs an `x`.
    MissingCapture,
    /// The move captures nothing, so it takes no `x`.
    ExtraCapture,
    /// A pawn capture names the file the pawn comes from (`exd5`).
    PawnCaptureFile,
    /// Only one such piece can make the move, so no file or rank is named.
    UnneededDisambiguation,
    /// The file is named when it tells the pieces apart, else the rank, else both.
    DisambiguationOrder,
    /// The contest dialect writes the promotion piece without `=` (`e8Q`).
    PromotionEquals,
    /// Standard SAN writes `=` before the promotion piece (`e8=Q`).
    PromotionWithoutEquals,
    /// The move gives check, so it needs a `+`.
    MissingCheck,
    /// The move gives no check, so it takes no `+`.
    ExtraCheck,
    /// Check is a single `+`, even a double check.
    DoubledCheckSign,
    /// The contest dialect marks a mate with `+`, never `#`.
    MateSign,
    /// Standard SAN marks a mate with `#`.
    MissingMateSign,
    /// Standard SAN's `#` is for mate only; this move only checks.
    ExtraMateSign,
    /// Pawn moves are written without a letter (`e4`, not `Pe4`).
    PawnLetter,
    /// En passant is written like any pawn capture, without `e.p.`.
    EnPassantMark,
    /// SAN names the destination only, with no dash after a source square (`e2-e4`).
    Dash,
    /// UCI notation names the two squares (`g1f3`): SAN names the piece and the destination.
    Uci,
    /// Long algebraic notation names both squares (`e4xd5`).
    LongAlgebraic,
    /// Castling written as the king taking its own rook (`Kxh1`).
    KingTakesRook,
    /// An annotation glyph (`!?`) glued to the move: PGN's export format writes it apart, as a
    /// NAG.
    GluedAnnotation,
    /// Any other difference (a lower-case promotion piece, ...).
    Spelling,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::ZeroCastling => "castling is written with the letter O, not zeros",
            Rule::MissingCapture => "the move captures, so it needs an x",
            Rule::ExtraCapture => "the move captures nothing, so no x",
            Rule::PawnCaptureFile => "a pawn capture names the file the pawn comes from",
            Rule::UnneededDisambiguation => {
                "only one such piece can make this move, so no file or rank is named"
            }
            Rule::DisambiguationOrder => {
                "name the file if it tells the pieces apart, else the rank, else both"
            }
            Rule::PromotionEquals => "this format writes the promotion piece without =",
            Rule::PromotionWithoutEquals => "standard SAN writes = before the promotion piece",
            Rule::MissingCheck => "the move gives check, so it needs a +",
            Rule::ExtraCheck => "the move gives no check, so no +",
            Rule::DoubledCheckSign => "check is a single +, even a double check",
            Rule::MateSign => "this format marks mate with +, never #",
            Rule::MissingMateSign => "the move mates, so standard SAN ends it with #",
            Rule::ExtraMateSign => "# marks mate only, and this move only checks",
            Rule::PawnLetter => "pawn moves are written without a letter",
            Rule::EnPassantMark => "en passant is written like any pawn capture, without e.p.",
            Rule::Dash => "SAN writes no dash between two squares",
            Rule::Uci => "UCI notation",
            Rule::LongAlgebraic => "long algebraic notation: SAN names only the destination",
            Rule::KingTakesRook => {
                "castling is written O-O or O-O-O, not as the king taking its rook"
            }
            Rule::GluedAnnotation => {
                "an annotation glyph glued to the move: PGN writes it apart, as a NAG ($1 to $6)"
            }
            Rule::Spelling => "not the canonical spelling",
        })
    }
}

fn name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn plural(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawns",
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Rook => "rooks",
        Role::Queen => "queens",
        Role::King => "kings",
    }
}

fn number_word(n: usize) -> &'static str {
    match n {
        1 => "one",
        2 => "two",
        3 => "three",
        4 => "four",
        5 => "five",
        6 => "six",
        7 => "seven",
        8 => "eight",
        9 => "nine",
        10 => "ten",
        _ => "several",
    }
}

/// `a`, `a or b`, `a, b or c`.
struct Alternatives<'a>(&'a [String]);

impl fmt::Display for Alternatives<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        for (i, alternative) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == n { " or " } else { ", " })?;
            }
            f.write_str(alternative)?;
        }
        Ok(())
    }
}
