//! The order in which a node tries its moves, in stages so that a cut-off early saves generating
//! the rest: the transposition table's move, captures that do not lose material (most valuable
//! victim first, least valuable attacker first among equals), the two killer moves of the ply,
//! quiet moves by their history, and last the captures that lose material.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::movepick::{History, MovePicker};
//!
//! let position = Position::new();
//! let history = History::new();
//! let mut picker = MovePicker::new(None, [None, None]);
//! let mut count = 0;
//! while let Some(_) = picker.next(&position, &history) {
//!     count += 1;
//! }
//! assert_eq!(count, 43);
//! ```

use arbiter_duck::{Color, Move, MoveList, Piece, Position, Square};

use crate::see::{self, VALUE};

/// The move that led to a node, as the continuation history sees it: the piece that moved and
/// where it went (`None` at the root and after a null move).
pub type Previous = Option<(Piece, Square)>;

/// How often quiet moves caused a cut-off: by side, source and destination (the butterfly
/// table), and by the piece and destination of the move before and those of the move itself
/// (the continuation table: a good answer to a given move). A move that cuts off deep counts
/// more, and one tried before the move that cut off counts against.
#[derive(Clone)]
pub struct History {
    table: Box<[[[i16; Square::COUNT]; Square::COUNT]; 2]>,
    continuation: Box<[i16]>,
}

/// The pieces, for the continuation table's indices.
const PIECES: usize = 14;

fn piece_index(piece: Piece) -> usize {
    piece.color.index() * 7 + piece.role.index()
}

/// Where the continuation table's answers to `previous` start: a row of destinations a piece.
fn answers_start(previous: (Piece, Square)) -> usize {
    (piece_index(previous.0) * Square::COUNT + previous.1.index()) * PIECES * Square::COUNT
}

/// Where `piece` going to `to` is among the answers to one move.
fn answer_index(piece: Piece, to: Square) -> usize {
    piece_index(piece) * Square::COUNT + to.index()
}

