//! The learning side of the stores: analyses queued once per request, claimed oldest first by
//! one worker each, requeued after a stop and kept across a reopening; puzzle attempts rating
//! the player and the puzzle once. Each body runs on SQLite (a file, reopened) and on PostgreSQL
//! (a private server, `support/postgres.rs`).

mod support;

use arbiter_live::accounts::UserName;
use arbiter_live::any::ServerStore;
use arbiter_live::learn::{AnalysisRequest, AnalysisState, puzzle_start};
use arbiter_live::{PostgresStore, SqliteStore};
use support::postgres::Server;

fn request(key: &str) -> AnalysisRequest {
    AnalysisRequest {
        key: key.into(),
        game_id: key.strip_prefix("game:").map(str::to_owned),
        fen: None,
        commands: vec!["3 4 4 4".into()],
        nodes: 1000,
    }
}

/// Queues, claims, finishes; reopens the store (`reopen`) and finds it all again.
fn analyses_survive_a_restart<S: ServerStore>(store: S, reopen: impl Fn() -> S) {
    let a = store.request_analysis(&request("game:a"), "id-a", 10).unwrap();
    assert_eq!((a.id.as_str(), a.state), ("id-a", AnalysisState::Queued));
    assert_eq!(a.request.game_id.as_deref(), Some("a"));
    assert_eq!(store.request_analysis(&request("game:a"), "other", 11).unwrap().id, "id-a");
    store.request_analysis(&request("import:b"), "id-b", 12).unwrap();
    assert_eq!(store.queue_length(12).unwrap(), (2, 1));
    let claimed = store.claim_analysis(20).unwrap().unwrap();
    assert_eq!(claimed.id, "id-a");
    drop(store);

    // The server stopped while analysing "a": the next start queues it again.
    let store = reopen();
    assert_eq!(store.analysis("id-a").unwrap().unwrap().state, AnalysisState::Running);
    assert_eq!(store.requeue_analyses(30).unwrap(), 1);
    assert_eq!(store.claim_analysis(31).unwrap().unwrap().id, "id-a");
    assert_eq!(store.claim_analysis(32).unwrap().unwrap().id, "id-b");
    assert!(store.claim_analysis(33).unwrap().is_none());
    store.finish_analysis("id-a", Ok(r#"{"moves":[]}"#), 40).unwrap();
    store.finish_analysis("id-b", Err("the commands are not a game"), 41).unwrap();
    drop(store);

    let store = reopen();
    let a = store.analysis_by_key("game:a").unwrap().unwrap();
    assert_eq!((a.state, a.result.as_deref()), (AnalysisState::Done, Some(r#"{"moves":[]}"#)));
    assert_eq!(a.request.commands, ["3 4 4 4"]);
    let b = store.analysis("id-b").unwrap().unwrap();
    assert_eq!(
        (b.state, b.error.as_deref()),
        (AnalysisState::Failed, Some("the commands are not a game"))
    );
    assert_eq!(store.requeue_analyses(100).unwrap(), 0, "a finished analysis stays finished");
}

/// Lists the games as they end, in the order they ended, from where the last listing stopped.
fn finished_games_are_listed_as_they_end<S: ServerStore>(store: S) {
    let games = arbiter_live::Games::new(store);
    let mv = |command: &str| arbiter_live::Action::Move { command: command.into() };
    let mut tokens = Vec::new();
    for now in [1, 2] {
        let created = games.create(arbiter_live::New::default(), now).unwrap();
        tokens.push((
            created.id.clone(),
            created.token.clone(),
            created.invite.clone(),
            created.seat,
        ));
    }
    assert!(games.store().finished_since((0, ""), 10).unwrap().is_empty());
    // The second game ends first: red plays, then blue resigns.
    for (index, (id, token, invite, seat)) in tokens.iter().enumerate().rev() {
        let (red, blue) = match seat {
            arbiter_live::Seat::Red => (token, invite),
            arbiter_live::Seat::Blue => (invite, token),
        };
        let now = 10 + 10 * (1 - index as u64);
        games.act(id, red, mv("3 4 4 4"), now).unwrap();
        games.act(id, blue, arbiter_live::Action::Resign, now + 1).unwrap();
    }
    let all = games.store().finished_since((0, ""), 10).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].id, tokens[1].0.as_str());
    assert_eq!(all[0].commands, ["3 4 4 4"]);
    assert_eq!(all[0].winner.as_deref(), Some("red"));
    let rest = games.store().finished_since((all[0].updated_at, &all[0].id), 10).unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].id, all[1].id);
}

/// Rates attempts and keeps the history.
fn attempts_rate_once<S: ServerStore>(store: S) {
    let ann = store.add_user(&UserName::parse("ann").unwrap(), "$argon2id$", 1).unwrap().unwrap();
    let start = puzzle_start(1600.0);
    let first = store.attempt_puzzle(ann.id, "p", start, false, 5).unwrap();
    assert!(first.rated);
    assert!(first.player.rating.rating < 1500.0 && first.puzzle.rating.rating > 1600.0);
    let again = store.attempt_puzzle(ann.id, "p", start, true, 6).unwrap();
    assert!(!again.rated);
    assert_eq!(again.puzzle, first.puzzle);
    assert_eq!(store.puzzle_rating("p").unwrap(), Some(first.puzzle));
    assert_eq!(store.player_puzzle_rating(ann.id).unwrap(), Some(first.player));
    let history = store.puzzle_history(ann.id).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].rating, first.player.rating.rating);
    // Deleting the account deletes its puzzle rating and history, not the puzzle's rating.
    store.delete_user(ann.id).unwrap();
    assert!(store.player_puzzle_rating(ann.id).unwrap().is_none());
    assert!(store.puzzle_history(ann.id).unwrap().is_empty());
    assert!(store.puzzle_rating("p").unwrap().is_some());
}

#[test]
fn learning_on_sqlite() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("live-learn");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("arbiter.sqlite3");
    analyses_survive_a_restart(SqliteStore::open(&file).unwrap(), || {
        SqliteStore::open(&file).unwrap()
    });
    attempts_rate_once(SqliteStore::memory().unwrap());
    finished_games_are_listed_as_they_end(SqliteStore::memory().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn learning_on_postgres() {
    let Some(server) = Server::start("learn") else { return };
    let url = server.database("analyses");
    analyses_survive_a_restart(PostgresStore::open(&url).unwrap(), || {
        PostgresStore::open(&url).unwrap()
    });
    attempts_rate_once(PostgresStore::open(&server.database("attempts")).unwrap());
    finished_games_are_listed_as_they_end(
        PostgresStore::open(&server.database("finished")).unwrap(),
    );
}
