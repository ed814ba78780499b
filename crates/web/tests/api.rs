//! The app end to end, without a socket: every request goes through the router as a browser's
//! would (tower's `oneshot`), official data included, and hostile requests never get a 5xx.

use axum::Router;
use axum::body::{Body, BodyDataStream, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use futures_util::StreamExt;
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
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap();
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
            ("POST", "/api/duck/engine"),
            ("POST", "/api/duck/engine/stop"),
            ("POST", "/api/duck/engine/evaluate"),
            ("GET", "/api/arena/rules"),
            ("POST", "/api/arena/judge"),
            ("POST", "/api/arena/trace"),
            ("POST", "/api/chess/check"),
            ("POST", "/api/chess/game"),
            ("POST", "/api/live/games"),
            ("GET", "/api/live/archive"),
            ("GET", "/api/live/games/{id}"),
            ("POST", "/api/live/games/{id}/seat"),
            ("POST", "/api/live/games/{id}/act"),
            ("GET", "/api/live/games/{id}/export"),
            ("GET", "/api/live/games/{id}/socket"),
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
    assert_eq!(
        message,
        "command 1, `0 3 1`: expected the destination column y2 (an integer), found end of input"
    );
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
    // Every red piece that can move is listed with its reachable points: 43 moves in all. The
    // ducks on (2,0) and (2,8) are hemmed in and not listed.
    let moves: usize =
        start["moves"].as_array().unwrap().iter().map(|m| m["to"].as_array().unwrap().len()).sum();
    assert_eq!((start["moves"].as_array().unwrap().len(), moves), (14, 43));
    assert!(!start["moves"].as_array().unwrap().iter().any(|m| m["from"] == json!([2, 0])));

    let refused = ok("/api/duck/move", json!({"commands": [], "command": "0 1 1 3"})).await;
    assert_eq!(refused["entry"]["result"], "Invalid command");
    assert_eq!(refused["entry"]["reason"], "horse leg (0,2) is occupied by red elephant");
    assert!(refused["position"].is_null());

    let played = ok("/api/duck/move", json!({"commands": ["0 3 1 4"], "command": "9 4 8 4"})).await;
    assert_eq!(played["entry"]["result"], "blue captain;NA;no;no");
    assert_eq!(played["position"]["last"], json!({"from": [9, 4], "to": [8, 4]}));
    assert_eq!(played["position"]["ply"], 2);

    // The FEN is the library's, for the start and after the moves played (invalid ones change
    // nothing).
    assert_eq!(start["fen"], arbiter_duck::fen::INITIAL);
    let mut position = arbiter_duck::Position::new();
    for mv in ["d1e2", "e10e9"] {
        let _ = position.make(mv.parse().unwrap());
    }
    assert_eq!(played["position"]["fen"], position.to_string());
    let game = ok("/api/duck/game", json!({"commands": ["0 3 1 4", "0 0 0 0", "9 4 8 4"]})).await;
    assert_eq!(game["position"]["fen"], position.to_string());

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
        "/api/duck/engine",
        "/api/duck/engine/stop",
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

/// The JSON lines of a streamed reply, read as they come.
struct Lines {
    stream: BodyDataStream,
    buffer: Vec<u8>,
}

impl Lines {
    /// Sends `body` to the engine through `app`; returns the status and, on success, the lines.
    async fn search(app: &Router, body: Value) -> (StatusCode, Lines) {
        let request = Request::post("/api/duck/engine")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        if status == StatusCode::OK {
            let kind = &response.headers()[header::CONTENT_TYPE];
            assert_eq!(kind, "application/x-ndjson");
        }
        (status, Lines { stream: response.into_body().into_data_stream(), buffer: Vec::new() })
    }

    /// The next line, or `None` at the end of the reply.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&byte| byte == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                return Some(serde_json::from_slice(&line).expect("a JSON line"));
            }
            let chunk = self.stream.next().await?.expect("a readable body");
            self.buffer.extend_from_slice(&chunk);
        }
    }

    /// The message of an error reply (plain JSON, not lines).
    async fn error(&mut self) -> String {
        while let Some(chunk) = self.stream.next().await {
            self.buffer.extend_from_slice(&chunk.expect("a readable body"));
        }
        let reply: Value = serde_json::from_slice(&self.buffer).expect("a JSON reply");
        reply["error"].as_str().expect("an error message").to_owned()
    }

    /// Every line left.
    async fn rest(&mut self) -> Vec<Value> {
        let mut lines = Vec::new();
        while let Some(line) = self.next().await {
            lines.push(line);
        }
        assert!(self.buffer.is_empty(), "an unfinished line");
        lines
    }
}

