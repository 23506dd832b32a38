//! The share endpoints: the request's parts to [`service`](super::service), its answer as JSON.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialRequest,
    KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse, WalletChallengeRequest,
    WalletChallengeResponse,
};

use super::deps::WalletDeps;
use super::service;
use crate::error::AppError;
use crate::web::frame_caller::FrameCaller;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::{Frame, Public};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

/// `POST /embedded_wallets/challenge`: [`service::challenge`].
pub async fn challenge(
    State(deps): State<WalletDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<WalletChallengeRequest>,
) -> Result<Json<WalletChallengeResponse>, AppError> {
    Ok(Json(service::challenge(&deps, &caller, body).await?))
}

/// `POST /embedded_wallets`: [`service::create`].
pub async fn create(
    State(deps): State<WalletDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<CreateEmbeddedWalletRequest>,
) -> Result<Json<CreateEmbeddedWalletResponse>, AppError> {
    Ok(Json(service::create(&deps, &caller, body).await?))
}

/// `POST /embedded_wallets/{address}/key_material`: [`service::key_material`].
pub async fn key_material(
    State(deps): State<WalletDeps>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<KeyMaterialRequest>,
) -> Result<Json<KeyMaterialResponse>, AppError> {
    Ok(Json(
        service::key_material(&deps, &caller, &address, body).await?,
    ))
}

/// `POST /embedded_wallets/{address}/replace_shares`: [`service::replace_shares`].
pub async fn replace_shares(
    State(deps): State<WalletDeps>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<ReplaceSharesRequest>,
) -> Result<Json<ReplaceSharesResponse>, AppError> {
    Ok(Json(
        service::replace_shares(&deps, &caller, &address, body).await?,
    ))
}

/// Embedded wallets: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/embedded_wallets", "Register a wallet the frame derived", Some(json::<CreateEmbeddedWalletRequest>), Body::Json(json::<CreateEmbeddedWalletResponse>), Frame, &[409, 429]),
    r(Post, "/api/v1/embedded_wallets/challenge", "A single-use nonce for one signed wallet call", Some(json::<WalletChallengeRequest>), Body::Json(json::<WalletChallengeResponse>), Frame, &[429]),
    r(Post, "/api/v1/embedded_wallets/{address}/recovery/key_material", "Release the wallet's root shares", Some(json::<KeyMaterialRequest>), Body::Json(json::<KeyMaterialResponse>), Frame, &[404, 409, 429]),
    r(Post, "/api/v1/embedded_wallets/{address}/shares", "Replace the wallet's root shares", Some(json::<ReplaceSharesRequest>), Body::Json(json::<ReplaceSharesResponse>), Frame, &[404, 409, 429]),
    r(Get, "/apps/{app_id}/embedded-wallets", "The wallet frame page", None, Body::Html, Public, &[400, 404]),
    r(Get, "/apps/{app_id}/embedded-wallets/export", "The key export page (the wallet frame page in export mode)", None, Body::Html, Public, &[400, 404]),
    r(Get, "/embedded-wallets/assets/{file}", "A wallet frame asset", None, Body::Asset, Public, &[400, 404]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/embedded_wallets", create)
        .post("/api/v1/embedded_wallets/challenge", challenge)
        .post(
            "/api/v1/embedded_wallets/{address}/recovery/key_material",
            key_material,
        )
        .post("/api/v1/embedded_wallets/{address}/shares", replace_shares)
        .get("/apps/{app_id}/embedded-wallets", super::frame_page::page)
        .get(
            "/apps/{app_id}/embedded-wallets/export",
            super::frame_page::page,
        )
        .get("/embedded-wallets/assets/{file}", super::frame_page::asset)
}
