//! Finding the legal move a token denotes, and its canonical spelling.
//!
//! The token is read tolerantly ([`MoveToken`]); the move is looked up among the legal moves only
//! (so a pinned piece never makes another one ambiguous); the canonical spelling is written from
//! that move; the two strings are compared, and when they differ the first broken [`Rule`] is
//! named.
//!
//! ```
//! use arbiter_chess_record::{read_move, Dialect, Rule};
//! use shakmaty::Chess;
//!
//! let mut pos = Chess::default();
//! let reading = read_move(&mut pos, "Ng1f3", Dialect::Contest)?;
//! assert_eq!(reading.canonical.as_str(), "Nf3");
//! assert_eq!(reading.rule, Some(Rule::UnneededDisambiguation));
//! # Ok::<_, arbiter_chess_record::Fault>(())
//! ```

use shakmaty::attacks;
use shakmaty::san::San;
use shakmaty::{
    Bitboard, CastlingSide, Chess, EnPassantMode, File, Move, MoveList, Piece, Position, Rank,
    Role, Square,
};

use crate::fault::{CastlingBar, Ending, Fault, Illegal, Rule};
use crate::spelling::{Dialect, SanText};
use crate::token::MoveToken;

/// A token that denotes one legal move, which has been played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The move played.
    pub played: Move,
    /// Its SAN without suffix.
    pub san: San,
    /// Whether it gives check.
    pub check: bool,
    /// Whether it mates; looked for only in the standard dialect, the one that marks mate,
    /// since finding out costs a move generation (always `false` in the contest dialect).
    pub mate: bool,
    /// Its canonical spelling in the dialect asked for.
    pub canonical: SanText,
    /// The first rule the token breaks, or `None` when it is the canonical spelling.
    pub rule: Option<Rule>,
}

/// Finds the legal move `token` denotes in `pos` and plays it.
///
/// Misspellings of a legal move are not errors here: they come back in [`Reading::rule`]. The
/// position is left unchanged on error.
pub fn read_move(pos: &mut Chess, token: &str, dialect: Dialect) -> Result<Reading, Fault> {
    let token = MoveToken::read(token).map_err(|_| Fault::NotAMove)?;
    read_token(pos, &token, dialect)
}

/// [`read_move`] for a token already read.
pub fn read_token(
    pos: &mut Chess,
    token: &MoveToken<'_>,
    dialect: Dialect,
) -> Result<Reading, Fault> {
    if matches!(token.san(), San::Null | San::Put { .. }) {
        return Err(Fault::NotAMove);
    }
    let (played, san) = find_move(pos, token, dialect)?;
    pos.play_unchecked(played);
    let check = pos.checkers().any();
    let mate = check && dialect == Dialect::Standard && pos.is_checkmate();
    let canonical = SanText::new(san, check, mate, dialect);
    let rule =
        if canonical == *token.text() { None } else { Some(broken_rule(token, san, pos, dialect)) };
    Ok(Reading { played, san, check, mate, canonical, rule })
}

/// The legal move the token denotes and its SAN (without suffix).
fn find_move(pos: &Chess, token: &MoveToken<'_>, dialect: Dialect) -> Result<(Move, San), Fault> {
    match token.san() {
        San::Castle(side) => match pos.castling_moves(side).first() {
            Some(&m) => Ok((m, San::Castle(side))),
            None => Err(game_over(pos).unwrap_or_else(|| {
                Fault::Illegal(Illegal::Castling { side, bar: castling_bar(pos, side) })
            })),
        },
        San::Normal { role, file, rank, to, promotion, .. } => {
            let candidates = pos.san_candidates(role, to);
            // The capture mark is ignored here: whether a move to `to` captures depends on the
            // square alone, so it never tells two candidates apart; it is checked by spelling.
            let mut fitting = candidates.iter().filter(|m| {
                let from = m.from();
                file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
                    && rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
                    && (promotion.is_none() || m.promotion() == promotion)
            });
            let Some(&first) = fitting.next() else {
                return Err(unreachable(pos, Target { role, to, file, rank, promotion }));
            };
            if fitting.next().is_none() {
                return Ok((first, San::disambiguate(first, &candidates)));
            }
            Err(ambiguity(pos, &candidates, Target { role, to, file, rank, promotion }, dialect))
        }
        San::Put { .. } | San::Null => Err(Fault::NotAMove),
    }
}

