//! Serving the front-end pages the server ships (the wallet frame, the cross-app page): their
//! hashed assets, an error page, and markup placed into a page's `<head>`.

use std::path::Path as FsPath;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::html::escape_html;

/// `file` from `dist/assets/` of a built page (the wallet frame, the cross-app page).
pub async fn asset_from(dist: &FsPath, file: &str) -> Response {
    if !is_asset_name(file) {
        return plain(StatusCode::BAD_REQUEST, "Invalid asset name");
    }
    let path = dist.join("assets").join(file);
    match tokio::fs::read(&path).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(file)),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => plain(StatusCode::NOT_FOUND, "Not found"),
    }
}

/// `[A-Za-z0-9._-]+`, not starting with a dot: no path separators, no `..`, no dotfiles.
fn is_asset_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn content_type(file: &str) -> &'static str {
    let extension = FsPath::new(file)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    match extension {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

pub fn plain(status: StatusCode, text: &'static str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response()
}

/// `template` with `markup` as the first child of `<head>` (or first of all, when there is no
/// `<head>`).
pub fn insert_into_head(template: &str, meta: &str) -> String {
    let lower = template.to_ascii_lowercase();
    // `<head>` or `<head …>`, not `<header>`.
    let head_end = lower.match_indices("<head").find_map(|(start, _)| {
        let rest = &lower[start + 5..];
        rest.starts_with(['>', ' ', '\t', '\n', '\r'])
            .then(|| rest.find('>').map(|i| start + 5 + i + 1))
            .flatten()
    });
    match head_end {
        Some(at) => format!("{}{meta}{}", &template[..at], &template[at..]),
        None => format!("{meta}{template}"),
    }
}

pub fn error_page(title: &str, message: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title></head><body><h1>{}</h1><p>{}</p></body></html>",
        escape_html(title),
        escape_html(title),
        escape_html(message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_names_cannot_leave_the_directory() {
        assert!(is_asset_name("index-3f9a.js"));
        assert!(is_asset_name("wallet_core_bg.wasm"));
        for bad in [
            "",
            "..",
            ".env",
            "../index.html",
            "a/b.js",
            "a\\b.js",
            "%2e%2e",
        ] {
            assert!(!is_asset_name(bad), "{bad}");
        }
    }
}
