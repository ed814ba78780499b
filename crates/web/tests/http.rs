//! What the app does for the network: replies compressed as the browser accepts (but the engine's
//! streamed lines), and assets revalidated by their entity tag.

use std::io::Read;

use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::response::Response;
use tower::ServiceExt;

/// Sends a GET of `uri` (or a POST of `body`) with `headers`.
async fn send(uri: &str, body: Option<&str>, headers: &[(&str, &str)]) -> Response {
    let mut request = Request::builder().uri(uri);
    if body.is_some() {
        request = request.method("POST").header(header::CONTENT_TYPE, "application/json");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request =
        request.body(body.map_or_else(Body::empty, |text| Body::from(text.to_owned()))).unwrap();
    arbiter_web::app().oneshot(request).await.unwrap()
}

async fn bytes(response: Response) -> Vec<u8> {
    to_bytes(response.into_body(), 64 << 20).await.unwrap().to_vec()
}

fn encoding(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::CONTENT_ENCODING).map(|value| value.to_str().unwrap())
}

#[tokio::test]
async fn replies_are_compressed_as_the_browser_accepts() {
    // The largest script: the board page's is now split in modules of a few kilobytes each.
    let plain = send("/assets/arena.js", None, &[]).await;
    assert_eq!(encoding(plain.headers()), None);
    let plain = bytes(plain).await;

    let gzip = send("/assets/arena.js", None, &[("accept-encoding", "gzip")]).await;
    assert_eq!(gzip.status(), StatusCode::OK);
    assert_eq!(encoding(gzip.headers()), Some("gzip"));
    assert_eq!(gzip.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    let packed = bytes(gzip).await;
    assert!(packed.len() * 2 < plain.len(), "{} of {}", packed.len(), plain.len());
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&packed[..]).read_to_end(&mut unpacked).unwrap();
    assert_eq!(unpacked, plain);

    let brotli = send("/duck", None, &[("accept-encoding", "br, gzip")]).await;
    assert_eq!(encoding(brotli.headers()), Some("br"));

    // The API's replies too: an arena trace is large.
    let index = send("/api/", None, &[("accept-encoding", "gzip")]).await;
    assert_eq!(encoding(index.headers()), Some("gzip"));

    // But not the engine's lines, which must arrive one by one as the search finds them.
    let lines = send(
        "/api/duck/engine",
        Some(r#"{"commands": [], "depth": 2}"#),
        &[("accept-encoding", "gzip, br")],
    )
    .await;
    assert_eq!(lines.headers()[header::CONTENT_TYPE], "application/x-ndjson");
    assert_eq!(encoding(lines.headers()), None);
    let text = String::from_utf8(bytes(lines).await).unwrap();
    assert!(text.ends_with("}\n") && text.contains(r#""event":"best""#), "{text}");
}

#[tokio::test]
async fn assets_are_revalidated_by_their_entity_tag() {
    for path in ["/assets/duck.js", "/assets/style.css", "/duck", "/"] {
        let first = send(path, None, &[]).await;
        assert_eq!(first.status(), StatusCode::OK, "{path}");
        assert_eq!(first.headers()[header::CACHE_CONTROL], "no-cache");
        let tag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34, "{tag}");

        // The same version: a 304 with the tag and no body.
        let again = send(path, None, &[("if-none-match", &tag)]).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.headers()[header::ETAG], tag.as_str());
        assert!(bytes(again).await.is_empty());
        let listed = format!("\"0123\", W/{tag}");
        let weak = send(path, None, &[("if-none-match", &listed)]).await;
        assert_eq!(weak.status(), StatusCode::NOT_MODIFIED, "{path}");

        // Another version: the file.
        let other = send(path, None, &[("if-none-match", "\"0123\"")]).await;
        assert_eq!(other.status(), StatusCode::OK, "{path}");
        assert!(!bytes(other).await.is_empty());
    }
    // Each file its own tag.
    let js = send("/assets/duck.js", None, &[]).await;
    let css = send("/assets/style.css", None, &[]).await;
    assert_ne!(js.headers()[header::ETAG], css.headers()[header::ETAG]);
}

#[tokio::test]
async fn a_large_game_is_traced_in_a_compact_form_that_says_the_same() {
    let input = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../arena/tests/fixtures/official/1.in"
    ))
    .unwrap();
    let trace = |compact: bool| {
        let body = serde_json::json!({"input": input, "game": 20, "from": 0, "compact": compact});
        async move { bytes(send("/api/arena/trace", Some(&body.to_string()), &[]).await).await }
    };
    let full: serde_json::Value = serde_json::from_slice(&trace(false).await).unwrap();
    let compact_bytes = trace(true).await;
    let compact: serde_json::Value = serde_json::from_slice(&compact_bytes).unwrap();
    let full_len = serde_json::to_vec(&full).unwrap().len();
    assert!(compact_bytes.len() * 4 < full_len * 3, "{} of {full_len}", compact_bytes.len());
    // Every piece's state, round by round, is the same read either way.
    let expand = |state: &serde_json::Value| {
        let f = state.as_array().unwrap();
        serde_json::json!({
            "pos": {"row": f[0], "col": f[1]}, "dir": f[2], "alive": f[3], "a": f[4], "b": f[5],
            "respawn_round": f[6], "cooldown": f[7], "freeze": f[8], "silence": f[9]
        })
    };
    let same = |full: &serde_json::Value, compact: &serde_json::Value| {
        let compact: Vec<_> = compact.as_array().unwrap().iter().map(expand).collect();
        assert_eq!(full.as_array().unwrap(), &compact);
    };
    assert_eq!(full["before"].as_array().unwrap().len(), 194);
    same(&full["before"], &compact["before"]);
    let rounds = full["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty());
    for (full_round, compact_round) in rounds.iter().zip(compact["rounds"].as_array().unwrap()) {
        assert_eq!(full_round["events"], compact_round["events"]);
        same(&full_round["pieces"], &compact_round["pieces"]);
    }
}
