//! Finding the legal move a token denotes, and its canonical spelling.
//!
//! The token is read tolerantly ([`MoveToken`]); the move is looked up among the legal moves only
//! (so a pinned piece never makes another one ambiguous); the canonical spelling is written from
//! that move; the two strings are compared, and when they differ the first broken [`Rule`] is
//! named. The position is standard chess or any variant ([`Playable`]): drops, Chess960 castling
//! (also written as the king taking its rook, `e1h1`) and the variants' ways of winning, which
//! standard SAN marks `#` like a mate, are read by the same code.
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
use shakmaty::uci::UciMove;
use shakmaty::variant::Variant;
use shakmaty::{
    Bitboard, CastlingSide, Chess, EnPassantMode, File, Move, MoveList, Piece, Position, Rank,
    Role, Square,
};

use crate::fault::{CastlingBar, DropBar, Ending, Fault, Illegal, Rule};
use crate::spelling::{Dialect, SanText};
use crate::token::{MoveToken, common_san};
use crate::variant::Playable;

/// A token that denotes one legal move, which has been played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The move played.
    pub played: Move,
    /// Its SAN without suffix.
    pub san: San,
    /// Whether it gives check.
    pub check: bool,
    /// Whether it mates, or wins by a variant's rule; looked for only in the standard dialect,
    /// the one that marks mate, since finding out costs a move generation (always `false` in
    /// the contest dialect).
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
pub fn read_move<P: Playable>(
    pos: &mut P,
    token: &str,
    dialect: Dialect,
) -> Result<Reading, Fault> {
    let token = MoveToken::read(token).map_err(|_| Fault::NotAMove)?;
    read_token(pos, &token, dialect)
}

/// [`read_move`] for a token already read.
pub fn read_token<P: Playable>(
    pos: &mut P,
    token: &MoveToken<'_>,
    dialect: Dialect,
) -> Result<Reading, Fault> {
    if matches!(token.san(), San::Null) {
        return Err(Fault::NotAMove);
    }
    let (played, san) = find_move(pos, token, dialect)?;
    pos.play_unchecked(played);
    let check = pos.checkers().any();
    let mate = dialect == Dialect::Standard && pos.is_won(check);
    let canonical = SanText::new(san, check, mate, dialect);
    let rule =
        if canonical == *token.text() { None } else { Some(broken_rule(token, san, pos, dialect)) };
    Ok(Reading { played, san, check, mate, canonical, rule })
}

/// What [`play_canonical`] made of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Canonical {
    /// The token is the canonical spelling of a legal move, which has been played; `check`
    /// says whether it gives check.
    Played {
        /// The move gives check.
        check: bool,
    },
    /// The token denotes a legal move, which has been played, but misses the `+` or `#` the
    /// move needs, or has one it does not: the position is of no further use.
    Suffix,
    /// Not read here, and the position left as it was: the token has no common shape, or
    /// denotes a move whose reading needs the move list ([`read_move`] reads it).
    Unread,
}

/// Plays the move `token` denotes in `pos` when `token` is exactly its canonical standard SAN in
/// one of the common shapes (`e4`, `exd5`, `Nf3`, `Nbxd2`, with its `+` or `#`), for the quick
/// pass of the PGN check, which hands anything else to the full check.
///
/// [`read_token`]'s answer for these tokens, without writing the canonical spelling out: a
/// common shape is the spelling of its SAN, so the token is canonical when its SAN is the
/// move's and its suffix the one the move needs.
pub(crate) fn play_canonical(pos: &mut Chess, token: &[u8], in_check: bool) -> Canonical {
    let (body, suffix) = match token {
        [body @ .., mark @ (b'+' | b'#')] => (body, Some(*mark)),
        _ => (token, None),
    };
    let Some(san @ San::Normal { role, file, rank, capture: _, to, promotion: None }) =
        common_san(body)
    else {
        return Canonical::Unread;
    };
    let Some(sources) = plain_sources(pos, role, to, in_check) else {
        return Canonical::Unread;
    };
    let Some(from) = (sources & hinted(file, rank)).single_square() else {
        return Canonical::Unread;
    };
    let capture = pos.board().role_at(to);
    if plain_san(role, from, to, capture.is_some(), sources) != san {
        return Canonical::Unread;
    }
    pos.play_unchecked(Move::Normal { role, from, capture, to, promotion: None });
    let check = pos.checkers().any();
    let mate = pos.is_won(check);
    // The suffixes are one byte or none: compared as such, not as strings (`memcmp`).
    let expected = Dialect::Standard.suffix(check, mate).as_bytes().first().copied();
    if expected == suffix { Canonical::Played { check } } else { Canonical::Suffix }
}

