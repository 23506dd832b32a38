//! The HTTP API: routes, extractors, CORS and the error type.

pub mod analytics;
pub mod app_context;
pub mod apps;
pub mod auth;
pub mod cors;
pub mod email;
pub mod error;
pub mod health;
pub mod json_body;
pub mod jwks;
pub mod passwordless;
pub mod session_issue;
pub mod sessions;
pub mod user_view;
pub mod users;

use axum::Router;
use axum::routing::{get, post};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::API_PREFIX;
use tower_http::trace::TraceLayer;

use self::error::AppError;
use crate::state::AppState;

/// The server's router. Every response, errors and unknown routes included, has a JSON body.
pub fn app(state: AppState) -> Router {
    let api = |path: &str| format!("{API_PREFIX}{path}");
    Router::new()
        .route("/health", get(health::health))
        .route(&api("/apps/{app_id}"), get(apps::get_app))
        .route(&api("/apps/{app_id}/jwks.json"), get(jwks::get_jwks))
        .route(&api("/analytics_events"), post(analytics::record_event))
        .route(&api("/passwordless/init"), post(passwordless::init))
        .route(
            &api("/passwordless/authenticate"),
            post(passwordless::authenticate),
        )
        .route(&api("/sessions"), post(sessions::refresh))
        .route(&api("/sessions/logout"), post(sessions::logout))
        .route(&api("/users/me"), get(users::me))
        .route(&api("/users/me/accept_terms"), post(users::accept_terms))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(cors::cors_layer(&state))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, "Not found")
}

async fn method_not_allowed() -> AppError {
    AppError::new(ServerErrorCode::NotSupported, "Method not allowed")
}