/// What a token asks for: a piece, a square, and the optional hints.
#[derive(Clone, Copy)]
struct Target {
    role: Role,
    to: Square,
    file: Option<File>,
    rank: Option<Rank>,
    promotion: Option<Role>,
}

/// The fault when more than one legal move fits.
fn ambiguity(pos: &Chess, candidates: &MoveList, target: Target, dialect: Dialect) -> Fault {
    let Target { role, to, file, rank, promotion } = target;
    let fitting = candidates.iter().filter(|m| {
        let from = m.from();
        file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
            && rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
    });
    let spell = |m: &Move| {
        let mut after = pos.clone();
        after.play_unchecked(*m);
        let check = after.checkers().any();
        SanText::new(
            San::disambiguate(*m, candidates),
            check,
            check && after.is_checkmate(),
            dialect,
        )
        .to_string()
    };
    let alternatives: Vec<String> = fitting.clone().map(spell).collect();
    let sources = |moves: &mut dyn Iterator<Item = &Move>| {
        moves.fold(Bitboard::EMPTY, |set, m| m.from().map_or(set, |from| set.with(from))).count()
    };
    let fitting = sources(&mut fitting.clone());
    if promotion.is_none() && fitting == 1 {
        Fault::MissingPromotion { alternatives }
    } else {
        let capture = candidates.first().is_some_and(|m| m.is_capture());
        let pieces = sources(&mut candidates.iter());
        Fault::Ambiguous { role, to, capture, pieces, fitting, file, rank, alternatives }
    }
}

/// The fault when no legal move fits: the game is over, or why the move is illegal.
fn unreachable(pos: &Chess, target: Target) -> Fault {
    let Target { role, to, file, rank, promotion } = target;
    if let Some(over) = game_over(pos) {
        return over;
    }
    let last_rank = to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First);
    if promotion.is_some() && (promotion == Some(Role::King) || role != Role::Pawn || !last_rank) {
        return Fault::Illegal(Illegal::Promotion);
    }
    if role == Role::Pawn && file.is_some() && !pos.board().occupied().contains(to) {
        let forward = pos.turn().fold_wb(8, -8);
        let passed =
            to.offset(-forward).filter(|&sq| (pos.them() & pos.board().pawns()).contains(sq));
        let ep_rank = to.rank() == pos.turn().fold_wb(Rank::Sixth, Rank::Third);
        if passed.is_some() && ep_rank {
            // The square is set after every double step, legal capture or not: it tells a
            // capture that comes too late from one that would expose the king.
            if pos.ep_square(EnPassantMode::Always) != Some(to) {
                return Fault::Illegal(Illegal::EnPassantGone { to });
            }
            let capturers = pos.our(Role::Pawn) & attacks::pawn_attacks(!pos.turn(), to);
            if file.is_some_and(|file| (capturers & Bitboard::from_file(file)).any()) {
                return Fault::Illegal(Illegal::KingInCheck { role, to });
            }
        }
    }
    // A piece that could go there if its king were not in check (pseudo-legal): a pin, an
    // unanswered check, or the king stepping into an attack.
    let mut from = pos.our(role) & pseudo_sources(pos, role, to);
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    if from.any() && !pos.us().contains(to) {
        Fault::Illegal(Illegal::KingInCheck { role, to })
    } else {
        Fault::Illegal(Illegal::Unreachable { role, file, rank, to })
    }
}

/// Squares from which a piece of ours of `role` would reach `to`, ignoring checks.
fn pseudo_sources(pos: &Chess, role: Role, to: Square) -> Bitboard {
    let us = pos.turn();
    let occupied = pos.board().occupied();
    if role != Role::Pawn {
        // Non-pawn moves are symmetric: the piece on `from` reaches `to` iff one on `to` reaches
        // `from`.
        return attacks::attacks(to, Piece { color: us, role }, occupied);
    }
    if pos.them().contains(to) {
        return attacks::pawn_attacks(!us, to);
    }
    if occupied.contains(to) {
        return Bitboard::EMPTY;
    }
    let back = |sq: Square| sq.offset(us.fold_wb(-8, 8));
    let Some(one) = back(to) else {
        return Bitboard::EMPTY;
    };
    if occupied.contains(one) {
        return Bitboard::from_square(one);
    }
    let double_rank = us.fold_wb(Rank::Fourth, Rank::Fifth);
    match back(one) {
        Some(two) if to.rank() == double_rank => Bitboard::from_square(two),
        _ => Bitboard::EMPTY,
    }
}

