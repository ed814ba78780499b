//! Learning from the engine through the router: an imported game and a finished live game
//! analysed by the background worker, the analysis kept across a restart of the server, its
//! export; the opening explorer fed by the live games as they end; puzzles judged move by move
//! and rated, in the browser's keeping or the store's.

#[path = "support/router.rs"]
mod router;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arbiter_web::Storage;
use axum::Router;
use axum::http::{Method, StatusCode, header};
use router::{Reply, send};
use serde_json::{Value, json};

async fn post(app: &Router, uri: &str, body: Value) -> Reply {
    send(app, Method::POST, uri, body, &[]).await
}

async fn get(app: &Router, uri: &str) -> Reply {
    send(app, Method::GET, uri, Value::Null, &[]).await
}

/// Waits for analysis `id` to be done (or failed), a minute at most.
async fn finished(app: &Router, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let reply = get(app, &format!("/api/duck/analyses/{id}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        if matches!(reply.body["state"].as_str(), Some("done" | "failed")) {
            return reply.body;
        }
        assert!(Instant::now() < deadline, "analysis {id} still {}", reply.body["state"]);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A scratch data directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-learn").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app on the data directory `dir`, retried while the last one still holds it.
fn app_on(dir: &std::path::Path) -> Router {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match arbiter_web::app_on(&Storage::Directory(dir.to_owned())) {
            Ok(app) => return app,
            Err(error) => {
                assert!(Instant::now() < deadline, "cannot reopen {}: {error}", dir.display());
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

const GAME: [&str; 6] = ["3 2 3 3", "6 4 5 4", "0 4 1 4", "9 9 9 9", "5 4 4 3", "3 4 4 4"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_game_is_analysed_and_kept_across_a_restart() {
    let dir = scratch("import");
    let app = app_on(&dir);
    let reply = post(&app, "/api/duck/analyses", json!({"commands": GAME, "nodes": 800})).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    assert!(matches!(reply.body["state"].as_str(), Some("queued" | "running")), "{}", reply.text);
    // The server stops at once, the analysis queued or under way; the next one finishes it.
    drop(app);
    let app = app_on(&dir);
    let done = finished(&app, &id).await;
    assert_eq!(done["state"], "done", "{done}");
    let commands = done["report"]["commands"].as_array().unwrap();
    assert_eq!(commands.len(), GAME.len());
    assert_eq!(commands[3]["valid"], false);
    for entry in commands.iter().filter(|e| e["valid"] == true) {
        assert!(entry["best"].is_string() && entry.get("mark").is_some(), "{entry}");
    }
    for side in ["red", "blue"] {
        assert!(done["report"]["summary"]["accuracy"][side].is_number(), "{done}");
    }
    // The same request again: the same analysis, not another.
    let again = post(&app, "/api/duck/analyses", json!({"commands": GAME, "nodes": 800})).await;
    assert_eq!(again.body["id"], id.as_str());
    assert_eq!(again.body["state"], "done");

    // Learning from a mistake: the best move is accepted, a move that loses a lot is not.
    let url = format!("/api/duck/analyses/{id}/try");
    let best = commands[1]["best"].as_str().unwrap().to_owned();
    let tried = post(&app, &url, json!({"ply": 2, "move": best})).await;
    assert_eq!(tried.status, StatusCode::OK, "{}", tried.text);
    assert_eq!(tried.body["accepted"], true, "{}", tried.text);
    assert_eq!(tried.body["best"], best.as_str());
    assert!(tried.body["line"].as_array().is_some_and(|line| !line.is_empty()));
    // A blunder tried again is still one.
    let blunder = commands.iter().find(|entry| entry["mark"] == "??").expect("a blunder");
    let again = json!({"ply": blunder["ply"], "move": blunder["command"]});
    let worst = post(&app, &url, again).await;
    assert_eq!(worst.status, StatusCode::OK, "{}", worst.text);
    assert_eq!(worst.body["accepted"], false, "{}", worst.text);
    assert!(worst.body["drop"].as_f64().unwrap() >= 0.05, "{}", worst.text);
    let invalid = post(&app, &url, json!({"ply": 4, "move": "9 4 8 4"})).await;
    assert_eq!(invalid.status, StatusCode::BAD_REQUEST, "command 4 is invalid: {}", invalid.text);
    let illegal = post(&app, &url, json!({"ply": 2, "move": "0 0 5 5"})).await;
    assert_eq!(illegal.status, StatusCode::BAD_REQUEST);

    let export = get(&app, &format!("/api/duck/analyses/{id}/export")).await;
    assert_eq!(export.status, StatusCode::OK);
    assert!(export.headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain"));
    assert!(export.text.starts_with("6\n3 2 3 3\n6 4 5 4\n"), "{}", export.text);
    assert!(
        export.text.contains("# 4. 9 9 9 9 invalid: (9,9) is off the board\n"),
        "{}",
        export.text
    );
    assert!(export.text.contains("# red: accuracy "), "{}", export.text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_cannot_be_analyses_are_refused() {
    let app = arbiter_web::app();
    let reply = post(&app, "/api/duck/analyses", json!({})).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply = post(&app, "/api/duck/analyses", json!({"commands": ["3 4 x 4"]})).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    let reply = post(&app, "/api/duck/analyses", json!({"commands": [], "nodes": 0})).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let many = vec!["3 4 4 4"; 1001];
    let reply = post(&app, "/api/duck/analyses", json!({"commands": many})).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    let reply = post(&app, "/api/duck/analyses", json!({"game": "nosuchgame"})).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/api/duck/analyses/nothing").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(get(&app, "/api/duck/analyses/nothing123").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/api/duck/puzzles/0000000g").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(get(&app, "/api/duck/puzzles/00000000").await.status, StatusCode::NOT_FOUND);
}

/// Creates a live game and plays `commands` in it: (id, red's token, blue's token).
async fn live_game(app: &Router, commands: &[&str]) -> (String, String, String) {
    let created = post(app, "/api/live/games", json!({"name": "Ann", "color": "red"})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let red = created.body["token"].as_str().unwrap().to_owned();
    let invite = created.body["invite"].as_str().unwrap().to_owned();
    for (ply, command) in commands.iter().enumerate() {
        let token = if ply % 2 == 0 { &red } else { &invite };
        let act = json!({"token": token, "action": "move", "command": command});
        let reply = post(app, &format!("/api/live/games/{id}/act"), act).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    (id, red, invite)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_live_game_is_analysed_and_explored() {
    let app = arbiter_web::app();
    let (id, _, blue) = live_game(&app, &["3 4 4 4", "6 4 5 4"]).await;
    let reply = post(&app, "/api/duck/analyses", json!({"game": id, "nodes": 500})).await;
    assert_eq!(
        reply.status,
        StatusCode::CONFLICT,
        "an ongoing game is not analysed: {}",
        reply.text
    );
    let resign = json!({"token": blue, "action": "resign"});
    assert_eq!(
        post(&app, &format!("/api/live/games/{id}/act"), resign).await.status,
        StatusCode::OK
    );
    let reply = post(&app, "/api/duck/analyses", json!({"game": id, "nodes": 500})).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    let analysis = reply.body["id"].as_str().unwrap().to_owned();
    let done = finished(&app, &analysis).await;
    assert_eq!(done["game"], id.as_str());
    assert_eq!(done["report"]["commands"].as_array().unwrap().len(), 2);
    let by_game = get(&app, &format!("/api/duck/analyses/game/{id}")).await;
    assert_eq!(by_game.body["id"], analysis.as_str());

    // The explorer reads the game once it has ended (its first worker looks every few seconds).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let reply = post(&app, "/api/duck/explorer", json!({"commands": []})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        if let Some(row) = reply.body["moves"].as_array().and_then(|rows| rows.first()) {
            assert_eq!(row["command"], "3 4 4 4");
            assert_eq!(row["uci"], "e4e5");
            assert_eq!((row["games"].clone(), row["red_wins"].clone()), (json!(1), json!(1)));
            assert_eq!(row["score"], 1.0, "red, who played it, won");
            assert!(row["eval"].is_number(), "the analysis's evaluation: {row}");
            break;
        }
        assert!(Instant::now() < deadline, "the explorer never saw the game");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = post(&app, "/api/duck/explorer", json!({"commands": ["3 4 4 4"]})).await;
    assert_eq!(after.body["moves"][0]["command"], "6 4 5 4");
    let nowhere = post(&app, "/api/duck/explorer", json!({"commands": ["3 0 4 0"]})).await;
    assert_eq!(nowhere.body, json!({"games": 0, "moves": []}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_judged_move_by_move_and_rated() {
    let app = arbiter_web::app();
    let themes = get(&app, "/api/duck/puzzles/themes").await;
    assert!(themes.body["count"].as_u64().unwrap() > 0, "{}", themes.text);
    // A puzzle of two moves of the solver, to see a reply.
    let puzzle = get(&app, "/api/duck/puzzles/next?theme=short").await;
    assert_eq!(puzzle.status, StatusCode::OK, "{}", puzzle.text);
    assert!(puzzle.body.get("solution").is_none(), "the solution stays on the server");
    let id = puzzle.body["id"].as_str().unwrap().to_owned();
    assert_eq!(puzzle.body["moves"], 2);
    let listed = arbiter_duck_learn::puzzle::Collection::shipped().unwrap();
    let solution: Vec<String> =
        listed.get(&id).unwrap().solution.iter().map(ToString::to_string).collect();

    let url = format!("/api/duck/puzzles/{id}/move");
    let first = post(&app, &url, json!({"played": [], "move": solution[0]})).await;
    assert_eq!(first.body["correct"], true, "{}", first.text);
    assert_eq!(first.body["reply"], solution[1].as_str());
    assert_eq!(first.body["done"], false);
    let last = post(&app, &url, json!({"played": solution[..2], "move": solution[2]})).await;
    assert_eq!(
        (last.body["correct"].clone(), last.body["done"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(last.body["solution"], json!(solution));
    let out_of_line = post(&app, &url, json!({"played": [solution[1]], "move": solution[0]})).await;
    assert_eq!(out_of_line.status, StatusCode::CONFLICT);

    // A wrong move ends the attempt with the solution.
    let position: arbiter_duck::Position = puzzle.body["fen"].as_str().unwrap().parse().unwrap();
    let wrong =
        position.moves().iter().map(ToString::to_string).find(|m| *m != solution[0]).unwrap();
    let failed = post(&app, &url, json!({"played": [], "move": wrong})).await;
    assert_eq!(
        (failed.body["correct"].clone(), failed.body["done"].clone()),
        (json!(false), json!(true))
    );
    assert_eq!(failed.body["solution"], json!(solution));

    // Not signed in: the browser's rating, rated against the puzzle's, which stays.
    let result = format!("/api/duck/puzzles/{id}/result");
    let kept = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let won = post(&app, &result, json!({"solved": true, "player": kept})).await;
    assert_eq!(won.status, StatusCode::OK, "{}", won.text);
    assert_eq!(won.body["signed_in"], false);
    assert!(won.body["player"]["rating"].as_f64().unwrap() > 1500.0);
    assert!(won.body["player"]["deviation"].as_f64().unwrap() < 350.0);
    let shown_again = get(&app, &format!("/api/duck/puzzles/{id}")).await;
    assert_eq!(shown_again.body["rating"], puzzle.body["rating"]);
    let bad = json!({"rating": 1500.0, "deviation": 0.0, "volatility": 0.06});
    assert_eq!(
        post(&app, &result, json!({"solved": true, "player": bad})).await.status,
        StatusCode::BAD_REQUEST
    );

    // Signed in: the store's rating, and the puzzle's moves.
    let signup = post(
        &app,
        "/api/account/signup",
        json!({"username": "solver", "password": "a long password"}),
    )
    .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);
    let cookie =
        signup.headers[header::SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
    let csrf = signup.body["csrf"].as_str().unwrap().to_owned();
    let headers = [("cookie", cookie.as_str()), ("x-csrf-token", csrf.as_str())];
    let refused = send(&app, Method::POST, &result, json!({"solved": false}), &headers[..1]).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "no CSRF token: {}", refused.text);
    let lost = send(&app, Method::POST, &result, json!({"solved": false}), &headers).await;
    assert_eq!(lost.status, StatusCode::OK, "{}", lost.text);
    assert_eq!(
        (lost.body["signed_in"].clone(), lost.body["rated"].clone()),
        (json!(true), json!(true))
    );
    assert!(lost.body["player"]["rating"].as_f64().unwrap() < 1500.0);
    let puzzle_after = lost.body["puzzle"]["rating"].as_f64().unwrap();
    assert!(puzzle_after > puzzle.body["rating"].as_f64().unwrap());
    let twice = send(&app, Method::POST, &result, json!({"solved": true}), &headers).await;
    assert_eq!(twice.body["rated"], false, "only the first attempt is rated");
    let me = send(&app, Method::GET, "/api/duck/puzzles/me", Value::Null, &headers).await;
    assert_eq!(me.body["signed_in"], true);
    assert_eq!(me.body["history"].as_array().unwrap().len(), 1);
    assert_eq!(me.body["history"][0]["puzzle_id"], id.as_str());
    let anonymous = get(&app, "/api/duck/puzzles/me").await;
    assert_eq!(anonymous.body, json!({"signed_in": false}));
}
