//! The server's figures, in Prometheus's text format at `GET /metrics`: what is open, what was
//! done, how long it took, and what was refused by which limit. Each server has its own
//! recorder (the `metrics` crate's [`Recorder`], rendered by `metrics-exporter-prometheus`),
//! not the process-wide one, so that several servers in one process (the tests) count apart.
//!
//! | metric | type | what |
//! | --- | --- | --- |
//! | `arbiter_connections_open` | gauge | connections open, WebSockets included |
//! | `arbiter_sockets_open` | gauge | live games' WebSockets open |
//! | `arbiter_games_live` | gauge | live games held in memory (those played or watched lately) |
//! | `arbiter_games_watched` | gauge | live games with a WebSocket open on this server |
//! | `arbiter_moves_total` | counter | moves committed (its rate is the moves a second) |
//! | `arbiter_refusals_total{limit}` | counter | clients refused, by the limit they hit |
//! | `arbiter_engine_searches_running` | gauge | engine searches running (not waiting) |
//! | `arbiter_request_duration_seconds{method}` | histogram | from a request's headers to its answer's |
//! | `arbiter_commit_duration_seconds` | histogram | a live game's change committed to the store |

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use metrics::{Counter, Gauge, Histogram, Key, Label, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

use crate::limits::Limit;

/// The bounds of the latency histograms' buckets, in seconds: 1 ms to 10 s.
const BUCKETS: [f64; 13] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// How often the histograms' samples are folded into their buckets.
const UPKEEP: Duration = Duration::from_secs(5);

/// One server's metrics.
pub(crate) struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    pub(crate) connections: Gauge,
    pub(crate) sockets: Gauge,
    pub(crate) games_live: Gauge,
    pub(crate) games_watched: Gauge,
    pub(crate) moves: Counter,
    pub(crate) searches: Gauge,
    pub(crate) commits: Histogram,
    refusals: [Counter; Limit::ALL.len()],
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

/// Where a metric is registered from, which the Prometheus recorder does not use.
static HERE: Metadata<'static> =
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()));

impl Metrics {
    /// Fresh metrics, every one at zero.
    pub(crate) fn new() -> Arc<Metrics> {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        let gauge = |name: &'static str, about: &'static str| {
            recorder.describe_gauge(name.into(), None, about.into());
            let gauge = recorder.register_gauge(&Key::from_static_name(name), &HERE);
            gauge.set(0.0);
            gauge
        };
        let connections =
            gauge("arbiter_connections_open", "connections open, WebSockets included");
        let sockets = gauge("arbiter_sockets_open", "live games' WebSockets open");
        let games_live = gauge("arbiter_games_live", "live games held in memory");
        let games_watched =
            gauge("arbiter_games_watched", "live games with a WebSocket open on this server");
        let searches = gauge("arbiter_engine_searches_running", "engine searches running");
        recorder.describe_counter("arbiter_moves_total".into(), None, "moves committed".into());
        let moves = recorder.register_counter(&Key::from_static_name("arbiter_moves_total"), &HERE);
        moves.absolute(0);
        recorder.describe_counter(
            "arbiter_refusals_total".into(),
            None,
            "clients refused, by the limit they hit".into(),
        );
        let refusals = Limit::ALL.map(|limit| {
            let labels = vec![Label::new("limit", limit.name())];
            let key = Key::from_parts("arbiter_refusals_total", labels);
            let counter = recorder.register_counter(&key, &HERE);
            counter.absolute(0);
            counter
        });
        recorder.describe_histogram(
            "arbiter_request_duration_seconds".into(),
            Some(Unit::Seconds),
            "from a request's headers to its answer's".into(),
        );
        recorder.describe_histogram(
            "arbiter_commit_duration_seconds".into(),
            Some(Unit::Seconds),
            "a live game's change committed to the store".into(),
        );
        let commits = recorder
            .register_histogram(&Key::from_static_name("arbiter_commit_duration_seconds"), &HERE);
        Arc::new(Metrics {
            recorder,
            handle,
            connections,
            sockets,
            games_live,
            games_watched,
            moves,
            searches,
            commits,
            refusals,
        })
    }

    /// Counts a client refused by `limit`.
    pub(crate) fn refused(&self, limit: Limit) {
        if let Some(index) = Limit::ALL.iter().position(|&each| each == limit) {
            self.refusals[index].increment(1);
        }
    }

    /// Records the time a request with `method` took.
    pub(crate) fn request(&self, method: &str, took: Duration) {
        // Only the methods the server serves, so that a client cannot make new series.
        let method = match method {
            "GET" | "POST" | "HEAD" => method.to_owned(),
            _ => "other".to_owned(),
        };
        let key =
            Key::from_parts("arbiter_request_duration_seconds", vec![Label::new("method", method)]);
        self.recorder.register_histogram(&key, &HERE).record(took.as_secs_f64());
    }

    /// Folds the histograms' samples into their buckets every few seconds, for as long as the
    /// metrics live.
    pub(crate) fn keep_up(self: &Arc<Metrics>) {
        let metrics = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(UPKEEP).await;
                let Some(metrics) = metrics.upgrade() else { break };
                metrics.handle.run_upkeep();
            }
        });
    }

    /// The metrics in Prometheus's text format.
    pub(crate) fn render(&self) -> Response {
        let mut response = self.handle.render().into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        );
        response
    }
}
