//! The wallet frame page and its assets (`docs/wallet.md`, "The frame page").
//!
//! `GET /apps/{app_id}/embedded-wallets` serves the built frame's `index.html` with the app's
//! origins written into a `<meta>` tag (the frame answers only those) and into the CSP's
//! `frame-ancestors` (only those may embed it). Assets come from `/embedded-wallets/assets/`
//! (Vite builds the frame with base `/embedded-wallets/`).

use std::collections::HashMap;
use std::path::Path as FsPath;
use std::sync::atomic::Ordering;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use symbolon_protocol::constants::WALLET_FRAME_ORIGINS_META;

use super::path_param::PathParam;
use crate::html::escape_html;
use crate::state::AppState;

/// The CSP of the frame page, before `frame-ancestors`.
const FRAME_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/// The frame page for `app_id`.
pub async fn page(
    State(state): State<AppState>,
    PathParam(app_id): PathParam<String>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let app = match state.db.find_app(&app_id).await {
        Ok(Some(app)) => app,
        Ok(None) => {
            return html(
                StatusCode::NOT_FOUND,
                &[],
                &error_page("Unknown app", "No app has this id."),
            );
        }
        Err(error) => {
            tracing::error!(%error, "wallet frame app lookup failed");
            return html(
                StatusCode::INTERNAL_SERVER_ERROR,
                &[],
                &error_page("Server error", "The wallet could not be loaded."),
            );
        }
    };
    let mut origins: Vec<&str> = app
        .allowed_origins
        .iter()
        .map(String::as_str)
        .filter(|o| is_plain_origin(o))
        .collect();
    // A provider app's signing page (`/oauth/transact`, this origin) uses its wallet.
    if app.settings.cross_app.allow_as_provider {
        origins.push(state.config.public_origin());
    }
    let Ok(Query(query)) = query else {
        return html(
            StatusCode::BAD_REQUEST,
            &origins,
            &error_page("Bad request", "The query string is malformed."),
        );
    };
    if let Some(client_id) = query.get("client_id").filter(|c| !c.is_empty())
        && !app.client_ids.iter().any(|c| c == client_id)
    {
        return html(
            StatusCode::BAD_REQUEST,
            &origins,
            &error_page("Unknown client", "This app has no such client id."),
        );
    }
    let index = state.config.wallet_frame_dir.join("index.html");
    let template = match tokio::fs::read_to_string(&index).await {
        Ok(text) => text,
        Err(error) => {
            if !state.frame_missing_logged.swap(true, Ordering::Relaxed) {
                tracing::error!(
                    path = %index.display(),
                    %error,
                    "the wallet frame is not built: run `npm run build -w packages/wallet-frame` or set SYMBOLON_WALLET_FRAME_DIR"
                );
            }
            return html(
                StatusCode::SERVICE_UNAVAILABLE,
                &origins,
                &error_page(
                    "Wallet unavailable",
                    "The wallet frame is not built on this server.",
                ),
            );
        }
    };
    html(
        StatusCode::OK,
        &origins,
        &with_origins_meta(&template, &origins),
    )
}

/// A file from the built frame's `assets/` directory.
pub async fn asset(State(state): State<AppState>, PathParam(file): PathParam<String>) -> Response {
    asset_from(&state.config.wallet_frame_dir, &file).await
}

/// `file` from `dist/assets/` of a built page (the wallet frame, the cross-app page).
pub(crate) async fn asset_from(dist: &FsPath, file: &str) -> Response {
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

/// An origin safe to put in a CSP source list: no spaces, quotes, `;` or `,`.
fn is_plain_origin(origin: &str) -> bool {
    origin.contains("://")
        && origin.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b':' | b'/' | b'.' | b'-' | b'[' | b']')
        })
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

/// The CSP for a page that `origins` may embed (none: nobody may).
fn csp(origins: &[&str]) -> String {
    let ancestors = if origins.is_empty() {
        "'none'".to_string()
    } else {
        origins.join(" ")
    };
    format!("{FRAME_CSP}; frame-ancestors {ancestors}")
}

/// An HTML answer with the frame's security headers.
fn html(status: StatusCode, origins: &[&str], body: &str) -> Response {
    let mut response = (status, body.to_string()).into_response();
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: &str| {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    };
    set(header::CONTENT_TYPE, "text/html; charset=utf-8");
    set(header::CONTENT_SECURITY_POLICY, &csp(origins));
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::CACHE_CONTROL, "no-store");
    response
}

pub(crate) fn plain(status: StatusCode, text: &'static str) -> Response {
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

/// `template` with `<meta name="symbolon-allowed-origins" content="…">` as the first child of
/// `<head>` (or first of all, when there is no `<head>`).
fn with_origins_meta(template: &str, origins: &[&str]) -> String {
    let meta = format!(
        r#"<meta name="{WALLET_FRAME_ORIGINS_META}" content="{}">"#,
        escape_html(&origins.join(" "))
    );
    insert_into_head(template, &meta)
}

/// `template` with `markup` as the first child of `<head>` (or first of all, when there is no
/// `<head>`).
pub(crate) fn insert_into_head(template: &str, meta: &str) -> String {
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

pub(crate) fn error_page(title: &str, message: &str) -> String {
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
    fn meta_goes_first_into_head_escaped() {
        let page = with_origins_meta(
            "<!doctype html><html><HEAD lang=x><title>t</title></HEAD><header></header></html>",
            &["http://a.test", "https://b.test:8443"],
        );
        assert_eq!(
            page,
            "<!doctype html><html><HEAD lang=x><meta name=\"symbolon-allowed-origins\" content=\"http://a.test https://b.test:8443\"><title>t</title></HEAD><header></header></html>"
        );
        assert_eq!(
            escape_html("\"><script>&'"),
            "&quot;&gt;&lt;script&gt;&amp;&#39;"
        );
        let headless = with_origins_meta("<header>x</header>", &[]);
        assert!(headless.starts_with("<meta name=\"symbolon-allowed-origins\" content=\"\">"));
    }

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

    #[test]
    fn odd_origins_stay_out_of_the_csp() {
        assert!(is_plain_origin("http://localhost:5173"));
        assert!(!is_plain_origin("http://a.test; script-src *"));
        assert!(!is_plain_origin("*"));
        assert_eq!(csp(&[]), format!("{FRAME_CSP}; frame-ancestors 'none'"));
    }
}
