//! Finding puzzles in games.
//!
//! 1. **Candidates.** Each position of a game is searched briefly (the scan): it is a candidate
//!    when the short search already sees one winning move, as step 2 asks ([`candidates`]).
//!    Games come from files, or the miner plays them ([`play_game`]: few nodes a move, so that
//!    mistakes leave tactics on the board); in its own games, a position is scanned only where
//!    the game's own search saw a chance that was not there a move before ([`HINT`],
//!    [`HINT_RISE`]).
//! 2. **The only move.** A candidate is searched again, deeper ([`Criteria::nodes`], fresh
//!    table): its best move must still win, and the best of every other move must not (no forced
//!    capture, and an expected score at least [`Criteria::margin`] lower). See
//!    [`Verifier::only_move`].
//! 3. **To a forced end.** The best move is played, then the opponent's best reply at the same
//!    depth, then the solver's next only move, and so on, until the captain is captured, the
//!    solver's next move is no longer the only one, or [`Criteria::max_moves`] moves. A line
//!    that does not capture the captain must have won decisive material: it is cut after the
//!    first of the solver's moves after which (and after the opponent's best reply to it) the
//!    solver's material has grown by [`Criteria::material`], else the candidate is dropped.
//!    The line ends with a move of the solver.
//! 4. **Confirmed** (when asked): the puzzle is checked again by searches deeper still
//!    ([`Verifier::check`]: every solver move the only winning one, the material won).
//! 5. **Themes and rating**: [`themes`](crate::themes); the rating from how deep the first move
//!    is hidden and how long the line is ([`rating`]).
//!
//! Every search is on one thread at a fixed number of nodes, from a cleared table for each
//! candidate: mining the same games with the same criteria finds the same puzzles.

use std::fmt;

use arbiter_duck::rules::MAX_PLIES;
use arbiter_duck::{Move, Position};
use arbiter_duck_engine::random::RandomMover;
use arbiter_duck_engine::value::Score;
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::probe::{Line, Probe};
use crate::puzzle::{Origin, Puzzle};
use crate::score::expected;
use crate::themes::{self, balance};

/// What a puzzle must satisfy.
#[derive(Debug, Clone, PartialEq)]
pub struct Criteria {
    /// Nodes of each verifying search.
    pub nodes: u64,
    /// The least expected score the solver's moves must keep.
    pub win: f64,
    /// How much lower than the best the expected score of every other move must be.
    pub margin: f64,
    /// The least material (centipawns, [`themes::worth`]) a line without a capture of the
    /// captain must win.
    pub material: i32,
    /// The most moves of the solver.
    pub max_moves: usize,
}

impl Default for Criteria {
    fn default() -> Criteria {
        Criteria { nodes: 100_000, win: 0.85, margin: 0.2, material: 300, max_moves: 8 }
    }
}

/// Why a candidate is not a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refusal {
    /// Searched deeper, its best move does not win.
    NotWinning,
    /// Another move wins too, or comes within the margin.
    NotUnique,
    /// The line neither captures the captain nor wins decisive material.
    NoMaterial,
    /// The game ends without a winner on the way (the opponent has no move).
    Drawn,
    /// A second check, deeper still, did not confirm it ([`Verifier::check`]).
    NotConfirmed,
    /// The search was stopped.
    Stopped,
}

impl Refusal {
    /// Every reason, in order.
    pub const ALL: [Refusal; 6] = [
        Refusal::NotWinning,
        Refusal::NotUnique,
        Refusal::NoMaterial,
        Refusal::Drawn,
        Refusal::NotConfirmed,
        Refusal::Stopped,
    ];

