//! A match's running totals, from the first engine's point of view: wins, draws and losses game
//! by game (trinomial), and game pairs by the points the first engine scored in them
//! (pentanomial).
//!
//! ```
//! use arbiter_duck_match::tally::{Points, Tally};
//!
//! let mut tally = Tally::default();
//! // One opening, both colours: a win and a draw for the first engine. Each game counts as it
//! // ends; the pair counts once both have.
//! tally.add_game(Points::Win);
//! tally.add_game(Points::Draw);
//! tally.complete_pair(Points::Win, Points::Draw);
//! // A game whose partner is never played (the match stopped) counts game by game only.
//! tally.add_game(Points::Loss);
//! assert_eq!((tally.games.wins, tally.games.draws, tally.games.losses), (1, 1, 1));
//! assert_eq!(tally.pairs.0, [0, 0, 0, 1, 0]);
//! assert_eq!(tally.points(), 1.5);
//! ```

/// What one game is worth to the first engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Points {
    /// 0 points.
    Loss,
    /// ½ point.
    Draw,
    /// 1 point.
    Win,
}

impl Points {
    /// The points in halves: 0, 1 or 2.
    pub fn halves(self) -> usize {
        match self {
            Points::Loss => 0,
            Points::Draw => 1,
            Points::Win => 2,
        }
    }

    /// The same game seen by the other engine.
    pub fn reversed(self) -> Points {
        match self {
            Points::Loss => Points::Win,
            Points::Draw => Points::Draw,
            Points::Win => Points::Loss,
        }
    }
}

/// Games counted one by one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    /// Games the first engine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
}

impl Trinomial {
    /// What a loss, a draw and a win score.
    pub const SCORES: [f64; 3] = [0.0, 0.5, 1.0];

    /// Losses, draws and wins, in the order of [`SCORES`](Trinomial::SCORES).
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// The number of games.
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Game pairs counted by the first engine's points in the pair: index 0 for 0 points (two
/// losses), 1 for ½, 2 for 1 (two draws, or a win and a loss), 3 for 1½, 4 for 2 (two wins).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// What a pair in each class scores per game.
    pub const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// The number of pairs.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The totals of a match so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Every game counted, game by game.
    pub games: Trinomial,
    /// The complete pairs.
    pub pairs: Pentanomial,
}

impl Tally {
    /// Counts a game, game by game.
    pub fn add_game(&mut self, points: Points) {
        match points {
            Points::Loss => self.games.losses += 1,
            Points::Draw => self.games.draws += 1,
            Points::Win => self.games.wins += 1,
        }
    }

    /// Counts a pair whose two games have been counted with [`add_game`](Tally::add_game).
    pub fn complete_pair(&mut self, first: Points, second: Points) {
        self.pairs.0[first.halves() + second.halves()] += 1;
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        self.games.wins as f64 + self.games.draws as f64 / 2.0
    }
}
