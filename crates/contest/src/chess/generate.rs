//! Chess records aimed at the corners of the format, one profile each.
//!
//! Every record is a real game played with shakmaty's rules, steered towards its corner by simple
//! move preferences (pawns forward for promotions and en passant, the back rank cleared for
//! castling, checks for mates). When the corner comes up, its move is written either in its
//! canonical spelling or spoilt in one way, built from shakmaty's SAN of the move with one part
//! changed; the record then ends, or goes on with more legal moves when the spoilt token still
//! denotes the move played.

use arbiter_chess_record::shakmaty::san::San;
use arbiter_chess_record::shakmaty::{
    Bitboard, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Rank, Role, Square,
    attacks,
};
use arbiter_chess_record::{Dialect, SanText, read_move};

use super::ChessProfile;
use crate::rng::Rng;

/// The statement's longest record: 300 rounds.
const MAX_PLIES: usize = 600;

/// The tokens of one record of `profile`, the same for the same seed; `size` bounds the plies
/// played before the corner is looked for in earnest.
pub fn generate(profile: ChessProfile, size: Option<usize>, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let profile = match profile {
        ChessProfile::Mixed => {
            const DRAWN: [(ChessProfile, u32); 9] = [
                (ChessProfile::Correct, 4),
                (ChessProfile::Capture, 2),
                (ChessProfile::Check, 2),
                (ChessProfile::Disambiguation, 2),
                (ChessProfile::Pinned, 1),
                (ChessProfile::Promotion, 2),
                (ChessProfile::Castling, 2),
                (ChessProfile::EnPassant, 2),
                (ChessProfile::AfterEnd, 1),
            ];
            DRAWN[rng.weighted(&DRAWN.map(|(_, w)| w)).unwrap_or(0)].0
        }
        profile => profile,
    };
    // The statement promises that no move of a record has three pieces of its kind able to make
    // it; the profiles within the statement keep that promise.
    let mut tokens = Vec::new();
    for _ in 0..PROMISE_TRIES {
        tokens = one_record(profile, size, &mut rng);
        if matches!(profile, ChessProfile::Numbers | ChessProfile::Beyond)
            || within_statement(&tokens)
        {
            break;
        }
    }
    tokens
}

/// Records drawn again when one breaks the statement's promise (rarely: it takes promotions).
const PROMISE_TRIES: usize = 8;

/// Whether no move of the record, up to its first wrong token, has three pieces of its kind that
/// could make it (the statement: 题目保证没有三个同样的棋子能够移动到同一格).
fn within_statement(tokens: &[String]) -> bool {
    let mut pos = Chess::default();
    for token in tokens.iter().filter(|t| !t.ends_with('.')) {
        let before = pos.clone();
        let Ok(reading) = read_move(&mut pos, token, Dialect::Contest) else { return true };
        let m = reading.played;
        if m.role() != Role::Pawn {
            let rivals = before.san_candidates(m.role(), m.to());
            let sources: std::collections::BTreeSet<Square> =
                rivals.iter().filter_map(|r| r.from()).collect();
            if sources.len() >= 3 {
                return false;
            }
        }
    }
    true
}

/// One record of `profile` (never `mixed`).
fn one_record(profile: ChessProfile, size: Option<usize>, rng: &mut Rng) -> Vec<String> {
    let budget = size.unwrap_or_else(|| rng.range(8, 120) as usize).clamp(1, MAX_PLIES);
    // The corner is taken at the first chance after this ply, so that it comes up at every depth.
    let start = rng.below(budget.min(40) + 1);
    let beyond = match profile {
        ChessProfile::Beyond => Some(*rng.pick(&Beyond::ALL).unwrap_or(&Beyond::ZeroCastling)),
        _ => None,
    };
    let mut record = Record { pos: Chess::default(), tokens: Vec::new(), rng };
    let steer = steer(profile, beyond, record.rng);
    if profile == ChessProfile::Correct {
        for _ in 0..budget {
            if !record.step(steer) {
                break;
            }
        }
        return record.tokens;
    }
    // A corner that does not come up within a window of plies is looked for in a new game: rare
    // corners are likelier in the middle game than in a long endgame. The last attempt plays on
    // up to the statement's length.
    let window = budget.max(40);
    for attempt in 0..=ATTEMPTS {
        record.pos = Chess::default();
        record.tokens.clear();
        let mut earliest = start;
        if profile == ChessProfile::Pinned && record.rng.percent(50) {
            earliest = 0;
            let opening = *record.rng.pick(&PIN_OPENINGS).unwrap_or(&PIN_OPENINGS[0]);
            for san in opening {
                match san.parse::<San>().ok().and_then(|san| san.to_move(&record.pos).ok()) {
                    Some(m) => record.play(m),
                    None => break,
                }
            }
        }
        let limit = if attempt == ATTEMPTS { MAX_PLIES } else { window };
        for ply in 0..limit {
            if ply >= earliest {
                match corner(profile, beyond, &mut record) {
                    Some(Then::Stop) => return record.tokens,
                    Some(Then::GoOn) => {
                        let more = record.rng.range(0, 8) as usize;
                        for _ in 0..more {
                            // Not past the statement's 300 rounds.
                            if record.pos.fullmoves().get() > 300 || !record.step(Steer::Random) {
                                break;
                            }
                        }
                        return record.tokens;
                    }
                    None => {}
                }
            }
            if !record.step(steer) {
                break;
            }
        }
    }
    record.tokens
}

