//! A small load (20 games of 10 moves) against a server run in this process: every game is
//! played and the database holds exactly the moves acknowledged; and the check finds a move lost
//! or one too many. No timing is asserted.

use std::path::PathBuf;
use std::sync::mpsc;

use arbiter_live_load::check::{self, Check};
use arbiter_live_load::play::Record;
use arbiter_live_load::{Options, Target};

/// A fresh data directory for the server.
fn data_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-live-load-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Each game in the database and its moves, in order, as if all were acknowledged.
fn stored(dir: &std::path::Path) -> Vec<Record> {
    let connection = rusqlite::Connection::open(dir.join("arbiter.sqlite3")).unwrap();
    let mut games = connection.prepare("SELECT id FROM games ORDER BY id").unwrap();
    let ids: Vec<String> =
        games.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
    let mut moves =
        connection.prepare("SELECT command FROM moves WHERE game_id = ?1 ORDER BY ply").unwrap();
    ids.into_iter()
        .map(|id| {
            let acknowledged =
                moves.query_map([&id], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
            Record { id, acknowledged, ..Record::default() }
        })
        .collect()
}

#[test]
fn a_small_load_loses_and_duplicates_no_move_and_the_check_sees_one() {
    let dir = data_dir();
    let (ready, address) = mpsc::channel();
    let served = dir.clone();
    // The server runs until the test process ends.
    std::thread::spawn(move || {
        arbiter_web::run_games(
            "127.0.0.1",
            0,
            &[],
            &arbiter_web::Storage::Directory(served),
            |addr| {
                ready.send(addr).unwrap();
            },
        )
    });
    let addr = address.recv().expect("the server listens");
    let options = Options { games: 20, moves: 10, seed: 7, setting_up: 4, ..Options::default() };
    let target = Target { addr, data_dir: dir.clone(), pid: None };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let report = runtime.block_on(arbiter_live_load::run(&options, &target)).unwrap();
    assert!(report.passed(), "{report}");
    assert_eq!(report.played, 20);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert!(report.moves > 0);
    assert_eq!(report.check.stored, report.moves);
    assert_eq!(report.check, Check { stored: report.moves, ..Check::default() });

    let mut records = stored(&dir);
    assert_eq!(records.len(), 20);
    assert!(check::check(&dir, &records).unwrap().passed());
    // A move acknowledged that the database lacks is lost.
    records[0].acknowledged.push("0 0 0 0".into());
    let lost = check::check(&dir, &records).unwrap();
    assert_eq!((lost.lost, lost.extra, lost.passed()), (1, 0, false));
    // A move stored that was never acknowledged is one too many...
    records[0].acknowledged.pop();
    let last = records[1].acknowledged.pop().unwrap();
    let extra = check::check(&dir, &records).unwrap();
    assert_eq!((extra.lost, extra.extra, extra.passed()), (0, 1, false));
    // ... but for a move sent whose answer never came.
    records[1].unanswered = Some(last);
    let unanswered = check::check(&dir, &records).unwrap();
    assert_eq!((unanswered.extra, unanswered.unanswered_stored, unanswered.passed()), (0, 1, true));
    // A game missing from the load is a stranger.
    records.pop();
    assert!(check::check(&dir, &records).unwrap().strangers > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
