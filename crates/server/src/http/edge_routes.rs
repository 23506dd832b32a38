//! The edge's own routes: health, the OpenAPI document, the app's client configuration, its
//! keys, analytics.

use super::openapi::HealthResponse;
use crate::tokens::JwksResponse;
use crate::web::routes::Access::{App, Public};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::app::AppConfigResponse;
use symbolon_protocol::session::{AnalyticsEventRequest, SuccessResponse};

/// Every route of the edge, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Get, "/health", "Liveness", None, Body::Json(json::<HealthResponse>), Public, &[]),
    r(Get, "/api/v1/openapi.json", "This document", None, Body::AnyJson, Public, &[]),
    r(Get, "/api/v1/apps/{app_id}", "The app's client configuration", None, Body::Json(json::<AppConfigResponse>), App, &[400]),
    r(Get, "/api/v1/apps/{app_id}/jwks.json", "Keys that verify the app's tokens", None, Body::Json(json::<JwksResponse>), Public, &[400]),
    r(Get, "/v1/apps/{app_id}/jwks.json", "The same keys where the vendor's server SDK looks for them", None, Body::Json(json::<JwksResponse>), Public, &[400]),
    r(Post, "/api/v1/analytics_events", "Accept (and drop) a client analytics event", Some(json::<AnalyticsEventRequest>), Body::Json(json::<SuccessResponse>), Public, &[]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .get("/health", super::health::health)
        .get("/api/v1/openapi.json", super::openapi::serve)
        .get("/api/v1/apps/{app_id}", super::apps::get_app)
        .get("/api/v1/apps/{app_id}/jwks.json", super::jwks::get_jwks)
        .get("/v1/apps/{app_id}/jwks.json", super::jwks::get_jwks)
        .post("/api/v1/analytics_events", super::analytics::record_event)
}