/// New games tried when a corner does not come up.
const ATTEMPTS: usize = 30;

/// What follows the corner's token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Then {
    /// The record ends with it.
    Stop,
    /// A few more legal moves follow (the token denoted the move played).
    GoOn,
}

/// A game being written down.
struct Record<'r> {
    pos: Chess,
    tokens: Vec<String>,
    rng: &'r mut Rng,
}

/// How the moves before the corner are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Steer {
    Random,
    /// Checks and captures, half the time.
    Checks,
    /// Knights, rooks and queens, which meet on the same squares.
    Pieces,
    /// Pawns forward.
    Pawns,
    /// Minor pieces and queen out, king and rooks at home.
    Develop,
    /// Pins on pieces that have a twin.
    Pins,
    /// One side mates if it can, else takes material and checks; the other plays at random.
    Mate(Color),
}

fn steer(profile: ChessProfile, beyond: Option<Beyond>, rng: &mut Rng) -> Steer {
    let attacker = if rng.percent(50) { Color::White } else { Color::Black };
    match (profile, beyond) {
        (ChessProfile::Check, _) | (ChessProfile::Capture, _) => Steer::Checks,
        (ChessProfile::Disambiguation, _) => Steer::Pieces,
        (ChessProfile::Pinned, _) => Steer::Pins,
        (ChessProfile::Promotion | ChessProfile::EnPassant, _) => Steer::Pawns,
        (ChessProfile::Castling, _) => Steer::Develop,
        (ChessProfile::AfterEnd, _) => Steer::Mate(attacker),
        (ChessProfile::Correct, _) => *rng
            .pick(&[
                Steer::Random,
                Steer::Checks,
                Steer::Pawns,
                Steer::Develop,
                Steer::Mate(attacker),
            ])
            .unwrap_or(&Steer::Random),
        (ChessProfile::Beyond, Some(Beyond::ZeroCastling)) => Steer::Develop,
        (
            ChessProfile::Beyond,
            Some(Beyond::PromotionEquals | Beyond::LowerPromotion | Beyond::EnPassantMark),
        ) => Steer::Pawns,
        (ChessProfile::Beyond, Some(Beyond::MateSign)) => Steer::Mate(attacker),
        (ChessProfile::Beyond, Some(Beyond::DoubleCheck)) => Steer::Checks,
        _ => Steer::Random,
    }
}