/// The legal move the token denotes and its SAN (without suffix).
fn find_move<P: Playable>(
    pos: &P,
    token: &MoveToken<'_>,
    dialect: Dialect,
) -> Result<(Move, San), Fault> {
    // Most moves are plain ones: found without shakmaty's candidate search and its move list.
    // Any other outcome (no move, several) is found again by that search, the one way messages
    // are.
    if token.squares().is_none()
        && let San::Normal { role, file, rank, to, promotion: None, .. } = token.san()
        && let Some(sources) = plain_sources(pos, role, to, pos.checkers().any())
        && let Some(from) = (sources & hinted(file, rank)).single_square()
    {
        let capture = pos.board().role_at(to);
        let played = Move::Normal { role, from, capture, to, promotion: None };
        return Ok((played, plain_san(role, from, to, capture.is_some(), sources)));
    }
    find_listed(pos, token, dialect)
}

/// [`find_move`] among the moves shakmaty lists: castling, promotions, en passant, drops,
/// squares, and every token that denotes no move or several. Kept out of line: its move lists
/// (3.6 KB each) would weigh on the plain moves' way through [`find_move`].
#[inline(never)]
fn find_listed<P: Playable>(
    pos: &P,
    token: &MoveToken<'_>,
    dialect: Dialect,
) -> Result<(Move, San), Fault> {
    if let Some(squares) = token.squares() {
        return find_by_squares(pos, squares);
    }
    match token.san() {
        San::Castle(side) => match pos.castling_moves(side).first() {
            Some(&m) => Ok((m, San::Castle(side))),
            None => Err(game_over(pos).unwrap_or_else(|| {
                Fault::Illegal(Illegal::Castling { side, bar: castling_bar(pos, side) })
            })),
        },
        San::Normal { role: Role::King, to, .. } if pos.us().contains(to) => {
            // The king "taking" its own rook: Chess960's way of writing castling.
            let side = castling_side(pos, to);
            let castling = side.and_then(|side| pos.castling_moves(side).first().copied());
            match (side, castling) {
                (Some(side), Some(m)) => Ok((m, San::Castle(side))),
                (Some(side), None) => Err(game_over(pos).unwrap_or_else(|| {
                    Fault::Illegal(Illegal::Castling { side, bar: castling_bar(pos, side) })
                })),
                (None, _) => Err(unreachable(pos, target(token, Role::King, to))),
            }
        }
        San::Normal { role, file, rank, to, promotion, .. } => {
            // The capture mark is ignored here: whether a move to `to` captures depends on the
            // square alone, so it never tells two candidates apart; it is checked by spelling.
            let fits = |m: &&Move| {
                let from = m.from();
                file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
                    && rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
                    && (promotion.is_none() || m.promotion() == promotion)
            };
            let candidates = san_candidates(pos, role, to);
            let mut fitting = candidates.iter().filter(fits);
            let Some(&first) = fitting.next() else {
                return Err(unreachable(pos, Target { role, to, file, rank, promotion }));
            };
            if fitting.next().is_none() {
                return Ok((first, San::disambiguate(first, &candidates)));
            }
            Err(ambiguity(pos, &candidates, Target { role, to, file, rank, promotion }, dialect))
        }
        San::Put { role, to } => {
            let mut drops = pos.san_candidates(role, to);
            drops.retain(|m| matches!(m, Move::Put { .. }));
            match drops.first() {
                Some(&m) => Ok((m, San::Put { role, to })),
                None => Err(game_over(pos).unwrap_or_else(|| {
                    Fault::Illegal(Illegal::Drop { role, to, bar: drop_bar(pos, role, to) })
                })),
            }
        }
        San::Null => Err(Fault::NotAMove),
    }
}

