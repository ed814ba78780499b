//! The authority and its SQLite store: games created, played, reloaded from disk, refused
//! actions that change nothing, offers, takebacks, clocks, and concurrent moves serialised.

use std::sync::Arc;

use arbiter_live::{
    Action, Filter, Games, LiveError, New, Page, Refusal, Seat, SqliteStore, Store, TimeControl,
};

fn mv(command: &str) -> Action {
    Action::Move { command: command.to_owned() }
}

/// A temporary data directory, removed at the end.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("arbiter-live-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A game with red held by the creator: (games, id, red token, blue token).
fn red_game<S: Store>(
    games: &Games<S>,
    time: Option<TimeControl>,
) -> (arbiter_live::GameId, String, String) {
    let created =
        games.create(New { name: "Ann".into(), seat: Some(Seat::Red), time }, 1_000).unwrap();
    assert_eq!(created.seat, Seat::Red);
    (created.id, created.token, created.invite)
}

#[test]
fn a_game_is_played_and_reloads_from_disk_as_it_stood() {
    let dir = TempDir::new("reload");
    let (id, red, blue) = {
        let games = Games::new(SqliteStore::open(&dir.0).unwrap());
        let (id, red, blue) = red_game(&games, None);
        games.act(&id, &blue, Action::Join { name: " Bob\u{7} ".into() }, 1_500).unwrap();
        games.act(&id, &red, mv("0 3 1 4"), 2_000).unwrap();
        games.act(&id, &blue, mv("9 4 8 4"), 2_600).unwrap();
        games.act(&id, &red, Action::OfferDraw, 2_700).unwrap();
        (id, red, blue)
    };
    let games = Games::new(SqliteStore::open(&dir.0).unwrap());
    let view = games.view(&id, 10_000).unwrap();
    assert_eq!(view.commands, ["0 3 1 4", "9 4 8 4"]);
    assert_eq!(view.moves[0].took_ms, 1_000);
    assert_eq!(view.moves[1].took_ms, 600);
    assert_eq!((view.red.as_deref(), view.blue.as_deref()), (Some("Ann"), Some("Bob")));
    assert_eq!(view.draw_offer, Some(Seat::Red));
    assert_eq!(view.turn, Seat::Red);
    let view = games.act(&id, &blue, Action::AcceptDraw, 11_000).unwrap();
    assert_eq!(view.end.as_ref().map(|e| e.reason), Some("agreement"));
    let (official, fen) = games.export(&id, 11_000).unwrap();
    assert_eq!(official, "2\n0 3 1 4\n9 4 8 4\n");
    assert_eq!(fen, view.fen);
    assert!(matches!(
        games.act(&id, &red, mv("1 4 2 4"), 12_000),
        Err(LiveError::Refused(Refusal::Over))
    ));
}

#[test]
fn refused_actions_change_nothing() {
    let games = Games::new(SqliteStore::memory().unwrap());
    let (id, red, blue) = red_game(&games, None);
    let before = games.view(&id, 0).unwrap();
    let refusals = [
        games.act(&id, &blue, mv("9 4 8 4"), 1),
        games.act(&id, &red, mv("0 0 7 0"), 1),
        games.act(&id, &red, mv("garbage"), 1),
        games.act(&id, &red, Action::AcceptDraw, 1),
        games.act(&id, &red, Action::RequestTakeback, 1),
        games.act(&id, "not a token", mv("0 3 1 4"), 1),
        games.act(&id, &red, Action::Join { name: "again".into() }, 1),
    ];
    assert!(matches!(refusals[0], Err(LiveError::Refused(Refusal::NotYourTurn(Seat::Red)))));
    assert!(matches!(refusals[1], Err(LiveError::Refused(Refusal::Invalid(_)))));
    assert!(matches!(refusals[2], Err(LiveError::Refused(Refusal::Malformed))));
    assert!(matches!(refusals[5], Err(LiveError::NotASeat)));
    assert!(refusals.iter().all(Result::is_err));
    let after = games.view(&id, 0).unwrap();
    assert_eq!(after.version, before.version);
    assert!(after.commands.is_empty());
    let missing = arbiter_live::GameId::parse("0000000000").unwrap();
    assert!(matches!(games.view(&missing, 0), Err(LiveError::NotFound)));
}

#[test]
fn a_takeback_removes_the_askers_last_move_and_the_reply() {
    let games = Games::new(SqliteStore::memory().unwrap());
    let (id, red, blue) = red_game(&games, None);
    games.act(&id, &red, mv("0 3 1 4"), 1).unwrap();
    games.act(&id, &blue, mv("9 4 8 4"), 2).unwrap();
    games.act(&id, &red, Action::RequestTakeback, 3).unwrap();
    assert!(games.act(&id, &red, Action::AcceptTakeback, 4).is_err());
    let view = games.act(&id, &blue, Action::AcceptTakeback, 4).unwrap();
    assert!(view.commands.is_empty());
    assert_eq!(view.turn, Seat::Red);
    assert_eq!(view.takeback, None);
    games.act(&id, &red, mv("0 3 1 4"), 5).unwrap();
    let view = games.act(&id, &blue, Action::Resign, 6).unwrap();
    let end = view.end.unwrap();
    assert_eq!((end.winner, end.reason), (Some(Seat::Red), "resign"));
    assert_eq!(end.text, "red wins: blue resigned");
}

