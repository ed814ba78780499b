//! The pages, scripts, styles and fonts, embedded in the binary at build time from
//! `crates/web/assets/`. Nothing is read from the file system while serving: a path that names no
//! embedded file (`/assets/../../etc/passwd` included) is a 404.
//!
//! Each file carries an `ETag`, the SHA-256 of its content that rust-embed computes when it embeds
//! it; a request whose `If-None-Match` names it gets a 304 without the file. With `Cache-Control:
//! no-cache` the browser asks each time, and a new build's files are never taken for old ones.

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

/// Everything under `assets/`.
#[derive(RustEmbed)]
#[folder = "assets/"]
struct Assets;

/// The content type of an asset, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, extension)| extension) {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        "json" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path`, or a 304 when `request` names its version in `If-None-Match`, or
/// a 404.
pub(crate) fn serve(path: &str, request: &HeaderMap) -> Response {
    let Some(file) = Assets::get(path) else { return not_found() };
    let tag = etag(&file.metadata.sha256_hash());
    let fresh = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|named| {
            let named = named.trim();
            named == "*" || named.trim_start_matches("W/") == tag
        });
    let headers = [
        (header::ETAG, tag),
        (header::CACHE_CONTROL, "no-cache".to_owned()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (headers, [(header::CONTENT_TYPE, content_type(path))], file.data).into_response()
}

/// A strong entity tag from a file's SHA-256: its first 16 bytes in hex, quoted.
fn etag(hash: &[u8; 32]) -> String {
    let hex: String = hash[..16].iter().map(|byte| format!("{byte:02x}")).collect();
    format!("\"{hex}\"")
}

/// `GET /assets/{*path}`.
pub(crate) async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    serve(&path, &headers)
}

/// A plain 404 for anything that is neither a page, an asset nor an API path.
pub(crate) fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
        .into_response()
}
