//! The `/v1/key_quorums` routes: their table and thin handlers.

use axum::Json;
use axum::extract::State;
use serde_json::Value;
use symbolon_protocol::key_quorums::{KeyQuorum, KeyQuorumRequest};
use symbolon_protocol::policies::SuccessResponse;

use super::deps::KeyQuorumDeps;
use super::service;
use crate::error::AppError;
use crate::web::authorization_signature::Signed;
use crate::web::back_end::BackEnd;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::AppSecret;
use crate::web::routes::Verb::{Delete, Get, Patch, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

async fn create(
    State(deps): State<KeyQuorumDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<KeyQuorumRequest>,
) -> Result<Json<KeyQuorum>, AppError> {
    Ok(Json(service::create(&deps, &back_end.app.id, &body).await?))
}

async fn get(
    State(deps): State<KeyQuorumDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
) -> Result<Json<KeyQuorum>, AppError> {
    Ok(Json(service::get(&deps, &back_end.app.id, &id).await?))
}

async fn update(
    State(deps): State<KeyQuorumDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
    signed: Signed<KeyQuorumRequest>,
) -> Result<Json<KeyQuorum>, AppError> {
    let quorum =
        service::update(&deps, &back_end.app.id, &id, &signed.body, &signed.request).await?;
    Ok(Json(quorum))
}

async fn delete(
    State(deps): State<KeyQuorumDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
    signed: Signed<Value>,
) -> Result<Json<SuccessResponse>, AppError> {
    service::delete(&deps, &back_end.app.id, &id, &signed.request).await?;
    Ok(Json(SuccessResponse { success: true }))
}

/// The key-quorums API: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const QUORUM: Body = Body::Json(json::<KeyQuorum>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/v1/key_quorums", "Create a key quorum (P-256 keys and how many must sign)", Some(json::<KeyQuorumRequest>), QUORUM, AppSecret, &[]),
    r(Get, "/v1/key_quorums/{key_quorum_id}", "The app's key quorum", None, QUORUM, AppSecret, &[404]),
    r(Patch, "/v1/key_quorums/{key_quorum_id}", "Change a key quorum (its own authorization signatures)", Some(json::<KeyQuorumRequest>), QUORUM, AppSecret, &[404]),
    r(Delete, "/v1/key_quorums/{key_quorum_id}", "Delete a key quorum that owns nothing (its own authorization signatures)", None, Body::Json(json::<SuccessResponse>), AppSecret, &[404]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/v1/key_quorums", create)
        .get("/v1/key_quorums/{key_quorum_id}", get)
        .patch("/v1/key_quorums/{key_quorum_id}", update)
        .delete("/v1/key_quorums/{key_quorum_id}", delete)
}
