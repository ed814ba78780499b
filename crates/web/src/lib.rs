//! arbiter's local web app: a Duck Chess board, a skill arena viewer and a chess record checker,
//! served by [axum] with every page and script embedded in the binary.
//!
//! ```
//! use axum::body::Body;
//! use axum::http::Request;
//! use tower::ServiceExt;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let request = Request::post("/api/duck/move")
//!     .body(Body::from(r#"{"commands": [], "command": "0 3 1 4"}"#))
//!     .unwrap();
//! let response = arbiter_web::app().oneshot(request).await.unwrap();
//! assert_eq!(response.status(), 200);
//! # });
//! ```
//!
//! The pages know no rule: they draw what the JSON API under `/api/` tells them (the points a
//! piece can reach, the result of a command, the events of an arena round, the boards of a
//! record) and send back what the player did, as lichess's chessground does. The API is listed
//! by `GET /api/` and documented in the README. The server keeps no game between requests: a
//! Duck game travels as its list of commands, an arena game as its input; all it holds is the
//! stop flag of each engine search under way.
//!
//! Modules: [`api`] (what an endpoint is, the error type, the body reader), `duck`, `arena` and
//! `chess` (the endpoints of each game), `engine` (the Duck engine's searches, streamed as JSON
//! lines), `routes` (the list of every endpoint, the router and the index built from it),
//! `assets` (the embedded files), [`limits`] (what a request may cost), `work` (the pool that
//! runs rule work off the async threads) and `searches` (the engine's own pool, with its queue
//! and the searches' stop flags).

#![warn(missing_docs)]

pub mod api;
mod arena;
mod assets;
mod chess;
mod duck;
mod engine;
pub mod limits;
mod routes;
mod searches;
mod work;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The pages, each an embedded HTML file.
const PAGES: [(&str, &str); 4] = [
    ("/", "index.html"),
    ("/duck", "duck.html"),
    ("/arena", "arena.html"),
    ("/chess", "chess.html"),
];

/// The whole app: pages, assets and API, with the request limits of [`limits`].
pub fn app() -> Router {
    let mut router = Router::new();
    for (path, file) in PAGES {
        router = router.route(path, get(move || async move { assets::serve(file) }));
    }
    let admitted = Arc::new(Semaphore::new(limits::IN_FLIGHT));
    router
        .route("/assets/{*path}", get(assets::file))
        .merge(routes::router())
        .fallback(|| async { assets::not_found() })
        .layer(Extension(searches::Searches::new()))
        .layer(DefaultBodyLimit::max(limits::BODY))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let admitted = Arc::clone(&admitted);
            async move { admit(&admitted, request, next).await }
        }))
}

/// Lets at most [`limits::IN_FLIGHT`] requests in at once; the others wait here, before their
/// bodies are read. A body announced larger than [`limits::BODY`] is refused at once, unread.
async fn admit(admitted: &Semaphore, request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > limits::BODY as u64) {
        return api::body_too_large().into_response();
    }
    // The semaphore is never closed.
    let _permit = admitted.acquire().await;
    next.run(request).await
}

/// Serves the app on `listener` until Ctrl-C.
pub async fn serve(listener: TcpListener) -> io::Result<()> {
    axum::serve(listener, app())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

/// Binds `host:port`, calls `ready` with the address bound (the port chosen by the system when
/// `port` is 0), and serves until Ctrl-C, on a runtime of its own.
pub fn run(host: &str, port: u16, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind((host, port)).await?;
        ready(listener.local_addr()?);
        serve(listener).await
    })
}