impl Record<'_> {
    /// Writes the move number if white is to move, then `token`, and plays `played`.
    fn write(&mut self, played: Option<Move>, token: String) {
        if self.pos.turn() == Color::White {
            self.tokens.push(format!("{}.", self.pos.fullmoves()));
        }
        self.tokens.push(token);
        if let Some(m) = played {
            self.pos.play_unchecked(m);
        }
    }

    fn play(&mut self, m: Move) {
        let token = canonical(&self.pos, m);
        self.write(Some(m), token);
    }

    /// Plays one move chosen by `steer`; `false` when the game is over.
    fn step(&mut self, steer: Steer) -> bool {
        let legal = self.pos.legal_moves();
        if legal.is_empty() {
            return false;
        }
        let moves: Vec<Move> = legal.iter().copied().collect();
        let (greed, score): (u32, &Score) = match steer {
            Steer::Random => (0, &|_, _| 0),
            Steer::Checks => (50, &|pos, m| i32::from(m.is_capture() || gives_check(pos, m))),
            Steer::Pieces => (70, &|_, m| {
                i32::from(matches!(
                    m.role(),
                    Role::Knight | Role::Rook | Role::Queen | Role::Bishop
                ))
            }),
            Steer::Pawns => (80, &pawn_race),
            Steer::Develop => (80, &develop),
            Steer::Pins => (80, &pin),
            Steer::Mate(attacker) if attacker == self.pos.turn() => (80, &attack),
            Steer::Mate(_) => (0, &|_, _| 0),
        };
        let m = if self.rng.percent(greed) {
            let scores: Vec<i32> = moves.iter().map(|&m| score(&self.pos, m)).collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            let top: Vec<Move> =
                moves.iter().zip(&scores).filter(|&(_, &s)| s == best).map(|(&m, _)| m).collect();
            *self.rng.pick(&top).unwrap_or(&moves[0])
        } else {
            *self.rng.pick(&moves).unwrap_or(&moves[0])
        };
        self.play(m);
        true
    }
}

/// How a steering prefers moves: higher is better.
type Score = dyn Fn(&Chess, Move) -> i32;

/// Pawns forward, double steps beside an enemy pawn first (they allow en passant), then
/// promotions and pawns far advanced.
fn pawn_race(pos: &Chess, m: Move) -> i32 {
    if m.role() != Role::Pawn {
        return 0;
    }
    if m.is_promotion() {
        return 50;
    }
    let us = pos.turn();
    let (Some(from), to) = (m.from(), m.to()) else { return 0 };
    let advanced =
        |sq: Square| i32::from(us.fold_wb(u32::from(sq.rank()), 7 - u32::from(sq.rank())) as u8);
    let double = (i32::from(u32::from(to.rank()) as u8) - i32::from(u32::from(from.rank()) as u8))
        .abs()
        == 2;
    let beside_enemy = [to.offset(1), to.offset(-1)]
        .into_iter()
        .flatten()
        .filter(|s| s.rank() == to.rank())
        .any(|s| pos.board().piece_at(s) == Some(Piece { color: !us, role: Role::Pawn }));
    if double && beside_enemy {
        return 40;
    }
    // Up to the fifth rank, where en passant captures start.
    10 + advanced(to).min(4)
}

/// Minor pieces and the queen off the back rank; king and rooks stay home; castling when it can.
fn develop(pos: &Chess, m: Move) -> i32 {
    let home = pos.turn().fold_wb(Rank::First, Rank::Eighth);
    match m.role() {
        _ if m.is_castle() => 3,
        Role::King | Role::Rook => -1,
        Role::Pawn => 0,
        _ if m.from().is_some_and(|s| s.rank() == home) => 2,
        _ => 1,
    }
}

