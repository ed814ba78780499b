//! The accounts beside the games: users and their names, sessions, paired games, ratings updated
//! in the transaction that stores a rated game's end, profiles' listings and leaderboards, and
//! deleted accounts. Each test body runs on SQLite and on PostgreSQL (a private server,
//! `support/postgres.rs`).

mod support;

use arbiter_live::accounts::{
    DAY_MS, DELETED, GameFilter, Outcome, Pairing, StoreWithAccounts, User, UserName,
};
use arbiter_live::{Action, Games, LiveError, New, PostgresStore, Seat, SqliteStore, TimeControl};
use arbiter_rating::{Category, Glicko2, Rating, Score};
use support::postgres::Server;

fn name(text: &str) -> UserName {
    UserName::parse(text).unwrap()
}

fn add<S: StoreWithAccounts>(games: &Games<S>, text: &str, now: u64) -> User {
    games.store().add_user(&name(text), "$argon2id$hash", now).unwrap().unwrap()
}

fn mv(command: &str) -> Action {
    Action::Move { command: command.to_owned() }
}

/// A game the lobby paired at `now`, red and blue with these accounts: (id, red token, blue
/// token).
fn paired<S: StoreWithAccounts>(
    games: &Games<S>,
    users: [Option<&User>; 2],
    rated: bool,
    now: u64,
) -> (arbiter_live::GameId, String, String) {
    let names = users.map(|user| user.map_or("Anonymous".to_owned(), |u| u.name.clone()));
    let new = New {
        name: names[0].clone(),
        seat: Some(Seat::Red),
        time: Some(TimeControl { initial_ms: 180_000, increment_ms: 2_000 }),
    };
    let pairing = Pairing { users: users.map(|user| user.map(|u| u.id)), rated };
    let created = games
        .create_with(new, now, |game| {
            game.names[1] = Some(names[1].clone());
            game.pairing = Some(pairing);
        })
        .unwrap();
    (created.id, created.token, created.invite)
}

/// Plays the two first moves, then `loser` resigns.
fn play_and_resign<S: StoreWithAccounts>(
    games: &Games<S>,
    (id, red, blue): &(arbiter_live::GameId, String, String),
    loser: Seat,
    now: u64,
) {
    games.act(id, red, mv("0 3 1 4"), now).unwrap();
    games.act(id, blue, mv("9 4 8 4"), now + 1_000).unwrap();
    let token = if loser == Seat::Red { red } else { blue };
    games.act(id, token, Action::Resign, now + 2_000).unwrap();
}

fn names_are_unique_without_regard_to_case<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "Ann_1", 5);
    assert_eq!(ann.name, "Ann_1");
    let taken = games.store().add_user(&name("aNN_1"), "$argon2id$other", 6).unwrap();
    assert!(taken.is_none());
    let (found, hash) = games.store().user("ANN_1").unwrap().unwrap();
    assert_eq!(found, ann);
    assert_eq!(hash, "$argon2id$hash");
    assert!(games.store().user("bob").unwrap().is_none());
    let bob = add(&games, "bob", 7);
    assert_ne!(bob.id, ann.id);
}

fn sessions_last_until_they_end<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    games.store().add_session("k1", ann.id, "c1", 10, 1_000).unwrap();
    games.store().add_session("k2", ann.id, "c2", 10, 1_000).unwrap();
    let session = games.store().session("k1", 500).unwrap().unwrap();
    assert_eq!((session.user, session.csrf.as_str()), (ann.clone(), "c1"));
    // Expired: gone.
    assert!(games.store().session("k1", 1_000).unwrap().is_none());
    // A new session clears the account's ended ones.
    games.store().add_session("k5", ann.id, "c5", 2_000, 3_000).unwrap();
    assert!(games.store().session("k2", 10).unwrap().is_none(), "k2 ended at 1 000");
    games.store().end_session("k5").unwrap();
    assert!(games.store().session("k1", 10).unwrap().is_none());
    // Signed out: gone, the other stays.
    games.store().end_session("k2").unwrap();
    assert!(games.store().session("k2", 20).unwrap().is_none());
    // A new password ends every session of the account.
    games.store().add_session("k3", ann.id, "c3", 30, 1_000).unwrap();
    games.store().add_session("k4", ann.id, "c4", 30, 1_000).unwrap();
    games.store().set_password(ann.id, "$argon2id$new").unwrap();
    assert!(games.store().session("k3", 40).unwrap().is_none());
    assert!(games.store().session("k4", 40).unwrap().is_none());
    assert_eq!(games.store().user("ann").unwrap().unwrap().1, "$argon2id$new");
}

