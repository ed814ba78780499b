//! The JSON API's routes: one list of endpoints, from which both the router and the index
//! (`GET /api/`) are built.

use axum::Json;
use axum::Router;
use axum::http::StatusCode;
use axum::routing::{any, get};
use serde::Serialize;

use crate::api::{ApiError, Endpoint};

/// Every endpoint, the index first.
fn endpoints() -> Vec<Endpoint> {
    let mut all = vec![Endpoint {
        method: "GET",
        path: "/api/",
        about: "this list of endpoints",
        route: get(index),
    }];
    all.extend(crate::duck::endpoints());
    all.extend(crate::engine::endpoints());
    all.extend(crate::analysis::endpoints());
    all.extend(crate::arena::endpoints());
    all.extend(crate::chess::endpoints());
    all.extend(crate::live::endpoints());
    all.extend(crate::accounts::endpoints());
    all.extend(crate::lobby::endpoints());
    all
}

/// The API's routes; any other path under `/api/` is a JSON 404.
pub(crate) fn router() -> Router {
    let mut router = Router::new();
    for endpoint in endpoints() {
        let route = endpoint.route.fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take that method")
        });
        router = router.route(endpoint.path, route);
    }
    let unknown = || async {
        ApiError::new(StatusCode::NOT_FOUND, "no such endpoint (GET /api/ lists them)")
    };
    router.route("/api", get(index)).route("/api/{*rest}", any(unknown))
}

/// An entry of the index.
#[derive(Serialize)]
struct Listed {
    method: &'static str,
    path: &'static str,
    about: &'static str,
}

/// `GET /api/`: every endpoint with its method and what it does.
async fn index() -> Json<serde_json::Value> {
    let listed: Vec<Listed> = endpoints()
        .into_iter()
        .map(|e| Listed { method: e.method, path: e.path, about: e.about })
        .collect();
    Json(serde_json::json!({ "endpoints": listed }))
}