/// Moves that pin a piece of the other side that has a twin of its kind (so that a square both
/// could reach may later need no disambiguation), then developing moves.
fn pin(pos: &Chess, m: Move) -> i32 {
    // Only a slider's own move is looked at: discovered pins are left to chance.
    if !matches!(m.role(), Role::Bishop | Role::Rook | Role::Queen) {
        return develop(pos, m);
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let them = after.turn();
    let board = after.board();
    let Some(king) = board.king_of(them) else { return 0 };
    let Some(piece) = board.piece_at(m.to()) else { return 0 };
    if !attacks::attacks(m.to(), piece, Bitboard::EMPTY).contains(king) {
        return develop(pos, m);
    }
    let between = attacks::between(m.to(), king) & board.occupied();
    let pinned_twin = match (between.first(), between.count()) {
        (Some(pinned), 1) => board.piece_at(pinned).is_some_and(|p| {
            p.color == them
                && !matches!(p.role, Role::Pawn | Role::King)
                && board.by_piece(p).count() >= 2
        }),
        _ => false,
    };
    10 * i32::from(pinned_twin) + develop(pos, m)
}

/// Openings that pin a knight whose twin can reach a square it could reach too: the classic
/// `Ne2`/`Ne7` that must not be written `Nge2`/`Nge7`. Half the pinned records start with one,
/// then go their own way.
const PIN_OPENINGS: [&[&str]; 4] = [
    &["e4", "e5", "Nf3", "Nc6", "Bb5", "d6"],
    &["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "e3"],
    &["e4", "e6", "d4", "d5", "Nc3", "Bb4"],
    &["d4", "e5", "dxe5", "Nc6", "Nf3", "Bb4", "Nc3", "d6"],
];

/// The moves of a piece that another of its kind could make too, were it not pinned (or kept
/// back by a check): their canonical spelling names no file or rank.
fn lonely(pos: &Chess, moves: &[Move]) -> Vec<Move> {
    let us = pos.turn();
    let occupied = pos.board().occupied();
    moves
        .iter()
        .copied()
        .filter(|m| {
            let role = m.role();
            if matches!(role, Role::Pawn | Role::King) || m.is_castle() {
                return false;
            }
            let legal = moves.iter().filter(|o| o.role() == role && o.to() == m.to()).count();
            let reaching =
                attacks::attacks(m.to(), Piece { color: us, role }, occupied) & pos.our(role);
            legal == 1 && reaching.count() >= 2
        })
        .collect()
}

/// The mating side: mate, else take the most valuable piece, else check.
fn attack(pos: &Chess, m: Move) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    let check = after.is_check();
    if check && after.is_checkmate() {
        return 1000;
    }
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    let gain = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
    10 * gain + i32::from(check) * 5
}

/// The canonical contest spelling of `m` in `pos`.
fn canonical(pos: &Chess, m: Move) -> String {
    spelled(pos, m, San::from_move(pos, m))
}

/// `san` (for the move `m` of `pos`) with the check mark `m` deserves, in the contest dialect.
fn spelled(pos: &Chess, m: Move, san: San) -> String {
    let mut after = pos.clone();
    after.play_unchecked(m);
    let check = after.is_check();
    SanText::new(san, check, check && after.is_checkmate(), Dialect::Contest).to_string()
}

fn gives_check(pos: &Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_check()
}

fn mates(pos: &Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_check() && after.is_checkmate()
}

/// `san` with other disambiguation.
fn with_hints(san: San, file: bool, rank: bool, from: Square) -> San {
    match san {
        San::Normal { role, capture, to, promotion, .. } => San::Normal {
            role,
            file: file.then(|| from.file()),
            rank: rank.then(|| from.rank()),
            capture,
            to,
            promotion,
        },
        san => san,
    }
}

/// The spellings the statement promises not to use, for the `beyond` profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Beyond {
    ZeroCastling,
    PromotionEquals,
    LowerPromotion,
    MateSign,
    DoubleCheck,
    EnPassantMark,
}

impl Beyond {
    const ALL: [Beyond; 6] = [
        Beyond::ZeroCastling,
        Beyond::PromotionEquals,
        Beyond::LowerPromotion,
        Beyond::MateSign,
        Beyond::DoubleCheck,
        Beyond::EnPassantMark,
    ];
}

/// Writes the profile's corner if the position offers it.
fn corner(profile: ChessProfile, beyond: Option<Beyond>, record: &mut Record<'_>) -> Option<Then> {
    let moves: Vec<Move> = record.pos.legal_moves().iter().copied().collect();
    match profile {
        ChessProfile::Mixed | ChessProfile::Correct => None,
        ChessProfile::Capture => capture(record, &moves),
        ChessProfile::Check => check(record, &moves),
        ChessProfile::Disambiguation => disambiguation(record, &moves),
        ChessProfile::Pinned => pinned(record, &moves),
        ChessProfile::Promotion => promotion(record, &moves),
        ChessProfile::Castling => castling(record, &moves),
        ChessProfile::EnPassant => en_passant(record, &moves),
        ChessProfile::AfterEnd => after_end(record, &moves),
        ChessProfile::Numbers => numbers(record, &moves),
        ChessProfile::Beyond => {
            beyond_statement(record, &moves, beyond.unwrap_or(Beyond::ZeroCastling))
        }
    }
}