fn a_rated_games_end_rates_both_players_once<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    let game = paired(&games, [Some(&ann), Some(&bob)], true, 1_000);
    assert!(games.store().ratings(ann.id).unwrap().is_empty());
    play_and_resign(&games, &game, Seat::Blue, 2_000);
    let (red, blue) = Glicko2::ARBITER.game(Rating::START, Rating::START, Score::Win);
    let ratings = games.store().ratings(ann.id).unwrap();
    assert_eq!(ratings.len(), 1);
    let (category, rated) = ratings[0];
    assert_eq!(category, Category::Blitz);
    assert_eq!(rated.rating, red);
    assert_eq!(rated.games, 1);
    // When the last turn began: blue's move.
    assert_eq!(rated.played_at, 3_000);
    assert_eq!(games.store().ratings(bob.id).unwrap()[0].1.rating, blue);
    // The history says the same, with the change.
    let history = games.store().history(ann.id).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].game, game.0.as_str());
    assert!((history[0].change - (red.rating - 1500.0)).abs() < 1e-9);
    // The game, read again and viewed, is not rated again.
    games.view(&game.0, 10_000).unwrap();
    assert_eq!(games.store().ratings(ann.id).unwrap()[0].1.games, 1);
    // A second rated game starts from the first's ratings.
    let second = paired(&games, [Some(&bob), Some(&ann)], true, 20_000);
    play_and_resign(&games, &second, Seat::Blue, 21_000);
    let (bob_after, ann_after) = Glicko2::ARBITER.game(blue, red, Score::Win);
    assert_eq!(games.store().ratings(ann.id).unwrap()[0].1.rating, ann_after);
    assert_eq!(games.store().ratings(bob.id).unwrap()[0].1.rating, bob_after);
    let counts = games.store().counts(ann.id).unwrap();
    assert_eq!((counts.win, counts.draw, counts.loss), (1, 0, 1));
}

fn a_rated_games_rematch_is_rated_with_the_seats_changed<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    let game = paired(&games, [Some(&ann), Some(&bob)], true, 1_000);
    play_and_resign(&games, &game, Seat::Blue, 2_000);
    let (id, red, blue) = &game;
    games.act(id, blue, Action::OfferRematch, 5_000).unwrap();
    let view = games.act(id, red, Action::AcceptRematch, 6_000).unwrap();
    let rematch = view.rematch.expect("a rematch");
    // Bob, blue before, is red now and wins.
    play_and_resign(&games, &(rematch, blue.clone(), red.clone()), Seat::Blue, 7_000);
    let (ann_first, bob_first) = Glicko2::ARBITER.game(Rating::START, Rating::START, Score::Win);
    let (bob_after, ann_after) = Glicko2::ARBITER.game(bob_first, ann_first, Score::Win);
    assert_eq!(games.store().ratings(ann.id).unwrap()[0].1.rating, ann_after);
    assert_eq!(games.store().ratings(bob.id).unwrap()[0].1.rating, bob_after);
}

fn an_idle_rating_grows_uncertain_before_the_game<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    play_and_resign(&games, &paired(&games, [Some(&ann), Some(&bob)], true, 0), Seat::Blue, 0);
    let first = games.store().ratings(ann.id).unwrap()[0].1;
    let start = 10 * DAY_MS + 5;
    play_and_resign(
        &games,
        &paired(&games, [Some(&ann), Some(&bob)], true, start),
        Seat::Blue,
        start,
    );
    let bob_first = Glicko2::ARBITER.game(Rating::START, Rating::START, Score::Win).1;
    // Ten whole days between the ends: ten idle periods for both.
    let (expected, _) =
        Glicko2::ARBITER.game(first.rating.idle(10), bob_first.idle(10), Score::Win);
    assert_eq!(games.store().ratings(ann.id).unwrap()[0].1.rating, expected);
}

