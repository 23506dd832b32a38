//! The wallet frame page and its assets (`docs/wallet.md`, "The frame page").
//!
//! `GET /apps/{app_id}/embedded-wallets` serves the built frame's `index.html` with the app's
//! origins written into a `<meta>` tag (the frame answers only those) and into the CSP's
//! `frame-ancestors` (only those may embed it). Assets come from `/embedded-wallets/assets/`
//! (Vite builds the frame with base `/embedded-wallets/`).

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use symbolon_protocol::constants::WALLET_FRAME_ORIGINS_META;

use super::deps::FramePageDeps;
use crate::html::escape_html;
use crate::web::built_pages::{asset_from, error_page, insert_into_head};
use crate::web::path_param::PathParam;

/// The CSP of the frame page, before `frame-ancestors`.
const FRAME_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/// The frame page for `app_id`.
pub async fn page(
    State(deps): State<FramePageDeps>,
    PathParam(app_id): PathParam<String>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let app = match deps.db.find_app(&app_id).await {
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
        origins.push(deps.config.public_origin());
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
    let index = deps.config.wallet_frame_dir.join("index.html");
    let template = match tokio::fs::read_to_string(&index).await {
        Ok(text) => text,
        Err(error) => {
            if !deps.frame_missing_logged.swap(true, Ordering::Relaxed) {
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
pub async fn asset(
    State(deps): State<FramePageDeps>,
    PathParam(file): PathParam<String>,
) -> Response {
    asset_from(&deps.config.wallet_frame_dir, &file).await
}

/// An origin safe to put in a CSP source list: no spaces, quotes, `;` or `,`.
fn is_plain_origin(origin: &str) -> bool {
    origin.contains("://")
        && origin.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b':' | b'/' | b'.' | b'-' | b'[' | b']')
        })
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

/// `template` with `<meta name="symbolon-allowed-origins" content="…">` as the first child of
/// `<head>` (or first of all, when there is no `<head>`).
fn with_origins_meta(template: &str, origins: &[&str]) -> String {
    let meta = format!(
        r#"<meta name="{WALLET_FRAME_ORIGINS_META}" content="{}">"#,
        escape_html(&origins.join(" "))
    );
    insert_into_head(template, &meta)
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
    fn odd_origins_stay_out_of_the_csp() {
        assert!(is_plain_origin("http://localhost:5173"));
        assert!(!is_plain_origin("http://a.test; script-src *"));
        assert!(!is_plain_origin("*"));
        assert_eq!(csp(&[]), format!("{FRAME_CSP}; frame-ancestors 'none'"));
    }
}
