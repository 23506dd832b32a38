//! CORS: answer preflights for any origin some app allows; the per-app origin check happens on
//! the actual request ([`crate::web::app_context`]), since preflights carry no `privy-app-id`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderName, HeaderValue, Method, header};
use symbolon_protocol::constants::CLIENT_REQUEST_HEADERS;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::origin::normalize_origin;
use crate::state::AppState;

/// How long a "some app allows this origin" answer is reused. Browsers already cache preflight
/// answers for [`PREFLIGHT_MAX_AGE`], and the per-app check on the actual request never uses
/// this cache, so a removed origin staying allowed here a few seconds longer grants nothing.
const ALLOWED_ORIGIN_TTL: Duration = Duration::from_secs(10);

/// `Access-Control-Max-Age`.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// Origins recently found allowed (positive answers only, so a newly allowed origin works at
/// once). Saves a query on every browser request.
#[derive(Debug, Default)]
struct AllowedOrigins(Mutex<HashMap<String, Instant>>);

impl AllowedOrigins {
    /// At most this many origins are remembered; the map is emptied when it is full.
    const CAPACITY: usize = 1024;

    fn contains(&self, origin: &str) -> bool {
        let Ok(map) = self.0.lock() else { return false };
        map.get(origin)
            .is_some_and(|at| at.elapsed() < ALLOWED_ORIGIN_TTL)
    }

    fn insert(&self, origin: &str) {
        let Ok(mut map) = self.0.lock() else { return };
        if map.len() >= Self::CAPACITY {
            map.clear();
        }
        map.insert(origin.to_string(), Instant::now());
    }
}

/// The CORS layer: exact origin echoed (never `*`), credentials allowed, `Vary: Origin`.
pub fn cors_layer(state: &AppState) -> CorsLayer {
    let db = state.db.clone();
    let allowed = Arc::new(AllowedOrigins::default());
    let allow_origin = AllowOrigin::async_predicate(move |origin: HeaderValue, _parts| {
        let db = db.clone();
        let allowed = Arc::clone(&allowed);
        async move {
            // Stored origins are normalised (lowercase, no default port); so is the lookup.
            let Some(origin) = origin.to_str().ok().and_then(normalize_origin) else {
                return false;
            };
            let origin = origin.as_str();
            if allowed.contains(origin) {
                return true;
            }
            let found = db
                .origin_allowed_by_any_app(origin)
                .await
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, "cors origin lookup failed");
                    false
                });
            if found {
                allowed.insert(origin);
            }
            found
        }
    });
    // Every header the spec's clients send (privy-retry-attempt included): one missing here and
    // the browser blocks every call.
    let request_headers: Vec<HeaderName> = CLIENT_REQUEST_HEADERS
        .iter()
        .copied()
        .map(HeaderName::from_static)
        .collect();
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
        .allow_headers(request_headers)
        .expose_headers([header::RETRY_AFTER])
        .max_age(PREFLIGHT_MAX_AGE)
}