    /// A short name.
    pub const fn name(self) -> &'static str {
        match self {
            Refusal::NotWinning => "not-winning",
            Refusal::NotUnique => "not-unique",
            Refusal::NoMaterial => "no-material",
            Refusal::Drawn => "drawn",
            Refusal::NotConfirmed => "not-confirmed",
            Refusal::Stopped => "stopped",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a score is a forced capture of the other captain.
fn is_win(score: Score) -> bool {
    matches!(score, Score::Mate(moves) if moves > 0)
}

/// The deep searches that turn a candidate into a puzzle, or check one.
#[derive(Debug)]
pub struct Verifier {
    probe: Probe,
    criteria: Criteria,
}

impl Verifier {
    /// A verifier with these criteria.
    pub fn new(criteria: Criteria) -> Verifier {
        Verifier { probe: Probe::new(criteria.nodes), criteria }
    }

    /// A verifier asking `probe` (its nodes replace the criteria's).
    pub fn with_probe(probe: Probe, mut criteria: Criteria) -> Verifier {
        criteria.nodes = probe.nodes();
        Verifier { probe, criteria }
    }

    /// The criteria.
    pub fn criteria(&self) -> &Criteria {
        &self.criteria
    }

    /// The one move that wins in `position`, with the depth its search first preferred it
    /// from: its best move must keep an expected score of at least [`Criteria::win`], and the
    /// best of all other moves must neither capture the captain by force nor come within
    /// [`Criteria::margin`] of it.
    pub fn only_move(&mut self, position: &Position) -> Result<(Line, u32), Refusal> {
        let (best, found) = self.probe.best_and_depth_found(position).ok_or(Refusal::NotWinning)?;
        if self.probe.stopped() {
            return Err(Refusal::Stopped);
        }
        let value = expected(best.score);
        if value < self.criteria.win {
            return Err(Refusal::NotWinning);
        }
        if let Some(second) = self.probe.best_except(position, &[best.first()])
            && (is_win(second.score) || value - expected(second.score) < self.criteria.margin)
        {
            return Err(Refusal::NotUnique);
        }
        if self.probe.stopped() {
            return Err(Refusal::Stopped);
        }
        Ok((best, found))
    }

    /// The puzzle starting at `start`, if it is one (module docs, steps 2 to 4).
    pub fn solve(&mut self, start: &Position, origin: Option<Origin>) -> Result<Puzzle, Refusal> {
        self.probe.new_game();
        let solver = start.turn();
        let mut position = start.clone();
        let mut line: Vec<Move> = Vec::new();
        // The solver's material lead after each of its moves and the best reply to it.
        let mut leads: Vec<i32> = Vec::new();
        let mut found_at = 1;
        let mut captured = false;
        while line.len().div_ceil(2) < self.criteria.max_moves {
            let best = match self.only_move(&position) {
                Ok((best, found)) => {
                    if line.is_empty() {
                        found_at = found;
                    }
                    best
                }
                Err(refusal) if line.is_empty() || refusal == Refusal::Stopped => {
                    return Err(refusal);
                }
                Err(_) => break,
            };
            let _ = position.make(best.first());
            line.push(best.first());
            if position.winner() == Some(solver) {
                captured = true;
                break;
            }
            let reply = self.probe.best(&position).ok_or(Refusal::Drawn)?;
            let _ = position.make(reply.first());
            line.push(reply.first());
            leads.push(balance(position.board(), solver));
            if position.is_over() {
                // The solver's captain taken: its move did not win after all.
                return Err(Refusal::NotWinning);
            }
        }
        if line.len().is_multiple_of(2) {
            line.pop();
        }
        if !captured {
            let start_lead = balance(start.board(), solver);
            let cashed = leads.iter().position(|&lead| lead - start_lead >= self.criteria.material);
            let Some(index) = cashed else { return Err(Refusal::NoMaterial) };
            line.truncate(2 * index + 1);
        }
        let themes = themes::themes(start, &line);
        let solver_moves = line.len().div_ceil(2);
        let first_quiet = start.piece_at(line[0].to).is_none();
        Ok(Puzzle {
            id: Puzzle::id_of(start),
            fen: start.fen().to_string(),
            rating: rating(found_at, solver_moves, first_quiet),
            solution: line,
            themes,
            origin,
        })
    }

    /// Checks `puzzle` again with this verifier's searches: every move of the solver must be the
    /// only winning one ([`Verifier::only_move`]), and the last must capture the captain or leave
    /// the solver the material the criteria ask. Says what fails.
    pub fn check(&mut self, puzzle: &Puzzle) -> Result<(), String> {
        let mut position = puzzle.position().map_err(|error| format!("its FEN: {error}"))?;
        let solver = position.turn();
        let start_lead = balance(position.board(), solver);
        self.probe.new_game();
        for (index, &mv) in puzzle.solution.iter().enumerate() {
            if !position.is_legal(mv) {
                return Err(format!("move {}: {mv} is not a valid move", index + 1));
            }
            if index % 2 == 0 {
                match self.only_move(&position) {
                    Ok((best, _)) if best.first() == mv => {}
                    Ok((best, _)) => {
                        return Err(format!(
                            "move {}: the only winning move is {}, not {mv}",
                            index + 1,
                            best.first()
                        ));
                    }
                    Err(refusal) => return Err(format!("move {}: {refusal}", index + 1)),
                }
            }
            let _ = position.make(mv);
        }
        if position.winner() == Some(solver) {
            return Ok(());
        }
        let reply = self.probe.best(&position);
        let mut after = position.clone();
        if let Some(reply) = reply {
            let _ = after.make(reply.first());
        }
        let gain = balance(after.board(), solver) - start_lead;
        if gain < self.criteria.material {
            return Err(format!("the line wins {gain} centipawns of material"));
        }
        Ok(())
    }
}

/// A puzzle's starting rating: 600, plus 120 for each ply of depth the search needed before it
/// kept preferring the first move, plus 150 for each move of the solver after the first, plus 150
/// when the first move captures nothing; between 400 and 2,800, rounded to tens. Players'
/// results then move it (Glicko-2 on the server).
pub fn rating(depth_found: u32, solver_moves: usize, first_quiet: bool) -> u32 {
    let raw = 600
        + 120 * depth_found.min(20) as i64
        + 150 * (solver_moves.saturating_sub(1).min(10)) as i64
        + if first_quiet { 150 } else { 0 };
    (raw.clamp(400, 2800) as u32 / 10) * 10
}

/// A game to mine: its name, where it starts and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinedGame {
    /// The game's name, for the puzzles' origin.
    pub name: String,
    /// Where it starts.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
    /// What the searches that played the game found, when the miner played it: `hints[i]` is
    /// the score of the side to move before move `i` (`None` for a random move). The scan
    /// skips a position whose hint is below [`HINT`]: the game's own short search already saw
    /// no win there.
    pub hints: Vec<Option<Score>>,
}

/// The least expected score a position's hint must show for the scan to search it.
pub const HINT: f64 = 0.7;

/// How much a side's hint must have grown since its previous move for the scan to search the
/// position again: a won game stays won for many moves, and its puzzle is where it was won.
pub const HINT_RISE: f64 = 0.1;

/// Whether the scan searches the position before move `ply`: always, where nobody searched it;
/// else when its hint is at least [`HINT`] and either rose [`HINT_RISE`] since the side's
/// previous move or turned into a forced capture.
fn worth_a_scan(hints: &[Option<Score>], ply: usize) -> bool {
    let Some(now) = hints.get(ply).copied().flatten() else { return true };
    if expected(now) < HINT {
        return false;
    }
    let Some(before) = ply.checked_sub(2).and_then(|p| hints.get(p).copied().flatten()) else {
        return true;
    };
    (is_win(now) && !is_win(before)) || expected(now) - expected(before) >= HINT_RISE
}

/// How the miner plays its own games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Play {
    /// The first game's seed: game `g` draws its random moves from `seed + g`.
    pub seed: u64,
    /// Random plies at the start.
    pub random_plies: u32,
    /// The share of the later moves played at random instead of searched (0 to 1): the
    /// mistakes that leave tactics for the other side.
    pub blunders: f64,
}

