//! Letting a request in: its whole body is read first, within [`limits::BODY_TIME`] and
//! [`limits::BODY`], and only then does it wait for its share of [`limits::BODIES_IN_FLIGHT`]
//! and for one of the [`limits::IN_FLIGHT`] places. A client that sends its body slowly therefore
//! holds its own connection only, never a place that ready requests need; and since every body is
//! read to its end before any handler answers, a 404 or a 405 leaves the connection clean for the
//! next request.
//!
//! What a request costs in memory while it is handled (the body, what is parsed from it, the
//! reply) grows with its body, so the bodies handled at once are bounded in bytes, not only in
//! number: 64 requests of 1 MiB each wait for one another instead of being parsed all at once.
//!
//! Once the last large body has been handled, the memory it took is given back to the system.
//!
//! A request refused here (a body too large or too slow) is answered with `Connection: close`:
//! the rest of its body is never read, so the connection cannot carry another request.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use tokio::sync::{Semaphore, watch};

use crate::api::{self, ApiError};
use crate::limits;

/// The room for request bodies being handled, one permit per KiB (see
/// [`limits::BODIES_IN_FLIGHT`]).
pub(crate) fn body_room() -> Semaphore {
    Semaphore::new(limits::BODIES_IN_FLIGHT.div_ceil(1024))
}

/// Reads the body of `request` within `deadline`, then runs it once `room` has room for the body
/// and one of the `places` is free. A body still arriving when `closing` turns true (the server is
/// shutting down) is given up.
pub(crate) async fn admit(
    room: &Semaphore,
    places: &Semaphore,
    deadline: Duration,
    closing: watch::Receiver<bool>,
    request: Request,
    next: Next,
) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > limits::BODY as u64) {
        return refused(api::body_too_large());
    }
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(deadline, Limited::new(body, limits::BODY).collect());
    let read = tokio::select! {
        read = read => read,
        () = closing_time(closing) => {
            return refused(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down",
            ));
        }
    };
    let bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => {
            return refused(api::body_too_large());
        }
        Ok(Err(error)) => {
            return refused(ApiError::bad_request(format!(
                "cannot read the request body: {error}"
            )));
        }
        Err(_) => {
            return refused(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body took over {} s to arrive, the most the server waits",
                    deadline.as_secs()
                ),
            ));
        }
    };
    // A body of at most `limits::BODY` needs fewer permits than `room` holds, so it always gets
    // them in the end; an empty body takes none.
    let kib = u32::try_from(bytes.len().div_ceil(1024)).unwrap_or(u32::MAX);
    let request = Request::from_parts(parts, Body::from(bytes));
    // The semaphores are never closed.
    let held = room.acquire_many(kib).await;
    let place = places.acquire().await;
    let response = next.run(request).await;
    drop((place, held));
    // What a large body (64 KiB or more) was parsed into is freed now; once no other is being
    // handled, the allocator is asked to give its free memory back to the system (glibc keeps
    // it otherwise, and the server would stay at its peak for ever).
    if kib >= 64 && room.available_permits() == limits::BODIES_IN_FLIGHT.div_ceil(1024) {
        give_back_memory();
    }
    response
}

/// Returns the allocator's free memory to the system, on a blocking thread (it walks the heap).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    tokio::task::spawn_blocking(|| {
        // SAFETY: `malloc_trim` only releases free memory of glibc's heap; it is thread-safe.
        unsafe { libc::malloc_trim(0) };
    });
}

/// Completes once `closing` turns true; never if its sender is gone without that.
async fn closing_time(mut closing: watch::Receiver<bool>) {
    if closing.wait_for(|&closing| closing).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// `error` as a response that closes its connection.
fn refused(error: ApiError) -> Response {
    let mut response = error.into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