#[test]
fn a_clock_that_runs_out_ends_the_game_and_restarts_resume_it() {
    let dir = TempDir::new("clock");
    let time = Some(TimeControl { initial_ms: 60_000, increment_ms: 2_000 });
    let (id, red, blue) = {
        let games = Games::new(SqliteStore::open(&dir.0).unwrap());
        let (id, red, blue) = red_game(&games, time);
        games.act(&id, &red, mv("0 3 1 4"), 5_000).unwrap();
        // The clocks start once both sides have moved.
        let view = games.act(&id, &blue, mv("9 4 8 4"), 50_000).unwrap();
        let clocks = view.clocks.unwrap();
        assert_eq!(
            (clocks.red_ms, clocks.blue_ms, clocks.running),
            (62_000, 62_000, Some(Seat::Red))
        );
        let clocks = games.view(&id, 60_000).unwrap().clocks.unwrap();
        assert_eq!(clocks.red_ms, 52_000);
        (id, red, blue)
    };
    // Down from 60 s to 1,000 s: that time is not charged; the turn restarts on reload.
    let games = Games::new(SqliteStore::open(&dir.0).unwrap());
    let clocks = games.view(&id, 1_000_000).unwrap().clocks.unwrap();
    assert_eq!(clocks.red_ms, 62_000);
    assert_eq!(games.deadline(&id, 1_000_000).unwrap(), Some(1_062_000));
    let refused = games.act(&id, &red, mv("1 4 2 4"), 1_062_000);
    assert!(matches!(refused, Err(LiveError::Refused(Refusal::Over))));
    let view = games.view(&id, 1_062_001).unwrap();
    let end = view.end.unwrap();
    assert_eq!((end.winner, end.reason), (Some(Seat::Blue), "time"));
    assert_eq!(view.commands.len(), 2);
    // The fallen clock stays at zero, in memory and on disk.
    assert_eq!(view.clocks.unwrap().red_ms, 0);
    let reloaded = Games::new(SqliteStore::open(&dir.0).unwrap());
    assert_eq!(reloaded.view(&id, 2_000_000).unwrap().clocks.unwrap().red_ms, 0);
    drop(blue);
    let (listed, total) = games.list(&Filter::default(), Page { offset: 0, limit: 10 }).unwrap();
    assert_eq!(total, 1);
    assert_eq!(listed[0].reason.as_deref(), Some("time"));
}

#[test]
fn concurrent_moves_on_one_game_are_serialised() {
    let dir = TempDir::new("concurrent");
    let games = Arc::new(Games::new(SqliteStore::open(&dir.0).unwrap()));
    let (id, red, _) = red_game(&games, None);
    // Eight threads send red's first move at once: exactly one is played.
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let (games, id, red) = (Arc::clone(&games), id.clone(), red.clone());
            std::thread::spawn(move || games.act(&id, &red, mv("0 3 1 4"), 10 + i).is_ok())
        })
        .collect();
    let played = handles.into_iter().map(|h| h.join().unwrap()).filter(|&ok| ok).count();
    assert_eq!(played, 1);
    drop(games);
    let games = Games::new(SqliteStore::open(&dir.0).unwrap());
    assert_eq!(games.view(&id, 100).unwrap().commands, ["0 3 1 4"]);
}

#[test]
fn the_listing_pages_and_filters() {
    let games = Games::new(SqliteStore::memory().unwrap());
    for (i, name) in ["Ann", "Bob", "ann_b", "100%"].iter().enumerate() {
        games
            .create(New { name: (*name).into(), seat: Some(Seat::Blue), time: None }, i as u64)
            .unwrap();
    }
    let all = Filter::default();
    let (page, total) = games.list(&all, Page { offset: 0, limit: 3 }).unwrap();
    assert_eq!((page.len(), total), (3, 4));
    assert_eq!(page[0].blue.as_deref(), Some("100%"));
    let (page, _) = games.list(&all, Page { offset: 3, limit: 3 }).unwrap();
    assert_eq!(page[0].blue.as_deref(), Some("Ann"));
    let ann = Filter { player: Some("ANN".into()), ..Filter::default() };
    assert_eq!(games.list(&ann, Page { offset: 0, limit: 10 }).unwrap().1, 2);
    let percent = Filter { player: Some("%".into()), ..Filter::default() };
    assert_eq!(games.list(&percent, Page { offset: 0, limit: 10 }).unwrap().1, 1);
    let over = Filter { status: Some("over".into()), ..Filter::default() };
    assert_eq!(games.list(&over, Page { offset: 0, limit: 10 }).unwrap().1, 0);
}

#[test]
fn stores_opened_at_once_on_a_new_directory_all_open_it() {
    let dir = TempDir::new("at-once");
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let dir = dir.0.clone();
            std::thread::spawn(move || {
                SqliteStore::open(&dir).map(|_| ()).map_err(|e| e.to_string())
            })
        })
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), Ok(()));
    }
}