/// Plays self-play game `number` for mining: `play.random_plies` random plies, then each side
/// searches `probe`'s nodes a move (from a cleared table), except that a share `play.blunders`
/// of the moves is played at random; to the end or the ply cap. Few nodes and a few random
/// moves make a weak game, whose mistakes leave tactics on the board.
pub fn play_game(probe: &mut Probe, play: &Play, number: u64) -> MinedGame {
    probe.new_game();
    let start = Position::new();
    let mut position = start.clone();
    let seed = play.seed.wrapping_add(number);
    let mut random = RandomMover::new(seed);
    let mut coin = Xoshiro256PlusPlus::seed_from_u64(seed);
    // A share as a threshold on 53-bit draws.
    let threshold = (play.blunders.clamp(0.0, 1.0) * (1u64 << 53) as f64) as u64;
    let (mut moves, mut hints) = (Vec::new(), Vec::new());
    while position.outcome_after(moves.len(), MAX_PLIES).is_none() && !probe.stopped() {
        let blunder = coin.next_u64() >> 11 < threshold;
        let (mv, hint) = if moves.len() < play.random_plies as usize || blunder {
            (random.choose(&position), None)
        } else {
            match probe.best(&position) {
                Some(line) => (Some(line.first()), Some(line.score)),
                None => (None, None),
            }
        };
        let Some(mv) = mv else { break };
        let _ = position.make(mv);
        moves.push(mv);
        hints.push(hint);
    }
    MinedGame { name: format!("selfplay:{}:{number}", play.seed), start, moves, hints }
}

