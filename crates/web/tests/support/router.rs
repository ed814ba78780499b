//! Requests to the app through its router, as the tests of accounts and of learning send them.

// Each test file uses part of it.
#![allow(dead_code)]

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use serde_json::Value;
use tower::ServiceExt;

/// A reply: its status, headers and body, as text and as JSON when it is.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    pub body: Value,
}

/// Sends `body` to `uri` with `extra` headers.
pub async fn send(
    app: &Router,
    method: Method,
    uri: &str,
    body: Value,
    extra: &[(&str, &str)],
) -> Reply {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json");
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = to_bytes(response.into_body(), 16 << 20).await.unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Reply { status, headers, body: serde_json::from_str(&text).unwrap_or(Value::Null), text }
}