/// A capture without `x`, or a quiet piece move with one.
fn capture(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let captures: Vec<Move> =
        moves.iter().copied().filter(|m| m.is_capture() && !m.is_castle()).collect();
    let quiet: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| !m.is_capture() && !m.is_castle() && m.role() != Role::Pawn)
        .collect();
    let pos = record.pos.clone();
    if record.rng.percent(50) {
        let m = *record.rng.pick(&captures)?;
        let token = canonical(&pos, m).replacen('x', "", 1);
        record.write(Some(m), token);
    } else {
        let m = *record.rng.pick(&quiet)?;
        let san = match San::from_move(&pos, m) {
            San::Normal { role, file, rank, to, promotion, .. } => {
                San::Normal { role, file, rank, capture: true, to, promotion }
            }
            san => san,
        };
        let token = spelled(&pos, m, san);
        record.write(Some(m), token);
    }
    Some(Then::GoOn)
}

/// A check without `+`, or `+` on a move that gives none.
fn check(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let pos = record.pos.clone();
    let checks: Vec<Move> = moves.iter().copied().filter(|&m| gives_check(&pos, m)).collect();
    if !checks.is_empty() && record.rng.percent(50) {
        let m = *record.rng.pick(&checks)?;
        let token = canonical(&pos, m).trim_end_matches('+').to_owned();
        record.write(Some(m), token);
    } else {
        let quiet: Vec<Move> = moves.iter().copied().filter(|&m| !gives_check(&pos, m)).collect();
        let m = *record.rng.pick(&quiet)?;
        let token = canonical(&pos, m) + "+";
        record.write(Some(m), token);
    }
    Some(Then::GoOn)
}

/// A move that another piece of the same kind could make too (or not), with its disambiguation
/// dropped, changed or added.
fn disambiguation(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let pos = record.pos.clone();
    let rivals = |m: &Move| {
        moves
            .iter()
            .filter(|o| o.role() == m.role() && o.to() == m.to() && o.from() != m.from())
            .count()
    };
    let shared: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| !matches!(m.role(), Role::Pawn | Role::King) && !m.is_castle() && rivals(m) > 0)
        .collect();
    if let Some(&m) = record.rng.pick(&shared) {
        let from = m.from()?;
        let san = San::from_move(&pos, m);
        let San::Normal { file, rank, .. } = san else { return None };
        // Every other way of naming the source: nothing, the file, the rank, or both.
        let others: Vec<(bool, bool)> =
            [(false, false), (true, false), (false, true), (true, true)]
                .into_iter()
                .filter(|&hints| hints != (file.is_some(), rank.is_some()))
                .collect();
        let (f, r) = *record.rng.pick(&others)?;
        let token = spelled(&pos, m, with_hints(san, f, r, from));
        if record.rng.percent(20) {
            // Now and then the right spelling, and the record goes on.
            record.play(m);
            return Some(Then::GoOn);
        }
        let then = if (f, r) == (false, false) { Then::Stop } else { Then::GoOn };
        record.write((then == Then::GoOn).then_some(m), token);
        return Some(then);
    }
    // No two pieces share a square: a needless file or rank, one time in ten.
    if !record.rng.percent(10) {
        return None;
    }
    let alone: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| !matches!(m.role(), Role::Pawn | Role::King) && !m.is_castle())
        .collect();
    let m = *record.rng.pick(&alone)?;
    let from = m.from()?;
    let (f, r) = *record.rng.pick(&[(true, false), (false, true), (true, true)])?;
    let token = spelled(&pos, m, with_hints(San::from_move(&pos, m), f, r, from));
    record.write(Some(m), token);
    Some(Then::GoOn)
}

/// A move whose only rival is pinned (or kept back by a check): its canonical spelling names no
/// file, and naming one is wrong.
fn pinned(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let pos = record.pos.clone();
    let m = *record.rng.pick(&lonely(&pos, moves))?;
    if record.rng.percent(50) {
        record.play(m);
    } else {
        let from = m.from()?;
        let (f, r) = *record.rng.pick(&[(true, false), (false, true)])?;
        let token = spelled(&pos, m, with_hints(San::from_move(&pos, m), f, r, from));
        record.write(Some(m), token);
    }
    Some(Then::GoOn)
}

