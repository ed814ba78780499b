//! The authority and its stores: games created, played, reloaded from the store, refused
//! actions that change nothing, offers, takebacks, clocks, and concurrent moves serialised. Each
//! test body runs on SQLite and on PostgreSQL (a private server, `support/postgres.rs`), and the
//! PostgreSQL store's own tests play one game through two authorities on one database, as two
//! servers do.

mod support;

use std::sync::Arc;
use std::time::Duration;

use arbiter_live::postgres::{Change, Listener};
use arbiter_live::{
    Action, Filter, Games, LiveError, New, Page, PostgresStore, Refusal, Seat, SqliteStore, Store,
    TimeControl,
};
use support::postgres::Server;

fn mv(command: &str) -> Action {
    Action::Move { command: command.to_owned() }
}

/// A temporary data directory, removed at the end.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("arbiter-live-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where a test's games are kept: each `open` is the store as a server starting then sees it.
trait Place: Sync {
    /// The store kept here.
    type Kept: Store;

    fn open(&self) -> Self::Kept;

    /// Whether its store is shared by several servers.
    fn shared(&self) -> bool {
        false
    }
}

/// A SQLite database in a directory.
struct SqliteDir(TempDir);

impl Place for SqliteDir {
    type Kept = SqliteStore;

    fn open(&self) -> SqliteStore {
        SqliteStore::open(&self.0.0).unwrap()
    }
}

/// A SQLite database in memory, new at each opening.
struct Memory;

impl Place for Memory {
    type Kept = SqliteStore;

    fn open(&self) -> SqliteStore {
        SqliteStore::memory().unwrap()
    }
}

/// A PostgreSQL database, by its URL.
struct Postgres(String);

impl Place for Postgres {
    type Kept = PostgresStore;

    fn open(&self) -> PostgresStore {
        PostgresStore::open(&self.0).unwrap()
    }

