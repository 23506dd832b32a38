//! The HTTP API: routes, extractors, CORS and the error type.

pub mod analytics;
pub mod app_context;
pub mod apps;
pub mod auth;
pub mod client_ip;
pub mod cors;
pub mod embedded_wallets;
pub mod error;
pub mod frame_caller;
pub mod health;
pub mod json_body;
pub mod jwks;
pub mod session_issue;
pub mod sessions;
pub mod siwe;
pub mod user_view;
pub mod users;
pub mod wallet_frame;

use axum::Router;
use axum::routing::{get, post};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::API_PREFIX;
use tower_http::trace::TraceLayer;

use self::error::AppError;
use crate::methods::{custom_jwt, email, guest, sms};
use crate::serve::{Timeouts, with_timeouts};
use crate::state::AppState;

/// The server's router. Every response, errors and unknown routes included, has a JSON body,
/// except the wallet frame's page and assets.
pub fn app(state: AppState) -> Router {
    let api = |path: &str| format!("{API_PREFIX}{path}");
    // Body and whole-request deadlines sit inside CORS, so a browser can read a timeout answer.
    let timeouts = Timeouts::from_config(&state.config.http);
    // Called by host pages: CORS for the apps' origins.
    let host_routes = Router::new()
        .route("/health", get(health::health))
        .route(&api("/apps/{app_id}"), get(apps::get_app))
        .route(&api("/apps/{app_id}/jwks.json"), get(jwks::get_jwks))
        .route(&api("/analytics_events"), post(analytics::record_event))
        .route(&api("/passwordless/init"), post(email::init))
        .route(
            &api("/passwordless/authenticate"),
            post(email::authenticate),
        )
        .route(&api("/passwordless/link"), post(email::link))
        .route(&api("/passwordless/unlink"), post(email::unlink))
        .route(&api("/passwordless/update"), post(email::update))
        .route(&api("/passwordless/transfer"), post(email::transfer))
        .route(&api("/passwordless_sms/init"), post(sms::init))
        .route(
            &api("/passwordless_sms/authenticate"),
            post(sms::authenticate),
        )
        .route(&api("/passwordless_sms/link"), post(sms::link))
        .route(&api("/passwordless_sms/unlink"), post(sms::unlink))
        .route(&api("/passwordless_sms/update"), post(sms::update))
        .route(&api("/passwordless_sms/transfer"), post(sms::transfer))
        .route(&api("/guest/authenticate"), post(guest::authenticate))
        .route(
            &api("/custom_jwt_account/authenticate"),
            post(custom_jwt::authenticate),
        )
        .route(&api("/custom_jwt_account/link"), post(custom_jwt::link))
        .route(&api("/sessions"), post(sessions::refresh))
        .route(&api("/sessions/logout"), post(sessions::logout))
        .route(&api("/users/me"), get(users::me))
        .route(&api("/users/me/accept_terms"), post(users::accept_terms))
        .route(&api("/siwe/unlink"), post(siwe::unlink))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let host_routes = with_timeouts(host_routes, timeouts).layer(cors::cors_layer(&state));
    // Used only by the wallet frame on the server's own origin: merged after the CORS layer, so
    // no host origin gets a preflight grant or a readable answer here.
    let frame_routes = Router::new()
        .route(&api("/embedded_wallets"), post(embedded_wallets::create))
        .route(
            &api("/embedded_wallets/challenge"),
            post(embedded_wallets::challenge),
        )
        .route(
            &api("/embedded_wallets/{address}/recovery/key_material"),
            post(embedded_wallets::key_material),
        )
        .route(
            &api("/embedded_wallets/{address}/shares"),
            post(embedded_wallets::replace_shares),
        )
        .route("/apps/{app_id}/embedded-wallets", get(wallet_frame::page))
        .route("/embedded-wallets/assets/{file}", get(wallet_frame::asset))
        .method_not_allowed_fallback(method_not_allowed);
    host_routes
        .merge(with_timeouts(frame_routes, timeouts))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, "Not found")
}

async fn method_not_allowed() -> AppError {
    AppError::new(ServerErrorCode::NotSupported, "Method not allowed")
}
