//! The wallet API's routes: their table and thin handlers.

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::Value;
use symbolon_protocol::wallet_api::{ServerWallet, WalletListResponse, WalletRpcResponse};
use symbolon_signer::methods::Route as SignRoute;

use super::deps::WalletApiDeps;
use super::service;
use crate::db::delegations::WalletFilter;
use crate::error::AppError;
use crate::web::authorization_signature::Signed;
use crate::web::back_end::BackEnd;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::AppSecret;
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

/// `GET /v1/wallets` query.
#[derive(Debug, Deserialize)]
struct ListQuery {
    cursor: Option<String>,
    limit: Option<u32>,
    user_id: Option<String>,
    chain_type: Option<String>,
    address: Option<String>,
}

async fn list(
    State(deps): State<WalletApiDeps>,
    back_end: BackEnd,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<WalletListResponse>, AppError> {
    let Query(query) = query.map_err(|e| AppError::invalid_data(e.body_text()))?;
    let filter = WalletFilter {
        user_id: query.user_id,
        chain_type: query.chain_type,
        address: query.address,
    };
    let page = service::list(
        &deps,
        &back_end.app,
        filter,
        query.cursor.as_deref(),
        query.limit,
    )
    .await?;
    Ok(Json(page))
}

async fn get(
    State(deps): State<WalletApiDeps>,
    back_end: BackEnd,
    PathParam(wallet_id): PathParam<String>,
) -> Result<Json<ServerWallet>, AppError> {
    Ok(Json(service::get(&deps, &back_end.app, &wallet_id).await?))
}

async fn rpc(
    State(deps): State<WalletApiDeps>,
    back_end: BackEnd,
    PathParam(wallet_id): PathParam<String>,
    signed: Signed<Value>,
) -> Result<Json<WalletRpcResponse>, AppError> {
    signed_call(&deps, &back_end, &wallet_id, SignRoute::Rpc, &signed).await
}

async fn raw_sign(
    State(deps): State<WalletApiDeps>,
    back_end: BackEnd,
    PathParam(wallet_id): PathParam<String>,
    signed: Signed<Value>,
) -> Result<Json<WalletRpcResponse>, AppError> {
    signed_call(&deps, &back_end, &wallet_id, SignRoute::RawSign, &signed).await
}

/// A request to `route` of the wallet, signed through the signer.
async fn signed_call(
    deps: &WalletApiDeps,
    back_end: &BackEnd,
    wallet_id: &str,
    route: SignRoute,
    signed: &Signed<Value>,
) -> Result<Json<WalletRpcResponse>, AppError> {
    let answer = service::sign(deps, &back_end.app, wallet_id, route, &signed.request).await?;
    Ok(Json(answer))
}

/// The wallet API: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const SIGNED: Body = Body::Json(json::<WalletRpcResponse>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Get, "/v1/wallets", "A page of the app's embedded wallets (cursor, limit, user_id, chain_type, address)", None, Body::Json(json::<WalletListResponse>), AppSecret, &[]),
    r(Get, "/v1/wallets/{wallet_id}", "One of the app's embedded wallets", None, Body::Json(json::<ServerWallet>), AppSecret, &[404]),
    r(Post, "/v1/wallets/{wallet_id}/rpc", "Sign or send with a delegated wallet: authorization signatures by a consented key, within the consented policies", None, SIGNED, AppSecret, &[401, 403, 404]),
    r(Post, "/v1/wallets/{wallet_id}/raw_sign", "Sign a hash (or bytes hashed with keccak256) with a delegated wallet", None, SIGNED, AppSecret, &[401, 403, 404]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .get("/v1/wallets", list)
        .get("/v1/wallets/{wallet_id}", get)
        .post("/v1/wallets/{wallet_id}/rpc", rpc)
        .post("/v1/wallets/{wallet_id}/raw_sign", raw_sign)
}
