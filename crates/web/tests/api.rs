//! The app end to end, without a socket: every request goes through the router as a browser's
//! would (tower's `oneshot`), official data included, and hostile requests never get a 5xx.

use axum::body::{Body, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

const DUCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../duck/tests/fixtures");
const ARENA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../arena/tests/fixtures");
const CHESS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess-record/tests/fixtures");

fn read(path: String) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Sends a request and returns the status, the content type and the body.
async fn send(method: Method, uri: &str, body: impl Into<Body>) -> (StatusCode, String, Vec<u8>) {
    let request = Request::builder().method(method).uri(uri).body(body.into()).unwrap();
    let response = arbiter_web::app().oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = to_bytes(response.into_body(), 64 << 20).await.unwrap();
    (status, kind, bytes.to_vec())
}

async fn get(uri: &str) -> (StatusCode, String, Vec<u8>) {
    send(Method::GET, uri, Body::empty()).await
}

/// POSTs `body` as JSON; returns the status and the JSON reply.
async fn post(uri: &str, body: &Value) -> (StatusCode, Value) {
    let (status, kind, bytes) = send(Method::POST, uri, body.to_string()).await;
    assert!(kind.starts_with("application/json"), "{uri}: {kind}");
    (status, serde_json::from_slice(&bytes).expect("a JSON reply"))
}

async fn ok(uri: &str, body: Value) -> Value {
    let (status, reply) = post(uri, &body).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {reply}");
    reply
}

async fn error(uri: &str, body: Value, status: StatusCode) -> String {
    let (got, reply) = post(uri, &body).await;
    assert_eq!(got, status, "{uri}: {reply}");
    reply["error"].as_str().expect("an error message").to_owned()
}

#[tokio::test]
async fn the_index_lists_every_endpoint() {
    let (status, _, bytes) = get("/api/").await;
    assert_eq!(status, StatusCode::OK);
    let index: Value = serde_json::from_slice(&bytes).unwrap();
    let listed: Vec<(&str, &str)> = index["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["method"].as_str().unwrap(), e["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("GET", "/api/"),
            ("POST", "/api/duck/game"),
            ("POST", "/api/duck/position"),
            ("POST", "/api/duck/move"),
            ("POST", "/api/duck/import"),
            ("GET", "/api/arena/rules"),
            ("POST", "/api/arena/judge"),
            ("POST", "/api/arena/trace"),
            ("POST", "/api/chess/check"),
        ]
    );
    // Each listed endpoint answers its method with something other than 404 or 405.
    for (method, path) in listed {
        let method: Method = method.parse().unwrap();
        let (status, _, _) = send(method, path, "{}").await;
        assert!(
            status != StatusCode::NOT_FOUND && status != StatusCode::METHOD_NOT_ALLOWED,
            "{path}: {status}"
        );
    }
}

#[tokio::test]
async fn pages_and_assets_are_served_from_the_binary() {
    for (path, kind) in [
        ("/", "text/html"),
        ("/duck", "text/html"),
        ("/arena", "text/html"),
        ("/chess", "text/html"),
        ("/assets/style.css", "text/css"),
        ("/assets/duck.js", "text/javascript"),
        ("/assets/fonts/duck-glyphs.woff2", "font/woff2"),
        ("/assets/favicon.svg", "image/svg+xml"),
    ] {
        let (status, got, body) = get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(got.starts_with(kind), "{path}: {got}");
        assert!(!body.is_empty(), "{path}");
    }
}

#[tokio::test]
async fn nothing_outside_the_embedded_assets_is_reachable() {
    for path in [
        "/nope",
        "/duck/",
        "/assets/",
        "/assets/nope.js",
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/%2e%2e%2fCargo.toml",
        "/assets/..%2f..%2f..%2fCargo.toml",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/../../etc/passwd",
        "/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/assets//etc/passwd",
        "/assets/%00",
        "/src/lib.rs",
        "/Cargo.toml",
    ] {
        let (status, _, body) = get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!String::from_utf8_lossy(&body).contains("root:"), "{path}");
    }
    let (status, kind, body) = get("/api/nope/deeper").await;
    assert_eq!((status, kind.as_str()), (StatusCode::NOT_FOUND, "application/json"));
    assert!(String::from_utf8_lossy(&body).contains("GET /api/ lists them"));
}