fn unrated_ends_change_no_rating<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    // Casual.
    play_and_resign(&games, &paired(&games, [Some(&ann), Some(&bob)], false, 0), Seat::Blue, 0);
    // Rated, but aborted.
    let (id, _, _) = paired(&games, [Some(&ann), Some(&bob)], true, 10_000);
    let aborted = arbiter_live::End { winner: None, reason: "aborted" };
    let view = games.change(&id, 11_000, |game| game.conclude(aborted).map(|()| true)).unwrap();
    assert_eq!(view.end.unwrap().reason, "aborted");
    // Rated, against an anonymous player (which the lobby never pairs, but the store refuses).
    play_and_resign(&games, &paired(&games, [Some(&ann), None], true, 20_000), Seat::Blue, 20_000);
    assert!(games.store().ratings(ann.id).unwrap().is_empty());
    assert!(games.store().history(bob.id).unwrap().is_empty());
    // The casual win and the anonymous one count; the aborted game does not.
    let counts = games.store().counts(ann.id).unwrap();
    assert_eq!((counts.win, counts.draw, counts.loss), (2, 0, 0));
    // A game already over refuses to be concluded again.
    assert!(matches!(
        games.change(&id, 12_000, |game| game.conclude(aborted).map(|()| true)),
        Err(LiveError::Refused(_))
    ));
}

fn profiles_list_and_filter_a_players_games<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "Bob", 5);
    let cat = add(&games, "cat", 5);
    play_and_resign(&games, &paired(&games, [Some(&ann), Some(&bob)], true, 100), Seat::Blue, 100);
    play_and_resign(&games, &paired(&games, [Some(&cat), Some(&ann)], true, 200), Seat::Blue, 200);
    play_and_resign(&games, &paired(&games, [Some(&ann), Some(&cat)], false, 300), Seat::Blue, 300);
    let ongoing = paired(&games, [Some(&bob), Some(&ann)], false, 400);
    let list = |filter: GameFilter| games.store().player_games(ann.id, &filter, 0, 10).unwrap();
    let (all, total) = list(GameFilter::default());
    assert_eq!(total, 4);
    let ids: Vec<&str> = all.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids[0], ongoing.0.as_str(), "newest first");
    assert_eq!(all[0].status, "ongoing");
    assert_eq!(all[0].result, None);
    assert_eq!(all[0].seat, Seat::Blue);
    assert_eq!(all[3].opponent.as_deref(), Some("Bob"));
    assert_eq!(all[3].result, Some(Outcome::Win));
    assert!(all[3].rated && all[3].change.unwrap() > 0.0);
    assert_eq!(all[2].result, Some(Outcome::Loss));
    assert!(all[2].rated && all[2].change.unwrap() < 0.0);
    assert_eq!(all[1].result, Some(Outcome::Win));
    assert_eq!((all[1].rated, all[1].change), (false, None));
    assert_eq!(all[3].time.as_deref(), Some("3+2"));
    let filtered = |result, category, opponent: Option<&str>| {
        let filter = GameFilter { result, category, opponent: opponent.map(str::to_owned) };
        list(filter).0.into_iter().map(|g| g.id).collect::<Vec<_>>()
    };
    assert_eq!(filtered(Some(Outcome::Win), None, None).len(), 2);
    assert_eq!(filtered(Some(Outcome::Loss), None, None).len(), 1);
    assert_eq!(filtered(None, Some(Category::Blitz), None).len(), 4);
    assert_eq!(filtered(None, Some(Category::Bullet), None).len(), 0);
    assert_eq!(filtered(None, None, Some("bob")).len(), 2);
    assert_eq!(filtered(Some(Outcome::Win), None, Some("CAT")).len(), 1);
    // Pages.
    let (page, total) = games.store().player_games(ann.id, &GameFilter::default(), 3, 2).unwrap();
    assert_eq!((page.len(), total), (1, 4));
    // The leaderboard: rated players since a day, best first.
    let leaders = games.store().leaderboard(Category::Blitz, 50, 10).unwrap();
    let mut names: Vec<&str> = leaders.iter().map(|l| l.name.as_str()).collect();
    assert!(leaders.windows(2).all(|w| w[0].rated.rating.rating >= w[1].rated.rating.rating));
    names.sort_unstable();
    assert_eq!(names, ["Bob", "ann", "cat"]);
    assert!(leaders.iter().all(|l| l.provisional));
    assert!(games.store().leaderboard(Category::Blitz, 10_000, 10).unwrap().is_empty());
    assert!(games.store().leaderboard(Category::Rapid, 0, 10).unwrap().is_empty());
}

