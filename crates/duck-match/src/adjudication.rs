//! Ending a game early by the engines' own scores, as cutechess does: a side that keeps
//! scoring itself lost resigns, and a game both sides keep scoring level is drawn.
//!
//! ```
//! use arbiter_duck::Color;
//! use arbiter_duck_match::adjudication::{Adjudication, Adjudicator, DrawRule, ResignRule, Verdict};
//! use arbiter_duck_protocol::Score;
//!
//! let rules = Adjudication {
//!     resign: Some(ResignRule { score: 500, moves: 2 }),
//!     draw: Some(DrawRule { score: 10, moves: 2, after: 0 }),
//! };
//! let mut judge = Adjudicator::new(&rules);
//! // Blue scores itself 6 soldiers down twice in a row: it resigns.
//! assert_eq!(judge.after_move(Color::Red, Some(Score::Centipawns(600)), 1), None);
//! assert_eq!(judge.after_move(Color::Blue, Some(Score::Centipawns(-600)), 2), None);
//! assert_eq!(judge.after_move(Color::Red, Some(Score::Centipawns(650)), 3), None);
//! assert_eq!(
//!     judge.after_move(Color::Blue, Some(Score::Mate(-4)), 4),
//!     Some(Verdict::Resign { loser: Color::Blue, rule: rules.resign.unwrap() })
//! );
//! ```
//!
//! - **Resignation** (`--resign-score CP --resign-moves N`): a side whose own score is at or
//!   below −CP hundredths of a soldier after each of N consecutive moves of its own loses: only
//!   the loser's scores count (cutechess's default, not its `twosided` rule). A score of being
//!   mated counts as below any bound, a score of mating as above.
//! - **Draw** (`--draw-score CP --draw-moves N --draw-after PLIES`): once PLIES plies have been
//!   played (the opening's included), a game in which both sides' scores stay within ±CP for N
//!   consecutive moves of each (2N plies in a row) is drawn. A mate score ends the run.
//!
//! A move without a score (the engine wrote no `info ... score`) ends either run.

use arbiter_duck::Color;
use arbiter_duck_protocol::Score;

/// When a side resigns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResignRule {
    /// The bound, in hundredths of a soldier: a side resigns at −`score` or below.
    pub score: i32,
    /// How many of its moves in a row.
    pub moves: u32,
}

/// When a game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawRule {
    /// The bound, in hundredths of a soldier: both scores within ±`score`.
    pub score: i32,
    /// How many moves of each side in a row.
    pub moves: u32,
    /// The plies played (the opening's included) before moves count.
    pub after: u32,
}

/// The adjudication rules of a match; none by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// When a side resigns.
    pub resign: Option<ResignRule>,
    /// When a game is drawn.
    pub draw: Option<DrawRule>,
}

/// What the scores decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `loser` resigns by `rule`.
    Resign {
        /// The side that scored itself lost.
        loser: Color,
        /// The rule it met.
        rule: ResignRule,
    },
    /// The game is drawn by the rule.
    Draw(DrawRule),
}

/// The runs of scores during one game.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Each side's moves in a row at or below the resignation bound.
    resign_run: [u32; 2],
    /// Plies in a row within the draw bound.
    draw_run: u32,
}

impl Adjudicator {
    /// A game's adjudicator, with no runs yet.
    pub fn new(rules: &Adjudication) -> Adjudicator {
        Adjudicator { rules: *rules, resign_run: [0; 2], draw_run: 0 }
    }

    /// Counts a move of `side`, scored `score` by its engine, that brought the game to `plies`
    /// plies; the verdict if the runs decide the game.
    pub fn after_move(
        &mut self,
        side: Color,
        score: Option<Score>,
        plies: usize,
    ) -> Option<Verdict> {
        if let Some(rule) = self.rules.resign {
            let lost = match score {
                Some(Score::Centipawns(cp)) => cp <= -rule.score,
                Some(Score::Mate(moves)) => moves < 0,
                None => false,
            };
            let run = &mut self.resign_run[side.index()];
            *run = if lost { *run + 1 } else { 0 };
            if *run >= rule.moves {
                return Some(Verdict::Resign { loser: side, rule });
            }
        }
        if let Some(rule) = self.rules.draw {
            let level = matches!(score, Some(Score::Centipawns(cp)) if cp.abs() <= rule.score);
            let counts = plies > rule.after as usize;
            self.draw_run = if level && counts { self.draw_run + 1 } else { 0 };
            if self.draw_run >= rule.moves.saturating_mul(2) {
                return Some(Verdict::Draw(rule));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Color = Color::Red;
    const BLUE: Color = Color::Blue;

    fn cp(value: i32) -> Option<Score> {
        Some(Score::Centipawns(value))
    }

    #[test]
    fn only_the_losers_own_scores_make_it_resign() {
        let rules = Adjudication { resign: Some(ResignRule { score: 300, moves: 3 }), draw: None };
        let mut judge = Adjudicator::new(&rules);
        // Red thinks itself lost twice, then not: the run starts again.
        for (side, score) in [(RED, cp(-300)), (BLUE, cp(0)), (RED, cp(-900)), (BLUE, cp(0))] {
            assert_eq!(judge.after_move(side, score, 10), None);
        }
        assert_eq!(judge.after_move(RED, cp(-299), 10), None);
        // Blue's opinion of red does not count, nor does a move without a score.
        for (side, score) in [(BLUE, cp(900)), (RED, cp(-400)), (BLUE, None), (RED, None)] {
            assert_eq!(judge.after_move(side, score, 10), None);
        }
        for _ in 0..2 {
            assert_eq!(judge.after_move(RED, cp(-400), 10), None);
        }
        assert_eq!(
            judge.after_move(RED, Some(Score::Mate(-1)), 10),
            Some(Verdict::Resign { loser: RED, rule: rules.resign.unwrap() })
        );
        let mut judge = Adjudicator::new(&rules);
        for _ in 0..5 {
            assert_eq!(judge.after_move(BLUE, Some(Score::Mate(2)), 10), None);
        }
    }

    #[test]
    fn a_level_game_is_drawn_after_both_sides_agree() {
        let rules =
            Adjudication { resign: None, draw: Some(DrawRule { score: 20, moves: 2, after: 4 }) };
        let mut judge = Adjudicator::new(&rules);
        // Plies 1 to 4 do not count, however level.
        for ply in 1..=4 {
            let side = if ply % 2 == 1 { RED } else { BLUE };
            assert_eq!(judge.after_move(side, cp(0), ply), None);
        }
        assert_eq!(judge.after_move(RED, cp(20), 5), None);
        assert_eq!(judge.after_move(BLUE, cp(-20), 6), None);
        assert_eq!(judge.after_move(RED, cp(21), 7), None, "out of bounds: the run ends");
        assert_eq!(judge.after_move(BLUE, cp(3), 8), None);
        assert_eq!(judge.after_move(RED, cp(3), 9), None);
        assert_eq!(judge.after_move(BLUE, Some(Score::Mate(9)), 10), None);
        for ply in 11..=13 {
            let side = if ply % 2 == 1 { RED } else { BLUE };
            assert_eq!(judge.after_move(side, cp(0), ply), None);
        }
        assert_eq!(judge.after_move(BLUE, cp(0), 14), Some(Verdict::Draw(rules.draw.unwrap())));
    }
}