#[tokio::test]
async fn malformed_requests_get_a_4xx_with_a_message() {
    for body in ["", "{", "null", "[]", "{\"commands\": 5}", "{\"commands\": [1, 2]}", "\u{0}"] {
        let (status, _, reply) = send(Method::POST, "/api/duck/game", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body:?}");
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert!(reply["error"].as_str().unwrap().starts_with("malformed JSON body"), "{reply}");
    }
    let message =
        error("/api/duck/game", json!({"commands": [], "extra": 1}), StatusCode::BAD_REQUEST).await;
    assert!(message.contains("unknown field `extra`"), "{message}");
    let message =
        error("/api/duck/game", json!({"commands": ["0 3 1"]}), StatusCode::BAD_REQUEST).await;
    assert_eq!(message, "command 1, `0 3 1`: expected four integers `x1 y1 x2 y2`");
    let (status, _, _) = send(Method::GET, "/api/duck/game", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let (status, _, _) = send(Method::DELETE, "/api/", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn bodies_and_inputs_beyond_the_limits_are_refused() {
    let big = format!("{{\"text\": \"{}\"}}", "0 ".repeat(600_000));
    let (status, _, reply) = send(Method::POST, "/api/duck/import", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(String::from_utf8_lossy(&reply).contains("1 MiB"));
    // A body announced too large is refused before it is read.
    let request = Request::post("/api/duck/game")
        .header(header::CONTENT_LENGTH, "2000000")
        .body(Body::from("{}"))
        .unwrap();
    let response = arbiter_web::app().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // Within the body limit, but more commands than a game may have.
    let commands = vec!["0 0 0 0"; arbiter_web::limits::DUCK_COMMANDS + 1];
    let message =
        error("/api/duck/game", json!({"commands": commands}), StatusCode::PAYLOAD_TOO_LARGE).await;
    assert!(message.contains("at most 100000"), "{message}");
    let text = format!("{}\n", arbiter_web::limits::DUCK_COMMANDS + 1);
    let message =
        error("/api/duck/import", json!({"text": text}), StatusCode::PAYLOAD_TOO_LARGE).await;
    assert!(message.contains("at most 100000"), "{message}");
}

#[tokio::test]
async fn duck_games_replay_as_the_judge_says() {
    for n in 1..=4 {
        let input = read(format!("{DUCK}/official/{n}.in"));
        let answer = read(format!("{DUCK}/official/{n}.ans"));
        let reply = ok("/api/duck/import", json!({"text": input})).await;
        let results: Vec<&str> = reply["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["result"].as_str().unwrap())
            .collect();
        assert_eq!(results, answer.lines().collect::<Vec<_>>(), "official/{n}");
        // The export is the official input again, up to spacing.
        let exported = reply["input"].as_str().unwrap();
        let tokens = |text: &str| text.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(tokens(exported), tokens(&input), "official/{n}");
        // Replaying the exported commands gives the same game.
        let commands: Vec<&str> = reply["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["command"].as_str().unwrap())
            .collect();
        let again = ok("/api/duck/game", json!({"commands": commands})).await;
        assert_eq!(again["entries"], reply["entries"], "official/{n}");
    }
}

#[tokio::test]
async fn duck_positions_say_what_the_page_draws() {
    let start = ok("/api/duck/position", json!({"commands": []})).await;
    assert_eq!(start["turn"], "red");
    assert_eq!(start["pieces"].as_array().unwrap().len(), 32);
    // Every red piece is listed with its reachable points: 43 moves in all.
    let moves: usize =
        start["moves"].as_array().unwrap().iter().map(|m| m["to"].as_array().unwrap().len()).sum();
    assert_eq!((start["moves"].as_array().unwrap().len(), moves), (16, 43));

    let refused = ok("/api/duck/move", json!({"commands": [], "command": "0 1 1 3"})).await;
    assert_eq!(refused["entry"]["result"], "Invalid command");
    assert_eq!(refused["entry"]["reason"], "horse leg (0,2) is occupied by red elephant");
    assert!(refused["position"].is_null());

    let played = ok("/api/duck/move", json!({"commands": ["0 3 1 4"], "command": "9 4 8 4"})).await;
    assert_eq!(played["entry"]["result"], "blue captain;NA;no;no");
    assert_eq!(played["position"]["last"], json!({"from": [9, 4], "to": [8, 4]}));
    assert_eq!(played["position"]["ply"], 2);

    // A check, with the attacker of the captain.
    let moves = "0 4 1 4,6 4 5 4,3 2 4 1,9 0 8 0,4 1 4 2,6 6 6 5,1 4 1 3,6 5 6 4,3 4 2 3,9 4 8 4,3 8 4 8,5 4 6 3,2 8 5 6";
    let commands: Vec<&str> = moves.split(',').collect();
    let check = ok("/api/duck/game", json!({"commands": commands})).await;
    assert_eq!(check["position"]["check"], true);
    assert_eq!(
        check["position"]["checks"],
        json!([{"captain": [8, 4], "color": "blue", "attackers": [[5, 6]]}])
    );
    // `at` shows an earlier position of the same game.
    let earlier = ok("/api/duck/game", json!({"commands": commands, "at": 3})).await;
    assert_eq!(
        (earlier["position"]["ply"].as_u64(), earlier["position"]["turn"].as_str()),
        (Some(3), Some("blue"))
    );
    assert_eq!(earlier["entries"].as_array().unwrap().len(), 13);
}

#[tokio::test]
async fn arena_runs_and_traces_the_official_data() {
    let input = read(format!("{ARENA}/official/1.in"));
    let reply = ok("/api/arena/judge", json!({"input": input})).await;
    assert_eq!(reply["output"].as_str().unwrap(), read(format!("{ARENA}/official/1.ans")));
    assert_eq!(reply["games"].as_array().unwrap().len(), 20);

    // Game 2, window after window: the states of the last round are the judge's positions.
    let game = &reply["games"][1];
    let rounds = game["rounds"].as_u64().unwrap();
    let mut from = 0;
    let mut last = Value::Null;
    let mut seen = 0;
    while let Some(start) = Some(from) {
        let window =
            ok("/api/arena/trace", json!({"input": input, "game": 2, "from": start})).await;
        assert_eq!(window["start"]["kind"], "start");
        assert_eq!(window["start"]["rounds"].as_u64(), Some(rounds));
        let list = window["rounds"].as_array().unwrap();
        for round in list {
            seen += 1;
            assert_eq!(round["round"].as_u64(), Some(seen));
        }
        last = list.last().unwrap().clone();
        match window["next"].as_u64() {
            Some(next) => from = next,
            None => break,
        }
    }
    assert_eq!(seen, rounds);
    let positions: Vec<String> = last["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{} {}", p["pos"]["row"], p["pos"]["col"]))
        .collect();
    let output = game["output"].as_str().unwrap();
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(positions, lines[lines.len() - positions.len()..]);
    assert_eq!(last["events"].as_array().unwrap().last().unwrap()["kind"], "end");

    let message =
        error("/api/arena/trace", json!({"input": input, "game": 21}), StatusCode::BAD_REQUEST)
            .await;
    assert_eq!(message, "no game 21: the input has 20 games");
    let message = error(
        "/api/arena/judge",
        json!({"input": input, "rules": "official,+nope"}),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(message.starts_with("rules: unknown rule switch `nope`"), "{message}");
    let message = error(
        "/api/arena/judge",
        json!({"input": "1\n1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 fly\n"}),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(message.starts_with("4:19: expected a skill name"), "{message}");
}

#[tokio::test]
async fn arena_sample_under_its_reading() {
    let input = read(format!("{ARENA}/sample/1.in"));
    let reply =
        ok("/api/arena/judge", json!({"input": input, "rules": "official,+shadow-any"})).await;
    assert_eq!(reply["output"].as_str().unwrap(), read(format!("{ARENA}/sample/1.ans")));
    assert_eq!(reply["rules"], "official,+shadow-any");
    let (status, _, bytes) = get("/api/arena/rules").await;
    assert_eq!(status, StatusCode::OK);
    let rules: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(rules["switches"].as_array().unwrap().len(), arbiter_arena::rules::SWITCHES.len());
}

#[tokio::test]
async fn chess_records_and_pgn() {
    let sample = read(format!("{CHESS}/sample/1.in"));
    let reply = ok("/api/chess/check", json!({"text": sample})).await;
    assert_eq!((reply["kind"].as_str(), reply["verdict"].as_str()), (Some("record"), Some("Yes")));
    assert_eq!(reply["boards"].as_array().unwrap().len(), 30);

    let reply =
        ok("/api/chess/check", json!({"text": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0"}))
            .await;
    assert_eq!(reply["verdict"], "No");
    assert_eq!(reply["mistake"]["token"], "0-0");
    assert_eq!(reply["mistake"]["canonical"], "O-O");
    assert_eq!(reply["mistake"]["move"], json!({"from": "e1", "to": "g1"}));

    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[White \"C\"]\n\n1. e4 e5 2. Ng1f3 *\n";
    let reply = ok("/api/chess/check", json!({"text": pgn})).await;
    assert_eq!(
        (reply["kind"].as_str(), reply["ok"].as_u64(), reply["wrong"].as_u64()),
        (Some("pgn"), Some(1), Some(1))
    );
    let message =
        error("/api/chess/check", json!({"text": pgn, "mode": "loose"}), StatusCode::BAD_REQUEST)
            .await;
    assert_eq!(message, "mode `loose`: expected `strict` or `lenient`");
}

/// Bytes from a fixed linear congruential sequence.
fn noise(seed: &mut u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*seed >> 56) as u8
        })
        .collect()
}

#[tokio::test]
async fn no_body_gets_a_5xx() {
    let mut seed = 9;
    let shapes = [
        json!({"commands": ["99999999999999999999 -99999999999999999999 0 0", "-1 -1 -1 -1"], "at": 18446744073709551615u64}),
        json!({"commands": [], "command": "9 9 9 9"}),
        json!({"text": "3\n0 0 0 0\n"}),
        json!({"input": "20\n", "rules": "statement"}),
        json!({"input": "1\n100 100 200 1000\n", "game": 1, "from": 4294967295u64}),
        json!({"text": "1. e4 {", "mode": "lenient"}),
        json!({"text": "[White \"\u{feff}\"]\n\n1. e4 (1... e5 (1... d5 ((( *"}),
    ];
    for uri in [
        "/api/duck/game",
        "/api/duck/position",
        "/api/duck/move",
        "/api/duck/import",
        "/api/arena/judge",
        "/api/arena/trace",
        "/api/chess/check",
    ] {
        for body in &shapes {
            let (status, _, _) = send(Method::POST, uri, body.to_string()).await;
            assert!(status.is_success() || status.is_client_error(), "{uri} {body}: {status}");
        }
        for len in [0, 1, 2, 7, 64, 1000] {
            let body = noise(&mut seed, len);
            let (status, _, _) = send(Method::POST, uri, body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body:?}");
        }
    }
}