/// Commands after which red's duck on (5,6) can take the blue captain on (8,4), red to move.
const DUCK_TAKES_CAPTAIN: [&str; 14] = [
    "0 4 1 4", "6 4 5 4", "3 2 4 1", "9 0 8 0", "4 1 4 2", "6 6 6 5", "1 4 1 3", "6 5 6 4",
    "3 4 2 3", "9 4 8 4", "3 8 4 8", "5 4 6 3", "2 8 5 6", "6 0 5 0",
];

#[tokio::test]
async fn the_engine_streams_its_iterations_and_answers_a_valid_move() {
    let app = arbiter_web::app();
    let (status, mut lines) =
        Lines::search(&app, json!({"commands": DUCK_TAKES_CAPTAIN, "depth": 3})).await;
    assert_eq!(status, StatusCode::OK);
    let lines = lines.rest().await;
    let start = &lines[0];
    assert_eq!((start["event"].as_str(), start["turn"].as_str()), (Some("start"), Some("red")));
    assert_eq!((start["movetime"].as_u64(), start["depth"].as_u64()), (Some(1000), Some(3)));
    assert_eq!(start["id"].as_str().map(str::len), Some(16));

    // An info line per iteration, then the answer: the duck takes the captain, a win at once.
    let best = lines.last().unwrap();
    assert_eq!(best["event"], "best");
    assert_eq!(
        best["move"],
        json!({
            "command": "5 6 8 4",
            "uci": "g6e9",
            "from": [5, 6],
            "to": [8, 4],
            "notation": {"letter": "D 5,6×8,4#", "glyph": "鸭 5,6×8,4#"}
        })
    );
    assert_eq!(best["score"], json!({"mate": 1}));
    let infos = &lines[1..lines.len() - 1];
    assert!(!infos.is_empty());
    for (depth, info) in (1..).zip(infos) {
        assert_eq!((info["event"].as_str(), info["depth"].as_u64()), (Some("info"), Some(depth)));
        let line = info["line"].as_str().unwrap();
        assert!(line.starts_with(&format!("info depth {depth} ")), "{line}");
        // The UCI line's principal variation is the one given as moves.
        let pv: Vec<&str> =
            info["pv"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect();
        assert!(line.ends_with(&format!(" pv {}", pv.join(" "))), "{line}");
    }
    assert_eq!(infos.last().unwrap()["score"], best["score"]);

    // The judge takes the move: it ends the game.
    let mut commands = DUCK_TAKES_CAPTAIN.to_vec();
    let command = best["move"]["command"].as_str().unwrap();
    let played = ok("/api/duck/move", json!({"commands": commands, "command": command})).await;
    assert_eq!(played["entry"]["result"], "red duck;blue captain;no;yes");

    // Then there is nothing to search: one line, no move, and why.
    commands.push(command);
    let (status, mut lines) = Lines::search(&app, json!({"commands": commands})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        lines.rest().await,
        [
            json!({"event": "best", "move": null, "reason": "the game is over: red has captured the blue captain"})
        ]
    );
}

#[tokio::test]
async fn the_engine_plays_either_side_with_scores_seen_by_red() {
    // Blue to move after one red command; a shallow search answers a blue move.
    let app = arbiter_web::app();
    let (_, mut lines) = Lines::search(&app, json!({"commands": ["0 3 1 4"], "depth": 2})).await;
    let lines = lines.rest().await;
    assert_eq!(lines[0]["turn"], "blue");
    let best = lines.last().unwrap();
    let command = best["move"]["command"].as_str().unwrap();
    let played = ok("/api/duck/move", json!({"commands": ["0 3 1 4"], "command": command})).await;
    assert!(played["entry"]["result"].as_str().unwrap().starts_with("blue "), "{played}");
    // The UCI line gives the side to move's score, the JSON red's.
    let info = &lines[lines.len() - 2];
    let cp = info["score"]["cp"].as_i64().expect("a score in centipawns");
    let line = info["line"].as_str().unwrap();
    assert!(line.contains(&format!(" score cp {} ", -cp)), "{line} vs {cp}");
}

#[tokio::test]
async fn a_game_may_start_from_a_fen_and_a_refused_one_says_why() {
    // Red's car on e2 takes the captain on e10.
    let fen = "4c4/9/9/9/9/9/9/9/4R4/3C5 w";
    let position = ok("/api/duck/position", json!({"commands": [], "fen": fen})).await;
    assert_eq!(position["fen"], "4c4/9/9/9/9/9/9/9/4R4/3C5 w - - 0 1");
    assert_eq!(
        (position["turn"].as_str(), position["pieces"].as_array().map(Vec::len)),
        (Some("red"), Some(3))
    );
    let played =
        ok("/api/duck/move", json!({"commands": [], "command": "1 4 9 4", "fen": fen})).await;
    assert_eq!(played["entry"]["result"], "red car;blue captain;no;yes");
    assert_eq!(
        played["entry"]["notation"],
        json!({"letter": "R 1,4×9,4#", "glyph": "俥 1,4×9,4#"})
    );
    let game = ok("/api/duck/game", json!({"commands": ["1 4 9 4"], "fen": fen})).await;
    assert_eq!(game["position"]["winner"], "red");
    let (_, mut lines) =
        Lines::search(&arbiter_web::app(), json!({"commands": [], "fen": fen, "depth": 2})).await;
    assert_eq!(lines.rest().await.last().unwrap()["move"]["command"], "1 4 9 4");
    for (fen, reason) in [
        ("rrr1c4/9/9/9/9/9/9/9/9/4C4 w", "FEN: 3 blue cars, more than the 2 a side starts with"),
        ("4c4/9/9/9/9/9/9/9/9/9 w", "FEN: no red captain, though red has just moved"),
        ("4c4/9/9/9/9/9/9/9/9/4X4 w", "FEN: character 22: expected a piece letter"),
    ] {
        let blue = fen.replace(" w", " b");
        let fen = if reason.contains("captain") { blue.as_str() } else { fen };
        let message = error(
            "/api/duck/position",
            json!({"commands": [], "fen": fen}),
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(message.starts_with(reason), "{fen}: {message}");
    }
}

#[tokio::test]
async fn the_engine_reports_several_lines_and_the_threat() {
    let app = arbiter_web::app();
    let (status, mut lines) =
        Lines::search(&app, json!({"commands": ["0 3 1 4"], "depth": 3, "multipv": 3})).await;
    assert_eq!(status, StatusCode::OK);
    let lines = lines.rest().await;
    let last: Vec<&Value> =
        lines.iter().filter(|line| line["event"] == "info" && line["depth"] == 3).collect();
    let numbers: Vec<_> = last.iter().map(|line| line["multipv"].as_u64()).collect();
    assert_eq!(numbers, [Some(1), Some(2), Some(3)]);
    let firsts: Vec<&Value> = last.iter().map(|line| &line["pv"][0]["command"]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    // Blue is to move: its best line is the one red likes least.
    let cps: Vec<i64> = last.iter().map(|line| line["score"]["cp"].as_i64().unwrap()).collect();
    assert!(cps[0] <= cps[1] && cps[1] <= cps[2], "{cps:?}");
    assert_eq!(lines.last().unwrap()["move"], last[0]["pv"][0]);

    // The threat against red on the captain's file: blue's duck would take the captain.
    let mut commands = DUCK_TAKES_CAPTAIN.to_vec();
    commands.pop();
    let (_, mut lines) =
        Lines::search(&app, json!({"commands": commands, "depth": 2, "threat": true})).await;
    let lines = lines.rest().await;
    assert_eq!(lines[0]["turn"], "red");
    let (_, mut lines) =
        Lines::search(&app, json!({"commands": DUCK_TAKES_CAPTAIN, "depth": 2, "threat": true}))
            .await;
    let lines = lines.rest().await;
    assert_eq!(lines[0]["turn"], "blue");
    assert!(lines.last().unwrap()["move"]["command"].is_string());
    assert_eq!(
        error("/api/duck/engine", json!({"commands": [], "multipv": 6}), StatusCode::BAD_REQUEST)
            .await,
        "multipv 6: expected 1 to 5 lines"
    );
}

#[tokio::test]
async fn a_game_is_evaluated_with_its_mistakes() {
    let mut commands = DUCK_TAKES_CAPTAIN.to_vec();
    commands.push("5 6 8 4");
    let reply = ok("/api/duck/engine/evaluate", json!({"commands": commands})).await;
    assert_eq!(reply["complete"], true);
    let points = reply["points"].as_array().unwrap();
    assert_eq!(points.len(), commands.len() + 1);
    for (ply, point) in points.iter().enumerate() {
        assert_eq!(point["ply"], ply);
    }
    // Blue's last command left its captain to the duck: red captures it next.
    assert_eq!(points[14]["score"], json!({"mate": 1}));
    assert_eq!(points[14]["mistake"], true);
    assert_eq!(points[14]["best"]["command"], "5 6 8 4");
    let last = points.last().unwrap();
    assert_eq!((&last["score"], &last["winner"]), (&Value::Null, &json!("red")));
    assert_eq!(points[0]["mistake"], false);
    assert_eq!(
        error(
            "/api/duck/engine/evaluate",
            json!({"commands": [], "nodes": 0}),
            StatusCode::BAD_REQUEST
        )
        .await,
        "nodes 0: expected 1 to 200000 nodes per position"
    );
}

#[tokio::test]
async fn engine_requests_are_checked() {
    let app = arbiter_web::app();
    for (body, wanted) in [
        (json!({"commands": "0 3 1 4"}), "malformed JSON body"),
        (json!({"moves": []}), "malformed JSON body"),
        (json!({"commands": [], "movetime": -5}), "malformed JSON body"),
        (json!({"commands": ["0 3 1"]}), "command 1, `0 3 1`: expected the destination column y2"),
        (json!({"commands": [], "depth": 0}), "depth 0: expected 1 to 64 plies"),
        (json!({"commands": [], "nodes": 0}), "nodes 0: expected at least 1 node"),
        // The time cap: 10 s per move at most.
        (
            json!({"commands": [], "movetime": 60_000}),
            "movetime 60000: expected 1 to 10000 milliseconds (the server searches at most 10 s",
        ),
    ] {
        let (status, mut lines) = Lines::search(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let error = lines.error().await;
        assert!(error.starts_with(wanted), "{body}: {error}");
    }
    let commands = vec!["0 0 0 0"; arbiter_web::limits::DUCK_COMMANDS + 1];
    let (status, _) = Lines::search(&app, json!({"commands": commands})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);

    // Stopping a search that is not running says so.
    let stopped = ok("/api/duck/engine/stop", json!({"id": "0123456789abcdef"})).await;
    assert_eq!(stopped, json!({"stopped": false}));
    error("/api/duck/engine/stop", json!({"id": 5}), StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_stopped_search_answers_its_best_move_so_far() {
    let app = arbiter_web::app();
    let (status, mut lines) =
        Lines::search(&app, json!({"commands": [], "movetime": 10_000})).await;
    assert_eq!(status, StatusCode::OK);
    let start = lines.next().await.unwrap();
    // Wait for the first iteration, so that the search is surely under way.
    assert_eq!(lines.next().await.unwrap()["depth"], 1);
    let stop = Request::post("/api/duck/engine/stop")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json!({"id": start["id"]}).to_string()))
        .unwrap();
    let response = app.clone().oneshot(stop).await.unwrap();
    let reply = to_bytes(response.into_body(), 1 << 10).await.unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&reply).unwrap(), json!({"stopped": true}));
    let rest = lines.rest().await;
    let best = rest.last().unwrap();
    assert_eq!(best["event"], "best");
    // It ended on the stop, long before its 10 s.
    assert!(best["time"].as_u64().unwrap() < 10_000, "{best}");
    let command = best["move"]["command"].as_str().unwrap();
    let played = ok("/api/duck/move", json!({"commands": [], "command": command})).await;
    assert!(played["entry"]["valid"].as_bool().unwrap(), "{played}");
    // Its id is forgotten once it has answered.
    let again = app
        .clone()
        .oneshot(
            Request::post("/api/duck/engine/stop")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(json!({"id": start["id"]}).to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    let reply = to_bytes(again.into_body(), 1 << 10).await.unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&reply).unwrap(), json!({"stopped": false}));
}

#[tokio::test]
async fn an_overloaded_engine_answers_429_and_recovers_when_clients_leave() {
    use arbiter_web::limits::{SEARCH_QUEUE, search_slots};
    let app = arbiter_web::app();
    // Every core searching for 10 s, and the queue full.
    let mut held = Vec::new();
    for _ in 0..search_slots() + SEARCH_QUEUE {
        let (status, lines) =
            Lines::search(&app, json!({"commands": [], "movetime": 10_000})).await;
        assert_eq!(status, StatusCode::OK);
        held.push(lines);
    }
    let (status, mut refused) = Lines::search(&app, json!({"commands": [], "depth": 1})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let message = refused.error().await;
    assert!(message.starts_with("the engine is busy"), "{message}");
    // A finished game needs no search, so it is answered even now.
    let mut over = DUCK_TAKES_CAPTAIN.to_vec();
    over.push("5 6 8 4");
    let (status, _) = Lines::search(&app, json!({"commands": over})).await;
    assert_eq!(status, StatusCode::OK);

    // The clients go away: their searches stop (or never start) and free their places.
    drop(held);
    let mut status = StatusCode::TOO_MANY_REQUESTS;
    for _ in 0..3000 {
        let (got, mut lines) = Lines::search(&app, json!({"commands": [], "depth": 1})).await;
        status = got;
        if status == StatusCode::OK {
            assert_eq!(lines.rest().await.last().unwrap()["event"], "best");
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(status, StatusCode::OK);
}
