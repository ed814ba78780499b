//! Games left alone leave memory: many games created and abandoned keep the number in memory
//! bounded, and a game dropped comes back from the store as it stood, its clocks honest.

use arbiter_live::{Action, Games, New, Seat, SqliteStore, TimeControl};

/// Ten minutes, in ms: how long a game may go unused before it is dropped, in these tests.
const IDLE: u64 = 10 * 60 * 1000;

fn red(time: Option<TimeControl>) -> New {
    New { name: "Ann".into(), seat: Some(Seat::Red), time }
}

fn mv(command: &str) -> Action {
    Action::Move { command: command.to_owned() }
}

#[test]
fn games_created_and_left_stay_bounded_in_memory() {
    let games = Games::new(SqliteStore::memory().unwrap());
    let mut most = 0;
    // A game a second for an hour and a half, each left at once; looked over every minute.
    for second in 0..5_400u64 {
        let now = second * 1_000;
        games.create(New::default(), now).unwrap();
        if second % 60 == 0 {
            games.forget_idle(now, IDLE, |_| false);
        }
        most = most.max(games.kept());
    }
    // Ten minutes of games, and at most one minute more waiting for the next look.
    assert!(most <= 660, "{most} games in memory");
    assert_eq!(
        games.list(&Default::default(), arbiter_live::Page { offset: 0, limit: 1 }).unwrap().1,
        5_400
    );
}

#[test]
fn a_dropped_game_is_read_back_as_it_stood_and_goes_on() {
    let games = Games::new(SqliteStore::memory().unwrap());
    let created = games.create(red(None), 1_000).unwrap();
    let (id, ann, bob) = (created.id, created.token, created.invite);
    games.act(&id, &bob, Action::Join { name: "Bob".into() }, 2_000).unwrap();
    games.act(&id, &ann, mv("0 3 1 4"), 3_000).unwrap();
    games.act(&id, &bob, Action::OfferDraw, 4_000).unwrap();
    let before = games.view(&id, 5_000).unwrap();
    // Used a moment ago: kept. Watched: kept.
    assert_eq!(games.forget_idle(5_000 + IDLE - 1, IDLE, |_| false), 0);
    assert_eq!(games.forget_idle(5_000 + IDLE, IDLE, |seen| *seen == id), 0);
    assert_eq!(games.forget_idle(5_000 + IDLE, IDLE, |_| false), 1);
    assert_eq!(games.kept(), 0);
    let after = games.view(&id, 5_000 + IDLE).unwrap();
    assert_eq!(
        (after.version, &after.commands, after.draw_offer, &after.fen),
        (before.version, &before.commands, before.draw_offer, &before.fen)
    );
    games.act(&id, &bob, mv("9 4 8 4"), 5_000 + IDLE + 500).unwrap();
    assert_eq!(games.view(&id, 5_000 + IDLE + 600).unwrap().commands, ["0 3 1 4", "9 4 8 4"]);
}

#[test]
fn a_game_whose_clock_runs_is_kept_until_its_flag_falls_then_ended_and_dropped() {
    let games = Games::new(SqliteStore::memory().unwrap());
    let time = Some(TimeControl { initial_ms: 30 * 60 * 1000, increment_ms: 0 });
    let created = games.create(red(time), 0).unwrap();
    let (id, ann, bob) = (created.id, created.token, created.invite);
    games.act(&id, &ann, mv("0 3 1 4"), 1_000).unwrap();
    // Both sides have moved: red's clock runs from 2 s, with 30 minutes left.
    games.act(&id, &bob, mv("9 4 8 4"), 2_000).unwrap();
    // Unused for long enough, but the clock runs: read back, it would restart at the reload,
    // so it is kept while time is left.
    assert_eq!(games.forget_idle(2_000 + IDLE, IDLE, |_| false), 0);
    let fallen = 2_000 + 30 * 60 * 1000;
    assert_eq!(games.forget_idle(fallen - 1, IDLE, |_| false), 0);
    // Its flag has fallen: the game is ended, committed, and dropped.
    assert_eq!(games.forget_idle(fallen, IDLE, |_| false), 1);
    assert_eq!(games.kept(), 0);
    let view = games.view(&id, fallen + IDLE).unwrap();
    let end = view.end.expect("ended on time");
    assert_eq!((end.winner, end.reason), (Some(Seat::Blue), "time"));
    assert_eq!(view.clocks.map(|c| (c.red_ms, c.blue_ms)), Some((0, 30 * 60 * 1000)));
}