fn a_deleted_accounts_games_stay_under_deleted_user<S: StoreWithAccounts>(games: Games<S>) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    let game = paired(&games, [Some(&ann), Some(&bob)], true, 100);
    assert_eq!(games.store().ongoing(ann.id).unwrap(), std::slice::from_ref(&game.0));
    play_and_resign(&games, &game, Seat::Blue, 100);
    assert!(games.store().ongoing(ann.id).unwrap().is_empty());
    games.store().add_session("k", ann.id, "c", 0, u64::MAX).unwrap();
    games.store().delete_user(ann.id).unwrap();
    assert!(games.store().user("ann").unwrap().is_none());
    assert!(games.store().session("k", 1).unwrap().is_none());
    let view = games.view(&game.0, 1_000).unwrap();
    assert_eq!(view.red.as_deref(), Some(DELETED));
    assert_eq!(view.blue.as_deref(), Some("bob"));
    // Bob keeps his game and rating; the name is free again.
    assert_eq!(games.store().player_games(bob.id, &GameFilter::default(), 0, 5).unwrap().1, 1);
    assert_eq!(games.store().ratings(bob.id).unwrap().len(), 1);
    let again = add(&games, "ANN", 2_000);
    assert_ne!(again.id, ann.id);
    assert!(games.store().ratings(again.id).unwrap().is_empty());
    assert_eq!(games.store().counts(again.id).unwrap().win, 0);
}

/// A store whose rating update fails (`break_ratings` makes it so) keeps no end of a rated game
/// either: the result and the ratings are one transaction.
fn a_failed_rating_update_keeps_no_result<S: StoreWithAccounts>(
    games: Games<S>,
    break_ratings: impl FnOnce(),
) {
    let ann = add(&games, "ann", 5);
    let bob = add(&games, "bob", 5);
    let (id, red, blue) = paired(&games, [Some(&ann), Some(&bob)], true, 100);
    games.act(&id, &red, mv("0 3 1 4"), 200).unwrap();
    games.act(&id, &blue, mv("9 4 8 4"), 300).unwrap();
    break_ratings();
    assert!(matches!(games.act(&id, &blue, Action::Resign, 400), Err(LiveError::Store(_))));
    let view = games.view(&id, 500).unwrap();
    assert_eq!(view.status, "ongoing");
    assert!(games.store().ratings(ann.id).unwrap().is_empty());
    assert_eq!(games.store().counts(ann.id).unwrap().win, 0);
}

type Body<S> = fn(Games<S>);

/// Every body that needs only a store.
fn bodies<S: StoreWithAccounts>() -> [(&'static str, Body<S>); 8] {
    [
        ("rematch", a_rated_games_rematch_is_rated_with_the_seats_changed),
        ("names", names_are_unique_without_regard_to_case),
        ("sessions", sessions_last_until_they_end),
        ("rated", a_rated_games_end_rates_both_players_once),
        ("idle", an_idle_rating_grows_uncertain_before_the_game),
        ("unrated", unrated_ends_change_no_rating),
        ("profiles", profiles_list_and_filter_a_players_games),
        ("deleted", a_deleted_accounts_games_stay_under_deleted_user),
    ]
}

#[test]
fn every_accounts_test_on_sqlite() {
    for (name, body) in bodies::<SqliteStore>() {
        eprintln!("sqlite: {name}");
        body(Games::new(SqliteStore::memory().unwrap()));
    }
}

#[test]
fn a_failed_rating_update_keeps_no_result_in_sqlite() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("accounts-atomic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let games = Games::new(SqliteStore::open(&dir).unwrap());
    a_failed_rating_update_keeps_no_result(games, || {
        let connection = rusqlite::Connection::open(dir.join(arbiter_live::sqlite::FILE)).unwrap();
        connection
            .execute_batch(
                "CREATE TRIGGER no_ratings BEFORE INSERT ON ratings
                 BEGIN SELECT RAISE(ABORT, 'ratings refused'); END",
            )
            .unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_accounts_test_on_postgres() {
    let Some(server) = Server::start("accounts") else { return };
    for (name, body) in bodies::<PostgresStore>() {
        eprintln!("postgres: {name}");
        body(Games::new(PostgresStore::open(&server.database(name)).unwrap()));
    }
    let url = server.database("atomic");
    let games = Games::new(PostgresStore::open(&url).unwrap());
    a_failed_rating_update_keeps_no_result(games, || {
        let store = PostgresStore::open(&url).unwrap();
        store
            .run(async |pool| {
                let sql = "ALTER TABLE ratings ADD CONSTRAINT no_ratings CHECK (rating < 0)";
                Ok(pool.get().await?.batch_execute(sql).await?)
            })
            .unwrap();
    });
}