/// The legal moves of a piece of `role` to `to`, but drops: Crazyhouse lists them among the moves
/// to a square, and `g3` is no `@g3`.
fn san_candidates<P: Playable>(pos: &P, role: Role, to: Square) -> MoveList {
    let mut candidates = pos.san_candidates(role, to);
    if !P::STANDARD {
        candidates.retain(|m| !matches!(m, Move::Put { .. }));
    }
    candidates
}

/// The squares the pieces of `role` that can legally go to `to` stand on, when their moves are
/// plain ones: standard chess, no promotion, no en passant, no drop, `to` not ours. `None` for
/// any other case, which [`san_candidates`] covers.
///
/// This is shakmaty's own search for that case, without its move list: the list it returns by
/// value is copied whole (3.6 KB) on every call, which cost more than the search. The pieces
/// that could go to `to` are found from the attack tables, and a move is legal when no enemy
/// piece attacks our king once it is made (the one it captures aside): a piece that gives check
/// and is neither taken nor blocked, or a slider whose line the move opens. A king move is
/// legal when no enemy piece attacks `to` with the king gone from its square. `in_check` says
/// whether our king is in check: out of check, a piece off every line through our king cannot
/// expose it by moving, and needs no look at the enemy's pieces.
#[inline]
fn plain_sources<P: Playable>(pos: &P, role: Role, to: Square, in_check: bool) -> Option<Bitboard> {
    if !P::STANDARD || pos.us().contains(to) {
        return None;
    }
    let us = pos.turn();
    let board = pos.board();
    let king = board.king_of(us)?;
    let occupied = board.occupied();
    let sources = match role {
        Role::King => {
            let safe = attacks::king_attacks(king).contains(to)
                && board.attacks_to(to, !us, occupied.without(king)).is_empty();
            return Some(if safe { Bitboard::from_square(king) } else { Bitboard::EMPTY });
        }
        Role::Pawn => {
            let last_rank = to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
            if last_rank || pos.maybe_ep_square() == Some(to) {
                return None;
            }
            pseudo_sources(pos, role, to) & pos.our(Role::Pawn)
        }
        _ => pseudo_sources(pos, role, to) & pos.our(role),
    };
    let target = Bitboard::from_square(to);
    let mut legal = Bitboard::EMPTY;
    for from in sources {
        if !in_check && attacks::ray(king, from).is_empty() {
            legal.add(from);
            continue;
        }
        let after = occupied.without(from).with(to);
        if (pos.king_attackers(king, !us, after) & !target).is_empty() {
            legal.add(from);
        }
    }
    Some(legal)
}

/// The squares a token's hints allow a move to come from: its file and rank, when given.
fn hinted(file: Option<File>, rank: Option<Rank>) -> Bitboard {
    file.map_or(Bitboard::FULL, Bitboard::from_file)
        & rank.map_or(Bitboard::FULL, Bitboard::from_rank)
}

/// The SAN of the plain move of `role` from `from` to `to` (see [`plain_sources`]) when its
/// piece could also have come from the other `sources`: shakmaty's [`San::disambiguate`],
/// worked out from the squares. A pawn names its file when it captures; a piece names its file
/// when another one could come from elsewhere, unless only the rank tells them apart, and its
/// rank when another one stands on its file.
fn plain_san(role: Role, from: Square, to: Square, capture: bool, sources: Bitboard) -> San {
    let (file, rank) = if role == Role::Pawn {
        (capture.then(|| from.file()), None)
    } else {
        let others = sources.without(from);
        let same_file = (others & Bitboard::from_file(from.file())).any();
        let same_rank = (others & Bitboard::from_rank(from.rank())).any();
        let file = others.any() && (!same_file || same_rank);
        (file.then(|| from.file()), same_file.then(|| from.rank()))
    };
    San::Normal { role, file, rank, capture, to, promotion: None }
}