/// A promotion to any piece, or with its letter missing or a king.
fn promotion(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let pos = record.pos.clone();
    let promotions: Vec<Move> = moves.iter().copied().filter(|m| m.is_promotion()).collect();
    let m = *record.rng.pick(&promotions)?;
    match record.rng.below(4) {
        0 | 1 => {
            record.play(m);
            Some(Then::GoOn)
        }
        2 => {
            let queen = canonical(&pos, m);
            let letter = queen.find(['Q', 'R', 'B', 'N']).unwrap_or(queen.len());
            record.write(None, queen[..letter].to_owned());
            Some(Then::Stop)
        }
        _ => {
            let token = canonical(&pos, m);
            let letter = token.find(['Q', 'R', 'B', 'N']).unwrap_or(token.len());
            record.write(None, format!("{}K", &token[..letter]));
            Some(Then::Stop)
        }
    }
}

/// Castling: legal (written right), or barred by check, an attacked square, lost rights or a
/// piece in the way (written anyway).
fn castling(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let pos = record.pos.clone();
    let us = pos.turn();
    let mut legal = Vec::new();
    let mut barred_by_attack = Vec::new();
    let mut barred = Vec::new();
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        let name = if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" };
        if let Some(&m) = moves.iter().find(|m| m.castling_side() == Some(side)) {
            legal.push(m);
            continue;
        }
        let rights = pos.castles().has(us, side);
        let clear = !(pos.castles().path(us, side) & pos.board().occupied()).any();
        if rights && clear {
            barred_by_attack.push(name);
        } else {
            barred.push(name);
        }
    }
    if let Some(name) = record.rng.pick(&barred_by_attack).copied() {
        record.write(None, name.to_owned());
        return Some(Then::Stop);
    }
    if let Some(&m) = record.rng.pick(&legal)
        && record.rng.percent(60)
    {
        record.play(m);
        return Some(Then::GoOn);
    }
    // Lost rights or a blocked path are common: only sometimes.
    if record.rng.percent(4)
        && let Some(name) = record.rng.pick(&barred).copied()
    {
        record.write(None, name.to_owned());
        return Some(Then::Stop);
    }
    None
}

/// En passant: taken at once (right), or written a move too late (illegal).
fn en_passant(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    let m = *record
        .rng
        .pick(&moves.iter().copied().filter(|m| m.is_en_passant()).collect::<Vec<_>>())?;
    if record.rng.percent(50) {
        record.play(m);
        return Some(Then::GoOn);
    }
    // Late: both sides play something else, and the capture is written anyway if the pawns are
    // still where they were.
    let token = canonical(&record.pos, m).trim_end_matches('+').to_owned();
    let (from, to) = (m.from()?, m.to());
    let passed = Square::from_coords(to.file(), from.rank());
    let others: Vec<Move> =
        moves.iter().copied().filter(|o| o.from() != Some(from) && !o.is_en_passant()).collect();
    let first = *record.rng.pick(&others)?;
    record.play(first);
    let replies: Vec<Move> = record
        .pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|o| o.from() != Some(passed) && o.to() != to)
        .collect();
    let reply = *record.rng.pick(&replies)?;
    record.play(reply);
    let us = record.pos.turn();
    let board = record.pos.board();
    let still = board.piece_at(from) == Some(Piece { color: us, role: Role::Pawn })
        && board.piece_at(passed) == Some(Piece { color: !us, role: Role::Pawn })
        && board.piece_at(to).is_none()
        && record.pos.ep_square(EnPassantMode::Always).is_none();
    if !still {
        return Some(Then::Stop);
    }
    record.write(None, token);
    Some(Then::Stop)
}

/// A king move written after checkmate or stalemate.
fn after_end(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    if !moves.is_empty() {
        return None;
    }
    let us = record.pos.turn();
    let king = record.pos.board().king_of(us)?;
    let board = record.pos.board().clone();
    let steps: Vec<Square> = attacks::king_attacks(king)
        .into_iter()
        .filter(|&s| !board.by_color(us).contains(s))
        .collect();
    let token = match record.rng.pick(&steps) {
        Some(&to) if board.occupied().contains(to) => format!("Kx{to}"),
        Some(&to) => format!("K{to}"),
        None => "Kd2".to_owned(),
    };
    record.write(None, token);
    Some(Then::Stop)
}

