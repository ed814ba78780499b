//! The live games' API through the router: seats held by tokens (403 without one, 409 out of
//! turn, both changing nothing), hostile bodies answered 4xx and never 5xx, no token in anything
//! a spectator can read, and the per-client quota on games created.

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

/// Sends `body` (JSON) to `uri` on `app`; returns the status and the reply as text.
async fn send(app: &Router, method: Method, uri: &str, body: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn json(app: &Router, method: Method, uri: &str, body: Value) -> (StatusCode, Value) {
    let (status, text) = send(app, method, uri, &body.to_string()).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new game with red held by the creator: (id, red token, blue token).
async fn red_game(app: &Router) -> (String, String, String) {
    let (status, created) =
        json(app, Method::POST, "/api/live/games", json!({"name": "Ann", "color": "red"})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["seat"], "red");
    let field = |name: &str| created[name].as_str().unwrap().to_owned();
    (field("id"), field("token"), field("invite"))
}

#[tokio::test]
async fn seats_are_held_by_their_tokens_and_refusals_change_nothing() {
    let app = arbiter_web::app();
    let (id, red, blue) = red_game(&app).await;
    let act = format!("/api/live/games/{id}/act");
    let before = json(&app, Method::GET, &format!("/api/live/games/{id}"), json!({})).await.1;

    let (status, reply) = json(
        &app,
        Method::POST,
        &act,
        json!({"token": "nope", "action": "move", "command": "0 3 1 4"}),
    )
    .await;
    assert_eq!((status, reply["reason"].as_str()), (StatusCode::FORBIDDEN, Some("not-a-seat")));
    let (status, reply) = json(
        &app,
        Method::POST,
        &act,
        json!({"token": blue, "action": "move", "command": "9 4 8 4"}),
    )
    .await;
    assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("not-your-turn")));
    let (status, reply) = json(
        &app,
        Method::POST,
        &act,
        json!({"token": red, "action": "move", "command": "0 0 7 0"}),
    )
    .await;
    assert_eq!((status, reply["reason"].as_str()), (StatusCode::CONFLICT, Some("invalid-move")));
    let after = json(&app, Method::GET, &format!("/api/live/games/{id}"), json!({})).await.1;
    assert_eq!(before, after);

    let (status, reply) = json(
        &app,
        Method::POST,
        &act,
        json!({"token": red, "action": "move", "command": "0 3 1 4"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["commands"], json!(["0 3 1 4"]));
    let (status, seat) =
        json(&app, Method::POST, &format!("/api/live/games/{id}/seat"), json!({"token": blue}))
            .await;
    assert_eq!((status, &seat["seat"]), (StatusCode::OK, &json!("blue")));
}

#[tokio::test]
async fn hostile_requests_get_a_4xx_never_a_5xx() {
    let app = arbiter_web::app();
    let (id, red, _) = red_game(&app).await;
    let act = format!("/api/live/games/{id}/act");
    let bodies = [
        "",
        "null",
        "[]",
        "{",
        "{\"token\": 1}",
        &json!({"token": red}).to_string(),
        &json!({"token": red, "action": "fly"}).to_string(),
        &json!({"token": red, "action": "move"}).to_string(),
        &json!({"token": red, "action": "move", "command": 5}).to_string(),
        &json!({"token": red, "action": "move", "command": "1 2 3"}).to_string(),
        &json!({"token": red, "action": "move", "command": "99999999999999999999999 0 0 0"})
            .to_string(),
        &json!({"token": red, "action": "move", "command": "0 3 1 4", "extra": 1}).to_string(),
        &json!({"token": red, "action": "accept-draw"}).to_string(),
        &json!({"token": red, "action": "join", "name": "x".repeat(10_000)}).to_string(),
    ];
    for body in bodies {
        let (status, reply) = send(&app, Method::POST, &act, body).await;
        assert!(status.is_client_error(), "{body}: {status} {reply}");
    }
    let creations = [
        json!({"color": "green"}),
        json!({"time": "5"}),
        json!({"time": "0+0"}),
        json!({"time": 5}),
        json!({"name": 7}),
        json!({"unknown": true}),
    ];
    for body in creations {
        let (status, reply) = json(&app, Method::POST, "/api/live/games", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {reply}");
    }
    let paths = [
        (Method::GET, "/api/live/games/short".to_owned(), StatusCode::BAD_REQUEST),
        (Method::GET, "/api/live/games/0000000000".to_owned(), StatusCode::NOT_FOUND),
        (Method::GET, "/api/live/games/0000000000/export".to_owned(), StatusCode::NOT_FOUND),
        (Method::POST, "/api/live/games/0000000000/act".to_owned(), StatusCode::NOT_FOUND),
        (Method::GET, format!("/api/live/games/{id}/socket"), StatusCode::BAD_REQUEST),
        (Method::GET, "/api/live/archive?page=x".to_owned(), StatusCode::BAD_REQUEST),
        (
            Method::GET,
            "/api/live/archive?page=99999999999999999999".to_owned(),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (method, path, expected) in paths {
        let body = json!({"token": red, "action": "resign"}).to_string();
        let (status, reply) = send(&app, method, &path, &body).await;
        assert_eq!(status, expected, "{path}: {reply}");
    }
    let (status, _) =
        send(&app, Method::GET, "/api/live/archive?page=0&status=odd&player=%25", "").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn no_token_reaches_a_spectator() {
    let app = arbiter_web::app();
    let (id, red, blue) = red_game(&app).await;
    let act = format!("/api/live/games/{id}/act");
    json(&app, Method::POST, &act, json!({"token": blue, "action": "join", "name": "Bob"})).await;
    json(&app, Method::POST, &act, json!({"token": red, "action": "move", "command": "0 3 1 4"}))
        .await;
    json(&app, Method::POST, &act, json!({"token": blue, "action": "offer-draw"})).await;
    let (status, own) =
        send(&app, Method::POST, &act, &json!({"token": red, "action": "resign"}).to_string())
            .await;
    assert_eq!(status, StatusCode::OK);
    let mut seen = vec![own];
    for path in [
        format!("/api/live/games/{id}"),
        format!("/api/live/games/{id}/export"),
        "/api/live/archive".to_owned(),
        "/api/live/archive?status=over&player=bob".to_owned(),
        format!("/duck/game/{id}"),
        "/duck/games".to_owned(),
    ] {
        let (status, text) = send(&app, Method::GET, &path, "").await;
        assert_eq!(status, StatusCode::OK, "{path}");
        seen.push(text);
    }
    for text in seen {
        assert!(!text.contains(&red) && !text.contains(&blue), "{text}");
    }
    let (_, archive) = json(&app, Method::GET, "/api/live/archive?player=BOB", json!({})).await;
    assert_eq!(archive["total"], 1);
    assert_eq!(archive["games"][0]["winner"], "blue");
    assert_eq!(archive["games"][0]["reason"], "resign");
}

#[tokio::test]
async fn a_client_creating_too_many_games_gets_429() {
    let app = arbiter_web::app();
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(json(&app, Method::POST, "/api/live/games", json!({})).await.0);
    }
    assert!(statuses[..20].iter().all(|&s| s == StatusCode::CREATED), "{statuses:?}");
    assert_eq!(statuses[24], StatusCode::TOO_MANY_REQUESTS);
}