/// `Some(AfterGameEnd)` when the side to move has no legal move.
pub(crate) fn game_over(pos: &Chess) -> Option<Fault> {
    if !pos.legal_moves().is_empty() {
        return None;
    }
    let ending = if pos.checkers().any() { Ending::Checkmate } else { Ending::Stalemate };
    Some(Fault::AfterGameEnd(ending))
}

/// The first castling condition that fails, in the order the rules list them.
fn castling_bar(pos: &Chess, side: CastlingSide) -> CastlingBar {
    let us = pos.turn();
    let castles = pos.castles();
    if !castles.has(us, side) {
        return CastlingBar::NoRight;
    }
    let occupied = pos.board().occupied();
    if (castles.path(us, side) & occupied).any() {
        return CastlingBar::Blocked;
    }
    if pos.checkers().any() {
        return CastlingBar::InCheck;
    }
    let Some(king) = pos.board().king_of(us) else {
        return CastlingBar::NoRight;
    };
    let target = side.king_to(us);
    let attacked = |sq: Square| pos.board().attacks_to(sq, !us, occupied).any();
    let step = if target > king { 1 } else { -1 };
    let mut square = king;
    while square != target {
        let Some(next) = square.offset(step) else {
            break;
        };
        square = next;
        if attacked(square) {
            return if square == target {
                CastlingBar::IntoCheck(square)
            } else {
                CastlingBar::ThroughCheck(square)
            };
        }
    }
    // Only reached if shakmaty refuses castling for a reason not listed above.
    CastlingBar::Blocked
}

/// The first rule broken by `token`, which denotes the move spelled `san`, leading to `after`.
fn broken_rule(token: &MoveToken<'_>, san: San, after: &Chess, dialect: Dialect) -> Rule {
    let check = after.checkers().any();
    // Only here, on the slow path, is mate looked for in the contest dialect: `#` on a mate
    // breaks a different rule than `#` on a plain check.
    let mate = check && after.is_checkmate();
    if token.is_zero_castling() {
        return Rule::ZeroCastling;
    }
    if token.text().starts_with('P') {
        return Rule::PawnLetter;
    }
    if token.has_en_passant_mark() {
        return Rule::EnPassantMark;
    }
    if token.has_dash() {
        return Rule::Dash;
    }
    if let (
        San::Normal { role, file, rank, capture, .. },
        San::Normal { file: cfile, rank: crank, capture: ccapture, .. },
    ) = (token.san(), san)
    {
        if capture != ccapture {
            return if ccapture { Rule::MissingCapture } else { Rule::ExtraCapture };
        }
        if (file, rank) != (cfile, crank) {
            return match (role, cfile, crank) {
                (Role::Pawn, Some(_), _) => Rule::PawnCaptureFile,
                (Role::Pawn, None, _) | (_, None, None) => Rule::UnneededDisambiguation,
                _ => Rule::DisambiguationOrder,
            };
        }
        match (dialect, token.has_promotion_equals()) {
            (Dialect::Contest, true) => return Rule::PromotionEquals,
            (Dialect::Standard, false) if token.san() == san && has_promotion(san) => {
                return Rule::PromotionWithoutEquals;
            }
            _ => {}
        }
    }
    let expected = dialect.suffix(check, mate);
    match (token.suffix(), expected) {
        (written, expected) if written == expected => Rule::Spelling,
        ("", "+") => Rule::MissingCheck,
        ("", "#") | ("+", "#") => Rule::MissingMateSign,
        ("++", _) if check => Rule::DoubledCheckSign,
        ("#", "+") if dialect == Dialect::Contest && mate => Rule::MateSign,
        ("#", "+") => Rule::ExtraMateSign,
        (_, "") => Rule::ExtraCheck,
        _ => Rule::Spelling,
    }
}

fn has_promotion(san: San) -> bool {
    matches!(san, San::Normal { promotion: Some(_), .. })
}