/// A wrong move number: off by one, with a leading zero, glued to the move, PGN's `N...` for
/// black, or black's move left out.
fn numbers(record: &mut Record<'_>, moves: &[Move]) -> Option<Then> {
    if record.pos.turn() != Color::White || !record.rng.percent(30) {
        return None;
    }
    let n = record.pos.fullmoves().get();
    let m = *record.rng.pick(moves)?;
    let token = canonical(&record.pos, m);
    match record.rng.below(5) {
        0 => {
            let wrong = if n > 1 && record.rng.percent(50) { n - 1 } else { n + 1 };
            record.tokens.extend([format!("{wrong}."), token]);
        }
        1 => record.tokens.extend([format!("0{n}."), token]),
        2 => record.tokens.push(format!("{n}.{token}")),
        3 => {
            record.write(Some(m), token);
            let reply =
                *record.rng.pick(&record.pos.legal_moves().iter().copied().collect::<Vec<_>>())?;
            let reply_token = canonical(&record.pos, reply);
            record.tokens.extend([format!("{n}..."), reply_token]);
        }
        _ => {
            record.write(Some(m), token);
            // Black's move skipped: the next number comes at once.
            record.tokens.push(format!("{}.", n + 1));
            let next =
                *record.rng.pick(&record.pos.legal_moves().iter().copied().collect::<Vec<_>>())?;
            let next_token = canonical(&record.pos, next);
            record.tokens.push(next_token);
        }
    }
    Some(Then::Stop)
}

