//! The pages, scripts, styles and fonts, embedded in the binary at build time from
//! `crates/web/assets/`. Nothing is read from the file system while serving: a path that names no
//! embedded file (`/assets/../../etc/passwd` included) is a 404.

use axum::extract::Path;
use axum::http::{StatusCode, header};
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

/// The embedded file at `path`, or a 404.
pub(crate) fn serve(path: &str) -> Response {
    match Assets::get(path) {
        Some(file) => {
            let headers = [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ];
            (headers, file.data).into_response()
        }
        None => not_found(),
    }
}

/// `GET /assets/{*path}`.
pub(crate) async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}

/// A plain 404 for anything that is neither a page, an asset nor an API path.
pub(crate) fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
        .into_response()
}