/// The plies (positions, counted in moves from the start) of `game` where a short search with
/// `scan` already sees one winning move: the side to move's best move keeps an expected score of
/// at least [`Criteria::win`], and the best other move neither captures the captain by force nor
/// comes within [`Criteria::margin`] of it. The deep searches then decide.
pub fn candidates(scan: &mut Probe, game: &MinedGame, criteria: &Criteria) -> Vec<usize> {
    scan.new_game();
    let mut position = game.start.clone();
    let mut found = Vec::new();
    for ply in 0..=game.moves.len() {
        if scan.stopped() {
            break;
        }
        if !worth_a_scan(&game.hints, ply) {
            if let Some(&mv) = game.moves.get(ply) {
                let _ = position.make(mv);
            }
            continue;
        }
        if let Some(best) = scan.best(&position) {
            let value = expected(best.score);
            if value >= criteria.win {
                let unique = match scan.best_except(&position, &[best.first()]) {
                    None => true,
                    Some(second) => {
                        !is_win(second.score) && value - expected(second.score) >= criteria.margin
                    }
                };
                if unique {
                    found.push(ply);
                }
            }
        }
        if let Some(&mv) = game.moves.get(ply) {
            let _ = position.make(mv);
        }
    }
    found
}

/// What mining one game found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mined {
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
    /// The candidates tried.
    pub candidates: usize,
    /// Why the others were dropped, by reason.
    pub refused: Vec<(Refusal, usize)>,
}

