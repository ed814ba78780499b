//! The PostgreSQL store as operators run it: through a database restart (requests refused at
//! once while it is away, nothing acknowledged lost, the pool and the listener connected again
//! by themselves) and over TLS as `sslmode` asks, against a private server of the test's own
//! (`support/postgres.rs`).

mod support;

use std::time::{Duration, Instant};

use arbiter_live::postgres::{Change, Listener};
use arbiter_live::{Action, Games, LiveError, New, PostgresStore, Seat, StoreError};
use support::postgres::Server;

fn mv(command: &str) -> Action {
    Action::Move { command: command.to_owned() }
}

/// Waits (10 s at most) for `heard` to bring a change `wanted` holds for.
fn hears(heard: &std::sync::mpsc::Receiver<Change>, wanted: impl Fn(&Change) -> bool) -> Change {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let change = heard.recv_timeout(left).expect("the change is heard within 10 s");
        if wanted(&change) {
            return change;
        }
    }
}

#[test]
fn a_database_restart_refuses_moves_meanwhile_and_loses_nothing_acknowledged() {
    let Some(server) = Server::start("restart") else { return };
    let url = server.database("games");
    let (sender, heard) = std::sync::mpsc::channel();
    let _listener = Listener::start(&url, move |change| {
        let _ = sender.send(change);
    })
    .unwrap();
    let games = Games::new(PostgresStore::open(&url).unwrap());
    let created =
        games.create(New { name: "Ann".into(), seat: Some(Seat::Red), time: None }, 0).unwrap();
    let (id, red, blue) = (created.id, created.token, created.invite);
    games.act(&id, &red, mv("3 4 4 4"), 1).unwrap();
    hears(&heard, |change| *change == Change::Game(id.clone(), 2));

    server.stop();
    for attempt in 0..3 {
        let refused = games.act(&id, &blue, mv("9 0 8 0"), 2);
        let Err(LiveError::Store(error @ StoreError::Unavailable(_))) = refused else {
            panic!("attempt {attempt}: {refused:?}");
        };
        assert!(error.to_string().contains("cannot be reached"), "{error}");
        assert!(matches!(games.view(&id, 2), Err(LiveError::Store(StoreError::Unavailable(_)))));
    }

    server.resume();
    // The pool connects again at the next request; the listener by itself, within a second or
    // so, and says that changes may have gone unheard meanwhile.
    let view = games.act(&id, &blue, mv("9 0 8 0"), 3).unwrap();
    assert_eq!(view.commands, ["3 4 4 4", "9 0 8 0"]);
    hears(&heard, |change| *change == Change::Missed);
    games.act(&id, &red, mv("4 4 5 4"), 4).unwrap();
    hears(&heard, |change| *change == Change::Game(id.clone(), 4));
    // Another server reading the database sees every acknowledged move.
    let fresh = Games::new(PostgresStore::open(&url).unwrap());
    assert_eq!(fresh.view(&id, 5).unwrap().commands, ["3 4 4 4", "9 0 8 0", "4 4 5 4"]);
}

#[test]
fn tls_is_used_and_checked_as_sslmode_asks() {
    let Some((server, tls)) = Server::start_tls("tls") else { return };
    server.database("games");
    let authority = tls.authority.display().to_string();
    let stranger = tls.stranger.display().to_string();
    let url = |host: &str, query: &str| server.tcp_url("games", host, query);

    // Checked: the server's certificate signed by the authority given, for the host's name.
    let full = url("localhost", &format!("sslmode=verify-full&sslrootcert={authority}"));
    let games = Games::new(PostgresStore::open(&full).unwrap());
    let (sender, heard) = std::sync::mpsc::channel();
    let _listener = Listener::start(&full, move |change| {
        let _ = sender.send(change);
    })
    .unwrap();
    let created =
        games.create(New { name: "Ann".into(), seat: Some(Seat::Red), time: None }, 0).unwrap();
    games.act(&created.id, &created.token, mv("3 4 4 4"), 1).unwrap();
    hears(&heard, |change| *change == Change::Game(created.id.clone(), 2));

    // Accepted: encrypted, unchecked (require, prefer), or the authority checked without the
    // name (verify-ca, for an address the certificate does not name).
    for query in [
        "sslmode=require",
        "sslmode=prefer",
        "",
        &format!("sslmode=verify-ca&sslrootcert={authority}"),
    ] {
        let store = PostgresStore::open(&url("127.0.0.1", query));
        assert!(store.is_ok(), "{query}: {:?}", store.err());
    }
    // Refused: no TLS (the server takes none on TCP, so the stores above used it), an
    // authority that signed nothing of the server's, a name the certificate does not hold.
    for (host, query, says) in [
        ("localhost", "sslmode=disable".to_owned(), "no encryption"),
        ("localhost", format!("sslmode=verify-full&sslrootcert={stranger}"), "certificate"),
        ("localhost", format!("sslmode=verify-ca&sslrootcert={stranger}"), "certificate"),
        ("127.0.0.1", format!("sslmode=verify-full&sslrootcert={authority}"), "certificate"),
    ] {
        let refused = PostgresStore::open(&url(host, &query)).err();
        // Not a passing state of the database: no "try again".
        assert!(!matches!(refused, Some(StoreError::Unavailable(_))), "{refused:?}");
        let message = refused.map(|error| error.to_string()).unwrap_or_default();
        assert!(message.contains(says), "{host} {query}: {message:?}");
    }
}

#[test]
fn a_database_a_newer_version_migrated_is_refused_saying_so() {
    let Some(server) = Server::start("newer") else { return };
    let url = server.database("games");
    let store = PostgresStore::open(&url).unwrap();
    // Through the store's own pool, as other tables' code queries the database.
    store
        .run(async |pool| {
            let client = pool.get().await?;
            client.execute("INSERT INTO arbiter_migrations (version) VALUES (99)", &[]).await?;
            Ok(())
        })
        .unwrap();
    drop(store);
    let refused = PostgresStore::open(&url).err().expect("a newer schema is refused");
    assert!(matches!(refused, StoreError::Newer), "{refused}");
}