    fn shared(&self) -> bool {
        true
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

fn a_game_is_played_and_reloads_as_it_stood(place: &impl Place) {
    let (id, red, blue) = {
        let games = Games::new(place.open());
        let (id, red, blue) = red_game(&games, None);
        games.act(&id, &blue, Action::Join { name: " Bob\u{7} ".into() }, 1_500).unwrap();
        games.act(&id, &red, mv("0 3 1 4"), 2_000).unwrap();
        games.act(&id, &blue, mv("9 4 8 4"), 2_600).unwrap();
        games.act(&id, &red, Action::OfferDraw, 2_700).unwrap();
        (id, red, blue)
    };
    let games = Games::new(place.open());
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

fn refused_actions_change_nothing(place: &impl Place) {
    let games = Games::new(place.open());
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
        // Read as the judge reads it: a move off the board, not a malformed command.
        games.act(&id, &red, mv("99999999999999999999 0 0 0"), 1),
    ];
    assert!(matches!(refusals[0], Err(LiveError::Refused(Refusal::NotYourTurn(Seat::Red)))));
    assert!(matches!(refusals[1], Err(LiveError::Refused(Refusal::Invalid(_)))));
    assert!(matches!(refusals[2], Err(LiveError::Refused(Refusal::Malformed(_)))));
    assert!(
        matches!(&refusals[7], Err(LiveError::Refused(Refusal::Invalid(why))) if why.contains("off")),
        "{:?}",
        refusals[7]
    );
    assert!(matches!(refusals[5], Err(LiveError::NotASeat)));
    assert!(refusals.iter().all(Result::is_err));
    let after = games.view(&id, 0).unwrap();
    assert_eq!(after.version, before.version);
    assert!(after.commands.is_empty());
    let missing = arbiter_live::GameId::parse("0000000000").unwrap();
    assert!(matches!(games.view(&missing, 0), Err(LiveError::NotFound)));
}

fn a_takeback_removes_the_askers_last_move_and_the_reply(place: &impl Place) {
    let games = Games::new(place.open());
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

fn a_clock_that_runs_out_ends_the_game_and_restarts_resume_it(place: &impl Place) {
    let time = Some(TimeControl { initial_ms: 60_000, increment_ms: 2_000 });
    let (id, red, blue) = {
        let games = Games::new(place.open());
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
    let games = Games::new(place.open());
    if place.shared() {
        // Another server may have served the game all along: the turn that began at 50 s has
        // run on, and red's 62 s ran out at 112 s.
        let view = games.view(&id, 1_000_000).unwrap();
        let end = view.end.unwrap();
        assert_eq!((end.winner, end.reason), (Some(Seat::Blue), "time"));
        assert_eq!(view.clocks.unwrap().red_ms, 0);
        let refused = games.act(&id, &red, mv("1 4 2 4"), 1_000_001);
        assert!(matches!(refused, Err(LiveError::Refused(Refusal::Over))));
        return;
    }
    // Down from 60 s to 1,000 s: that time is not charged; the turn restarts on reload.
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
    drop(games);
    let games = Games::new(place.open());
    assert_eq!(games.view(&id, 2_000_000).unwrap().clocks.unwrap().red_ms, 0);
    drop(blue);
    let (listed, total) = games.list(&Filter::default(), Page { offset: 0, limit: 10 }).unwrap();
    assert_eq!(total, 1);
    assert_eq!(listed[0].reason.as_deref(), Some("time"));
}

/// A rematch is offered once the game is over, and agreed by the other seat: a new game with
/// the colours swapped, where each player's token holds the other colour, named by the old one
/// even after a restart.
fn a_rematch_swaps_the_colours_and_keeps_the_tokens(place: &impl Place) {
    let (old, new, red, blue) = {
        let games = Games::new(place.open());
        let time = Some(TimeControl { initial_ms: 60_000, increment_ms: 1_000 });
        let (id, red, blue) = red_game(&games, time);
        games.act(&id, &blue, Action::Join { name: "Bob".into() }, 1_100).unwrap();
        assert!(matches!(
            games.act(&id, &red, Action::OfferRematch, 1_200),
            Err(LiveError::Refused(Refusal::NotOver))
        ));
        games.act(&id, &red, mv("0 3 1 4"), 1_300).unwrap();
        games.act(&id, &blue, Action::Resign, 1_400).unwrap();
        assert!(matches!(
            games.act(&id, &blue, Action::AcceptRematch, 1_500),
            Err(LiveError::Refused(Refusal::NothingToAnswer(_)))
        ));
        let offered = games.act(&id, &blue, Action::OfferRematch, 1_600).unwrap();
        assert_eq!((offered.rematch_offer, offered.rematch.as_ref()), (Some(Seat::Blue), None));
        let agreed = games.act(&id, &red, Action::AcceptRematch, 1_700).unwrap();
        let new = agreed.rematch.clone().expect("the rematch is agreed");
        assert_eq!(agreed.rematch_offer, None);
        assert!(matches!(
            games.act(&id, &blue, Action::OfferRematch, 1_800),
            Err(LiveError::Refused(Refusal::Rematched(again))) if again == new
        ));
        (id, new, red, blue)
    };
    // Read back from the store, as after a restart.
    let games = Games::new(place.open());
    assert_eq!(games.view(&old, 2_000).unwrap().rematch, Some(new.clone()));
    let view = games.view(&new, 2_000).unwrap();
    assert_eq!((view.red.as_deref(), view.blue.as_deref()), (Some("Bob"), Some("Ann")));
    assert_eq!(
        (view.time.as_deref(), view.status, view.commands.len()),
        (Some("1+1"), "ongoing", 0)
    );
    // Each token now holds the other colour: Bob (blue before) moves first.
    assert_eq!(games.seat(&new, &blue, 2_000).unwrap(), Seat::Red);
    assert_eq!(games.seat(&new, &red, 2_000).unwrap(), Seat::Blue);
    assert!(matches!(
        games.act(&new, &red, mv("0 3 1 4"), 2_100),
        Err(LiveError::Refused(Refusal::NotYourTurn(Seat::Red)))
    ));
    games.act(&new, &blue, mv("0 3 1 4"), 2_100).unwrap();
}

fn concurrent_moves_on_one_game_are_serialised(place: &impl Place) {
    let games = Arc::new(Games::new(place.open()));
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
    let games = Games::new(place.open());
    assert_eq!(games.view(&id, 100).unwrap().commands, ["0 3 1 4"]);
}

fn the_listing_pages_and_filters(place: &impl Place) {
    let games = Games::new(place.open());
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

/// Stores opened at once on a new place all open it (each brings the schema up to date).
fn stores_opened_at_once_all_open_it(place: &impl Place) {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| drop(place.open()))).collect();
        for handle in handles {
            handle.join().unwrap();
        }
    });
}

#[test]
fn a_game_is_played_and_reloads_from_disk_as_it_stood() {
    a_game_is_played_and_reloads_as_it_stood(&SqliteDir(TempDir::new("reload")));
}

#[test]
fn refused_actions_change_nothing_in_sqlite() {
    refused_actions_change_nothing(&Memory);
}

#[test]
fn a_takeback_removes_the_askers_last_move_and_the_reply_in_sqlite() {
    a_takeback_removes_the_askers_last_move_and_the_reply(&Memory);
}

#[test]
fn a_clock_that_runs_out_ends_the_game_and_restarts_resume_it_in_sqlite() {
    a_clock_that_runs_out_ends_the_game_and_restarts_resume_it(&SqliteDir(TempDir::new("clock")));
}

#[test]
fn a_rematch_swaps_the_colours_and_keeps_the_tokens_in_sqlite() {
    a_rematch_swaps_the_colours_and_keeps_the_tokens(&SqliteDir(TempDir::new("rematch")));
}

#[test]
fn concurrent_moves_on_one_game_are_serialised_in_sqlite() {
    concurrent_moves_on_one_game_are_serialised(&SqliteDir(TempDir::new("concurrent")));
}

#[test]
fn the_listing_pages_and_filters_in_sqlite() {
    the_listing_pages_and_filters(&Memory);
}

/// Two authorities on one database, as two servers: each sees the other's moves, a stale copy
/// is never written over a newer game, and the clocks run from when the turn began, whichever
/// server saw it begin.
fn two_servers_play_one_game(place: &Postgres) {
    let (a, b) = (Games::new(place.open()), Games::new(place.open()));
    let time = Some(TimeControl { initial_ms: 60_000, increment_ms: 2_000 });
    let (id, red, blue) = red_game(&a, time);
    b.act(&id, &blue, Action::Join { name: "Bob".into() }, 1_500).unwrap();
    a.act(&id, &red, mv("3 4 4 4"), 5_000).unwrap();
    // `a` has the game in memory at the join's version; `b` moved since.
    b.act(&id, &blue, mv("9 0 8 0"), 50_000).unwrap();
    let view = a.view(&id, 60_000).unwrap();
    assert_eq!(view.commands, ["3 4 4 4", "9 0 8 0"]);
    assert_eq!(view.clocks.unwrap().red_ms, 52_000);
    // Red's move through `a` after blue's through `b`; blue's reply through `b` again.
    a.act(&id, &red, mv("4 4 5 4"), 61_000).unwrap();
    let refused = b.act(&id, &red, mv("5 4 6 4"), 62_000);
    assert!(matches!(refused, Err(LiveError::Refused(Refusal::NotYourTurn(Seat::Blue)))));
    assert!(matches!(b.act(&id, "no token", mv("8 0 9 0"), 62_000), Err(LiveError::NotASeat)));
    let view = b.act(&id, &blue, mv("8 0 9 0"), 63_000).unwrap();
    assert_eq!(view.commands.len(), 4);
    assert_eq!(a.export(&id, 63_000).unwrap().0, "4\n3 4 4 4\n9 0 8 0\n4 4 5 4\n8 0 9 0\n");
    // Both servers send red's next move at once, four times each: exactly one is played.
    let (a, b) = (Arc::new(a), Arc::new(b));
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let games = Arc::clone(if i % 2 == 0 { &a } else { &b });
            let (id, red) = (id.clone(), red.clone());
            std::thread::spawn(move || games.act(&id, &red, mv("5 4 6 4"), 64_000 + i).is_ok())
        })
        .collect();
    let played = handles.into_iter().map(|h| h.join().unwrap()).filter(|&ok| ok).count();
    assert_eq!(played, 1);
    assert_eq!(a.view(&id, 65_000).unwrap().commands.len(), 5);
    assert_eq!(b.view(&id, 65_000).unwrap().version, a.view(&id, 65_000).unwrap().version);
    // Blue's clock ran from red's move at 64 s, through `b`, even when read by `a`.
    let view = a.view(&id, 74_000).unwrap();
    assert_eq!(view.turn, Seat::Blue);
    let end = b.act(&id, &red, Action::Resign, 75_000).unwrap().end.unwrap();
    assert_eq!((end.winner, end.reason), (Some(Seat::Blue), "resign"));
    assert!(a.view(&id, 76_000).unwrap().end.is_some());
}