/// The token's hints for a move of `role` to `to`.
fn target(token: &MoveToken<'_>, role: Role, to: Square) -> Target {
    match token.san() {
        San::Normal { file, rank, promotion, .. } => Target { role, to, file, rank, promotion },
        _ => Target { role, to, file: None, rank: None, promotion: None },
    }
}

/// The castling side of our rook on `rook`, when it still has the right to castle.
fn castling_side<P: Playable>(pos: &P, rook: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    CastlingSide::ALL.into_iter().find(|&side| pos.castles().rook(us, side) == Some(rook))
}

/// The move of a token that names both squares (UCI, long algebraic): castling when the king
/// goes two squares or onto its own rook, as UCI writes it.
fn find_by_squares<P: Playable>(pos: &P, squares: UciMove) -> Result<(Move, San), Fault> {
    let UciMove::Normal { from, to, promotion } = squares else {
        return Err(Fault::NotAMove);
    };
    let legal = pos.legal_moves();
    if let Ok(m) = squares.to_move(pos)
        && legal.contains(&m)
    {
        return Ok((m, San::disambiguate(m, &legal)));
    }
    if let Some(over) = game_over(pos) {
        return Err(over);
    }
    match pos.board().piece_at(from) {
        Some(piece) if piece.color == pos.turn() => {
            let target = Target {
                role: piece.role,
                to,
                file: Some(from.file()),
                rank: Some(from.rank()),
                promotion,
            };
            Err(unreachable(pos, target))
        }
        _ => Err(Fault::Illegal(Illegal::EmptySquare(from))),
    }
}

