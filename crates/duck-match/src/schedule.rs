//! Which engines meet in a match of more than two: a round robin or a gauntlet, as pairings.
//!
//! ```
//! use arbiter_duck_match::Schedule;
//!
//! assert_eq!(Schedule::RoundRobin.pairings(3), [[0, 1], [0, 2], [1, 2]]);
//! assert_eq!(Schedule::Gauntlet.pairings(3), [[0, 1], [0, 2]]);
//! // Two engines: one pairing either way.
//! assert_eq!(Schedule::Gauntlet.pairings(2), Schedule::RoundRobin.pairings(2));
//! ```

/// Which engines meet when there are more than two.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each other, the others not against each other.
    Gauntlet,
}

impl Schedule {
    /// The pairings of `engines` engines, each as its first and second engine (the first plays
    /// red in the odd games).
    pub fn pairings(self, engines: usize) -> Vec<[usize; 2]> {
        match self {
            Schedule::Gauntlet => (1..engines).map(|other| [0, other]).collect(),
            Schedule::RoundRobin => (0..engines)
                .flat_map(|first| (first + 1..engines).map(move |second| [first, second]))
                .collect(),
        }
    }
}
