//! The edge: assembles the router from the route tables of the capabilities and the login methods,
//! adds CORS and deadlines, builds the OpenAPI document from the same tables, and maps an error
//! code to its HTTP status ([`error`]). Nothing below imports it (docs/architecture.md, "The
//! server's layers").

pub mod analytics;
pub mod apps;
pub mod cors;
pub mod edge_routes;
pub mod error;
pub mod health;
pub mod jwks;
pub mod openapi;

use axum::{Router, middleware};
use symbolon_protocol::ServerErrorCode;
use tower_http::trace::TraceLayer;

use crate::error::AppError;
use crate::methods::METHODS;
use crate::serve::{Timeouts, with_timeouts};
use crate::state::AppState;
use crate::web::idempotency::idempotency;
use crate::web::routes::{Route, Routes};
use crate::{
    aggregations, delegation, key_quorums, mfa, policies, provider_app, server_api, sessions,
    users, wallet_api, wallets,
};

/// Every capability but the login methods (`methods::METHODS`), each with its route table.
const CAPABILITIES: &[Routes] = &[
    edge_routes::ROUTES,
    sessions::routes::ROUTES,
    users::routes::ROUTES,
    mfa::routes::ROUTES,
    wallets::routes::ROUTES,
    provider_app::routes::ROUTES,
    server_api::routes::ROUTES,
    policies::routes::ROUTES,
    key_quorums::routes::ROUTES,
    aggregations::routes::ROUTES,
    delegation::routes::ROUTES,
    wallet_api::routes::ROUTES,
];

/// Every route of the server, from the capabilities' and the login methods' tables.
pub fn routes() -> impl Iterator<Item = &'static Route> {
    CAPABILITIES
        .iter()
        .chain(METHODS)
        .flat_map(|routes| routes.table)
}

/// The server's router. Every response, errors and unknown routes included, has a JSON body,
/// except the wallet frame's and cross-app pages and assets. Routes are mounted only from the
/// capabilities' route tables ([`routes`]), which the OpenAPI document is built from.
pub fn app(state: AppState) -> Router {
    // Body and whole-request deadlines sit inside CORS, so a browser can read a timeout answer.
    let timeouts = Timeouts::from_config(&state.config.http);
    let (mut host_routes, mut own_routes) = (Router::new(), Router::new());
    for routes in CAPABILITIES.iter().chain(METHODS) {
        let (host, own) = routes.routers();
        host_routes = host_routes.merge(host);
        own_routes = own_routes.merge(own);
    }
    // Called by host pages: CORS for the apps' origins.
    let host_routes = host_routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let host_routes = with_timeouts(host_routes, timeouts).layer(cors::cors_layer(&state));
    // The wallet frame's calls, the pages a browser navigates to and the back channels: merged
    // after the CORS layer, so no host origin gets a preflight grant or a readable answer here.
    // Host back ends' keyed writes (`/v1`) run once per key.
    let own_routes = own_routes
        .route_layer(middleware::from_fn_with_state(state.clone(), idempotency))
        .method_not_allowed_fallback(method_not_allowed);
    host_routes
        .merge(with_timeouts(own_routes, timeouts))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, "Not found")
}

async fn method_not_allowed() -> AppError {
    AppError::new(ServerErrorCode::NotSupported, "Method not allowed")
}