/// Why a drop of `role` on `to` is not a legal move.
fn drop_bar<P: Playable>(pos: &P, role: Role, to: Square) -> DropBar {
    let Some(pockets) = pos.pockets() else {
        return DropBar::NotCrazyhouse;
    };
    if pockets[pos.turn()][role] == 0 {
        DropBar::NoneInHand
    } else if pos.board().occupied().contains(to) {
        DropBar::Occupied
    } else if role == Role::Pawn && matches!(to.rank(), Rank::First | Rank::Eighth) {
        DropBar::BackRank
    } else {
        DropBar::KingInCheck
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
fn ambiguity<P: Playable>(
    pos: &P,
    candidates: &MoveList,
    target: Target,
    dialect: Dialect,
) -> Fault {
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
        SanText::new(San::disambiguate(*m, candidates), check, after.is_won(check), dialect)
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
fn unreachable<P: Playable>(pos: &P, target: Target) -> Fault {
    let Target { role, to, file, rank, promotion } = target;
    if let Some(over) = game_over(pos) {
        return over;
    }
    let last_rank = to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First);
    // Antichess promotes to a king too.
    let king = promotion == Some(Role::King) && (P::STANDARD || pos.rules() != Variant::Antichess);
    if promotion.is_some() && (king || role != Role::Pawn || !last_rank) {
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
        if !P::STANDARD {
            match pos.rules() {
                Variant::Antichess if !pos.capture_moves().is_empty() => {
                    return Fault::Illegal(Illegal::CaptureRequired);
                }
                variant @ (Variant::Atomic | Variant::RacingKings) => {
                    return Fault::Illegal(Illegal::Variant(variant));
                }
                _ => {}
            }
        }
        Fault::Illegal(Illegal::KingInCheck { role, to })
    } else {
        Fault::Illegal(Illegal::Unreachable { role, file, rank, to })
    }
}

/// Squares from which a piece of ours of `role` would reach `to`, ignoring checks.
fn pseudo_sources<P: Playable>(pos: &P, role: Role, to: Square) -> Bitboard {
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

/// `Some(AfterGameEnd)` when the game is over: the side to move has no legal move, or a
/// variant's goal has been reached.
pub(crate) fn game_over<P: Playable>(pos: &P) -> Option<Fault> {
    if !P::STANDARD && pos.is_variant_end() {
        return Some(Fault::AfterGameEnd(Ending::Variant(pos.rules())));
    }
    if !pos.legal_moves().is_empty() {
        return None;
    }
    let ending = if pos.checkers().any() { Ending::Checkmate } else { Ending::Stalemate };
    Some(Fault::AfterGameEnd(ending))
}

/// The first castling condition that fails, in the order the rules list them.
fn castling_bar<P: Playable>(pos: &P, side: CastlingSide) -> CastlingBar {
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
///
/// Cold: asked only about a token that is not the canonical spelling, and kept away from the
/// reading of the others.
#[cold]
fn broken_rule<P: Playable>(token: &MoveToken<'_>, san: San, after: &P, dialect: Dialect) -> Rule {
    let check = after.checkers().any();
    // Only here, on the slow path, is mate looked for in the contest dialect: `#` on a mate
    // breaks a different rule than `#` on a plain check.
    let mate = after.is_won(check);
    if token.is_zero_castling() {
        return Rule::ZeroCastling;
    }
    if token.squares().is_some() {
        return match (token.has_dash(), token.has_capture_mark()) {
            (true, _) => Rule::Dash,
            (false, true) => Rule::LongAlgebraic,
            (false, false) => Rule::Uci,
        };
    }
    if let (San::Normal { role: Role::King, .. }, San::Castle(_)) = (token.san(), san) {
        return Rule::KingTakesRook;
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

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, FromSetup, Position};

    use super::*;
    use crate::random::RandomGames;

    /// The quick search finds exactly shakmaty's candidates wherever it answers, and spells
    /// each of them as shakmaty does, in every position of random games and of a few with many
    /// pieces of a kind, for every piece and square.
    #[test]
    fn plain_sources_are_shakmatys() {
        let mut positions = Vec::new();
        let mut games = RandomGames::new(7);
        for _ in 0..60 {
            let mut pos = Chess::default();
            for m in games.next_moves() {
                positions.push(pos.clone());
                pos.play_unchecked(m);
            }
        }
        for fen in CROWDED {
            let setup = fen.parse::<shakmaty::fen::Fen>().expect(fen).into_setup();
            let pos: Chess = Chess::from_setup(setup, CastlingMode::Standard).expect(fen);
            positions.push(pos);
        }
        let mut answered = 0;
        let mut spelled = 0;
        for pos in &positions {
            for role in Role::ALL {
                for to in Square::ALL {
                    let Some(sources) = plain_sources(pos, role, to, pos.checkers().any()) else {
                        continue;
                    };
                    answered += 1;
                    let full = pos.san_candidates(role, to);
                    let plain = full.iter().filter(|m| !m.is_promotion() && !m.is_en_passant());
                    let expected = plain
                        .clone()
                        .fold(Bitboard::EMPTY, |set, m| set.with(m.from().expect("a normal move")));
                    assert_eq!(sources, expected, "{role:?} to {to} in {:?}", pos.board());
                    for &m in plain {
                        let from = m.from().expect("a normal move");
                        let san = plain_san(role, from, to, m.is_capture(), sources);
                        assert_eq!(san, San::disambiguate(m, &full), "{m:?} in {:?}", pos.board());
                        spelled += 1;
                    }
                }
            }
        }
        assert!(answered > 100_000, "{answered}");
        assert!(spelled > 10_000, "{spelled}");
    }

    /// Positions where moves need their file, their rank or both, and in check.
    const CROWDED: [&str; 4] = [
        "7k/8/8/3Q1Q2/8/3Q1Q2/8/K7 w - - 0 1",
        "k7/8/2N3N1/1R5R/8/2N3N1/8/K1R3R1 w - - 0 1",
        "4k3/8/8/1q5b/8/3N1N2/4P3/r2QK2r w - - 0 1",
        "8/1B1B1B2/2B5/1B1B1B2/4q3/k7/8/KR5R w - - 0 1",
    ];
}
