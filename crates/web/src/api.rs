//! What every endpoint of the JSON API under `/api/` is made of: its description
//! ([`Endpoint`]), the request body reader, and the error every endpoint answers with. The list
//! of endpoints and the router built from it are in `routes`.
//!
//! Every endpoint takes and gives JSON. A failure is an HTTP status with `{"error": "..."}`:
//! 400 for a body that is not the JSON the endpoint reads or an input that breaks its format,
//! 404 for an unknown path, 405 for a known path with the wrong method, 413 for a body or an
//! input beyond the limits of [`crate::limits`], 415 for a body not sent as `application/json`,
//! 403 for a request from another site (see [`crate::guard`]).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use serde::de::DeserializeOwned;

use crate::limits;

/// One endpoint: how it is called, what it does, and its handler.
pub(crate) struct Endpoint {
    /// `GET` or `POST`.
    pub(crate) method: &'static str,
    /// The path, starting with `/api/`.
    pub(crate) path: &'static str,
    /// What it does, in one line.
    pub(crate) about: &'static str,
    /// The handler.
    pub(crate) route: MethodRouter,
}

/// A failed request: its status and a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status, always 4xx for anything a client can send.
    pub status: StatusCode,
    /// What went wrong and, where it helps, what to do.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 413: the input is larger than the server takes.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// The 413 of a body over [`limits::BODY`].
pub(crate) fn body_too_large() -> ApiError {
    ApiError::too_large(format!(
        "the request body is over {} bytes (1 MiB), the most the server reads",
        limits::BODY
    ))
}

/// A JSON request body read into `T`. It must be sent as `Content-Type: application/json` (a
/// 415 otherwise: a page on another site can send the other types without asking), every
/// malformed body is a 400 that says what is wrong, and a body over [`limits::BODY`] is a 413.
pub(crate) struct Body<T>(pub(crate) T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let kind = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        let essence = kind.and_then(|kind| kind.split(';').next()).map(str::trim);
        if !essence.is_some_and(|essence| essence.eq_ignore_ascii_case("application/json")) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the request body must be JSON sent with Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                body_too_large()
            } else {
                ApiError::bad_request(format!("cannot read the request body: {rejection}"))
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(Body)
            .map_err(|error| ApiError::bad_request(format!("malformed JSON body: {error}")))
    }
}