/// The spelling `kind` of the statement's unpromised ones, when the position offers it.
fn beyond_statement(record: &mut Record<'_>, moves: &[Move], kind: Beyond) -> Option<Then> {
    let pos = record.pos.clone();
    let pick = |record: &mut Record<'_>, keep: &dyn Fn(&Move) -> bool| {
        let found: Vec<Move> = moves.iter().copied().filter(|m| keep(m)).collect();
        record.rng.pick(&found).copied()
    };
    let (m, token) = match kind {
        Beyond::ZeroCastling => {
            let m = pick(record, &|m| m.is_castle())?;
            (m, canonical(&pos, m).replace('O', "0"))
        }
        Beyond::PromotionEquals | Beyond::LowerPromotion => {
            let m = pick(record, &|m| m.is_promotion())?;
            let token = canonical(&pos, m);
            let at = token.find(['Q', 'R', 'B', 'N'])?;
            let letter = &token[at..at + 1];
            let rest = &token[at + 1..];
            let token = if kind == Beyond::PromotionEquals {
                format!("{}={letter}{rest}", &token[..at])
            } else {
                format!("{}{}{rest}", &token[..at], letter.to_lowercase())
            };
            (m, token)
        }
        Beyond::MateSign => {
            let m = pick(record, &|&m| mates(&pos, m))?;
            (m, canonical(&pos, m).replace('+', "#"))
        }
        Beyond::DoubleCheck => {
            let m = pick(record, &|&m| gives_check(&pos, m))?;
            (m, canonical(&pos, m) + "+")
        }
        Beyond::EnPassantMark => {
            let m = pick(record, &|m| m.is_en_passant())?;
            let token = canonical(&pos, m);
            record.write(Some(m), token);
            record.tokens.push("e.p.".to_owned());
            return Some(Then::Stop);
        }
    };
    record.write(Some(m), token);
    Some(Then::GoOn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_chess_record::{Fault, Illegal, Rule, Verdict, check_record};

    fn record(profile: ChessProfile, seed: u64) -> String {
        generate(profile, None, seed).join(" ")
    }

    /// The faults met over `cases` records of `profile`.
    fn faults(profile: ChessProfile, cases: u64) -> (usize, Vec<Fault>) {
        let mut yes = 0;
        let mut found = Vec::new();
        for seed in 0..cases {
            match check_record(&record(profile, seed)) {
                Verdict::Yes { .. } => yes += 1,
                Verdict::No(mistake) => found.push(mistake.fault),
            }
        }
        (yes, found)
    }

    fn rule(fault: &Fault) -> Option<Rule> {
        match fault {
            Fault::Misspelled { rule, .. } => Some(*rule),
            _ => None,
        }
    }

    #[test]
    fn generation_is_deterministic_and_within_the_statement() {
        for (profile, _, _) in ChessProfile::ALL {
            for seed in 0..8 {
                let tokens = generate(profile, None, seed);
                assert_eq!(tokens, generate(profile, None, seed), "{profile}");
                if matches!(profile, ChessProfile::Numbers | ChessProfile::Beyond) {
                    continue;
                }
                assert!(within_statement(&tokens), "{profile} {seed}");
                let last =
                    tokens.iter().rev().find_map(|t| t.strip_suffix('.')?.parse::<u32>().ok());
                assert!(last.unwrap_or(0) <= 300, "{profile} {seed}");
            }
        }
    }

    #[test]
    fn correct_records_are_correct() {
        let (yes, faults) = faults(ChessProfile::Correct, 30);
        assert_eq!((yes, faults), (30, Vec::new()));
    }

    #[test]
    fn each_profile_spoils_its_corner() {
        let (_, found) = faults(ChessProfile::Capture, 20);
        assert!(found.iter().any(|f| rule(f) == Some(Rule::MissingCapture)));
        assert!(found.iter().any(|f| rule(f) == Some(Rule::ExtraCapture)));
        let (_, found) = faults(ChessProfile::Check, 20);
        assert!(found.iter().any(|f| rule(f) == Some(Rule::MissingCheck)));
        assert!(found.iter().any(|f| rule(f) == Some(Rule::ExtraCheck)));
        let (_, found) = faults(ChessProfile::Disambiguation, 30);
        assert!(found.iter().any(|f| matches!(f, Fault::Ambiguous { .. })), "{found:?}");
        assert!(found.iter().any(|f| rule(f) == Some(Rule::DisambiguationOrder)), "{found:?}");
        assert!(found.iter().any(|f| rule(f) == Some(Rule::UnneededDisambiguation)), "{found:?}");
        let (yes, found) = faults(ChessProfile::Pinned, 30);
        assert!(
            yes > 0 && found.iter().any(|f| rule(f) == Some(Rule::UnneededDisambiguation)),
            "{yes} {found:?}"
        );
        let (_, found) = faults(ChessProfile::Promotion, 30);
        assert!(found.iter().any(|f| matches!(f, Fault::MissingPromotion { .. })), "{found:?}");
        assert!(found.iter().any(|f| matches!(f, Fault::Illegal(Illegal::Promotion))), "{found:?}");
        let (_, found) = faults(ChessProfile::Castling, 40);
        assert!(
            found.iter().any(|f| matches!(
                f,
                Fault::Illegal(Illegal::Castling {
                    bar: arbiter_chess_record::CastlingBar::ThroughCheck(_)
                        | arbiter_chess_record::CastlingBar::IntoCheck(_)
                        | arbiter_chess_record::CastlingBar::InCheck,
                    ..
                })
            )),
            "{found:?}"
        );
        let (_, found) = faults(ChessProfile::EnPassant, 40);
        assert!(
            found.iter().any(|f| matches!(f, Fault::Illegal(Illegal::EnPassantGone { .. }))),
            "{found:?}"
        );
        let (_, found) = faults(ChessProfile::AfterEnd, 10);
        assert!(
            found.iter().filter(|f| matches!(f, Fault::AfterGameEnd(_))).count() >= 5,
            "{found:?}"
        );
        let (_, found) = faults(ChessProfile::Numbers, 20);
        assert!(found.iter().any(|f| matches!(f, Fault::MoveNumber { .. })), "{found:?}");
        let (_, found) = faults(ChessProfile::Beyond, 40);
        for wanted in
            [Rule::ZeroCastling, Rule::PromotionEquals, Rule::MateSign, Rule::DoubledCheckSign]
        {
            assert!(found.iter().any(|f| rule(f) == Some(wanted)), "{wanted:?}: {found:?}");
        }
    }

    #[test]
    fn correct_records_meet_every_special_move() {
        let mut seen = [false; 5];
        for seed in 0..60 {
            let record = record(ChessProfile::Correct, seed);
            seen[0] |= record.contains('+');
            seen[1] |= record.contains("O-O");
            seen[2] |= ["Q", "R", "B", "N"]
                .iter()
                .any(|p| record.contains(&format!("8{p}")) || record.contains(&format!("1{p}")));
            seen[3] |= record
                .split(' ')
                .any(|t| t.starts_with(|c: char| c.is_ascii_lowercase()) && t.contains('x'));
            let mut pos = Chess::default();
            for token in record.split(' ').filter(|t| !t.ends_with('.')) {
                if let Ok(reading) =
                    arbiter_chess_record::read_move(&mut pos, token, Dialect::Contest)
                {
                    seen[4] |= reading.played.is_en_passant();
                }
            }
        }
        assert_eq!(seen, [true; 5]);
    }
}
