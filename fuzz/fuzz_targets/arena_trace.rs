//! `arena trace` on arbitrary bytes: every game that reads is played with an event sink under
//! both rule presets and every event serialised as the trace writes it. No panic, and the `end`
//! event holds the positions the judge prints.
//!
//! A game plays at most [`PIECE_ROUNDS`] piece-rounds: a longer one is cut to its first rounds
//! (at least one). The property holds for a game of any length, and whole games are covered
//! elsewhere: `arena_judge` plays them to the end without the sink, and the arena's trace test
//! rebuilds every official game from its events. Without the cut the search drifts towards
//! 200 pieces playing 1000 rounds, a second an execution.

#![no_main]

use arbiter_arena::event::Event;
use arbiter_arena::game::Game;
use arbiter_arena::io::Games;
use arbiter_arena::rules::Rules;
use arbiter_arena::sim::{play, play_with};
use arbiter_scan::Scanner;
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 16 * 1024;

/// The most rounds × pieces one game of an input plays.
const PIECE_ROUNDS: usize = 2048;

/// `game`, cut to its first rounds when it is longer than [`PIECE_ROUNDS`].
fn cut(game: Game) -> Game {
    let rounds = (PIECE_ROUNDS / game.pieces().len()).max(1);
    if game.rounds() as usize <= rounds {
        return game;
    }
    Game::new(game.grid().clone(), game.pieces().to_vec(), rounds as i64)
        .expect("fewer rounds of a valid game make a valid game")
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let Ok(games) = Games::new(Scanner::new(&text)) else { return };
    for game in games {
        let Ok((_, game)) = game else { return };
        let game = cut(game);
        for rules in [Rules::official(), Rules::statement()] {
            let mut end = None;
            let mut line = Vec::new();
            serde_json::to_writer(&mut line, &Event::start(&game)).unwrap();
            let traced = play_with(&game, rules, |_round: u32, event: Event| {
                line.clear();
                serde_json::to_writer(&mut line, &event).unwrap();
                if let Event::End { positions } = event {
                    end = Some(positions);
                }
            });
            let judged = play(&game, rules);
            match (traced, judged) {
                (Ok(traced), Ok(judged)) => {
                    assert_eq!(traced, judged);
                    assert_eq!(end.as_ref(), Some(&judged.positions));
                }
                (Err(x), Err(y)) => assert_eq!(x, y),
                (x, y) => panic!("traced {x:?}, judged {y:?}"),
            }
        }
    }
});
