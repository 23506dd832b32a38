//! The share endpoints: the request's parts to [`service`](super::service), its answer as JSON.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialRequest,
    KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse, WalletChallengeRequest,
    WalletChallengeResponse,
};

use super::service;
use crate::error::AppError;
use crate::state::AppState;
use crate::web::frame_caller::FrameCaller;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;

/// `POST /embedded_wallets/challenge`: [`service::challenge`].
pub async fn challenge(
    State(state): State<AppState>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<WalletChallengeRequest>,
) -> Result<Json<WalletChallengeResponse>, AppError> {
    Ok(Json(service::challenge(&state, &caller, body).await?))
}

/// `POST /embedded_wallets`: [`service::create`].
pub async fn create(
    State(state): State<AppState>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<CreateEmbeddedWalletRequest>,
) -> Result<Json<CreateEmbeddedWalletResponse>, AppError> {
    Ok(Json(service::create(&state, &caller, body).await?))
}

/// `POST /embedded_wallets/{address}/key_material`: [`service::key_material`].
pub async fn key_material(
    State(state): State<AppState>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<KeyMaterialRequest>,
) -> Result<Json<KeyMaterialResponse>, AppError> {
    Ok(Json(
        service::key_material(&state, &caller, &address, body).await?,
    ))
}

/// `POST /embedded_wallets/{address}/replace_shares`: [`service::replace_shares`].
pub async fn replace_shares(
    State(state): State<AppState>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<ReplaceSharesRequest>,
) -> Result<Json<ReplaceSharesResponse>, AppError> {
    Ok(Json(
        service::replace_shares(&state, &caller, &address, body).await?,
    ))
}
