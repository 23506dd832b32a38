//! The provider's pages on the server's origin, one built bundle (`packages/cross-app-page`):
//! the consent page `GET /apps/{app_id}/oauth/authorize` and the signing page
//! `GET /oauth/transact`. The server writes what the page may trust into
//! `<meta name="symbolon-cross-app" content="{json}">`; the consent request is checked before
//! the page is shown, and a bad one gets an error page, never a redirect (RFC 6749 §4.1.2.1).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::deps::ProviderAppDeps;
use super::{AuthorizeParams, check_request};
use crate::html::escape_html;
use crate::web::built_pages::{asset_from, error_page, insert_into_head};
use crate::web::path_param::PathParam;

/// The meta tag the page reads its context from.
pub const CONTEXT_META: &str = "symbolon-cross-app";

/// Scripts and calls only from this origin; the provider app's wallet frame (same origin) may
/// be embedded; nobody may embed the page (clickjacking a consent).
const PAGE_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self' data: https:; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `GET /apps/{app_id}/oauth/authorize?response_type=code&client_id=…&redirect_uri=…&state=…&code_challenge=…&code_challenge_method=S256`.
pub async fn authorize(
    State(deps): State<ProviderAppDeps>,
    PathParam(app_id): PathParam<String>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return refused("The query string is malformed.");
    };
    let get = |name: &str| query.get(name).map(String::as_str).unwrap_or_default();
    if get("response_type") != "code" {
        return refused("response_type must be code.");
    }
    let params = AuthorizeParams {
        client_id: get("client_id"),
        redirect_uri: get("redirect_uri"),
        code_challenge: get("code_challenge"),
        code_challenge_method: get("code_challenge_method"),
    };
    let checked = match check_request(&deps, &app_id, &params).await {
        Ok(checked) => checked,
        Err(error) => return refused(&error.message),
    };
    let context = json!({
        "mode": "authorize",
        "provider_app_id": checked.provider.id,
        "provider_app_name": checked.provider.name,
        "client_app_id": checked.client.id,
        "client_app_name": checked.client.name,
        "redirect_uri": params.redirect_uri,
        "state": query.get("state"),
        "code_challenge": params.code_challenge,
        "code_challenge_method": params.code_challenge_method,
    });
    serve(&deps, &context).await
}

/// `GET /oauth/transact?token=…&request=…`: the signing page. It reads the token and request
/// from its own address and asks the API what the token allows.
pub async fn transact(State(deps): State<ProviderAppDeps>) -> Response {
    serve(&deps, &json!({ "mode": "transact" })).await
}

/// `GET /cross-app/assets/{file}`.
pub async fn asset(
    State(deps): State<ProviderAppDeps>,
    PathParam(file): PathParam<String>,
) -> Response {
    asset_from(&deps.config.cross_app_page_dir, &file).await
}

/// The built page with `context` (and the API's base URL) in its meta tag.
async fn serve(deps: &ProviderAppDeps, context: &Value) -> Response {
    let index = deps.config.cross_app_page_dir.join("index.html");
    let Ok(template) = tokio::fs::read_to_string(&index).await else {
        tracing::error!(path = %index.display(), "the cross-app page is not built: run `npm run build -w @symbolon/cross-app-page`");
        return html(
            StatusCode::SERVICE_UNAVAILABLE,
            &error_page("Unavailable", "This page is not built on this server."),
        );
    };
    let mut context = context.clone();
    context["api_url"] = json!(deps.config.public_url.trim_end_matches('/'));
    let meta = format!(
        r#"<meta name="{CONTEXT_META}" content="{}">"#,
        escape_html(&context.to_string())
    );
    html(StatusCode::OK, &insert_into_head(&template, &meta))
}

fn refused(message: &str) -> Response {
    html(
        StatusCode::BAD_REQUEST,
        &error_page("This connection request is not valid", message),
    )
}

fn html(status: StatusCode, body: &str) -> Response {
    let mut response = (status, body.to_string()).into_response();
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(header::CONTENT_TYPE, "text/html; charset=utf-8");
    set(header::CONTENT_SECURITY_POLICY, PAGE_CSP);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    // The signing page's address carries the provider token.
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::CACHE_CONTROL, "no-store");
    response
}
