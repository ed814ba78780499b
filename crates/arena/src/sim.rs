//! The round loop: the order of the steps within a round, and nothing else.
//!
//! ```
//! use arbiter_arena::io::parse_game;
//! use arbiter_arena::rules::Rules;
//! use arbiter_arena::sim::play;
//! use arbiter_scan::Scanner;
//!
//! // The statement's second sample game.
//! let text = "1 5 4 4\n0 0 0 0 0\n1 1 2 2 0 3 1 1 100 onepunch 1 2\n1 2 1 1 1 0 1 1 100 toolihai\n\
//!             1 3 1 1 1 0 1 1 100 toolihai\n1 4 2 1 1 0 1 1 100 toolihai\n";
//! let game = parse_game(&mut Scanner::new(text)).unwrap();
//! let outcome = play(&game, Rules::official()).unwrap();
//! assert_eq!(outcome.to_string(), "1 4\n1 2\n1 3\n1 4\n");
//! ```
//!
//! Within round H (docs/rules.md#order-within-a-round): (1) per piece, a dead piece whose
//! countdown reaches 0 respawns, then cooldown, silence and freeze count down and boosts cast at
//! H − l expire ([`crate::respawn`]); (2) the state is logged for backward ([`crate::state`]); (3) every
//! living, unfrozen piece moves or turns about ([`crate::movement`]); (4) skills in index order
//! ([`crate::cast`]); (5) fights, cell by cell ([`crate::fight`]).
//!
//! The state lives in [`crate::state`]; each step owns its scratch data, which the loop keeps
//! from round to round. The types of a game's result are re-exported here from where they live.

use crate::cast::CastScratch;
use crate::event::{Event, NoEvents, Sink};
use crate::fight::FightScratch;
use crate::game::Game;
use crate::grid::Pos;
use crate::rules::Rules;
use crate::state::Arena;

pub use crate::event::RoundState;
pub use crate::outcome::{Outcome, RunError};

/// Plays `game` under `rules`.
pub fn play(game: &Game, rules: Rules) -> Result<Outcome, RunError> {
    play_with(game, rules, NoEvents)
}

/// Plays `game` under `rules`, reporting every event to `sink`.
pub fn play_with<S: Sink>(game: &Game, rules: Rules, sink: S) -> Result<Outcome, RunError> {
    let mut arena = Arena::new(game, rules, sink);
    let mut casts = CastScratch::default();
    let mut fights = FightScratch::new(game.grid());
    arena.sink.round_end(&RoundState::new(0, &arena.pieces));
    for round in 1..=game.rounds() {
        play_round(&mut arena, &mut casts, &mut fights, round)?;
    }
    let positions: Vec<Pos> = arena.pieces.iter().map(|p| p.pos).collect();
    let end = positions.clone();
    arena.sink.emit(game.rounds(), || Event::End { positions: end });
    Ok(Outcome { matchings: arena.matchings, positions })
}

/// Round `round` of `arena`, its steps in order.
fn play_round<S: Sink>(
    arena: &mut Arena<'_, S>,
    casts: &mut CastScratch,
    fights: &mut FightScratch,
    round: u32,
) -> Result<(), RunError> {
    arena.round = round;
    // Steps (1) to (3) touch nothing but the piece itself (and the fixed board), so they run
    // piece by piece in one pass.
    let now = u64::from(round);
    for i in 0..arena.pieces.len() {
        if arena.rules.hist_pre {
            arena.log(i, now - 1);
        }
        let piece = &arena.pieces[i];
        if piece.respawn_round == now || piece.boosts.front() == Some(&now) {
            arena.count_down(i);
        }
        if !arena.rules.hist_pre {
            arena.log(i, now);
        }
        arena.step(i);
    }
    arena.cast_all(casts)?;
    arena.fights(fights);
    arena.sink.round_end(&RoundState::new(round, &arena.pieces));
    Ok(())
}
