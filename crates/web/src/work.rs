//! CPU-bound work (replaying a game, simulating an arena, checking PGN) runs on tokio's blocking
//! threads, at most one job per core at a time, so that the async threads keep answering and a
//! burst of heavy requests queues instead of multiplying threads.
//!
//! This is the one door for rule work. The engine's searches, which keep a core busy for seconds,
//! have a pool of their own (`crate::searches`), so that they never hold up rule work.

use std::sync::OnceLock;

use axum::http::StatusCode;
use tokio::sync::Semaphore;

use crate::api::ApiError;

/// One permit per core.
fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Semaphore::new(cores)
    })
}

/// Runs `job` on a blocking thread once a core is free, and returns what it returns.
pub(crate) async fn run<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let internal = |what: &str| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, what.to_owned());
    // The semaphore is never closed, so acquiring only waits.
    let _permit = permits().acquire().await.map_err(|_| internal("the server is shutting down"))?;
    tokio::task::spawn_blocking(job).await.map_err(|_| internal("the job failed"))?
}