/// Mines one game: the candidates `scan` finds, each verified, skipping those inside a puzzle
/// already found; with a `confirmer`, each puzzle is checked again by its deeper searches
/// ([`Verifier::check`]) and kept only if it passes.
pub fn mine_game(
    verifier: &mut Verifier,
    mut confirmer: Option<&mut Verifier>,
    scan: &mut Probe,
    game: &MinedGame,
) -> Mined {
    let mut mined = Mined::default();
    let mut refused = std::collections::BTreeMap::new();
    let mut position = game.start.clone();
    let mut ply = 0;
    let mut covered_until = 0;
    for candidate in candidates(scan, game, &verifier.criteria) {
        if candidate < covered_until {
            continue;
        }
        while ply < candidate {
            let _ = position.make(game.moves[ply]);
            ply += 1;
        }
        mined.candidates += 1;
        let origin = Origin { game: game.name.clone(), ply };
        let solved = verifier.solve(&position, Some(origin)).and_then(|puzzle| {
            match confirmer.as_deref_mut().map(|confirmer| confirmer.check(&puzzle)) {
                Some(Err(_)) => Err(Refusal::NotConfirmed),
                _ => Ok(puzzle),
            }
        });
        match solved {
            Ok(puzzle) => {
                covered_until = ply + puzzle.solution.len();
                mined.puzzles.push(puzzle);
            }
            Err(refusal) => *refused.entry(refusal).or_insert(0) += 1,
        }
    }
    mined.refused = refused.into_iter().collect();
    mined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_game_is_scanned_where_it_was_won_not_at_every_move_after() {
        let (even, won) = (Some(Score::Centipawns(0)), Some(Score::Centipawns(2_000)));
        // Ply 2 is where red's chance appeared; ply 4 is the same chance a move later.
        let hints = [even, even, won, even, won, even, Some(Score::Mate(2)), None];
        let scanned: Vec<usize> =
            (0..hints.len()).filter(|&ply| worth_a_scan(&hints, ply)).collect();
        // Ply 6 turned a won game into a forced capture; ply 7 nobody searched.
        assert_eq!(scanned, [2, 6, 7]);
    }

    #[test]
    fn a_captain_left_on_a_line_is_a_capture_in_one() {
        // Red takes the captain on e10 up the e-file, or blue's car on d9 takes red's on d1.
        let start: Position = "4c4/3r5/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let mut verifier = Verifier::new(Criteria { nodes: 5_000, ..Criteria::default() });
        let puzzle = verifier.solve(&start, None).unwrap();
        assert_eq!(puzzle.solution, ["e2e10".parse().unwrap()]);
        assert_eq!(puzzle.themes[0], crate::puzzle::Theme::CaptureIn(1));
        assert_eq!(verifier.check(&puzzle), Ok(()));
    }

    #[test]
    fn two_ways_to_take_the_captain_are_not_a_puzzle() {
        // The captain on e10 falls to the car on e2 up the file and to the car on a10 along
        // the tenth rank (and blue's car on d9 would take red's captain on d1).
        let start: Position = "R3c4/3r5/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let mut verifier = Verifier::new(Criteria { nodes: 5_000, ..Criteria::default() });
        assert_eq!(verifier.solve(&start, None).unwrap_err(), Refusal::NotUnique);
    }

    #[test]
    fn the_start_is_no_puzzle() {
        let mut verifier = Verifier::new(Criteria { nodes: 5_000, ..Criteria::default() });
        assert_eq!(verifier.solve(&Position::new(), None).unwrap_err(), Refusal::NotWinning);
    }

    #[test]
    fn a_game_that_leaves_a_captain_open_has_a_candidate_there() {
        // Red's car takes the captain on e10 up the e-file, and blue's car on d9 would take
        // red's captain: after one quiet move each, red's chance is still there.
        let start: Position = "4c4/3r5/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        let game = MinedGame { name: "test".into(), start, moves: Vec::new(), hints: Vec::new() };
        let criteria = Criteria { nodes: 5_000, ..Criteria::default() };
        assert_eq!(candidates(&mut Probe::new(2_000), &game, &criteria), [0]);
        let mut verifier = Verifier::new(criteria);
        let mut confirmer = Verifier::new(Criteria { nodes: 10_000, ..Criteria::default() });
        let mined = mine_game(&mut verifier, Some(&mut confirmer), &mut Probe::new(2_000), &game);
        assert_eq!(mined.candidates, 1);
        assert_eq!(mined.puzzles.len(), 1);
        assert_eq!(mined.puzzles[0].origin.as_ref().unwrap().ply, 0);
    }

    #[test]
    fn ratings_grow_with_depth_and_length() {
        assert_eq!(rating(1, 1, false), 720);
        assert!(rating(6, 1, false) > rating(3, 1, false));
        assert!(rating(3, 3, false) > rating(3, 1, false));
        assert_eq!(rating(40, 40, true), 2800);
    }
}