/// Every committed change is heard by a listener, as the game's id and its new version.
fn changes_are_heard(place: &Postgres) {
    let (sender, heard) = std::sync::mpsc::channel();
    let listener = Listener::start(&place.0, move |change| {
        let _ = sender.send(change);
    })
    .unwrap();
    let games = Games::new(place.open());
    let (id, red, _) = red_game(&games, None);
    games.act(&id, &red, mv("0 3 1 4"), 2_000).unwrap();
    // A refused action commits nothing, and so announces nothing.
    assert!(games.act(&id, &red, mv("1 4 2 4"), 3_000).is_err());
    let wait = Duration::from_secs(10);
    assert_eq!(heard.recv_timeout(wait).unwrap(), Change::Game(id.clone(), 1));
    assert_eq!(heard.recv_timeout(wait).unwrap(), Change::Game(id, 2));
    drop(listener);
    assert!(heard.recv_timeout(Duration::from_millis(300)).is_err());
}

#[test]
fn every_store_test_on_postgres() {
    let Some(server) = Server::start("live") else { return };
    type Body = fn(&Postgres);
    let bodies: [(&str, Body); 10] = [
        ("reload", a_game_is_played_and_reloads_as_it_stood),
        ("refused", refused_actions_change_nothing),
        ("takeback", a_takeback_removes_the_askers_last_move_and_the_reply),
        ("clock", a_clock_that_runs_out_ends_the_game_and_restarts_resume_it),
        ("rematch", a_rematch_swaps_the_colours_and_keeps_the_tokens),
        ("concurrent", concurrent_moves_on_one_game_are_serialised),
        ("listing", the_listing_pages_and_filters),
        ("at_once", stores_opened_at_once_all_open_it),
        ("two_servers", two_servers_play_one_game),
        ("heard", changes_are_heard),
    ];
    for (name, body) in bodies {
        eprintln!("postgres: {name}");
        body(&Postgres(server.database(name)));
    }
}
