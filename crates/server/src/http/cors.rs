//! CORS: answer preflights for any origin some app allows; the per-app origin check happens on
//! the actual request ([`super::app_context`]), since preflights carry no `privy-app-id`.

use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, Method, header};
use symbolon_protocol::constants::{
    HEADER_ANALYTICS_ID, HEADER_APP_ID, HEADER_CLIENT, HEADER_CLIENT_ID, HEADER_NATIVE_APP_ID,
};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::state::AppState;

/// The CORS layer: exact origin echoed (never `*`), credentials allowed, `Vary: Origin`.
pub fn cors_layer(state: &AppState) -> CorsLayer {
    let db = state.db.clone();
    let allow_origin = AllowOrigin::async_predicate(move |origin: HeaderValue, _parts| {
        let db = db.clone();
        async move {
            let Ok(origin) = origin.to_str() else {
                return false;
            };
            db.origin_allowed_by_any_app(origin)
                .await
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, "cors origin lookup failed");
                    false
                })
        }
    });
    let custom = [
        HEADER_APP_ID,
        HEADER_CLIENT_ID,
        HEADER_CLIENT,
        HEADER_ANALYTICS_ID,
        HEADER_NATIVE_APP_ID,
    ]
    .map(HeaderName::from_static);
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_credentials(true)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers(
            custom
                .into_iter()
                .chain([header::AUTHORIZATION, header::CONTENT_TYPE])
                .collect::<Vec<_>>(),
        )
        .expose_headers([header::RETRY_AFTER])
        .max_age(Duration::from_secs(600))
}
