//! What an operator asks the server: `GET /healthz` (the process answers: 200), `GET /readyz`
//! (the live games' store answers too: 200, else 503 with the store's error) and `GET /metrics`
//! (`crate::metrics`). They are served to clients on loopback and to the trusted proxies'
//! addresses (a monitor on the proxy's machine) only, unless `--metrics-public`: the figures say
//! how loaded the server is, which is no business of every visitor. A request a trusted proxy
//! forwards is judged by the client it forwards, so the public cannot reach them through it.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};

use crate::Context;
use crate::api::ApiError;
use crate::live::Live;
use crate::proxy::Client;
use crate::searches::Searches;

/// The operator's routes.
pub(crate) fn router() -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

/// Refuses a client neither on loopback nor a trusted proxy, unless the metrics are public.
fn admitted(context: &Context, client: Option<Extension<Client>>) -> Result<(), ApiError> {
    // In-process requests (tests) have no client.
    let Some(Extension(client)) = client else { return Ok(()) };
    if context.metrics_public || client.addr.is_loopback() || context.proxies.trusts(client.addr) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "health and metrics are served to loopback and --trusted-proxy addresses only \
         (arbiter serve --metrics-public serves them to everyone)",
    ))
}

async fn healthz(
    Extension(context): Extension<Arc<Context>>,
    client: Option<Extension<Client>>,
) -> Result<Json<serde_json::Value>, ApiError> {
    admitted(&context, client)?;
    Ok(Json(serde_json::json!({ "status": "ok" })))
}

async fn readyz(
    Extension(context): Extension<Arc<Context>>,
    Extension(live): Extension<Arc<Live>>,
    client: Option<Extension<Client>>,
) -> Result<Response, ApiError> {
    admitted(&context, client)?;
    let answered = tokio::task::spawn_blocking(move || live.ready()).await;
    Ok(match answered {
        Ok(Ok(())) => Json(serde_json::json!({ "status": "ready" })).into_response(),
        Ok(Err(error)) => {
            tracing::warn!(%error, "the store does not answer");
            let body = serde_json::json!({ "status": "not ready", "error": error.to_string() });
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
        Err(_) => {
            let body = serde_json::json!({ "status": "not ready", "error": "the check failed" });
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
    })
}

async fn metrics(
    Extension(context): Extension<Arc<Context>>,
    Extension(live): Extension<Arc<Live>>,
    Extension(searches): Extension<Arc<Searches>>,
    client: Option<Extension<Client>>,
) -> Result<Response, ApiError> {
    admitted(&context, client)?;
    let metrics = &context.metrics;
    let (kept, watched) = live.counts();
    metrics.games_live.set(kept as f64);
    metrics.games_watched.set(watched as f64);
    metrics.searches.set(searches.running() as f64);
    Ok(metrics.render())
}