fn continuation_index(previous: (Piece, Square), piece: Piece, to: Square) -> usize {
    answers_start(previous) + answer_index(piece, to)
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("History")
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// The largest magnitude a history entry reaches.
const HISTORY_MAX: i32 = 16_384;

impl History {
    /// An empty history.
    pub fn new() -> History {
        let size = PIECES * Square::COUNT * PIECES * Square::COUNT;
        History {
            table: Box::new([[[0; Square::COUNT]; Square::COUNT]; 2]),
            continuation: vec![0; size].into_boxed_slice(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self.table = [[[0; Square::COUNT]; Square::COUNT]; 2];
        self.continuation.fill(0);
    }

    /// The score of `piece` going to `to` as an answer to `previous`.
    #[inline]
    pub fn continuation(&self, previous: (Piece, Square), piece: Piece, to: Square) -> i32 {
        i32::from(self.continuation[continuation_index(previous, piece, to)])
    }

    /// The score the move order gives the quiet move `mv` of `piece` after `previous`.
    #[inline]
    pub fn score(&self, mv: Move, piece: Piece, previous: Previous) -> i32 {
        self.get(piece.color, mv)
            + previous.map_or(0, |previous| self.continuation(previous, piece, mv.to))
    }

    /// [`History::score`] of each of `moves`, quiet moves of the side to move in `position`,
    /// into `scores`: the same sums, with the tables of the side and of `previous` looked up once
    /// for all of them.
    pub fn score_quiets(
        &self,
        position: &Position,
        previous: Previous,
        moves: &[Move],
        scores: &mut [i32],
    ) {
        let butterfly = &self.table[position.turn().index()];
        // The part of the continuation table that answers `previous`: a row a piece.
        let answers = previous.map(|previous| {
            &self.continuation[answers_start(previous)..][..PIECES * Square::COUNT]
        });
        for (score, &mv) in scores.iter_mut().zip(moves) {
            *score = match position.piece_at(mv.from) {
                Some(piece) => {
                    let answer =
                        answers.map_or(0, |answers| i32::from(answers[answer_index(piece, mv.to)]));
                    i32::from(butterfly[mv.from.index()][mv.to.index()]) + answer
                }
                None => 0,
            };
        }
    }

    /// Adds `bonus` to the score of `piece` going to `to` after `previous`.
    #[inline]
    pub fn update_continuation(
        &mut self,
        previous: (Piece, Square),
        piece: Piece,
        to: Square,
        bonus: i32,
    ) {
        gravity(&mut self.continuation[continuation_index(previous, piece, to)], bonus);
    }

    /// The score of `mv` for `color`.
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        i32::from(self.table[color.index()][mv.from.index()][mv.to.index()])
    }

    /// Adds `bonus` (negative for a malus) to `mv`'s score, pulling large scores back towards 0
    /// so that recent results weigh more.
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        gravity(&mut self.table[color.index()][mv.from.index()][mv.to.index()], bonus);
    }

    /// Halves every score (between searches, so that old results fade).
    pub fn age(&mut self) {
        for entry in self.table.iter_mut().flatten().flatten() {
            *entry /= 2;
        }
        for entry in self.continuation.iter_mut() {
            *entry /= 2;
        }
    }
}

/// Adds `bonus` to `entry`, pulling large values back towards 0 so that recent results weigh
/// more and the entry stays within [`HISTORY_MAX`].
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Hands out the moves of one node, best first.
#[derive(Clone)]
pub struct MovePicker {
    stage: Stage,
    table_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer: usize,
    previous: Previous,
    captures_only: bool,
    skip_quiets: bool,
    moves: MoveList,
    scores: [i32; MoveList::CAPACITY],
    next: usize,
    bad: MoveList,
    bad_next: usize,
}

impl MovePicker {
    /// A picker of every move, the table's move and the killers first.
    pub fn new(table_move: Option<Move>, killers: [Option<Move>; 2]) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            table_move,
            killers,
            killer: 0,
            previous: None,
            captures_only: false,
            skip_quiets: false,
            moves: MoveList::new(),
            scores: [0; MoveList::CAPACITY],
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
        }
    }

    /// A picker of captures only, for quiescence: the table's move (if it captures), then every
    /// capture by victim and attacker, losing ones included (the caller decides what to skip).
    pub fn captures(table_move: Option<Move>) -> MovePicker {
        MovePicker { captures_only: true, ..MovePicker::new(table_move, [None, None]) }
    }

    /// The same picker, ordering quiet moves also by how they answer `previous`.
    pub fn after(self, previous: Previous) -> MovePicker {
        MovePicker { previous, ..self }
    }

    /// From now on, hands out no more quiet moves (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move to try, or `None` when all have been handed out.
    pub fn next(&mut self, position: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(mv) = self.table_move
                        && position.is_legal(mv)
                        && (!self.captures_only || is_capture(position, mv))
                    {
                        return Some(mv);
                    }
                    self.table_move = None;
                }
                Stage::GenerateCaptures => self.generate_captures(position),
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) if Some(mv) == self.table_move => {}
                    Some(mv) => {
                        if self.captures_only || see::see_ge(position.board(), mv, 0) {
                            return Some(mv);
                        }
                        self.bad.push(mv);
                    }
                    None => {
                        self.stage = if self.captures_only { Stage::Done } else { Stage::Killers };
                    }
                },
                Stage::Killers => {
                    if self.skip_quiets || self.killer >= self.killers.len() {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let killer = self.killers[self.killer];
                    self.killer += 1;
                    if let Some(mv) = killer
                        && Some(mv) != self.table_move
                        && position.is_legal(mv)
                        && !is_capture(position, mv)
                    {
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    self.next = 0;
                    if self.skip_quiets {
                        self.moves.clear();
                        continue;
                    }
                    self.generate_quiets(position, history);
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(mv)
                            if Some(mv) == self.table_move || self.killers.contains(&Some(mv)) => {}
                        Some(mv) => return Some(mv),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if let Some(&mv) = self.bad.get(self.bad_next) {
                        self.bad_next += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The captures, scored by victim and attacker. Out of line, as generating the quiet moves
    /// is: done once a node, they would weigh on every call of [`MovePicker::next`] (the
    /// registers it saves) if compiled into it.
    #[inline(never)]
    fn generate_captures(&mut self, position: &Position) {
        position.captures_into(&mut self.moves);
        let board = position.board();
        for (i, mv) in self.moves.iter().enumerate() {
            let attacker = board.piece_at(mv.from).map_or(0, |p| VALUE[p.role.index()]);
            self.scores[i] = see::victim_value(board, mv.to) * 16 - attacker / 16;
        }
        self.next = 0;
        self.stage = Stage::GoodCaptures;
    }

    /// The quiet moves, scored by their history.
    #[inline(never)]
    fn generate_quiets(&mut self, position: &Position, history: &History) {
        position.quiets_into(&mut self.moves);
        let scores = &mut self.scores[..self.moves.len()];
        history.score_quiets(position, self.previous, &self.moves, scores);
    }

    /// The move of highest score among those not yet handed out, the first of them on a tie (a
    /// selection sort, one step at a time: most nodes need only the first few).
    fn pick_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        let first = self.next;
        if first >= len {
            return None;
        }
        // Each score with its place in one key, the place counted down so that the first of
        // equal scores has the highest key: one maximum finds both, without a branch that the
        // processor would guess wrong on every new best. Scores stay far inside the bits left
        // (|score| < 2^24).
        let key = best_key(&self.scores[first..len], PLACE - first as i32);
        let best = (PLACE - (key & PLACE)) as usize;
        self.moves.swap(first, best);
        self.scores.swap(first, best);
        self.next += 1;
        Some(self.moves[first])
    }
}

/// The last place of a move list, the bits of a key [`best_key`] keeps a move's place in.
const PLACE: i32 = MoveList::CAPACITY as i32 - 1;

const _: () = assert!(MoveList::CAPACITY == 128, "a key keeps a move's place in 7 bits");

/// The highest key of `scores`, the first of which is at place `place` counted down from the
/// last (see [`MovePicker::pick_best`]), in lanes eight wide where the CPU has AVX2.
#[inline]
fn best_key(scores: &[i32], place: i32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, as just checked.
        return unsafe { best_key_avx2(scores, place) };
    }
    best_key_inline(scores, place)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn best_key_avx2(scores: &[i32], place: i32) -> i32 {
    best_key_inline(scores, place)
}

#[inline(always)]
fn best_key_inline(scores: &[i32], mut place: i32) -> i32 {
    let mut key = i32::MIN;
    for &score in scores {
        key = key.max((score << 7) | place);
        place -= 1;
    }
    key
}

/// Whether `mv` takes a piece (of the other side: a valid move never lands on its own).
#[inline]
pub fn is_capture(position: &Position, mv: Move) -> bool {
    position.piece_at(mv.to).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(picker: &mut MovePicker, position: &Position, history: &History) -> Vec<Move> {
        std::iter::from_fn(|| picker.next(position, history)).collect()
    }

    #[test]
    fn every_move_comes_once_in_stage_order() {
        let mut position = Position::new();
        for mv in ["e4e5", "e7e6", "b1c3", "h10g8"] {
            let _ = position.make(mv.parse().unwrap());
        }
        let mut history = History::new();
        let quiet: Move = "a1a2".parse().unwrap();
        history.update(position.turn(), quiet, 500);
        let table: Move = "h1g3".parse().unwrap();
        let killer: Move = "c4c5".parse().unwrap();
        let mut picker = MovePicker::new(Some(table), [Some(killer), Some(table)]);
        let moves = all(&mut picker, &position, &history);
        let mut sorted = moves.clone();
        sorted.sort();
        let mut expected = position.moves().to_vec();
        expected.sort();
        assert_eq!(sorted, expected);
        assert_eq!(moves[0], table);
        let captures = position.captures();
        let first_quiet = moves.iter().position(|&mv| !captures.contains(&mv) && mv != table);
        // e5e6 takes the soldier on e6 and is the only capture; it is safe, so it comes second.
        assert_eq!(moves[1], "e5e6".parse().unwrap());
        assert_eq!(moves[first_quiet.unwrap()], killer);
        assert_eq!(moves[first_quiet.unwrap() + 1], quiet);
    }

    #[test]
    fn quiets_are_scored_together_as_one_by_one() {
        let mut position = Position::new();
        let mut history = History::new();
        let mut previous: Previous = None;
        // A short game; at each position every quiet move of the side to move gets a bonus of
        // its own, as an answer to the move before and to no move.
        for (ply, mv) in ["e4e5", "e7e6", "b1c3", "h10g8", "h1g3", "c7c6"].iter().enumerate() {
            let quiets = position.quiets();
            for (i, &quiet) in quiets.iter().enumerate() {
                let piece = position.piece_at(quiet.from).unwrap();
                let bonus = (i as i32 * 37 + ply as i32 * 101) % 900 - 450;
                history.update(piece.color, quiet, bonus);
                if let Some(previous) = previous {
                    history.update_continuation(previous, piece, quiet.to, -bonus / 2);
                }
            }
            for previous in [None, previous] {
                let mut scores = vec![0; quiets.len()];
                history.score_quiets(&position, previous, &quiets, &mut scores);
                let expected: Vec<i32> = quiets
                    .iter()
                    .map(|&mv| history.score(mv, position.piece_at(mv.from).unwrap(), previous))
                    .collect();
                assert_eq!(scores, expected);
                assert!(scores.iter().any(|&score| score != 0));
            }
            let mv: Move = mv.parse().unwrap();
            previous = Some((position.piece_at(mv.from).unwrap(), mv.to));
            let _ = position.make(mv);
        }
    }

    /// The selection sort `pick_best` is a faster form of: the first of the highest scores
    /// found by a plain scan, swapped to the front.
    fn pick_best_plainly(moves: &mut [Move], scores: &mut [i32], next: usize) -> Move {
        let mut best = next;
        for i in next + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(next, best);
        scores.swap(next, best);
        moves[next]
    }

    proptest::proptest! {
        #[test]
        fn moves_are_picked_as_a_plain_selection_sort_picks_them(
            scores in proptest::collection::vec(
                proptest::prop_oneof![-3..3i32, -(1 << 23)..(1 << 23)], 0..=MoveList::CAPACITY),
        ) {
            let mut picker = MovePicker::new(None, [None, None]);
            let mut moves = Vec::new();
            for (i, &score) in scores.iter().enumerate() {
                let from = Square::from_index(i % Square::COUNT).unwrap();
                let to = Square::from_index(i / Square::COUNT).unwrap();
                picker.moves.push(Move { from, to });
                picker.scores[i] = score;
                moves.push(Move { from, to });
            }
            let mut scores = scores;
            for next in 0..moves.len() {
                let expected = pick_best_plainly(&mut moves, &mut scores, next);
                proptest::prop_assert_eq!(picker.pick_best(), Some(expected));
            }
            proptest::prop_assert_eq!(picker.pick_best(), None);
        }
    }

    #[test]
    fn quiescence_sees_captures_only() {
        let position: Position = "4c4/3h5/9/4s4/3S5/9/9/4R4/9/4C4 w".parse().unwrap();
        let mut picker = MovePicker::captures(Some("e1e2".parse().unwrap()));
        let moves = all(&mut picker, &position, &History::new());
        let mut expected = position.captures().to_vec();
        // The soldier on d6 takes before the car does (least valuable attacker first).
        assert_eq!(moves[0], "d6e7".parse().unwrap());
        expected.sort();
        let mut sorted = moves;
        sorted.sort();
        assert_eq!(sorted, expected);
    }
}
