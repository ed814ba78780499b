//! Learning from the Duck Chess engine: games analysed move by move, puzzles found in games, and
//! an explorer of the moves played from each position.
//!
//! The layers point one way: the rules ([`arbiter_duck`]) ← the search
//! ([`arbiter_duck_engine`]) ← this crate ← the front ends (the command line, the web app).
//!
//! - [`score`]: a score seen from red's side, and the expected score of the side to move, a
//!   logistic of the evaluation fitted to self-play results.
//! - [`mark`]: inaccuracy `?!`, mistake `?`, blunder `??` from the drop in expected score.
//! - [`accuracy`]: a move's and a side's accuracy, and the average loss, as lichess defines them.
//! - [`probe`]: the fixed-node searches everything here asks of the engine.
//! - [`analysis`]: a whole game analysed; [`report`]: the analysis as handed out, per command.
//! - [`puzzle`], [`themes`], [`mine`]: puzzles, what they are about, and how they are found and
//!   checked.
//! - [`explorer`]: the moves played from each position of a set of games.
//! - [`wire`]: how moves and sides are written in JSON.
//!
//! ```
//! use arbiter_duck::{Move, Position};
//! use arbiter_duck_learn::analysis::Analyser;
//! use arbiter_duck_learn::mark::Mark;
//!
//! // Red's soldier steps forward; blue's captain walks into the open where a soldier could
//! // follow. Every move is searched to 2,000 nodes.
//! let moves: Vec<Move> = ["e4e5", "e10e9"].iter().map(|m| m.parse().unwrap()).collect();
//! let analysis = Analyser::new(2_000).analyse(&Position::new(), &moves, |_, _| {}).unwrap();
//! for analysed in &analysis.moves {
//!     let mark = analysed.mark.map_or("", Mark::symbol);
//!     println!("{} {}{mark} (best {})", analysed.ply, analysed.played, analysed.best);
//! }
//! ```

#![warn(missing_docs)]

pub mod accuracy;
pub mod analysis;
pub mod explorer;
pub mod mark;
pub mod mine;
pub mod probe;
pub mod puzzle;
pub mod report;
pub mod score;
pub mod themes;
pub mod wire;
