//! The `/v1/aggregations` routes: their table and thin handlers.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::policies::{Aggregation, AggregationInput, SuccessResponse};

use super::deps::AggregationDeps;
use super::service;
use crate::error::AppError;
use crate::web::back_end::BackEnd;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::AppSecret;
use crate::web::routes::Verb::{Delete, Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

async fn create(
    State(deps): State<AggregationDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<AggregationInput>,
) -> Result<Json<Aggregation>, AppError> {
    Ok(Json(service::create(&deps, &back_end.app.id, &body).await?))
}

async fn get(
    State(deps): State<AggregationDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
) -> Result<Json<Aggregation>, AppError> {
    Ok(Json(service::get(&deps, &back_end.app.id, &id).await?))
}

async fn delete(
    State(deps): State<AggregationDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
) -> Result<Json<SuccessResponse>, AppError> {
    service::delete(&deps, &back_end.app.id, &id).await?;
    Ok(Json(SuccessResponse { success: true }))
}

/// The aggregations API: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const AGGREGATION: Body = Body::Json(json::<Aggregation>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/v1/aggregations", "Create an aggregation (a wallet's transaction values summed over a rolling window of 1 to 72 hours)", Some(json::<AggregationInput>), AGGREGATION, AppSecret, &[]),
    r(Get, "/v1/aggregations/{aggregation_id}", "The app's aggregation", None, AGGREGATION, AppSecret, &[404]),
    r(Delete, "/v1/aggregations/{aggregation_id}", "Delete an aggregation no policy names", None, Body::Json(json::<SuccessResponse>), AppSecret, &[404]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/v1/aggregations", create)
        .get("/v1/aggregations/{aggregation_id}", get)
        .delete("/v1/aggregations/{aggregation_id}", delete)
}
